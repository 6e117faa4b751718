// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu.module(stencil-nvvm-c-math))' | FileCheck %s
// RUN: stencil-opt %s --pass-pipeline='builtin.module(gpu.module(stencil-nvvm-c-math, convert-gpu-to-nvvm))' | FileCheck %s --check-prefix=NVVM

// sqrtf is C's correctly rounded square root: the NVVM intrinsic, not
// libdevice's __nv_sqrtf (approximate unless NVVMReflect is told
// otherwise). f64 and fabs stay on libdevice, which is exact for them.
// CHECK-LABEL: gpu.func @roots
// CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%{{.*}}) : (f32) -> f32
// CHECK: math.sqrt %{{.*}} : f64
// CHECK: math.absf %{{.*}} : f32
// NVVM-NOT: __nv_sqrtf
// NVVM: llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"
// NVVM: llvm.call @__nv_sqrt(
gpu.module @kernels {
  gpu.func @roots(%x: f32, %y: f64) -> (f32, f64) {
    %r = math.sqrt %x : f32
    %d = math.sqrt %y : f64
    %a = math.absf %r : f32
    gpu.return %a, %d : f32, f64
  }
}

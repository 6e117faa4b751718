// The GPU pipeline on a copy-form heat loop with time_block 2.
// RUN: stencil-opt %s --pass-pipeline='builtin.module(convert-stencil-to-gpu,canonicalize,func.func(gpu-launch-sink-index-computations),gpu-kernel-outlining,stencil-merge-kernel-modules,nvvm-attach-target{chip=sm_90},gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1}))' | FileCheck %s --check-prefix=NVVM
// RUN: stencil-opt %s '--stencil-to-gpu=target=cuda chip=sm_90 format=isa' | FileCheck %s --check-prefixes=HOST,PTX
// RUN: stencil-opt %s '--stencil-to-gpu=target=vulkan' | FileCheck %s --check-prefixes=HOST,SPIRV
// RUN: %if amdgpu-codegen %{ stencil-opt %s '--stencil-to-gpu=target=rocm chip=gfx942 format=isa toolkit=%rocm_toolkit' | FileCheck %s --check-prefixes=HOST,AMD %}
// RUN: not stencil-opt %s '--stencil-to-gpu=target=opencl' 2>&1 | FileCheck %s --check-prefix=BADTARGET

// Under NVVM, kernels take bare pointers, share one module, and keep the time
// block's two
// buffers as shared-memory globals, a barrier between steps.
// NVVM: gpu.module @heat_kernel [#nvvm.target<chip = "sm_90">]
// NVVM-DAG: llvm.mlir.global internal @__wg_{{.*}}() {addr_space = 3 : i32} : !llvm.array<160 x f32>
// NVVM-DAG: llvm.func @heat_kernel{{.*}}(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// NVVM-DAG: nvvm.read.ptx.sreg.tid.x
// NVVM-DAG: nvvm.read.ptx.sreg.ctaid.y
// NVVM-DAG: nvvm.barrier

// Host code in the LLVM dialect with the pragma-C driver's bare pointers,
// kernel launches on a stream left for the LLVM translation, and one binary
// for all kernels after it.
// HOST: llvm.func @heat(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64)
// HOST: gpu.launch_func <%{{.*}} : !llvm.ptr> @heat_kernel::@heat_kernel_7
// PTX: gpu.binary @heat_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, {{.*}}assembly = "{{.*}}.target sm_90{{.*}}.shared .align{{.*}}bar.sync{{.*}}"
// SPIRV: gpu.binary @heat_kernel [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Shader, Float64, Int64], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan
// AMD: gpu.binary @heat_kernel [#gpu.object<#rocdl.target<O = 3, chip = "gfx942">, {{.*}}assembly = "{{.*}}ds_write{{.*}}ds_read{{.*}}"
// HOST-NOT: stencil.
// BADTARGET: stencil-to-gpu: unknown target 'opencl'; expected cuda, rocm or vulkan
func.func @heat(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %steps: index) {
  %0 = stencil.load %a : memref<64x64xf32> -> !stencil.field<64x64xf32>
  %1 = stencil.load %b : memref<64x64xf32> -> !stencil.field<64x64xf32>
  %g = stencil.grid [1, 1] to [63, 63] : !stencil.grid<2>
  %r:2 = stencil.iterate %steps iter_args(%src = %0, %dst = %1) : !stencil.field<64x64xf32>, !stencil.field<64x64xf32> attributes {schedule = #stencil.schedule<wg = [4, 16], time_block = 2>} {
    %n = stencil.apply on %g ins(%x = %src : !stencil.field<64x64xf32>) outs(%dst : !stencil.field<64x64xf32>) {
      %c = stencil.access %x[0, 0] : !stencil.field<64x64xf32>
      %w = stencil.access %x[0, -1] : !stencil.field<64x64xf32>
      %e = stencil.access %x[0, 1] : !stencil.field<64x64xf32>
      %s = stencil.access %x[-1, 0] : !stencil.field<64x64xf32>
      %t = stencil.access %x[1, 0] : !stencil.field<64x64xf32>
      %s1 = arith.addf %c, %w : f32
      %s2 = arith.addf %s1, %e : f32
      %s3 = arith.addf %s2, %s : f32
      %s4 = arith.addf %s3, %t : f32
      stencil.return %s4 : f32
    }
    %c = stencil.apply on %g ins(%y = %n : !stencil.field<64x64xf32>) outs(%src : !stencil.field<64x64xf32>) {
      %v = stencil.access %y[0, 0] : !stencil.field<64x64xf32>
      stencil.return %v : f32
    }
    stencil.yield %c, %n : !stencil.field<64x64xf32>, !stencil.field<64x64xf32>
  }
  stencil.store %r#0 to %a : !stencil.field<64x64xf32> to memref<64x64xf32>
  stencil.store %r#1 to %b : !stencil.field<64x64xf32> to memref<64x64xf32>
  return
}

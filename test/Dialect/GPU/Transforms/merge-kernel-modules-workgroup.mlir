// RUN: stencil-opt %s --stencil-merge-kernel-modules=separate-workgroup-memory | FileCheck %s --check-prefix=SEPARATE
// RUN: stencil-opt %s --stencil-merge-kernel-modules | FileCheck %s --check-prefix=ONE

// With separate-workgroup-memory (SPIR-V), a module's kernels together
// declare no more workgroup memory than the largest one (4 KiB), first fit
// in IR order: the 4 KiB kernel shares a module with the one that declares
// none, the 1 KiB and 2 KiB ones share the second, the 3 KiB one, which
// fits beside neither, gets a third. Without the option one module holds
// all.
// SEPARATE: gpu.module @k {
// SEPARATE-NEXT: gpu.func @k({{.*}}) workgroup({{.*}} : memref<1024xf32, 3>)
// SEPARATE-NEXT: gpu.return
// SEPARATE: gpu.func @k_0({{.*}}) kernel
// SEPARATE: gpu.module @k_1 {
// SEPARATE-NEXT: gpu.func @k_1({{.*}}) workgroup({{.*}} : memref<128xf64, 3>)
// SEPARATE: gpu.func @k_2({{.*}}) workgroup({{.*}} : memref<512xf32, 3>)
// SEPARATE: gpu.module @k_3 {
// SEPARATE-NEXT: gpu.func @k_3({{.*}}) workgroup({{.*}} : memref<768xf32, 3>)
// SEPARATE-NOT: gpu.module
// SEPARATE: gpu.launch_func @k::@k blocks
// SEPARATE: gpu.launch_func @k::@k_0 blocks
// SEPARATE: gpu.launch_func @k_1::@k_1 blocks
// SEPARATE: gpu.launch_func @k_1::@k_2 blocks
// SEPARATE: gpu.launch_func @k_3::@k_3 blocks
// ONE-COUNT-1: gpu.module
// ONE-NOT: gpu.module
// ONE: gpu.launch_func @k::@k_3 blocks
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<4xf32>) workgroup(%w : memref<1024xf32, 3>) kernel {
      gpu.return
    }
  }
  gpu.module @k_0 {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @k_1 {
    gpu.func @k(%a: memref<4xf32>) workgroup(%w : memref<128xf64, 3>) kernel {
      gpu.return
    }
  }
  gpu.module @k_2 {
    gpu.func @k(%a: memref<4xf32>) workgroup(%w : memref<512xf32, 3>) kernel {
      gpu.return
    }
  }
  gpu.module @k_3 {
    gpu.func @k(%a: memref<4xf32>) workgroup(%w : memref<768xf32, 3>) kernel {
      gpu.return
    }
  }
  func.func @f(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @k_0::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @k_1::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @k_2::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @k_3::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
}

// RUN: stencil-opt %s --stencil-merge-kernel-modules | FileCheck %s

// Three outlined kernels end up in the first module, named after the
// modules they came from; the launches follow them.
// CHECK: gpu.module @f_kernel {
// CHECK-NEXT: gpu.func @f_kernel(
// CHECK: gpu.func @f_kernel_0(
// CHECK: gpu.func @f_kernel_1(
// CHECK-NOT: gpu.module
// CHECK: gpu.launch_func @f_kernel::@f_kernel blocks
// CHECK: gpu.launch_func @f_kernel::@f_kernel_0 blocks
// CHECK: gpu.launch_func @f_kernel::@f_kernel_1 blocks
module attributes {gpu.container_module} {
  gpu.module @f_kernel {
    gpu.func @f_kernel(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @f_kernel_0 {
    gpu.func @f_kernel(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @f_kernel_1 {
    gpu.func @f_kernel(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @f(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @f_kernel_1::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
}

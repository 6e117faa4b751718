// RUN: stencil-opt %s --split-input-file --verify-diagnostics --stencil-merge-kernel-modules | FileCheck %s

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

// -----

// A module that holds more than kernels cannot be emptied into the first.
module attributes {gpu.container_module} {
  gpu.module @a {
    gpu.func @a(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
  // expected-error @+1 {{holds more than kernels; cannot merge it}}
  gpu.module @b {
    memref.global "private" @table : memref<4xf32> = dense<0.0>
    gpu.func @b(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A launch of a kernel already compiled into a gpu.binary has no module to
// follow.
module attributes {gpu.container_module} {
  gpu.module @a {
    gpu.func @a(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @b {
    gpu.func @b(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.binary @compiled [#gpu.object<#nvvm.target, "">]
  func.func @f(%x: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{launches a kernel outside the gpu.modules}}
    gpu.launch_func @compiled::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
}

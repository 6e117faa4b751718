// RUN: stencil-opt %s --split-input-file --verify-diagnostics --stencil-static-launch-buffers | FileCheck %s

// Once the kernels are a binary, a 1-D buffer of run-time length is
// launched as a zero-element view of the same pointer (gpu-to-llvm sizes
// kernel buffers from static shapes; the Vulkan runtime binds each buffer
// to the end of its allocation). Static buffers and scalars stay.
// CHECK-LABEL: func.func @launch(
// CHECK-SAME: %[[FLAT:[^:]*]]: memref<?xf32>, %[[SHAPE:[^:]*]]: memref<2xi32>
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %[[FLAT]] to offset: [0], sizes: [0], strides: [1] : memref<?xf32> to memref<0xf32>
// CHECK: gpu.launch_func @kernels::@k blocks in ({{.*}}) threads in ({{.*}}) args(%[[VIEW]] : memref<0xf32>, %[[SHAPE]] : memref<2xi32>)
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>, "">]
  func.func @launch(%flat: memref<?xf32>, %shape: memref<2xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%flat : memref<?xf32>, %shape : memref<2xi32>)
    return
  }
}

// -----

// Before gpu-module-to-binary the kernel's signature must still match.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%flat: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @too_early(%flat: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error@+1 {{'gpu.launch_func' op launches kernel module 'kernels', which is not a gpu.binary yet; run stencil-static-launch-buffers after gpu-module-to-binary}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%flat : memref<?xf32>)
    return
  }
}

// -----

// Multi-dimensional buffers must be flattened first.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>, "">]
  func.func @not_flat(%a: memref<?x4xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error@+1 {{'gpu.launch_func' op passes 'memref<?x4xf32>' to a kernel; expected a 1-D buffer of run-time length}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?x4xf32>)
    return
  }
}

// RUN: stencil-opt %s --split-input-file --verify-diagnostics --stencil-nest-spirv-modules | FileCheck %s

// CHECK: gpu.module @kernels {
// CHECK-NEXT: spirv.module @__spv__kernels Logical GLSL450
// CHECK: gpu.func @k
// CHECK-NOT: spirv.module
module attributes {gpu.container_module} {
  spirv.module @__spv__kernels Logical GLSL450 {
  }
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{has no gpu.module @missing to move into}}
  spirv.module @__spv__missing Logical GLSL450 {
  }
}

// -----

module attributes {gpu.container_module} {
  spirv.module @__spv__kernels Logical GLSL450 {
  }
  // expected-error @+1 {{already holds a spirv.module}}
  gpu.module @kernels {
    spirv.module @__spv__kernels Logical GLSL450 {
    }
  }
}

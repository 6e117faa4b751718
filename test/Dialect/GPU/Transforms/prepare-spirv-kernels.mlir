// RUN: stencil-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(stencil-prepare-spirv-kernels))' | FileCheck %s

// The work-group size becomes the SPIR-V entry point ABI; workgroup
// attributions become allocations in the Workgroup storage class.
// CHECK-LABEL: gpu.func @blocked
// CHECK-SAME: (%[[A:.*]]: memref<64xf32>) kernel
// CHECK-SAME: spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 2, 1]>
// CHECK-NEXT: %[[W:.*]] = memref.alloc() : memref<40xf32, #spirv.storage_class<Workgroup>>
// CHECK: memref.store %{{.*}}, %[[W]][%{{.*}}] : memref<40xf32, #spirv.storage_class<Workgroup>>
// CHECK: gpu.barrier
// CHECK: memref.load %[[W]]
gpu.module @kernels {
  gpu.func @blocked(%a: memref<64xf32>) workgroup(%w : memref<40xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 2, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %a[%t] : memref<64xf32>
    memref.store %v, %w[%t] : memref<40xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %u = memref.load %w[%t] : memref<40xf32, #gpu.address_space<workgroup>>
    memref.store %u, %a[%t] : memref<64xf32>
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{has no known_block_size; a SPIR-V kernel needs its work-group size at compile time}}
  gpu.func @unknown_size(%a: memref<64xf32>) kernel {
    gpu.return
  }
}

// -----

// convert-gpu-to-spirv indexes with 32 bits.
gpu.module @kernels {
  // expected-error @+1 {{takes 'memref<65536x32768xf32>', 2147483648 elements; SPIR-V kernels index buffers with 32 bits, up to 2147483647 elements}}
  gpu.func @too_big(%a: memref<65536x32768xf32>) kernel attributes {known_block_size = array<i32: 32, 2, 1>} {
    gpu.return
  }
}

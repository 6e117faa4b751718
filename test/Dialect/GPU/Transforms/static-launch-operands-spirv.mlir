// RUN: stencil-opt %s --split-input-file --verify-diagnostics --stencil-static-launch-operands=convention=flat-buffer | FileCheck %s
// RUN: not stencil-opt %s --split-input-file --stencil-static-launch-operands=convention=spirv 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: stencil-static-launch-operands: unknown convention 'spirv'; expected bare-pointer or flat-buffer

// SPIR-V kernels take storage buffers only (the Vulkan target): a memref of
// run-time shape goes in as a 1-D view of its elements, its run-time sizes
// in a device buffer of i32 filled before the launch, and the kernel
// indexes the view row-major. 1-D memrefs and static ones stay as they are.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x5x?xf32>, %[[P:[^:]*]]: memref<?xf64>, %[[S:[^:]*]]: memref<4xf32>
// CHECK: %[[HOST:.*]] = memref.alloca() : memref<2xi32>
// CHECK: %[[SHAPE:.*]] = gpu.alloc () : memref<2xi32>
// CHECK-DAG: %[[D0:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x5x?xf32>
// CHECK-DAG: %[[D2:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x5x?xf32>
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%{{.*}}], strides: [1] : memref<?x5x?xf32> to memref<?xf32>
// CHECK: %[[W0:.*]] = arith.index_cast %[[D0]] : index to i32
// CHECK: memref.store %[[W0]], %[[HOST]][%{{.*}}] : memref<2xi32>
// CHECK: %[[W2:.*]] = arith.index_cast %[[D2]] : index to i32
// CHECK: memref.store %[[W2]], %[[HOST]][%{{.*}}] : memref<2xi32>
// CHECK: gpu.memcpy %[[SHAPE]], %[[HOST]] : memref<2xi32>, memref<2xi32>
// CHECK: gpu.launch
// CHECK: %[[L0:.*]] = memref.load %[[SHAPE]][%{{.*}}] : memref<2xi32>
// CHECK: %[[N0:.*]] = arith.index_cast %[[L0]] : i32 to index
// CHECK: %[[L2:.*]] = memref.load %[[SHAPE]][%{{.*}}] : memref<2xi32>
// CHECK: %[[N2:.*]] = arith.index_cast %[[L2]] : i32 to index
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// (x * 5 + 0) * n2 + y
// CHECK: %[[R0:.*]] = arith.muli %[[X:.*]], %[[C5]] : index
// CHECK: %[[R1:.*]] = arith.addi %[[R0]], %{{.*}} : index
// CHECK: %[[R2:.*]] = arith.muli %[[R1]], %[[N2]] : index
// CHECK: %[[LIN:.*]] = arith.addi %[[R2]], %[[Y:.*]] : index
// CHECK: %[[V:.*]] = memref.load %[[FLAT]][%[[LIN]]] : memref<?xf32>
// CHECK: memref.store %[[V]], %[[FLAT]][%{{.*}}] : memref<?xf32>
// A dim of the memref is its size.
// CHECK: memref.load %[[P]][%[[N0]]] : memref<?xf64>
// CHECK: memref.store %{{.*}}, %[[S]][
// CHECK: gpu.terminator
// CHECK: gpu.dealloc %[[SHAPE]] : memref<2xi32>
func.func @dynamic(%a: memref<?x5x?xf32>, %p: memref<?xf64>, %s: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx, %c0, %ty] : memref<?x5x?xf32>
    memref.store %v, %a[%ty, %c1, %tx] : memref<?x5x?xf32>
    %d = memref.dim %a, %c0 : memref<?x5x?xf32>
    %w = memref.load %p[%d] : memref<?xf64>
    %x = arith.truncf %w : f64 to f32
    memref.store %x, %s[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A launch of static and 1-D buffers only gets no shape buffer.
// CHECK-LABEL: func.func @static(
// CHECK-NOT: memref.alloca
// CHECK-NOT: gpu.alloc
// CHECK: gpu.launch
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf32>
func.func @static(%a: memref<4xf32>, %p: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<4xf32>
    memref.store %v, %p[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Kernels of our lowering only load, store and ask for sizes; anything else
// on a multi-dimensional buffer of run-time shape is reported.
func.func @other_use(%a: memref<?x?xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error@+1 {{'memref.subview' op uses 'memref<?x?xf32>' in a kernel for a flat-buffer target; only loads, stores and constant dims are rewritten}}
    %row = memref.subview %a[%tx, 0] [1, 4] [1, 1] : memref<?x?xf32> to memref<4xf32, strided<[1], offset: ?>>
    gpu.terminator
  }
  return
}

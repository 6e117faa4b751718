// RUN: stencil-opt %s --split-input-file --verify-diagnostics --stencil-static-launch-operands | FileCheck %s

// A launch that uses a memref of run-time shape gets, from outside, a 0-d
// view of its first element and its sizes, and rebuilds it row-major
// inside; a memref of static shape is left as it is.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x5x?xf32>, %[[S:[^:]*]]: memref<4xf32>
// CHECK-DAG: %[[D0:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x5x?xf32>
// CHECK-DAG: %[[D2:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x5x?xf32>
// CHECK: %[[BASE:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [], strides: [] : memref<?x5x?xf32> to memref<f32>
// CHECK: gpu.launch
// CHECK-NEXT: %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[D2]], %[[C5]] : index
// CHECK-NEXT: %[[VIEW:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%[[D0]], 5, %[[D2]]], strides: [%[[ROW]], %[[D2]], 1] : memref<f32> to memref<?x5x?xf32>
// CHECK: memref.load %[[VIEW]][
// CHECK: memref.store %{{.*}}, %[[S]][
func.func @dynamic(%a: memref<?x5x?xf32>, %s: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx, %c0, %ty] : memref<?x5x?xf32>
    memref.store %v, %s[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A memref with a layout is not a row-major buffer.
func.func @strided(%a: memref<?xf32, strided<[2]>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'gpu.launch' op uses 'memref<?xf32, strided<[2]>>', a memref of run-time shape with a layout; kernels take row-major buffers}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<?xf32, strided<[2]>>
    gpu.terminator
  }
  return
}

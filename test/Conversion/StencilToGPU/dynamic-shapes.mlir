// RUN: stencil-opt %s --convert-stencil-to-gpu | FileCheck %s

// Fields of run-time extent (C99 `float A[n][m]`): device buffers take the
// host memrefs' sizes, and a reduction over a run-time grid gets as many
// partials as the launch has work groups, counted on the host.
// CHECK-LABEL: func.func @sweep(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x?xf32>, %[[B:[^:]*]]: memref<?x?xf32>, %[[S:[^:]*]]: memref<f32>, %[[N:[^:]*]]: index, %[[M:[^:]*]]: index
// CHECK: %[[A0:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x?xf32>
// CHECK: %[[A1:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x?xf32>
// CHECK: %[[DA:.*]] = gpu.alloc (%[[A0]], %[[A1]]) : memref<?x?xf32>
// CHECK: gpu.memcpy %[[DA]], %[[A]] : memref<?x?xf32>, memref<?x?xf32>
// CHECK: %[[ROWS:.*]] = arith.ceildivsi %{{.*}}, %c8 : index
// CHECK: %[[COLS:.*]] = arith.ceildivsi %{{.*}}, %c32 : index
// CHECK: %[[GROUPS:.*]] = arith.muli %{{.*}}, %[[COLS]] : index
// CHECK: %[[PARTIALS:.*]] = gpu.alloc (%[[GROUPS]]) : memref<?xf32>
// CHECK: gpu.launch
// CHECK: %[[HOST:.*]] = memref.alloc(%[[GROUPS]]) : memref<?xf32>
// CHECK: gpu.memcpy %[[HOST]], %[[PARTIALS]] : memref<?xf32>, memref<?xf32>
func.func @sweep(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %s: memref<f32>, %n: index, %m: index) {
  %fa = stencil.load %a : memref<?x?xf32> -> !stencil.field<?x?xf32>
  %fb = stencil.load %b : memref<?x?xf32> -> !stencil.field<?x?xf32>
  %g = stencil.grid [1, 1] to [%n, %m] : !stencil.grid<2>
  %zero = arith.constant 0.0 : f32
  %r, %sum = stencil.apply on %g ins(%x = %fa : !stencil.field<?x?xf32>) outs(%fb : !stencil.field<?x?xf32>) reduce(add %zero : f32) {
    %l = stencil.access %x[-1, 0] : !stencil.field<?x?xf32>
    %h = stencil.access %x[0, 1] : !stencil.field<?x?xf32>
    %v = arith.addf %l, %h : f32
    stencil.return %v, %v : f32, f32
  }
  stencil.store %r to %b : !stencil.field<?x?xf32> to memref<?x?xf32>
  memref.store %sum, %s[] : memref<f32>
  return
}

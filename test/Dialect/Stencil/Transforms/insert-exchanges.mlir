// RUN: stencil-opt %s --stencil-insert-exchanges | FileCheck %s
// Idempotent: a second run changes nothing.
// RUN: stencil-opt %s --stencil-insert-exchanges | stencil-opt --stencil-insert-exchanges | FileCheck %s

// Distributed along axis 0 only: %k is read at [2, -1] (width 2 along the
// distributed axis, none along the whole axis 1) once before the loop; the
// carried %x at [-1, 0] and [1, 1] inside it (width 1), where the existing
// too-narrow exchange of %y is widened instead of doubled; the copy reads
// at the centre and gets nothing.
!F = !stencil.field<32x32xf32, #stencil.decomp<block, *>>
// CHECK-LABEL: func.func @loop(
// CHECK: %[[K:.*]] = stencil.load %arg2
// CHECK-NEXT: %[[KX:.*]] = stencil.exchange %[[K]] widths [2, 0]
// CHECK: stencil.iterate %{{.*}} iter_args(%[[X:.*]] = %{{.*}}, %[[Y:.*]] = %{{.*}})
// CHECK-NEXT: %[[XX:.*]] = stencil.exchange %[[X]] widths [1, 0]
// CHECK-NEXT: %[[YX:.*]] = stencil.exchange %[[Y]] widths [3, 0]
// CHECK-NEXT: %[[N:.*]] = stencil.apply on %{{.*}} ins(%{{.*}} = %[[XX]] : {{.*}}, %{{.*}} = %[[KX]] : {{.*}}, %{{.*}} = %[[YX]] : {{.*}})
// CHECK-NOT: stencil.exchange
// CHECK: stencil.yield
func.func @loop(%a: memref<32x32xf32>, %b: memref<32x32xf32>, %kk: memref<32x32xf32>, %steps: index) {
  %fa = stencil.load %a : memref<32x32xf32> -> !F
  %fb = stencil.load %b : memref<32x32xf32> -> !F
  %fk = stencil.load %kk : memref<32x32xf32> -> !F
  %g = stencil.grid [3, 1] to [29, 31] : !stencil.grid<2>
  %r:2 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb) : !F, !F {
    %yx = stencil.exchange %y widths [1, 0] : !F
    %n = stencil.apply on %g ins(%p = %x : !F, %k = %fk : !F, %q = %yx : !F) outs(%y : !F) {
      %u = stencil.access %p[-1, 0] : !F
      %d = stencil.access %p[1, 1] : !F
      %c = stencil.access %k[2, -1] : !F
      %e = stencil.access %q[-3, 0] : !F
      %s = arith.addf %u, %d : f32
      %t = arith.addf %s, %c : f32
      %v = arith.addf %t, %e : f32
      stencil.return %v : f32
    }
    %c = stencil.apply on %g ins(%q = %n : !F) outs(%x : !F) {
      %v = stencil.access %q[0, 0] : !F
      stencil.return %v : f32
    }
    stencil.yield %c, %n : !F, !F
  }
  stencil.store %r#0 to %a : !F to memref<32x32xf32>
  stencil.store %r#1 to %b : !F to memref<32x32xf32>
  return
}

// Undistributed fields are never exchanged.
// CHECK-LABEL: func.func @serial(
// CHECK-NOT: stencil.exchange
func.func @serial(%a: memref<8xf32>, %b: memref<8xf32>) {
  %fa = stencil.load %a : memref<8xf32> -> !stencil.field<8xf32>
  %fb = stencil.load %b : memref<8xf32> -> !stencil.field<8xf32>
  %g = stencil.grid [1] to [7] : !stencil.grid<1>
  %n = stencil.apply on %g ins(%p = %fa : !stencil.field<8xf32>) outs(%fb : !stencil.field<8xf32>) {
    %u = stencil.access %p[-1] : !stencil.field<8xf32>
    stencil.return %u : f32
  }
  stencil.store %n to %b : !stencil.field<8xf32> to memref<8xf32>
  return
}

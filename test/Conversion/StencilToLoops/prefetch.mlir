// RUN: stencil-opt %s "--convert-stencil-to-loops=default-tile=2,4,0 prefetch-distance=256" -canonicalize -cse --split-input-file | FileCheck %s
// RUN: stencil-opt %s "--convert-stencil-to-loops=prefetch-distance=0" --split-input-file | FileCheck %s --check-prefix=OFF

!f3 = !stencil.field<10x12x40xf32>

// Before each row of a tile, the sweep requests the rows it reaches 256
// bytes later: 64 floats, with rows of 38 points 2 rows ahead. The tile's
// rows run along axis 1 from its origin, so 2 rows ahead past the tile's
// end is as many rows into its next plane. The source is read at offsets up
// to +1 along axes 0 and 1, so its row there is that one shifted by (1, 1);
// the centre-only field and the destination (for writing) at that row.
// Every row index stays inside the array; one request per 64-byte line,
// the three streams' lines in one loop.
// CHECK-LABEL: func.func @sweep3d(
// CHECK-SAME: %[[A:[^:]*]]: memref<10x12x40xf32>, %[[K:[^:]*]]: memref<10x12x40xf32>, %[[B:[^:]*]]: memref<10x12x40xf32>)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C9:.*]] = arith.constant 9 : index
// CHECK-DAG: %[[C11:.*]] = arith.constant 11 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C39:.*]] = arith.constant 39 : index
// CHECK: scf.parallel (%[[TI:.*]], %[[TJ:.*]]) = (%[[C1]], %[[C1]]) to (%[[C9]], %[[C11]])
// CHECK: %[[TJEND:.*]] = arith.minsi %{{.*}}, %[[C11]]
// CHECK: scf.for %[[I:.*]] = %[[TI]] to
// CHECK: scf.for %[[J:.*]] = %[[TJ]] to %[[TJEND]] step %[[C1]] {
// CHECK: %[[AHEAD:.*]] = arith.addi %[[J]], %[[C2]]
// CHECK: %[[PAST:.*]] = arith.cmpi sge, %[[AHEAD]], %[[TJEND]]
// CHECK: %[[OVER:.*]] = arith.subi %[[AHEAD]], %[[TJEND]]
// CHECK: %[[WRAPPED:.*]] = arith.addi %[[OVER]], %[[TJ]]
// CHECK: %[[ROW:.*]] = arith.select %[[PAST]], %[[WRAPPED]], %[[AHEAD]]
// CHECK: %[[NEXTPLANE:.*]] = arith.addi %[[I]], %[[C1]]
// CHECK: %[[PLANE:.*]] = arith.select %[[PAST]], %[[NEXTPLANE]], %[[I]]
// CHECK: %[[APLANE:.*]] = arith.addi %[[PLANE]], %[[C1]]
// CHECK: %[[APLANEIN:.*]] = arith.minsi %[[APLANE]], %[[C9]]
// CHECK: %[[AROW:.*]] = arith.addi %[[ROW]], %[[C1]]
// CHECK: %[[AROWIN:.*]] = arith.minsi %[[AROW]], %[[C11]]
// CHECK: %[[PLANEIN:.*]] = arith.minsi %[[PLANE]], %[[C9]]
// CHECK: %[[ROWIN:.*]] = arith.minsi %[[ROW]], %[[C11]]
// CHECK: scf.for %[[PK:.*]] = %[[C1]] to %[[C39]] step %[[C16]] {
// CHECK-NEXT: memref.prefetch %[[A]][%[[APLANEIN]], %[[AROWIN]], %[[PK]]], read, locality<3>, data
// CHECK-NEXT: memref.prefetch %[[K]][%[[PLANEIN]], %[[ROWIN]], %[[PK]]], read, locality<3>, data
// CHECK-NEXT: memref.prefetch %[[B]][%[[PLANEIN]], %[[ROWIN]], %[[PK]]], write, locality<3>, data
// CHECK-NEXT: }
// CHECK: scf.for %[[PT:.*]] = %[[C1]] to %[[C39]] step %[[C1]] {
// CHECK: memref.store %{{.*}}, %[[B]][%[[I]], %[[J]], %[[PT]]]
// OFF-LABEL: func.func @sweep3d(
// OFF-NOT: memref.prefetch
// OFF: return
func.func @sweep3d(%A: memref<10x12x40xf32>, %K: memref<10x12x40xf32>, %B: memref<10x12x40xf32>) {
  %a = stencil.load %A : memref<10x12x40xf32> -> !f3
  %k = stencil.load %K : memref<10x12x40xf32> -> !f3
  %b = stencil.load %B : memref<10x12x40xf32> -> !f3
  %g = stencil.grid [1, 1, 1] to [9, 11, 39] : !stencil.grid<3>
  %r = stencil.apply on %g ins(%x = %a : !f3, %c = %k : !f3) outs(%b : !f3) {
    %n = stencil.access %x[1, 0, 0] : !f3
    %s = stencil.access %x[-1, 0, 0] : !f3
    %e = stencil.access %x[0, 1, 0] : !f3
    %w = stencil.access %x[0, 0, -1] : !f3
    %m = stencil.access %c[0, 0, 0] : !f3
    %t0 = arith.addf %n, %s : f32
    %t1 = arith.addf %e, %w : f32
    %t2 = arith.addf %t0, %t1 : f32
    %v = arith.mulf %t2, %m : f32
    stencil.return %v : f32
  }
  stencil.store %r to %B : !f3 to memref<10x12x40xf32>
  return
}

// -----

!f2 = !stencil.field<64x24xf64>

// 2-D: rows are the outermost axis; 256 bytes are 32 doubles, 2 rows of 22
// points ahead, plus the source's forward radius 2 along rows (folded into
// one addition). A scalar
// input has no buffer to prefetch.
// CHECK-LABEL: func.func @sweep2d(
// CHECK-SAME: %[[A:[^:]*]]: memref<64x24xf64>, %[[B:[^:]*]]: memref<64x24xf64>
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C23:.*]] = arith.constant 23 : index
// CHECK-DAG: %[[C63:.*]] = arith.constant 63 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[C1]] {
// CHECK: %[[AHEAD:.*]] = arith.addi %[[I]], %[[C2]]
// CHECK: %[[AROW:.*]] = arith.addi %[[I]], %[[C4]]
// CHECK: %[[AROWIN:.*]] = arith.minsi %[[AROW]], %[[C63]]
// CHECK: %[[ROWIN:.*]] = arith.minsi %[[AHEAD]], %[[C63]]
// CHECK: scf.for %[[PJ:.*]] = %[[C1]] to %[[C23]] step %[[C8]] {
// CHECK-NEXT: memref.prefetch %[[A]][%[[AROWIN]], %[[PJ]]], read
// CHECK-NEXT: memref.prefetch %[[B]][%[[ROWIN]], %[[PJ]]], write
// CHECK-NEXT: }
// CHECK-NOT: memref.prefetch
// CHECK: scf.for %{{.*}} = %[[C1]] to %[[C23]] step %[[C1]] {
func.func @sweep2d(%A: memref<64x24xf64>, %B: memref<64x24xf64>, %c: f64) {
  %a = stencil.load %A : memref<64x24xf64> -> !f2
  %b = stencil.load %B : memref<64x24xf64> -> !f2
  %g = stencil.grid [2, 1] to [62, 23] : !stencil.grid<2>
  %r = stencil.apply on %g ins(%x = %a : !f2, %w = %c : f64) outs(%b : !f2) {
    %n = stencil.access %x[2, 0] : !f2
    %s = stencil.access %x[-2, 0] : !f2
    %t = arith.addf %n, %s : f64
    %v = arith.mulf %t, %w : f64
    stencil.return %v : f64
  }
  stencil.store %r to %B : !f2 to memref<64x24xf64>
  return
}

// -----

!f1 = !stencil.field<4096xf32>

// 1-D sweeps are one stream per buffer, which the hardware follows.
// CHECK-LABEL: func.func @sweep1d(
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @sweep1d(%A: memref<4096xf32>, %B: memref<4096xf32>) {
  %a = stencil.load %A : memref<4096xf32> -> !f1
  %b = stencil.load %B : memref<4096xf32> -> !f1
  %g = stencil.grid [1] to [4095] : !stencil.grid<1>
  %r = stencil.apply on %g ins(%x = %a : !f1) outs(%b : !f1) {
    %l = stencil.access %x[-1] : !f1
    %h = stencil.access %x[1] : !f1
    %v = arith.addf %l, %h : f32
    stencil.return %v : f32
  }
  stencil.store %r to %B : !f1 to memref<4096xf32>
  return
}

// -----

!f5 = !stencil.field<10x12x40xf32>

// Five streams (four sources and the destination) are more than the sweep
// prefetches in software: the hardware prefetchers follow them alone.
// CHECK-LABEL: func.func @many_streams(
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @many_streams(%A: memref<10x12x40xf32>, %B: memref<10x12x40xf32>, %C: memref<10x12x40xf32>, %D: memref<10x12x40xf32>, %E: memref<10x12x40xf32>) {
  %a = stencil.load %A : memref<10x12x40xf32> -> !f5
  %b = stencil.load %B : memref<10x12x40xf32> -> !f5
  %c = stencil.load %C : memref<10x12x40xf32> -> !f5
  %d = stencil.load %D : memref<10x12x40xf32> -> !f5
  %e = stencil.load %E : memref<10x12x40xf32> -> !f5
  %g = stencil.grid [1, 1, 1] to [9, 11, 39] : !stencil.grid<3>
  %r = stencil.apply on %g ins(%x = %a : !f5, %y = %b : !f5, %z = %c : !f5, %w = %d : !f5) outs(%e : !f5) {
    %n = stencil.access %x[1, 0, 0] : !f5
    %s = stencil.access %y[0, -1, 0] : !f5
    %t = stencil.access %z[0, 0, 1] : !f5
    %u = stencil.access %w[0, 0, 0] : !f5
    %t0 = arith.addf %n, %s : f32
    %t1 = arith.addf %t, %u : f32
    %v = arith.addf %t0, %t1 : f32
    stencil.return %v : f32
  }
  stencil.store %r to %E : !f5 to memref<10x12x40xf32>
  return
}

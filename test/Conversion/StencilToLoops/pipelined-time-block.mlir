// RUN: stencil-opt %s --convert-stencil-to-loops -canonicalize -cse --split-input-file | FileCheck %s

// A time block on a 2-D grid runs as one pipelined sweep over the rows of
// each band: in wave w, step 1 computes row w, step s row w - (s - 1) x 1
// (the forward radius along rows), and each step before the last keeps its
// rows in a ring buffer of 1 + 1 + 1 = 3 rows that the next step reads.
// Blocks take their depth at run time, so the remaining steps, when two or
// more, run as one shallower block instead of one sweep each.
// CHECK-LABEL: func.func @pipelined(
// CHECK-SAME: %[[A:[^:]*]]: memref<10x12xf32>, %[[B:[^:]*]]: memref<10x12xf32>, %[[K:[^:]*]]: memref<10x12xf32>, %[[N:[^:]*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C9:.*]] = arith.constant 9 : index
// CHECK-DAG: %[[C10:.*]] = arith.constant 10 : index
// CHECK: %[[STEPS:.*]] = arith.maxsi %[[N]], %[[C0]]
// CHECK: %[[FULL:.*]] = arith.divsi %[[STEPS]], %[[C3]]
// CHECK: %[[REST:.*]] = arith.subi %[[STEPS]], %{{.*}}
// CHECK: %[[DEEP:.*]] = arith.cmpi sge, %[[REST]], %[[C2]]
// CHECK: %[[EXTRA:.*]] = arith.index_castui %[[DEEP]] : i1 to index
// CHECK: %[[BLOCKS:.*]] = arith.addi %[[FULL]], %[[EXTRA]]
// CHECK: %[[SINGLE:.*]] = arith.select %[[DEEP]], %[[C0]], %[[REST]]
// CHECK: scf.for %[[BLOCK:.*]] = %[[C0]] to %[[BLOCKS]] step %[[C1]] iter_args(%[[X:.*]] = %[[A]], %[[Y:.*]] = %[[B]])
// CHECK: %[[DONE:.*]] = arith.muli %[[BLOCK]], %[[C3]]
// CHECK: %[[LEFT:.*]] = arith.subi %[[STEPS]], %[[DONE]]
// CHECK: %[[DEPTH:.*]] = arith.minsi %[[LEFT]], %[[C3]]
// Bands of 4 rows; the tile spans the rows.
// CHECK: scf.parallel (%[[BAND:.*]]) = (%[[C1]]) to (%[[C9]]) step (%[[C4]])
// CHECK: %[[BANDEND:.*]] = arith.minsi
// CHECK: %[[LEVELS:.*]] = arith.subi %[[DEPTH]], %[[C1]]
// A ring row spans the widest level's columns, the tile's 10 plus the
// radius 1 that step 1 reads beyond it (grown by (3 - 1) x 1 only up to the
// grid's ring), 11, padded to an odd number of 64-byte lines: 16 floats.
// CHECK: %[[RING:.*]] = memref.alloc(%[[LEVELS]]) {alignment = 64 : i64} : memref<?x3x16xf32>
// The first wave: the band start less (depth - 1) rows, or the top boundary row.
// CHECK: %[[LO:.*]] = arith.subi %[[BAND]], %[[LEVELS]]
// CHECK: %[[FIRST:.*]] = arith.maxsi %[[LO]], %[[C0]]
// CHECK: %[[LAST:.*]] = arith.addi %[[BANDEND]], %[[LEVELS]]
// CHECK: scf.for %[[W:.*]] = %[[FIRST]] to %[[LAST]] step %[[C1]] {
// Step 1 reads the source and the read-only field, writes ring level 0.
// The band spans the rows, which follow each other in memory: the hardware
// prefetcher streams them, and no software prefetch is emitted.
// CHECK: scf.if
// CHECK: scf.if
// CHECK-NOT: memref.prefetch
// CHECK: scf.for %[[I1:.*]] = %[[W]] to
// CHECK: scf.for %[[J1:.*]] = %[[C1]] to
// CHECK: memref.load %[[X]]
// CHECK: memref.load %[[K]]
// Ring columns count from the ring's first column, here the grid's first.
// CHECK: %[[SLOT1:.*]] = arith.remui %[[I1]], %[[C3]]
// CHECK: %[[COL1:.*]] = arith.subi %[[J1]], %[[C1]]
// CHECK: memref.store %{{.*}}, %[[RING]][%[[C0]], %[[SLOT1]], %[[COL1]]]
// The column the next step reads beyond the grid (x[0, 1] at column 10) is
// the boundary, copied.
// CHECK: memref.load %[[X]]
// CHECK: memref.store %{{.*}}, %[[RING]][%[[C0]],
// CHECK: } else {
// A boundary row is copied whole.
// CHECK: memref.load %[[X]]
// CHECK: memref.store %{{.*}}, %[[RING]][%[[C0]],
// Steps 2 .. depth - 1 read ring level s - 2 and write level s - 1.
// CHECK: scf.for %[[S:.*]] = %[[C2]] to %[[DEPTH]] step %[[C1]] {
// CHECK: %[[OUT:.*]] = arith.subi %[[S]], %[[C1]]
// CHECK: %[[ROW:.*]] = arith.subi %[[W]], %[[OUT]]
// CHECK: %[[IN:.*]] = arith.subi %[[S]], %[[C2]]
// CHECK: memref.load %[[RING]][%[[IN]],
// CHECK: memref.store %{{.*}}, %[[RING]][%[[OUT]],
// The last step: row w - (depth - 1), in the band only, into the destination.
// CHECK: %[[LASTROW:.*]] = arith.subi %[[W]], %[[LEVELS]]
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[LASTROW]], %[[BAND]]
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[LASTROW]], %[[BANDEND]]
// CHECK: %[[INBAND:.*]] = arith.andi %[[GE]], %[[LT]]
// CHECK: scf.if %[[INBAND]] {
// CHECK: %[[PREV:.*]] = arith.subi %[[DEPTH]], %[[C2]]
// CHECK-NOT: memref.prefetch
// CHECK: memref.load %[[RING]][%[[PREV]],
// CHECK: memref.store %{{.*}}, %[[Y]][
// CHECK: memref.dealloc %[[RING]]
// CHECK: scf.yield %[[Y]], %[[X]]
// One more step alone only when a single step remains.
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[SINGLE]]
!f = !stencil.field<10x12xf32>
func.func @pipelined(%A: memref<10x12xf32>, %B: memref<10x12xf32>, %K: memref<10x12xf32>, %n: index) {
  %a = stencil.load %A : memref<10x12xf32> -> !f
  %b = stencil.load %B : memref<10x12xf32> -> !f
  %k = stencil.load %K : memref<10x12xf32> -> !f
  %g = stencil.grid [1, 1] to [9, 11] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !f, !f
      attributes {schedule = #stencil.schedule<wg = [4, 10], time_block = 3>} {
    %calc = stencil.apply on %g ins(%x = %ak : !f, %w = %k : !f) outs(%bk : !f) {
      %n0 = stencil.access %x[-1, 0] : !f
      %s0 = stencil.access %x[1, 0] : !f
      %e0 = stencil.access %x[0, 1] : !f
      %c0 = stencil.access %w[0, 0] : !f
      %t = arith.addf %n0, %s0 : f32
      %u = arith.addf %t, %e0 : f32
      %v = arith.mulf %u, %c0 : f32
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !f) outs(%ak : !f) {
      %v = stencil.access %y[0, 0] : !f
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !f, !f
  }
  stencil.store %r#0 to %A : !f to memref<10x12xf32>
  stencil.store %r#1 to %B : !f to memref<10x12xf32>
  return
}

// -----

// 3-D: the rows are planes; the ring holds 1 + 1 + 1 planes per level, and
// tiles that do not span the inner axes overlap along them only. A ring
// plane covers the tile (2 x 3 points, no radius along y and x), not the
// grid, its rows padded to one 64-byte line, and is indexed from the tile's
// origin.
// CHECK-LABEL: func.func @pipelined_3d(
// CHECK: scf.parallel (%[[Z:.*]], %[[Y:.*]], %[[X:.*]]) = {{.*}} step (%[[C2:.*]], %[[C2]], %{{.*}})
// CHECK: %[[OY:.*]] = arith.maxsi %[[Y]], %[[C1:.*]] : index
// CHECK: %[[OX:.*]] = arith.maxsi %[[X]], %[[C1]] : index
// CHECK: %[[RING3:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x3x2x16xf32>
// The tile spans neither inner axis: step 1 first asks for the pieces of
// the rows of the source plane that the next wave reads first (z + 2), one
// touch per 64-byte line, unless that plane is past the array.
// CHECK: %[[NEXT:.*]] = arith.addi %{{.*}}, %[[C2]]
// CHECK: %[[INARRAY:.*]] = arith.cmpi slt, %[[NEXT]], %{{.*}}
// CHECK: scf.if %[[INARRAY]] {
// CHECK: scf.for %[[PY:.*]] = %{{.*}} to
// CHECK: scf.for %[[PX:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: memref.prefetch %{{.*}}[%[[NEXT]], %[[PY]], %[[PX]]], read, locality<3>, data
// CHECK: scf.for %{{[^ ]*}} = %{{.*}} to
// CHECK-NEXT: scf.for %[[PY:[^ ]*]] = %{{.*}} to
// CHECK-NEXT: scf.for %[[PX:[^ ]*]] = %{{.*}} to
// CHECK: %[[RY:.*]] = arith.subi %[[PY]], %[[OY]]
// CHECK: %[[RX:.*]] = arith.subi %[[PX]], %[[OX]]
// CHECK: memref.store %{{.*}}, %[[RING3]][%{{.*}}, %{{.*}}, %[[RY]], %[[RX]]]
// The last step asks for the destination's, for writing.
// CHECK: memref.prefetch %{{.*}}, write, locality<3>, data
!g = !stencil.field<5x6x8xf32>
func.func @pipelined_3d(%A: memref<5x6x8xf32>, %B: memref<5x6x8xf32>, %n: index) {
  %a = stencil.load %A : memref<5x6x8xf32> -> !g
  %b = stencil.load %B : memref<5x6x8xf32> -> !g
  %g = stencil.grid [1, 1, 1] to [4, 5, 7] : !stencil.grid<3>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !g, !g
      attributes {schedule = #stencil.schedule<wg = [2, 2, 3], time_block = 2>} {
    %calc = stencil.apply on %g ins(%x = %ak : !g) outs(%bk : !g) {
      %u = stencil.access %x[-1, 0, 0] : !g
      %d = stencil.access %x[1, 0, 0] : !g
      %v = arith.addf %u, %d : f32
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !g) outs(%ak : !g) {
      %v = stencil.access %y[0, 0, 0] : !g
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !g, !g
  }
  stencil.store %r#0 to %A : !g to memref<5x6x8xf32>
  stencil.store %r#1 to %B : !g to memref<5x6x8xf32>
  return
}

// -----

// Levels read one column before the tile's first (x[0, -1]), so the ring
// starts a whole line before that column, not one element: column 1 then
// begins a 64-byte line of every ring row, and so do the vectors of every
// level of this tile, which spans the grid. The room for that line makes a
// row 40 + 15 columns wide, padded to 5 lines (80 floats).
// CHECK-LABEL: func.func @aligned_rows(
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: scf.parallel
// The widest level's first column, the grid's ring at most...
// CHECK: %[[LOW:.*]] = arith.maxsi %{{.*}}, %[[C0]]
// ...rounded down to a multiple of 16 columns before the tile's first.
// CHECK: %[[SPAN:.*]] = arith.subi %[[C1]], %[[LOW]]
// CHECK: %[[LINES:.*]] = arith.ceildivui %[[SPAN]], %[[C16]]
// CHECK: %[[BEFORE:.*]] = arith.muli %[[LINES]], %[[C16]]
// CHECK: %[[ORIGIN:.*]] = arith.subi %[[C1]], %[[BEFORE]]
// CHECK: %[[RING:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x2x80xf32>
// The middle levels read and write ring columns counted from there.
// CHECK: scf.for %{{.*}} = %[[C2]] to %{{.*}} step %[[C1]] {
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C1]] {
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[C1]] {
// CHECK: %[[WEST:.*]] = arith.addi %[[J]], %{{.*}}
// CHECK: %[[WESTCOL:.*]] = arith.subi %[[WEST]], %[[ORIGIN]]
// CHECK: memref.load %[[RING]][%{{.*}}, %{{.*}}, %[[WESTCOL]]]
// CHECK: %[[COL:.*]] = arith.subi %[[J]], %[[ORIGIN]]
// CHECK: memref.store %{{.*}}, %[[RING]][%{{.*}}, %{{.*}}, %[[COL]]]
!h = !stencil.field<10x40xf32>
func.func @aligned_rows(%A: memref<10x40xf32>, %B: memref<10x40xf32>, %n: index) {
  %a = stencil.load %A : memref<10x40xf32> -> !h
  %b = stencil.load %B : memref<10x40xf32> -> !h
  %g = stencil.grid [1, 1] to [9, 39] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !h, !h
      attributes {schedule = #stencil.schedule<wg = [4, 38], time_block = 3>} {
    %calc = stencil.apply on %g ins(%x = %ak : !h) outs(%bk : !h) {
      %w = stencil.access %x[0, -1] : !h
      %e = stencil.access %x[0, 1] : !h
      %u = stencil.access %x[-1, 0] : !h
      %v0 = arith.addf %w, %e : f32
      %v = arith.addf %v0, %u : f32
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !h) outs(%ak : !h) {
      %v = stencil.access %y[0, 0] : !h
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !h, !h
  }
  stencil.store %r#0 to %A : !h to memref<10x40xf32>
  stencil.store %r#1 to %B : !h to memref<10x40xf32>
  return
}

// RUN: stencil-opt %s --convert-stencil-to-loops -canonicalize -cse --split-input-file | FileCheck %s

// A time block on a 2-D grid runs as one pipelined sweep over the rows of
// each band: waves step by the two rows each level computes per wave on 2-D
// grids (Support/PipelinedRows.h); in wave w, step 1 computes rows w and
// w + 1, step s rows w - (s - 1) x 1 (the forward radius along rows) and
// the one after, and each step before the last keeps its rows in a ring
// buffer of 1 + 1 + 2 = 4 rows that the next step reads.
// Blocks take their depth at run time, so the remaining steps, when two or
// more, run in one more block instead of one sweep each, and the steps are
// spread evenly over the blocks, the first ones a step deeper (here, at
// T = 3, 8 steps: 3, 3, 2; at T = 48, 200 steps run as five blocks of 40,
// not four of 48 and one of 8).
// CHECK-LABEL: func.func @pipelined(
// CHECK-SAME: %[[A:[^:]*]]: memref<10x12xf32>, %[[B:[^:]*]]: memref<10x12xf32>, %[[K:[^:]*]]: memref<10x12xf32>, %[[N:[^:]*]]: index)
// CHECK-DAG: %[[CM1:.*]] = arith.constant -1 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C9:.*]] = arith.constant 9 : index
// CHECK-DAG: %[[C10:.*]] = arith.constant 10 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[STEPS:.*]] = arith.maxsi %[[N]], %[[C0]]
// CHECK: %[[FULL:.*]] = arith.divsi %[[STEPS]], %[[C3]]
// CHECK: %[[WHOLE:.*]] = arith.muli %[[FULL]], %[[C3]]
// CHECK: %[[REST:.*]] = arith.subi %[[STEPS]], %[[WHOLE]]
// CHECK: %[[DEEP:.*]] = arith.cmpi sge, %[[REST]], %[[C2]]
// CHECK: %[[INBLOCKS:.*]] = arith.select %[[DEEP]], %[[STEPS]], %[[WHOLE]]
// CHECK: %[[EXTRA:.*]] = arith.index_castui %[[DEEP]] : i1 to index
// CHECK: %[[BLOCKS:.*]] = arith.addi %[[FULL]], %[[EXTRA]]
// CHECK: %[[SINGLE:.*]] = arith.select %[[DEEP]], %[[C0]], %[[REST]]
// CHECK: %[[LASTBLOCK:.*]] = arith.subi %[[BLOCKS]], %[[C1]]
// CHECK: %[[ROUNDED:.*]] = arith.addi %[[INBLOCKS]], %[[LASTBLOCK]]
// CHECK: scf.for %[[BLOCK:.*]] = %[[C0]] to %[[BLOCKS]] step %[[C1]] iter_args(%[[X:.*]] = %[[A]], %[[Y:.*]] = %[[B]])
// CHECK: %[[SHARE:.*]] = arith.subi %[[ROUNDED]], %[[BLOCK]]
// CHECK: %[[DEPTH:.*]] = arith.divui %[[SHARE]], %[[BLOCKS]]
// Bands of 4 rows; the tile spans the rows.
// CHECK: scf.parallel (%[[BAND:.*]]) = (%[[C1]]) to (%[[C9]]) step (%[[C4]])
// CHECK: %[[BANDEND:.*]] = arith.minsi
// CHECK: %[[LEVELS:.*]] = arith.subi %[[DEPTH]], %[[C1]]
// A ring row spans the widest level's columns, the tile's 10 plus the
// radius 1 that step 1 reads beyond it (grown by (3 - 1) x 1 only up to the
// grid's ring), 11, padded to an odd number of 64-byte lines: 16 floats.
// The vector rows below read whole vectors up to 15 columns past a row's
// last, into the next row; a spare level, depth in all, keeps that inside
// the ring.
// CHECK: %[[RING:.*]] = memref.alloc(%[[DEPTH]]) {alignment = 64 : i64} : memref<?x4x16xf32>
// The first wave: the band start less (depth - 1) rows, or the top boundary row.
// CHECK: %[[LO:.*]] = arith.subi %[[BAND]], %[[LEVELS]]
// CHECK: %[[FIRST:.*]] = arith.maxsi %[[LO]], %[[C0]]
// CHECK: %[[LAST:.*]] = arith.addi %[[BANDEND]], %[[LEVELS]]
// CHECK: scf.for %[[W:.*]] = %[[FIRST]] to %[[LAST]] step %[[C2]] {
// Step 1 reads the source and the read-only field, writes ring level 0,
// row w + k for k = 0, 1.
// CHECK: scf.for %[[K1:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK: %[[R1:.*]] = arith.addi %[[W]], %[[K1]]
// The band spans the rows, which follow each other in memory: the hardware
// prefetcher streams them, and no software prefetch is emitted.
// CHECK: scf.if
// CHECK: scf.if
// CHECK-NOT: memref.prefetch
// Each row runs as vectors of 16 points: from ring column 0 (grid column 1)
// a masked vector up to the first multiple of 16 (empty here), the whole
// vectors, and a masked vector for the rest (all 10 columns here).
// CHECK: scf.for %[[I1:.*]] = %[[R1]] to
// CHECK: %[[TO1:.*]] = arith.subi %{{.*}}, %[[C1]]
// CHECK: %[[BODY1:.*]] = arith.minsi %[[TO1]], %[[C0]]
// The read-only field's next row, i + 1, at most its last row, 9.
// CHECK: %[[S1:.*]] = arith.addi %[[I1]], %[[C1]]
// CHECK: %[[KNEXT1:.*]] = arith.minsi %[[S1]], %[[C9]]
// CHECK: %[[HEAD1:.*]] = vector.create_mask %[[BODY1]] : vector<16xi1>
// CHECK: %[[N1:.*]] = arith.addi %[[I1]], %[[CM1]]
// CHECK: vector.maskedload %[[X]][%[[N1]], %[[C1]]], %[[HEAD1]]
// CHECK: vector.maskedload %[[K]][%[[I1]], %[[C1]]], %[[HEAD1]]
// CHECK: arith.mulf %{{.*}} : vector<16xf32>
// CHECK: %[[SLOT1:.*]] = arith.remui %[[I1]], %[[C4]]
// CHECK: vector.maskedstore %[[RING]][%[[C0]], %[[SLOT1]], %[[C0]]], %[[HEAD1]]
// Step 1 reads the source at each access's offset. Each whole vector asks
// for its line of the read-only field's next row.
// CHECK: scf.for %[[J1:.*]] = %[[BODY1]] to %{{.*}} step %[[C16]] {
// CHECK: %[[XJ1:.*]] = arith.addi %[[J1]], %[[C1]]
// CHECK: memref.prefetch %[[K]][%[[KNEXT1]], %[[XJ1]]], read, locality<3>, data
// CHECK: vector.load %[[X]][%[[N1]], %[[XJ1]]] : memref<10x12xf32>, vector<16xf32>
// CHECK: %[[EJ1:.*]] = arith.addi %[[J1]], %[[C2]]
// CHECK: vector.load %[[X]][%[[I1]], %[[EJ1]]]
// CHECK: vector.store %{{.*}}, %[[RING]][%[[C0]], %[[SLOT1]], %[[J1]]] : memref<?x4x16xf32>, vector<16xf32>
// CHECK: }
// CHECK: vector.create_mask
// CHECK: vector.maskedstore %[[RING]][%[[C0]], %[[SLOT1]],
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
// CHECK: scf.for %[[K2:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK: %[[ROWK:.*]] = arith.addi %[[ROW]], %[[K2]]
// CHECK: %[[IN:.*]] = arith.subi %[[S]], %[[C2]]
// CHECK: scf.for %[[I2:.*]] = %[[ROWK]] to
// CHECK: %[[BELOW2:.*]] = arith.addi %[[I2]], %[[C1]]
// CHECK: %[[KNEXT2:.*]] = arith.minsi %[[BELOW2]], %[[C9]]
// CHECK: %[[UP:.*]] = arith.remui %{{.*}}, %[[C4]]
// CHECK: vector.maskedload %[[RING]][%[[IN]], %[[UP]],
// CHECK: %[[DOWN:.*]] = arith.remui %[[BELOW2]], %[[C4]]
// CHECK: %[[MID:.*]] = arith.remui %[[I2]], %[[C4]]
// CHECK: vector.maskedstore %[[RING]][%[[OUT]], %[[MID]],
// Their whole vectors load each vector of a ring row once: x[0, 1] of the
// vector at column j is lanes 1 .. 16 of the vectors at j and j + 16, the
// one at j carried over from the previous vector, which loaded it as its
// j + 16. x[-1, 0] and x[1, 0] are whole vectors of their rows.
// CHECK: %[[FIRSTCOL:.*]] = arith.maxsi %[[BODY2:.*]], %[[C0]]
// CHECK: %[[CARRY0:.*]] = vector.load %[[RING]][%[[IN]], %[[MID]], %[[FIRSTCOL]]]
// CHECK: scf.for %[[J2:.*]] = %[[BODY2]] to %{{.*}} step %[[C16]] iter_args(%[[CARRIED:.*]] = %[[CARRY0]]) -> (vector<16xf32>) {
// CHECK: %[[NV:.*]] = vector.load %[[RING]][%[[IN]], %[[UP]], %[[J2]]]
// CHECK: %[[SV:.*]] = vector.load %[[RING]][%[[IN]], %[[DOWN]], %[[J2]]]
// CHECK: %[[NEXTCOL:.*]] = arith.addi %[[J2]], %[[C16]]
// CHECK: %[[NEXTV:.*]] = vector.load %[[RING]][%[[IN]], %[[MID]], %[[NEXTCOL]]]
// The steps between ask for the read-only field's next row as step 1 does.
// CHECK: %[[KJ2:.*]] = arith.addi %[[J2]], %[[C1]]
// CHECK: memref.prefetch %[[K]][%[[KNEXT2]], %[[KJ2]]], read, locality<3>, data
// CHECK: %[[EV:.*]] = vector.shuffle %[[CARRIED]], %[[NEXTV]] [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
// CHECK: %[[KV:.*]] = vector.load %[[K]][%[[I2]], %[[KJ2]]]
// CHECK: %[[SUM:.*]] = arith.addf %[[NV]], %[[SV]] : vector<16xf32>
// CHECK: %[[SUM2:.*]] = arith.addf %[[SUM]], %[[EV]] : vector<16xf32>
// CHECK: %[[PROD:.*]] = arith.mulf %[[SUM2]], %[[KV]] : vector<16xf32>
// CHECK: vector.store %[[PROD]], %[[RING]][%[[OUT]], %[[MID]], %[[J2]]]
// CHECK: scf.yield %[[NEXTV]] : vector<16xf32>
// The last step: rows w - (depth - 1) and the one after, in the band only,
// into the destination.
// CHECK: %[[LASTROW:.*]] = arith.subi %[[W]], %[[LEVELS]]
// CHECK: scf.for %[[K3:.*]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK: %[[ROW3:.*]] = arith.addi %[[LASTROW]], %[[K3]]
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[ROW3]], %[[BAND]]
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[ROW3]], %[[BANDEND]]
// CHECK: %[[INBAND:.*]] = arith.andi %[[GE]], %[[LT]]
// CHECK: scf.if %[[INBAND]] {
// CHECK: %[[PREV:.*]] = arith.subi %[[DEPTH]], %[[C2]]
// CHECK-NOT: memref.prefetch
// Its row of 10 points is one masked vector.
// CHECK: %[[TEN:.*]] = vector.constant_mask [10] : vector<16xi1>
// CHECK: vector.maskedload %[[RING]][%[[PREV]],
// CHECK: vector.maskedstore %[[Y]][%{{.*}}, %[[C1]]], %[[TEN]]
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
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.parallel (%[[Z:.*]], %[[Y:.*]], %[[X:.*]]) = {{.*}} step (%[[C2:.*]], %[[C2]], %{{.*}})
// CHECK: %[[OY:.*]] = arith.maxsi %[[Y]], %[[C1:.*]] : index
// CHECK: %[[OX:.*]] = arith.maxsi %[[X]], %[[C1]] : index
// CHECK: %[[RING3:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x3x2x16xf32>
// Step 1's rows along x are vectors. The tile spans neither inner axis:
// with each vector, step 1 asks for its line of the source plane that the
// wave after next reads first (z + 3, at most the last plane, 4); here
// the row is one partial vector. A ring row's columns count from the
// tile's first x.
// CHECK: scf.for %[[WAVE:[^ ]*]] = %{{.*}} to
// CHECK: scf.for %[[ROW:[^ ]*]] = %[[WAVE]] to
// CHECK-NEXT: scf.for %[[RYI:[^ ]*]] = %{{.*}} to
// CHECK-NEXT: %[[FROMCOL:.*]] = arith.subi %[[FROM:.*]], %[[OX]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[ROW]], %[[C3]]
// CHECK-NEXT: %[[LATER:.*]] = arith.minsi %[[NEXT]], %[[C4]]
// CHECK-NEXT: memref.prefetch %{{.*}}[%[[LATER]], %[[RYI]], %[[FROM]]], read, locality<3>, data
// CHECK-NOT: memref.prefetch
// CHECK: %[[RY:.*]] = arith.subi %[[RYI]], %[[OY]]
// CHECK: vector.maskedstore %[[RING3]][%{{.*}}, %{{.*}}, %[[RY]], %[[FROMCOL]]]
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

// A read-only field's rows on a 3-D grid: each whole vector of every level
// asks for its line of the row of the field that the level reads for the
// first time at the plane's next row, one prefetch per row of the field the
// calc reads (per offset along z, the largest offset along y, and the
// smallest along x, a column the field holds): k[z, y + 2, x - 1] for
// k[0, -1, 0] and k[0, 1, -1], k[z + 1, y + 1, x] for k[1, 0, 0], each row
// at most the field's last along y, 7.
// CHECK-LABEL: func.func @pipelined_input_rows(
// CHECK-SAME: %{{[^:]*}}: memref<6x8x40xf32>, %{{[^:]*}}: memref<6x8x40xf32>, %[[K:[^:]*]]: memref<6x8x40xf32>
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// Step 1, its rows in wave w. Ring column j is grid column j + 1.
// CHECK: %[[DEPTH:.*]] = arith.divui
// CHECK: memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x3x6x48xf32>
// CHECK: scf.for %[[W:.*]] = %{{.*}} to
// CHECK: scf.for %[[Z1:.*]] = %[[W]] to
// CHECK-NEXT: scf.for %[[Y1:.*]] = %[[C1]] to %[[C7]]
// The rows, once per row of vectors.
// CHECK-NEXT: %[[YY1:.*]] = arith.addi %[[Y1]], %[[C2]]
// CHECK-NEXT: %[[ROW1:.*]] = arith.minsi %[[YY1]], %[[C7]]
// CHECK-NEXT: %[[ZD1:.*]] = arith.addi %[[Z1]], %[[C1]]
// CHECK-NEXT: %[[YD1:.*]] = arith.addi %[[Y1]], %[[C1]]
// CHECK-NEXT: %[[ROWD1:.*]] = arith.minsi %[[YD1]], %[[C7]]
// A line of each with every vector.
// CHECK-NEXT: scf.for %[[J1:.*]] = %{{.*}} to %{{.*}} step %[[C16]] {
// CHECK-NEXT: memref.prefetch %[[K]][%[[Z1]], %[[ROW1]], %[[J1]]], read, locality<3>, data
// CHECK-NEXT: %[[COL1:.*]] = arith.addi %[[J1]], %[[C1]]
// CHECK-NEXT: memref.prefetch %[[K]][%[[ZD1]], %[[ROWD1]], %[[COL1]]], read, locality<3>, data
// CHECK-NOT: memref.prefetch
// CHECK: vector.load %[[K]]
// Steps 2 .. depth - 1 (none at T = 2, but blocks take their depth at run
// time) ask for the same rows.
// CHECK: scf.for %{{.*}} = %[[C2]] to
// CHECK: scf.for %[[J2:.*]] = %{{.*}} to %{{.*}} step %[[C16]] {
// CHECK: memref.prefetch %[[K]]
// CHECK: memref.prefetch %[[K]]
// CHECK: vector.store %{{.*}} : memref<?x3x6x48xf32>, vector<16xf32>
// The last step reads ring level depth - 2, writes the destination and
// asks for them too.
// CHECK: arith.subi %[[DEPTH]], %[[C2]]
// CHECK: scf.for %[[Z3:.*]] = %{{.*}} to
// CHECK-NEXT: scf.for %[[Y3:.*]] = %[[C1]] to %[[C7]]
// CHECK-NEXT: %[[YY3:.*]] = arith.addi %[[Y3]], %[[C2]]
// CHECK-NEXT: %[[ROW3:.*]] = arith.minsi %[[YY3]], %[[C7]]
// CHECK-NEXT: %[[ZD3:.*]] = arith.addi %[[Z3]], %[[C1]]
// CHECK-NEXT: %[[YD3:.*]] = arith.addi %[[Y3]], %[[C1]]
// CHECK-NEXT: %[[ROWD3:.*]] = arith.minsi %[[YD3]], %[[C7]]
// CHECK: scf.for %[[J3:.*]] = %{{.*}} to %{{.*}} step %[[C16]] {
// CHECK: memref.prefetch %[[K]][%[[Z3]], %[[ROW3]], %[[J3]]], read, locality<3>, data
// CHECK-NEXT: %[[COL3:.*]] = arith.addi %[[J3]], %[[C1]]
// CHECK-NEXT: memref.prefetch %[[K]][%[[ZD3]], %[[ROWD3]], %[[COL3]]], read, locality<3>, data
// CHECK: vector.store %{{.*}}, %{{.*}}[%[[Z3]], %[[Y3]], %[[COL3]]] : memref<6x8x40xf32>, vector<16xf32>
!h = !stencil.field<6x8x40xf32>
func.func @pipelined_input_rows(%A: memref<6x8x40xf32>, %B: memref<6x8x40xf32>, %K: memref<6x8x40xf32>, %n: index) {
  %a = stencil.load %A : memref<6x8x40xf32> -> !h
  %b = stencil.load %B : memref<6x8x40xf32> -> !h
  %k = stencil.load %K : memref<6x8x40xf32> -> !h
  %g = stencil.grid [1, 1, 1] to [5, 7, 39] : !stencil.grid<3>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !h, !h
      attributes {schedule = #stencil.schedule<wg = [4, 6, 38], time_block = 2>} {
    %calc = stencil.apply on %g ins(%x = %ak : !h, %w = %k : !h) outs(%bk : !h) {
      %u = stencil.access %x[-1, 0, 0] : !h
      %d = stencil.access %x[1, 0, 0] : !h
      %kn = stencil.access %w[0, -1, 0] : !h
      %ks = stencil.access %w[0, 1, -1] : !h
      %kd = stencil.access %w[1, 0, 0] : !h
      %s = arith.addf %u, %d : f32
      %t = arith.mulf %s, %kn : f32
      %v = arith.addf %t, %ks : f32
      %q = arith.addf %v, %kd : f32
      stencil.return %q : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !h) outs(%ak : !h) {
      %v = stencil.access %y[0, 0, 0] : !h
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !h, !h
  }
  stencil.store %r#0 to %A : !h to memref<6x8x40xf32>
  stencil.store %r#1 to %B : !h to memref<6x8x40xf32>
  return
}

// -----

// Levels read one column before the tile's first (x[0, -1]), so the ring
// starts a whole line before that column, not one element: column 1 then
// begins a 64-byte line of every ring row, and so do the vectors of every
// level of this tile, which spans the grid. The room for that line makes a
// row 40 + 15 columns wide, padded to 5 lines (80 floats).
// CHECK-LABEL: func.func @aligned_rows(
// CHECK-DAG: %[[CM16:.*]] = arith.constant -16 : index
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
// CHECK: %[[RING:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x3x80xf32>
// The middle levels read and write ring columns counted from there. Their
// whole vectors start at multiples of 16 (from the first at or after the
// row's first column), at line boundaries; each reads the vectors of its
// own ring row before, at and after it, and shifts x[0, -1] and x[0, 1]
// out of them. Each loop carries two to the next vector and loads one.
// CHECK: scf.for %{{.*}} = %[[C2]] to %{{.*}} step %[[C1]] {
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C1]] {
// CHECK-NEXT: %[[FROMCOL:.*]] = arith.subi %{{.*}}, %[[ORIGIN]]
// CHECK-NEXT: %[[TOCOL:.*]] = arith.subi %{{.*}}, %[[ORIGIN]]
// CHECK-NEXT: %[[VECS:.*]] = arith.ceildivsi %[[FROMCOL]], %[[C16]]
// CHECK-NEXT: %[[ALIGNED:.*]] = arith.muli %[[VECS]], %[[C16]]
// CHECK-NEXT: %[[BODY:.*]] = arith.minsi %[[ALIGNED]], %[[TOCOL]]
// The partial vector before it, masked.
// CHECK: %[[HEAD:.*]] = vector.create_mask
// CHECK: %[[SLOT:.*]] = arith.remui
// CHECK: vector.maskedstore %[[RING]][%{{.*}}, %[[SLOT]], %[[FROMCOL]]], %[[HEAD]]
// CHECK: %[[BEFORE:.*]] = arith.addi %[[BODY]], %[[CM16]]
// CHECK: %[[BEFORECOL:.*]] = arith.maxsi %[[BEFORE]], %[[C0]]
// CHECK: %[[V0:.*]] = vector.load %[[RING]][%{{.*}}, %[[SLOT]], %[[BEFORECOL]]]
// CHECK: %[[ATCOL:.*]] = arith.maxsi %[[BODY]], %[[C0]]
// CHECK: %[[V1:.*]] = vector.load %[[RING]][%{{.*}}, %[[SLOT]], %[[ATCOL]]]
// CHECK: scf.for %[[J:.*]] = %[[BODY]] to %{{.*}} step %[[C16]] iter_args(%[[PREV:.*]] = %[[V0]], %[[CUR:.*]] = %[[V1]])
// CHECK: %[[NEXTCOL:.*]] = arith.addi %[[J]], %[[C16]]
// CHECK: %[[NEXT:.*]] = vector.load %[[RING]][%{{.*}}, %[[SLOT]], %[[NEXTCOL]]]
// CHECK: %[[WEST:.*]] = vector.shuffle %[[PREV]], %[[CUR]] [15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]
// CHECK: %[[EAST:.*]] = vector.shuffle %[[CUR]], %[[NEXT]] [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
// CHECK: arith.addf %[[WEST]], %[[EAST]] : vector<16xf32>
// CHECK: vector.store %{{.*}}, %[[RING]][%{{.*}}, %[[SLOT]], %[[J]]]
// CHECK: scf.yield %[[CUR]], %[[NEXT]]
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

// -----

// Rows of whole 64-byte lines (32 floats): the ring's columns follow the
// destination's lines, wherever its pointer lies. The ring starts at the
// first column read (0 here), less how far into a line that column is in
// the destination, so the last level stores whole vectors on the lines of
// the destination (from x = 16), not from the grid's first column.
// CHECK-LABEL: func.func @line_rows(
// CHECK-SAME: %[[A:[^:]*]]: memref<8x32xf32>, %[[B:[^:]*]]: memref<8x32xf32>
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: scf.for %{{.*}} iter_args(%{{[^ ]*}} = %[[A]], %[[Y:[^ ]*]] = %[[B]])
// CHECK: scf.parallel
// CHECK: %[[READLOW:.*]] = arith.maxsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK-NEXT: %[[BYTE:.*]] = arith.remui %[[BASE]], %[[C64]]
// CHECK-NEXT: %[[BASECOL:.*]] = arith.divui %[[BYTE]], %[[C4]]
// CHECK-NEXT: %[[COL:.*]] = arith.addi %[[BASECOL]], %[[READLOW]]
// CHECK-NEXT: %[[INTO:.*]] = arith.remui %[[COL]], %[[C16]]
// CHECK-NEXT: %[[ORIGIN:.*]] = arith.subi %[[READLOW]], %[[INTO]]
// A ring row: 32 columns and up to 15 before them, in 3 lines.
// CHECK-NEXT: memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x3x48xf32>
// The last level: a masked vector from the grid's first column to the
// first ring column that is a multiple of 16, then whole vectors, each
// stored at its ring column plus the ring's origin.
// CHECK: %[[FROMCOL:.*]] = arith.subi %[[C1]], %[[ORIGIN]]
// CHECK-NEXT: %{{.*}} = arith.subi %{{.*}}, %[[ORIGIN]]
// CHECK-NEXT: %[[LINES:.*]] = arith.ceildivsi %[[FROMCOL]], %[[C16]]
// CHECK: vector.maskedstore %[[Y]]
// CHECK: scf.for %[[COLUMN:[^ ]*]] = %{{.*}} to %{{.*}} step %[[C16]] iter_args
// CHECK: %[[X:.*]] = arith.addi %[[COLUMN]], %[[ORIGIN]]
// CHECK: vector.store %{{.*}}, %[[Y]][%{{.*}}, %[[X]]] : memref<8x32xf32>, vector<16xf32>
!l = !stencil.field<8x32xf32>
func.func @line_rows(%A: memref<8x32xf32>, %B: memref<8x32xf32>, %n: index) {
  %a = stencil.load %A : memref<8x32xf32> -> !l
  %b = stencil.load %B : memref<8x32xf32> -> !l
  %g = stencil.grid [1, 1] to [7, 31] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !l, !l
      attributes {schedule = #stencil.schedule<wg = [3, 30], time_block = 2>} {
    %calc = stencil.apply on %g ins(%x = %ak : !l) outs(%bk : !l) {
      %w = stencil.access %x[0, -1] : !l
      %e = stencil.access %x[0, 1] : !l
      %u = stencil.access %x[-1, 0] : !l
      %s = arith.addf %w, %e : f32
      %v = arith.addf %s, %u : f32
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !l) outs(%ak : !l) {
      %v = stencil.access %y[0, 0] : !l
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !l, !l
  }
  stencil.store %r#0 to %A : !l to memref<8x32xf32>
  stencil.store %r#1 to %B : !l to memref<8x32xf32>
  return
}

// -----

// A body that divides integers: the partial vectors at the row ends are
// scalar points, as masked-off lanes would divide by zero; whole vectors
// divide vectors.
// CHECK-LABEL: func.func @integer_division(
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: memref.load
// CHECK: arith.divsi %{{.*}} : i32
// CHECK: arith.divsi %{{.*}} : vector<16xi32>
// CHECK-NOT: vector.mask
// CHECK: return
!i = !stencil.field<10x40xf32>
func.func @integer_division(%A: memref<10x40xf32>, %B: memref<10x40xf32>, %n: index) {
  %a = stencil.load %A : memref<10x40xf32> -> !i
  %b = stencil.load %B : memref<10x40xf32> -> !i
  %g = stencil.grid [1, 1] to [9, 39] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !i, !i
      attributes {schedule = #stencil.schedule<wg = [4, 38], time_block = 3>} {
    %calc = stencil.apply on %g ins(%x = %ak : !i) outs(%bk : !i) {
      %w = stencil.access %x[0, -1] : !i
      %u = stencil.access %x[-1, 0] : !i
      %wi = arith.fptosi %w : f32 to i32
      %ui = arith.fptosi %u : f32 to i32
      %q = arith.divsi %wi, %ui : i32
      %v = arith.sitofp %q : i32 to f32
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !i) outs(%ak : !i) {
      %v = stencil.access %y[0, 0] : !i
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !i, !i
  }
  stencil.store %r#0 to %A : !i to memref<10x40xf32>
  stencil.store %r#1 to %B : !i to memref<10x40xf32>
  return
}

// -----

// A body op that is not element-wise keeps scalar rows, for LLVM's loop
// vectorizer (the canonicalizer then inlines the region).
// CHECK-LABEL: func.func @scalar_rows(
// CHECK-NOT: vector.
// CHECK: memref.load
// CHECK: arith.addf %{{.*}} : f32
// CHECK-NOT: vector.
// CHECK: return
!s = !stencil.field<10x40xf32>
func.func @scalar_rows(%A: memref<10x40xf32>, %B: memref<10x40xf32>, %n: index) {
  %a = stencil.load %A : memref<10x40xf32> -> !s
  %b = stencil.load %B : memref<10x40xf32> -> !s
  %g = stencil.grid [1, 1] to [9, 39] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !s, !s
      attributes {schedule = #stencil.schedule<wg = [4, 38], time_block = 3>} {
    %calc = stencil.apply on %g ins(%x = %ak : !s) outs(%bk : !s) {
      %w = stencil.access %x[-1, 1] : !s
      %v = scf.execute_region -> f32 {
        %d = arith.addf %w, %w : f32
        scf.yield %d : f32
      }
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !s) outs(%ak : !s) {
      %v = stencil.access %y[0, 0] : !s
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !s, !s
  }
  stencil.store %r#0 to %A : !s to memref<10x40xf32>
  stencil.store %r#1 to %B : !s to memref<10x40xf32>
  return
}

// -----

// A sweep chain (B from A, then A from B) in blocks of 2 steps: 4 levels of
// pipelined rows per block, the levels of each step unrolled. Each level's
// ring gets the boundary of the array its sweep writes: B's for the first
// sweep, A's (the block's source) for the second. The last level writes a
// spare buffer with A's ring, which the block then swaps with A.
// CHECK-LABEL: func.func @pipelined_chain(
// CHECK-SAME: %[[A:[^:]*]]: memref<10x12xf64>, %[[B:[^:]*]]: memref<10x12xf64>, %[[N:[^:]*]]: index)
// CHECK: %[[SPARE:.*]] = memref.alloc() : memref<10x12xf64>
// CHECK: scf.for %{{.*}} iter_args(%[[X:.*]] = %[[A]], %[[Z:.*]] = %[[SPARE]])
// CHECK: %[[DEPTH:.*]] = arith.divui
// CHECK: %[[LEVELS:.*]] = arith.muli %[[DEPTH]], %[[TWO:.*]] : index
// CHECK: scf.parallel
// CHECK: memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x4x24xf64>
// CHECK: scf.for %[[WAVE:.*]] =
// Step 1: the first sweep reads A, its ring's boundary cells are B's.
// CHECK: vector.load %[[X]]
// CHECK: memref.load %[[B]]
// CHECK: } else {
// CHECK: memref.load %[[B]]
// Step 1: the second sweep, its ring's boundary cells A's.
// CHECK: memref.load %[[X]]
// CHECK: } else {
// CHECK: memref.load %[[X]]
// Steps 2 .. depth - 1, both sweeps.
// CHECK: scf.for
// CHECK: memref.load %[[B]]
// CHECK: memref.load %[[X]]
// The last step: the first sweep, then the last level into the spare.
// CHECK: memref.load %[[B]]
// CHECK: vector.store %{{.*}}, %[[Z]]
// CHECK: scf.yield %[[Z]], %[[X]]
!f = !stencil.field<10x12xf64>
func.func @pipelined_chain(%A: memref<10x12xf64>, %B: memref<10x12xf64>, %n: index) {
  %a = stencil.load %A : memref<10x12xf64> -> !f
  %b = stencil.load %B : memref<10x12xf64> -> !f
  %g = stencil.grid [1, 1] to [9, 11] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !f, !f
      attributes {schedule = #stencil.schedule<wg = [4, 10], time_block = 2>} {
    %ab = stencil.apply on %g ins(%x = %ak : !f) outs(%bk : !f) {
      %n0 = stencil.access %x[-1, 0] : !f
      %e0 = stencil.access %x[0, 1] : !f
      %v = arith.addf %n0, %e0 : f64
      stencil.return %v : f64
    }
    %ba = stencil.apply on %g ins(%y = %ab : !f) outs(%ak : !f) {
      %s0 = stencil.access %y[1, 0] : !f
      %w0 = stencil.access %y[0, -1] : !f
      %v = arith.mulf %s0, %w0 : f64
      stencil.return %v : f64
    }
    stencil.yield %ba, %ab : !f, !f
  }
  stencil.store %r#0 to %A : !f to memref<10x12xf64>
  stencil.store %r#1 to %B : !f to memref<10x12xf64>
  return
}

// -----

// Rows of whole vectors in tiles narrower than the grid: the first level
// asks for a line of the source's row two past its reach (row + 1 + 2, at
// most the last row, 7) with each vector it computes, the partial vectors
// at both ends included, and the last level for a line of the
// destination's next row, for writing: spread over the row, not all at
// once before it.
// CHECK-LABEL: func.func @pipelined_prefetch(
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[NEXT:.*]] = arith.addi %{{.*}}, %[[C3]]
// CHECK-NEXT: %[[LATER:.*]] = arith.minsi %[[NEXT]], %[[C7]]
// CHECK-NEXT: memref.prefetch %[[SRC:arg[0-9]+]][%[[LATER]], %{{.*}}], read, locality<3>, data
// CHECK: vector.maskedstore
// CHECK-NEXT: scf.for %[[COL:[^ ]*]] = %{{.*}} to %{{.*}} step %[[C16]] {
// CHECK-NEXT: %[[X:.*]] = arith.addi %[[COL]], %[[ORIGIN:.*]] : index
// CHECK-NEXT: memref.prefetch %[[SRC]][%[[LATER]], %[[X]]], read, locality<3>, data
// CHECK-NEXT: vector.load %[[SRC]]
// CHECK: vector.store
// CHECK-NEXT: }
// The row's last column, or its first where the row is empty.
// CHECK-NEXT: %[[LASTCOL:.*]] = arith.subi %{{.*}}, %[[C1:.*]] : index
// CHECK-NEXT: %[[TAILCOL:.*]] = arith.maxsi %[[LASTCOL]], %{{.*}} : index
// CHECK-NEXT: %[[TAIL:.*]] = arith.addi %[[TAILCOL]], %[[ORIGIN]]
// CHECK-NEXT: memref.prefetch %[[SRC]][%[[LATER]], %[[TAIL]]], read, locality<3>, data
// CHECK: vector.maskedstore
// The last level: the destination's next row, at most the last (7).
// CHECK: %[[WROW:.*]] = arith.minsi %{{.*}}, %[[C7]] : index
// CHECK-NEXT: memref.prefetch %[[DST:arg[0-9]+]][%[[WROW]], %{{.*}}], write, locality<3>, data
// CHECK: scf.for %{{[^ ]*}} = %{{.*}} to %{{.*}} step %[[C16]] iter_args
// CHECK: memref.prefetch %[[DST]][%[[WROW]], %{{.*}}], write, locality<3>, data
// CHECK: vector.store %{{.*}}, %[[DST]][%{{arg[0-9]+}}, %{{.*}}]
// CHECK: memref.prefetch %[[DST]][%[[WROW]], %{{.*}}], write, locality<3>, data
!w = !stencil.field<8x70xf32>
func.func @pipelined_prefetch(%A: memref<8x70xf32>, %B: memref<8x70xf32>, %n: index) {
  %a = stencil.load %A : memref<8x70xf32> -> !w
  %b = stencil.load %B : memref<8x70xf32> -> !w
  %g = stencil.grid [1, 1] to [7, 69] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !w, !w
      attributes {schedule = #stencil.schedule<wg = [8, 48], time_block = 2>} {
    %calc = stencil.apply on %g ins(%x = %ak : !w) outs(%bk : !w) {
      %u = stencil.access %x[-1, 0] : !w
      %d = stencil.access %x[1, 0] : !w
      %e = stencil.access %x[0, 1] : !w
      %v = arith.addf %u, %d : f32
      %t = arith.addf %v, %e : f32
      stencil.return %t : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !w) outs(%ak : !w) {
      %v = stencil.access %y[0, 0] : !w
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !w, !w
  }
  stencil.store %r#0 to %A : !w to memref<8x70xf32>
  stencil.store %r#1 to %B : !w to memref<8x70xf32>
  return
}

// -----

// A read-only field of a run-time extent: the next row a level asks for is
// clamped to the field's own last row, dim - 1.
// CHECK-LABEL: func.func @dynamic_input(
// CHECK-SAME: %{{[^:]*}}: memref<10x40xf32>, %{{[^:]*}}: memref<10x40xf32>, %[[K:[^:]*]]: memref<?x40xf32>
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x4x48xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C2]] {
// CHECK-NEXT: scf.for %{{.*}} = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[C1]] {
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[I]], %[[C1]]
// CHECK-NEXT: %[[DIM:.*]] = memref.dim %[[K]], %[[C0]]
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[DIM]], %[[C1]]
// CHECK-NEXT: %[[ROW:.*]] = arith.minsi %[[NEXT]], %[[LAST]]
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[C16]] {
// CHECK-NEXT: %[[COL:.*]] = arith.addi %[[J]], %[[C1]]
// CHECK-NEXT: memref.prefetch %[[K]][%[[ROW]], %[[COL]]], read, locality<3>, data
!f = !stencil.field<10x40xf32>
!d = !stencil.field<?x40xf32>
func.func @dynamic_input(%A: memref<10x40xf32>, %B: memref<10x40xf32>, %K: memref<?x40xf32>, %n: index) {
  %a = stencil.load %A : memref<10x40xf32> -> !f
  %b = stencil.load %B : memref<10x40xf32> -> !f
  %k = stencil.load %K : memref<?x40xf32> -> !d
  %g = stencil.grid [1, 1] to [9, 39] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !f, !f
      attributes {schedule = #stencil.schedule<wg = [8, 38], time_block = 3>} {
    %calc = stencil.apply on %g ins(%x = %ak : !f, %w = %k : !d) outs(%bk : !f) {
      %n0 = stencil.access %x[-1, 0] : !f
      %s0 = stencil.access %x[1, 0] : !f
      %c0 = stencil.access %w[0, 0] : !d
      %t = arith.addf %n0, %s0 : f32
      %v = arith.mulf %t, %c0 : f32
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !f) outs(%ak : !f) {
      %v = stencil.access %y[0, 0] : !f
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !f, !f
  }
  stencil.store %r#0 to %A : !f to memref<10x40xf32>
  stencil.store %r#1 to %B : !f to memref<10x40xf32>
  return
}

// -----

// The block that runs the loop's last step also leaves its values in the
// block's source, so that both arrays hold them as C's last copy leaves
// them, and the loop copies no interior after it. It is the last block
// (index blocks - 1) when no single step follows. In each tile its last
// level copies each row it wrote into the source where no other tile's
// first level reads the source: a tile below reads depth x r_high = depth
// rows into this one, a tile above depth x r_low = depth rows (rows: radius
// 1 both ways); along x only a tile to the right reads, depth columns
// (x[0, -1]: r_low 1, r_high 0). After all tiles, the slabs around the
// tiles' boundaries (row 5, column 6) go from the destination to the
// source.
// The rings are compared before the loop across the rows only, rows 0 and
// 9; their row ends, columns 0 and 11 of rows 1 to 8, a cache line each,
// are compared by the first block's last level as it writes those rows,
// and the rings are aligned after that block where the ends differ (the
// block reads no destination's ring).
// CHECK-LABEL: func.func @final_state(
// CHECK-SAME: %[[A:[^:]*]]: memref<10x12xf32>, %[[B:[^:]*]]: memref<10x12xf32>, %{{.*}}: index)
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[ACROSS:.*]] = memref.alloca() : memref<i8>
// CHECK: memref.load %[[A]][%[[C0:.*]], %{{.*}}]
// CHECK: memref.load %[[A]][%[[C9:.*]], %{{.*}}]
// CHECK-NOT: memref.load %[[A]]
// CHECK: memref.load %[[ACROSS]][]
// CHECK: %[[ENDS:.*]] = memref.alloca() : memref<i8>
// CHECK: %[[BLOCKS:.*]] = arith.addi
// CHECK: %[[SINGLE:.*]] = arith.select
// CHECK: %[[LASTBLOCK:.*]] = arith.subi %[[BLOCKS]], %[[C1:.*]] : index
// CHECK: %[[NOSINGLE:.*]] = arith.cmpi eq, %[[SINGLE]], %[[C0:.*]] : index
// CHECK: %[[SOME:.*]] = arith.cmpi sgt, %[[BLOCKS]], %[[C0]] : index
// CHECK: %[[STORED:.*]] = arith.andi %[[NOSINGLE]], %[[SOME]] : i1
// CHECK: %[[RESULT:.*]]:2 = scf.for %[[BLOCK:.*]] = %[[C0]] to %[[BLOCKS]] step %[[C1]] iter_args(%[[X:.*]] = %[[A]], %[[Y:.*]] = %[[B]])
// CHECK: %[[DEPTH:.*]] = arith.divui
// CHECK: %[[ISLAST:.*]] = arith.cmpi eq, %[[BLOCK]], %[[LASTBLOCK]]
// CHECK: %[[FINAL:.*]] = arith.andi %[[ISLAST]], %[[STORED]] : i1
// CHECK: %[[ISFIRST:.*]] = arith.cmpi eq, %[[BLOCK]], %[[C0]]
// CHECK: scf.parallel (%[[ROW0:.*]], %[[COL0:.*]]) = (%[[C1]], %[[C1]]) to (%[[C9]], %[[C11:.*]]) step (%[[C4:.*]], %[[C5:.*]])
// CHECK: %[[ROWEND:.*]] = arith.minsi %{{.*}}, %[[C9]]
// CHECK: %[[COLEND:.*]] = arith.minsi %{{.*}}, %[[C11]]
// Whether the tile reaches the grid's ends along x, whose row ends it
// compares.
// CHECK: %[[ATLOW:.*]] = arith.cmpi eq, %[[COL0]], %[[C1]]
// CHECK: %[[ATHIGH:.*]] = arith.cmpi eq, %[[COLEND]], %[[C11]]
// CHECK: %[[HASBELOW:.*]] = arith.cmpi sgt, %[[ROW0]], %[[C1]]
// CHECK: %[[PASTBELOW:.*]] = arith.addi %[[ROW0]], %[[DEPTH]]
// CHECK: %[[LOW0:.*]] = arith.select %[[HASBELOW]], %[[PASTBELOW]], %[[ROW0]]
// CHECK: %[[HASABOVE:.*]] = arith.cmpi slt, %[[ROWEND]], %[[C9]]
// CHECK: %[[BEFOREABOVE:.*]] = arith.subi %[[ROWEND]], %[[DEPTH]]
// CHECK: %[[HIGH0:.*]] = arith.select %[[HASABOVE]], %[[BEFOREABOVE]], %[[ROWEND]]
// CHECK: %[[HASRIGHT:.*]] = arith.cmpi slt, %[[COLEND]], %[[C11]]
// CHECK: %[[BEFORERIGHT:.*]] = arith.subi %[[COLEND]], %[[DEPTH]]
// CHECK: %[[HIGH1:.*]] = arith.select %[[HASRIGHT]], %[[BEFORERIGHT]], %[[COLEND]]
// The last level: its row into the destination; in the first block, the
// row's ends compared where the tile reaches them (the bits that differ
// or-ed, then one test); then the row into the source.
// CHECK: vector.maskedstore %[[Y]][%{{.*}}, %[[COL0]]]
// CHECK: scf.if %[[ISFIRST]] {
// CHECK: scf.if %[[ATLOW]] {
// CHECK: memref.load %[[X]][%[[ENDROW:.*]], %[[C0]]]
// CHECK: memref.load %[[Y]][%[[ENDROW]], %[[C0]]]
// CHECK: arith.xori
// CHECK: memref.atomic_rmw assign %{{.*}}, %[[ENDS]][]
// CHECK: scf.if %[[ATHIGH]] {
// CHECK: memref.load %[[X]][%[[ENDROW]], %[[C11]]]
// CHECK: memref.load %[[Y]][%[[ENDROW]], %[[C11]]]
// CHECK: memref.atomic_rmw assign %{{.*}}, %[[ENDS]][]
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[ROW:.*]], %[[LOW0]]
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[ROW]], %[[HIGH0]]
// CHECK: %[[INROWS:.*]] = arith.andi %[[GE]], %[[LT]]
// CHECK: %[[STORE:.*]] = arith.andi %[[FINAL]], %[[INROWS]]
// CHECK: scf.if %[[STORE]] {
// CHECK: scf.for %[[R:.*]] = %[[ROW]] to
// CHECK: scf.for %[[COL:.*]] = %[[COL0]] to %[[HIGH1]] step %[[C1]] {
// CHECK-NEXT: %[[V:.*]] = memref.load %[[Y]][%[[R]], %[[COL]]]
// CHECK-NEXT: memref.store %[[V]], %[[X]][%[[R]], %[[COL]]]
// CHECK: scf.reduce
// The slabs: rows [5 - depth, 5 + depth) of every column, then columns
// [6 - depth, 6) of every row.
// CHECK: scf.if %[[FINAL]] {
// CHECK: %[[R5:.*]] = arith.subi %[[C5]], %[[DEPTH]]
// CHECK: %[[RFROM:.*]] = arith.maxsi %[[R5]], %[[C1]]
// CHECK: %[[R5UP:.*]] = arith.addi %[[DEPTH]], %[[C5]]
// CHECK: %[[RTO:.*]] = arith.minsi %[[R5UP]], %[[C9]]
// CHECK: scf.parallel (%[[SR:.*]]) = (%[[RFROM]]) to (%[[RTO]])
// CHECK-NEXT: scf.for %[[SC:.*]] = %[[C1]] to %[[C11]]
// CHECK-NEXT: %[[SV:.*]] = memref.load %[[Y]][%[[SR]], %[[SC]]]
// CHECK-NEXT: memref.store %[[SV]], %[[X]][%[[SR]], %[[SC]]]
// CHECK: %[[C6M:.*]] = arith.subi %[[C6:.*]], %[[DEPTH]]
// CHECK: %[[CFROM:.*]] = arith.maxsi %[[C6M]], %[[C1]]
// CHECK: scf.parallel (%[[SR2:.*]]) = (%[[C1]]) to (%[[C9]])
// CHECK-NEXT: scf.for %[[SC2:.*]] = %[[CFROM]] to %[[C6]]
// CHECK-NEXT: %[[SV2:.*]] = memref.load %[[Y]][%[[SR2]], %[[SC2]]]
// CHECK-NEXT: memref.store %[[SV2]], %[[X]][%[[SR2]], %[[SC2]]]
// After the first block: B's ring saved and given A's where the ends
// differ.
// CHECK: scf.if %[[ISFIRST]] {
// CHECK: %[[SET:.*]] = memref.load %[[ENDS]][]
// CHECK: %[[ENDSDIFFER:.*]] = arith.cmpi ne, %[[SET]]
// CHECK: scf.if %[[ENDSDIFFER]] {
// CHECK: memref.load %[[B]]
// CHECK: memref.load %[[A]]
// CHECK-NEXT: memref.store %{{.*}}, %[[B]]
// CHECK: scf.yield %[[Y]], %[[X]]
// Where no block runs, the ends are compared before the steps that run
// alone (a streamed step writes the lines that hold them).
// CHECK: %[[NOBLOCK:.*]] = arith.cmpi eq, %[[BLOCKS]], %[[C0]]
// CHECK: %[[SOMESTEP:.*]] = arith.cmpi sgt, %[[SINGLE]], %[[C0]]
// CHECK: %[[EARLY:.*]] = arith.andi %[[NOBLOCK]], %[[SOMESTEP]]
// CHECK: scf.if %[[EARLY]] {
// CHECK: memref.load %[[A]][%{{.*}}, %[[C0]]]
// CHECK: memref.load %[[B]][%{{.*}}, %[[C0]]]
// CHECK: memref.load %[[A]][%{{.*}}, %[[C11]]]
// CHECK: memref.load %[[B]][%{{.*}}, %[[C11]]]
// CHECK: %[[EARLYSET:.*]] = memref.load %{{.*}}[] : memref<i8>
// CHECK: %[[EARLYDIFFER:.*]] = arith.cmpi ne, %[[EARLYSET]]
// CHECK: scf.if %[[EARLYDIFFER]] {
// CHECK: memref.store %{{.*}}, %[[ENDS]][]
// CHECK: memref.load %[[B]]
// CHECK: memref.load %[[A]]
// CHECK-NEXT: memref.store %{{.*}}, %[[B]]
// After the loop, each copy of the last interior runs only when the blocks
// did not store it.
// CHECK: %[[RAN:.*]] = arith.cmpi sgt
// CHECK: %[[COPIES:.*]] = arith.xori %[[STORED]], %[[TRUE]] : i1
// CHECK: %[[RANCOPIES:.*]] = arith.andi %[[RAN]], %[[COPIES]]
// CHECK: %[[DIFFER:.*]] = arith.cmpi ne
// CHECK: %[[TOA:.*]] = arith.andi %[[DIFFER]], %[[COPIES]]
// CHECK: scf.if %[[TOA]] {
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: %[[DIFFERB:.*]] = arith.cmpi ne
// CHECK: %[[TOB:.*]] = arith.andi %[[DIFFERB]], %[[RANCOPIES]]
// CHECK: scf.if %[[TOB]] {
// CHECK: memref.store %{{.*}}, %[[B]]
// B's ring back where it was aligned: its rows or its row ends differed.
// CHECK: %[[ENDSSET:.*]] = memref.load %[[ENDS]][]
// CHECK: %[[ENDSDIFFERED:.*]] = arith.cmpi ne, %[[ENDSSET]]
// CHECK: %[[ALIGNED:.*]] = arith.ori %{{.*}}, %[[ENDSDIFFERED]] : i1
// CHECK: scf.if %[[ALIGNED]] {
// CHECK: memref.store %{{.*}}, %[[B]]
!q = !stencil.field<10x12xf32>
func.func @final_state(%A: memref<10x12xf32>, %B: memref<10x12xf32>, %n: index) {
  %a = stencil.load %A : memref<10x12xf32> -> !q
  %b = stencil.load %B : memref<10x12xf32> -> !q
  %g = stencil.grid [1, 1] to [9, 11] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !q, !q
      attributes {schedule = #stencil.schedule<wg = [4, 5], time_block = 3>} {
    %calc = stencil.apply on %g ins(%x = %ak : !q) outs(%bk : !q) {
      %n0 = stencil.access %x[-1, 0] : !q
      %s0 = stencil.access %x[1, 0] : !q
      %w0 = stencil.access %x[0, -1] : !q
      %t = arith.addf %n0, %s0 : f32
      %v = arith.addf %t, %w0 : f32
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !q) outs(%ak : !q) {
      %v = stencil.access %y[0, 0] : !q
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !q, !q
  }
  stencil.store %r#0 to %A : !q to memref<10x12xf32>
  stencil.store %r#1 to %B : !q to memref<10x12xf32>
  return
}

// -----

// The block that stores the final state, its tiles splitting one axis only
// (the columns, tiles of 4; the calc reads one column to the left: r_low 1,
// r_high 0). Each tile sets a flag when it has finished. Where the tile to
// its left had finished when it started (tiles run in order on a thread),
// nothing else reads the slab around their boundary, the L x r_low columns
// left of it, and its last level stores those too, from the destination,
// and records it: the copy after the block skips that slab. A tile whose
// left neighbour was still running stores its own columns only, and the
// copy takes the slab. (Along the outermost axis a tile stores only its
// own rows: final-state.test runs both.)
// CHECK-LABEL: func.func @final_state_split(
// CHECK-SAME: %[[A:[^:]*]]: memref<10x12xf32>, %[[B:[^:]*]]: memref<10x12xf32>
// CHECK: scf.for %[[BLOCK:.*]] = {{.*}} iter_args(%[[X:.*]] = %[[A]], %[[Y:.*]] = %[[B]])
// CHECK: %[[DEPTH:.*]] = arith.divui
// CHECK: %[[DONE:.*]] = memref.alloc() : memref<3xi8>
// CHECK: %[[STORED:.*]] = memref.alloc() : memref<3xi8>
// CHECK: scf.for %[[I:.*]] = %[[C0:.*]] to %[[C3:.*]] step
// CHECK-NEXT: memref.store %[[ZERO:.*]], %[[DONE]][%[[I]]]
// CHECK-NEXT: memref.store %[[ZERO]], %[[STORED]][%[[I]]]
// Tiles of 4 columns hold both sides of their slabs, L x (1 + 0) columns,
// at depths up to 4.
// CHECK: %[[FITS:.*]] = arith.cmpi sle, %[[DEPTH]], %[[C4:.*]] : index
// CHECK: scf.parallel (%[[COL0:.*]]) = (%[[C1:.*]]) to (%[[C11:.*]]) step (%[[C4]])
// CHECK: %[[HASLEFT:.*]] = arith.cmpi sgt, %[[COL0]], %[[C1]]
// CHECK: %[[OFFSET:.*]] = arith.subi %[[COL0]], %[[C1]]
// CHECK: %[[TILE:.*]] = arith.divsi %[[OFFSET]], %[[C4]]
// CHECK: %[[PREVIOUS:.*]] = arith.subi %[[TILE]], %[[C1]]
// CHECK: %[[LEFT:.*]] = arith.maxsi %[[PREVIOUS]], %[[C0]]
// CHECK: %[[SEEN:.*]] = memref.atomic_rmw ori %[[ZERO]], %[[DONE]][%[[LEFT]]]
// CHECK: %[[LEFTDONE:.*]] = arith.cmpi ne, %[[SEEN]], %[[ZERO]]
// CHECK: %[[CAN:.*]] = arith.andi %[[HASLEFT]], %[[FITS]]
// CHECK: %[[STORES:.*]] = arith.andi %[[CAN]], %[[LEFTDONE]]
// CHECK: %[[FLAG:.*]] = arith.select %[[STORES]], %[[TWO:.*]], %[[ZERO]] : i8
// CHECK: memref.store %[[FLAG]], %[[STORED]][%[[TILE]]]
// CHECK: %[[SLABSTART:.*]] = arith.subi %[[COL0]], %[[DEPTH]]
// CHECK: %[[START:.*]] = arith.select %[[STORES]], %[[SLABSTART]], %[[COL0]]
// CHECK: %[[NOTSTORES:.*]] = arith.xori %[[STORES]]
// CHECK: %[[KEEPS:.*]] = arith.andi %[[HASLEFT]], %[[NOTSTORES]]
// CHECK: %[[FINALLOW:.*]] = arith.select %[[KEEPS]], %[[COL0]], %[[START]]
// The last level's rows into the source, from FINALLOW.
// CHECK: scf.for %[[COL:.*]] = %[[FINALLOW]] to %{{.*}} step %[[C1]] {
// CHECK-NEXT: %[[V:.*]] = memref.load %[[Y]][%[[ROW:.*]], %[[COL]]]
// CHECK-NEXT: memref.store %[[V]], %[[X]][%[[ROW]], %[[COL]]]
// CHECK: memref.atomic_rmw assign %{{.*}}, %[[DONE]][%[[TILE]]]
// CHECK-NEXT: scf.reduce
// After the tiles, the slab at each boundary C: [C - 3, C) unless the tile
// at C stored it (2), [C, C + 0) unless it stored its own side (1 or 2).
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %[[C11]] step %[[C4]] {
// CHECK: %[[FROM:.*]] = arith.maxsi
// CHECK: %[[TO:.*]] = arith.minsi %[[C]], %[[C11]]
// CHECK: %[[AT:.*]] = arith.subi %[[C]], %[[C1]]
// CHECK: %[[INDEX:.*]] = arith.divsi %[[AT]], %[[C4]]
// CHECK: %[[HOW:.*]] = memref.load %[[STORED]][%[[INDEX]]]
// CHECK: %[[OWN:.*]] = arith.cmpi ne, %[[HOW]], %[[ZERO]]
// CHECK: %[[TO2:.*]] = arith.select %[[OWN]], %[[C]], %[[TO]]
// CHECK: %[[BOTH:.*]] = arith.cmpi eq, %[[HOW]], %[[TWO]]
// CHECK: %[[FROM2:.*]] = arith.select %[[BOTH]], %[[C]], %[[FROM]]
// CHECK: scf.parallel
// CHECK-NEXT: scf.for %[[SCOL:.*]] = %[[FROM2]] to %[[TO2]] step %[[C1]] {
// CHECK: memref.dealloc %[[DONE]]
// CHECK: memref.dealloc %[[STORED]]
!s = !stencil.field<10x12xf32>
func.func @final_state_split(%A: memref<10x12xf32>, %B: memref<10x12xf32>, %n: index) {
  %a = stencil.load %A : memref<10x12xf32> -> !s
  %b = stencil.load %B : memref<10x12xf32> -> !s
  %g = stencil.grid [1, 1] to [9, 11] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !s, !s
      attributes {schedule = #stencil.schedule<wg = [8, 4], time_block = 3>} {
    %calc = stencil.apply on %g ins(%x = %ak : !s) outs(%bk : !s) {
      %n0 = stencil.access %x[-1, 0] : !s
      %s0 = stencil.access %x[1, 0] : !s
      %w0 = stencil.access %x[0, -1] : !s
      %t = arith.addf %n0, %s0 : f32
      %v = arith.addf %t, %w0 : f32
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !s) outs(%ak : !s) {
      %v = stencil.access %y[0, 0] : !s
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !s, !s
  }
  stencil.store %r#0 to %A : !s to memref<10x12xf32>
  stencil.store %r#1 to %B : !s to memref<10x12xf32>
  return
}

// -----

// The same split along the rows (bands of 4; r_low = r_high = 1): a band's
// last level writes only its own rows, so where the band below has
// finished it stores its own side of the slab (1) and the copy still takes
// the side below. Bands of 4 rows hold both sides, L x (1 + 1) rows, only
// at depths up to 2.
// CHECK-LABEL: func.func @final_state_split_rows(
// CHECK: %[[DEPTH:.*]] = arith.divui
// CHECK: %[[DONE:.*]] = memref.alloc() : memref<2xi8>
// CHECK: %[[STORED:.*]] = memref.alloc() : memref<2xi8>
// CHECK: %[[REACH:.*]] = arith.muli %[[DEPTH]], %[[C2:.*]] : index
// CHECK: %[[FITS:.*]] = arith.cmpi sle, %[[REACH]], %[[C4:.*]] : index
// CHECK: scf.parallel (%[[ROW0:.*]]) = (%[[C1:.*]]) to (%[[C9:.*]]) step (%[[C4]])
// CHECK: %[[HASBELOW:.*]] = arith.cmpi sgt, %[[ROW0]], %[[C1]]
// CHECK: %[[ABOVE:.*]] = arith.addi %[[ROW0]], %[[DEPTH]]
// CHECK: %[[SEEN:.*]] = memref.atomic_rmw ori %{{.*}}, %[[DONE]]
// CHECK: %[[BELOWDONE:.*]] = arith.cmpi ne, %[[SEEN]]
// CHECK: %[[CAN:.*]] = arith.andi %[[HASBELOW]], %[[FITS]]
// CHECK: %[[STORES:.*]] = arith.andi %[[CAN]], %[[BELOWDONE]]
// CHECK: %[[FLAG:.*]] = arith.extui %[[STORES]] : i1 to i8
// CHECK: memref.store %[[FLAG]], %[[STORED]]
// CHECK: %[[NOTSTORES:.*]] = arith.xori %[[STORES]]
// CHECK: %[[KEEPS:.*]] = arith.andi %[[HASBELOW]], %[[NOTSTORES]]
// CHECK: arith.select %[[KEEPS]], %[[ABOVE]], %[[ROW0]] : index
// CHECK: memref.atomic_rmw assign %{{.*}}, %[[DONE]]
// CHECK-NEXT: scf.reduce
// The one boundary, row 5: from 5 - L, to 5 where the band stored its side.
// CHECK: %[[LOW:.*]] = arith.subi %[[C5:.*]], %[[DEPTH]]
// CHECK: %[[FROM:.*]] = arith.maxsi %[[LOW]], %[[C1]]
// CHECK: %[[HIGH:.*]] = arith.addi %[[DEPTH]], %[[C5]]
// CHECK: %[[TO:.*]] = arith.minsi %[[HIGH]], %[[C9]]
// CHECK: %[[HOW:.*]] = memref.load %[[STORED]][%[[C1]]]
// CHECK: %[[OWN:.*]] = arith.cmpi ne, %[[HOW]]
// CHECK: %[[TO2:.*]] = arith.select %[[OWN]], %[[C5]], %[[TO]]
// CHECK-NEXT: scf.parallel (%{{.*}}) = (%[[FROM]]) to (%[[TO2]])
!v = !stencil.field<10x12xf32>
func.func @final_state_split_rows(%A: memref<10x12xf32>, %B: memref<10x12xf32>, %n: index) {
  %a = stencil.load %A : memref<10x12xf32> -> !v
  %b = stencil.load %B : memref<10x12xf32> -> !v
  %g = stencil.grid [1, 1] to [9, 11] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !v, !v
      attributes {schedule = #stencil.schedule<wg = [4, 10], time_block = 3>} {
    %calc = stencil.apply on %g ins(%x = %ak : !v) outs(%bk : !v) {
      %n0 = stencil.access %x[-1, 0] : !v
      %s0 = stencil.access %x[1, 0] : !v
      %w0 = stencil.access %x[0, -1] : !v
      %t = arith.addf %n0, %s0 : f32
      %v = arith.addf %t, %w0 : f32
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !v) outs(%ak : !v) {
      %v = stencil.access %y[0, 0] : !v
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !v, !v
  }
  stencil.store %r#0 to %A : !v to memref<10x12xf32>
  stencil.store %r#1 to %B : !v to memref<10x12xf32>
  return
}

// -----

// A calc that reads only the row below (r_low 1, r_high 0 along rows): in
// wave w the last level writes rows w and w + 1, and the next wave's first
// level reads row w + 1 again, so the block keeps the source as it is, and
// the loop copies the last interior after it.
// CHECK-LABEL: func.func @final_state_upwind(
// CHECK-NOT: arith.xori {{.*}} : i1
// CHECK: scf.parallel
// CHECK: scf.yield
// CHECK-NOT: arith.xori {{.*}} : i1
// CHECK: scf.if
// CHECK: memref.store
// CHECK: return
!u = !stencil.field<10x12xf32>
func.func @final_state_upwind(%A: memref<10x12xf32>, %B: memref<10x12xf32>, %n: index) {
  %a = stencil.load %A : memref<10x12xf32> -> !u
  %b = stencil.load %B : memref<10x12xf32> -> !u
  %g = stencil.grid [1, 1] to [9, 11] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !u, !u
      attributes {schedule = #stencil.schedule<wg = [4, 5], time_block = 3>} {
    %calc = stencil.apply on %g ins(%x = %ak : !u) outs(%bk : !u) {
      %n0 = stencil.access %x[-1, 0] : !u
      %c0 = stencil.access %x[0, 0] : !u
      %v = arith.addf %n0, %c0 : f32
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !u) outs(%ak : !u) {
      %v = stencil.access %y[0, 0] : !u
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !u, !u
  }
  stencil.store %r#0 to %A : !u to memref<10x12xf32>
  stencil.store %r#1 to %B : !u to memref<10x12xf32>
  return
}

// -----

// A residual reset every step (Himeno's gosa) matters in the last step
// only: the time blocks (T = 3, pipelined rows) compute it in their last
// level, so every step may run in a block and the steps after the whole
// blocks run as one shallower block when two or more remain. Each row's
// vectors accumulate lane by lane (the partial vectors' masked-off lanes
// hold the identity: -inf for the maximum), the row's lanes then go to the
// tile's slot, a cache line apart from the others (4 tiles of 8 rows); after
// the tiles the slots are combined in tile order and with the init. Only
// the block that runs the loop's last step (the last, with no single step
// after it) reduces: its last level's row is emitted twice, with the
// reductions and without. The blocks carry the loop's scalars, which the
// single step (one left over) takes on.
!f = !stencil.field<34x34xf32>
// CHECK-LABEL: func.func @reduce_in_blocks(
// CHECK-SAME: %[[N:[^:]*]]: index)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[LOWEST:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[NOSUM:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-DAG: %[[NOMAX:.*]] = arith.constant dense<0xFF800000> : vector<16xf32>
// CHECK: %[[S0:.*]] = memref.load
// CHECK: %[[M0:.*]] = memref.load
// CHECK: %[[STEPS:.*]] = arith.maxsi %[[N]], %{{.*}} : index
// CHECK: %[[BLOCKS:.*]] = arith.divsi %[[STEPS]], %c3 : index
// CHECK: %[[BLOCKED:.*]] = arith.muli %[[BLOCKS]], %c3 : index
// CHECK: %[[LEFT:.*]] = arith.subi %[[STEPS]], %[[BLOCKED]] : index
// CHECK: %[[DEEP:.*]] = arith.cmpi sge, %[[LEFT]], %c2 : index
// CHECK: %[[SINGLE:.*]] = arith.select %[[DEEP]], %c0, %[[LEFT]] : index
// CHECK: %[[NOSINGLE:.*]] = arith.cmpi eq, %[[SINGLE]], %c0 : index
// CHECK: %[[B:.*]]:4 = scf.for %[[K:[^ ]*]] = {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %[[S0]], %{{.*}} = %[[M0]]) -> (memref<34x34xf32>, memref<34x34xf32>, f32, f32) {
// CHECK: %[[ISLAST:.*]] = arith.cmpi eq, %[[K]], %{{.*}} : index
// CHECK: %[[MATTER:.*]] = arith.andi %[[ISLAST]], %[[NOSINGLE]] : i1
// CHECK: %[[SUMS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
// CHECK: %[[MAXES:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK: %[[ROWS:.*]] = arith.subi %[[T]], %c1 : index
// CHECK: %[[SLOT:.*]] = arith.divsi %[[ROWS]], %c8 : index
// CHECK: memref.store %[[ZERO]], %[[SUMS]][%[[SLOT]], %c0]
// CHECK: memref.store %[[LOWEST]], %[[MAXES]][%[[SLOT]], %c0]
// The last level's row: the first partial vector, the whole ones, the last.
// CHECK: scf.if %[[MATTER]] {
// CHECK: vector.maskedstore %arg{{.*}}, %[[FIRSTMASK:.*]], %{{.*}} : memref<34x34xf32>
// CHECK: %[[FIRSTSUM:.*]] = arith.select %[[FIRSTMASK]], %{{.*}}, %[[NOSUM]] : vector<16xi1>, vector<16xf32>
// CHECK: %[[FIRSTMAX:.*]] = arith.select %[[FIRSTMASK]], %{{.*}}, %[[NOMAX]] : vector<16xi1>, vector<16xf32>
// CHECK: %[[ROW:.*]]:4 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[RSUM:.*]] = %[[FIRSTSUM]], %[[RMAX:.*]] = %[[FIRSTMAX]]) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK: vector.store
// CHECK: %[[NSUM:.*]] = arith.addf %[[RSUM]], %{{.*}} fastmath<reassoc> : vector<16xf32>
// CHECK: %[[NMAX:.*]] = arith.maxnumf %[[RMAX]], %{{.*}} : vector<16xf32>
// CHECK: scf.yield %{{.*}}, %{{.*}}, %[[NSUM]], %[[NMAX]]
// CHECK: vector.maskedstore %arg{{.*}}, %[[LASTMASK:.*]], %{{.*}} : memref<34x34xf32>
// CHECK: %[[LASTSUM:.*]] = arith.select %[[LASTMASK]], %{{.*}}, %[[NOSUM]]
// CHECK: %[[LASTMAX:.*]] = arith.select %[[LASTMASK]], %{{.*}}, %[[NOMAX]]
// CHECK: %[[ROWSUM:.*]] = arith.addf %[[ROW]]#2, %[[LASTSUM]] fastmath<reassoc> : vector<16xf32>
// CHECK: %[[OLDSUM:.*]] = memref.load %[[SUMS]][%[[SLOT]], %c0]
// CHECK: %[[TILESUM:.*]] = vector.reduction <add>, %[[ROWSUM]], %[[OLDSUM]] fastmath<reassoc> : vector<16xf32> into f32
// CHECK: memref.store %[[TILESUM]], %[[SUMS]][%[[SLOT]], %c0]
// CHECK: %[[ROWMAX:.*]] = arith.maxnumf %[[ROW]]#3, %[[LASTMAX]] : vector<16xf32>
// CHECK: %[[OLDMAX:.*]] = memref.load %[[MAXES]][%[[SLOT]], %c0]
// CHECK: %[[TILEMAX:.*]] = vector.reduction <maxnumf>, %[[ROWMAX]], %[[OLDMAX]] fastmath<reassoc> : vector<16xf32> into f32
// CHECK: memref.store %[[TILEMAX]], %[[MAXES]][%[[SLOT]], %c0]
// The same row for the other blocks.
// CHECK-NEXT: }
// CHECK-NEXT: } else {
// CHECK-NOT: fastmath<reassoc>
// CHECK: scf.for {{.*}} -> (vector<16xf32>, vector<16xf32>) {
// CHECK-NOT: fastmath<reassoc>
// CHECK: scf.reduce
// The tiles in order, then the inits.
// CHECK: %[[ALL:.*]]:2 = scf.for %[[I:.*]] = %c0 to %c4 step %c1 iter_args(%[[AS:.*]] = %[[ZERO]], %[[AM:.*]] = %[[LOWEST]]) -> (f32, f32) {
// CHECK: %[[PS:.*]] = memref.load %[[SUMS]][%[[I]], %c0]
// CHECK: %[[NS:.*]] = arith.addf %[[AS]], %[[PS]] : f32
// CHECK: %[[PM:.*]] = memref.load %[[MAXES]][%[[I]], %c0]
// CHECK: %[[NM:.*]] = arith.maxnumf %[[AM]], %[[PM]] : f32
// CHECK: scf.yield %[[NS]], %[[NM]]
// CHECK: memref.dealloc %[[SUMS]]
// CHECK: memref.dealloc %[[MAXES]]
// CHECK: %[[SUM:.*]] = arith.addf %[[ALL]]#0, %[[ZERO]] : f32
// CHECK: %[[MAX:.*]] = arith.maxnumf %[[ALL]]#1, %[[LOWEST]] : f32
// CHECK: scf.yield %{{.*}}, %{{.*}}, %[[SUM]], %[[MAX]] : memref<34x34xf32>, memref<34x34xf32>, f32, f32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[SINGLE]] step %{{.*}} iter_args(%{{.*}} = %[[B]]#0, %{{.*}} = %[[B]]#1, %{{.*}} = %[[B]]#2, %{{.*}} = %[[B]]#3) -> (memref<34x34xf32>, memref<34x34xf32>, f32, f32) {
func.func @reduce_in_blocks(%A: memref<34x34xf32>, %B: memref<34x34xf32>, %S: memref<f32>, %M: memref<f32>, %n: index) {
  %a = stencil.load %A : memref<34x34xf32> -> !f
  %b = stencil.load %B : memref<34x34xf32> -> !f
  %s0 = memref.load %S[] : memref<f32>
  %m0 = memref.load %M[] : memref<f32>
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant 0xFF800000 : f32
  %g = stencil.grid [1, 1] to [33, 33] : !stencil.grid<2>
  %r:4 = stencil.iterate %n iter_args(%u = %a, %v = %b, %s = %s0, %m = %m0) : !f, !f, f32, f32
      attributes {schedule = #stencil.schedule<wg = [8, 32], tile = [8, 32], time_block = 3>} {
    %new, %sum, %max = stencil.apply on %g ins(%x = %u : !f) outs(%v : !f) reduce(add %zero : f32, max %lowest : f32) {
      %w = stencil.access %x[0, -1] : !f
      %e = stencil.access %x[0, 1] : !f
      %c = arith.addf %w, %e : f32
      %d = arith.subf %c, %w : f32
      stencil.return %c, %d, %c : f32, f32, f32
    }
    %copy = stencil.apply on %g ins(%y = %new : !f) outs(%u : !f) {
      %c = stencil.access %y[0, 0] : !f
      stencil.return %c : f32
    }
    stencil.yield %copy, %new, %sum, %max : !f, !f, f32, f32
  }
  memref.store %r#2, %S[] : memref<f32>
  memref.store %r#3, %M[] : memref<f32>
  stencil.store %r#0 to %A : !f to memref<34x34xf32>
  stencil.store %r#1 to %B : !f to memref<34x34xf32>
  return
}

// -----

// Scalar rows (a body op that is not element-wise) add each point's
// contribution to the tile's slot. Tiles of 4 x 16 on the 8 x 38 grid: 2 x 3
// of them, slot (i - 1) / 4 x 3 + (j - 1) / 16.
!f = !stencil.field<10x40xf32>
// CHECK-LABEL: func.func @reduce_scalar_rows(
// CHECK: %[[SUMS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6x16xf32>
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK: %[[IOFF:.*]] = arith.subi %[[I]], %c1 : index
// CHECK: %[[IPOS:.*]] = arith.divsi %[[IOFF]], %c4 : index
// CHECK: %[[JOFF:.*]] = arith.subi %[[J]], %c1 : index
// CHECK: %[[JPOS:.*]] = arith.divsi %[[JOFF]], %c16 : index
// CHECK: %[[ROWSTART:.*]] = arith.muli %[[IPOS]], %c3 : index
// CHECK: %[[TILESLOT:.*]] = arith.addi %[[ROWSTART]], %[[JPOS]] : index
// CHECK: memref.store %{{.*}}, %[[SUMS]][%[[TILESLOT]], %c0]
// CHECK-NOT: vector.
// CHECK: %[[OLD:.*]] = memref.load %[[SUMS]][%[[TILESLOT]], %c0]
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} fastmath<reassoc> : f32
// CHECK-NEXT: memref.store %[[NEW]], %[[SUMS]][%[[TILESLOT]], %c0]
// CHECK: scf.reduce
func.func @reduce_scalar_rows(%A: memref<10x40xf32>, %B: memref<10x40xf32>, %S: memref<f32>, %n: index) {
  %a = stencil.load %A : memref<10x40xf32> -> !f
  %b = stencil.load %B : memref<10x40xf32> -> !f
  %s0 = memref.load %S[] : memref<f32>
  %zero = arith.constant 0.0 : f32
  %g = stencil.grid [1, 1] to [9, 39] : !stencil.grid<2>
  %r:3 = stencil.iterate %n iter_args(%u = %a, %v = %b, %s = %s0) : !f, !f, f32
      attributes {schedule = #stencil.schedule<wg = [4, 16], time_block = 3>} {
    %new, %sum = stencil.apply on %g ins(%x = %u : !f) outs(%v : !f) reduce(add %zero : f32) {
      %w = stencil.access %x[-1, 1] : !f
      %d = scf.execute_region -> f32 {
        %t = arith.addf %w, %w : f32
        scf.yield %t : f32
      }
      stencil.return %d, %w : f32, f32
    }
    %copy = stencil.apply on %g ins(%y = %new : !f) outs(%u : !f) {
      %c = stencil.access %y[0, 0] : !f
      stencil.return %c : f32
    }
    stencil.yield %copy, %new, %sum : !f, !f, f32
  }
  memref.store %r#2, %S[] : memref<f32>
  stencil.store %r#0 to %A : !f to memref<10x40xf32>
  stencil.store %r#1 to %B : !f to memref<10x40xf32>
  return
}

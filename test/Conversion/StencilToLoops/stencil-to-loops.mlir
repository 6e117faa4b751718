// RUN: stencil-opt %s --convert-stencil-to-loops --split-input-file -verify-diagnostics | FileCheck %s
// RUN: stencil-opt %s --convert-stencil-to-loops=default-tile=4,0 --split-input-file | FileCheck %s --check-prefix=TILE

!f = !stencil.field<66x34xf32>

// The copy form of the time loop (calc into B, copy B back into A) runs as
// a pointer swap: half the memory traffic per step. The swapped loop reads
// B's boundary ring as a source, so B's ring must be A's. When the rings
// differ in any bit, B's ring is saved first, one compact buffer per ring
// slab (rows 0 and 65, then columns 0 and 33 of rows 1..64), and replaced
// by A's; afterwards the last interior goes to whichever array lacks it (to
// B only if a step ran) and B gets its own ring back.
// CHECK-LABEL: func.func @copy_form(
// CHECK-SAME: %[[A:[^:]*]]: memref<66x34xf32>, %[[B:[^:]*]]: memref<66x34xf32>, %[[C:[^:]*]]: f32, %[[N:[^:]*]]: index)
// CHECK: %[[S0:.*]] = memref.alloc() : memref<1x34xf32>
// CHECK: %[[S1:.*]] = memref.alloc() : memref<1x34xf32>
// CHECK: %[[S2:.*]] = memref.alloc() : memref<64x1xf32>
// CHECK: %[[S3:.*]] = memref.alloc() : memref<64x1xf32>
// The comparison, bit for bit (-0.0 and NaNs included): each row or-s
// the bits in which its cells differ, and sets the flag once.
// CHECK: %[[FLAG:.*]] = memref.alloca() : memref<i8>
// CHECK: %[[ROW:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32) {
// CHECK: %[[CA:.*]] = memref.load %[[A]]
// CHECK: %[[BA:.*]] = arith.bitcast %[[CA]] : f32 to i32
// CHECK: %[[CB:.*]] = memref.load %[[B]]
// CHECK: %[[BB:.*]] = arith.bitcast %[[CB]] : f32 to i32
// CHECK: %[[X:.*]] = arith.xori %[[BA]], %[[BB]] : i32
// CHECK: %[[OR:.*]] = arith.ori %[[ACC]], %[[X]] : i32
// CHECK: scf.yield %[[OR]] : i32
// CHECK: %[[NE:.*]] = arith.cmpi ne, %[[ROW]], %{{.*}} : i32
// CHECK: scf.if %[[NE]] {
// CHECK: memref.atomic_rmw assign %{{.*}}, %[[FLAG]][]
// CHECK: %[[SET:.*]] = memref.load %[[FLAG]][]
// CHECK: %[[DIFFER:.*]] = arith.cmpi ne, %[[SET]]
// CHECK: scf.if %[[DIFFER]] {
// CHECK: %[[V0:.*]] = memref.load %[[B]]
// CHECK: memref.store %[[V0]], %[[S0]]
// CHECK: scf.for %[[R1:.*]] = %[[C65:.*]] to
// CHECK: memref.load %[[B]][%[[R1]],
// CHECK: %[[R1S:.*]] = arith.subi %[[R1]], %[[C65]]
// CHECK: memref.store %{{.*}}, %[[S1]][%[[R1S]],
// CHECK: memref.store %{{.*}}, %[[S2]]
// CHECK: scf.for %{{.*}} = %[[C33:.*]] to
// CHECK: %[[K3:.*]] = memref.load %[[B]]
// CHECK: arith.subi %{{.*}}, %[[C33]]
// CHECK: memref.store %[[K3]], %[[S3]]
// CHECK: %[[V1:.*]] = memref.load %[[A]]
// CHECK-NEXT: memref.store %[[V1]], %[[B]]
// CHECK: %[[STEPS:.*]] = arith.maxsi %[[N]], %{{.*}} : index
// CHECK: %[[R:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %[[STEPS]] step %{{.*}} iter_args(%[[X:.*]] = %[[A]], %[[Y:.*]] = %[[B]])
// The default tile for 2-D grids: 8 rows, whole rows.
// CHECK: scf.parallel (%[[T0:.*]], %[[T1:.*]]) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%{{.*}}, %{{.*}})
// CHECK: scf.for %[[I:.*]] = %[[T0]] to %{{.*}} step
// Each row first prefetches the rows 8192 bytes ahead (prefetch.mlir).
// CHECK: memref.prefetch %[[X]]
// CHECK: memref.prefetch %[[Y]]
// CHECK: scf.for %[[J:.*]] = %[[T1]] to %{{.*}} step
// CHECK: %[[JM:.*]] = arith.addi %[[J]], %{{.*}} : index
// CHECK: %[[W:.*]] = memref.load %[[X]][%[[I]], %[[JM]]]
// CHECK: %[[V:.*]] = arith.mulf %[[W]], %[[C]] : f32
// CHECK: memref.store %[[V]], %[[Y]][%[[I]], %[[J]]]
// CHECK: scf.yield %[[Y]], %[[X]]
// CHECK: %[[RAN:.*]] = arith.cmpi sgt, %[[STEPS]]
// CHECK: %[[PR:.*]] = memref.extract_aligned_pointer_as_index %[[R]]#0
// CHECK: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[NA:.*]] = arith.cmpi ne, %[[PR]], %[[PA]]
// CHECK: scf.if %[[NA]] {
// CHECK: memref.load %[[R]]#0
// CHECK: %[[NB:.*]] = arith.cmpi ne
// CHECK: %[[NBRAN:.*]] = arith.andi %[[NB]], %[[RAN]]
// CHECK: scf.if %[[NBRAN]] {
// CHECK: scf.if %[[DIFFER]] {
// CHECK: %[[V2:.*]] = memref.load %[[S0]]
// CHECK-NEXT: memref.store %[[V2]], %[[B]]
// CHECK: memref.load %[[S1]]
// CHECK: memref.load %[[S2]]
// CHECK: memref.load %[[S3]]
// CHECK: memref.dealloc %[[S0]]
// CHECK: memref.dealloc %[[S1]]
// CHECK: memref.dealloc %[[S2]]
// CHECK: memref.dealloc %[[S3]]
// CHECK-NOT: memref.copy
// CHECK-NOT: stencil.
// CHECK: return
// TILE-LABEL: func.func @copy_form(
// TILE: %[[C4:.*]] = arith.constant 4 : index
// TILE: scf.parallel {{.*}} step (%[[C4]], %{{.*}})
func.func @copy_form(%A: memref<66x34xf32>, %B: memref<66x34xf32>, %c: f32, %n: index) {
  %a = stencil.load %A : memref<66x34xf32> -> !f
  %b = stencil.load %B : memref<66x34xf32> -> !f
  %g = stencil.grid [1, 1] to [65, 33] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !f, !f {
    %calc = stencil.apply on %g ins(%x = %ak : !f, %w = %c : f32) outs(%bk : !f) {
      %l = stencil.access %x[0, -1] : !f
      %v = arith.mulf %l, %w : f32
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !f) outs(%ak : !f) {
      %v = stencil.access %y[0, 0] : !f
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !f, !f
  }
  stencil.store %r#0 to %A : !f to memref<66x34xf32>
  stencil.store %r#1 to %B : !f to memref<66x34xf32>
  return
}

// -----

!g = !stencil.field<18xf64>

// The swap form rotates the buffers; after the loop either memref may hold
// either result, so the stores go through temporaries. A schedule's tile
// sets the parallel step.
// CHECK-LABEL: func.func @swap_form(
// CHECK-SAME: %[[A:[^:]*]]: memref<18xf64>, %[[B:[^:]*]]: memref<18xf64>
// CHECK: %[[R:.*]]:2 = scf.for {{.*}} iter_args(%[[SRC:.*]] = %[[A]], %[[DST:.*]] = %[[B]])
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%[[C4]])
// CHECK: memref.store %{{.*}}, %[[DST]]
// CHECK: scf.yield %[[DST]], %[[SRC]]
// CHECK: %[[T0:.*]] = memref.alloc() : memref<18xf64>
// CHECK: memref.copy %[[R]]#0, %[[T0]]
// CHECK: %[[T1:.*]] = memref.alloc() : memref<18xf64>
// CHECK: memref.copy %[[R]]#1, %[[T1]]
// CHECK: memref.copy %[[T0]], %[[A]]
// CHECK: memref.dealloc %[[T0]]
// CHECK: memref.copy %[[T1]], %[[B]]
// CHECK: memref.dealloc %[[T1]]
func.func @swap_form(%A: memref<18xf64>, %B: memref<18xf64>, %n: index) {
  %a = stencil.load %A : memref<18xf64> -> !g
  %b = stencil.load %B : memref<18xf64> -> !g
  %g = stencil.grid [1] to [17] : !stencil.grid<1>
  %r:2 = stencil.iterate %n iter_args(%src = %a, %dst = %b) : !g, !g {
    %new = stencil.apply on %g ins(%x = %src : !g) outs(%dst : !g)
        attributes {schedule = #stencil.schedule<wg = [4]>} {
      %l = stencil.access %x[-1] : !g
      %h = stencil.access %x[1] : !g
      %v = arith.addf %l, %h : f64
      stencil.return %v : f64
    }
    stencil.yield %new, %src : !g, !g
  }
  stencil.store %r#0 to %A : !g to memref<18xf64>
  stencil.store %r#1 to %B : !g to memref<18xf64>
  return
}

// -----

// One store of a field whose buffer is only known at run time copies only
// when the pointers differ. An exchange is the identity on one rank, and a
// second load of one memref gets its own copy.
// CHECK-LABEL: func.func @guarded_store(
// CHECK-SAME: %[[A:[^:]*]]: memref<10xf32>, %[[B:[^:]*]]: memref<10xf32>
// CHECK: %[[COPY:.*]] = memref.alloc() : memref<10xf32>
// CHECK: memref.copy %[[A]], %[[COPY]]
// CHECK: %[[R:.*]]:2 = scf.for
// CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[R]]#0
// CHECK: %[[Q:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[NE:.*]] = arith.cmpi ne, %[[P]], %[[Q]]
// CHECK: scf.if %[[NE]] {
// CHECK-NEXT: memref.copy %[[R]]#0, %[[A]]
// CHECK: memref.dealloc %[[COPY]]
// CHECK-NEXT: return
func.func @guarded_store(%A: memref<10xf32>, %B: memref<10xf32>, %n: index) {
  %a = stencil.load %A : memref<10xf32> -> !stencil.field<10xf32, #stencil.decomp<block>>
  %a2 = stencil.load %A : memref<10xf32> -> !stencil.field<10xf32, #stencil.decomp<block>>
  %g = stencil.grid [1] to [9] : !stencil.grid<1>
  %r:2 = stencil.iterate %n iter_args(%src = %a, %dst = %a2) : !stencil.field<10xf32, #stencil.decomp<block>>, !stencil.field<10xf32, #stencil.decomp<block>> {
    %e = stencil.exchange %src widths [1] : !stencil.field<10xf32, #stencil.decomp<block>>
    %new = stencil.apply on %g ins(%x = %e : !stencil.field<10xf32, #stencil.decomp<block>>) outs(%dst : !stencil.field<10xf32, #stencil.decomp<block>>) {
      %l = stencil.access %x[-1] : !stencil.field<10xf32, #stencil.decomp<block>>
      stencil.return %l : f32
    }
    stencil.yield %new, %src : !stencil.field<10xf32, #stencil.decomp<block>>, !stencil.field<10xf32, #stencil.decomp<block>>
  }
  stencil.store %r#0 to %A : !stencil.field<10xf32, #stencil.decomp<block>> to memref<10xf32>
  return
}

// -----

!h = !stencil.field<66xf32>

// time_block = 2 on the copy form of a 1-D grid: blocks of at most two
// steps as overlapped tiles; a remainder of two or more steps would run in
// one more block, the steps spread evenly over the blocks, the first ones a
// step deeper (depths taken at run time); one step runs alone.
// Each tile's private buffers hold its 4 points plus 2 steps x radius 1 on
// the low side: 6. (Grids of two or more axes use pipelined rows:
// pipelined-time-block.mlir.)
// CHECK-LABEL: func.func @time_block(
// CHECK-SAME: %[[A:[^:]*]]: memref<66xf32>, %[[B:[^:]*]]: memref<66xf32>, %[[N:[^:]*]]: index)
// CHECK: %[[STEPS:.*]] = arith.maxsi %[[N]]
// CHECK: %[[BLOCKS:.*]] = arith.divsi %[[STEPS]], %[[TWO:.*]] : index
// CHECK: %[[WHOLE:.*]] = arith.muli %[[BLOCKS]], %[[TWO]] : index
// CHECK: %[[REST:.*]] = arith.subi %[[STEPS]], %[[WHOLE]] : index
// CHECK: %[[DEEP:.*]] = arith.cmpi sge, %[[REST]], %{{.*}} : index
// CHECK: %[[INBLOCKS:.*]] = arith.select %[[DEEP]], %[[STEPS]], %[[WHOLE]] : index
// CHECK: %[[EXTRA:.*]] = arith.index_castui %[[DEEP]] : i1 to index
// CHECK: %[[COUNT:.*]] = arith.addi %[[BLOCKS]], %[[EXTRA]] : index
// CHECK: %[[SINGLE:.*]] = arith.select %[[DEEP]], %{{.*}}, %[[REST]] : index
// CHECK: %[[LAST:.*]] = arith.subi %[[COUNT]], %{{.*}} : index
// CHECK: %[[ROUNDED:.*]] = arith.addi %[[INBLOCKS]], %[[LAST]] : index
// CHECK: %[[RB:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %[[COUNT]] {{.*}} iter_args(%[[X:.*]] = %[[A]], %[[Y:.*]] = %[[B]])
// Block I of COUNT: (ROUNDED - I) / COUNT steps deep.
// CHECK: %[[SHARE:.*]] = arith.subi %[[ROUNDED]], %[[I]] : index
// CHECK: %[[DEPTH:.*]] = arith.divui %[[SHARE]], %[[COUNT]] : index
// Both in one line-aligned allocation, half a page apart, so that a
// level's loads from one never match the addresses of its pending stores
// to the other modulo 4 KiB.
// CHECK: scf.parallel
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4096xi8>
// CHECK: %[[AT0:.*]] = arith.constant 0 : index
// CHECK: %[[P0:.*]] = memref.view %[[ARENA]][%[[AT0]]][] : memref<4096xi8> to memref<6xf32>
// CHECK: %[[AT1:.*]] = arith.constant 2048 : index
// CHECK: %[[P1:.*]] = memref.view %[[ARENA]][%[[AT1]]][] : memref<4096xi8> to memref<6xf32>
// CHECK: memref.load %[[X]]
// The block's steps, a loop (IR does not grow with T) that reads the
// private buffer holding the latest step (the last), writes the other and
// swaps them: the last DEPTH of the T steps, whose regions shrink to the
// tile's own points.
// CHECK: %[[T:.*]] = arith.constant 2 : index
// CHECK: %[[FIRST:.*]] = arith.subi %[[T]], %[[DEPTH]] : index
// CHECK: %[[FINAL:.*]]:2 = scf.for %[[S:.*]] = %[[FIRST]] to %[[T]] step %{{.*}} iter_args(%[[OLD:.*]] = %[[P0]], %[[LATEST:.*]] = %[[P1]])
// Each level loads one new point per iteration (offset +r_high, here 0)
// and carries the others (offset -1) from the iteration before: LLVM
// cannot tell that the two swapped buffers do not overlap, and without the
// carry it loads every offset again.
// CHECK: %[[WEST:.*]] = memref.load %[[LATEST]]
// CHECK: scf.for %{{.*}} iter_args(%[[CARRIED:.*]] = %[[WEST]]) -> (f32)
// CHECK: %[[FRESH:.*]] = memref.load %[[LATEST]]
// CHECK-NOT: memref.load
// CHECK: %[[SUM:.*]] = arith.addf %[[CARRIED]], %[[FRESH]] : f32
// CHECK: memref.store %[[SUM]], %[[OLD]]
// CHECK: scf.yield %[[FRESH]] : f32
// CHECK: scf.yield %[[LATEST]], %[[OLD]]
// The tile's own points go to the destination.
// CHECK: %[[V:.*]] = memref.load %[[FINAL]]#1
// CHECK: memref.store %[[V]], %[[Y]]
// CHECK: memref.dealloc %[[ARENA]]
// CHECK: scf.yield %[[Y]], %[[X]]
// CHECK: scf.for %{{.*}} to %[[SINGLE]] {{.*}} iter_args(%{{.*}} = %[[RB]]#0, %{{.*}} = %[[RB]]#1)
func.func @time_block(%A: memref<66xf32>, %B: memref<66xf32>, %n: index) {
  %a = stencil.load %A : memref<66xf32> -> !h
  %b = stencil.load %B : memref<66xf32> -> !h
  %g = stencil.grid [1] to [65] : !stencil.grid<1>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !h, !h
      attributes {schedule = #stencil.schedule<wg = [4], time_block = 2>} {
    %calc = stencil.apply on %g ins(%x = %ak : !h) outs(%bk : !h) {
      %l = stencil.access %x[-1] : !h
      %c = stencil.access %x[0] : !h
      %v = arith.addf %l, %c : f32
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !h) outs(%ak : !h) {
      %v = stencil.access %y[0] : !h
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !h, !h
  }
  stencil.store %r#0 to %A : !h to memref<66xf32>
  stencil.store %r#1 to %B : !h to memref<66xf32>
  return
}

// -----

// Private buffers of more than a page: 2048 + 2 points of 4 bytes, 8200
// bytes, each starting half a page past a page from the one before: 10240
// bytes apart.
!w = !stencil.field<4098xf32>
// CHECK-LABEL: func.func @wide_time_block(
// CHECK: scf.parallel
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<20480xi8>
// CHECK: memref.view %[[ARENA]][%{{.*}}][] : memref<20480xi8> to memref<2050xf32>
// CHECK: %[[AT1:.*]] = arith.constant 10240 : index
// CHECK: memref.view %[[ARENA]][%[[AT1]]][] : memref<20480xi8> to memref<2050xf32>
func.func @wide_time_block(%A: memref<4098xf32>, %B: memref<4098xf32>, %n: index) {
  %a = stencil.load %A : memref<4098xf32> -> !w
  %b = stencil.load %B : memref<4098xf32> -> !w
  %g = stencil.grid [1] to [4097] : !stencil.grid<1>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !w, !w
      attributes {schedule = #stencil.schedule<wg = [2048], time_block = 2>} {
    %calc = stencil.apply on %g ins(%x = %ak : !w) outs(%bk : !w) {
      %l = stencil.access %x[-1] : !w
      %c = stencil.access %x[0] : !w
      %v = arith.addf %l, %c : f32
      stencil.return %v : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !w) outs(%ak : !w) {
      %v = stencil.access %y[0] : !w
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !w, !w
  }
  stencil.store %r#0 to %A : !w to memref<4098xf32>
  stencil.store %r#1 to %B : !w to memref<4098xf32>
  return
}

// -----

// time_block = 3 on a sweep chain (B from A and a read-only C, then A from
// B) on a 1-D grid: each block runs 3 steps of 2 levels in overlapped
// tiles. A spare buffer with A's ring takes the last level, then swaps
// with A; B keeps its own ring, which the tiles' buffer of the first stage
// starts from. Radius 2 below (the first sweep) and 1 above (the second):
// a tile of 8 points holds 8 + 6 levels x 3 = 26.
// CHECK-LABEL: func.func @chain_time_block(
// CHECK-SAME: %[[A:[^:]*]]: memref<34xf32>, %[[B:[^:]*]]: memref<34xf32>, %[[C:[^:]*]]: memref<34xf32>, %[[N:[^:]*]]: index, %[[W:[^:]*]]: f32)
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[SPARE:.*]] = memref.alloc() : memref<34xf32>
// CHECK: scf.for %[[R0:.*]] = %{{.*}} to %{{.*}} {
// CHECK: %[[V0:.*]] = memref.load %[[A]][%[[R0]]]
// CHECK: memref.store %[[V0]], %[[SPARE]][%[[R0]]]
// CHECK: scf.for %[[R1:.*]] = %{{.*}} to %{{.*}} {
// CHECK: %[[V1:.*]] = memref.load %[[A]][%[[R1]]]
// CHECK: memref.store %[[V1]], %[[SPARE]][%[[R1]]]
// The last step runs alone: blocks cover steps - 1, a remainder of two or
// more in one more block.
// CHECK: %[[STEPS:.*]] = arith.maxsi %[[N]]
// CHECK: %[[BEFORE:.*]] = arith.subi %[[STEPS]], %{{.*}} : index
// CHECK: %[[BLOCKED:.*]] = arith.maxsi %[[BEFORE]], %{{.*}} : index
// CHECK: %[[FULL:.*]] = arith.divsi %[[BLOCKED]], %[[T:.*]] : index
// CHECK: %[[DEEP:.*]] = arith.cmpi sge
// CHECK: arith.select %[[DEEP]], %[[BLOCKED]], %{{.*}} : index
// CHECK: %[[SINGLE:.*]] = arith.select %[[DEEP]]
// CHECK: %[[RB:.*]]:2 = scf.for %{{.*}} iter_args(%[[X:.*]] = %[[A]], %[[Z:.*]] = %[[SPARE]])
// The carried pair's two buffers (one per stage) half a page apart.
// CHECK: scf.parallel
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4096xi8>
// CHECK: %[[P0:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<4096xi8> to memref<26xf32>
// CHECK: %[[AT1:.*]] = arith.constant 2048 : index
// CHECK: %[[P1:.*]] = memref.view %[[ARENA]][%[[AT1]]][] : memref<4096xi8> to memref<26xf32>
// CHECK-NOT: memref.view
// CHECK: memref.load %[[B]]
// CHECK: memref.store %{{.*}}, %[[P0]]
// CHECK: memref.load %[[X]]
// CHECK: memref.store %{{.*}}, %[[P1]]
// CHECK: scf.for %{{.*}} iter_args(%[[Q0:.*]] = %[[P0]], %[[Q1:.*]] = %[[P1]])
// Level 2s: the first sweep, from the second's buffer into its own. The
// window of offsets -2 .. 0 starts loaded and moves along by one each
// iteration; +1 (the block's r_high) is the one new load. The sweep reads
// only -2.
// CHECK: %[[M2:.*]] = memref.load %[[Q1]]
// CHECK: %[[M1:.*]] = memref.load %[[Q1]]
// CHECK: %[[M0:.*]] = memref.load %[[Q1]]
// CHECK: scf.for %{{.*}} iter_args(%[[C2:.*]] = %[[M2]], %[[C1:.*]] = %[[M1]], %[[C0:.*]] = %[[M0]]) -> (f32, f32, f32)
// CHECK: %[[P1NEW:.*]] = memref.load %[[Q1]]
// CHECK-NOT: memref.load %[[Q1]]
// CHECK: %[[K:.*]] = memref.load %[[C]]
// CHECK: %[[PROD:.*]] = arith.mulf %[[C2]], %[[K]]
// CHECK: arith.addf %[[PROD]], %[[ONE]]
// CHECK: memref.store %{{.*}}, %[[Q0]]
// CHECK: scf.yield %[[C1]], %[[C0]], %[[P1NEW]] : f32, f32, f32
// Level 2s + 1: the second sweep, back.
// CHECK: memref.load %[[Q0]]
// CHECK: arith.mulf %{{.*}}, %[[W]]
// CHECK: memref.store %{{.*}}, %[[Q1]]
// CHECK: scf.yield %[[Q0]], %[[Q1]]
// CHECK: memref.store %{{.*}}, %[[Z]]
// CHECK: scf.yield %[[Z]], %[[X]]
// The rotating loop takes the latest A; then A's own buffer gets it.
// CHECK: %[[LOOP:.*]]:2 = scf.for %{{.*}} to %[[SINGLE]] {{.*}} iter_args(%{{.*}} = %[[RB]]#0, %{{.*}} = %[[B]])
// CHECK: %[[LATEST:.*]] = memref.extract_aligned_pointer_as_index %[[LOOP]]#0
// CHECK: %[[OWN:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[MOVED:.*]] = arith.cmpi ne, %[[LATEST]], %[[OWN]]
// CHECK: scf.if %[[MOVED]] {
// CHECK: memref.load %[[LOOP]]#0
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: memref.dealloc %[[SPARE]]
!h = !stencil.field<34xf32>
func.func @chain_time_block(%A: memref<34xf32>, %B: memref<34xf32>, %C: memref<34xf32>, %n: index, %w: f32) {
  %a = stencil.load %A : memref<34xf32> -> !h
  %b = stencil.load %B : memref<34xf32> -> !h
  %c = stencil.load %C : memref<34xf32> -> !h
  %g = stencil.grid [2] to [33] : !stencil.grid<1>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !h, !h
      attributes {schedule = #stencil.schedule<wg = [8], time_block = 3>} {
    %one = arith.constant 1.0 : f32
    %ab = stencil.apply on %g ins(%x = %ak : !h, %k = %c : !h, %s = %one : f32) outs(%bk : !h) {
      %l = stencil.access %x[-2] : !h
      %m = stencil.access %k[0] : !h
      %v = arith.mulf %l, %m : f32
      %u = arith.addf %v, %s : f32
      stencil.return %u : f32
    }
    %ba = stencil.apply on %g ins(%y = %ab : !h, %s = %w : f32) outs(%ak : !h) {
      %l = stencil.access %y[1] : !h
      %v = arith.mulf %l, %s : f32
      stencil.return %v : f32
    }
    stencil.yield %ba, %ab : !h, !h
  }
  stencil.store %r#0 to %A : !h to memref<34xf32>
  stencil.store %r#1 to %B : !h to memref<34xf32>
  return
}

// -----

// Steps of several sweeps that are not a chain run one step per sweep,
// and the warning says what breaks the chain.
func.func @not_a_chain(%A: memref<18xf64>, %B: memref<18xf64>, %n: index) {
  %a = stencil.load %A : memref<18xf64> -> !stencil.field<18xf64>
  %b = stencil.load %B : memref<18xf64> -> !stencil.field<18xf64>
  %g = stencil.grid [1] to [17] : !stencil.grid<1>
  // expected-warning @+1 {{time_block 2 is implemented for the calc/copy form of the time loop and for sweep chains only, and sweep 2 reads a field as the step before left it, which only the first sweep may, and only the last sweep's; running one step per sweep}}
  %r:2 = stencil.iterate %n iter_args(%x = %a, %y = %b) : !stencil.field<18xf64>, !stencil.field<18xf64>
      attributes {schedule = #stencil.schedule<wg = [4], time_block = 2>} {
    %new = stencil.apply on %g ins(%u = %x : !stencil.field<18xf64>) outs(%y : !stencil.field<18xf64>) {
      %l = stencil.access %u[-1] : !stencil.field<18xf64>
      stencil.return %l : f64
    }
    %back = stencil.apply on %g ins(%u = %new : !stencil.field<18xf64>, %v = %x : !stencil.field<18xf64>) outs(%x : !stencil.field<18xf64>) {
      %l = stencil.access %u[1] : !stencil.field<18xf64>
      %c = stencil.access %v[0] : !stencil.field<18xf64>
      %s = arith.addf %l, %c : f64
      stencil.return %s : f64
    }
    stencil.yield %back, %new : !stencil.field<18xf64>, !stencil.field<18xf64>
  }
  return
}

// -----

// The first sweep writes two fields, the last one: not a chain (each level
// of a block holds the same fields), so one step per sweep, with a warning.
!d = !stencil.field<18xf64>
func.func @chain_field_counts(%A: memref<18xf64>, %B: memref<18xf64>, %E: memref<18xf64>, %n: index) {
  %a = stencil.load %A : memref<18xf64> -> !d
  %b = stencil.load %B : memref<18xf64> -> !d
  %e = stencil.load %E : memref<18xf64> -> !d
  %g = stencil.grid [1] to [17] : !stencil.grid<1>
  // expected-warning @+1 {{time_block 2 is implemented for the calc/copy form of the time loop and for sweep chains only, and the sweeps write different numbers of fields; running one step per sweep}}
  %r:3 = stencil.iterate %n iter_args(%x = %a, %y = %b, %z = %e) : !d, !d, !d
      attributes {schedule = #stencil.schedule<wg = [4], time_block = 2>} {
    %first:2 = stencil.apply on %g ins(%u = %x : !d) outs(%y : !d, %z : !d) {
      %l = stencil.access %u[-1] : !d
      %c = stencil.access %u[0] : !d
      stencil.return %l, %c : f64, f64
    }
    %back = stencil.apply on %g ins(%u = %first#0 : !d, %v = %first#1 : !d) outs(%x : !d) {
      %l = stencil.access %u[1] : !d
      %c = stencil.access %v[-1] : !d
      %s = arith.addf %l, %c : f64
      stencil.return %s : f64
    }
    stencil.yield %back, %first#0, %first#1 : !d, !d, !d
  }
  return
}

// -----

// A time block on a loop of another form (one apply whose output the
// next step reads, not a chain of two or more) is not honoured, and says so.
func.func @time_block_swap_form(%A: memref<18xf64>, %B: memref<18xf64>, %n: index) {
  %a = stencil.load %A : memref<18xf64> -> !stencil.field<18xf64>
  %b = stencil.load %B : memref<18xf64> -> !stencil.field<18xf64>
  %g = stencil.grid [1] to [17] : !stencil.grid<1>
  // expected-warning @+1 {{time_block 2 is implemented for the calc/copy form of the time loop and for sweep chains only; running one step per sweep}}
  %r:2 = stencil.iterate %n iter_args(%src = %a, %dst = %b) : !stencil.field<18xf64>, !stencil.field<18xf64>
      attributes {schedule = #stencil.schedule<wg = [4], time_block = 2>} {
    %new = stencil.apply on %g ins(%x = %src : !stencil.field<18xf64>) outs(%dst : !stencil.field<18xf64>) {
      %l = stencil.access %x[-1] : !stencil.field<18xf64>
      stencil.return %l : f64
    }
    stencil.yield %new, %src : !stencil.field<18xf64>, !stencil.field<18xf64>
  }
  return
}

// -----

// Time blocks over a grid known at run time only: the tiles of a block
// sweep [1, %m), each step's region clamped to it.
// CHECK-LABEL: func.func @time_block_dynamic_grid(
// CHECK-SAME: %[[M:[^:]*]]: index, %[[N:[^:]*]]: index)
// CHECK: scf.for {{.*}} -> (memref<18xf32>, memref<18xf32>) {
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[M]]) step (%{{.*}}) {
// CHECK: arith.minsi %{{.*}}, %[[M]] : index
func.func @time_block_dynamic_grid(%A: memref<18xf32>, %B: memref<18xf32>, %m: index, %n: index) {
  %a = stencil.load %A : memref<18xf32> -> !stencil.field<18xf32>
  %b = stencil.load %B : memref<18xf32> -> !stencil.field<18xf32>
  %g = stencil.grid [1] to [%m] : !stencil.grid<1>
  %r:2 = stencil.iterate %n iter_args(%x = %a, %y = %b) : !stencil.field<18xf32>, !stencil.field<18xf32>
      attributes {schedule = #stencil.schedule<wg = [4], time_block = 2>} {
    %new = stencil.apply on %g ins(%p = %x : !stencil.field<18xf32>) outs(%y : !stencil.field<18xf32>) {
      %l = stencil.access %p[-1] : !stencil.field<18xf32>
      stencil.return %l : f32
    }
    %copy = stencil.apply on %g ins(%q = %new : !stencil.field<18xf32>) outs(%x : !stencil.field<18xf32>) {
      %v = stencil.access %q[0] : !stencil.field<18xf32>
      stencil.return %v : f32
    }
    stencil.yield %copy, %new : !stencil.field<18xf32>, !stencil.field<18xf32>
  }
  return
}

// -----

!f = !stencil.field<300x200xf32>

// Large copies (here the final copy that leaves the result in both arrays)
// run in parallel over the outer axes with a serial loop along the
// innermost one, which LLVM vectorizes; a parallel nest over every axis
// would be collapsed by convert-scf-to-openmp into one loop of single
// points.
// CHECK-LABEL: func.func @large_copy(
// CHECK-SAME: %[[A:[^:]*]]: memref<300x200xf32>, %[[B:[^:]*]]: memref<300x200xf32>
// CHECK: %[[R:.*]]:2 = scf.for
// CHECK: scf.if
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: %[[V:.*]] = memref.load %[[R]]#0[%[[I]], %[[J]]]
// CHECK-NEXT: memref.store %[[V]], %[[A]][%[[I]], %[[J]]]
func.func @large_copy(%A: memref<300x200xf32>, %B: memref<300x200xf32>, %n: index) {
  %a = stencil.load %A : memref<300x200xf32> -> !f
  %b = stencil.load %B : memref<300x200xf32> -> !f
  %g = stencil.grid [1, 1] to [299, 199] : !stencil.grid<2>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !f, !f {
    %calc = stencil.apply on %g ins(%x = %ak : !f) outs(%bk : !f) {
      %l = stencil.access %x[0, -1] : !f
      stencil.return %l : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !f) outs(%ak : !f) {
      %v = stencil.access %y[0, 0] : !f
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !f, !f
  }
  stencil.store %r#0 to %A : !f to memref<300x200xf32>
  stencil.store %r#1 to %B : !f to memref<300x200xf32>
  return
}

// -----

!h = !stencil.field<40002xf32>

// A large 1-D copy runs in parallel chunks of 16384 points.
// CHECK-LABEL: func.func @large_copy_1d(
// CHECK-SAME: %[[A:[^:]*]]: memref<40002xf32>
// CHECK: %[[R:.*]]:2 = scf.for
// CHECK: scf.if
// CHECK: %[[CHUNK:.*]] = arith.constant 16384 : index
// CHECK-NEXT: scf.parallel (%[[K0:.*]]) = (%{{.*}}) to (%[[END:.*]]) step (%[[CHUNK]]) {
// CHECK-NEXT: %[[K1:.*]] = arith.addi %[[K0]], %[[CHUNK]]
// CHECK-NEXT: %[[KEND:.*]] = arith.minsi %[[K1]], %[[END]]
// CHECK-NEXT: scf.for %[[K:.*]] = %[[K0]] to %[[KEND]] step %{{.*}} {
// CHECK-NEXT: %[[V:.*]] = memref.load %[[R]]#0[%[[K]]]
// CHECK-NEXT: memref.store %[[V]], %[[A]][%[[K]]]
func.func @large_copy_1d(%A: memref<40002xf32>, %B: memref<40002xf32>, %n: index) {
  %a = stencil.load %A : memref<40002xf32> -> !h
  %b = stencil.load %B : memref<40002xf32> -> !h
  %g = stencil.grid [1] to [40001] : !stencil.grid<1>
  %r:2 = stencil.iterate %n iter_args(%ak = %a, %bk = %b) : !h, !h {
    %calc = stencil.apply on %g ins(%x = %ak : !h) outs(%bk : !h) {
      %l = stencil.access %x[-1] : !h
      stencil.return %l : f32
    }
    %copy = stencil.apply on %g ins(%y = %calc : !h) outs(%ak : !h) {
      %v = stencil.access %y[0] : !h
      stencil.return %v : f32
    }
    stencil.yield %copy, %calc : !h, !h
  }
  stencil.store %r#0 to %A : !h to memref<40002xf32>
  stencil.store %r#1 to %B : !h to memref<40002xf32>
  return
}

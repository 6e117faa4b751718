// RUN: stencil-opt %s --convert-stencil-to-loops=default-tile=4,0 --split-input-file -verify-diagnostics | FileCheck %s

// Reductions on the host: each tile of the parallel loop accumulates its
// points row by row, from the identity (sums and products reassociated
// along a row, so LLVM vectorizes them), and stores its partial in its own
// slot, numbered row-major over the tiles. After the loop the slots are
// combined in order, without reassociation: the result depends on the
// tiles, not on which thread ran which. The init joins last.
!f = !stencil.field<10x20xf32>
// CHECK-LABEL: func.func @kinds(
// CHECK-SAME: %[[M:[^:]*]]: f32, %[[I:[^:]*]]: i32)
// The running values over the boxes start at the identities.
// CHECK: %[[RMAX:.*]] = memref.alloca() : memref<f32>
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: %[[RMIN:.*]] = memref.alloca() : memref<f32>
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: %[[RADD:.*]] = memref.alloca() : memref<i32>
// CHECK: arith.constant 0 : i32
// CHECK: %[[RMUL:.*]] = memref.alloca() : memref<f32>
// CHECK: arith.constant 1.000000e+00 : f32
// Tiles of 4 rows: ceil(8 / 4) x 1 slots.
// CHECK: %[[ROWS:.*]] = arith.ceildivsi %{{.*}}, %c4 : index
// CHECK: %[[SMAX:.*]] = memref.alloc(%[[NT:.*]]) : memref<?xf32>
// CHECK: %[[SMIN:.*]] = memref.alloc(%[[NT]]) : memref<?xf32>
// CHECK: %[[SADD:.*]] = memref.alloc(%[[NT]]) : memref<?xi32>
// CHECK: %[[SMUL:.*]] = memref.alloc(%[[NT]]) : memref<?xf32>
// CHECK: scf.parallel (%[[T0:.*]], %[[T1:.*]]) =
// CHECK: %[[TILE:.*]]:4 = scf.for {{.*}} -> (f32, f32, i32, f32) {
// CHECK: %[[ROW:.*]]:4 = scf.for {{.*}} -> (f32, f32, i32, f32) {
// CHECK: %[[V:.*]] = memref.load
// CHECK: %[[K:.*]] = arith.fptosi %[[V]]
// CHECK: memref.store %[[V]]
// CHECK-NEXT: arith.maxnumf %{{.*}}, %[[V]] : f32
// CHECK-NEXT: arith.minnumf %{{.*}}, %[[V]] : f32
// CHECK-NEXT: arith.addi %{{.*}}, %[[K]] : i32
// CHECK-NEXT: arith.mulf %{{.*}}, %[[V]] fastmath<reassoc> : f32
// CHECK: scf.yield %[[ROW]]#0, %[[ROW]]#1, %[[ROW]]#2, %[[ROW]]#3
// CHECK: %[[P0:.*]] = arith.divsi %{{.*}}, %c4 : index
// CHECK: %[[S0:.*]] = arith.addi %{{.*}}, %[[P0]] : index
// CHECK: %[[P1:.*]] = arith.divsi
// CHECK: %[[SCALED:.*]] = arith.muli %[[S0]], %{{.*}} : index
// CHECK: %[[SLOT:.*]] = arith.addi %[[SCALED]], %[[P1]] : index
// CHECK: memref.store %[[TILE]]#0, %[[SMAX]][%[[SLOT]]]
// CHECK: memref.store %[[TILE]]#3, %[[SMUL]][%[[SLOT]]]
// CHECK: scf.reduce
// The slots in order.
// CHECK: %[[ALL:.*]]:4 = scf.for %[[S:.*]] = %{{.*}} to %[[NT]] step
// CHECK: memref.load %[[SMAX]][%[[S]]]
// CHECK: arith.maxnumf
// CHECK: memref.load %[[SMUL]][%[[S]]]
// CHECK-NEXT: arith.mulf %{{[^ ]*}}, %{{[^ ]*}} : f32
// CHECK: memref.dealloc %[[SMUL]]
// CHECK: %[[LMAX:.*]] = memref.load %[[RMAX]][]
// CHECK: %[[LMIN:.*]] = memref.load %[[RMIN]][]
// CHECK: %[[LADD:.*]] = memref.load %[[RADD]][]
// CHECK: %[[LMUL:.*]] = memref.load %[[RMUL]][]
// CHECK: %[[OMAX:.*]] = arith.maxnumf %[[M]], %[[LMAX]] : f32
// CHECK: %[[OMIN:.*]] = arith.minnumf %[[M]], %[[LMIN]] : f32
// CHECK: %[[OADD:.*]] = arith.addi %[[I]], %[[LADD]] : i32
// CHECK: %[[OMUL:.*]] = arith.mulf %[[M]], %[[LMUL]] : f32
// CHECK: return %[[OMAX]], %[[OMIN]], %[[OADD]], %[[OMUL]]
func.func @kinds(%A: memref<10x20xf32>, %B: memref<10x20xf32>, %m: f32, %i: i32) -> (f32, f32, i32, f32) {
  %a = stencil.load %A : memref<10x20xf32> -> !f
  %b = stencil.load %B : memref<10x20xf32> -> !f
  %g = stencil.grid [1, 1] to [9, 19] : !stencil.grid<2>
  %r:5 = stencil.apply on %g ins(%x = %a : !f) outs(%b : !f)
      reduce(max %m : f32, min %m : f32, add %i : i32, mul %m : f32) {
    %v = stencil.access %x[0, 1] : !f
    %k = arith.fptosi %v : f32 to i32
    stencil.return %v, %v, %v, %k, %v : f32, f32, f32, i32, f32
  }
  stencil.store %r#0 to %B : !f to memref<10x20xf32>
  return %r#1, %r#2, %r#3, %r#4 : f32, f32, i32, f32
}

// -----

// A sum carried from step to step: the swap loop carries it after the
// buffers, and each step adds its points to it.
!f = !stencil.field<66xf32>
// CHECK-LABEL: func.func @accumulates(
// CHECK-SAME: %[[S:[^:]*]]: memref<f32>, %[[N:[^:]*]]: index)
// CHECK: %[[S0:.*]] = memref.load %[[S]][]
// CHECK: %[[LOOP:.*]]:3 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[ACC:.*]] = %[[S0]]) -> (memref<66xf32>, memref<66xf32>, f32) {
// CHECK: scf.parallel
// CHECK: %[[STEP:.*]] = scf.for {{.*}} -> (f32) {
// CHECK: memref.dealloc
// CHECK-NEXT: %[[RUNNING:.*]] = memref.load %{{.*}}[] : memref<f32>
// CHECK-NEXT: %[[NEXT:.*]] = arith.addf %[[ACC]], %[[RUNNING]] : f32
// CHECK: scf.yield %{{.*}}, %{{.*}}, %[[NEXT]] : memref<66xf32>, memref<66xf32>, f32
// CHECK: memref.store %[[LOOP]]#2, %[[S]][]
func.func @accumulates(%A: memref<66xf32>, %B: memref<66xf32>, %S: memref<f32>, %n: index) {
  %a = stencil.load %A : memref<66xf32> -> !f
  %b = stencil.load %B : memref<66xf32> -> !f
  %g = stencil.grid [1] to [65] : !stencil.grid<1>
  %s0 = memref.load %S[] : memref<f32>
  %r:3 = stencil.iterate %n iter_args(%x = %a, %y = %b, %acc = %s0) : !f, !f, f32 {
    %new, %sum = stencil.apply on %g ins(%p = %x : !f) outs(%y : !f) reduce(add %acc : f32) {
      %l = stencil.access %p[-1] : !f
      %h = stencil.access %p[1] : !f
      %v = arith.addf %l, %h : f32
      stencil.return %v, %l : f32, f32
    }
    %copy = stencil.apply on %g ins(%q = %new : !f) outs(%x : !f) {
      %v = stencil.access %q[0] : !f
      stencil.return %v : f32
    }
    stencil.yield %copy, %new, %sum : !f, !f, f32
  }
  memref.store %r#2, %S[] : memref<f32>
  stencil.store %r#0 to %A : !f to memref<66xf32>
  stencil.store %r#1 to %B : !f to memref<66xf32>
  return
}

// -----

// 1-D blocks (overlapped tiles) skip the reductions: the last step runs
// alone.
!f = !stencil.field<66xf32>
// CHECK-LABEL: func.func @overlapped_1d(
// CHECK: %[[B:.*]]:2 = scf.for {{.*}} -> (memref<66xf32>, memref<66xf32>) {
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[B]]#0, %{{.*}} = %[[B]]#1, %{{.*}} = %{{.*}}) -> (memref<66xf32>, memref<66xf32>, f32) {
func.func @overlapped_1d(%A: memref<66xf32>, %B: memref<66xf32>, %S: memref<f32>, %n: index) {
  %a = stencil.load %A : memref<66xf32> -> !f
  %b = stencil.load %B : memref<66xf32> -> !f
  %s0 = memref.load %S[] : memref<f32>
  %zero = arith.constant 0.0 : f32
  %g = stencil.grid [1] to [65] : !stencil.grid<1>
  %r:3 = stencil.iterate %n iter_args(%x = %a, %y = %b, %s = %s0) : !f, !f, f32
      attributes {schedule = #stencil.schedule<wg = [16], time_block = 3>} {
    %new, %sum = stencil.apply on %g ins(%p = %x : !f) outs(%y : !f) reduce(add %zero : f32) {
      %l = stencil.access %p[-1] : !f
      %h = stencil.access %p[1] : !f
      %v = arith.addf %l, %h : f32
      stencil.return %v, %l : f32, f32
    }
    %copy = stencil.apply on %g ins(%q = %new : !f) outs(%x : !f) {
      %v = stencil.access %q[0] : !f
      stencil.return %v : f32
    }
    stencil.yield %copy, %new, %sum : !f, !f, f32
  }
  memref.store %r#2, %S[] : memref<f32>
  stencil.store %r#0 to %A : !f to memref<66xf32>
  stencil.store %r#1 to %B : !f to memref<66xf32>
  return
}

// -----

// A sum that accumulates across steps needs every step's points: time
// blocks are not combined with it.
!f = !stencil.field<34x34xf32>
// CHECK-LABEL: func.func @no_blocks_across_steps
// CHECK-COUNT-1: scf.for {{.*}} -> (memref<34x34xf32>, memref<34x34xf32>, f32)
func.func @no_blocks_across_steps(%A: memref<34x34xf32>, %B: memref<34x34xf32>, %S: memref<f32>, %n: index) {
  %a = stencil.load %A : memref<34x34xf32> -> !f
  %b = stencil.load %B : memref<34x34xf32> -> !f
  %s0 = memref.load %S[] : memref<f32>
  %g = stencil.grid [1, 1] to [33, 33] : !stencil.grid<2>
  // expected-warning @+1 {{time_block 3 is not combined with a value carried from step to step (a reduction that accumulates across steps); running one step per sweep}}
  %r:3 = stencil.iterate %n iter_args(%u = %a, %v = %b, %s = %s0) : !f, !f, f32
      attributes {schedule = #stencil.schedule<wg = [8, 32], tile = [8, 32], time_block = 3>} {
    %new, %sum = stencil.apply on %g ins(%x = %u : !f) outs(%v : !f) reduce(add %s : f32) {
      %w = stencil.access %x[0, -1] : !f
      stencil.return %w, %w : f32, f32
    }
    %copy = stencil.apply on %g ins(%y = %new : !f) outs(%u : !f) {
      %c = stencil.access %y[0, 0] : !f
      stencil.return %c : f32
    }
    stencil.yield %copy, %new, %sum : !f, !f, f32
  }
  memref.store %r#2, %S[] : memref<f32>
  stencil.store %r#0 to %A : !f to memref<34x34xf32>
  stencil.store %r#1 to %B : !f to memref<34x34xf32>
  return
}

// -----

// Streamed rows store whole vectors of a row and have no place for a
// running value yet.
!f = !stencil.field<8x64xf32>
func.func @no_streaming(%A: memref<8x64xf32>, %B: memref<8x64xf32>, %z: f32) -> f32 {
  %a = stencil.load %A : memref<8x64xf32> -> !f
  %b = stencil.load %B : memref<8x64xf32> -> !f
  %g = stencil.grid [1, 1] to [7, 63] : !stencil.grid<2>
  // expected-warning @+1 {{streaming_stores ignored: its rows do not reduce yet}}
  %r:2 = stencil.apply on %g ins(%x = %a : !f) outs(%b : !f) reduce(add %z : f32)
      attributes {schedule = #stencil.schedule<wg = [1, 64], streaming_stores = true>} {
    %w = stencil.access %x[0, -1] : !f
    stencil.return %w, %w : f32, f32
  }
  stencil.store %r#0 to %B : !f to memref<8x64xf32>
  return %r#1 : f32
}

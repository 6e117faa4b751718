// RUN: stencil-opt %s --split-input-file --convert-stencil-to-loops --canonicalize -verify-diagnostics | FileCheck %s

// On one rank (no stencil.mpi) an exchange is the identity: no runtime
// call, and the time loop keeps its pointer-swap form (one sweep a step).
!S = !stencil.field<34xf32, #stencil.decomp<block>>
// CHECK-LABEL: func.func @serial(
// CHECK-NOT: call
// CHECK: scf.for {{.*}} iter_args(%[[X:.*]] = %{{.*}}, %[[Y:.*]] = %{{.*}})
// CHECK-NOT: call
// CHECK: scf.yield %[[Y]], %[[X]] : memref<34xf32>, memref<34xf32>
func.func @serial(%a: memref<34xf32>, %b: memref<34xf32>, %steps: index) {
  %fa = stencil.load %a : memref<34xf32> -> !S
  %fb = stencil.load %b : memref<34xf32> -> !S
  %g = stencil.grid [1] to [33] : !stencil.grid<1>
  %r:2 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb) : !S, !S {
    %xe = stencil.exchange %x widths [1] : !S
    %n = stencil.apply on %g ins(%p = %xe : !S) outs(%y : !S) {
      %l = stencil.access %p[-1] : !S
      %h = stencil.access %p[1] : !S
      %s = arith.addf %l, %h : f32
      stencil.return %s : f32
    }
    %c = stencil.apply on %g ins(%q = %n : !S) outs(%x : !S) {
      %v = stencil.access %q[0] : !S
      stencil.return %v : f32
    }
    stencil.yield %c, %n : !S, !S
  }
  stencil.store %r#0 to %a : !S to memref<34xf32>
  stencil.store %r#1 to %b : !S to memref<34xf32>
  return
}

// -----

// One rank's part of a distributed 2-D loop (as stencil-distribute leaves
// it), exchange depth 1: before the loop the ring sizes and neighbours are
// queried along the distributed axis 0 only; each step starts the exchange
// of the current source buffer, computes the interior (shrunk by the
// radius where a neighbour is), completes the exchange and computes the
// slabs around the interior (2 x 2; canonicalization removes the empty
// ones along the whole axis 1). A read-only field exchanged before the
// loop gets a blocking exchange.
!D = !stencil.field<?x32xf32, #stencil.decomp<block, *>>
// CHECK-LABEL: func.func @overlap(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x32xf32>, %[[B:[^:]*]]: memref<?x32xf32>, %[[K:[^:]*]]: memref<?x32xf32>
// CHECK: %[[KP:.*]] = memref.extract_aligned_pointer_as_index %[[K]]
// CHECK: %[[KPI:.*]] = arith.index_cast %[[KP]]
// CHECK: call @stencil_mpi_exchange(%[[KPI]], %c4_i64, %{{.*}}, %c32_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64)
// CHECK: call @stencil_mpi_ring(%c0_i64, %c0_i64)
// CHECK: call @stencil_mpi_ring(%c0_i64, %c1_i64)
// CHECK: %[[NLO:.*]] = call @stencil_mpi_has_neighbor(%c0_i64, %c0_i64)
// CHECK: %[[NHI:.*]] = call @stencil_mpi_has_neighbor(%c0_i64, %c1_i64)
// CHECK-NOT: call @stencil_mpi_ring
// CHECK: scf.for {{.*}} iter_args(%[[SRC:.*]] = %{{.*}}, %[[DST:.*]] = %{{.*}})
// CHECK: %[[SP:.*]] = memref.extract_aligned_pointer_as_index %[[SRC]]
// CHECK: %[[SPI:.*]] = arith.index_cast %[[SP]]
// CHECK: call @stencil_mpi_exchange_begin(%[[SPI]], %c4_i64, %{{.*}}, %c32_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64)
// CHECK: scf.parallel
// CHECK: call @stencil_mpi_exchange_end()
// CHECK-COUNT-2: scf.parallel
// CHECK-NOT: scf.parallel
// CHECK: scf.yield %[[DST]], %[[SRC]]
func.func @overlap(%a: memref<?x32xf32>, %b: memref<?x32xf32>, %k: memref<?x32xf32>, %lo: index, %hi: index, %steps: index) attributes {stencil.mpi} {
  %fa = stencil.load %a : memref<?x32xf32> -> !D
  %fb = stencil.load %b : memref<?x32xf32> -> !D
  %fk = stencil.load %k : memref<?x32xf32> -> !D
  %kx = stencil.exchange %fk widths [1, 0] : !D
  %g = stencil.grid [%lo, 1] to [%hi, 31] : !stencil.grid<2>
  %r:2 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb) : !D, !D {
    %xe = stencil.exchange %x widths [1, 0] : !D
    %n = stencil.apply on %g ins(%p = %xe : !D, %c = %kx : !D) outs(%y : !D) {
      %u = stencil.access %p[-1, 0] : !D
      %d = stencil.access %c[1, 0] : !D
      %s = arith.addf %u, %d : f32
      stencil.return %s : f32
    }
    %c = stencil.apply on %g ins(%q = %n : !D) outs(%x : !D) {
      %v = stencil.access %q[0, 0] : !D
      stencil.return %v : f32
    }
    stencil.yield %c, %n : !D, !D
  }
  stencil.store %r#0 to %a : !D to memref<?x32xf32>
  stencil.store %r#1 to %b : !D to memref<?x32xf32>
  return
}

// -----

// Exchange depth 2 (seed 001): step s exchanges only when s mod 2 == 0,
// over the grid grown by one radius into the neighbours' points (at most
// the ring the runtime reports); the other steps compute the grid grown by
// (1 - s mod 2) radii without communicating.
!D = !stencil.field<?x32xf32, #stencil.decomp<block, *>>
// CHECK-LABEL: func.func @deep(
// CHECK: %[[RLO:.*]] = call @stencil_mpi_ring(%c0_i64, %c0_i64)
// CHECK: scf.for %[[S:[^ ]*]] =
// CHECK: %[[PHASE:.*]] = arith.remsi %[[S]], %c2
// CHECK: %[[NOW:.*]] = arith.cmpi eq, %[[PHASE]], %c0
// CHECK: scf.if %[[NOW]] {
// CHECK: call @stencil_mpi_exchange_begin(%{{.*}}, %c4_i64, %{{.*}}, %c32_i64, %c1_i64, %c2_i64, %c0_i64, %c0_i64)
// CHECK: call @stencil_mpi_exchange_end()
// CHECK: } else {
// CHECK-NOT: call @stencil_mpi_exchange
// CHECK: arith.subi %c1, %[[PHASE]]
// CHECK: scf.parallel
// CHECK: }
func.func @deep(%a: memref<?x32xf32>, %b: memref<?x32xf32>, %lo: index, %hi: index, %steps: index) attributes {stencil.mpi} {
  %fa = stencil.load %a : memref<?x32xf32> -> !D
  %fb = stencil.load %b : memref<?x32xf32> -> !D
  %g = stencil.grid [%lo, 1] to [%hi, 31] : !stencil.grid<2>
  %r:2 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb) : !D, !D attributes {schedule = #stencil.schedule<wg = [4, 30], exchange_depth = 2>} {
    %xe = stencil.exchange %x widths [2, 0] : !D
    %n = stencil.apply on %g ins(%p = %xe : !D) outs(%y : !D) {
      %u = stencil.access %p[-1, 0] : !D
      %d = stencil.access %p[1, 0] : !D
      %s = arith.addf %u, %d : f32
      stencil.return %s : f32
    }
    %c = stencil.apply on %g ins(%q = %n : !D) outs(%x : !D) {
      %v = stencil.access %q[0, 0] : !D
      stencil.return %v : f32
    }
    stencil.yield %c, %n : !D, !D
  }
  stencil.store %r#0 to %a : !D to memref<?x32xf32>
  stencil.store %r#1 to %b : !D to memref<?x32xf32>
  return
}

// -----

// An exchange shallower than exchange_depth x radius cannot feed the
// redundant ring: the lowering warns and exchanges every step.
!D = !stencil.field<?x32xf32, #stencil.decomp<block, *>>
// CHECK-LABEL: func.func @shallow(
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (memref
// CHECK-NOT: scf.if
// CHECK: call @stencil_mpi_exchange_begin
func.func @shallow(%a: memref<?x32xf32>, %b: memref<?x32xf32>, %lo: index, %hi: index, %steps: index) attributes {stencil.mpi} {
  %fa = stencil.load %a : memref<?x32xf32> -> !D
  %fb = stencil.load %b : memref<?x32xf32> -> !D
  %g = stencil.grid [%lo, 1] to [%hi, 31] : !stencil.grid<2>
  %r:2 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb) : !D, !D attributes {schedule = #stencil.schedule<wg = [4, 30], exchange_depth = 3>} {
    // expected-warning @below {{width 1 along axis 0 is less than exchange_depth 3 x radius 1; exchanging every step instead}}
    %xe = stencil.exchange %x widths [1, 0] : !D
    %n = stencil.apply on %g ins(%p = %xe : !D) outs(%y : !D) {
      %u = stencil.access %p[-1, 0] : !D
      stencil.return %u : f32
    }
    %c = stencil.apply on %g ins(%q = %n : !D) outs(%x : !D) {
      %v = stencil.access %q[0, 0] : !D
      stencil.return %v : f32
    }
    stencil.yield %c, %n : !D, !D
  }
  stencil.store %r#0 to %a : !D to memref<?x32xf32>
  stencil.store %r#1 to %b : !D to memref<?x32xf32>
  return
}

// -----

// Time blocks across ranks (seed 000 Fig. 3 with seed 001's deep halo):
// each block of 2 steps starts with a blocking exchange of a halo 2 x
// radius deep, and its first step computes the rank's rows grown by one
// radius into the neighbours' (as far as stencil_mpi_ring allows), which
// its second step reads. The steps left over run one at a time with the
// overlapped exchange.
!D = !stencil.field<?x32xf32, #stencil.decomp<block, *>>
// CHECK-LABEL: func.func @time_block_with_exchange(
// CHECK: %[[RLO:.*]] = call @stencil_mpi_ring(%c0_i64, %c0_i64)
// CHECK: %[[RINGLO:.*]] = arith.index_cast %[[RLO]]
// CHECK: %[[RHI:.*]] = call @stencil_mpi_ring(%c0_i64, %c1_i64)
// CHECK: %[[RINGHI:.*]] = arith.index_cast %[[RHI]]
// CHECK: arith.divsi %{{.*}}, %c2
// CHECK: scf.for {{.*}} iter_args(%[[SRC:[^ ]*]] = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK: memref.extract_aligned_pointer_as_index %[[SRC]]
// CHECK: call @stencil_mpi_exchange(%{{.*}}, %c4_i64, %{{.*}}, %c32_i64, %c1_i64, %c2_i64, %c0_i64, %c0_i64)
// CHECK-NOT: call @stencil_mpi_exchange
// CHECK: scf.parallel
// The rows a level computes: the rank's [lo, hi) grown by min(shrink, ring).
// CHECK-DAG: arith.minsi %{{.*}}, %[[RINGLO]] : index
// CHECK-DAG: arith.minsi %{{.*}}, %[[RINGHI]] : index
// CHECK: scf.for {{.*}} iter_args(
// CHECK: call @stencil_mpi_exchange_begin
func.func @time_block_with_exchange(%a: memref<?x32xf32>, %b: memref<?x32xf32>, %lo: index, %hi: index, %steps: index) attributes {stencil.mpi} {
  %fa = stencil.load %a : memref<?x32xf32> -> !D
  %fb = stencil.load %b : memref<?x32xf32> -> !D
  %g = stencil.grid [%lo, 1] to [%hi, 31] : !stencil.grid<2>
  %r:2 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb) : !D, !D attributes {schedule = #stencil.schedule<wg = [4, 30], time_block = 2, exchange_depth = 2>} {
    %xe = stencil.exchange %x widths [2, 0] : !D
    %n = stencil.apply on %g ins(%p = %xe : !D) outs(%y : !D) {
      %u = stencil.access %p[-1, 0] : !D
      %d = stencil.access %p[1, 0] : !D
      %s = arith.addf %u, %d : f32
      stencil.return %s : f32
    }
    %c = stencil.apply on %g ins(%q = %n : !D) outs(%x : !D) {
      %v = stencil.access %q[0, 0] : !D
      stencil.return %v : f32
    }
    stencil.yield %c, %n : !D, !D
  }
  stencil.store %r#0 to %a : !D to memref<?x32xf32>
  stencil.store %r#1 to %b : !D to memref<?x32xf32>
  return
}

// -----

// A block reads T x radius cells of halo from its first step; a shallower
// exchange cannot feed it: a warning, and one step per sweep (no block
// loop before the steps).
!D = !stencil.field<?x32xf32, #stencil.decomp<block, *>>
// CHECK-LABEL: func.func @time_block_shallow_exchange(
// CHECK-NOT: arith.divsi
// CHECK: scf.for {{.*}} iter_args(
// CHECK: call @stencil_mpi_exchange_begin
func.func @time_block_shallow_exchange(%a: memref<?x32xf32>, %b: memref<?x32xf32>, %lo: index, %hi: index, %steps: index) attributes {stencil.mpi} {
  %fa = stencil.load %a : memref<?x32xf32> -> !D
  %fb = stencil.load %b : memref<?x32xf32> -> !D
  %g = stencil.grid [%lo, 1] to [%hi, 31] : !stencil.grid<2>
  // expected-warning @below {{time_block 2 needs halos 2 x radius deep, but the exchanges bring enough for 1 step; give exchange_depth at least 2. Running one step per sweep}}
  %r:2 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb) : !D, !D attributes {schedule = #stencil.schedule<wg = [4, 30], time_block = 2>} {
    %xe = stencil.exchange %x widths [1, 0] : !D
    %n = stencil.apply on %g ins(%p = %xe : !D) outs(%y : !D) {
      %u = stencil.access %p[-1, 0] : !D
      stencil.return %u : f32
    }
    %c = stencil.apply on %g ins(%q = %n : !D) outs(%x : !D) {
      %v = stencil.access %q[0, 0] : !D
      stencil.return %v : f32
    }
    stencil.yield %c, %n : !D, !D
  }
  stencil.store %r#0 to %a : !D to memref<?x32xf32>
  stencil.store %r#1 to %b : !D to memref<?x32xf32>
  return
}

// -----

// The grown steps of a block read every carried field in the neighbours'
// points: a field read only at the centre, and so never exchanged, would
// be read stale there. A warning, and one step per sweep.
!D = !stencil.field<?x32xf32, #stencil.decomp<block, *>>
// CHECK-LABEL: func.func @time_block_unexchanged_field(
// CHECK-NOT: arith.divsi
// CHECK: scf.for {{.*}} iter_args(
func.func @time_block_unexchanged_field(%a: memref<?x32xf32>, %b: memref<?x32xf32>, %c: memref<?x32xf32>, %d: memref<?x32xf32>, %lo: index, %hi: index, %steps: index) attributes {stencil.mpi} {
  %fa = stencil.load %a : memref<?x32xf32> -> !D
  %fb = stencil.load %b : memref<?x32xf32> -> !D
  %fc = stencil.load %c : memref<?x32xf32> -> !D
  %fd = stencil.load %d : memref<?x32xf32> -> !D
  %g = stencil.grid [%lo, 1] to [%hi, 31] : !stencil.grid<2>
  // expected-warning @below {{time_block 2 computes the neighbours' points, which read iter_arg #2 in its halo, but it is not exchanged. Running one step per sweep}}
  %r:4 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb, %u = %fc, %v = %fd) : !D, !D, !D, !D attributes {schedule = #stencil.schedule<wg = [4, 30], time_block = 2, exchange_depth = 2>} {
    %xe = stencil.exchange %x widths [2, 0] : !D
    %n:2 = stencil.apply on %g ins(%p = %xe : !D, %q = %u : !D) outs(%y : !D, %v : !D) {
      %above = stencil.access %p[-1, 0] : !D
      %centre = stencil.access %q[0, 0] : !D
      %s = arith.addf %above, %centre : f32
      stencil.return %s, %centre : f32, f32
    }
    %cx, %cu = stencil.apply on %g ins(%p2 = %n#0 : !D, %q2 = %n#1 : !D) outs(%x : !D, %u : !D) {
      %v1 = stencil.access %p2[0, 0] : !D
      %v2 = stencil.access %q2[0, 0] : !D
      stencil.return %v1, %v2 : f32, f32
    }
    stencil.yield %cx, %n#0, %cu, %n#1 : !D, !D, !D, !D
  }
  stencil.store %r#0 to %a : !D to memref<?x32xf32>
  stencil.store %r#1 to %b : !D to memref<?x32xf32>
  stencil.store %r#2 to %c : !D to memref<?x32xf32>
  stencil.store %r#3 to %d : !D to memref<?x32xf32>
  return
}

// -----

// A reduction of a distributed loop: each rank's partial goes through
// stencil_mpi_allreduce (type 0 = f32, kind 0 = add) in place in a
// one-element buffer (made on entry to the function: an alloca in the loop
// would grow the stack every step), then joins the init; every rank gets
// the same sum. A deeper exchange would compute the neighbours' points
// twice: depth 1.
!D = !stencil.field<?x32xf32, #stencil.decomp<block, *>>
// CHECK-LABEL: func.func @residual(
// CHECK-SAME: %[[Z:[^:]*]]: f32, %[[STEPS:[^:]*]]: index) -> f32
// CHECK: %[[BUF:.*]] = memref.alloca() : memref<1xf32>
// CHECK-NOT: arith.remsi
// CHECK: %[[LOOP:.*]]:3 = scf.for {{.*}} -> (memref<?x32xf32>, memref<?x32xf32>, f32) {
// CHECK: call @stencil_mpi_exchange_begin
// CHECK: call @stencil_mpi_exchange_end()
// CHECK: memref.store %{{.*}}, %[[BUF]][%{{.*}}] : memref<1xf32>
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: %[[PTRI:.*]] = arith.index_cast %[[PTR]]
// CHECK: call @stencil_mpi_allreduce(%[[PTRI]], %c0_i64, %c0_i64)
// CHECK: %[[ALL:.*]] = memref.load %[[BUF]][%{{.*}}] : memref<1xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[Z]], %[[ALL]] : f32
// CHECK: scf.yield %{{.*}}, %{{.*}}, %[[SUM]]
// CHECK: return %[[LOOP]]#2
func.func @residual(%a: memref<?x32xf32>, %b: memref<?x32xf32>, %lo: index, %hi: index, %z: f32, %steps: index) -> f32 attributes {stencil.mpi} {
  %fa = stencil.load %a : memref<?x32xf32> -> !D
  %fb = stencil.load %b : memref<?x32xf32> -> !D
  %g = stencil.grid [%lo, 1] to [%hi, 31] : !stencil.grid<2>
  // expected-warning @+1 {{exchange_depth 2 is not combined with a reduction (the redundant points would count twice); exchanging every step}}
  %r:3 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb, %s = %z) : !D, !D, f32 attributes {schedule = #stencil.schedule<wg = [4, 30], exchange_depth = 2>} {
    %xe = stencil.exchange %x widths [2, 0] : !D
    %n, %sum = stencil.apply on %g ins(%p = %xe : !D) outs(%y : !D) reduce(add %z : f32) {
      %u = stencil.access %p[-1, 0] : !D
      %d = stencil.access %p[1, 0] : !D
      %s2 = arith.addf %u, %d : f32
      stencil.return %s2, %u : f32, f32
    }
    %c = stencil.apply on %g ins(%q = %n : !D) outs(%x : !D) {
      %v = stencil.access %q[0, 0] : !D
      stencil.return %v : f32
    }
    stencil.yield %c, %n, %sum : !D, !D, f32
  }
  stencil.store %r#0 to %a : !D to memref<?x32xf32>
  stencil.store %r#1 to %b : !D to memref<?x32xf32>
  return %r#2 : f32
}

// -----

// A distributed loop whose calc reads no cell across the split axis needs
// no exchange, so no partition: its time blocks run on the rank's points
// and compute the residual in their last level; each block's partial goes
// through stencil_mpi_allreduce before joining the init, as a step's does.
!D = !stencil.field<?x32xf32, #stencil.decomp<block, *>>
// CHECK-LABEL: func.func @residual_in_blocks(
// CHECK-SAME: %[[Z:[^:]*]]: f32, %[[STEPS:[^:]*]]: index) -> f32
// CHECK: %[[BLOCKS:.*]]:3 = scf.for {{.*}} -> (memref<?x32xf32>, memref<?x32xf32>, f32) {
// CHECK-NOT: call @stencil_mpi_exchange_begin
// CHECK: vector.reduction <add>
// CHECK: %[[TILES:.*]] = scf.for {{.*}} -> (f32) {
// CHECK: memref.store %[[TILES]], %[[BUF:.*]][%{{.*}}] : memref<1xf32>
// CHECK: call @stencil_mpi_allreduce(%{{.*}}, %c0_i64, %c0_i64)
// CHECK: %[[ALL:.*]] = memref.load %[[BUF]][%{{.*}}] : memref<1xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[Z]], %[[ALL]] : f32
// CHECK: scf.yield %{{.*}}, %{{.*}}, %[[SUM]]
// CHECK: scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %[[BLOCKS]]#2) -> (memref<?x32xf32>, memref<?x32xf32>, f32) {
func.func @residual_in_blocks(%a: memref<?x32xf32>, %b: memref<?x32xf32>, %lo: index, %hi: index, %z: f32, %steps: index) -> f32 attributes {stencil.mpi} {
  %fa = stencil.load %a : memref<?x32xf32> -> !D
  %fb = stencil.load %b : memref<?x32xf32> -> !D
  %g = stencil.grid [%lo, 1] to [%hi, 31] : !stencil.grid<2>
  %r:3 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb, %s = %z) : !D, !D, f32 attributes {schedule = #stencil.schedule<wg = [4, 30], time_block = 3>} {
    %n, %sum = stencil.apply on %g ins(%p = %x : !D) outs(%y : !D) reduce(add %z : f32) {
      %w = stencil.access %p[0, -1] : !D
      %e = stencil.access %p[0, 1] : !D
      %s2 = arith.addf %w, %e : f32
      stencil.return %s2, %w : f32, f32
    }
    %c = stencil.apply on %g ins(%q = %n : !D) outs(%x : !D) {
      %v = stencil.access %q[0, 0] : !D
      stencil.return %v : f32
    }
    stencil.yield %c, %n, %sum : !D, !D, f32
  }
  stencil.store %r#0 to %a : !D to memref<?x32xf32>
  stencil.store %r#1 to %b : !D to memref<?x32xf32>
  return %r#2 : f32
}

// -----

// The MPI runtime combines f32, f64, i32 and i64.
!D = !stencil.field<?x32xf32, #stencil.decomp<block, *>>
func.func @bad_type(%a: memref<?x32xf32>, %b: memref<?x32xf32>, %lo: index, %hi: index, %z: i16) -> i16 attributes {stencil.mpi} {
  %fa = stencil.load %a : memref<?x32xf32> -> !D
  %fb = stencil.load %b : memref<?x32xf32> -> !D
  %g = stencil.grid [%lo, 1] to [%hi, 31] : !stencil.grid<2>
  // expected-error @+1 {{reduces a value of type 'i16' across MPI ranks; the MPI runtime combines f32, f64, i32 and i64}}
  %n, %sum = stencil.apply on %g ins(%p = %fa : !D) outs(%fb : !D) reduce(max %z : i16) {
    %u = stencil.access %p[0, 0] : !D
    %k = arith.fptosi %u : f32 to i16
    stencil.return %u, %k : f32, i16
  }
  stencil.store %n to %b : !D to memref<?x32xf32>
  return %sum : i16
}

// RUN: stencil-opt %s --split-input-file --convert-stencil-to-gpu --canonicalize -verify-diagnostics | FileCheck %s

// One rank's part of a distributed loop (as stencil-distribute leaves it)
// on the device: the buffers are device buffers, so the exchanges call the
// runtime's _device entry points on their addresses (the runtime packs
// the faces on the device); each step begins the exchange, launches the
// interior, ends the exchange and launches the two slabs around it.
!D = !stencil.field<?x32xf32, #stencil.decomp<block, *>>
// CHECK-LABEL: func.func @overlap(
// CHECK-SAME: %[[A:[^:]*]]: memref<?x32xf32>
// CHECK: %[[DEV:.*]] = gpu.alloc (%{{.*}}) : memref<?x32xf32>
// CHECK: gpu.memcpy %[[DEV]], %[[A]]
// CHECK: call @stencil_mpi_has_neighbor(%c0_i64, %c0_i64)
// CHECK: scf.for {{.*}} iter_args(%[[SRC:.*]] = %[[DEV]], %[[DST:.*]] = %{{.*}})
// CHECK: %[[SP:.*]] = memref.extract_aligned_pointer_as_index %[[SRC]]
// CHECK: %[[SPI:.*]] = arith.index_cast %[[SP]]
// CHECK: call @stencil_mpi_exchange_begin_device(%[[SPI]], %c4_i64, %{{.*}}, %c32_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64)
// CHECK: gpu.launch
// CHECK: call @stencil_mpi_exchange_end()
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: scf.yield
// CHECK: func.func private @stencil_mpi_exchange_begin_device(i64, i64, i64, i64, i64, i64, i64, i64)
func.func @overlap(%a: memref<?x32xf32>, %b: memref<?x32xf32>, %lo: index, %hi: index, %steps: index) attributes {stencil.mpi} {
  %fa = stencil.load %a : memref<?x32xf32> -> !D
  %fb = stencil.load %b : memref<?x32xf32> -> !D
  %g = stencil.grid [%lo, 1] to [%hi, 31] : !stencil.grid<2>
  %r:2 = stencil.iterate %steps iter_args(%x = %fa, %y = %fb) : !D, !D {
    %xe = stencil.exchange %x widths [1, 0] : !D
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

// A blocking exchange outside a loop, and a reduction over a distributed
// grid: the boxes' partials are combined on the host, then across ranks.
!D = !stencil.field<?xf64, #stencil.decomp<block>>
// CHECK-LABEL: func.func @residual(
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<1xf64>
// CHECK: call @stencil_mpi_exchange_device(
// CHECK: gpu.launch
// CHECK: call @stencil_mpi_allreduce(
func.func @residual(%a: memref<?xf64>, %b: memref<?xf64>, %lo: index, %hi: index, %z: f64) -> f64 attributes {stencil.mpi} {
  %fa = stencil.load %a : memref<?xf64> -> !D
  %fb = stencil.load %b : memref<?xf64> -> !D
  %x = stencil.exchange %fa widths [1] : !D
  %g = stencil.grid [%lo] to [%hi] : !stencil.grid<1>
  %r:2 = stencil.apply on %g ins(%p = %x : !D) outs(%fb : !D) reduce(add %z : f64) {
    %l = stencil.access %p[-1] : !D
    %h = stencil.access %p[1] : !D
    %s = arith.subf %h, %l : f64
    stencil.return %s, %s : f64, f64
  }
  return %r#1 : f64
}

// -----

// Across ranks the runtime combines f32, f64, i32 and i64 only.
!D = !stencil.field<?xf32, #stencil.decomp<block>>
func.func @narrow(%a: memref<?xf32>, %b: memref<?xf32>, %lo: index, %hi: index, %z: i16) -> i16 attributes {stencil.mpi} {
  %fa = stencil.load %a : memref<?xf32> -> !D
  %fb = stencil.load %b : memref<?xf32> -> !D
  %g = stencil.grid [%lo] to [%hi] : !stencil.grid<1>
  // expected-error @+1 {{reduces a value of type 'i16' across MPI ranks; the MPI runtime combines f32, f64, i32 and i64}}
  %r:2 = stencil.apply on %g ins(%p = %fa : !D) outs(%fb : !D) reduce(add %z : i16) {
    %v = stencil.access %p[0] : !D
    %i = arith.fptosi %v : f32 to i16
    stencil.return %v, %i : f32, i16
  }
  return %r#1 : i16
}

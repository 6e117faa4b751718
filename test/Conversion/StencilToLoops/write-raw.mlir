// RUN: stencil-opt %s --split-input-file --convert-stencil-to-loops --canonicalize | FileCheck %s
// RUN: stencil-opt %s --split-input-file --convert-stencil-to-gpu --canonicalize | FileCheck %s --check-prefix=GPU
// RUN: stencil-opt %s --split-input-file --stencil-distribute --convert-stencil-to-loops --canonicalize | FileCheck %s --check-prefix=MPI

// stencil.write_raw: the field's buffer, all of it, through the runtime.
// On one process the host buffer goes to stencil_write_raw_buffer with its
// size in bytes (8 x 16 floats); a GPU buffer is copied to a host buffer
// first; a distributed field is written collectively from the rank's
// block (stencil_mpi_write_raw with the local extents).
// An apply that only reduces (outs()) lowers to its reduction loop.
!F = !stencil.field<8x16xf32>
// CHECK-LABEL: func.func @write(
// CHECK-SAME: %[[A:[^:]*]]: memref<8x16xf32>, %[[PATH:[^:]*]]: memref<i8>
// CHECK-DAG: %[[BYTES:.*]] = arith.constant 512 : i64
// CHECK: scf.for
// CHECK: arith.addf {{.*}} fastmath<reassoc> : f32
// CHECK: %[[PA:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[PP:.*]] = memref.extract_aligned_pointer_as_index %[[PATH]]
// CHECK: %[[IA:.*]] = arith.index_cast %[[PA]] : index to i64
// CHECK: %[[IP:.*]] = arith.index_cast %[[PP]] : index to i64
// CHECK: call @stencil_write_raw_buffer(%[[IA]], %[[BYTES]], %[[IP]]) : (i64, i64, i64) -> ()
// CHECK: func.func private @stencil_write_raw_buffer(i64, i64, i64)
// GPU-LABEL: func.func @write(
// GPU: %[[DEV:.*]] = gpu.alloc
// GPU: gpu.memcpy %[[DEV]], %{{.*}}
// GPU: %[[HOST:.*]] = memref.alloc() : memref<8x16xf32>
// GPU: gpu.memcpy %[[HOST]], %[[DEV]]
// GPU: memref.extract_aligned_pointer_as_index %[[HOST]]
// GPU: call @stencil_write_raw_buffer(
// GPU: memref.dealloc %[[HOST]]
func.func @write(%a: memref<8x16xf32>, %path: memref<i8>, %sum: memref<f32>) {
  %fa = stencil.load %a : memref<8x16xf32> -> !F
  %g = stencil.grid [0, 0] to [8, 16] : !stencil.grid<2>
  %zero = arith.constant 0.0 : f32
  %s = stencil.apply on %g ins(%x = %fa : !F) outs() reduce(add %zero : f32) {
    %v = stencil.access %x[0, 0] : !F
    stencil.return %v : f32
  }
  stencil.write_raw %fa to %path : !F to memref<i8>
  memref.store %s, %sum[] : memref<f32>
  return
}

// -----

// A resident array (stencil.resident): stencil-distribute allocates the
// rank's block zero-filled instead of scattering a global array, gathers
// nothing at the end, and the write is collective.
!D = !stencil.field<64x32xf32, #stencil.decomp<block, *>>
// MPI-LABEL: func.func @resident(
// MPI: call @stencil_mpi_begin(
// MPI: %[[LOCAL:.*]] = memref.alloc(%{{.*}}) : memref<?x32xf32>
// MPI: call @stencil_mpi_clear(
// MPI-NOT: stencil_mpi_scatter
// MPI: call @stencil_mpi_write_raw(%{{.*}}, %c4_i64, %{{.*}}, %c32_i64, %c1_i64, %{{.*}}) : (i64, i64, i64, i64, i64, i64) -> ()
// MPI-NOT: stencil_mpi_gather
// MPI: call @stencil_mpi_end()
func.func @resident(%a: memref<64x32xf32> {stencil.resident}, %path: memref<i8>) {
  %fa = stencil.load %a : memref<64x32xf32> -> !D
  %g = stencil.grid [0, 0] to [64, 32] : !stencil.grid<2>
  %r = stencil.apply on %g ins() outs(%fa : !D) {
    %i = stencil.index 0
    %n = arith.index_cast %i : index to i32
    %v = arith.sitofp %n : i32 to f32
    stencil.return %v : f32
  }
  stencil.write_raw %r to %path : !D to memref<i8>
  stencil.store %r to %a : !D to memref<64x32xf32>
  return
}

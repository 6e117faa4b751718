//===- Passes.td - Conversions out of the stencil dialect --*- tablegen -*-===//

#ifndef STENCIL_CONVERSION_PASSES_TD
#define STENCIL_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertStencilToLoops : Pass<"convert-stencil-to-loops", "ModuleOp"> {
  let summary = "Lower stencil functions to tiled parallel loops on memrefs";
  let description = [{
    The CPU lowering. Fields become memrefs: a `stencil.load` works in place
    on its memref (it is copied first when the function touches the memref
    in other ways), an apply writes into the buffer of its `outs` field, the
    time loop becomes an `scf.for` whose iteration arguments are the
    buffers (a swapping yield rotates them), `stencil.exchange` is the
    identity on one rank, and a `stencil.store` copies only when the buffer
    differs from the target at run time.

    Each apply becomes an `scf.parallel` over tiles of the grid — the
    schedule's `tile` (or `wg`), or `default-tile` — with `scf.for` loops
    over the points of a tile; the innermost loop runs along contiguous
    memory so LLVM can vectorize it. `convert-scf-to-openmp` turns the
    parallel loops into OpenMP work-sharing loops.

    An apply that writes a buffer it also reads at an offset, or whose
    output field is still needed after it, would need a fresh buffer; the
    pass reports it instead of producing wrong code.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
  let options = [
    ListOption<"defaultTile", "default-tile", "int64_t",
      "Tile (points per parallel iteration, outermost axis first) for applies "
      "without a schedule; 0 means the whole extent of the axis. Missing "
      "entries count from the innermost axis: the default tiles 3-D grids "
      "as [1, 8, whole], 2-D as [8, whole], 1-D as [16384].">
  ];
}

def StencilInsertExchanges : Pass<"stencil-insert-exchanges"> {
  let summary = "Refresh distributed halos before they are read";
  let description = [{
    Every distributed field (its type carries `#stencil.decomp`) that a
    `stencil.apply` reads at an offset along a distributed axis gets a
    `stencil.exchange` right after its definition, with widths equal to the
    largest such offsets over all its readers (from the access offsets of
    the applies' bodies); a field that already comes from an exchange gets
    that exchange widened instead. Running it twice changes nothing. The
    pragma-C importer already emits these exchanges; this pass does the same
    for other producers of the dialect.
  }];
}

def StencilDistribute : Pass<"stencil-distribute", "ModuleOp"> {
  let summary = "Run functions on distributed fields as one block per MPI rank";
  let description = [{
    For each function whose fields carry `#stencil.decomp` (the pragma
    `distribute` clause), produces the program every MPI rank runs
    (docs/MPI.md): `stencil_mpi_begin` lays the ranks out over the
    distributed axes and fixes each rank's block; every array gets a local
    buffer of block plus halo, filled from the global array that every rank
    holds; loads read it; stores write it and are followed by a gather that
    makes the global array whole on every rank; grids are clipped to the
    block in local coordinates; distributed extents of field types become
    `?`. The function is marked `stencil.mpi`, and
    `convert-stencil-to-loops` then lowers its `stencil.exchange` ops to
    halo exchanges instead of the identity.

    A time loop whose schedule has `exchange_depth` k > 1 (seed 001's deep
    halo) gets every field its applies read exchanged k x radius deep, so
    that the lowering can exchange once every k steps and compute the
    redundant ring in between.

    All runtime calls take i64 arguments (runtime/mpi/stencil_mpi.h).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

#endif // STENCIL_CONVERSION_PASSES_TD

//===- Passes.td - Stencil-to-stencil transformations ------*- tablegen -*-===//
//
// Passes that rewrite stencil IR into stencil IR: the result still runs on
// every backend.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCIL_TRANSFORMS_PASSES_TD
#define STENCIL_DIALECT_STENCIL_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

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
    distributed axes and fixes each rank's block (sized by a time loop's
    `stencil.device_split`, passed with `stencil_mpi_split`, where
    `stencil-tune-split` left one); every array gets a local
    buffer of block plus halo, filled from the global array that every rank
    holds; loads read it; stores write it and are followed by a gather that
    makes the global array whole on every rank; grids are clipped to the
    block in local coordinates; distributed extents of field types become
    `?`. The function is marked `stencil.mpi`, and
    `convert-stencil-to-loops` or `convert-stencil-to-gpu` then lowers its
    `stencil.exchange` ops to
    halo exchanges instead of the identity.

    A time loop whose schedule has `exchange_depth` k > 1 (seed 001's deep
    halo) gets every field its applies read exchanged k x radius deep, so
    that the lowering can exchange once every k steps and compute the
    redundant ring in between.

    All runtime calls take i64 arguments (runtime/mpi/stencil_mpi.h).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

def StencilAllowContraction : Pass<"stencil-allow-contraction"> {
  let summary = "Let float multiplies and adds fuse (-ffp-contract=fast)";
  let description = [{
    Adds the `contract` fast-math flag to every `arith` operation that takes
    fast-math flags (`addf`, `subf`, `mulf`, `divf`, `negf`, ...) in the
    operation it runs on, apply bodies and the code around them alike:
    what `clang -ffp-contract=fast` does to a translation unit; flags an
    operation has stay. LLVM may then fuse a multiply and the add or
    subtract that uses it into one fused multiply-add, rounded once, on
    every backend that lowers through LLVM (CPU, CUDA, ROCm). Results then
    differ from C compiled without contraction in the last bits; without
    this pass the regions compute exactly what C does. SPIR-V has no such
    permission: Vulkan kernels keep `NoContraction` on every float
    operation (`stencil-spirv-no-contraction`). The `stencil-to-cpu` and
    `stencil-to-gpu` pipelines run it right after the stencil lowering
    with `allow-contraction`, so that the operations the lowering creates
    (a reduction's accumulation) are covered; `stencilcc` sets that where
    clang compiles the host code with `-ffp-contract=fast`
    (docs/stencilcc.md, "Floating-point contraction").
  }];
}

#endif // STENCIL_DIALECT_STENCIL_TRANSFORMS_PASSES_TD

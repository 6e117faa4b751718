//===- StencilBase.td - Stencil dialect definition ---------*- tablegen -*-===//
//
// The `stencil` dialect: grid, field, apply, exchange and time loop.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCIL_IR_STENCILBASE_TD
#define STENCIL_DIALECT_STENCIL_IR_STENCILBASE_TD

include "mlir/IR/OpBase.td"

def Stencil_Dialect : Dialect {
  let name = "stencil";
  let cppNamespace = "::mlir::stencil";
  let summary = "Structured stencil computations over 1-D to 3-D grids";
  let description = [{
    The `stencil` dialect models the time-stepped stencil loops of scientific
    codes in the terms of seed 000 §3.4: a *computational grid* (the iteration
    domain, `stencil.grid`), *computational fields* (`!stencil.field`) and a
    *stencil function* (`stencil.apply`, whose body reads fields through
    `stencil.access` at constant offsets from the current point).

    Fields are SSA values with value semantics, like tensors: an apply does not
    mutate its output in place but yields a new field equal to the output
    operand outside the grid and to the computed values on it (destination
    passing style). This makes the boundary ("halo") of every field well
    defined without aliasing analysis, lets the time loop (`stencil.iterate`)
    carry fields from step to step — including the explicit source/destination
    swap of seed 000 Fig. 4 — and leaves the choice of buffers, double
    buffering and in-place updates to the lowering passes.

    Fields enter and leave the dialect through `stencil.load` and
    `stencil.store` on memrefs. Distributed fields carry a decomposition in
    their type; `stencil.exchange` refreshes their halo across ranks. Tuning
    passes record their choices in `#stencil.schedule` attributes that the
    lowering passes read.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;

  // Attributes passes leave on ops they do not own (func.func) or that
  // later passes read. Each has a generated helper, e.g.
  // `StencilDialect::MpiAttrHelper(ctx).isAttrPresent(func)`, and
  // verifyOperationAttribute checks where it sits and what it holds.
  let discardableAttrs = (ins
    // On a function: `stencil-distribute` made it the part one MPI rank
    // runs on its block, so its `stencil.exchange` ops communicate.
    "::mlir::UnitAttr":$mpi,
    // On a function: the largest step count the program's time loop
    // expects (`#pragma stencil step(t:MAX)`), for the tuning models.
    "::mlir::IntegerAttr":$max_steps,
    // On a `stencil.iterate`: points of the outermost axis per device,
    // in device order (`stencil-tune-split`, seed 002 §4.2).
    "::mlir::DenseI64ArrayAttr":$device_split,
    // On a `stencil.iterate`: per device, its local work size over the
    // grid's axes, outermost first (seed 002 §4.3).
    "::mlir::ArrayAttr":$local_sizes,
    // On a memref argument of a function: the array is resident in the
    // distribution (`distribute(...) resident`). `stencil-distribute`
    // allocates its rank's block zero-filled instead of scattering it from
    // a global array, and gathers nothing back: the caller passes no array.
    "::mlir::UnitAttr":$resident
  );
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
}

class Stencil_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stencil_Dialect, mnemonic, traits>;

#endif // STENCIL_DIALECT_STENCIL_IR_STENCILBASE_TD

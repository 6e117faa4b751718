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
}

class Stencil_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stencil_Dialect, mnemonic, traits>;

#endif // STENCIL_DIALECT_STENCIL_IR_STENCILBASE_TD

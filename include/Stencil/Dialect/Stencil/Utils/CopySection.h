//===- CopySection.h - The calc/copy form of a time loop --------*- C++ -*-===//
//
// Seed 000 Fig. 4 writes a time step as a calc section into destination
// arrays and a copy section back into the sources. Lowerings run that form
// as a pointer swap and block it in time; the tuner models it. Both ask
// here whether a stencil.iterate has it.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCIL_UTILS_COPYSECTION_H
#define STENCIL_DIALECT_STENCIL_UTILS_COPYSECTION_H

#include "Stencil/Dialect/Stencil/IR/StencilOps.h"

#include <optional>

namespace mlir::stencil {

/// The copy form of seed 000 Fig. 4 inside a time loop: the halo exchanges
/// of the sources the calc reads (distributed functions), a calc apply that
/// writes destinations, then an apply that copies each destination into a
/// source at the loop point on the same grid, and a yield of the copies at
/// the sources' positions and the calc results at the destinations'. The
/// loop may carry scalars too, each the result of one of the calc's
/// reductions.
struct CopySection {
  SmallVector<ExchangeOp> exchanges;
  ApplyOp calc;
  ApplyOp copy;
  /// (source iter_arg index, destination iter_arg index) per copied pair.
  SmallVector<std::pair<unsigned, unsigned>> pairs;
  /// The iter_arg indices of the carried scalars, in order.
  SmallVector<unsigned> scalars;

  /// How many steps the halos of the exchanges last: the calc reads r cells
  /// across a distributed axis and an exchange brings w, so w / r steps can
  /// run (growing into the neighbours' points) before the next exchange.
  /// The least over the exchanges and their distributed axes; INT64_MAX
  /// when no exchange is needed.
  int64_t getExchangedSteps() const;
};

/// The copy section of `iterate`, if its body has that form.
std::optional<CopySection> matchCopySection(IterateOp iterate);

} // namespace mlir::stencil

#endif // STENCIL_DIALECT_STENCIL_UTILS_COPYSECTION_H

//===- SweepChain.h - Time steps of several sweeps in a chain ---*- C++ -*-===//
//
// PolyBench's jacobi-1d/2d and heat-3d, Physis's two-map runs and seed
// 004's Fig. 5 write a time step as several sweeps, each computing new
// arrays from what the sweep before it wrote: B from A, then A from B.
// Such a step is a chain of stages that a time block pipelines like the
// steps of the copy form (seed 000 Fig. 3), one level per stage; the
// lowerings block it and the tuner models it. Both ask here whether a
// stencil.iterate has that form.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCIL_UTILS_SWEEPCHAIN_H
#define STENCIL_DIALECT_STENCIL_UTILS_SWEEPCHAIN_H

#include "Stencil/Dialect/Stencil/IR/StencilOps.h"

#include <optional>
#include <string>

namespace mlir::stencil {

/// A time step of K >= 2 applies on one grid, run in order, where apply k
/// reads, of the fields the loop changes, only what apply k - 1 wrote in
/// this step (apply 0: what apply K - 1 wrote in the step before), and
/// writes fields of its own, carried in place (each output is an iter_arg,
/// yielded at its position). Every other field it reads is unchanged by
/// the loop. The loop carries fields only, no apply reduces, and the other
/// ops of the step compute the same values in every step.
struct SweepChain {
  struct Stage {
    ApplyOp apply;
    /// Per output: the iter_arg index of the field it writes.
    SmallVector<unsigned> carried;
    /// Per input: the output of the stage before that it reads, or -1 (a
    /// scalar, or a field the loop does not change).
    SmallVector<int> previousOutput;
  };
  SmallVector<Stage> stages;
  /// The step's other ops, in order: pure, and computed from values
  /// defined before the loop (the constants and grids of the sweeps),
  /// which the loop could compute once before its first step.
  SmallVector<Operation *> invariantOps;
};

/// The sweep chain of `iterate`, if its body has that form; otherwise, when
/// `whyNot` is given and the body has several applies, a sentence saying
/// what breaks the form. Halo exchanges between the sweeps break it, unless
/// `exchangesAreIdentity` (the function runs as one process, where the
/// lowering drops them): the sweeps then read through them.
std::optional<SweepChain> matchSweepChain(IterateOp iterate,
                                          std::string *whyNot = nullptr,
                                          bool exchangesAreIdentity = false);

} // namespace mlir::stencil

#endif // STENCIL_DIALECT_STENCIL_UTILS_SWEEPCHAIN_H

//===- Shape.h - Shapes in messages ----------------------------*- C++ -*-===//
//
// Every message that prints a shape (a work group, a tile, a process grid)
// goes through formatShape, with the axis order its reader expects:
//
// - anything stated in the IR's axes — verifier and lowering diagnostics,
//   the tuning remarks' process grids — lists axes outermost first, as the
//   IR and its attributes do (`#stencil.schedule<wg = [32, 64]>` prints as
//   `[32, 64]`);
// - shapes in the seeds' notation, innermost axis (x) first — a work group
//   (W, H, D) as stencilcc's `--schedule=wg=WxHxD` takes it, seed 002's
//   local work sizes — are joined by `x` (`64x32`).
//
// The two notations differ on sight, so a reader never has to guess.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_SHAPE_H
#define STENCIL_SUPPORT_SHAPE_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace mlir::stencil {

enum class AxisOrder {
  /// `[a, b, c]`, outermost axis first: IR diagnostics.
  OutermostFirst,
  /// `cxbxa`, innermost axis first: the seed's (W, H, D) notation.
  InnermostFirst,
};

/// `shape`, given outermost axis first as in the IR, in `order`.
std::string formatShape(llvm::ArrayRef<int64_t> shape, AxisOrder order);

} // namespace mlir::stencil

#endif // STENCIL_SUPPORT_SHAPE_H

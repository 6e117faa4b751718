//===- StencilToLoops.h - The host backend of the lowering ------*- C++ -*-===//
//
// Buffers in host memory, boxes of points as tiled scf.parallel loops (which
// convert-scf-to-openmp runs on all cores), time blocks as overlapped tiles
// (1-D) or pipelined row sweeps (2-D, 3-D). `convert-stencil-to-loops`
// lowers with it; another pass can too, through lowerFunction
// (StencilCommon/LoweringBackend.h).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILTOLOOPS_STENCILTOLOOPS_H
#define STENCIL_CONVERSION_STENCILTOLOOPS_STENCILTOLOOPS_H

#include "Stencil/Conversion/StencilCommon/LoweringBackend.h"

#include <memory>

namespace mlir::stencil {

struct HostLoweringOptions {
  /// The tile of applies without a schedule, outermost axis first (0: the
  /// whole axis); missing entries count from the innermost axis.
  SmallVector<int64_t, 3> defaultTile;
  /// How far ahead, in bytes along a tile's rows, sweeps of 2-D and 3-D
  /// grids prefetch their rows (0: no software prefetch).
  int64_t prefetchDistance = 0;
};

std::unique_ptr<LoweringBackend>
createHostLoweringBackend(const HostLoweringOptions &options);

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_STENCILTOLOOPS_STENCILTOLOOPS_H

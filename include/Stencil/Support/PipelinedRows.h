//===- PipelinedRows.h - The shape of pipelined time blocks -----*- C++ -*-===//
//
// The CPU backend runs time blocks on 2-D and 3-D grids as pipelined row
// sweeps (lib/Conversion/StencilToLoops/PipelinedTimeBlock.cpp); the tuner
// sizes them (lib/Tuning/TuneWorkGroup.cpp). Both read the scheme's shape
// from here, so that the rings the tuner counts are the rings the lowering
// allocates.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_PIPELINEDROWS_H
#define STENCIL_SUPPORT_PIPELINEDROWS_H

#include <cstdint>

namespace mlir::stencil {

/// Rows (slices along the outermost axis) each level of a block computes
/// per wave. Two on 2-D grids: the next level then starts on rows whose
/// neighbours are still in registers and L1, which ran heat2d 2048^2 10-20%
/// faster than one row (docs/Tuning.md, "Rows per wave"); three were no
/// faster, and planes of 3-D grids gained nothing from two.
inline int64_t getPipelinedRowsPerWave(unsigned rank) {
  return rank == 2 ? 2 : 1;
}

/// Rows of each ring: a level reads the rows of the level before from
/// `radiusLow` below its first row of a wave to `radiusHigh` above its last.
inline int64_t getPipelinedRingRows(unsigned rank, int64_t radiusLow,
                                    int64_t radiusHigh) {
  return radiusLow + radiusHigh + getPipelinedRowsPerWave(rank);
}

/// How far ahead of the rows it reads or writes a block's first level asks
/// for a row of the sources, and its last level for one of the
/// destinations: software prefetches, issued where a tile's rows are
/// pieces of the grid's, which the hardware prefetcher does not follow.
/// A source is asked for the row after the one the next wave reads first
/// (radiusHigh + 2 past the wave's row), so the rows of the two waves ahead
/// sit in the cache beside the rings; a destination for the next wave's
/// row.
inline int64_t getPipelinedRowsAhead(bool isWrite) { return isWrite ? 1 : 2; }

} // namespace mlir::stencil

#endif // STENCIL_SUPPORT_PIPELINEDROWS_H

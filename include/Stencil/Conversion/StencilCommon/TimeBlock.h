//===- TimeBlock.h - Several steps of a copy-form loop at once --*- C++ -*-===//
//
// A block of T steps of a time loop (seed 000 Fig. 3), in levels: one per
// step of the copy form, one per sweep of a sweep chain. A level reads what
// the level before it wrote, which a block keeps in private buffers, rings
// of rows or workgroup memory instead of the arrays.
// The backends emit the blocks their own way (StencilToLoops: pipelined
// rows and overlapped tiles; StencilToGPU: tiles in workgroup memory); this
// header has what they share: the block's buffers, the body at one point
// of a step, and the index arithmetic of an overlapped tile.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILCOMMON_TIMEBLOCK_H
#define STENCIL_CONVERSION_STENCILCOMMON_TIMEBLOCK_H

#include "Stencil/Conversion/StencilCommon/BufferPlan.h"
#include "Stencil/Conversion/StencilCommon/PointLowering.h"

namespace mlir::stencil {

/// One block of `plan.timeBlock` steps on buffers.
struct TimeBlock {
  const TimeBlockPlan &plan;
  /// The time loop's schedule.
  ScheduleAttr schedule;
  /// Per carried pair: the buffer the first level reads, and the buffer the
  /// last level writes.
  ValueRange sources, destinations;
  /// The buffer of input `input` of stage `stage` that is not carried
  /// (read-only).
  function_ref<Value(unsigned stage, unsigned input)> inputBuffer;
  /// A buffer whose cells outside the grid (its ring) are those of the
  /// field that stage `stage` writes as pair `pair`: what the next level
  /// reads there. The sources in the copy form, whose destinations' rings
  /// the swap loop aligned with them.
  function_ref<Value(unsigned stage, unsigned pair)> ringHolder;
  /// In a function stencil-distribute made one rank's part: per axis, how
  /// many cells of the neighbours' points below and above the grid the
  /// block's steps may compute (stencil_mpi_ring; a null value where the
  /// axis is not distributed). Empty elsewhere. A step `shrink` steps
  /// before the block's last computes the grid grown by shrink x radius
  /// along these axes, as far as the ring reaches, so that the later steps
  /// find the neighbours' values they read; the halo exchanged before the
  /// block is at least T x radius deep.
  ValueRange ringLow, ringHigh;
  /// An i1 that holds where this block runs the time loop's last step, on a
  /// backend that storesFinalState (the copy form only): the block then
  /// also writes its last step's values into `sources`, leaving both fields
  /// of every pair as the C program's last copy leaves them, and the loop
  /// copies nothing after it. Null elsewhere.
  Value finalStore;
  /// The kinds of the calc's reductions, where the block computes them in
  /// its last level (LoweringBackend::reducesInTimeBlocks). Empty where the
  /// block skips them.
  ArrayRef<ReductionKind> reductions;
  /// With `reductions`: an i1 that holds where this block runs the loop's
  /// last step, whose reductions alone matter. Elsewhere the block may skip
  /// them and return their identities.
  Value reductionsMatter;
  /// On a backend that comparesRowEnds (the copy form only): an i1 that
  /// holds where this block, the loop's first, compares the ends of the
  /// grid's rows (RingCells::RowEnds) in `destinations` and `sources` as
  /// its last level writes those rows, and per carried pair a memref<i8>
  /// in host memory that the block sets to 1 where a cell of them differs
  /// in any bit. The swap loop aligns the rings after this block, which
  /// reads no destination's ring. Null and empty elsewhere.
  Value comparesRowEnds;
  ArrayRef<Value> rowEndFlags;
};

/// The lower grid bound `lower` of a distributed time block grown by
/// `shrink` x `radius` cells, at most `ring` (TimeBlock::ringLow); `lower`
/// where `ring` is null.
Value growLowerBound(OpBuilder &builder, Location loc, Value lower,
                     Value shrink, int64_t radius, Value ring);
/// The same for an upper bound (TimeBlock::ringHigh).
Value growUpperBound(OpBuilder &builder, Location loc, Value upper,
                     Value shrink, int64_t radius, Value ring);

/// Where a step of a time block reads carried pair `pair` at `at` (the
/// point plus `offset`), and where it writes its value of pair `pair` at the
/// point.
using CarriedLoadFn =
    function_ref<Value(OpBuilder &, Location, unsigned pair, ValueRange at,
                       ArrayRef<int64_t> offset)>;
using CarriedStoreFn =
    function_ref<void(OpBuilder &, Location, unsigned pair, Value value)>;

/// emitPoint for one level of `block`, a level of stage `stage`: inputs
/// that are not carried are read through `uncarriedLoad` (default: a
/// scalar load of the input's buffer), carried ones through `load`, and
/// each output goes to `store` of the pair it writes; `scalar`, `clone`
/// and `reduce` are emitPoint's.
void emitTimeBlockPoint(OpBuilder &builder, Location loc,
                        const TimeBlock &block, unsigned stage,
                        ValueRange point, CarriedLoadFn load,
                        CarriedStoreFn store, ScalarFn scalar = nullptr,
                        CloneFn clone = nullptr, LoadFn uncarriedLoad = nullptr,
                        ReduceFn reduce = nullptr);

/// The index arithmetic of one overlapped tile of a time block (seed 000
/// Fig. 3), shared by the host's 1-D tiles and the device's work groups.
class OverlappedTile {
public:
  /// The grid bound `bound` of the plan where the tile is emitted.
  using BoundFn = function_ref<Value(OpBuilder &, Location, OpFoldResult)>;

  /// The tile of `tile` points starting at `origin`; `arraySizes` bound
  /// what it loads; the grid's bounds come from `bound`. In a distributed
  /// function the steps compute into the neighbours' points as far as
  /// `ringLow` / `ringHigh` reach (TimeBlock's, where the tile is emitted).
  OverlappedTile(OpBuilder &builder, Location loc, const TimeBlockPlan &plan,
                 ArrayRef<int64_t> tile, ValueRange origin,
                 ValueRange arraySizes, BoundFn bound, ValueRange ringLow = {},
                 ValueRange ringHigh = {});
  /// The shape of a tile's private buffers: the tile plus levels x radius
  /// around.
  static SmallVector<int64_t, 3> getShape(const TimeBlockPlan &plan,
                                          ArrayRef<int64_t> tile);
  /// The tile's own points: [origin, end), within the grid.
  ValueRange getOrigin() const { return origin; }
  ValueRange getEnd() const { return end; }
  /// What the tile loads: its points and levels x radius around, within
  /// the arrays.
  ValueRange getLoadLow() const { return loadLow; }
  ValueRange getLoadHigh() const { return loadHigh; }
  /// The box level `level` (from 0) computes: the tile grown by (levels -
  /// 1 - level) x radius, within the grid (grown as far into the
  /// neighbours' points in a distributed function).
  void getLevelBox(OpBuilder &builder, int64_t level,
                   SmallVectorImpl<Value> &from,
                   SmallVectorImpl<Value> &to) const;
  /// The same for a level known at run time (a loop over the levels).
  void getLevelBox(OpBuilder &builder, Value level,
                   SmallVectorImpl<Value> &from,
                   SmallVectorImpl<Value> &to) const;
  /// `global` as an index into the private buffers.
  SmallVector<Value, 3> toLocal(OpBuilder &builder, Location loc,
                                ValueRange global) const;

private:
  Location loc;
  const TimeBlockPlan &plan;
  SmallVector<Value, 3> lower, upper, origin, end, base, loadLow, loadHigh;
  SmallVector<Value, 3> ringLow, ringHigh;
};

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_STENCILCOMMON_TIMEBLOCK_H

//===- PipelinedTimeBlock.cpp - time blocks as pipelined row sweeps -------===//
//
// A block of T steps of the copy-form loop on the host, for grids of two or
// more axes. Each tile sweeps its rows (slices along the outermost axis) once
// and computes all T steps in the same sweep: while step 1 computes rows w
// .. w + R - 1, step 2 computes rows w - r .., step 3 rows w - 2r .., ...
// (r: the forward radius along the outermost axis; R: the rows per wave,
// PipelinedRows.h). A step keeps only the r_low + r_high + R rows of its
// results that the next step still reads, in a small ring buffer, so the
// working set is (T - 1) x (r_low + r_high + R) rows per tile instead of
// the whole tile, and no tile is copied in. Tiles overlap only along the
// inner axes, by (T - s) x radius at step s (seed 000 Fig. 3); tiles that
// span the inner axes, the usual choice on CPUs, compute nothing twice but
// the (T - s) x radius rows each band recomputes at its two ends.
//
// A calc's reductions are computed in the last level of the block that
// runs the loop's last step: each row's vectors accumulate lane by lane,
// the row's lanes then go to the tile's running value, and the tiles'
// values are combined in tile order after them, so the result depends on
// the schedule only, not on the threads.
//
//===----------------------------------------------------------------------===//

#include "HostLowering.h"

#include "Stencil/Support/PipelinedRows.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::host;

namespace {

/// Which of the T steps a level is: the first reads the sources, the last
/// writes the destinations, the others read and write ring buffers.
enum class Level { First, Middle, Last };

class PipelinedTimeBlock {
public:
  PipelinedTimeBlock(OpBuilder &builder, Location loc, const TimeBlock &block,
                     Value depth)
      : loc(loc), block(block), plan(block.plan), depth(depth), tile(plan.tile),
        inputBuffer(block.inputBuffer), rank(plan.lower.size()),
        radiusLow(plan.radiusLow), radiusHigh(plan.radiusHigh) {
    rowsPerWave = getPipelinedRowsPerWave(rank);
    slots = getPipelinedRingRows(rank, radiusLow[0], radiusHigh[0]);
    for (Value source : block.sources)
      rowAlignment = std::max(
          rowAlignment,
          getElementsPerLine(llvm::cast<MemRefType>(source.getType())));
    // Run-time extents may be wider than any tile.
    for (unsigned axis = 1; axis < rank; ++axis) {
      std::optional<int64_t> extent = plan.getStaticExtent(axis);
      spansInnerAxes &= extent && tile[axis] >= *extent;
    }
    planVectorRows();
    alignsToDestination =
        maskEnds &&
        llvm::all_of(
            llvm::concat<const Value>(block.sources, block.destinations),
            [&](Value buffer) { return hasLineRows(buffer); });
    for (unsigned axis = 0; axis < rank; ++axis) {
      lower.push_back(
          getValueOrCreateConstantIndexOp(builder, loc, plan.lower[axis]));
      upper.push_back(
          getValueOrCreateConstantIndexOp(builder, loc, plan.upper[axis]));
    }
    stages = plan.getNumStages();
    if (!block.reductions.empty()) {
      ApplyOp calc = plan.stages.front().calc;
      for (Value init : calc.getReduceInits())
        reductionTypes.push_back(init.getType());
    }
    levels = stages == 1 ? depth
                         : arith::MulIOp::create(builder, loc, depth,
                                                 constant(builder, stages))
                               .getResult();
  }

  /// Emits the block; returns its reductions (TimeBlock::reductions).
  SmallVector<Value> emit(OpBuilder &builder);

private:
  /// Whether `buffer` is a row-major array of `rowAlignment`-point lines
  /// whose rows are whole lines: a column then begins the same place of a
  /// line in every row.
  bool hasLineRows(Value buffer) const {
    auto type = llvm::cast<MemRefType>(buffer.getType());
    return type.getLayout().isIdentity() &&
           !type.isDynamicDim(type.getRank() - 1) &&
           getElementsPerLine(type) == rowAlignment &&
           type.getDimSize(type.getRank() - 1) % rowAlignment == 0;
  }

  Value constant(OpBuilder &b, int64_t value) const {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value add(OpBuilder &b, Value x, Value y) const {
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value sub(OpBuilder &b, Value x, Value y) const {
    return arith::SubIOp::create(b, loc, x, y);
  }
  Value mul(OpBuilder &b, Value x, int64_t y) const {
    return arith::MulIOp::create(b, loc, x, constant(b, y));
  }
  /// `bound` + `offset`, a constant when the bound is one.
  Value offsetBound(OpBuilder &b, OpFoldResult bound, int64_t offset) const {
    if (std::optional<int64_t> value = getConstantIntValue(bound))
      return constant(b, *value + offset);
    return add(b, llvm::cast<Value>(bound), constant(b, offset));
  }
  Value inRange(OpBuilder &b, Value x, Value from, Value to) const {
    Value atLeast =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, x, from);
    Value below =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, to);
    return arith::AndIOp::create(b, loc, atLeast, below);
  }

  /// Whether the levels compute into the neighbours' points along `axis`
  /// (a distributed block, TimeBlock::ringLow).
  bool grows(unsigned axis) const {
    return !block.ringLow.empty() && block.ringLow[axis];
  }
  /// The grid along `axis` of the level at `shrink` = L - s: the grid,
  /// grown by shrink x radius into the neighbours' points where it grows.
  Value getGridLow(OpBuilder &b, unsigned axis, Value shrink) const {
    return growLowerBound(b, loc, lower[axis], shrink, radiusLow[axis],
                          grows(axis) ? block.ringLow[axis] : Value());
  }
  Value getGridHigh(OpBuilder &b, unsigned axis, Value shrink) const {
    return growUpperBound(b, loc, upper[axis], shrink, radiusHigh[axis],
                          grows(axis) ? block.ringHigh[axis] : Value());
  }

  /// The box of level `s` (at `shrink` = L - s) that the next level reads
  /// along `axis`: the tile grown by shrink x radius, within the next
  /// level's grid plus its radius-deep ring.
  std::pair<Value, Value> getReadRange(OpBuilder &b, unsigned axis,
                                       Value shrink) const {
    Value grownLow = sub(b, origin[axis], mul(b, shrink, radiusLow[axis]));
    Value gridLow, gridHigh;
    if (grows(axis)) {
      // One op per statement: IR built in one call's arguments would come
      // in an order that depends on the compiler.
      Value next = sub(b, shrink, constant(b, 1));
      Value nextLow = getGridLow(b, axis, next);
      gridLow = sub(b, nextLow, constant(b, radiusLow[axis]));
      Value nextHigh = getGridHigh(b, axis, next);
      gridHigh = add(b, nextHigh, constant(b, radiusHigh[axis]));
    }
    Value low = arith::MaxSIOp::create(
        b, loc, grownLow,
        gridLow ? gridLow : offsetBound(b, plan.lower[axis], -radiusLow[axis]));
    Value grownHigh = add(b, tileEnd[axis], mul(b, shrink, radiusHigh[axis]));
    Value high = arith::MinSIOp::create(
        b, loc, grownHigh,
        gridHigh ? gridHigh
                 : offsetBound(b, plan.upper[axis], radiusHigh[axis]));
    return {low, high};
  }

  /// The ring indices of the row `outer` (a point's indices but the
  /// innermost) of level `levelIndex` (s - 1), at ring column `column`: the
  /// row's slot, then the offsets from the tile's ring origin.
  SmallVector<Value, 4> getRingIndicesAtColumn(OpBuilder &b, Value levelIndex,
                                               ValueRange outer,
                                               Value column) const {
    SmallVector<Value, 4> indices{
        levelIndex,
        arith::RemUIOp::create(b, loc, outer[0], constant(b, slots))};
    for (unsigned axis = 1; axis + 1 < rank; ++axis)
      indices.push_back(sub(b, outer[axis], ringOrigin[axis - 1]));
    indices.push_back(column);
    return indices;
  }
  /// The ring indices of `point` in level `levelIndex`.
  SmallVector<Value, 4> getRingIndices(OpBuilder &b, Value levelIndex,
                                       ValueRange point) const {
    return getRingIndicesAtColumn(b, levelIndex, point.drop_back(),
                                  sub(b, point.back(), ringOrigin.back()));
  }
  /// Where level `level` reads carried pair `pair` at `at` (the previous
  /// level's ring at `readIndex`, or the source), and where it writes its
  /// value at `point` (its ring at `levelIndex`, or the destination).
  std::pair<Value, SmallVector<Value, 4>>
  getReadTarget(OpBuilder &b, Level level, Value readIndex, unsigned pair,
                ValueRange at) const {
    if (level == Level::First)
      return {block.sources[pair], SmallVector<Value, 4>(at)};
    return {rings[pair], getRingIndices(b, readIndex, at)};
  }
  std::pair<Value, SmallVector<Value, 4>>
  getWriteTarget(OpBuilder &b, Level level, Value levelIndex, unsigned pair,
                 ValueRange point) const {
    if (level == Level::Last)
      return {block.destinations[pair], SmallVector<Value, 4>(point)};
    return {rings[pair], getRingIndices(b, levelIndex, point)};
  }
  /// A vector of `lanes` elements of carried pair `pair`.
  VectorType getRingVectorType(unsigned pair) const {
    return VectorType::get(
        {lanes},
        llvm::cast<MemRefType>(rings[pair].getType()).getElementType());
  }

  void planVectorRows();
  void emitVectorRow(OpBuilder &b, ValueRange outer, Value from, Value to,
                     Level level, unsigned stage, Value levelIndex,
                     Value readIndex, PointFn scalarPoint);
  /// The points of the vector at `column` (its lanes that `mask` enables,
  /// all without a mask). Where the level reduces, returns per reduction
  /// the lanes' contributions, the identity in lanes the mask disables.
  SmallVector<Value> emitVectorPoints(OpBuilder &b, ValueRange outer,
                                      Value column, Value mask, Level level,
                                      unsigned stage, Value levelIndex,
                                      Value readIndex, ArrayRef<Value> window);

  /// Whether `level` computes the calc's reductions: the last, in the rows
  /// emitted for the block that runs the loop's last step.
  bool reducesAt(Level level) const {
    return level == Level::Last && reducingRows;
  }
  /// Combines `value` into the current tile's running value of reduction
  /// `reduction`: a scalar, or a vector whose lanes are combined first.
  void accumulate(OpBuilder &b, unsigned reduction, Value value);
  /// At a tile's start: its slot among the tiles, set to the identities.
  void beginTileReductions(OpBuilder &b);

  /// Where the tile's ring rows start along the innermost axis, given the
  /// first column any level reads there (needs `origin`).
  Value getRingRowOrigin(OpBuilder &b, Value firstRead);
  /// One ring per carried pair, of `count` levels (L - 1, or one more).
  SmallVector<Value> allocateRings(OpBuilder &b, Value count);
  /// Whether `level` asks for a later row of the sources (the first) or of
  /// the destinations (the last), and which buffers those are.
  bool prefetchesRows(Level level) const {
    return !spansInnerAxes && (level == Level::First || level == Level::Last);
  }
  ValueRange getPrefetchedBuffers(Level level) const {
    return level == Level::Last ? ValueRange(block.destinations)
                                : ValueRange(block.sources);
  }
  /// The row of `buffer` asked for at row `row` (along the outermost
  /// axis): PipelinedRows.h's rows ahead, past the reach for a source, and
  /// at most the array's last row.
  Value getLaterRow(OpBuilder &b, Value buffer, Value row, bool isWrite) const;
  /// `row` along `axis`, at most the last index `buffer` holds there.
  Value clampToLastRow(OpBuilder &b, Value buffer, unsigned axis,
                       Value row) const;
  /// Prefetches of a later row than `row`: the box [from, to) of the inner
  /// axes.
  void prefetchNextRow(OpBuilder &b, ValueRange buffers, Value row,
                       ValueRange from, ValueRange to, bool isWrite);
  /// A row that a vector row asks for a line of with each vector: the
  /// buffer, the row's indices but the innermost, and the offset from the
  /// vector's first column.
  struct PrefetchedRow {
    Value buffer;
    SmallVector<Value, 3> row;
    int64_t columnOffset;
  };
  /// The rows each of the stage's read-only streams (inputStreams) reads
  /// next, for the vector row `outer`.
  SmallVector<PrefetchedRow> getNextInputRows(OpBuilder &b, ValueRange outer,
                                              unsigned stage) const;

  /// Level `s` (from 1), of stage `stage`, in wave `wave`: its
  /// `rowsPerWave` rows.
  void emitLevel(OpBuilder &b, Value wave, Value s, Level level,
                 unsigned stage);
  /// Row `row` of level `s`, where the level needs it.
  void emitLevelRow(OpBuilder &b, Value row, Value s, Level level,
                    unsigned stage);
  /// The levels of step `step` (from 1) in wave `wave`: the first of all
  /// and the last of all where `first` and `last` say so.
  void emitStep(OpBuilder &b, Value wave, Value step, bool first, bool last);
  void emitRow(OpBuilder &b, Value row, Value s, Level level, unsigned stage);
  /// Copies the box [from, to) of the fields that stage `stage` writes
  /// into the rings at `levelIndex`.
  void copyBoxToRing(OpBuilder &b, Value levelIndex, unsigned stage,
                     ValueRange from, ValueRange to);
  /// The last step's row `row`, which the last level has just written into
  /// the destinations: into the sources too, within the box that no other
  /// tile reads (finalLow, finalHigh), when the block stores the final
  /// state.
  void storeFinalRow(OpBuilder &b, Value row);
  /// Where the block compares the row ends (TimeBlock::comparesRowEnds):
  /// those of the rows of the tile at `row` (along the outermost axis),
  /// which the last level has just written, in the destinations and the
  /// sources; the tiles at the grid's ends along the innermost axis compare
  /// the cells beyond it there.
  void compareRowEnds(OpBuilder &b, Value row);
  /// After all tiles, when the block stores the final state: the points
  /// that other tiles' first levels read, the slabs around the tiles'
  /// inner boundaries, copied from the destinations into the sources, but
  /// for what the tiles stored themselves (SlabStored).
  void copyFinalSlabs(OpBuilder &b);
  /// The one axis along which tiles may split the grid, where they span
  /// every other.
  std::optional<unsigned> getSplitAxis() const;
  /// Where the block stores the final state along splitAxis: the tiles'
  /// flags, cleared (before the tiles).
  void createTileFlags(OpBuilder &b);
  /// What a tile stored of the slab around its lower boundary: nothing,
  /// its own points that the tile below reads, or those and the tile
  /// below's that it reads itself (only along an axis but the outermost:
  /// the last level stores the rows of the tile's own band).
  enum SlabStored : int8_t { None = 0, Low = 1, LowAndBelow = 2 };
  /// In a tile: where the tile stores the final state from along
  /// splitAxis, its origin or below it where the tile below has finished,
  /// and records which.
  Value getFinalLowAlongSplit(OpBuilder &b, Value hasBelow, Value above);

  Location loc;
  const TimeBlock &block;
  const TimeBlockPlan &plan;
  /// The number of steps, T (or fewer in a shallower block), the stages of
  /// a step, and the levels, L = T x stages.
  Value depth;
  unsigned stages = 1;
  Value levels;
  ArrayRef<int64_t> tile;
  function_ref<Value(unsigned stage, unsigned input)> inputBuffer;
  unsigned rank;
  /// How far the calc reads the carried fields below and above a point.
  ArrayRef<int64_t> radiusLow, radiusHigh;
  /// Rows of each level per wave, and rows of each ring: a level reads
  /// the rows of the level before from r_low below its first row to
  /// r_high above its last.
  int64_t rowsPerWave = 1;
  int64_t slots;
  SmallVector<Value, 3> lower, upper;
  /// The tile being emitted: its first point and its end (clipped).
  SmallVector<Value, 3> origin, tileEnd;
  /// Per inner axis: the tile's first point that a ring holds, that of the
  /// widest level (level 1).
  SmallVector<Value, 3> ringOrigin;
  /// Per axis, where the block stores the final state: the tile's points
  /// that no other tile's first level reads, [finalLow, finalHigh), or that
  /// only tiles that have finished read.
  SmallVector<Value, 3> finalLow, finalHigh;
  /// Where the block stores the final state and the tiles split one axis
  /// only (getSplitAxis): that axis, and per tile along it whether it has
  /// finished (its first level reads nothing more) and which of the slab
  /// around its lower boundary it stored itself (SlabStored), which it
  /// does where the tile below had finished when it started: tiles run in
  /// order on each thread. Also whether a tile is tall enough that its
  /// points read by the tile below and those read by the tile above do not
  /// overlap, and the current tile's index along the axis.
  std::optional<unsigned> splitAxis;
  Value tilesDone, slabsStored, tilesHoldBothSlabs, tileIndex;
  /// Where the block compares the row ends: whether the tile reaches the
  /// grid's lower and upper end along the innermost axis.
  Value reachesGridLow, reachesGridHigh;
  /// Ring columns that are multiples of this begin a cache line of the
  /// first destination (alignsToDestination), else the ring column of the
  /// tile's first column is one: a cache line of every ring's elements.
  int64_t rowAlignment = 1;
  /// Whether the ring columns follow the lines of the first destination.
  bool alignsToDestination = false;
  /// Whether each tile spans the grid along every axis but the outermost:
  /// its rows then lie end to end in memory, a stream that the hardware
  /// prefetcher follows on its own.
  bool spansInnerAxes = true;
  /// Per carried pair: results of levels 1 .. L - 1, `slots` rows each.
  SmallVector<Value> rings;
  /// Per reduction, the tiles' running values, a cache line apart so that
  /// no two threads write the same line, and the current tile's slot.
  std::optional<TilePartials> partials;
  Value tileSlot;
  /// Set while the last level's rows that reduce are emitted.
  bool reducingRows = false;
  /// Per reduction, the type of its values.
  SmallVector<Type> reductionTypes;

  /// Vector rows: whether the levels run their rows as vectors of `lanes`
  /// points, and whether their partial vectors at the row ends may be
  /// masked (else they are scalar points).
  bool vectorRows = false;
  bool maskEnds = false;
  int64_t lanes = 1;
  /// A ring row that the accesses of a level read along the innermost axis
  /// at the offsets [low, high]: the vectors of ring columns [c + first x
  /// lanes, c + (last + 1) x lanes) hold them for the vector at column c.
  struct RingStream {
    unsigned pair;
    /// The access's offsets along the axes but the innermost.
    SmallVector<int64_t, 2> outerOffset;
    int64_t first, last;
  };
  /// Per stage.
  SmallVector<SmallVector<RingStream>> streams;
  /// The rows of a read-only field that the accesses of a level read: one
  /// per offset along the outer axes but the last of them, where
  /// `outerOffset` holds the largest offset along that one, and `column`
  /// the smallest along the innermost axis.
  struct InputStream {
    unsigned input;
    SmallVector<int64_t, 2> outerOffset;
    int64_t column;
  };
  /// Per stage.
  SmallVector<SmallVector<InputStream>> inputStreams;
};

} // namespace

void PipelinedTimeBlock::copyBoxToRing(OpBuilder &b, Value levelIndex,
                                       unsigned stage, ValueRange from,
                                       ValueRange to) {
  SmallVector<Value> ones(rank, constant(b, 1));
  scf::buildLoopNest(b, loc, from, to, ones,
                     [&](OpBuilder &nb, Location nl, ValueRange point) {
                       for (auto [pair, ring] : llvm::enumerate(rings)) {
                         Value v = memref::LoadOp::create(
                             nb, nl, block.ringHolder(stage, pair), point);
                         memref::StoreOp::create(
                             nb, nl, v, ring,
                             getRingIndices(nb, levelIndex, point));
                       }
                     });
}

Value PipelinedTimeBlock::getLaterRow(OpBuilder &b, Value buffer, Value row,
                                      bool isWrite) const {
  // The first level reads rows of the sources, and the last writes rows of
  // the destinations, for the first time in the block. Tiles narrower than
  // the grid touch short pieces of rows a whole row apart, which the
  // hardware prefetcher does not follow, so the piece a later wave touches
  // first is requested in software. Sources are asked for the row after
  // the one the next row reads first: on 3-D grids the plane of the wave
  // after next, which then has a whole wave more to arrive. Himeno's
  // thirteen fields ran 5% faster (11 alternated runs, two cores) than
  // with the next row's plane, and no faster a plane further; heat2d,
  // jacobi-2d and heat3d did not change. Past the array's end the last
  // row is asked for again: a prefetch never faults, and a test in the
  // loop would cost more.
  int64_t reach = isWrite ? 0 : radiusHigh[0];
  Value next = add(b, row, constant(b, reach + getPipelinedRowsAhead(isWrite)));
  return clampToLastRow(b, buffer, 0, next);
}

Value PipelinedTimeBlock::clampToLastRow(OpBuilder &b, Value buffer,
                                         unsigned axis, Value row) const {
  auto type = llvm::cast<MemRefType>(buffer.getType());
  Value extent = type.isDynamicDim(axis)
                     ? memref::DimOp::create(b, loc, buffer, axis).getResult()
                     : constant(b, type.getDimSize(axis));
  return arith::MinSIOp::create(b, loc, row, sub(b, extent, constant(b, 1)));
}

void PipelinedTimeBlock::prefetchNextRow(OpBuilder &b, ValueRange buffers,
                                         Value row, ValueRange from,
                                         ValueRange to, bool isWrite) {
  for (Value buffer : buffers) {
    Value later = getLaterRow(b, buffer, row, isWrite);
    prefetchBox(b, loc, buffer, later, from, to, isWrite);
  }
}

void PipelinedTimeBlock::emitRow(OpBuilder &b, Value row, Value s, Level level,
                                 unsigned stage) {
  Value shrink = sub(b, levels, s);
  // Ring index of this level's results and of the level it reads.
  Value levelIndex = sub(b, s, constant(b, 1));
  Value readIndex = sub(b, s, constant(b, 2));
  SmallVector<Value> from{row}, to{add(b, row, constant(b, 1))};
  SmallVector<Value> readFrom{row}, readTo{to[0]};
  for (unsigned axis = 1; axis < rank; ++axis) {
    if (level == Level::Last) {
      from.push_back(origin[axis]);
      to.push_back(tileEnd[axis]);
      continue;
    }
    auto [low, high] = getReadRange(b, axis, shrink);
    readFrom.push_back(low);
    readTo.push_back(high);
    from.push_back(
        arith::MaxSIOp::create(b, loc, low, getGridLow(b, axis, shrink)));
    to.push_back(
        arith::MinSIOp::create(b, loc, high, getGridHigh(b, axis, shrink)));
  }
  SmallVector<Value> ones(rank, constant(b, 1));
  // The first level asks for the pieces of a later row of the sources, the
  // last for those of the destinations: scalar rows all at once here,
  // vector rows a line with each vector (emitVectorRow).
  if (!vectorRows && prefetchesRows(level))
    prefetchNextRow(b, getPrefetchedBuffers(level), row,
                    ArrayRef(from).drop_front(), ArrayRef(to).drop_front(),
                    /*isWrite=*/level == Level::Last);
  // Scalar points combine their contributions into the tile's running
  // values one by one.
  auto reduceIntoTile = [&](OpBuilder &rb, Location, unsigned reduction,
                            Value value) { accumulate(rb, reduction, value); };
  auto emitScalarPoint = [&](OpBuilder &nb, Location nl, ValueRange point) {
    emitTimeBlockPoint(
        nb, nl, block, stage, point,
        [&](OpBuilder &lb, Location ll, unsigned pair, ValueRange at,
            ArrayRef<int64_t>) -> Value {
          auto [buffer, indices] =
              getReadTarget(lb, level, readIndex, pair, at);
          return memref::LoadOp::create(lb, ll, buffer, indices);
        },
        [&](OpBuilder &sb, Location sl, unsigned pair, Value value) {
          auto [buffer, indices] =
              getWriteTarget(sb, level, levelIndex, pair, point);
          memref::StoreOp::create(sb, sl, value, buffer, indices);
        },
        /*scalar=*/nullptr, /*clone=*/nullptr, /*uncarriedLoad=*/nullptr,
        reducesAt(level) ? ReduceFn(reduceIntoTile) : ReduceFn());
  };
  if (vectorRows)
    scf::buildLoopNest(b, loc, ArrayRef(from).drop_back(),
                       ArrayRef(to).drop_back(), ArrayRef(ones).drop_back(),
                       [&](OpBuilder &nb, Location, ValueRange outer) {
                         emitVectorRow(nb, outer, from.back(), to.back(), level,
                                       stage, levelIndex, readIndex,
                                       emitScalarPoint);
                       });
  else
    scf::buildLoopNest(b, loc, from, to, ones, emitScalarPoint);
  if (level == Level::Last)
    return;
  // The cells the next level reads outside the grid: the boundary, which
  // no step changes.
  forEachRingSlab(b, readFrom, readTo, from, to,
                  [&](OpBuilder &rb, ValueRange slabFrom, ValueRange slabTo) {
                    copyBoxToRing(rb, levelIndex, stage, slabFrom, slabTo);
                  });
}

void PipelinedTimeBlock::emitLevel(OpBuilder &b, Value wave, Value s,
                                   Level level, unsigned stage) {
  // Level s computes rows wave - (s - 1) x r_high + k, k < rowsPerWave, so
  // that the rows of level s - 1 it reads were computed earlier in this
  // wave or before.
  Value first = sub(b, wave, mul(b, sub(b, s, constant(b, 1)), radiusHigh[0]));
  if (rowsPerWave == 1) {
    emitLevelRow(b, first, s, level, stage);
    return;
  }
  // One op per statement, so that the IR does not depend on the order in
  // which the compiler evaluates arguments.
  Value zero = constant(b, 0);
  Value count = constant(b, rowsPerWave);
  Value one = constant(b, 1);
  scf::ForOp::create(b, loc, zero, count, one, {},
                     [&](OpBuilder &rb, Location, Value k, ValueRange) {
                       emitLevelRow(rb, add(rb, first, k), s, level, stage);
                       scf::YieldOp::create(rb, loc);
                     });
}

void PipelinedTimeBlock::emitLevelRow(OpBuilder &b, Value row, Value s,
                                      Level level, unsigned stage) {
  if (level == Level::Last) {
    auto inBand =
        scf::IfOp::create(b, loc, inRange(b, row, origin[0], tileEnd[0]));
    OpBuilder then = inBand.getThenBodyBuilder();
    if (block.reductions.empty()) {
      emitRow(then, row, s, level, stage);
    } else {
      // The row twice: with the reductions for the block that runs the
      // loop's last step, without for the others. Reducing in every block
      // cost Himeno 3.4% at 18 steps and 1.7% at 20 (T = 3, medians of 15
      // alternated runs).
      auto ifMatter = scf::IfOp::create(then, loc, block.reductionsMatter,
                                        /*withElseRegion=*/true);
      OpBuilder reducing = ifMatter.getThenBodyBuilder();
      reducingRows = true;
      emitRow(reducing, row, s, level, stage);
      reducingRows = false;
      OpBuilder plain = ifMatter.getElseBodyBuilder();
      emitRow(plain, row, s, level, stage);
    }
    if (block.comparesRowEnds)
      compareRowEnds(then, row);
    if (block.finalStore)
      storeFinalRow(then, row);
    return;
  }
  Value levelShrink = sub(b, levels, s);
  auto [low, high] = getReadRange(b, 0, levelShrink);
  auto needed = scf::IfOp::create(b, loc, inRange(b, row, low, high));
  OpBuilder then = needed.getThenBodyBuilder();
  // Rows of the boundary (or beyond what a distributed level computes of
  // the neighbours' points) are copied, the others computed.
  Value gridLow = getGridLow(then, 0, levelShrink);
  Value gridHigh = getGridHigh(then, 0, levelShrink);
  auto inGrid =
      scf::IfOp::create(then, loc, inRange(then, row, gridLow, gridHigh),
                        /*withElseRegion=*/true);
  OpBuilder compute = inGrid.getThenBodyBuilder();
  emitRow(compute, row, s, level, stage);
  OpBuilder copy = inGrid.getElseBodyBuilder();
  Value shrink = sub(copy, levels, s);
  SmallVector<Value> from{row}, to{add(copy, row, constant(copy, 1))};
  for (unsigned axis = 1; axis < rank; ++axis) {
    auto [readLow, readHigh] = getReadRange(copy, axis, shrink);
    from.push_back(readLow);
    to.push_back(readHigh);
  }
  copyBoxToRing(copy, sub(copy, s, constant(copy, 1)), stage, from, to);
}

void PipelinedTimeBlock::storeFinalRow(OpBuilder &b, Value row) {
  // The first level read this row's sources for the last time earlier in
  // this wave or before (pipelinedBlockStoresFinalState); other tiles' first
  // levels read them only within finalLow and finalHigh's margins. The row's
  // values are still in the cache.
  Value inside = arith::AndIOp::create(
      b, loc, block.finalStore, inRange(b, row, finalLow[0], finalHigh[0]));
  auto ifInside = scf::IfOp::create(b, loc, inside);
  OpBuilder then = ifInside.getThenBodyBuilder();
  SmallVector<Value> from{row}, to{add(then, row, constant(then, 1))};
  for (unsigned axis = 1; axis < rank; ++axis) {
    from.push_back(finalLow[axis]);
    to.push_back(finalHigh[axis]);
  }
  SmallVector<Value> ones(rank, constant(then, 1));
  scf::buildLoopNest(then, loc, from, to, ones,
                     [&](OpBuilder &nb, Location nl, ValueRange point) {
                       for (auto [source, destination] : llvm::zip_equal(
                                block.sources, block.destinations)) {
                         Value v =
                             memref::LoadOp::create(nb, nl, destination, point);
                         memref::StoreOp::create(nb, nl, v, source, point);
                       }
                     });
}

void PipelinedTimeBlock::compareRowEnds(OpBuilder &b, Value row) {
  auto ifCompares = scf::IfOp::create(b, loc, block.comparesRowEnds);
  OpBuilder then = ifCompares.getThenBodyBuilder();
  // The tile's rows at `row`: its box along the axes between.
  SmallVector<Value> from, to, ones;
  for (unsigned axis = 1; axis + 1 < rank; ++axis) {
    from.push_back(origin[axis]);
    to.push_back(tileEnd[axis]);
    ones.push_back(constant(then, 1));
  }
  unsigned last = rank - 1;
  for (bool high : {false, true}) {
    // Below the grid from the array's start, above it to the array's end;
    // where the tile reaches that end of the grid.
    auto ifAtEnd =
        scf::IfOp::create(then, loc, high ? reachesGridHigh : reachesGridLow);
    OpBuilder end = ifAtEnd.getThenBodyBuilder();
    for (auto [source, destination, flag] : llvm::zip_equal(
             block.sources, block.destinations, block.rowEndFlags)) {
      Value cellsFrom = high ? upper[last] : constant(end, 0);
      Value cellsTo =
          high ? memref::DimOp::create(end, loc, source, last).getResult()
               : lower[last];
      scf::buildLoopNest(
          end, loc, from, to, ones,
          [&](OpBuilder &nb, Location nl, ValueRange between) {
            SmallVector<Value> rowIndices{row};
            llvm::append_range(rowIndices, between);
            flagIfNonZero(nb, nl,
                          getRowDifferingBits(nb, nl, source, destination,
                                              rowIndices, cellsFrom, cellsTo),
                          flag);
          });
    }
  }
}

std::optional<unsigned> PipelinedTimeBlock::getSplitAxis() const {
  std::optional<unsigned> split;
  for (unsigned axis = 0; axis < rank; ++axis) {
    std::optional<int64_t> extent = plan.getStaticExtent(axis);
    if (extent && tile[axis] >= *extent)
      continue;
    if (split)
      return std::nullopt;
    split = axis;
  }
  return split;
}

void PipelinedTimeBlock::createTileFlags(OpBuilder &b) {
  unsigned axis = *splitAxis;
  Value count =
      getTileCount(b, loc, lower[axis], upper[axis], constant(b, tile[axis]));
  auto type = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
  tilesDone = memref::AllocOp::create(b, loc, type, count);
  slabsStored = memref::AllocOp::create(b, loc, type, count);
  Value clear = arith::ConstantIntOp::create(b, loc, b.getI8Type(), 0);
  // One op per argument: IR built in one call's arguments would come in an
  // order that depends on the compiler.
  Value zero = constant(b, 0);
  Value one = constant(b, 1);
  scf::ForOp::create(
      b, loc, zero, count, one, {},
      [&](OpBuilder &lb, Location, Value index, ValueRange) {
        memref::StoreOp::create(lb, loc, clear, tilesDone, index);
        memref::StoreOp::create(lb, loc, clear, slabsStored, index);
        scf::YieldOp::create(lb, loc);
      });
  // The tile below reads L x r_high into a tile, the tile above L x r_low.
  Value reach = mul(b, levels, radiusLow[axis] + radiusHigh[axis]);
  tilesHoldBothSlabs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                             constant(b, tile[axis]), reach);
}

Value PipelinedTimeBlock::getFinalLowAlongSplit(OpBuilder &b, Value hasBelow,
                                                Value above) {
  unsigned axis = *splitAxis;
  // Tiles run in order on each thread (convert-scf-to-openmp's static
  // schedule), so the tile below has usually finished unless another
  // thread runs it. Where it has, only this tile still reads the slab
  // around their boundary in the sources, and its last level stores each
  // row after its first level has read it for the last time, as for its
  // other points: the slab's upper side, this tile's points, and along an
  // inner axis also its lower side, the finished tile's, whose final
  // values are in the destinations. Tested once, at the start: the flag is
  // set after all of that tile's reads (an acquire-release pair).
  tileIndex = getTilePosition(b, loc, origin[axis], lower[axis],
                              constant(b, tile[axis]));
  Value one = constant(b, 1);
  Value before = sub(b, tileIndex, one);
  Value below = arith::MaxSIOp::create(b, loc, before, constant(b, 0));
  Value belowDone = isFlagSet(b, loc, tilesDone, below, /*concurrently=*/true);
  Value fits = arith::AndIOp::create(b, loc, hasBelow, tilesHoldBothSlabs);
  Value storesLow = arith::AndIOp::create(b, loc, fits, belowDone);
  bool storesBelow = axis > 0;
  Value stored = arith::ConstantIntOp::create(b, loc, b.getI8Type(),
                                              storesBelow ? LowAndBelow : Low);
  Value none = arith::ConstantIntOp::create(b, loc, b.getI8Type(), None);
  Value flag = arith::SelectOp::create(b, loc, storesLow, stored, none);
  memref::StoreOp::create(b, loc, flag, slabsStored, tileIndex);
  Value start = origin[axis];
  if (storesBelow)
    start = arith::SelectOp::create(
        b, loc, storesLow,
        sub(b, origin[axis], mul(b, levels, radiusLow[axis])), origin[axis]);
  Value notStored = arith::XOrIOp::create(
      b, loc, storesLow,
      arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
  Value keepsLow = arith::AndIOp::create(b, loc, hasBelow, notStored);
  return arith::SelectOp::create(b, loc, keepsLow, above, start);
}

void PipelinedTimeBlock::copyFinalSlabs(OpBuilder &b) {
  auto ifFinal = scf::IfOp::create(b, loc, block.finalStore);
  OpBuilder then = ifFinal.getThenBodyBuilder();
  for (unsigned axis = 0; axis < rank; ++axis) {
    std::optional<int64_t> extent = plan.getStaticExtent(axis);
    if (extent && tile[axis] >= *extent)
      continue;
    // The tiles' boundaries c along `axis`; the tiles on either side read
    // [c - L x r_low, c + L x r_high) of each other's sources. Tiles
    // narrower than that have their slabs overlap: each starts where the
    // one at the boundary before ended.
    Value first = add(then, lower[axis], constant(then, tile[axis]));
    scf::ForOp::create(
        then, loc, first, upper[axis], constant(then, tile[axis]), {},
        [&](OpBuilder &sb, Location, Value boundary, ValueRange) {
          SmallVector<Value, 3> from(lower), to(upper);
          Value previous = sub(sb, boundary, constant(sb, tile[axis]));
          Value hasPrevious = arith::CmpIOp::create(
              sb, loc, arith::CmpIPredicate::sgt, previous, lower[axis]);
          Value previousEnd =
              add(sb, previous, mul(sb, levels, radiusHigh[axis]));
          Value uncopied = arith::SelectOp::create(sb, loc, hasPrevious,
                                                   previousEnd, lower[axis]);
          Value below = sub(sb, boundary, mul(sb, levels, radiusLow[axis]));
          from[axis] = arith::MaxSIOp::create(sb, loc, below, uncopied);
          Value above = add(sb, boundary, mul(sb, levels, radiusHigh[axis]));
          to[axis] = arith::MinSIOp::create(sb, loc, above, upper[axis]);
          if (axis == splitAxis) {
            // The tile at the boundary may have stored its side, or the
            // whole slab, itself.
            Value index = getTilePosition(sb, loc, boundary, lower[axis],
                                          constant(sb, tile[axis]));
            Value stored = memref::LoadOp::create(sb, loc, slabsStored, index);
            Value none =
                arith::ConstantIntOp::create(sb, loc, sb.getI8Type(), None);
            Value storedLow = arith::CmpIOp::create(
                sb, loc, arith::CmpIPredicate::ne, stored, none);
            to[axis] =
                arith::SelectOp::create(sb, loc, storedLow, boundary, to[axis]);
            if (axis > 0) {
              Value both = arith::ConstantIntOp::create(sb, loc, sb.getI8Type(),
                                                        LowAndBelow);
              Value storedBoth = arith::CmpIOp::create(
                  sb, loc, arith::CmpIPredicate::eq, stored, both);
              from[axis] = arith::SelectOp::create(sb, loc, storedBoth,
                                                   boundary, from[axis]);
            }
          }
          for (auto [source, destination] :
               llvm::zip_equal(block.sources, block.destinations))
            copyBox(sb, loc, destination, source, from, to);
          scf::YieldOp::create(sb, loc);
        });
  }
}

void PipelinedTimeBlock::emitStep(OpBuilder &b, Value wave, Value step,
                                  bool first, bool last) {
  // Level s = (step - 1) x stages + stage + 1: the step itself for one
  // stage.
  Value before;
  if (stages > 1)
    before = mul(b, sub(b, step, constant(b, 1)), stages);
  for (unsigned stage = 0; stage < stages; ++stage) {
    Level level = Level::Middle;
    if (first && stage == 0)
      level = Level::First;
    else if (last && stage + 1 == stages)
      level = Level::Last;
    Value s = before ? add(b, before, constant(b, stage + 1)) : step;
    emitLevel(b, wave, s, level, stage);
  }
}

void PipelinedTimeBlock::planVectorRows() {
  // The loop vectorizer would load every offset along a ring row on its own,
  // two of three of them straddling two lines; a vector row loads each line
  // of a ring row once and shifts the neighbours' vectors out of the lines it
  // keeps in registers.
  SmallVector<Value> outputBuffers(block.destinations);
  for (auto [index, stage] : llvm::enumerate(plan.stages)) {
    SmallVector<Value> inputBuffers;
    for (auto [input, pair] : llvm::enumerate(stage.carriedInput))
      inputBuffers.push_back(pair >= 0 ? block.sources[pair]
                                       : block.inputBuffer(index, input));
    std::string reason;
    if (failed(
            checkVectorRows(stage.calc, inputBuffers, outputBuffers, reason)))
      return;
  }
  vectorRows = true;
  maskEnds = llvm::all_of(plan.stages, [](const TimeBlockStage &stage) {
    return canMaskLanes(stage.calc);
  });
  lanes = kLineBytes;
  for (Value source : block.sources)
    lanes = std::min(
        lanes, getElementsPerLine(llvm::cast<MemRefType>(source.getType())));
  for (const TimeBlockStage &stage : plan.stages) {
    SmallVector<RingStream> &stageStreams = streams.emplace_back();
    ApplyOp calc = stage.calc;
    calc.getBodyBlock()->walk([&](AccessOp access) {
      auto argument = llvm::cast<BlockArgument>(access.getField());
      int pair = stage.carriedInput[argument.getArgNumber()];
      if (pair < 0)
        return;
      ArrayRef<int64_t> offset = access.getOffset();
      SmallVector<int64_t, 2> outerOffset(offset.drop_back());
      int64_t first = llvm::divideFloorSigned(offset.back(), lanes);
      int64_t last = llvm::divideCeilSigned(offset.back(), lanes);
      for (RingStream &stream : stageStreams)
        if (stream.pair == static_cast<unsigned>(pair) &&
            stream.outerOffset == outerOffset) {
          stream.first = std::min(stream.first, first);
          stream.last = std::max(stream.last, last);
          return;
        }
      stageStreams.push_back(
          {static_cast<unsigned>(pair), outerOffset, first, last});
    });
  }
  // The read-only fields of the grid's rank (lower-rank ones, coefficient
  // tables, stay in the cache) and the rows of them each stage reads.
  for (auto [index, stage] : llvm::enumerate(plan.stages)) {
    SmallVector<InputStream> &stageInputs = inputStreams.emplace_back();
    ApplyOp calc = stage.calc;
    calc.getBodyBlock()->walk([&](AccessOp access) {
      auto argument = llvm::cast<BlockArgument>(access.getField());
      unsigned input = argument.getArgNumber();
      if (stage.carriedInput[input] >= 0)
        return;
      auto type =
          llvm::dyn_cast<MemRefType>(block.inputBuffer(index, input).getType());
      if (!type || type.getRank() != static_cast<int64_t>(rank))
        return;
      ArrayRef<int64_t> offset = access.getOffset();
      SmallVector<int64_t, 2> outerOffset(offset.drop_back());
      for (InputStream &stream : stageInputs) {
        if (stream.input != input || ArrayRef(stream.outerOffset).drop_back() !=
                                         ArrayRef(outerOffset).drop_back())
          continue;
        stream.outerOffset.back() =
            std::max(stream.outerOffset.back(), outerOffset.back());
        stream.column = std::min(stream.column, offset.back());
        return;
      }
      stageInputs.push_back({input, outerOffset, offset.back()});
    });
  }
}

SmallVector<PipelinedTimeBlock::PrefetchedRow>
PipelinedTimeBlock::getNextInputRows(OpBuilder &b, ValueRange outer,
                                     unsigned stage) const {
  // Every level reads its read-only fields afresh, row by row: the first
  // from memory, the others from L2. With a stream per field and row, more
  // than the hardware prefetchers follow, each row's lines came too late.
  // So each whole vector asks for its column's line of the row the level
  // reads next (along the last outer axis: the plane's next row in 3-D; in
  // 2-D the level's next row, in this wave or the next), at the stream's
  // first column, which the field holds. Himeno, 12 such fields: 13-15%
  // faster; the row after next, 24% slower (docs/Tuning.md, "The
  // read-only fields' next rows"). Past the field's last row the last is
  // asked for again: a prefetch never faults. A vector is a line of the
  // sources' widest element, so a field of wider elements is asked for
  // every other line.
  SmallVector<PrefetchedRow> rows;
  for (const InputStream &stream : inputStreams[stage]) {
    Value buffer = block.inputBuffer(stage, stream.input);
    SmallVector<Value, 3> at;
    for (auto [axis, offset] : llvm::enumerate(stream.outerOffset)) {
      if (axis + 1 < stream.outerOffset.size()) {
        at.push_back(offset == 0 ? outer[axis]
                                 : add(b, outer[axis], constant(b, offset)));
        continue;
      }
      Value next = add(b, outer[axis], constant(b, offset + 1));
      at.push_back(clampToLastRow(b, buffer, axis, next));
    }
    rows.push_back({buffer, std::move(at), stream.column});
  }
  return rows;
}

SmallVector<Value> PipelinedTimeBlock::emitVectorPoints(
    OpBuilder &b, ValueRange outer, Value column, Value mask, Level level,
    unsigned stage, Value levelIndex, Value readIndex, ArrayRef<Value> window) {
  SmallVector<Value, 3> point(outer);
  point.push_back(add(b, column, ringOrigin.back()));
  RowVectorizer vectorizer(lanes);
  SmallVector<Value> contributions(block.reductions.size());
  auto reduce = [&](OpBuilder &rb, Location rl, unsigned reduction,
                    Value value) {
    ReductionKind kind = block.reductions[reduction];
    Value vector = vectorizer.asVector(rb, rl, value);
    if (mask) {
      Value identity = createReductionIdentity(rb, rl, kind, vector.getType());
      vector = arith::SelectOp::create(rb, rl, mask, vector, identity);
    }
    Value &contribution = contributions[reduction];
    contribution = contribution
                       ? createReductionCombine(rb, rl, kind, contribution,
                                                vector, /*reassociate=*/true)
                       : vector;
  };
  emitTimeBlockPoint(
      b, loc, block, stage, point,
      [&](OpBuilder &lb, Location ll, unsigned pair, ValueRange at,
          ArrayRef<int64_t> offset) -> Value {
        if (level == Level::First || window.empty()) {
          auto [buffer, indices] =
              getReadTarget(lb, level, readIndex, pair, at);
          return vectorizer.load(lb, ll, buffer, indices, mask);
        }
        // The access's vector out of the stream's vectors in the window:
        // the one it starts in, shifted by the lanes it starts after.
        ArrayRef<Value> vectors = window;
        for (const RingStream &stream : streams[stage]) {
          if (stream.pair != pair ||
              ArrayRef(stream.outerOffset) != offset.drop_back()) {
            vectors = vectors.drop_front(stream.last - stream.first + 1);
            continue;
          }
          int64_t start = llvm::divideFloorSigned(offset.back(), lanes);
          int64_t shift = offset.back() - start * lanes;
          Value low = vectors[start - stream.first];
          if (shift == 0)
            return vectorizer.add(low);
          Value high = vectors[start - stream.first + 1];
          SmallVector<int64_t, 16> lanesOf;
          for (int64_t lane = 0; lane < lanes; ++lane)
            lanesOf.push_back(shift + lane);
          return vectorizer.add(
              vector::ShuffleOp::create(lb, ll, low, high, lanesOf));
        }
        llvm_unreachable("every carried access has a stream");
      },
      [&](OpBuilder &sb, Location sl, unsigned pair, Value value) {
        auto [buffer, indices] =
            getWriteTarget(sb, level, levelIndex, pair, point);
        vectorizer.store(sb, sl, value, buffer, indices, mask);
      },
      /*scalar=*/nullptr,
      [&](OpBuilder &cb, Operation &op, IRMapping &mapping) {
        vectorizer.widen(cb, op, mapping);
      },
      [&](OpBuilder &lb, Location ll, unsigned input, ValueRange at,
          AccessOp access) {
        return vectorizer.load(lb, ll, inputBuffer(stage, input), at, mask,
                               access);
      },
      reducesAt(level) ? ReduceFn(reduce) : ReduceFn());
  return contributions;
}

void PipelinedTimeBlock::emitVectorRow(OpBuilder &b, ValueRange outer,
                                       Value from, Value to, Level level,
                                       unsigned stage, Value levelIndex,
                                       Value readIndex, PointFn scalarPoint) {
  // Ring columns: their vectors of `lanes` start at multiples of `lanes`,
  // where every ring row starts a cache line. Whole vectors run from the
  // first such column at or after `from`; the partial vectors at both ends
  // start at `from` and at the end of the whole ones.
  Value columnOrigin = ringOrigin.back();
  Value fromColumn = sub(b, from, columnOrigin);
  Value toColumn = sub(b, to, columnOrigin);
  Value vectorLanes = constant(b, lanes);
  Value bodyFrom = arith::MinSIOp::create(
      b, loc,
      arith::MulIOp::create(
          b, loc, arith::CeilDivSIOp::create(b, loc, fromColumn, vectorLanes),
          vectorLanes),
      toColumn);
  Value bodyTo = add(b, bodyFrom,
                     arith::MulIOp::create(
                         b, loc,
                         arith::DivSIOp::create(
                             b, loc, sub(b, toColumn, bodyFrom), vectorLanes),
                         vectorLanes));
  // A partial vector returns its lanes' contributions to the reductions;
  // scalar points add theirs to the tile's running values themselves.
  auto partialVector = [&](Value lower, Value upper) -> SmallVector<Value> {
    if (maskEnds) {
      Value count = sub(b, upper, lower);
      Value mask = vector::CreateMaskOp::create(
          b, loc, VectorType::get({lanes}, b.getI1Type()), count);
      return emitVectorPoints(b, outer, lower, mask, level, stage, levelIndex,
                              readIndex, /*window=*/{});
    }
    Value rowFrom = add(b, lower, columnOrigin);
    Value rowTo = add(b, upper, columnOrigin);
    emitScalarRow(b, loc, outer, rowFrom, rowTo, scalarPoint);
    return {};
  };
  // The first and last levels ask for a line of a later row with each
  // vector they compute, the partial ones included, rather than for a
  // row's (or a 3-D plane's inner row's) lines all at once before it: a
  // burst of prefetches fills the core's queue of misses and stalls the
  // level until memory answers, where spread over the row they wait
  // beside its arithmetic. Two cores, medians of 5-11 alternated runs:
  // heat3d 256^3 +6%, heat3d-2sweep +9%, jacobi-2d +4%, heat2d +2%,
  // Himeno within its noise (docs/Tuning.md, "Prefetches beside the
  // arithmetic").
  SmallVector<PrefetchedRow> laterRows;
  bool isWrite = level == Level::Last;
  if (prefetchesRows(level))
    for (Value buffer : getPrefetchedBuffers(level)) {
      SmallVector<Value, 3> at{getLaterRow(b, buffer, outer[0], isWrite)};
      llvm::append_range(at, outer.drop_front());
      laterRows.push_back({buffer, at, /*columnOffset=*/0});
    }
  // Only the whole vectors ask for the read-only fields' next rows.
  SmallVector<PrefetchedRow> inputRows = getNextInputRows(b, outer, stage);
  // A vector is at most a line of every field: `lanes` follows the
  // sources' widest element, and a field of narrower ones is asked for
  // some of its lines twice.
  auto prefetchColumn = [&](OpBuilder &pb, Value column,
                            ArrayRef<PrefetchedRow> rows, bool forWrite) {
    for (const PrefetchedRow &prefetched : rows) {
      SmallVector<Value, 3> at(prefetched.row);
      Value point = add(pb, column, columnOrigin);
      at.push_back(prefetched.columnOffset == 0
                       ? point
                       : add(pb, point, constant(pb, prefetched.columnOffset)));
      memref::PrefetchOp::create(pb, loc, prefetched.buffer, at, forWrite,
                                 /*localityHint=*/3, /*isDataCache=*/true);
    }
  };
  prefetchColumn(b, fromColumn, laterRows, isWrite);
  SmallVector<Value> firstContributions = partialVector(fromColumn, bodyFrom);

  // The whole vectors. The first level reads the sources at their offsets.
  // The others keep, per stream, the vectors of the ring row from `first`
  // to `last` around the current one, loading only the last of them.
  SmallVector<SmallVector<Value, 3>> streamRows;
  SmallVector<Value> initial;
  if (level != Level::First) {
    for (const RingStream &stream : streams[stage]) {
      SmallVector<Value, 3> row(outer);
      for (auto [axis, offset] : llvm::enumerate(stream.outerOffset))
        if (offset != 0)
          row[axis] = add(b, row[axis], constant(b, offset));
      streamRows.push_back(row);
      // The vectors before the last one for the first vector of points. A
      // vector wholly before the ring row holds nothing any point reads
      // and is loaded from its start instead.
      for (int64_t k = stream.first; k < stream.last; ++k) {
        Value shifted = add(b, bodyFrom, constant(b, k * lanes));
        Value column = arith::MaxSIOp::create(b, loc, shifted, constant(b, 0));
        initial.push_back(vector::LoadOp::create(
            b, loc, getRingVectorType(stream.pair), rings[stream.pair],
            getRingIndicesAtColumn(b, readIndex, row, column)));
      }
    }
  }
  // The reductions' lanes accumulate along the row, from the first partial
  // vector's.
  unsigned windowSize = initial.size();
  if (reducesAt(level))
    for (auto [reduction, kind] : llvm::enumerate(block.reductions)) {
      Value first =
          firstContributions.empty() ? Value() : firstContributions[reduction];
      initial.push_back(
          first ? first
                : createReductionIdentity(
                      b, loc, kind,
                      VectorType::get({lanes}, reductionTypes[reduction])));
    }
  auto wholeVectors = scf::ForOp::create(
      b, loc, bodyFrom, bodyTo, vectorLanes, initial,
      [&](OpBuilder &vb, Location vl, Value column, ValueRange carried) {
        SmallVector<Value> window, next;
        // No stream rows, and so no window, on the first level.
        for (auto [stream, row] : llvm::zip(streams[stage], streamRows)) {
          ValueRange kept = carried.take_front(stream.last - stream.first);
          carried = carried.drop_front(kept.size());
          llvm::append_range(window, kept);
          Value last = vector::LoadOp::create(
              vb, vl, getRingVectorType(stream.pair), rings[stream.pair],
              getRingIndicesAtColumn(
                  vb, readIndex, row,
                  add(vb, column, constant(vb, stream.last * lanes))));
          window.push_back(last);
          if (!kept.empty()) {
            llvm::append_range(next, kept.drop_front());
            next.push_back(last);
          }
        }
        prefetchColumn(vb, column, laterRows, isWrite);
        prefetchColumn(vb, column, inputRows, /*forWrite=*/false);
        SmallVector<Value> contributions =
            emitVectorPoints(vb, outer, column, /*mask=*/Value(), level, stage,
                             levelIndex, readIndex, window);
        // What the streams leave in `carried` are the reductions' lanes.
        if (reducesAt(level))
          for (auto [kind, lanesSoFar, contribution] :
               llvm::zip_equal(block.reductions, carried, contributions))
            next.push_back(createReductionCombine(vb, vl, kind, lanesSoFar,
                                                  contribution,
                                                  /*reassociate=*/true));
        scf::YieldOp::create(vb, vl, next);
      });
  if (!laterRows.empty())
    prefetchColumn(b,
                   arith::MaxSIOp::create(
                       b, loc, sub(b, toColumn, constant(b, 1)), fromColumn),
                   laterRows, isWrite);
  SmallVector<Value> lastContributions = partialVector(bodyTo, toColumn);
  if (!reducesAt(level))
    return;
  ValueRange rowLanes = wholeVectors.getResults().drop_front(windowSize);
  for (auto [reduction, kind] : llvm::enumerate(block.reductions)) {
    Value lanesOfRow = rowLanes[reduction];
    if (!lastContributions.empty())
      lanesOfRow = createReductionCombine(b, loc, kind, lanesOfRow,
                                          lastContributions[reduction],
                                          /*reassociate=*/true);
    accumulate(b, reduction, lanesOfRow);
  }
}

SmallVector<Value> PipelinedTimeBlock::allocateRings(OpBuilder &b,
                                                     Value count) {
  // A ring row spans the widest level's box: the tile grown by (L - 1) x
  // radius, within the grid plus its radius. Rows are padded to an odd
  // number of 64-byte lines so that the rows of all levels, which a wave
  // reads at the same offsets, fall into different cache sets; rows a
  // multiple of 4 KiB apart would compete for the same few L1 ways.
  SmallVector<Value> buffers;
  for (Value source : block.sources) {
    auto type = llvm::cast<MemRefType>(source.getType());
    SmallVector<int64_t, 4> shape{ShapedType::kDynamic, slots};
    for (unsigned axis = 1; axis < rank; ++axis) {
      int64_t radius = radiusLow[axis] + radiusHigh[axis];
      int64_t extent = tile[axis] + (plan.getNumLevels() - 1) * radius;
      if (std::optional<int64_t> grid = plan.getStaticExtent(axis);
          grid && !grows(axis))
        extent = std::min(extent, *grid + radius);
      if (axis + 1 == rank) {
        // Room for the ring's start up to a line before the first column
        // read (emit).
        int64_t perLine = getElementsPerLine(type);
        if (radiusLow[axis] > 0 || alignsToDestination)
          extent += rowAlignment - 1;
        int64_t lines = llvm::divideCeil(extent, perLine);
        extent = (lines | 1) * perLine;
      }
      shape.push_back(extent);
    }
    buffers.push_back(memref::AllocOp::create(
        b, loc, MemRefType::get(shape, type.getElementType()),
        ValueRange{count}, b.getI64IntegerAttr(kLineBytes)));
  }
  return buffers;
}

Value PipelinedTimeBlock::getRingRowOrigin(OpBuilder &b, Value firstRead) {
  // The ring starts up to a line before the first column any level reads,
  // so that its vectors, which each level's whole vectors follow, are the
  // destination's lines: the last level then stores no vector across two
  // lines, and the first loads the sources' centre points whole. heat3d,
  // whose grid starts one element into a line, ran 14% faster (two cores,
  // T = 5). Otherwise, when levels read before the tile's first column, the
  // ring starts up to a line earlier, so that this column, where every level
  // of a tile spanning the grid starts, begins a line.
  if (alignsToDestination) {
    auto type = llvm::cast<MemRefType>(block.destinations[0].getType());
    // One op per statement: the IR must not depend on the order in which
    // the compiler evaluates arguments.
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(
        b, loc, block.destinations[0]);
    Value lineBytes = constant(b, kLineBytes);
    Value baseByte = arith::RemUIOp::create(b, loc, base, lineBytes);
    Value elementBytes = constant(b, getElementBytes(type));
    Value baseColumn = arith::DivUIOp::create(b, loc, baseByte, elementBytes);
    Value column = add(b, baseColumn, firstRead);
    Value perLine = constant(b, rowAlignment);
    Value intoLine = arith::RemUIOp::create(b, loc, column, perLine);
    return sub(b, firstRead, intoLine);
  }
  if (radiusLow[rank - 1] == 0)
    return firstRead;
  Value first = origin[rank - 1];
  Value perLine = constant(b, rowAlignment);
  Value before =
      arith::CeilDivUIOp::create(b, loc, sub(b, first, firstRead), perLine);
  return sub(b, first, arith::MulIOp::create(b, loc, before, perLine));
}

/// The vector.reduction kind that combines lanes as `kind` does values of
/// `type`.
static vector::CombiningKind getCombiningKind(ReductionKind kind, Type type) {
  bool isFloat = llvm::isa<FloatType>(type);
  switch (kind) {
  case ReductionKind::Add:
    return vector::CombiningKind::ADD;
  case ReductionKind::Mul:
    return vector::CombiningKind::MUL;
  case ReductionKind::Min:
    return isFloat ? vector::CombiningKind::MINNUMF
                   : vector::CombiningKind::MINSI;
  case ReductionKind::Max:
    return isFloat ? vector::CombiningKind::MAXNUMF
                   : vector::CombiningKind::MAXSI;
  }
  llvm_unreachable("every reduction kind is handled");
}

void PipelinedTimeBlock::accumulate(OpBuilder &b, unsigned reduction,
                                    Value value) {
  ReductionKind kind = block.reductions[reduction];
  Type type = reductionTypes[reduction];
  Value running = partials->load(b, reduction, tileSlot);
  Value combined;
  if (llvm::isa<VectorType>(value.getType())) {
    auto flags = llvm::isa<FloatType>(type) ? arith::FastMathFlags::reassoc
                                            : arith::FastMathFlags::none;
    combined = vector::ReductionOp::create(b, loc, getCombiningKind(kind, type),
                                           value, running, flags);
  } else {
    combined = createReductionCombine(b, loc, kind, running, value,
                                      /*reassociate=*/true);
  }
  partials->store(b, combined, reduction, tileSlot);
}

void PipelinedTimeBlock::beginTileReductions(OpBuilder &b) {
  if (block.reductions.empty())
    return;
  tileSlot = partials->getSlot(b, origin);
  for (auto [reduction, kind, type] :
       llvm::enumerate(block.reductions, reductionTypes))
    partials->store(b, createReductionIdentity(b, loc, kind, type), reduction,
                    tileSlot);
}

SmallVector<Value> PipelinedTimeBlock::emit(OpBuilder &builder) {
  SmallVector<Value> steps;
  for (unsigned axis = 0; axis < rank; ++axis)
    steps.push_back(constant(builder, tile[axis]));
  if (!block.reductions.empty())
    partials.emplace(builder, loc, lower, upper, steps, reductionTypes,
                     /*lineApart=*/true);
  if (block.finalStore && (splitAxis = getSplitAxis()))
    createTileFlags(builder);
  scf::ParallelOp::create(
      builder, loc, lower, upper, steps,
      [&](OpBuilder &b, Location, ValueRange tileOrigin) {
        origin.assign(tileOrigin.begin(), tileOrigin.end());
        tileEnd.clear();
        for (unsigned axis = 0; axis < rank; ++axis)
          tileEnd.push_back(arith::MinSIOp::create(
              b, loc, add(b, origin[axis], steps[axis]), upper[axis]));
        beginTileReductions(b);
        if (block.comparesRowEnds) {
          reachesGridLow = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::eq, origin.back(), lower.back());
          reachesGridHigh = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::eq, tileEnd.back(), upper.back());
        }
        Value one = constant(b, 1);
        Value depthBefore = sub(b, levels, one);
        ringOrigin.clear();
        for (unsigned axis = 1; axis < rank; ++axis)
          ringOrigin.push_back(getReadRange(b, axis, depthBefore).first);
        ringOrigin.back() = getRingRowOrigin(b, ringOrigin.back());
        finalLow.clear();
        finalHigh.clear();
        if (block.finalStore)
          for (unsigned axis = 0; axis < rank; ++axis) {
            // A tile below reads up to L x r_high into this one, a tile
            // above down to L x r_low.
            Value hasBelow = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::sgt, origin[axis], lower[axis]);
            Value above =
                add(b, origin[axis], mul(b, levels, radiusHigh[axis]));
            finalLow.push_back(axis == splitAxis
                                   ? getFinalLowAlongSplit(b, hasBelow, above)
                                   : arith::SelectOp::create(
                                         b, loc, hasBelow, above, origin[axis])
                                         .getResult());
            Value hasAbove = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::slt, tileEnd[axis], upper[axis]);
            Value below =
                sub(b, tileEnd[axis], mul(b, levels, radiusLow[axis]));
            finalHigh.push_back(arith::SelectOp::create(b, loc, hasAbove, below,
                                                        tileEnd[axis]));
          }
        // Vector rows load whole vectors past the last column a level reads,
        // into the next ring row; a spare level keeps those of the last row
        // inside the allocation, where a wider row would change the layout
        // that the padding above chose.
        bool overreads = vectorRows && radiusHigh.back() > 0;
        rings = allocateRings(b, overreads ? levels : depthBefore);
        Value firstWave = getReadRange(b, 0, depthBefore).first;
        Value endWave = add(b, tileEnd[0], mul(b, depthBefore, radiusHigh[0]));
        scf::ForOp::create(
            b, loc, firstWave, endWave, constant(b, rowsPerWave), {},
            [&](OpBuilder &wb, Location, Value wave, ValueRange) {
              // Blocks have two steps or more.
              emitStep(wb, wave, one, /*first=*/true, /*last=*/false);
              scf::ForOp::create(
                  wb, loc, constant(wb, 2), depth, one, {},
                  [&](OpBuilder &lb, Location, Value step, ValueRange) {
                    emitStep(lb, wave, step, /*first=*/false, /*last=*/false);
                    scf::YieldOp::create(lb, loc);
                  });
              emitStep(wb, wave, depth, /*first=*/false, /*last=*/true);
              scf::YieldOp::create(wb, loc);
            });
        for (Value ring : rings)
          memref::DeallocOp::create(b, loc, ring);
        if (splitAxis)
          setFlag(b, loc, tilesDone, tileIndex);
        scf::ReduceOp::create(b, loc);
      });
  if (block.finalStore) {
    copyFinalSlabs(builder);
    if (splitAxis) {
      memref::DeallocOp::create(builder, loc, tilesDone);
      memref::DeallocOp::create(builder, loc, slabsStored);
    }
  }
  if (!partials)
    return {};
  SmallVector<Value> reduced = partials->combine(builder, block.reductions);
  partials->free(builder);
  return reduced;
}

bool host::pipelinedBlockStoresFinalState(const TimeBlockPlan &plan) {
  // The last level writes rows (L - 1) x r_high behind the first level's,
  // which reads no row again that lies more than r_low behind its next
  // wave's first: the rows written are past reading when r_low <=
  // (L - 1) x r_high. The depth L is known at run time only; r_low <=
  // r_high meets that for every L >= 2. A chain's earlier stages keep
  // fields of their own, which a block does not write.
  return plan.lower.size() >= 2 && plan.getNumStages() == 1 &&
         plan.radiusLow[0] <= plan.radiusHigh[0];
}

SmallVector<Value> host::emitPipelinedTimeBlock(OpBuilder &builder,
                                                Location loc,
                                                const TimeBlock &block,
                                                Value depth) {
  assert((!block.finalStore || (block.ringLow.empty() &&
                                pipelinedBlockStoresFinalState(block.plan))) &&
         "the final state is stored by undistributed copy-form blocks");
  assert((block.reductions.empty() ||
          (block.reductionsMatter && block.ringLow.empty() &&
           block.plan.getNumStages() == 1)) &&
         "copy-form blocks whose steps no exchange partitions reduce");
  return PipelinedTimeBlock(builder, loc, block, depth).emit(builder);
}

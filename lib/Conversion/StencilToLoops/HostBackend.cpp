//===- HostBackend.cpp - Buffers and loops in host memory -----------------===//
//
// The host backend of the lowering: buffers are memrefs (a load works in
// place on the C program's array), a box of points is an `scf.parallel` over
// tiles (the schedule's `tile` or `wg`, else a default that keeps whole rows
// for the vectorizer) with `scf.for` loops inside a tile, and time blocks
// are overlapped tiles on 1-D grids and pipelined row sweeps on 2-D and 3-D
// grids. Inside a tile, the rows of 2-D and 3-D grids first prefetch the
// rows the tile reaches a prefetch distance later (Prefetch.cpp) and, with
// the schedule's streaming stores, are emitted as vectors whose whole lines
// go out as non-temporal stores (StreamingRows.cpp).
//
//===----------------------------------------------------------------------===//

#include "HostLowering.h"

#include "Stencil/Conversion/StencilToLoops/StencilToLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::host;

namespace {

/// The tile for an apply without a schedule: long contiguous rows for the
/// vectorizer, several rows per task for OpenMP (1-D [16384], 2-D [8, 0],
/// 3-D [1, 8, 0]; 0 stands for the whole extent of the axis), with the
/// user's `option` replacing entries counted from the innermost axis.
SmallVector<int64_t, 3> getDefaultTile(unsigned rank,
                                       ArrayRef<int64_t> option) {
  static const std::array<int64_t, 3> shapes[] = {{16384}, {8, 0}, {1, 8, 0}};
  ArrayRef<int64_t> chosen = shapes[std::min(rank, 3u) - 1];
  SmallVector<int64_t, 3> tile(chosen.take_front(std::min(rank, 3u)));
  for (unsigned i = 0; i < option.size() && i < rank; ++i)
    tile[rank - 1 - i] = option[option.size() - 1 - i];
  return tile;
}

/// Points of the innermost axis per parallel iteration of a 1-D box.
constexpr int64_t kParallelRowChunk = 16384;
/// Boxes with fewer elements than this are copied by one thread.
constexpr int64_t kParallelCopyElements = 1 << 15;

/// Whether the box [lower, upper) is worth a parallel loop: large, or of a
/// size known only at run time.
bool isLargeBox(ValueRange lower, ValueRange upper) {
  int64_t elements = 1;
  for (auto [low, high] : llvm::zip_equal(lower, upper)) {
    std::optional<int64_t> lowValue = getConstantIntValue(low);
    std::optional<int64_t> highValue = getConstantIntValue(high);
    if (!lowValue || !highValue)
      return true;
    elements *= *highValue - *lowValue;
  }
  return elements >= kParallelCopyElements;
}

/// The row `row` (indices along the axes but the innermost) of a box, from
/// `from` to `to` along the innermost axis.
using RowFn = function_ref<void(OpBuilder &, Location, ValueRange row,
                                Value from, Value to)>;

/// Calls `emitRow` on every row of the box [lower, upper): in a parallel
/// loop when `parallel`, in a serial nest otherwise. `one` is an index
/// constant 1, created here when null.
void emitBoxRows(OpBuilder &builder, Location loc, ValueRange lower,
                 ValueRange upper, bool parallel, RowFn emitRow,
                 Value one = nullptr) {
  if (!one)
    one = arith::ConstantIndexOp::create(builder, loc, 1);
  SmallVector<Value> ones(lower.size(), one);
  if (!parallel) {
    scf::buildLoopNest(builder, loc, lower.drop_back(), upper.drop_back(),
                       ArrayRef(ones).drop_back(),
                       [&](OpBuilder &b, Location l, ValueRange row) {
                         emitRow(b, l, row, lower.back(), upper.back());
                       });
    return;
  }
  // Parallel over the outer axes (or chunks of a 1-D box), with the
  // innermost axis a serial loop of its own: convert-scf-to-openmp
  // collapses a parallel nest into one loop whose indices are recovered by
  // division, which LLVM does not vectorize.
  unsigned rank = lower.size();
  SmallVector<Value> outerLower(lower.drop_back()),
      outerUpper(upper.drop_back()), steps(ones.begin(), ones.end() - 1);
  Value chunk;
  if (rank == 1) {
    chunk = arith::ConstantIndexOp::create(builder, loc, kParallelRowChunk);
    outerLower.push_back(lower.back());
    outerUpper.push_back(upper.back());
    steps.push_back(chunk);
  }
  scf::ParallelOp::create(
      builder, loc, outerLower, outerUpper, steps,
      [&](OpBuilder &b, Location l, ValueRange outer) {
        Value from = lower.back(), to = upper.back();
        SmallVector<Value, 3> row(outer);
        if (rank == 1) {
          from = outer.front();
          to = arith::MinSIOp::create(
              b, l, arith::AddIOp::create(b, l, from, chunk), upper.back());
          row.clear();
        }
        emitRow(b, l, row, from, to);
      });
}

/// Calls `body` at every point of the box [lower, upper): in a parallel
/// loop when `parallel`, in a serial nest otherwise.
void emitBoxLoop(OpBuilder &builder, Location loc, ValueRange lower,
                 ValueRange upper, bool parallel, PointFn body) {
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  emitBoxRows(
      builder, loc, lower, upper, parallel,
      [&](OpBuilder &b, Location l, ValueRange row, Value from, Value to) {
        emitScalarRow(b, l, row, from, to, body, one);
      },
      one);
}

/// `point - shift` per axis (`point` itself when `shift` is empty).
SmallVector<Value> shiftPoint(OpBuilder &builder, Location loc,
                              ValueRange point, ValueRange shift) {
  if (shift.empty())
    return SmallVector<Value>(point);
  SmallVector<Value> shifted;
  for (auto [index, by] : llvm::zip_equal(point, shift))
    shifted.push_back(arith::SubIOp::create(builder, loc, index, by));
  return shifted;
}

} // namespace

void host::copyBox(OpBuilder &builder, Location loc, Value source, Value target,
                   ValueRange lower, ValueRange upper, ValueRange sourceShift,
                   ValueRange targetShift) {
  emitBoxLoop(builder, loc, lower, upper, isLargeBox(lower, upper),
              [&](OpBuilder &b, Location l, ValueRange point) {
                Value value = memref::LoadOp::create(
                    b, l, source, shiftPoint(b, l, point, sourceShift));
                memref::StoreOp::create(b, l, value, target,
                                        shiftPoint(b, l, point, targetShift));
              });
}

Value host::getTileCount(OpBuilder &builder, Location loc, Value lower,
                         Value upper, Value step) {
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value extent = arith::SubIOp::create(builder, loc, upper, lower);
  Value nonNegative = arith::MaxSIOp::create(builder, loc, extent, zero);
  return arith::CeilDivSIOp::create(builder, loc, nonNegative, step);
}

Value host::getTilePosition(OpBuilder &builder, Location loc, Value tileLower,
                            Value lower, Value step) {
  Value offset = arith::SubIOp::create(builder, loc, tileLower, lower);
  return arith::DivSIOp::create(builder, loc, offset, step);
}

TilePartials::TilePartials(OpBuilder &builder, Location loc, ValueRange lower,
                           ValueRange upper, ValueRange steps, TypeRange types,
                           bool lineApart)
    : loc(loc), lower(lower), steps(steps), lineApart(lineApart) {
  tileCount = arith::ConstantIndexOp::create(builder, loc, 1);
  for (unsigned axis = 0; axis < lower.size(); ++axis) {
    tilesAlong.push_back(
        getTileCount(builder, loc, lower[axis], upper[axis], steps[axis]));
    tileCount =
        arith::MulIOp::create(builder, loc, tileCount, tilesAlong.back());
  }
  for (Type type : types) {
    if (!lineApart) {
      buffers.push_back(memref::AllocOp::create(
          builder, loc, MemRefType::get({ShapedType::kDynamic}, type),
          ValueRange{tileCount}));
      continue;
    }
    int64_t bytes = std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
    int64_t perLine = std::max<int64_t>(1, kLineBytes / bytes);
    buffers.push_back(memref::AllocOp::create(
        builder, loc, MemRefType::get({ShapedType::kDynamic, perLine}, type),
        ValueRange{tileCount}, builder.getI64IntegerAttr(kLineBytes)));
  }
}

Value TilePartials::getSlot(OpBuilder &builder, ValueRange tileLower) const {
  Value slot = arith::ConstantIndexOp::create(builder, loc, 0);
  for (unsigned axis = 0; axis < lower.size(); ++axis) {
    Value position = getTilePosition(builder, loc, tileLower[axis], lower[axis],
                                     steps[axis]);
    Value scaled = arith::MulIOp::create(builder, loc, slot, tilesAlong[axis]);
    slot = arith::AddIOp::create(builder, loc, scaled, position);
  }
  return slot;
}

SmallVector<Value, 2> TilePartials::getIndices(OpBuilder &builder,
                                               Value slot) const {
  SmallVector<Value, 2> indices{slot};
  if (lineApart)
    indices.push_back(arith::ConstantIndexOp::create(builder, loc, 0));
  return indices;
}

Value TilePartials::load(OpBuilder &builder, unsigned reduction,
                         Value slot) const {
  return memref::LoadOp::create(builder, loc, buffers[reduction],
                                getIndices(builder, slot));
}

void TilePartials::store(OpBuilder &builder, Value value, unsigned reduction,
                         Value slot) const {
  memref::StoreOp::create(builder, loc, value, buffers[reduction],
                          getIndices(builder, slot));
}

SmallVector<Value> TilePartials::combine(OpBuilder &builder,
                                         ArrayRef<ReductionKind> kinds) const {
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  SmallVector<Value> identities;
  for (auto [kind, buffer] : llvm::zip_equal(kinds, buffers))
    identities.push_back(createReductionIdentity(
        builder, loc, kind,
        llvm::cast<MemRefType>(buffer.getType()).getElementType()));
  auto tiles = scf::ForOp::create(
      builder, loc, zero, tileCount, one, identities,
      [&](OpBuilder &b, Location l, Value index, ValueRange sums) {
        SmallVector<Value> next;
        for (auto [reduction, kind, sum] : llvm::enumerate(kinds, sums))
          next.push_back(createReductionCombine(b, l, kind, sum,
                                                load(b, reduction, index)));
        scf::YieldOp::create(b, l, next);
      });
  return SmallVector<Value>(tiles.getResults());
}

void TilePartials::free(OpBuilder &builder) const {
  for (Value buffer : buffers)
    memref::DeallocOp::create(builder, loc, buffer);
}

namespace {

class HostBackend : public LoweringBackend {
public:
  explicit HostBackend(const HostLoweringOptions &options) : options(options) {}

  StringRef getPassName() const override { return "convert-stencil-to-loops"; }
  BufferPlanOptions getPlanOptions() const override {
    return {/*loadsAliasMemRefs=*/true};
  }
  LogicalResult checkFunction(func::FuncOp, const BufferPlan &) override {
    return success();
  }

  Value allocateLike(OpBuilder &builder, Location loc, Value like) override {
    SmallVector<Value> dynamicSizes =
        decomposeMixedValues(memref::getMixedSizes(builder, loc, like)).second;
    return memref::AllocOp::create(
        builder, loc, llvm::cast<MemRefType>(like.getType()), dynamicSizes);
  }

  bool allocatesDynamicBoxes() const override { return true; }
  BoxBuffer allocateBox(OpBuilder &builder, Location loc, Value like,
                        ValueRange from, ValueRange to) override {
    auto likeType = llvm::cast<MemRefType>(like.getType());
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamicSizes;
    for (auto [low, high] : llvm::zip_equal(from, to)) {
      std::optional<int64_t> lowValue = getConstantIntValue(low);
      std::optional<int64_t> highValue = getConstantIntValue(high);
      if (lowValue && highValue) {
        shape.push_back(std::max<int64_t>(*highValue - *lowValue, 0));
        continue;
      }
      shape.push_back(ShapedType::kDynamic);
      dynamicSizes.push_back(arith::SubIOp::create(builder, loc, high, low));
    }
    // Compact: the box's first cell at element 0.
    auto type = MemRefType::get(shape, likeType.getElementType());
    Value buffer = memref::AllocOp::create(builder, loc, type, dynamicSizes);
    return {buffer, SmallVector<Value, 3>(from)};
  }

  void freeBuffer(OpBuilder &builder, Location loc, Value buffer) override {
    memref::DeallocOp::create(builder, loc, buffer);
  }

  void copyBox(OpBuilder &builder, Location loc, Value source, Value target,
               ValueRange lower, ValueRange upper, ValueRange sourceShift,
               ValueRange targetShift) override {
    host::copyBox(builder, loc, source, target, lower, upper, sourceShift,
                  targetShift);
  }

  Value ringsDiffer(OpBuilder &builder, Location loc, Value a, Value b,
                    ValueRange lower, ValueRange upper,
                    RingCells cells) override;
  /// The points of one tile [tileLower, tileUpper) of a box of a reducing
  /// apply: stores the tile's partials in its slot of `partials`.
  void emitReducingTile(OpBuilder &builder, const ApplyLowering &apply,
                        ValueRange tileLower, ValueRange tileUpper,
                        const TilePartials &partials,
                        RowPrefetcher &prefetcher);

  bool buffersMayAliasMemRefs() const override { return true; }
  void copyFromMemRef(OpBuilder &builder, Location loc, Value memref,
                      Value buffer) override {
    memref::CopyOp::create(builder, loc, memref, buffer);
  }
  void copyToMemRef(OpBuilder &builder, Location loc, Value buffer,
                    Value memref) override {
    memref::CopyOp::create(builder, loc, buffer, memref);
  }

  Value loadScalar(OpBuilder &, Location, Value value) override {
    return value;
  }
  SmallVector<Value> emitApply(OpBuilder &builder, const ApplyLowering &apply,
                               BoxPartition partition) override;

  bool runsShallowTimeBlocks(const TimeBlockPlan &) const override {
    // Pipelined row sweeps and overlapped 1-D tiles both take their depth
    // at run time.
    return true;
  }
  SmallVector<Value> emitTimeBlock(OpBuilder &builder, Location loc,
                                   const TimeBlock &block,
                                   Value depth) override {
    if (block.plan.lower.size() >= 2)
      return emitPipelinedTimeBlock(builder, loc, block, depth);
    emitOverlappedTimeBlock(builder, loc, block, depth);
    return {};
  }
  bool storesFinalState(const TimeBlockPlan &plan) const override {
    return pipelinedBlockStoresFinalState(plan);
  }
  bool comparesRowEnds(const TimeBlockPlan &plan) const override {
    // The pipelined rows' last level; 1-D grids have two such cells.
    return plan.lower.size() >= 2;
  }
  bool reducesInTimeBlocks(const TimeBlockPlan &plan) const override {
    // The pipelined rows' last level; 1-D blocks' overlapped tiles skip the
    // reductions.
    return plan.lower.size() >= 2;
  }

  void finishFunction(func::FuncOp) override {}

private:
  HostLoweringOptions options;
};

} // namespace

/// The bits in which the cells of `a` and `b` at `point` differ, an
/// integer as wide as their elements: zero where they are equal in every
/// bit (-0.0 and NaNs included).
static Value getDifferingBits(OpBuilder &builder, Location loc, Value a,
                              Value b, ValueRange point) {
  Type element = llvm::cast<MemRefType>(a.getType()).getElementType();
  Type bits = builder.getIntegerType(element.getIntOrFloatBitWidth());
  auto asBits = [&](Value buffer) -> Value {
    Value v = memref::LoadOp::create(builder, loc, buffer, point);
    return element == bits
               ? v
               : arith::BitcastOp::create(builder, loc, bits, v).getResult();
  };
  Value bitsOfA = asBits(a);
  Value bitsOfB = asBits(b);
  return arith::XOrIOp::create(builder, loc, bitsOfA, bitsOfB);
}

Value host::getRowDifferingBits(OpBuilder &builder, Location loc, Value a,
                                Value b, ValueRange row, Value from, Value to) {
  Type element = llvm::cast<MemRefType>(a.getType()).getElementType();
  Type bits = builder.getIntegerType(element.getIntOrFloatBitWidth());
  Value none = arith::ConstantIntOp::create(builder, loc, bits, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  auto loop = scf::ForOp::create(
      builder, loc, from, to, one, ValueRange{none},
      [&](OpBuilder &nb, Location l, Value index, ValueRange differing) {
        SmallVector<Value, 4> point(row);
        point.push_back(index);
        Value cell = getDifferingBits(nb, l, a, b, point);
        Value all = arith::OrIOp::create(nb, l, differing.front(), cell);
        scf::YieldOp::create(nb, l, all);
      });
  return loop.getResult(0);
}

void host::flagIfNonZero(OpBuilder &builder, Location loc, Value bits,
                         Value flag) {
  Value zero = arith::ConstantIntOp::create(builder, loc, bits.getType(), 0);
  Value differs =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, bits, zero);
  auto ifOp = scf::IfOp::create(builder, loc, differs);
  OpBuilder then = ifOp.getThenBodyBuilder();
  setFlag(then, loc, flag);
}

Value HostBackend::ringsDiffer(OpBuilder &builder, Location loc, Value a,
                               Value b, ValueRange lower, ValueRange upper,
                               RingCells cells) {
  // A flag set by whichever row differs; an atomic store, as the large
  // slabs are compared in parallel. Each row or-s the bits that differ
  // and tests them once: rings that differ (Himeno's wrk2 starts at zero)
  // then cost a store a row, not a contended one a cell.
  Value flag = createClearedFlag(builder, loc);
  // The row ends are the slabs along the innermost axis (forEachRingSlab).
  unsigned rank = lower.size();
  unsigned firstAxis = cells == RingCells::RowEnds ? rank - 1 : 0;
  unsigned endAxis = cells == RingCells::AcrossRows ? rank - 1 : rank;
  forEachRingSlabOf(
      builder, loc, a, lower, upper,
      [&](OpBuilder &sb, ValueRange from, ValueRange to) {
        emitBoxRows(sb, loc, from, to, isLargeBox(from, to),
                    [&](OpBuilder &rb, Location rl, ValueRange row,
                        Value rowFrom, Value rowTo) {
                      flagIfNonZero(rb, rl,
                                    getRowDifferingBits(rb, rl, a, b, row,
                                                        rowFrom, rowTo),
                                    flag);
                    });
      },
      firstAxis, endAxis);
  return isFlagSet(builder, loc, flag);
}

SmallVector<Value> HostBackend::emitApply(OpBuilder &builder,
                                          const ApplyLowering &lowering,
                                          BoxPartition partition) {
  ApplyOp apply = lowering.apply;
  Location loc = apply.getLoc();
  unsigned rank = apply.getRank();
  ScheduleAttr schedule = lowering.schedule;
  SmallVector<int64_t, 3> tile =
      schedule ? SmallVector<int64_t, 3>(schedule.getTileOrWorkGroup())
               : getDefaultTile(rank, options.defaultTile);
  ArrayRef<Value> inputBuffers = lowering.inputs;
  ArrayRef<Value> outputBuffers = lowering.outputs;
  ValueRange lower = lowering.lower, upper = lowering.upper;
  ArrayRef<ReductionKind> kinds = lowering.reductions;
  bool reduces = !kinds.empty();
  // Streaming stores where the schedule asks for them and the body allows.
  bool streaming = schedule && schedule.getStreamingStores();
  std::string reason;
  if (streaming && reduces) {
    reason = "its rows do not reduce yet";
    streaming = false;
    apply.emitWarning("streaming_stores ignored: ") << reason;
  }
  if (streaming &&
      failed(checkVectorRows(apply, inputBuffers, outputBuffers, reason))) {
    apply.emitWarning("streaming_stores ignored: ") << reason;
    streaming = false;
  }
  ReductionAccumulators accumulators(builder, builder, loc, kinds,
                                     apply.getReduceInits());
  RowPrefetcher prefetcher(loc, apply, inputBuffers, outputBuffers,
                           options.prefetchDistance,
                           /*prefetchOutputs=*/!streaming);
  auto emitApplyPoint = [&](OpBuilder &b, Location l, ValueRange point) {
    lowering.emitPoint(b, l, point, *this);
  };
  // The points of the box [boxLower, boxUpper) as parallel tiles.
  auto emitBox = [&](OpBuilder &b, ValueRange boxLower, ValueRange boxUpper) {
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(b, loc, value);
    };
    SmallVector<Value> steps;
    for (unsigned axis = 0; axis < rank; ++axis) {
      if (tile[axis] > 0) {
        steps.push_back(constant(tile[axis]));
        continue;
      }
      // The whole extent, at least 1 so that an empty box is a valid loop.
      Value extent =
          arith::SubIOp::create(b, loc, boxUpper[axis], boxLower[axis]);
      steps.push_back(arith::MaxSIOp::create(b, loc, extent, constant(1)));
    }
    // Reductions: each tile's partial goes to its slot, the slots combined
    // in tile order after the loop.
    std::optional<TilePartials> partials;
    if (reduces)
      partials.emplace(b, loc, boxLower, boxUpper, steps,
                       apply.getReduceInits().getTypes(),
                       /*lineApart=*/false);
    auto parallel = scf::ParallelOp::create(b, loc, boxLower, boxUpper, steps);
    OpBuilder inTile = OpBuilder::atBlockBegin(parallel.getBody());
    SmallVector<Value> tileUpper;
    for (unsigned axis = 0; axis < rank; ++axis) {
      Value end = arith::AddIOp::create(
          inTile, loc, parallel.getInductionVars()[axis], steps[axis]);
      tileUpper.push_back(
          arith::MinSIOp::create(inTile, loc, end, boxUpper[axis]));
    }
    SmallVector<Value> ones(rank,
                            arith::ConstantIndexOp::create(inTile, loc, 1));
    SmallVector<Value> tileLower(parallel.getInductionVars());
    prefetcher.beginTile(inTile, tileLower, tileUpper);
    if (reduces) {
      emitReducingTile(inTile, lowering, tileLower, tileUpper, *partials,
                       prefetcher);
      // Combine the tiles' partials in order into the running values.
      accumulators.combine(b, partials->combine(b, kinds));
      partials->free(b);
      return;
    }
    // The rows, a prefetch ahead, and the points of a row.
    scf::buildLoopNest(
        inTile, loc, ArrayRef(tileLower).drop_back(),
        ArrayRef(tileUpper).drop_back(), ArrayRef(ones).drop_back(),
        [&](OpBuilder &nested, Location nestedLoc, ValueRange row) {
          prefetcher.emitRow(nested, row);
          if (streaming) {
            StreamingRing ring;
            ring.source = lowering.ringSources.front();
            ring.gridLower = lower.back();
            ring.gridUpper = upper.back();
            if (rank >= 2) {
              ring.rowGridLower = lower[rank - 2];
              ring.rowGridUpper = upper[rank - 2];
              ring.rowTileLower = tileLower[rank - 2];
              ring.rowTileUpper = tileUpper[rank - 2];
            }
            emitStreamingRow(nested, nestedLoc, apply, row, tileLower.back(),
                             tileUpper.back(), inputBuffers, outputBuffers,
                             emitApplyPoint, ring.source ? &ring : nullptr);
            return;
          }
          emitScalarRow(nested, nestedLoc, row, tileLower.back(),
                        tileUpper.back(), emitApplyPoint, ones.back());
        });
    if (streaming)
      emitStreamingFence(inTile, loc);
  };
  if (partition)
    partition(builder, lower, upper, emitBox);
  else
    emitBox(builder, lower, upper);
  return accumulators.load(builder);
}

void HostBackend::emitReducingTile(OpBuilder &builder,
                                   const ApplyLowering &lowering,
                                   ValueRange tileLower, ValueRange tileUpper,
                                   const TilePartials &partials,
                                   RowPrefetcher &prefetcher) {
  ApplyOp apply = lowering.apply;
  Location loc = apply.getLoc();
  unsigned rank = apply.getRank();
  ArrayRef<ReductionKind> kinds = lowering.reductions;
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  SmallVector<Value> ones(rank - 1, one);
  SmallVector<Value> identities;
  for (auto [kind, init] : llvm::zip_equal(kinds, apply.getReduceInits()))
    identities.push_back(
        createReductionIdentity(builder, loc, kind, init.getType()));
  // The rows, a prefetch ahead, and the points of a row, carrying the
  // tile's partials. The accumulation may be reassociated along a row, so
  // LLVM vectorizes it; the order stays a function of the schedule.
  scf::LoopNest rows = scf::buildLoopNest(
      builder, loc, tileLower.drop_back(), tileUpper.drop_back(), ones,
      identities,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange row,
          ValueRange sums) -> scf::ValueVector {
        prefetcher.emitRow(nested, row);
        auto points = scf::ForOp::create(
            nested, nestedLoc, tileLower.back(), tileUpper.back(), one, sums,
            [&](OpBuilder &b, Location l, Value column, ValueRange rowSums) {
              SmallVector<Value> next(rowSums);
              SmallVector<Value, 3> point(row);
              point.push_back(column);
              lowering.emitPoint(b, l, point, *this,
                                 [&](OpBuilder &rb, Location rl,
                                     unsigned reduction, Value value) {
                                   next[reduction] = createReductionCombine(
                                       rb, rl, kinds[reduction],
                                       next[reduction], value,
                                       /*reassociate=*/true);
                                 });
              scf::YieldOp::create(b, l, next);
            });
        return scf::ValueVector(points.getResults());
      });
  Value slot = partials.getSlot(builder, tileLower);
  for (auto [reduction, sum] : llvm::enumerate(rows.results))
    partials.store(builder, sum, reduction, slot);
}

std::unique_ptr<LoweringBackend>
mlir::stencil::createHostLoweringBackend(const HostLoweringOptions &options) {
  return std::make_unique<HostBackend>(options);
}

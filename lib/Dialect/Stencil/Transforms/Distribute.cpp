//===- Distribute.cpp - Functions on distributed fields run on each rank --===//
//
// `stencil-distribute` turns a function over distributed fields into the
// program every MPI rank runs on its own block (docs/MPI.md):
//
// - the region begins with `stencil_mpi_begin`, which lays the ranks out
//   over the distributed axes and fixes each rank's block of the global
//   index space (in proportion to a time loop's `stencil.device_split`,
//   seed 002, when it has one: `stencil_mpi_split` before the begin);
// - every array gets a local buffer (block plus halo) filled from the global
//   array, which every rank holds; loads read it, stores write it and are
//   followed by a gather that puts all blocks back into the global array.
//   A resident array (`stencil.resident` on its argument) exists only as
//   the blocks: its buffer starts zero-filled and nothing is gathered;
// - grids are clipped to the rank's block, in local coordinates;
// - field types lose their static extents along distributed axes (they
//   depend on the rank count) and keep their `#stencil.decomp`;
// - with an exchange depth k > 1 (seed 001), every field the time loop
//   reads is exchanged k x radius deep, so the loop can exchange every k
//   steps and compute the redundant ring in between.
//
// `stencil.exchange` stays: the lowering of exchanges (StencilToMPI, used by
// `convert-stencil-to-loops` and `convert-stencil-to-gpu`) turns it into
// runtime calls in functions this pass marks with `stencil.mpi`.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/Stencil/Analysis/AccessExtents.h"
#include "Stencil/Dialect/Stencil/IR/StencilOps.h"
#include "Stencil/Dialect/Stencil/Transforms/Passes.h"
#include "Stencil/Support/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "llvm/ADT/MapVector.h"

#include <map>

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILDISTRIBUTE
#include "Stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {

class FunctionDistribution {
public:
  FunctionDistribution(func::FuncOp func) : func(func) {}
  LogicalResult run();

private:
  LogicalResult checkDecomposition();
  void deepenExchanges();
  FieldType localize(FieldType type) const;
  void rewriteGrid(GridOp grid);
  /// Keeps `stencil.index` global on the local grids: the local offset of
  /// each distributed axis becomes an input of the applies that read one.
  void globalizeIndices();
  /// Gives each rank the part of every lower-rank field it reads along a
  /// distributed axis, in the local coordinates of that axis.
  LogicalResult localizeLowerRankFields(OpBuilder &builder,
                                        ArrayRef<Value> extents);
  Value copyLowerRankPart(OpBuilder &builder, LoadOp load,
                          ArrayRef<int64_t> signature, ArrayRef<int64_t> pad,
                          ArrayRef<Value> extents);

  func::FuncOp func;
  ModuleOp module;
  DecompositionAttr decomposition;
  unsigned rank = 0;
  /// The rank's block along each axis (global indices) and the global index
  /// of its local index 0.
  SmallVector<Value, 3> blockLower, blockUpper, localOffset;
  /// The ranks' parts of lower-rank fields, freed at the end.
  SmallVector<Value> lowerRankBuffers;
};

LogicalResult FunctionDistribution::checkDecomposition() {
  Operation *first = nullptr;
  WalkResult result = func.walk([&](Operation *op) -> WalkResult {
    if (!llvm::isa<LoadOp, StoreOp>(op))
      return WalkResult::advance();
    auto load = llvm::dyn_cast<LoadOp>(op);
    FieldType type = load ? load.getResult().getType()
                          : llvm::cast<StoreOp>(op).getField().getType();
    if (!first && type.isDistributed()) {
      first = op;
      decomposition = type.getDecomposition();
      rank = type.getShape().size();
    }
    return WalkResult::advance();
  });
  (void)result;
  if (!first)
    return success();
  // One decomposition for the whole region: the ranks' blocks are the same
  // for every array.
  auto check = [&](Operation *op, FieldType type) -> LogicalResult {
    if (type.getDecomposition() == decomposition)
      return success();
    // Lower-rank fields (read `along` some grid axes) are not distributed:
    // every rank holds them (localizeLowerRankFields).
    if (type.getShape().size() < rank && !type.isDistributed())
      return success();
    if (type.getShape().size() < rank)
      return op->emitOpError("field type ")
             << type << " has fewer axes than the decomposition "
             << decomposition << "; a lower-rank field is not distributed";
    return op->emitOpError("field type ")
           << type << " does not have the decomposition " << decomposition
           << " of the other fields of this function (" << first->getLoc()
           << "); one region distributes all its arrays "
              "alike";
  };
  WalkResult checked = func.walk([&](Operation *op) -> WalkResult {
    for (Value value : op->getResults())
      if (auto type = llvm::dyn_cast<FieldType>(value.getType()))
        if (failed(check(op, type)))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(checked.wasInterrupted());
}

/// Seed 001's deep halo: a time loop whose schedule exchanges every k steps
/// computes, after each exchange, a ring of (k - 1 - j) x radius cells
/// around its block at step j, so every field its applies read must arrive
/// k x radius deep along the distributed axes.
void FunctionDistribution::deepenExchanges() {
  func.walk([&](IterateOp iterate) {
    ScheduleAttr schedule = iterate.getScheduleAttr();
    int64_t depth = schedule ? schedule.getExchangeDepth() : 1;
    if (depth <= 1)
      return;
    Block *body = iterate.getBodyBlock();
    SmallVector<int64_t, 3> deep(rank, 0);
    for (auto apply : body->getOps<ApplyOp>())
      for (auto [axis, radius] :
           llvm::enumerate(getReadExtent(apply).getRadius()))
        if (decomposition.isDistributed(axis))
          deep[axis] = std::max(deep[axis], depth * radius);
    if (llvm::all_of(deep, [](int64_t w) { return w == 0; }))
      return;
    auto widen = [&](ExchangeOp exchange) {
      SmallVector<int64_t, 3> widths(exchange.getWidths());
      for (unsigned axis = 0; axis < rank; ++axis)
        widths[axis] = std::max(widths[axis], deep[axis]);
      exchange.setWidths(widths);
    };
    for (auto apply : llvm::to_vector(body->getOps<ApplyOp>())) {
      for (OpOperand &operand : apply.getInputsMutable()) {
        Value input = operand.get();
        if (!llvm::isa<FieldType>(input.getType()))
          continue;
        if (auto exchange = input.getDefiningOp<ExchangeOp>()) {
          widen(exchange);
          continue;
        }
        // A carried field read only at the centre still needs its ring:
        // the redundant points read it there.
        auto argument = llvm::dyn_cast<BlockArgument>(input);
        if (!argument || argument.getOwner() != body)
          continue;
        OpBuilder builder = OpBuilder::atBlockBegin(body);
        auto exchange = ExchangeOp::create(builder, apply.getLoc(), input,
                                           builder.getDenseI64ArrayAttr(deep));
        operand.set(exchange.getResult());
      }
    }
  });
}

FieldType FunctionDistribution::localize(FieldType type) const {
  if (type.getShape().size() != rank)
    return type;
  SmallVector<int64_t, 3> shape(type.getShape());
  for (unsigned axis = 0; axis < shape.size(); ++axis)
    if (decomposition.isDistributed(axis))
      shape[axis] = ShapedType::kDynamic;
  return FieldType::get(shape, type.getElementType(), decomposition);
}

void FunctionDistribution::globalizeIndices() {
  func.walk([&](ApplyOp apply) {
    Block *body = apply.getBodyBlock();
    DenseMap<unsigned, Value> offsets;
    for (auto index : llvm::to_vector(body->getOps<IndexOp>())) {
      unsigned axis = index.getAxis();
      if (!decomposition.isDistributed(axis))
        continue;
      Value &offset = offsets[axis];
      if (!offset) {
        // As an i64: kernels take integer and float scalars, not `index`.
        OpBuilder outside(apply);
        Value wide = arith::IndexCastOp::create(
            outside, index.getLoc(), outside.getI64Type(), localOffset[axis]);
        apply.getInputsMutable().append(wide);
        BlockArgument argument =
            body->addArgument(wide.getType(), index.getLoc());
        OpBuilder atStart = OpBuilder::atBlockBegin(body);
        offset = arith::IndexCastOp::create(atStart, index.getLoc(),
                                            atStart.getIndexType(), argument);
      }
      OpBuilder builder(index);
      builder.setInsertionPointAfter(index);
      auto global =
          arith::AddIOp::create(builder, index.getLoc(), index, offset);
      index.getResult().replaceAllUsesExcept(global, global);
    }
  });
}

/// A lower-rank field read along a distributed axis g (a coefficient table
/// cx[i] with i split across ranks) becomes, on each rank, the copy of its
/// cells from the rank's local index 0 minus `pad` to its local extent plus
/// `pad` along g (clipped to the array; the cells outside are never read),
/// where `pad` is the farthest the reads reach along that axis; the reads'
/// offsets grow by `pad`, so local index p along g reads global p + local
/// offset. Fields read along undistributed axes only stay global: every
/// rank holds the whole array. A field whose reads follow different axes
/// (a separable filter's c[j] and c[i], j distributed) gets one copy per
/// way of reading it, each a further input of the applies that read it so.
LogicalResult
FunctionDistribution::localizeLowerRankFields(OpBuilder &builder,
                                              ArrayRef<Value> extents) {
  // The reads of one lower-rank load that follow the same distributed grid
  // axis (or none: -1) with each field axis, and how far they reach.
  struct Reads {
    SmallVector<int64_t, 3> pad;
    SmallVector<AccessOp> accesses;
  };
  using Signature = SmallVector<int64_t, 3>;
  llvm::MapVector<LoadOp, std::map<Signature, Reads>> loads;
  WalkResult walk = func.walk([&](AccessOp access) -> WalkResult {
    auto apply = access->getParentOfType<ApplyOp>();
    Value field =
        apply.getFieldForArgument(llvm::cast<BlockArgument>(access.getField()));
    if (!field ||
        llvm::cast<FieldType>(field.getType()).getShape().size() >= rank)
      return WalkResult::advance();
    auto load = field.getDefiningOp<LoadOp>();
    if (!load)
      return access.emitOpError(
                 "reads a lower-rank field that is not a stencil.load of "
                 "the function; stencil-distribute gives each rank its part "
                 "of such a load only"),
             WalkResult::interrupt();
    Signature signature;
    for (int64_t axis : access.getGridAxes())
      signature.push_back(decomposition.isDistributed(axis) ? axis : -1);
    Reads &reads = loads[load][signature];
    reads.pad.resize(signature.size(), 0);
    for (auto [f, offset] : llvm::enumerate(access.getOffset()))
      if (signature[f] >= 0)
        reads.pad[f] = std::max(reads.pad[f], std::abs(offset));
    reads.accesses.push_back(access);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  for (auto &[load, groups] : loads) {
    for (auto &[signature, reads] : groups) {
      if (llvm::all_of(signature, [](int64_t axis) { return axis < 0; }))
        continue;
      Value local =
          copyLowerRankPart(builder, load, signature, reads.pad, extents);
      auto localType = llvm::cast<MemRefType>(local.getType());
      auto localField = FieldType::get(
          localType.getShape(), load.getResult().getType().getElementType());
      // One way of reading the field: the load itself reads the copy.
      // Several: a load of the copy beside it, a further apply input.
      Value replacement;
      if (groups.size() == 1) {
        load.getMemrefMutable().assign(local);
        load.getResult().setType(localField);
        for (Operation *user : load.getResult().getUsers())
          if (auto apply = llvm::dyn_cast<ApplyOp>(user))
            for (auto [index, input] : llvm::enumerate(apply.getInputs()))
              if (input == load.getResult())
                apply.getBodyBlock()->getArgument(index).setType(localField);
      } else {
        OpBuilder after(load);
        after.setInsertionPointAfter(load);
        auto copy = llvm::cast<LoadOp>(after.clone(*load));
        copy.getMemrefMutable().assign(local);
        copy.getResult().setType(localField);
        replacement = copy.getResult();
      }
      DenseMap<ApplyOp, BlockArgument> arguments;
      for (AccessOp access : reads.accesses) {
        if (replacement) {
          auto apply = access->getParentOfType<ApplyOp>();
          BlockArgument &argument = arguments[apply];
          if (!argument) {
            apply.getInputsMutable().append(replacement);
            argument =
                apply.getBodyBlock()->addArgument(localField, load.getLoc());
          }
          access.getFieldMutable().assign(argument);
        }
        SmallVector<int64_t, 3> offset(access.getOffset());
        for (unsigned f = 0; f < offset.size(); ++f)
          if (signature[f] >= 0)
            offset[f] += reads.pad[f];
        access.setOffset(offset);
      }
    }
  }
  return success();
}

/// The part of `load`'s array that the rank reads along the distributed
/// axes `signature` names (-1: the whole axis), `pad` cells beyond its
/// block on both sides, as a new buffer freed at the end.
Value FunctionDistribution::copyLowerRankPart(OpBuilder &builder, LoadOp load,
                                              ArrayRef<int64_t> signature,
                                              ArrayRef<int64_t> pad,
                                              ArrayRef<Value> extents) {
  Location loc = load.getLoc();
  Value global = load.getMemref();
  auto type = llvm::cast<MemRefType>(global.getType());
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  SmallVector<int64_t, 3> shape(type.getShape());
  SmallVector<Value> localSizes;
  SmallVector<OpFoldResult> from, sizes, to;
  for (unsigned f = 0; f < shape.size(); ++f) {
    Value n = memref::DimOp::create(builder, loc, global, f);
    if (signature[f] < 0) {
      if (type.isDynamicDim(f))
        localSizes.push_back(n);
      from.push_back(builder.getIndexAttr(0));
      to.push_back(builder.getIndexAttr(0));
      sizes.push_back(n);
      continue;
    }
    unsigned axis = signature[f];
    Value padCells = constant(pad[f]);
    Value extent =
        callRuntime(builder, loc, module, "stencil_mpi_local_extent",
                    {constant(axis), extents[axis]}, /*returnsIndex=*/true);
    Value size =
        arith::AddIOp::create(builder, loc, extent, constant(2 * pad[f]));
    localSizes.push_back(size);
    shape[f] = ShapedType::kDynamic;
    // Global cells [start, end) go to local start - (offset - pad).
    Value origin =
        arith::SubIOp::create(builder, loc, localOffset[axis], padCells);
    Value start = arith::MaxSIOp::create(builder, loc, origin, constant(0));
    Value end = arith::MinSIOp::create(
        builder, loc, arith::AddIOp::create(builder, loc, origin, size), n);
    end = arith::MaxSIOp::create(builder, loc, end, start);
    from.push_back(start);
    sizes.push_back(
        arith::SubIOp::create(builder, loc, end, start).getResult());
    to.push_back(
        arith::SubIOp::create(builder, loc, start, origin).getResult());
  }
  auto localType = MemRefType::get(shape, type.getElementType());
  Value local = memref::AllocOp::create(builder, loc, localType, localSizes);
  // A loop nest rather than memref.copy of subviews: the lowerings do not
  // expand strided views.
  SmallVector<Value> zeros(shape.size(), constant(0)),
      steps(shape.size(), constant(1)), upper;
  for (OpFoldResult size : sizes)
    upper.push_back(getValueOrCreateConstantIndexOp(builder, loc, size));
  scf::buildLoopNest(
      builder, loc, zeros, upper, steps,
      [&](OpBuilder &b, Location l, ValueRange cell) {
        SmallVector<Value, 3> at, into;
        for (auto [f, index] : llvm::enumerate(cell)) {
          at.push_back(arith::AddIOp::create(
              b, l, getValueOrCreateConstantIndexOp(b, l, from[f]), index));
          into.push_back(arith::AddIOp::create(
              b, l, getValueOrCreateConstantIndexOp(b, l, to[f]), index));
        }
        Value value = memref::LoadOp::create(b, l, global, at);
        memref::StoreOp::create(b, l, value, local, into);
      });
  lowerRankBuffers.push_back(local);
  return local;
}

/// [lower, upper) becomes [max(lower, block lower), min(upper, block
/// upper)) minus the local offset, empty when the block misses the grid.
void FunctionDistribution::rewriteGrid(GridOp grid) {
  OpBuilder builder(grid);
  Location loc = grid.getLoc();
  SmallVector<int64_t, 3> staticLower(grid.getStaticLower()),
      staticUpper(grid.getStaticUpper());
  SmallVector<Value> lower, upper;
  auto dynamicLower = grid.getDynamicLower().begin();
  auto dynamicUpper = grid.getDynamicUpper().begin();
  for (unsigned axis = 0; axis < rank; ++axis) {
    auto bound = [&](int64_t fixed, auto &dynamic) -> Value {
      if (!ShapedType::isDynamic(fixed))
        return arith::ConstantIndexOp::create(builder, loc, fixed);
      return *dynamic++;
    };
    if (!decomposition.isDistributed(axis)) {
      if (ShapedType::isDynamic(staticLower[axis]))
        lower.push_back(*dynamicLower++);
      if (ShapedType::isDynamic(staticUpper[axis]))
        upper.push_back(*dynamicUpper++);
      continue;
    }
    Value lo = bound(staticLower[axis], dynamicLower);
    Value hi = bound(staticUpper[axis], dynamicUpper);
    lo = arith::MaxSIOp::create(builder, loc, lo, blockLower[axis]);
    hi = arith::MinSIOp::create(builder, loc, hi, blockUpper[axis]);
    hi = arith::MaxSIOp::create(builder, loc, hi, lo);
    lower.push_back(arith::SubIOp::create(builder, loc, lo, localOffset[axis]));
    upper.push_back(arith::SubIOp::create(builder, loc, hi, localOffset[axis]));
    staticLower[axis] = staticUpper[axis] = ShapedType::kDynamic;
  }
  auto local = GridOp::create(builder, loc, grid.getType(), lower, upper,
                              staticLower, staticUpper);
  grid.replaceAllUsesWith(local.getResult());
  grid.erase();
}

LogicalResult FunctionDistribution::run() {
  module = func->getParentOfType<ModuleOp>();
  if (failed(checkDecomposition()))
    return failure();
  if (!decomposition)
    return success();
  if (func.getBody().getBlocks().size() != 1)
    return func.emitOpError("with distributed fields must have a single "
                            "block");
  deepenExchanges();

  // The widest exchange along each axis is the halo every local buffer
  // keeps.
  SmallVector<int64_t, 3> halo(rank, 0);
  func.walk([&](ExchangeOp exchange) {
    for (auto [axis, width] : llvm::enumerate(exchange.getWidths()))
      halo[axis] = std::max(halo[axis], width);
  });

  // The arrays, in order of first use, and where the region starts.
  Block &entry = func.getBody().front();
  Operation *start = nullptr;
  llvm::MapVector<Value, Value> localBuffers;
  for (Operation &op : entry) {
    if (!start && llvm::isa<StencilDialect>(op.getDialect()))
      start = &op;
    if (auto load = llvm::dyn_cast<LoadOp>(op))
      localBuffers.insert({load.getMemref(), Value()});
    if (auto store = llvm::dyn_cast<StoreOp>(op))
      localBuffers.insert({store.getMemref(), Value()});
  }
  if (localBuffers.empty())
    return func.emitOpError("has distributed fields but no stencil.load or "
                            "stencil.store at its top level");
  DominanceInfo dominance(func);
  for (auto &[memref, local] : localBuffers)
    if (!dominance.properlyDominates(memref, start))
      return start->emitOpError("starts a distributed region before the "
                                "memref it loads or stores is defined");

  OpBuilder builder(start);
  Location loc = start->getLoc();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  // The first array's extents are the global index space that is split.
  // (Lower-rank fields, read along some axes only, do not give it.)
  Value global =
      llvm::find_if(localBuffers, [&](const auto &entry) {
        return llvm::cast<MemRefType>(entry.first.getType()).getRank() == rank;
      })->first;
  SmallVector<Value> extents;
  for (unsigned axis = 0; axis < rank; ++axis)
    extents.push_back(memref::DimOp::create(builder, loc, global, axis));
  int64_t mask = 0;
  for (unsigned axis = 0; axis < rank; ++axis)
    if (decomposition.isDistributed(axis))
      mask |= int64_t(1) << axis;
  // A split across unequal devices (stencil-tune-split, seed 002) gives the
  // ranks blocks of the outermost axis in proportion to their shares.
  DenseI64ArrayAttr split;
  auto splitHelper = StencilDialect::DeviceSplitAttrHelper(func.getContext());
  WalkResult splits = func.walk([&](IterateOp iterate) -> WalkResult {
    DenseI64ArrayAttr shares = splitHelper.getAttr(iterate);
    if (!shares)
      return WalkResult::advance();
    if (mask != 1)
      return iterate.emitOpError("has a device split (stencil.device_split), "
                                 "which divides the outermost axis among "
                                 "the devices; distribute that axis only, "
                                 "e.g. distribute(block, *)");
    if (split && split != shares)
      return iterate.emitOpError("has a device split that differs from "
                                 "another time loop's in the function");
    if (llvm::any_of(shares.asArrayRef(),
                     [](int64_t share) { return share < 0; }) ||
        llvm::all_of(shares.asArrayRef(),
                     [](int64_t share) { return share == 0; }))
      return iterate.emitOpError("has a device split without positive "
                                 "shares");
    split = shares;
    return WalkResult::advance();
  });
  if (splits.wasInterrupted())
    return failure();
  if (split)
    for (auto [index, share] : llvm::enumerate(split.asArrayRef()))
      callRuntime(builder, loc, module, "stencil_mpi_split",
                  {constant(split.size()), constant(index), constant(share)});
  SmallVector<Value> beginArgs = {constant(rank)};
  llvm::append_range(beginArgs, padToThreeAxes(builder, loc, extents, 1));
  beginArgs.push_back(constant(mask));
  SmallVector<Value> haloValues;
  for (int64_t width : halo)
    haloValues.push_back(constant(width));
  llvm::append_range(beginArgs, padToThreeAxes(builder, loc, haloValues, 0));
  // The box the region computes: the union of its grids.
  SmallVector<Value> unionLower, unionUpper;
  for (GridOp grid : func.getOps<GridOp>()) {
    SmallVector<Value> lower, upper;
    auto dynamicLower = grid.getDynamicLower().begin();
    auto dynamicUpper = grid.getDynamicUpper().begin();
    auto bound = [&](int64_t fixed, auto &dynamic) -> Value {
      return ShapedType::isDynamic(fixed) ? Value(*dynamic++) : constant(fixed);
    };
    for (unsigned axis = 0; axis < rank; ++axis) {
      lower.push_back(bound(grid.getStaticLower()[axis], dynamicLower));
      upper.push_back(bound(grid.getStaticUpper()[axis], dynamicUpper));
    }
    for (Value value : llvm::concat<Value>(lower, upper))
      if (!dominance.properlyDominates(value, start))
        return grid.emitOpError("has a bound defined after the distributed "
                                "region starts; define it before the first "
                                "stencil op");
    if (unionLower.empty()) {
      unionLower = lower;
      unionUpper = upper;
      continue;
    }
    for (unsigned axis = 0; axis < rank; ++axis) {
      unionLower[axis] =
          arith::MinSIOp::create(builder, loc, unionLower[axis], lower[axis]);
      unionUpper[axis] =
          arith::MaxSIOp::create(builder, loc, unionUpper[axis], upper[axis]);
    }
  }
  if (unionLower.empty())
    return func.emitOpError("has distributed fields but no stencil.grid");
  llvm::append_range(beginArgs, padToThreeAxes(builder, loc, unionLower, 0));
  llvm::append_range(beginArgs, padToThreeAxes(builder, loc, unionUpper, 1));
  callRuntime(builder, loc, module, "stencil_mpi_begin", beginArgs);
  for (unsigned axis = 0; axis < rank; ++axis) {
    Value axisValue = constant(axis);
    blockLower.push_back(callRuntime(builder, loc, module,
                                     "stencil_mpi_block_lower", axisValue,
                                     /*returnsIndex=*/true));
    blockUpper.push_back(callRuntime(builder, loc, module,
                                     "stencil_mpi_block_upper", axisValue,
                                     /*returnsIndex=*/true));
    localOffset.push_back(callRuntime(builder, loc, module,
                                      "stencil_mpi_local_offset", axisValue,
                                      /*returnsIndex=*/true));
  }

  // Local buffers, filled from the global arrays every rank holds.
  auto elementBytes = [&](Value memref) {
    Type element = llvm::cast<MemRefType>(memref.getType()).getElementType();
    return constant(element.getIntOrFloatBitWidth() / 8);
  };
  auto sizesOf = [&](Value memref) {
    SmallVector<Value> sizes;
    for (unsigned axis = 0; axis < rank; ++axis)
      sizes.push_back(memref::DimOp::create(builder, loc, memref, axis));
    return padToThreeAxes(builder, loc, sizes, 1);
  };
  // stencil_mpi_scatter / _gather(global, local, element bytes, global
  // extents, local extents).
  auto transfer = [&](StringRef name, Value memref, Value local) {
    SmallVector<Value> args = {getBufferAddress(builder, loc, memref),
                               getBufferAddress(builder, loc, local),
                               elementBytes(memref)};
    llvm::append_range(args, sizesOf(memref));
    llvm::append_range(args, sizesOf(local));
    callRuntime(builder, loc, module, name, args);
  };
  // A resident array (`stencil.resident`) has no global array to scatter
  // from or gather into: its rank's block starts zero-filled, as C's static
  // arrays do, and the caller passes no array.
  auto residentAttr = StencilDialect::ResidentAttrHelper(func.getContext());
  auto isResident = [&](Value memref) {
    // Arrays of run-time extent are views of their argument.
    if (auto view = memref.getDefiningOp<memref::ReinterpretCastOp>())
      memref = view.getSource();
    auto argument = llvm::dyn_cast<BlockArgument>(memref);
    return argument && argument.getOwner() == &entry &&
           func.getArgAttr(argument.getArgNumber(), residentAttr.getName());
  };
  for (auto &[memref, local] : localBuffers) {
    auto type = llvm::cast<MemRefType>(memref.getType());
    // Lower-rank fields: localizeLowerRankFields.
    if (type.getRank() < rank) {
      local = memref;
      continue;
    }
    // checkDecomposition gave every field the decomposition's rank.
    assert(type.getRank() == rank && "one rank for all distributed arrays");
    SmallVector<int64_t, 3> shape(type.getShape());
    SmallVector<Value> dynamicSizes;
    for (unsigned axis = 0; axis < rank; ++axis) {
      Value extent =
          type.isDynamicDim(axis) || decomposition.isDistributed(axis)
              ? memref::DimOp::create(builder, loc, memref, axis)
              : Value();
      // A replicated axis keeps its extent, run-time or not.
      if (!decomposition.isDistributed(axis)) {
        if (extent)
          dynamicSizes.push_back(extent);
        continue;
      }
      dynamicSizes.push_back(
          callRuntime(builder, loc, module, "stencil_mpi_local_extent",
                      {constant(axis), extent}, /*returnsIndex=*/true));
      shape[axis] = ShapedType::kDynamic;
    }
    local = memref::AllocOp::create(
        builder, loc, MemRefType::get(shape, type.getElementType()),
        dynamicSizes);
    if (!isResident(memref)) {
      transfer("stencil_mpi_scatter", memref, local);
      continue;
    }
    SmallVector<Value> args = {getBufferAddress(builder, loc, local),
                               elementBytes(memref)};
    llvm::append_range(args, sizesOf(local));
    callRuntime(builder, loc, module, "stencil_mpi_clear", args);
  }

  if (failed(localizeLowerRankFields(builder, extents)))
    return failure();

  // Loads and stores use the local buffers; a store is followed by the
  // gather that makes the global array whole again.
  for (Operation &op : llvm::make_early_inc_range(entry)) {
    if (auto load = llvm::dyn_cast<LoadOp>(op)) {
      if (Value local = localBuffers.lookup(load.getMemref()))
        load.getMemrefMutable().assign(local);
      continue;
    }
    auto store = llvm::dyn_cast<StoreOp>(op);
    if (!store)
      continue;
    Value memref = store.getMemref();
    Value local = localBuffers.lookup(memref);
    store.getMemrefMutable().assign(local);
    if (isResident(memref))
      continue;
    builder.setInsertionPointAfter(store);
    loc = store.getLoc();
    transfer("stencil_mpi_gather", memref, local);
  }
  for (auto grid : llvm::to_vector(func.getOps<GridOp>()))
    rewriteGrid(grid);
  globalizeIndices();

  // Field types: the extents of distributed axes are now per rank.
  func.walk([&](Operation *op) {
    for (Value result : op->getResults())
      if (auto type = llvm::dyn_cast<FieldType>(result.getType()))
        result.setType(localize(type));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          if (auto type = llvm::dyn_cast<FieldType>(argument.getType()))
            argument.setType(localize(type));
  });

  // The region ends before every return: buffers freed, counters printed.
  func.walk([&](func::ReturnOp ret) {
    builder.setInsertionPoint(ret);
    for (auto &[memref, local] : localBuffers)
      if (local != memref)
        memref::DeallocOp::create(builder, ret.getLoc(), local);
    for (Value local : lowerRankBuffers)
      memref::DeallocOp::create(builder, ret.getLoc(), local);
    callRuntime(builder, ret.getLoc(), module, "stencil_mpi_end", {});
  });
  StencilDialect::MpiAttrHelper(func.getContext())
      .setAttr(func, UnitAttr::get(func.getContext()));
  return success();
}

struct StencilDistributePass
    : public stencil::impl::StencilDistributeBase<StencilDistributePass> {
  void runOnOperation() override {
    for (auto func : llvm::to_vector(getOperation().getOps<func::FuncOp>())) {
      if (func.isExternal() ||
          StencilDialect::MpiAttrHelper(&getContext()).isAttrPresent(func))
        continue;
      if (failed(FunctionDistribution(func).run()))
        return signalPassFailure();
    }
  }
};

} // namespace

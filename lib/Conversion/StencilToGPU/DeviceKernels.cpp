//===- DeviceKernels.cpp - Boxes of points as GPU kernels -----------------===//
//
// The device side of the lowering: `gpu.launch` ops whose work items are
// grid points (seed 000 §3.1), and the time-blocked kernel that keeps a
// tile and its halo in workgroup memory across several steps (seed 000
// Fig. 3). `gpu-kernel-outlining` later turns each launch into a kernel;
// the bounds are constants, so kernels take buffers only.
//
// Axis a of a rank-r grid (outermost first) runs along GPU dimension
// r - 1 - a: the innermost, contiguous axis is x, so neighbouring work
// items touch neighbouring addresses.
//
//===----------------------------------------------------------------------===//

#include "DeviceKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::device;

namespace {

Value getIndex(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

/// The work item's id along the GPU dimension of `axis`.
Value getDimension(const gpu::KernelDim3 &ids, unsigned rank, unsigned axis) {
  switch (rank - 1 - axis) {
  case 0:
    return ids.x;
  case 1:
    return ids.y;
  default:
    return ids.z;
  }
}

/// A launch of `groups` work groups of `workGroup` items (both outermost
/// axis first) with `attributions` in workgroup memory; returns a builder
/// at the start of its body, before its terminator.
gpu::LaunchOp createLaunch(OpBuilder &builder, Location loc,
                           ArrayRef<OpFoldResult> groups,
                           ArrayRef<int64_t> workGroup,
                           TypeRange attributions = {}) {
  unsigned rank = groups.size();
  SmallVector<Value, 3> gridSize(3), blockSize(3);
  for (unsigned dim = 0; dim < 3; ++dim) {
    bool used = dim < rank;
    gridSize[dim] = used ? getValueOrCreateConstantIndexOp(
                               builder, loc, groups[rank - 1 - dim])
                         : getIndex(builder, loc, 1);
    blockSize[dim] =
        getIndex(builder, loc, used ? workGroup[rank - 1 - dim] : 1);
  }
  auto launch = gpu::LaunchOp::create(
      builder, loc, gridSize[0], gridSize[1], gridSize[2], blockSize[0],
      blockSize[1], blockSize[2], /*dynamicSharedMemorySize=*/nullptr,
      /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{}, attributions);
  OpBuilder body = OpBuilder::atBlockBegin(&launch.getBody().front());
  gpu::TerminatorOp::create(body, loc);
  return launch;
}

/// Grid bound `bound` of a time block inside a kernel.
Value getBound(OpBuilder &builder, Location loc, OpFoldResult bound,
               KernelIndexFn index) {
  if (std::optional<int64_t> value = getConstantIntValue(bound))
    return getIndex(builder, loc, *value);
  return index(builder, loc, llvm::cast<Value>(bound));
}

/// Runs `body` on the points of [from, to) that this work item owns: along
/// each axis, every workGroup-th point starting at its thread id. Uniform
/// loops, so barriers after them are reached by all items of the group.
void forEachOwnedPoint(OpBuilder &builder, Location loc,
                       const gpu::KernelDim3 &threadIds,
                       ArrayRef<int64_t> workGroup, ValueRange from,
                       ValueRange to, PointFn body) {
  unsigned rank = from.size();
  SmallVector<Value, 3> starts, steps;
  for (unsigned axis = 0; axis < rank; ++axis) {
    starts.push_back(arith::AddIOp::create(
        builder, loc, from[axis], getDimension(threadIds, rank, axis)));
    steps.push_back(getIndex(builder, loc, workGroup[axis]));
  }
  scf::buildLoopNest(builder, loc, starts, to, steps,
                     [&](OpBuilder &nested, Location nestedLoc,
                         ValueRange point) { body(nested, nestedLoc, point); });
}

} // namespace

std::optional<int64_t> device::getMaxGroupCount(ArrayRef<int64_t> workGroup,
                                                ValueRange lower,
                                                ValueRange upper,
                                                ArrayRef<int64_t> fieldShape) {
  int64_t count = 1;
  for (auto [axis, size] : llvm::enumerate(workGroup)) {
    std::optional<int64_t> low = getConstantIntValue(lower[axis]);
    std::optional<int64_t> high = getConstantIntValue(upper[axis]);
    // A box with a run-time bound lies inside its field.
    if (!(low && high) && ShapedType::isDynamic(fieldShape[axis]))
      return std::nullopt;
    int64_t extent = low && high ? *high - *low : fieldShape[axis];
    count *= extent > 0 ? llvm::divideCeil(extent, size) : 0;
  }
  return count;
}

namespace {

/// A launch over the box [lower, upper), one work item per point, and in
/// its body the item's point and whether it lies in the box (null when
/// every item does: no partial group). `groupCount` is the number of
/// groups, on the host.
struct BoxLaunch {
  gpu::LaunchOp launch;
  SmallVector<Value, 3> point;
  Value inside;
  Value groupCount;
};

/// Per axis, the work groups of `workGroup` items that cover [lower,
/// upper), an extent below `minExtent` counted as `minExtent`: constants
/// where both bounds are, else computed on the host.
SmallVector<OpFoldResult, 3>
getGroupsPerAxis(OpBuilder &builder, Location loc, ArrayRef<int64_t> workGroup,
                 ValueRange lower, ValueRange upper, int64_t minExtent) {
  SmallVector<OpFoldResult, 3> groups;
  for (auto [axis, size] : llvm::enumerate(workGroup)) {
    std::optional<int64_t> low = getConstantIntValue(lower[axis]);
    std::optional<int64_t> high = getConstantIntValue(upper[axis]);
    if (low && high) {
      groups.push_back(builder.getIndexAttr(
          llvm::divideCeil(std::max(*high - *low, minExtent), size)));
      continue;
    }
    Value extent =
        arith::SubIOp::create(builder, loc, upper[axis], lower[axis]);
    Value clamped = arith::MaxSIOp::create(builder, loc, extent,
                                           getIndex(builder, loc, minExtent));
    groups.push_back(arith::CeilDivSIOp::create(builder, loc, clamped,
                                                getIndex(builder, loc, size))
                         .getResult());
  }
  return groups;
}

/// The product of `groups`: a constant when they all are.
Value multiplyGroups(OpBuilder &builder, Location loc,
                     ArrayRef<OpFoldResult> groups) {
  std::optional<int64_t> constant = 1;
  for (OpFoldResult count : groups) {
    std::optional<int64_t> value = getConstantIntValue(count);
    constant = constant && value ? std::optional<int64_t>(*constant * *value)
                                 : std::nullopt;
  }
  if (constant)
    return getIndex(builder, loc, *constant);
  Value product = getIndex(builder, loc, 1);
  for (OpFoldResult count : groups) {
    Value value = getValueOrCreateConstantIndexOp(builder, loc, count);
    product = arith::MulIOp::create(builder, loc, product, value);
  }
  return product;
}

/// Null for a box known to be empty (a launch of zero groups is an error);
/// a box with run-time bounds is launched only when it is not empty.
std::optional<BoxLaunch> createBoxLaunch(OpBuilder &builder, Location loc,
                                         ArrayRef<int64_t> workGroup,
                                         ValueRange lower, ValueRange upper,
                                         KernelIndexFn index,
                                         TypeRange attributions = {}) {
  unsigned rank = lower.size();
  SmallVector<bool, 3> partial;
  bool dynamic = false;
  for (unsigned axis = 0; axis < rank; ++axis) {
    std::optional<int64_t> low = getConstantIntValue(lower[axis]);
    std::optional<int64_t> high = getConstantIntValue(upper[axis]);
    if (!low || !high) {
      dynamic = true;
      partial.push_back(true);
      continue;
    }
    int64_t extent = *high - *low;
    if (extent <= 0)
      return std::nullopt;
    // Only a partial last group has items past the box.
    partial.push_back(extent % workGroup[axis] != 0);
  }
  SmallVector<OpFoldResult, 3> groups =
      getGroupsPerAxis(builder, loc, workGroup, lower, upper, /*minExtent=*/0);
  BoxLaunch box;
  box.groupCount = multiplyGroups(builder, loc, groups);
  // A box found empty at run time launches nothing.
  OpBuilder::InsertionGuard guard(builder);
  if (dynamic) {
    Value nonEmpty =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt,
                              box.groupCount, getIndex(builder, loc, 0));
    auto ifOp = scf::IfOp::create(builder, loc, nonEmpty);
    builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  box.launch = createLaunch(builder, loc, groups, workGroup, attributions);
  OpBuilder b(box.launch.getBody().front().getTerminator());
  for (unsigned axis = 0; axis < rank; ++axis) {
    Value first = arith::MulIOp::create(
        b, loc, getDimension(box.launch.getBlockIds(), rank, axis),
        getIndex(b, loc, workGroup[axis]));
    Value offset = arith::AddIOp::create(
        b, loc, first, getDimension(box.launch.getThreadIds(), rank, axis));
    Value origin = index(b, loc, lower[axis]);
    box.point.push_back(arith::AddIOp::create(b, loc, offset, origin));
    if (!partial[axis])
      continue;
    Value end = index(b, loc, upper[axis]);
    Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                        box.point.back(), end);
    box.inside =
        box.inside ? arith::AndIOp::create(b, loc, box.inside, below) : below;
  }
  return box;
}

/// x + sizes.x * (y + sizes.y * z), for the ids and sizes of a launch.
Value linearize(OpBuilder &builder, Location loc, const gpu::KernelDim3 &ids,
                const gpu::KernelDim3 &sizes) {
  Value zy = arith::AddIOp::create(
      builder, loc, ids.y, arith::MulIOp::create(builder, loc, sizes.y, ids.z));
  return arith::AddIOp::create(
      builder, loc, ids.x, arith::MulIOp::create(builder, loc, sizes.x, zy));
}

} // namespace

void device::emitDeviceBox(OpBuilder &builder, Location loc,
                           ArrayRef<int64_t> workGroup, ValueRange lower,
                           ValueRange upper, KernelIndexFn index,
                           PointFn body) {
  std::optional<BoxLaunch> box =
      createBoxLaunch(builder, loc, workGroup, lower, upper, index);
  if (!box)
    return;
  OpBuilder b(box->launch.getBody().front().getTerminator());
  if (!box->inside) {
    body(b, loc, box->point);
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, box->inside);
  OpBuilder then = ifOp.getThenBodyBuilder();
  body(then, loc, box->point);
}

Value device::buildGroupCount(OpBuilder &builder, Location loc,
                              ArrayRef<int64_t> workGroup, ValueRange lower,
                              ValueRange upper, int64_t minExtent) {
  return multiplyGroups(
      builder, loc,
      getGroupsPerAxis(builder, loc, workGroup, lower, upper, minExtent));
}

Value device::emitDeviceReducingBox(OpBuilder &builder, Location loc,
                                    ArrayRef<int64_t> workGroup,
                                    ValueRange lower, ValueRange upper,
                                    KernelIndexFn index,
                                    ArrayRef<ReductionKind> kinds,
                                    ArrayRef<Value> partials,
                                    ContributionFn body) {
  int64_t items = 1;
  for (int64_t size : workGroup)
    items *= size;
  // One slot per work item and reduction in workgroup memory.
  auto workgroupSpace = gpu::AddressSpaceAttr::get(
      builder.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  SmallVector<Type> types, attributionTypes;
  for (Value buffer : partials) {
    types.push_back(llvm::cast<MemRefType>(buffer.getType()).getElementType());
    attributionTypes.push_back(MemRefType::get(
        {items}, types.back(), MemRefLayoutAttrInterface(), workgroupSpace));
  }
  std::optional<BoxLaunch> box = createBoxLaunch(
      builder, loc, workGroup, lower, upper, index, attributionTypes);
  // An empty box contributes nothing: its partials stay unwritten, and the
  // caller reads none of them.
  if (!box)
    return getIndex(builder, loc, 0);
  gpu::LaunchOp launch = box->launch;
  OpBuilder b(launch.getBody().front().getTerminator());
  // Items past the box contribute the identities. Every item goes on to the
  // barriers below.
  SmallVector<Value> contributions;
  if (!box->inside) {
    contributions = body(b, loc, box->point);
  } else {
    auto ifOp = scf::IfOp::create(b, loc, types, box->inside,
                                  /*addThenBlock=*/true,
                                  /*addElseBlock=*/true);
    OpBuilder then = ifOp.getThenBodyBuilder();
    scf::YieldOp::create(then, loc, body(then, loc, box->point));
    OpBuilder otherwise = ifOp.getElseBodyBuilder();
    SmallVector<Value> identities;
    for (auto [kind, type] : llvm::zip_equal(kinds, types))
      identities.push_back(createReductionIdentity(otherwise, loc, kind, type));
    scf::YieldOp::create(otherwise, loc, identities);
    contributions.assign(ifOp.getResults().begin(), ifOp.getResults().end());
  }
  ArrayRef<BlockArgument> slots = launch.getWorkgroupAttributions();
  Value item = linearize(b, loc, launch.getThreadIds(), launch.getBlockSize());
  for (auto [slot, contribution] : llvm::zip_equal(slots, contributions))
    memref::StoreOp::create(b, loc, contribution, slot, item);
  gpu::BarrierOp::create(b, loc);
  // The tree: at stride s, item i < s takes in item i + s, for s halving
  // from the largest power of two below `items`; a fixed order, so a launch
  // gives the same bits every time.
  for (int64_t stride = llvm::PowerOf2Ceil(items) / 2; stride >= 1;
       stride /= 2) {
    Value active = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, item,
        getIndex(b, loc, std::min(stride, items - stride)));
    auto ifOp = scf::IfOp::create(b, loc, active);
    OpBuilder then = ifOp.getThenBodyBuilder();
    Value partner =
        arith::AddIOp::create(then, loc, item, getIndex(then, loc, stride));
    for (auto [kind, slot] : llvm::zip_equal(kinds, slots)) {
      Value mine = memref::LoadOp::create(then, loc, slot, item);
      Value theirs = memref::LoadOp::create(then, loc, slot, partner);
      memref::StoreOp::create(
          then, loc, createReductionCombine(then, loc, kind, mine, theirs),
          slot, item);
    }
    gpu::BarrierOp::create(b, loc);
  }
  // Item 0 writes the group's partial.
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, item,
                                      getIndex(b, loc, 0));
  auto ifOp = scf::IfOp::create(b, loc, first);
  OpBuilder then = ifOp.getThenBodyBuilder();
  Value group =
      linearize(then, loc, launch.getBlockIds(), launch.getGridSize());
  Value zero = getIndex(then, loc, 0);
  for (auto [slot, partial] : llvm::zip_equal(slots, partials)) {
    Value value = memref::LoadOp::create(then, loc, slot, zero);
    memref::StoreOp::create(then, loc, value, partial, group);
  }
  return box->groupCount;
}

int64_t device::getTimeBlockWorkgroupBytes(const TimeBlockPlan &plan) {
  int64_t points = 1;
  for (int64_t size : OverlappedTile::getShape(plan, plan.tile))
    points *= size;
  int64_t bytes = 0;
  int64_t copies = plan.getBuffersPerPair();
  for (Type element : plan.elementTypes)
    bytes += copies * points * element.getIntOrFloatBitWidth() / 8;
  return bytes;
}

void device::emitDeviceTimeBlock(OpBuilder &builder, Location loc,
                                 const TimeBlock &block,
                                 ArrayRef<int64_t> workGroup,
                                 KernelIndexFn index, StageScalarFn scalar) {
  const TimeBlockPlan &plan = block.plan;
  ArrayRef<int64_t> tile = plan.tile;
  unsigned rank = tile.size();
  SmallVector<int64_t, 3> localShape = OverlappedTile::getShape(plan, tile);

  // One group per tile; with run-time bounds, none for an empty grid.
  SmallVector<OpFoldResult, 3> groups;
  Value nonEmpty;
  for (unsigned axis = 0; axis < rank; ++axis) {
    if (std::optional<int64_t> extent = plan.getStaticExtent(axis)) {
      groups.push_back(
          builder.getIndexAttr(llvm::divideCeil(*extent, tile[axis])));
      continue;
    }
    Value low = getValueOrCreateConstantIndexOp(builder, loc, plan.lower[axis]);
    Value high =
        getValueOrCreateConstantIndexOp(builder, loc, plan.upper[axis]);
    Value extent = arith::SubIOp::create(builder, loc, high, low);
    Value count = arith::CeilDivSIOp::create(
        builder, loc, extent, getIndex(builder, loc, tile[axis]));
    groups.push_back(count);
    Value positive =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt, count,
                              getIndex(builder, loc, 0));
    nonEmpty = nonEmpty
                   ? arith::AndIOp::create(builder, loc, nonEmpty, positive)
                   : positive;
  }
  OpBuilder::InsertionGuard guard(builder);
  if (nonEmpty) {
    auto ifOp = scf::IfOp::create(builder, loc, nonEmpty);
    builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  }
  // Per carried field, the tile's buffers (getBuffersPerPair) in workgroup
  // memory.
  unsigned stages = plan.getNumStages();
  unsigned perPair = plan.getBuffersPerPair();
  auto workgroupSpace = gpu::AddressSpaceAttr::get(
      builder.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
  SmallVector<Type> attributionTypes;
  for (Value source : block.sources) {
    auto type = MemRefType::get(
        localShape, llvm::cast<MemRefType>(source.getType()).getElementType(),
        MemRefLayoutAttrInterface(), workgroupSpace);
    attributionTypes.append(perPair, type);
  }
  gpu::LaunchOp launch =
      createLaunch(builder, loc, groups, workGroup, attributionTypes);
  ArrayRef<BlockArgument> attributions = launch.getWorkgroupAttributions();
  auto local = [&](unsigned pair, unsigned copy) -> Value {
    return attributions[perPair * pair + copy];
  };

  OpBuilder b(launch.getBody().front().getTerminator());
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  SmallVector<Value, 3> origin, sizes;
  for (unsigned axis = 0; axis < rank; ++axis) {
    Value first = arith::MulIOp::create(
        b, loc, getDimension(launch.getBlockIds(), rank, axis),
        getIndex(b, loc, tile[axis]));
    Value lower = getBound(b, loc, plan.lower[axis], index);
    origin.push_back(arith::AddIOp::create(b, loc, first, lower));
    sizes.push_back(getValueOrCreateConstantIndexOp(
        b, loc, memref::getMixedSize(b, loc, block.sources[0], axis)));
  }
  // A distributed block's ring (how far it computes into the neighbours'
  // points) is known on the host.
  SmallVector<Value, 3> ringLow, ringHigh;
  for (auto [low, high] : llvm::zip(block.ringLow, block.ringHigh)) {
    ringLow.push_back(low ? index(b, loc, low) : Value());
    ringHigh.push_back(high ? index(b, loc, high) : Value());
  }
  OverlappedTile box(
      b, loc, plan, tile, origin, sizes,
      [&](OpBuilder &ob, Location ol, OpFoldResult bound) {
        return getBound(ob, ol, bound, index);
      },
      ringLow, ringHigh);

  // Each buffer starts as the field its stage writes on tile + halo, so
  // the boundary cells that no level writes are there to read in every
  // level.
  forEachOwnedPoint(
      b, loc, threadIds, workGroup, box.getLoadLow(), box.getLoadHigh(),
      [&](OpBuilder &nb, Location nl, ValueRange point) {
        SmallVector<Value, 3> at = box.toLocal(nb, nl, point);
        for (unsigned pair = 0; pair < block.sources.size(); ++pair) {
          Value v;
          for (unsigned copy = 0; copy < perPair; ++copy) {
            if (copy < stages)
              v = memref::LoadOp::create(nb, nl, block.ringHolder(copy, pair),
                                         point);
            memref::StoreOp::create(nb, nl, v, local(pair, copy), at);
          }
        }
      });
  gpu::BarrierOp::create(b, loc);

  // The first level reads the buffer of the last stage.
  unsigned current = perPair - 1;
  for (int64_t level = 0; level < plan.getNumLevels(); ++level) {
    unsigned stage = level % stages;
    unsigned next = (current + 1) % perPair;
    SmallVector<Value, 3> from, to;
    box.getLevelBox(b, level, from, to);
    forEachOwnedPoint(
        b, loc, threadIds, workGroup, from, to,
        [&](OpBuilder &nb, Location nl, ValueRange point) {
          emitTimeBlockPoint(
              nb, nl, block, stage, point,
              [&](OpBuilder &lb, Location ll, unsigned pair, ValueRange at,
                  ArrayRef<int64_t>) -> Value {
                return memref::LoadOp::create(lb, ll, local(pair, current),
                                              box.toLocal(lb, ll, at));
              },
              [&](OpBuilder &sb, Location sl, unsigned pair, Value value) {
                memref::StoreOp::create(sb, sl, value, local(pair, next),
                                        box.toLocal(sb, sl, point));
              },
              [&](OpBuilder &sb, Location sl, unsigned input) {
                return scalar(sb, sl, stage, input);
              });
        });
    // The next level reads what the neighbours of this item wrote.
    gpu::BarrierOp::create(b, loc);
    current = next;
  }

  // The group's own points go to the destinations.
  forEachOwnedPoint(
      b, loc, threadIds, workGroup, box.getOrigin(), box.getEnd(),
      [&](OpBuilder &nb, Location nl, ValueRange point) {
        SmallVector<Value, 3> at = box.toLocal(nb, nl, point);
        for (auto [pair, destination] : llvm::enumerate(block.destinations)) {
          Value v = memref::LoadOp::create(nb, nl, local(pair, current), at);
          memref::StoreOp::create(nb, nl, v, destination, point);
        }
      });
}

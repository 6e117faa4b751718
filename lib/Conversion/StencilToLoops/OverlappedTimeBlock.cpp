//===- OverlappedTimeBlock.cpp - 1-D time blocks as overlapped tiles ------===//
//
// Seed 000 Fig. 3 on the host, the scheme for 1-D grids: each tile loads
// its points plus T x radius around into two private buffers, computes T
// steps on a region that shrinks by the radius each step, and writes its
// own points (OverlappedTile, StencilCommon/TimeBlock.h, does the index
// arithmetic).
//
//===----------------------------------------------------------------------===//

#include "HostLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::stencil;

static Value getIndex(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

void host::emitOverlappedTimeBlock(OpBuilder &builder, Location loc,
                                   const TimeBlock &block, Value depth) {
  assert(depth && "the host backend takes every block's depth at run time");
  const TimeBlockPlan &plan = block.plan;
  ArrayRef<int64_t> tile = plan.tile;
  unsigned rank = tile.size();
  SmallVector<int64_t, 3> shape = OverlappedTile::getShape(plan, tile);
  SmallVector<Value> lower, upper, steps, sizes;
  for (unsigned axis = 0; axis < rank; ++axis) {
    lower.push_back(
        getValueOrCreateConstantIndexOp(builder, loc, plan.lower[axis]));
    upper.push_back(
        getValueOrCreateConstantIndexOp(builder, loc, plan.upper[axis]));
    steps.push_back(getIndex(builder, loc, tile[axis]));
    sizes.push_back(
        memref::DimOp::create(builder, loc, block.sources[0], axis));
  }
  scf::ParallelOp::create(
      builder, loc, lower, upper, steps,
      [&](OpBuilder &b, Location l, ValueRange origin) {
        OverlappedTile box(
            b, l, plan, tile, origin, sizes,
            [](OpBuilder &ob, Location ol, OpFoldResult bound) -> Value {
              return getValueOrCreateConstantIndexOp(ob, ol, bound);
            },
            block.ringLow, block.ringHigh);
        SmallVector<Value> ones(rank, getIndex(b, l, 1));
        // Two private buffers per carried field; both start as the box of
        // the source, so cells the steps never write (the boundary) are
        // there to read in every step.
        SmallVector<std::array<Value, 2>> privates;
        for (Value source : block.sources) {
          auto type = MemRefType::get(
              shape, llvm::cast<MemRefType>(source.getType()).getElementType());
          privates.push_back({memref::AllocOp::create(b, l, type),
                              memref::AllocOp::create(b, l, type)});
        }
        scf::buildLoopNest(
            b, l, box.getLoadLow(), box.getLoadHigh(), ones,
            [&](OpBuilder &nb, Location nl, ValueRange point) {
              SmallVector<Value, 3> at = box.toLocal(nb, nl, point);
              for (auto [source, buffer] :
                   llvm::zip_equal(block.sources, privates)) {
                Value v = memref::LoadOp::create(nb, nl, source, point);
                memref::StoreOp::create(nb, nl, v, buffer[0], at);
                memref::StoreOp::create(nb, nl, v, buffer[1], at);
              }
            });
        // The steps as a loop that swaps the buffers of each pair
        // (unrolled, IR and compile time would grow with T). A shallower
        // block of `depth` steps runs the last `depth` of the T steps'
        // boxes: its region still shrinks to the tile's own points.
        SmallVector<Value> buffers;
        for (auto &pair : privates)
          llvm::append_range(buffers, pair);
        // One op per statement: the order of IR built in one call's
        // arguments would depend on the compiler.
        Value count = getIndex(b, l, plan.timeBlock);
        Value first = arith::SubIOp::create(b, l, count, depth);
        Value one = getIndex(b, l, 1);
        auto steps = scf::ForOp::create(
            b, l, first, count, one, buffers,
            [&](OpBuilder &fb, Location fl, Value step, ValueRange current) {
              SmallVector<Value> from, to;
              box.getStepBox(fb, step, from, to);
              scf::buildLoopNest(
                  fb, fl, from, to, ones,
                  [&](OpBuilder &nb, Location nl, ValueRange point) {
                    emitTimeBlockPoint(
                        nb, nl, block, point,
                        [&](OpBuilder &lb, Location ll, unsigned pair,
                            ValueRange at, ArrayRef<int64_t>) -> Value {
                          return memref::LoadOp::create(
                              lb, ll, current[2 * pair],
                              box.toLocal(lb, ll, at));
                        },
                        [&](OpBuilder &sb, Location sl, unsigned pair,
                            Value value) {
                          memref::StoreOp::create(sb, sl, value,
                                                  current[2 * pair + 1],
                                                  box.toLocal(sb, sl, point));
                        });
                  });
              SmallVector<Value> swapped;
              for (unsigned pair = 0; pair < privates.size(); ++pair) {
                swapped.push_back(current[2 * pair + 1]);
                swapped.push_back(current[2 * pair]);
              }
              scf::YieldOp::create(fb, fl, swapped);
            });
        // The tile's own points go to the destinations.
        scf::buildLoopNest(
            b, l, box.getOrigin(), box.getEnd(), ones,
            [&](OpBuilder &nb, Location nl, ValueRange point) {
              SmallVector<Value, 3> at = box.toLocal(nb, nl, point);
              for (auto [pair, destination] :
                   llvm::enumerate(block.destinations)) {
                Value v = memref::LoadOp::create(nb, nl,
                                                 steps.getResult(2 * pair), at);
                memref::StoreOp::create(nb, nl, v, destination, point);
              }
            });
        for (auto &buffer : privates) {
          memref::DeallocOp::create(b, l, buffer[0]);
          memref::DeallocOp::create(b, l, buffer[1]);
        }
        scf::ReduceOp::create(b, l);
      });
}

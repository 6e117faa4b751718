//===- OverlappedTile.cpp - time blocks as overlapped tiles ---------------===//
//
// Seed 000 Fig. 3: a tile loads its points plus T x radius around into two
// private buffers, computes T steps on a region that shrinks by the radius
// each step, and writes its own points. Every point is computed by the same
// formula from the same inputs as in the plain loop, so the results are
// identical. The index arithmetic is shared by the host's 1-D tiles (here)
// and the device's work groups (DeviceKernels.cpp).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::lowering;

static Value getIndex(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

SmallVector<int64_t, 3> OverlappedTile::getShape(const TimeBlock &block,
                                                 ArrayRef<int64_t> tile) {
  SmallVector<int64_t, 3> low, high, shape;
  getCarriedRadius(block.calc, block.carriedInput, low, high);
  for (unsigned axis = 0; axis < tile.size(); ++axis)
    shape.push_back(tile[axis] + block.timeBlock * (low[axis] + high[axis]));
  return shape;
}

OverlappedTile::OverlappedTile(OpBuilder &builder, Location loc,
                               const TimeBlock &block, ArrayRef<int64_t> tile,
                               ValueRange origin, ValueRange arraySizes)
    : loc(loc), timeBlock(block.timeBlock), origin(origin) {
  getCarriedRadius(block.calc, block.carriedInput, radiusLow, radiusHigh);
  Value zero = getIndex(builder, loc, 0);
  for (unsigned axis = 0; axis < tile.size(); ++axis) {
    lower.push_back(getIndex(builder, loc, block.lower[axis]));
    upper.push_back(getIndex(builder, loc, block.upper[axis]));
    base.push_back(arith::SubIOp::create(
        builder, loc, origin[axis],
        getIndex(builder, loc, timeBlock * radiusLow[axis])));
    Value far = arith::AddIOp::create(builder, loc, origin[axis],
                                      getIndex(builder, loc, tile[axis]));
    end.push_back(arith::MinSIOp::create(builder, loc, far, upper[axis]));
    loadLow.push_back(arith::MaxSIOp::create(builder, loc, base[axis], zero));
    Value halo = arith::AddIOp::create(
        builder, loc, far,
        getIndex(builder, loc, timeBlock * radiusHigh[axis]));
    loadHigh.push_back(
        arith::MinSIOp::create(builder, loc, halo, arraySizes[axis]));
  }
}

void OverlappedTile::getStepBox(OpBuilder &builder, int64_t step,
                                SmallVectorImpl<Value> &from,
                                SmallVectorImpl<Value> &to) const {
  int64_t shrink = timeBlock - 1 - step;
  for (unsigned axis = 0; axis < origin.size(); ++axis) {
    Value low =
        arith::SubIOp::create(builder, loc, origin[axis],
                              getIndex(builder, loc, shrink * radiusLow[axis]));
    from.push_back(arith::MaxSIOp::create(builder, loc, low, lower[axis]));
    Value high = arith::AddIOp::create(
        builder, loc, end[axis],
        getIndex(builder, loc, shrink * radiusHigh[axis]));
    to.push_back(arith::MinSIOp::create(builder, loc, high, upper[axis]));
  }
}

SmallVector<Value, 3> OverlappedTile::toLocal(OpBuilder &builder, Location loc,
                                              ValueRange global) const {
  SmallVector<Value, 3> indices;
  for (auto [index, first] : llvm::zip_equal(global, base))
    indices.push_back(arith::SubIOp::create(builder, loc, index, first));
  return indices;
}

void lowering::emitOverlappedTimeBlock(
    OpBuilder &builder, Location loc, const TimeBlock &block,
    ArrayRef<int64_t> tile, function_ref<Value(unsigned input)> inputBuffer) {
  unsigned rank = tile.size();
  SmallVector<int64_t, 3> shape = OverlappedTile::getShape(block, tile);
  SmallVector<Value> lower, upper, steps, sizes;
  for (unsigned axis = 0; axis < rank; ++axis) {
    lower.push_back(getIndex(builder, loc, block.lower[axis]));
    upper.push_back(getIndex(builder, loc, block.upper[axis]));
    steps.push_back(getIndex(builder, loc, tile[axis]));
    sizes.push_back(
        memref::DimOp::create(builder, loc, block.sources[0], axis));
  }
  scf::ParallelOp::create(
      builder, loc, lower, upper, steps,
      [&](OpBuilder &b, Location l, ValueRange origin) {
        OverlappedTile box(b, l, block, tile, origin, sizes);
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
        unsigned current = 0;
        for (int64_t step = 0; step < block.timeBlock; ++step) {
          SmallVector<Value> from, to;
          box.getStepBox(b, step, from, to);
          scf::buildLoopNest(
              b, l, from, to, ones,
              [&](OpBuilder &nb, Location nl, ValueRange point) {
                emitTimeBlockPoint(
                    nb, nl, block, point, inputBuffer,
                    [&](OpBuilder &lb, Location ll, unsigned pair,
                        ValueRange at, ArrayRef<int64_t>) -> Value {
                      return memref::LoadOp::create(lb, ll,
                                                    privates[pair][current],
                                                    box.toLocal(lb, ll, at));
                    },
                    [&](OpBuilder &sb, Location sl, unsigned pair,
                        Value value) {
                      memref::StoreOp::create(sb, sl, value,
                                              privates[pair][1 - current],
                                              box.toLocal(sb, sl, point));
                    });
              });
          current = 1 - current;
        }
        // The tile's own points go to the destinations.
        scf::buildLoopNest(
            b, l, box.getOrigin(), box.getEnd(), ones,
            [&](OpBuilder &nb, Location nl, ValueRange point) {
              SmallVector<Value, 3> at = box.toLocal(nb, nl, point);
              for (auto [destination, buffer] :
                   llvm::zip_equal(block.destinations, privates)) {
                Value v = memref::LoadOp::create(nb, nl, buffer[current], at);
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

//===- TimeBlock.cpp - Several steps of a copy-form loop at once ----------===//
//
// Seed 000 Fig. 3: a tile loads its points plus L x radius around, computes
// L levels (T steps of one stage or more each) on a region that shrinks by
// the radius each level, and writes its own points. Every point is computed by
// the same formula from the same inputs as in the plain loop, so the results
// are identical.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/StencilCommon/TimeBlock.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::stencil;

void mlir::stencil::emitTimeBlockPoint(OpBuilder &builder, Location loc,
                                       const TimeBlock &block, unsigned stage,
                                       ValueRange point, CarriedLoadFn load,
                                       CarriedStoreFn store, ScalarFn scalar,
                                       CloneFn clone, LoadFn uncarriedLoad,
                                       ReduceFn reduce) {
  const TimeBlockStage &plan = block.plan.stages[stage];
  emitPoint(
      builder, loc, plan.calc, point,
      [&](OpBuilder &b, Location l, unsigned input, ValueRange at,
          AccessOp access) -> Value {
        // Carried fields are written at every point: the grid's rank.
        int pair = plan.carriedInput[input];
        if (pair >= 0)
          return load(b, l, pair, at, access.getOffset());
        if (uncarriedLoad)
          return uncarriedLoad(b, l, input, at, access);
        return memref::LoadOp::create(b, l, block.inputBuffer(stage, input),
                                      at);
      },
      [&](OpBuilder &b, Location l, unsigned output, Value value) {
        store(b, l, plan.outputPair[output], value);
      },
      scalar, clone, reduce);
}

static Value getIndex(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

SmallVector<int64_t, 3> OverlappedTile::getShape(const TimeBlockPlan &plan,
                                                 ArrayRef<int64_t> tile) {
  SmallVector<int64_t, 3> shape;
  for (unsigned axis = 0; axis < tile.size(); ++axis)
    shape.push_back(tile[axis] + plan.getNumLevels() * (plan.radiusLow[axis] +
                                                        plan.radiusHigh[axis]));
  return shape;
}

/// `bound` moved outwards (down for a lower bound) by shrink x radius
/// cells, at most `ring`.
static Value growBound(OpBuilder &builder, Location loc, Value bound,
                       Value shrink, int64_t radius, Value ring, bool upper) {
  if (!ring)
    return bound;
  Value cells = arith::MulIOp::create(builder, loc, shrink,
                                      getIndex(builder, loc, radius));
  Value grown = arith::MinSIOp::create(builder, loc, cells, ring);
  if (upper)
    return arith::AddIOp::create(builder, loc, bound, grown);
  return arith::SubIOp::create(builder, loc, bound, grown);
}

Value mlir::stencil::growLowerBound(OpBuilder &builder, Location loc,
                                    Value lower, Value shrink, int64_t radius,
                                    Value ring) {
  return growBound(builder, loc, lower, shrink, radius, ring, /*upper=*/false);
}

Value mlir::stencil::growUpperBound(OpBuilder &builder, Location loc,
                                    Value upper, Value shrink, int64_t radius,
                                    Value ring) {
  return growBound(builder, loc, upper, shrink, radius, ring, /*upper=*/true);
}

OverlappedTile::OverlappedTile(OpBuilder &builder, Location loc,
                               const TimeBlockPlan &plan,
                               ArrayRef<int64_t> tile, ValueRange origin,
                               ValueRange arraySizes, BoundFn bound,
                               ValueRange ringLow, ValueRange ringHigh)
    : loc(loc), plan(plan), origin(origin), ringLow(ringLow),
      ringHigh(ringHigh) {
  if (this->ringLow.empty()) {
    this->ringLow.assign(tile.size(), Value());
    this->ringHigh.assign(tile.size(), Value());
  }
  Value zero = getIndex(builder, loc, 0);
  int64_t levels = plan.getNumLevels();
  for (unsigned axis = 0; axis < tile.size(); ++axis) {
    lower.push_back(bound(builder, loc, plan.lower[axis]));
    upper.push_back(bound(builder, loc, plan.upper[axis]));
    base.push_back(arith::SubIOp::create(
        builder, loc, origin[axis],
        getIndex(builder, loc, levels * plan.radiusLow[axis])));
    Value far = arith::AddIOp::create(builder, loc, origin[axis],
                                      getIndex(builder, loc, tile[axis]));
    end.push_back(arith::MinSIOp::create(builder, loc, far, upper[axis]));
    loadLow.push_back(arith::MaxSIOp::create(builder, loc, base[axis], zero));
    Value halo = arith::AddIOp::create(
        builder, loc, far,
        getIndex(builder, loc, levels * plan.radiusHigh[axis]));
    loadHigh.push_back(
        arith::MinSIOp::create(builder, loc, halo, arraySizes[axis]));
  }
}

void OverlappedTile::getLevelBox(OpBuilder &builder, int64_t level,
                                 SmallVectorImpl<Value> &from,
                                 SmallVectorImpl<Value> &to) const {
  getLevelBox(builder, getIndex(builder, loc, level), from, to);
}

void OverlappedTile::getLevelBox(OpBuilder &builder, Value level,
                                 SmallVectorImpl<Value> &from,
                                 SmallVectorImpl<Value> &to) const {
  // One op per statement: IR built in one call's arguments would come in
  // an order that depends on the compiler.
  Value last = getIndex(builder, loc, plan.getNumLevels() - 1);
  Value shrink = arith::SubIOp::create(builder, loc, last, level);
  for (unsigned axis = 0; axis < origin.size(); ++axis) {
    Value radiusLow = getIndex(builder, loc, plan.radiusLow[axis]);
    Value below = arith::MulIOp::create(builder, loc, shrink, radiusLow);
    Value low = arith::SubIOp::create(builder, loc, origin[axis], below);
    Value gridLow = growLowerBound(builder, loc, lower[axis], shrink,
                                   plan.radiusLow[axis], ringLow[axis]);
    from.push_back(arith::MaxSIOp::create(builder, loc, low, gridLow));
    Value radiusHigh = getIndex(builder, loc, plan.radiusHigh[axis]);
    Value above = arith::MulIOp::create(builder, loc, shrink, radiusHigh);
    Value high = arith::AddIOp::create(builder, loc, end[axis], above);
    Value gridHigh = growUpperBound(builder, loc, upper[axis], shrink,
                                    plan.radiusHigh[axis], ringHigh[axis]);
    to.push_back(arith::MinSIOp::create(builder, loc, high, gridHigh));
  }
}

SmallVector<Value, 3> OverlappedTile::toLocal(OpBuilder &builder, Location loc,
                                              ValueRange global) const {
  SmallVector<Value, 3> indices;
  for (auto [index, first] : llvm::zip_equal(global, base))
    indices.push_back(arith::SubIOp::create(builder, loc, index, first));
  return indices;
}

//===- PointLowering.cpp - An apply's body at one point or box ------------===//

#include "Stencil/Conversion/StencilCommon/PointLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::stencil;

void mlir::stencil::emitPoint(OpBuilder &builder, Location loc, ApplyOp apply,
                              ValueRange point, LoadFn load, StoreFn store,
                              ScalarFn scalar, CloneFn clone, ReduceFn reduce) {
  Block *body = apply.getBodyBlock();
  IRMapping mapping;
  for (auto [index, input] : llvm::enumerate(apply.getInputs()))
    if (!llvm::isa<FieldType>(input.getType()))
      mapping.map(body->getArgument(index),
                  scalar ? scalar(builder, loc, index) : input);
  // point + offset, once per (axis, offset).
  DenseMap<std::pair<unsigned, int64_t>, Value> shifted;
  auto index = [&](unsigned axis, int64_t offset) -> Value {
    if (offset == 0)
      return point[axis];
    Value &slot = shifted[{axis, offset}];
    if (!slot) {
      Value by = arith::ConstantIndexOp::create(builder, loc, offset);
      slot = arith::AddIOp::create(builder, loc, point[axis], by);
    }
    return slot;
  };
  for (Operation &op : *body) {
    if (auto access = llvm::dyn_cast<AccessOp>(op)) {
      auto argument = llvm::cast<BlockArgument>(access.getField());
      SmallVector<Value, 3> indices;
      for (auto [axis, offset] :
           llvm::zip_equal(access.getGridAxes(), access.getOffset()))
        indices.push_back(index(axis, offset));
      mapping.map(access.getResult(),
                  load(builder, access.getLoc(), argument.getArgNumber(),
                       indices, access));
      continue;
    }
    // The point's own coordinates: global on every backend. A `clone`
    // that emits several points at once sees the op and may remap it.
    if (auto index = llvm::dyn_cast<IndexOp>(op)) {
      mapping.map(index.getResult(), point[index.getAxis()]);
      if (clone)
        clone(builder, op, mapping);
      continue;
    }
    if (auto ret = llvm::dyn_cast<ReturnOp>(op)) {
      unsigned numOutputs = apply.getOutputs().size();
      for (auto [index, value] : llvm::enumerate(ret.getValues())) {
        Value lowered = mapping.lookupOrDefault(value);
        if (index < numOutputs)
          store(builder, ret.getLoc(), index, lowered);
        else if (reduce)
          reduce(builder, ret.getLoc(), index - numOutputs, lowered);
      }
      continue;
    }
    if (clone)
      clone(builder, op, mapping);
    else
      builder.clone(op, mapping);
  }
}

void mlir::stencil::forEachRingSlab(OpBuilder &builder, ValueRange outerLower,
                                    ValueRange outerUpper,
                                    ValueRange innerLower,
                                    ValueRange innerUpper, BoxFn emit,
                                    unsigned firstAxis,
                                    std::optional<unsigned> endAxis) {
  unsigned rank = outerLower.size();
  for (unsigned axis = firstAxis; axis < endAxis.value_or(rank); ++axis) {
    for (bool high : {false, true}) {
      SmallVector<Value> from, to;
      for (unsigned other = 0; other < rank; ++other) {
        if (other < axis) {
          from.push_back(innerLower[other]);
          to.push_back(innerUpper[other]);
        } else if (other > axis) {
          from.push_back(outerLower[other]);
          to.push_back(outerUpper[other]);
        } else {
          from.push_back(high ? innerUpper[axis] : outerLower[axis]);
          to.push_back(high ? outerUpper[axis] : innerLower[axis]);
        }
      }
      emit(builder, from, to);
    }
  }
}

void mlir::stencil::forEachRingSlabOf(OpBuilder &builder, Location loc,
                                      Value buffer, ValueRange lower,
                                      ValueRange upper, BoxFn emit,
                                      unsigned firstAxis,
                                      std::optional<unsigned> endAxis) {
  auto type = llvm::cast<MemRefType>(buffer.getType());
  SmallVector<Value> zeros(type.getRank(),
                           arith::ConstantIndexOp::create(builder, loc, 0));
  SmallVector<Value> sizes;
  for (unsigned axis = 0; axis < type.getRank(); ++axis)
    sizes.push_back(
        type.isDynamicDim(axis)
            ? memref::DimOp::create(builder, loc, buffer, axis).getResult()
            : arith::ConstantIndexOp::create(builder, loc,
                                             type.getDimSize(axis))
                  .getResult());
  forEachRingSlab(builder, zeros, sizes, lower, upper, emit, firstAxis,
                  endAxis);
}

Value mlir::stencil::createClearedFlag(OpBuilder &builder, Location loc) {
  Value flag = memref::AllocaOp::create(
      builder, loc, MemRefType::get({}, builder.getI8Type()));
  Value clear =
      arith::ConstantIntOp::create(builder, loc, builder.getI8Type(), 0);
  memref::StoreOp::create(builder, loc, clear, flag, ValueRange{});
  return flag;
}

void mlir::stencil::setFlag(OpBuilder &builder, Location loc, Value flag,
                            ValueRange indices) {
  // memref.atomic_rmw lowers to an acq_rel atomicrmw.
  Value set =
      arith::ConstantIntOp::create(builder, loc, builder.getI8Type(), 1);
  memref::AtomicRMWOp::create(builder, loc, arith::AtomicRMWKind::assign, set,
                              flag, indices);
}

Value mlir::stencil::isFlagSet(OpBuilder &builder, Location loc, Value flag,
                               ValueRange indices, bool concurrently) {
  Value clear =
      arith::ConstantIntOp::create(builder, loc, builder.getI8Type(), 0);
  Value value;
  if (concurrently)
    value = memref::AtomicRMWOp::create(builder, loc, arith::AtomicRMWKind::ori,
                                        clear, flag, indices);
  else
    value = memref::LoadOp::create(builder, loc, flag, indices);
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, value,
                               clear);
}

void mlir::stencil::getGridBounds(OpBuilder &builder, Location loc, GridOp grid,
                                  SmallVectorImpl<Value> &lower,
                                  SmallVectorImpl<Value> &upper) {
  auto collect = [&](ArrayRef<int64_t> statics, OperandRange dynamics,
                     SmallVectorImpl<Value> &out) {
    auto dynamic = dynamics.begin();
    for (int64_t bound : statics)
      out.push_back(ShapedType::isDynamic(bound)
                        ? *dynamic++
                        : arith::ConstantIndexOp::create(builder, loc, bound)
                              .getResult());
  };
  collect(grid.getStaticLower(), grid.getDynamicLower(), lower);
  collect(grid.getStaticUpper(), grid.getDynamicUpper(), upper);
}

SmallVector<int64_t, 3> mlir::stencil::getConstantBounds(ValueRange values) {
  SmallVector<int64_t, 3> constants;
  for (Value value : values) {
    std::optional<int64_t> constant = getConstantIntValue(value);
    assert(constant && "the backend's check admits static boxes only");
    constants.push_back(*constant);
  }
  return constants;
}

ReductionAccumulators::ReductionAccumulators(OpBuilder &allocate,
                                             OpBuilder &builder, Location loc,
                                             ArrayRef<ReductionKind> kinds,
                                             ValueRange inits)
    : loc(loc), kinds(kinds) {
  for (auto [kind, init] : llvm::zip_equal(kinds, inits)) {
    Type type = init.getType();
    Value cell =
        memref::AllocaOp::create(allocate, loc, MemRefType::get({}, type));
    memref::StoreOp::create(builder, loc,
                            createReductionIdentity(builder, loc, kind, type),
                            cell, ValueRange());
    cells.push_back(cell);
  }
}

void ReductionAccumulators::combine(OpBuilder &builder,
                                    ValueRange partials) const {
  for (auto [kind, cell, partial] : llvm::zip_equal(kinds, cells, partials)) {
    Value running = memref::LoadOp::create(builder, loc, cell, ValueRange());
    memref::StoreOp::create(
        builder, loc,
        createReductionCombine(builder, loc, kind, running, partial), cell,
        ValueRange());
  }
}

SmallVector<Value> ReductionAccumulators::load(OpBuilder &builder) const {
  SmallVector<Value> values;
  for (Value cell : cells)
    values.push_back(memref::LoadOp::create(builder, loc, cell, ValueRange()));
  return values;
}

//===- ReductionUtils.cpp - The arithmetic of reduction kinds -------------===//

#include "Stencil/Dialect/Stencil/Utils/ReductionUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::stencil;

/// The identity of `kind` on scalars of `type`.
static TypedAttr getIdentityAttr(Builder &builder, ReductionKind kind,
                                 Type type) {
  if (auto floatType = llvm::dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    APFloat value = APFloat::getZero(semantics);
    switch (kind) {
    case ReductionKind::Add:
      break;
    case ReductionKind::Mul:
      value = APFloat::getOne(semantics);
      break;
    case ReductionKind::Min:
      value = APFloat::getInf(semantics);
      break;
    case ReductionKind::Max:
      value = APFloat::getInf(semantics, /*Negative=*/true);
      break;
    }
    return builder.getFloatAttr(floatType, value);
  }
  auto integerType = llvm::cast<IntegerType>(type);
  unsigned width = integerType.getWidth();
  APInt value = APInt::getZero(width);
  switch (kind) {
  case ReductionKind::Add:
    break;
  case ReductionKind::Mul:
    value = APInt(width, 1);
    break;
  case ReductionKind::Min:
    value = APInt::getSignedMaxValue(width);
    break;
  case ReductionKind::Max:
    value = APInt::getSignedMinValue(width);
    break;
  }
  return builder.getIntegerAttr(integerType, value);
}

Value mlir::stencil::createReductionIdentity(OpBuilder &builder, Location loc,
                                             ReductionKind kind, Type type) {
  TypedAttr identity =
      getIdentityAttr(builder, kind, getElementTypeOrSelf(type));
  if (auto vectorType = llvm::dyn_cast<VectorType>(type))
    identity = SplatElementsAttr::get(vectorType, identity);
  return arith::ConstantOp::create(builder, loc, identity);
}

Value mlir::stencil::createReductionCombine(OpBuilder &builder, Location loc,
                                            ReductionKind kind, Value lhs,
                                            Value rhs, bool reassociate) {
  if (llvm::isa<FloatType>(getElementTypeOrSelf(lhs.getType()))) {
    auto flags = reassociate ? arith::FastMathFlags::reassoc
                             : arith::FastMathFlags::none;
    switch (kind) {
    case ReductionKind::Add:
      return arith::AddFOp::create(builder, loc, lhs, rhs, flags);
    case ReductionKind::Mul:
      return arith::MulFOp::create(builder, loc, lhs, rhs, flags);
    case ReductionKind::Min:
      return arith::MinNumFOp::create(builder, loc, lhs, rhs);
    case ReductionKind::Max:
      return arith::MaxNumFOp::create(builder, loc, lhs, rhs);
    }
  }
  switch (kind) {
  case ReductionKind::Add:
    return arith::AddIOp::create(builder, loc, lhs, rhs);
  case ReductionKind::Mul:
    return arith::MulIOp::create(builder, loc, lhs, rhs);
  case ReductionKind::Min:
    return arith::MinSIOp::create(builder, loc, lhs, rhs);
  case ReductionKind::Max:
    return arith::MaxSIOp::create(builder, loc, lhs, rhs);
  }
  llvm_unreachable("every reduction kind is handled");
}

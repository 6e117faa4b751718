//===- RowMajor.cpp - Row-major views of a bare pointer -------------------===//

#include "Stencil/Support/RowMajor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

SmallVector<OpFoldResult, 3>
stencil::buildRowMajorStrides(OpBuilder &builder, Location loc,
                              ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult, 3> strides(sizes.size());
  OpFoldResult stride = builder.getIndexAttr(1);
  for (int axis = sizes.size() - 1; axis >= 0; --axis) {
    strides[axis] = stride;
    if (axis == 0)
      break;
    std::optional<int64_t> inner = getConstantIntValue(stride);
    std::optional<int64_t> size = getConstantIntValue(sizes[axis]);
    if (inner && size) {
      stride = builder.getIndexAttr(*inner * *size);
    } else if (inner == 1) {
      stride = sizes[axis];
    } else {
      // One op per statement: IR built in one call's arguments would come
      // in an order that depends on the compiler.
      Value lhs = getValueOrCreateConstantIndexOp(builder, loc, stride);
      Value rhs = getValueOrCreateConstantIndexOp(builder, loc, sizes[axis]);
      stride = arith::MulIOp::create(builder, loc, lhs, rhs).getResult();
    }
  }
  return strides;
}

Value stencil::buildRowMajorView(OpBuilder &builder, Location loc,
                                 MemRefType type, Value base,
                                 ArrayRef<OpFoldResult> sizes,
                                 ArrayRef<OpFoldResult> strides) {
  return memref::ReinterpretCastOp::create(
      builder, loc, type, base, builder.getIndexAttr(0), sizes, strides);
}

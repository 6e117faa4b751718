//===- RowMajor.h - Row-major views of a bare pointer ----------*- C++ -*-===//
//
// A buffer of run-time shape crosses a bare-pointer calling convention (the
// C caller's, a kernel's) as a 0-d memref of its first element and its
// sizes; these helpers rebuild the row-major memref on the other side.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_ROWMAJOR_H
#define STENCIL_SUPPORT_ROWMAJOR_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::stencil {

/// The row-major strides of `sizes` (outermost first): constants where the
/// sizes inside are, one `arith.muli` per run-time product.
SmallVector<OpFoldResult, 3> buildRowMajorStrides(OpBuilder &builder,
                                                  Location loc,
                                                  ArrayRef<OpFoldResult> sizes);

/// `memref.reinterpret_cast` of the 0-d `base` to `type` (identity layout)
/// with `sizes` and `strides` (buildRowMajorStrides).
Value buildRowMajorView(OpBuilder &builder, Location loc, MemRefType type,
                        Value base, ArrayRef<OpFoldResult> sizes,
                        ArrayRef<OpFoldResult> strides);

} // namespace mlir::stencil

#endif // STENCIL_SUPPORT_ROWMAJOR_H

//===- ReductionUtils.h - The arithmetic of reduction kinds -----*- C++ -*-===//
//
// What each #stencil.reduction kind means in arith ops: its identity and
// how it combines two values. Shared by the importer (several updates of
// one variable at a point) and the lowerings (tiles, work groups, ranks).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCIL_UTILS_REDUCTIONUTILS_H
#define STENCIL_DIALECT_STENCIL_UTILS_REDUCTIONUTILS_H

#include "Stencil/Dialect/Stencil/IR/StencilDialect.h"

#include "mlir/IR/Builders.h"

namespace mlir::stencil {

/// The identity of reduction `kind` on `type` (0 for add, 1 for mul, the
/// largest value for min, the smallest for max; infinities on floats): a
/// scalar, or a vector with it in every lane.
Value createReductionIdentity(OpBuilder &builder, Location loc,
                              ReductionKind kind, Type type);

/// `lhs` combined with `rhs` by `kind` (scalars, or vectors lane by lane).
/// With `reassociate`, floating-point sums and products may be
/// reassociated (LLVM then vectorizes them).
Value createReductionCombine(OpBuilder &builder, Location loc,
                             ReductionKind kind, Value lhs, Value rhs,
                             bool reassociate = false);

} // namespace mlir::stencil

#endif // STENCIL_DIALECT_STENCIL_UTILS_REDUCTIONUTILS_H

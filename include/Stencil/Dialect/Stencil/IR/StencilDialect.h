//===- StencilDialect.h - Stencil dialect, types and attributes -*- C++ -*-===//

#ifndef STENCIL_DIALECT_STENCIL_IR_STENCILDIALECT_H
#define STENCIL_DIALECT_STENCIL_IR_STENCILDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"

#include "Stencil/Dialect/Stencil/IR/StencilDialect.h.inc"
#include "Stencil/Dialect/Stencil/IR/StencilEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Stencil/Dialect/Stencil/IR/StencilAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "Stencil/Dialect/Stencil/IR/StencilTypes.h.inc"

namespace mlir::stencil {
/// Fields have 1 to 3 axes (seed 000 §3.4).
inline constexpr unsigned kMaxRank = 3;
} // namespace mlir::stencil

#endif // STENCIL_DIALECT_STENCIL_IR_STENCILDIALECT_H

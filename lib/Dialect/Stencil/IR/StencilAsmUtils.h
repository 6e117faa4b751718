//===- StencilAsmUtils.h - Helpers shared by the dialect's C++ --*- C++ -*-===//
//
// Private to lib/Dialect/Stencil/IR.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_DIALECT_STENCIL_IR_STENCILASMUTILS_H
#define LIB_DIALECT_STENCIL_IR_STENCILASMUTILS_H

#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/OperationSupport.h"

namespace mlir::stencil::asm_utils {

/// Parses `[i, j, ...]`, a possibly empty list of integers.
ParseResult parseIntegerList(AsmParser &parser,
                             SmallVectorImpl<int64_t> &values);

/// Prints `[i, j, ...]`.
void printIntegerList(AsmPrinter &printer, ArrayRef<int64_t> values);

/// Adds a region with one block whose arguments have the types and
/// locations of `values` (the ins of an apply, the inits of a time loop).
void addRegionWithArgumentsFor(OperationState &state, ValueRange values);

} // namespace mlir::stencil::asm_utils

#endif // LIB_DIALECT_STENCIL_IR_STENCILASMUTILS_H

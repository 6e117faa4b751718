//===- IREmitter.h - Build stencil IR for an analysed region ----*- C++ -*-===//

#ifndef LIB_CONVERSION_IMPORTPRAGMAC_IREMITTER_H
#define LIB_CONVERSION_IMPORTPRAGMAC_IREMITTER_H

#include "RegionModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stencil::pragma_c {

/// Appends the function of `region` to `module`; translates the calc body,
/// filling `region.scalars`. Returns null after reporting a Clang error when
/// the body is outside the supported subset.
func::FuncOp emitRegion(clang::ASTContext &astContext, StencilRegion &region,
                        ModuleOp module);

} // namespace mlir::stencil::pragma_c

#endif // LIB_CONVERSION_IMPORTPRAGMAC_IREMITTER_H

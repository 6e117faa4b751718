//===- InitAllDialects.h - Dialects known to the stencil tools --*- C++ -*-===//

#ifndef STENCIL_INITALLDIALECTS_H
#define STENCIL_INITALLDIALECTS_H

#include "Stencil/Dialect/Stencil/IR/StencilDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"

namespace mlir::stencil {

/// Registers the stencil dialect and every upstream dialect (with its
/// interface extensions) that stencil programs are lowered to, so that
/// `stencil-opt` reads and writes every stage of every pipeline.
inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<StencilDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
}

} // namespace mlir::stencil

#endif // STENCIL_INITALLDIALECTS_H

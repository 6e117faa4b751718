//===- Passes.h - Stencil-to-stencil transformations ------------*- C++ -*-===//

#ifndef STENCIL_DIALECT_STENCIL_TRANSFORMS_PASSES_H
#define STENCIL_DIALECT_STENCIL_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::stencil {

#define GEN_PASS_DECL
#include "Stencil/Dialect/Stencil/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stencil/Dialect/Stencil/Transforms/Passes.h.inc"

} // namespace mlir::stencil

#endif // STENCIL_DIALECT_STENCIL_TRANSFORMS_PASSES_H

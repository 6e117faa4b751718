//===- Passes.h - Passes on upstream's GPU dialect --------------*- C++ -*-===//

#ifndef STENCIL_DIALECT_GPU_TRANSFORMS_PASSES_H
#define STENCIL_DIALECT_GPU_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::stencil {

#define GEN_PASS_DECL
#include "Stencil/Dialect/GPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stencil/Dialect/GPU/Transforms/Passes.h.inc"

} // namespace mlir::stencil

#endif // STENCIL_DIALECT_GPU_TRANSFORMS_PASSES_H

//===- Passes.h - Conversions out of the stencil dialect --------*- C++ -*-===//

#ifndef STENCIL_CONVERSION_PASSES_H
#define STENCIL_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::stencil {

#define GEN_PASS_DECL
#include "Stencil/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stencil/Conversion/Passes.h.inc"

/// Options of the `stencil-to-cpu` pipeline.
struct StencilToCPUPipelineOptions
    : public PassPipelineOptions<StencilToCPUPipelineOptions> {
  Option<bool> openmp{*this, "openmp",
                      llvm::cl::desc("Run tiles in parallel with OpenMP"),
                      llvm::cl::init(true)};
};

/// stencil dialect -> LLVM dialect for the host CPU: loops, OpenMP, and the
/// bare-pointer calling convention the pragma-C driver calls.
void buildStencilToCPUPipeline(OpPassManager &pm,
                               const StencilToCPUPipelineOptions &options);

/// Registers the conversion passes and the named pipelines.
void registerConversionPassesAndPipelines();

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_PASSES_H

//===- Pipelines.cpp - Named pipelines out of the stencil dialect ---------===//

#include "Stencil/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;

void stencil::buildStencilToCPUPipeline(
    OpPassManager &pm, const StencilToCPUPipelineOptions &options) {
  // Upstream passes by their registered names: the pipeline reads like the
  // mlir-opt command a user would type. The canonicalize after
  // convert-scf-to-openmp inlines the memref.alloca_scope it wraps loop
  // bodies in (we allocate nothing there); convert-scf-to-cf would otherwise
  // leave that op with several blocks, which it does not allow.
  std::string pipeline = "convert-stencil-to-loops,canonicalize,cse,";
  if (options.openmp)
    pipeline += "convert-scf-to-openmp,canonicalize,";
  pipeline += "lower-affine,convert-scf-to-cf,"
              "expand-strided-metadata,finalize-memref-to-llvm,"
              "convert-math-to-llvm,convert-arith-to-llvm,"
              "convert-index-to-llvm,convert-cf-to-llvm,"
              "convert-func-to-llvm{use-bare-ptr-memref-call-conv=1},";
  // After convert-func-to-llvm: run before it, convert-openmp-to-llvm also
  // converts function signatures, with full memref descriptors instead of
  // the bare pointers the C caller passes.
  if (options.openmp)
    pipeline += "convert-openmp-to-llvm,";
  pipeline += "reconcile-unrealized-casts,canonicalize";
  if (failed(parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("stencil-to-cpu: invalid pipeline string");
}

void stencil::registerConversionPassesAndPipelines() {
  registerStencilConversionPasses();
  PassPipelineRegistration<StencilToCPUPipelineOptions>(
      "stencil-to-cpu",
      "Lower stencil functions to LLVM for the host CPU (loops + OpenMP, "
      "bare-pointer calling convention)",
      buildStencilToCPUPipeline);
}

//===- Pipelines.cpp - Named pipelines out of the stencil dialect ---------===//

#include "Stencil/Conversion/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void stencil::buildStencilToCPUPipeline(
    OpPassManager &pm, const StencilToCPUPipelineOptions &options) {
  // Built from the passes' create functions so that tools need not register
  // passes globally; `stencil-opt --stencil-to-cpu --dump-pass-pipeline`
  // shows it as an mlir-opt command line.
  pm.addPass(createConvertStencilToLoops());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (options.openmp) {
    pm.addPass(createConvertSCFToOpenMPPass());
    // Inlines the memref.alloca_scope that convert-scf-to-openmp wraps loop
    // bodies in (we allocate nothing there); convert-scf-to-cf would
    // otherwise leave that op with several blocks, which it does not allow.
    pm.addPass(createCanonicalizerPass());
  }
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  // The C caller passes bare pointers (docs/PragmaC.md).
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  // After convert-func-to-llvm: run before it, convert-openmp-to-llvm also
  // converts function signatures, with full memref descriptors instead of
  // the bare pointers the C caller passes.
  if (options.openmp)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void stencil::registerConversionPassesAndPipelines() {
  registerStencilConversionPasses();
  PassPipelineRegistration<StencilToCPUPipelineOptions>(
      "stencil-to-cpu",
      "Lower stencil functions to LLVM for the host CPU (loops + OpenMP, "
      "bare-pointer calling convention)",
      buildStencilToCPUPipeline);
}

//===- FuzzerSupport.cpp - What the stencil fuzz targets share ------------===//

#include "FuzzerSupport.h"

#include "Stencil/Conversion/Passes.h"
#include "Stencil/InitAllDialects.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

namespace {

/// Verifies the IR after every pass, so that the pass that broke it is
/// named, instead of the pass manager's own verifier turning the bug into
/// an ordinary failure.
class AbortOnInvalidIR : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    if (succeeded(verify(op)))
      return;
    llvm::errs() << "stencil fuzzer: pass '" << pass->getArgument()
                 << "' left IR that does not verify\n";
    std::abort();
  }
};

} // namespace

std::unique_ptr<MLIRContext> stencil_fuzz::createQuietContext() {
  DialectRegistry registry;
  stencil::registerAllDialects(registry);
  auto context =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  // STENCIL_FUZZ_DIAGNOSTICS=1 prints them, for a human replaying an input.
  if (!std::getenv("STENCIL_FUZZ_DIAGNOSTICS"))
    context->getDiagEngine().registerHandler(
        [](Diagnostic &) { return success(); });
  return context;
}

void stencil_fuzz::fixHostBandwidth() {
  // The figure lit uses (test/lit.cfg.py); 0: keep one already set.
  setenv("STENCIL_HOST_BANDWIDTH_GBPS", "20", /*overwrite=*/0);
}

LogicalResult stencil_fuzz::runPipeline(ModuleOp module,
                                        const PipelineBuilder &build) {
  PassManager pm(module.getContext());
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<AbortOnInvalidIR>());
  build(pm);
  return pm.run(module);
}

void stencil_fuzz::runPipelineOnCopy(ModuleOp module,
                                     const PipelineBuilder &build) {
  OwningOpRef<ModuleOp> copy(module.clone());
  (void)runPipeline(*copy, build);
}

void stencil_fuzz::lowerForCPU(ModuleOp module) {
  runPipelineOnCopy(module, [](OpPassManager &pm) {
    stencil::buildStencilToCPUPipeline(pm, {});
  });
}

void stencil_fuzz::lowerForVulkan(ModuleOp module) {
  runPipelineOnCopy(module, [](OpPassManager &pm) {
    stencil::StencilToGPUPipelineOptions options;
    options.target = "vulkan";
    (void)stencil::buildStencilToGPUPipeline(pm, options);
  });
}

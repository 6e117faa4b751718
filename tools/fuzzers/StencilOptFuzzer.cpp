//===- StencilOptFuzzer.cpp - Fuzz the parser, verifiers and pipelines ----===//
//
// Input: MLIR text. It is parsed and verified; a module that verifies and
// holds only the dialects the importer emits (stencil, func, arith, math,
// memref) is then canonicalized and lowered by `stencil-to-cpu` and by
// `stencil-to-gpu{target=vulkan}` through SPIR-V serialization: as it is,
// and after the tuning passes chose for the host and for lavapipe. Inputs with
// other dialects stop after the verifier: their lowering is upstream MLIR's to
// fuzz.
//
//===----------------------------------------------------------------------===//

#include "FuzzerSupport.h"

#include "Stencil/Tuning/Passes.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/Passes.h"

#include <cstdint>

using namespace mlir;

/// Whether every op belongs to a dialect the stencil pipelines start from.
static bool isStencilInput(ModuleOp module) {
  WalkResult result = module->walk([](Operation *op) {
    StringRef dialect = op->getName().getDialectNamespace();
    if (dialect == "builtin" || dialect == "func" || dialect == "arith" ||
        dialect == "math" || dialect == "memref" || dialect == "stencil")
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  stencil_fuzz::fixHostBandwidth();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::unique_ptr<MLIRContext> context = stencil_fuzz::createQuietContext();
  // MLIR's lexer reads up to a NUL after the text, as files and strings
  // have one; libFuzzer's buffer ends at its last byte.
  std::string text(reinterpret_cast<const char *>(data), size);
  ParserConfig config(context.get(), /*verifyAfterParse=*/true);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  if (!module || !isStencilInput(*module))
    return 0;

  stencil_fuzz::runPipelineOnCopy(*module, [](OpPassManager &pm) {
    pm.addPass(createCanonicalizerPass());
  });
  // Each backend lowers the schedule the input carries, then the one the
  // tuning passes choose for a device of its kind.
  struct Backend {
    const char *device;
    void (*lower)(ModuleOp);
  };
  for (Backend backend : {Backend{"host", stencil_fuzz::lowerForCPU},
                          Backend{"lavapipe", stencil_fuzz::lowerForVulkan}}) {
    backend.lower(*module);
    OwningOpRef<ModuleOp> tuned(module->clone());
    if (failed(stencil_fuzz::runPipeline(*tuned, [&](OpPassManager &pm) {
          stencil::StencilAttachTargetOptions attach;
          attach.targets.push_back(backend.device);
          pm.addPass(stencil::createStencilAttachTarget(attach));
          pm.addPass(stencil::createStencilTuneWorkGroup());
          pm.addPass(stencil::createStencilTuneExchangeDepth());
        })))
      continue;
    backend.lower(*tuned);
  }
  return 0;
}

//===- StencilTranslateFuzzer.cpp - Fuzz the pragma-C importer ------------===//
//
// Input: a C file. It goes through Clang and the pragma importer in memory,
// as `stencil-translate --import-pragma-c` does. Rejected input is fine; a
// crash, a module that does not verify, or a manifest that is not JSON is a
// bug.
//
//===----------------------------------------------------------------------===//

#include "FuzzerSupport.h"

#include "Stencil/Conversion/ImportPragmaC/ImportPragmaC.h"

#include "Stencil/Dialect/Stencil/IR/StencilDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir;

extern "C" int LLVMFuzzerInitialize(int *, char ***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::unique_ptr<MLIRContext> context = stencil_fuzz::createQuietContext();
  // What the importer builds with (stencil-translate loads every dialect).
  context
      ->loadDialect<arith::ArithDialect, func::FuncDialect, math::MathDialect,
                    memref::MemRefDialect, stencil::StencilDialect>();
  stencil::PragmaCImportOptions options;
  options.silenceDiagnostics = true;
  // stencil_io.h, as stencilcc finds it: output calls in regions.
  options.clangArgs.push_back("-I" STENCIL_RUNTIME_INCLUDE_DIR);
  stencil::PragmaCImportResult result;
  StringRef source(reinterpret_cast<const char *>(data), size);
  if (failed(stencil::importPragmaCSource(source, "fuzz.c", options,
                                          context.get(), result))) {
    if (result.internalError)
      std::abort();
    return 0;
  }
  if (result.numRegions == 0)
    return 0;
  llvm::Expected<llvm::json::Value> manifest =
      llvm::json::parse(result.manifest);
  if (!manifest) {
    llvm::errs() << "stencil fuzzer: the manifest is not JSON: "
                 << llvm::toString(manifest.takeError()) << "\n";
    std::abort();
  }
  return 0;
}

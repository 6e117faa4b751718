//===- StencilPlugin.cpp - The stencil dialect for upstream tools ---------===//
//
// Lets upstream `mlir-opt` read, verify and transform stencil IR:
//   mlir-opt --load-dialect-plugin=StencilPlugin.so \
//            --load-pass-plugin=StencilPlugin.so ...
// The plugin links the dialect's static libraries and resolves MLIR itself
// from the libMLIR.so the tool already loaded, so both agree on every
// TypeID.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "Stencil/Dialect/Stencil/Transforms/Passes.h"
#include "Stencil/Tuning/Passes.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "StencilPlugin", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            registry->insert<mlir::stencil::StencilDialect>();
          }};
}

// The stencil-to-stencil and tuning passes. The lowerings stay in
// stencil-opt: they need the pipelines' own registrations.
extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "StencilPlugin", LLVM_VERSION_STRING, [] {
            mlir::stencil::registerStencilTransformsPasses();
            mlir::stencil::registerStencilTuningPasses();
          }};
}

//===- NestSPIRVModules.cpp - spirv.module into its gpu.module ------------===//
//
// convert-gpu-to-spirv emits `spirv.module @__spv__NAME` next to
// `gpu.module @NAME`; the SPIR-V target of gpu-module-to-binary serializes
// the spirv.module found inside the gpu.module.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/GPU/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILNESTSPIRVMODULES
#include "Stencil/Dialect/GPU/Transforms/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

namespace {

/// The name prefix convert-gpu-to-spirv gives the modules it creates.
constexpr llvm::StringLiteral kConvertedPrefix = "__spv__";

struct StencilNestSPIRVModulesPass
    : public stencil::impl::StencilNestSPIRVModulesBase<
          StencilNestSPIRVModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto spirvModule :
         llvm::make_early_inc_range(module.getOps<spirv::ModuleOp>())) {
      std::optional<StringRef> name = spirvModule.getName();
      if (!name || !name->starts_with(kConvertedPrefix))
        continue;
      StringRef gpuName = name->drop_front(kConvertedPrefix.size());
      auto gpuModule = symbols.lookup<gpu::GPUModuleOp>(gpuName);
      if (!gpuModule) {
        spirvModule.emitOpError("has no gpu.module @")
            << gpuName << " to move into";
        return signalPassFailure();
      }
      if (!gpuModule.getOps<spirv::ModuleOp>().empty()) {
        gpuModule.emitOpError("already holds a spirv.module");
        return signalPassFailure();
      }
      spirvModule->moveBefore(gpuModule.getBody(),
                              gpuModule.getBody()->begin());
    }
  }
};

} // namespace

//===- MergeKernelModules.cpp - All kernels in one gpu.module -------------===//

#include "Stencil/Dialect/GPU/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILMERGEKERNELMODULES
#include "Stencil/Dialect/GPU/Transforms/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

namespace {

struct StencilMergeKernelModulesPass
    : public stencil::impl::StencilMergeKernelModulesBase<
          StencilMergeKernelModulesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> kernelModules(
        module.getOps<gpu::GPUModuleOp>());
    if (kernelModules.size() < 2)
      return;
    gpu::GPUModuleOp target = kernelModules.front();
    // New kernel name per (module, kernel): the module's name, made unique
    // by outlining, when the module holds one kernel.
    DenseMap<std::pair<StringAttr, StringAttr>, StringAttr> renamed;
    for (gpu::GPUModuleOp source : kernelModules) {
      SmallVector<gpu::GPUFuncOp> kernels(source.getOps<gpu::GPUFuncOp>());
      for (gpu::GPUFuncOp kernel : kernels) {
        StringAttr oldName = SymbolTable::getSymbolName(kernel);
        StringAttr newName =
            kernels.size() == 1
                ? source.getSymNameAttr()
                : StringAttr::get(&getContext(), source.getSymName() + "_" +
                                                     oldName.getValue());
        renamed[{source.getSymNameAttr(), oldName}] = newName;
        if (source == target) {
          SymbolTable::setSymbolName(kernel, newName);
          continue;
        }
        kernel->moveBefore(target.getBody(), target.getBody()->end());
        SymbolTable::setSymbolName(kernel, newName);
      }
    }
    WalkResult result = module.walk([&](gpu::LaunchFuncOp launch) {
      StringAttr newName = renamed.lookup(
          {launch.getKernelModuleName(), launch.getKernelName()});
      if (!newName) {
        launch.emitOpError("launches a kernel outside the gpu.modules");
        return WalkResult::interrupt();
      }
      launch.setKernelAttr(SymbolRefAttr::get(
          target.getSymNameAttr(), {FlatSymbolRefAttr::get(newName)}));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    for (gpu::GPUModuleOp source : llvm::drop_begin(kernelModules)) {
      if (!source.getBody()->without_terminator().empty()) {
        source.emitOpError("holds more than kernels; cannot merge it");
        return signalPassFailure();
      }
      source.erase();
    }
  }
};

} // namespace

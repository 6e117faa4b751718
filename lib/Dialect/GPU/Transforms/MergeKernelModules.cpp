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

/// Bytes of workgroup memory the module's kernels declare (buffers of
/// run-time size, which no backend lowers, count none).
int64_t getWorkgroupBytes(gpu::GPUModuleOp module) {
  int64_t bytes = 0;
  for (gpu::GPUFuncOp kernel : module.getOps<gpu::GPUFuncOp>())
    for (BlockArgument buffer : kernel.getWorkgroupAttributions()) {
      auto type = llvm::dyn_cast<MemRefType>(buffer.getType());
      if (!type || !type.hasStaticShape() ||
          !type.getElementType().isIntOrFloat())
        continue;
      bytes += type.getNumElements() *
               llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    }
  return bytes;
}

struct StencilMergeKernelModulesPass
    : public stencil::impl::StencilMergeKernelModulesBase<
          StencilMergeKernelModulesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> kernelModules(
        module.getOps<gpu::GPUModuleOp>());
    if (kernelModules.size() < 2)
      return;
    // The groups to merge, first fit in IR order; with
    // separate-workgroup-memory a group's kernels together declare no more
    // workgroup memory than the largest kernel alone, which the lowering
    // checked against the device.
    SmallVector<SmallVector<gpu::GPUModuleOp>> groups;
    SmallVector<int64_t> groupBytes;
    int64_t capacity = 0;
    if (separateWorkgroupMemory)
      for (gpu::GPUModuleOp source : kernelModules)
        capacity = std::max(capacity, getWorkgroupBytes(source));
    for (gpu::GPUModuleOp source : kernelModules) {
      int64_t bytes = separateWorkgroupMemory ? getWorkgroupBytes(source) : 0;
      auto *fits = llvm::find_if(
          groupBytes, [&](int64_t used) { return used + bytes <= capacity; });
      if (fits == groupBytes.end()) {
        groups.emplace_back();
        groupBytes.push_back(0);
        fits = std::prev(groupBytes.end());
      }
      *fits += bytes;
      groups[fits - groupBytes.begin()].push_back(source);
    }

    // New (module, kernel) per old one: the kernel is renamed after the
    // module it came from (unique, from outlining) when that held one
    // kernel.
    DenseMap<std::pair<StringAttr, StringAttr>,
             std::pair<StringAttr, StringAttr>>
        renamed;
    for (ArrayRef<gpu::GPUModuleOp> group : groups) {
      gpu::GPUModuleOp target = group.front();
      for (gpu::GPUModuleOp source : group) {
        SmallVector<gpu::GPUFuncOp> kernels(source.getOps<gpu::GPUFuncOp>());
        for (gpu::GPUFuncOp kernel : kernels) {
          StringAttr oldName = SymbolTable::getSymbolName(kernel);
          StringAttr newName =
              kernels.size() == 1
                  ? source.getSymNameAttr()
                  : StringAttr::get(&getContext(), source.getSymName() + "_" +
                                                       oldName.getValue());
          renamed[{source.getSymNameAttr(), oldName}] = {
              target.getSymNameAttr(), newName};
          if (source != target)
            kernel->moveBefore(target.getBody(), target.getBody()->end());
          SymbolTable::setSymbolName(kernel, newName);
        }
      }
    }
    WalkResult result = module.walk([&](gpu::LaunchFuncOp launch) {
      auto [newModule, newName] = renamed.lookup(
          {launch.getKernelModuleName(), launch.getKernelName()});
      if (!newName) {
        launch.emitOpError("launches a kernel outside the gpu.modules");
        return WalkResult::interrupt();
      }
      launch.setKernelAttr(
          SymbolRefAttr::get(newModule, {FlatSymbolRefAttr::get(newName)}));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    for (ArrayRef<gpu::GPUModuleOp> group : groups)
      for (gpu::GPUModuleOp source : llvm::drop_begin(group)) {
        if (!source.getBody()->without_terminator().empty()) {
          source.emitOpError("holds more than kernels; cannot merge it");
          return signalPassFailure();
        }
        source.erase();
      }
  }
};

} // namespace

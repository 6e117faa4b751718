//===- StencilToGPU.cpp - The convert-stencil-to-gpu pass -----------------===//
//
// The GPU lowering: FunctionLowering.cpp with buffers in device memory and
// boxes of points as kernel launches, after checking every schedule against
// the limits of the attached device.
//
//===----------------------------------------------------------------------===//

#include "../StencilToLoops/Lowering.h"

#include "Stencil/Conversion/Passes.h"
#include "Stencil/Dialect/Stencil/IR/StencilOps.h"
#include "Stencil/Tuning/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_CONVERTSTENCILTOGPU
#include "Stencil/Conversion/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {

/// Static workgroup memory a CUDA kernel may declare; larger tiles need
/// dynamic shared memory, which this lowering does not use.
constexpr int64_t kDefaultWorkgroupMemory = 48 * 1024;

std::string formatShape(ArrayRef<int64_t> shape) {
  return llvm::join(
      llvm::map_range(llvm::reverse(shape),
                      [](int64_t v) { return std::to_string(v); }),
      "x");
}

struct ConvertStencilToGPUPass
    : public stencil::impl::ConvertStencilToGPUBase<ConvertStencilToGPUPass> {
  using ConvertStencilToGPUBase::ConvertStencilToGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    lowering::Options options;
    options.device = true;
    options.defaultWorkGroup.assign(defaultWorkGroup.begin(),
                                    defaultWorkGroup.end());
    for (int64_t size : options.defaultWorkGroup)
      if (size < 1) {
        module.emitError("default-wg entries must be positive, got ") << size;
        return signalPassFailure();
      }
    FailureOr<SmallVector<TargetDescription>> targets =
        readAttachedTargets(module);
    if (failed(targets))
      return signalPassFailure();
    std::optional<TargetDescription> target;
    if (!targets->empty())
      target = targets->front();
    options.workgroupMemoryLimit = workgroupMemoryLimit;
    if (options.workgroupMemoryLimit == 0)
      options.workgroupMemoryLimit =
          target && target->onchipBytes > 0
              ? std::min(target->onchipBytes, kDefaultWorkgroupMemory)
              : kDefaultWorkgroupMemory;
    if (target && failed(checkWorkGroups(*target)))
      return signalPassFailure();

    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (failed(lowering::lowerFunction(func, options)))
        return signalPassFailure();
    }
  }

  /// Rejects work groups the device cannot launch, before any codegen.
  LogicalResult checkWorkGroups(const TargetDescription &target) {
    if (target.maxWorkGroupSize <= 0)
      return success();
    WalkResult result = getOperation().walk([&](Operation *op) {
      auto schedule = op->getAttrOfType<ScheduleAttr>("schedule");
      if (!schedule)
        return WalkResult::advance();
      int64_t items = 1;
      for (int64_t size : schedule.getWg())
        items *= size;
      if (items <= target.maxWorkGroupSize)
        return WalkResult::advance();
      op->emitOpError("work group ")
          << formatShape(schedule.getWg()) << " has " << items
          << " work items, above the maximum of " << target.maxWorkGroupSize
          << " (max_work_group_size) of device '" << target.name << "'";
      return WalkResult::interrupt();
    });
    return failure(result.wasInterrupted());
  }
};

} // namespace

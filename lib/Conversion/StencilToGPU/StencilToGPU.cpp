//===- StencilToGPU.cpp - The convert-stencil-to-gpu pass -----------------===//
//
// The GPU lowering: the lowering core (StencilCommon) onto the device
// backend, with the limits of the attached device.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/StencilToGPU/StencilToGPU.h"
#include "Stencil/Conversion/Passes.h"
#include "Stencil/Conversion/StencilToMPI/StencilToMPI.h"
#include "Stencil/Tuning/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_CONVERTSTENCILTOGPU
#include "Stencil/Conversion/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {

struct ConvertStencilToGPUPass
    : public stencil::impl::ConvertStencilToGPUBase<ConvertStencilToGPUPass> {
  using ConvertStencilToGPUBase::ConvertStencilToGPUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    DeviceLoweringOptions options;
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
          target ? target->getKernelWorkgroupBytes()
                 : TargetDescription::kStaticSharedMemoryBytes;
    if (target) {
      options.maxWorkGroupSize = target->maxWorkGroupSize;
      options.deviceName = target->name;
    }

    std::unique_ptr<LoweringBackend> backend =
        createDeviceLoweringBackend(options);
    // Distributed functions (stencil-distribute): one rank per device, halo
    // faces packed on the device and sent from host memory.
    std::unique_ptr<ExchangeLowering> exchanges =
        createMPIExchangeLowering(/*deviceBuffers=*/true);
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (failed(lowerFunction(func, *backend, exchanges.get())))
        return signalPassFailure();
    }
  }
};

} // namespace

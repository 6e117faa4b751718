//===- AttachTarget.cpp - Place target descriptions on the module ---------===//

#include "Stencil/Tuning/Passes.h"
#include "Stencil/Tuning/TargetDescription.h"

#include "mlir/Dialect/DLTI/DLTI.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILATTACHTARGET
#include "Stencil/Tuning/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {
struct StencilAttachTargetPass
    : public stencil::impl::StencilAttachTargetBase<StencilAttachTargetPass> {
  using StencilAttachTargetBase::StencilAttachTargetBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (targets.empty()) {
      module.emitError("stencil-attach-target needs targets=NAME[,NAME...]");
      return signalPassFailure();
    }
    SmallVector<TargetDescription> descriptions;
    for (const std::string &name : targets) {
      FailureOr<TargetDescription> target = loadTargetDescription(
          name, targetDirs, [&] { return module.emitError(); });
      if (failed(target))
        return signalPassFailure();
      descriptions.push_back(*target);
    }
    attachTargets(module, descriptions);
  }
};
} // namespace

//===- StencilToLoops.cpp - The convert-stencil-to-loops pass -------------===//
//
// The CPU lowering: the lowering core (StencilCommon) onto the host backend,
// with the halo exchanges of distributed functions lowered by StencilToMPI.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/StencilToLoops/StencilToLoops.h"
#include "Stencil/Conversion/Passes.h"
#include "Stencil/Conversion/StencilToMPI/StencilToMPI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_CONVERTSTENCILTOLOOPS
#include "Stencil/Conversion/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {

struct ConvertStencilToLoopsPass
    : public stencil::impl::ConvertStencilToLoopsBase<
          ConvertStencilToLoopsPass> {
  using ConvertStencilToLoopsBase::ConvertStencilToLoopsBase;

  void runOnOperation() override {
    HostLoweringOptions options;
    options.defaultTile.assign(defaultTile.begin(), defaultTile.end());
    for (int64_t size : options.defaultTile)
      if (size < 0) {
        getOperation().emitError("default-tile entries must be 0 (whole "
                                 "axis) or positive, got ")
            << size;
        return signalPassFailure();
      }
    // The option streams as a character into a diagnostic: take its value.
    options.prefetchDistance = prefetchDistance.getValue();
    if (options.prefetchDistance < 0) {
      getOperation().emitError("prefetch-distance must be 0 (off) or a "
                               "positive number of bytes, got ")
          << options.prefetchDistance;
      return signalPassFailure();
    }
    std::unique_ptr<LoweringBackend> backend =
        createHostLoweringBackend(options);
    std::unique_ptr<ExchangeLowering> exchanges = createMPIExchangeLowering();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (failed(lowerFunction(func, *backend, exchanges.get())))
        return signalPassFailure();
    }
  }
};

} // namespace

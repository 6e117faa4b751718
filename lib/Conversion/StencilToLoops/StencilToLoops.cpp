//===- StencilToLoops.cpp - The convert-stencil-to-loops pass -------------===//
//
// The CPU lowering: FunctionLowering.cpp with buffers in host memory and
// boxes of points as tiled scf.parallel loops.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "Stencil/Conversion/Passes.h"

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
    lowering::Options options;
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
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (failed(lowering::lowerFunction(func, options)))
        return signalPassFailure();
    }
  }
};

} // namespace

//===- NVVMCMath.cpp - sqrtf as C computes it on NVVM -----------===//
//
// libdevice's __nv_sqrtf is the approximate square root unless NVVMReflect
// is told otherwise, which LLVM 22 reads from its command line only; the
// NVVM intrinsic for the correctly rounded one is called directly.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/GPU/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILNVVMCMATH
#include "Stencil/Dialect/GPU/Transforms/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

namespace {

struct StencilNVVMCMathPass
    : public stencil::impl::StencilNVVMCMathBase<StencilNVVMCMathPass> {
  void runOnOperation() override {
    SmallVector<math::SqrtOp> roots;
    getOperation().walk([&](math::SqrtOp sqrt) {
      if (sqrt.getType().isF32())
        roots.push_back(sqrt);
    });
    // __nv_sqrt (f64) and __nv_fabsf are exact already; convert-gpu-to-nvvm
    // would turn llvm.intr.sqrt back into the libdevice call, so the NVVM
    // intrinsic is called by name.
    for (math::SqrtOp sqrt : roots) {
      OpBuilder builder(sqrt);
      auto call = LLVM::CallIntrinsicOp::create(
          builder, sqrt.getLoc(), sqrt.getType(),
          builder.getStringAttr("llvm.nvvm.sqrt.rn.f"),
          ValueRange{sqrt.getOperand()});
      sqrt.replaceAllUsesWith(call.getResult(0));
      sqrt.erase();
    }
  }
};

} // namespace

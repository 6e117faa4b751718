//===- AllowContraction.cpp - -ffp-contract=fast for stencil regions ------===//
//
// `stencil-allow-contraction`: the regions' floating-point operations get
// the `contract` fast-math flag, the permission `-ffp-contract=fast` gives
// C code, so that LLVM may fuse multiplies into the adds that use them. The
// flag only adds a permission; an operation keeps the flags it has.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/Stencil/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILALLOWCONTRACTION
#include "Stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

namespace {

struct StencilAllowContractionPass
    : public stencil::impl::StencilAllowContractionBase<
          StencilAllowContractionPass> {
  void runOnOperation() override {
    getOperation()->walk([](arith::ArithFastMathInterface op) {
      arith::FastMathFlagsAttr current = op.getFastMathFlagsAttr();
      arith::FastMathFlags flags =
          current ? current.getValue() : arith::FastMathFlags::none;
      op->setAttr(
          op.getFastMathAttrName(),
          arith::FastMathFlagsAttr::get(
              op->getContext(), flags | arith::FastMathFlags::contract));
    });
  }
};

} // namespace

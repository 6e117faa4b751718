//===- SPIRVNoContraction.cpp - C's evaluation order in SPIR-V ------------===//
//
// A SPIR-V arithmetic instruction without NoContraction may be fused with
// another or reassociated by the driver's compiler. C (without
// -ffast-math) allows neither across statements and no reassociation at
// all, so every floating-point operation of a kernel is decorated.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/GPU/Transforms/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILSPIRVNOCONTRACTION
#include "Stencil/Dialect/GPU/Transforms/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

namespace {

struct StencilSPIRVNoContractionPass
    : public stencil::impl::StencilSPIRVNoContractionBase<
          StencilSPIRVNoContractionPass> {
  void runOnOperation() override {
    // The serializer writes a unit attribute named after a decoration (in
    // snake case) as that decoration.
    StringRef name = "no_contraction";
    UnitAttr unit = UnitAttr::get(&getContext());
    getOperation().walk([&](Operation *op) {
      if (isa<spirv::FAddOp, spirv::FSubOp, spirv::FMulOp, spirv::FDivOp,
              spirv::FRemOp, spirv::FModOp, spirv::FNegateOp>(op))
        op->setAttr(name, unit);
    });
  }
};

} // namespace

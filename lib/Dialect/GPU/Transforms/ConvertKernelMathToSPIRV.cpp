//===- ConvertKernelMathToSPIRV.cpp - math ops for a SPIR-V target --------===//
//
// Converts the math ops of a gpu.module with the SPIR-V target environment
// attached to it, and says which op the target cannot run before the
// conversion would fail on it.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/GPU/Transforms/Passes.h"

#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILCONVERTKERNELMATHTOSPIRV
#include "Stencil/Dialect/GPU/Transforms/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

namespace {

/// Math ops whose GLSL.std.450 instruction takes 16- and 32-bit floats only.
bool isGLSLFloat32Only(Operation *op) {
  return isa<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp,
             math::Log2Op, math::Log1pOp, math::PowFOp, math::SinOp,
             math::CosOp, math::TanOp, math::AsinOp, math::AcosOp, math::AtanOp,
             math::Atan2Op, math::SinhOp, math::CoshOp, math::TanhOp,
             math::AsinhOp, math::AcoshOp, math::AtanhOp>(op);
}

bool hasF64(Operation *op) {
  auto isF64 = [](Type type) { return getElementTypeOrSelf(type).isF64(); };
  return llvm::any_of(op->getOperandTypes(), isF64) ||
         llvm::any_of(op->getResultTypes(), isF64);
}

struct StencilConvertKernelMathToSPIRVPass
    : public stencil::impl::StencilConvertKernelMathToSPIRVBase<
          StencilConvertKernelMathToSPIRVPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    spirv::TargetEnvAttr targetEnv;
    if (ArrayAttr targets = module.getTargetsAttr())
      for (Attribute target : targets)
        if ((targetEnv = dyn_cast<spirv::TargetEnvAttr>(target)))
          break;
    if (!targetEnv) {
      module.emitOpError("has no SPIR-V target; run spirv-attach-target "
                         "first");
      return signalPassFailure();
    }

    SmallVector<Operation *> mathOps;
    module.walk([&](Operation *op) {
      if (isa<math::MathDialect>(op->getDialect()))
        mathOps.push_back(op);
    });
    if (mathOps.empty())
      return;
    for (Operation *op : mathOps)
      if (isGLSLFloat32Only(op) && hasF64(op)) {
        op->emitOpError("on f64 cannot run on the vulkan target: SPIR-V's "
                        "GLSL.std.450 instruction takes 16- and 32-bit "
                        "floats only; compute it in float or use another "
                        "target");
        return signalPassFailure();
      }

    SPIRVTypeConverter typeConverter(targetEnv);
    RewritePatternSet patterns(&getContext());
    populateMathToSPIRVPatterns(typeConverter, patterns);
    // SPIR-V ops count as legal only where the environment has them, which
    // picks GLSL.std.450 over OpenCL.std for a Shader target.
    std::unique_ptr<SPIRVConversionTarget> target =
        SPIRVConversionTarget::get(targetEnv);
    target->addIllegalDialect<math::MathDialect>();
    target->markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    FrozenRewritePatternSet frozen(std::move(patterns));

    // A dry run first, so that an op without a lowering gets a message
    // naming the target rather than the driver's "failed to legalize".
    DenseSet<Operation *> convertible;
    ConversionConfig analysis;
    analysis.legalizableOps = &convertible;
    if (failed(applyAnalysisConversion(mathOps, *target, frozen, analysis)))
      return signalPassFailure();
    for (Operation *op : mathOps)
      if (!convertible.contains(op)) {
        op->emitOpError("has no SPIR-V lowering for the vulkan target (")
            << spirv::stringifyVersion(targetEnv.getVersion()) << ")";
        return signalPassFailure();
      }
    if (failed(applyPartialConversion(module, *target, frozen)))
      signalPassFailure();
  }
};

} // namespace

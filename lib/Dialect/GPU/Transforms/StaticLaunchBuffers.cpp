//===- StaticLaunchBuffers.cpp - Static stand-ins for run-time lengths ----===//
//
// gpu-to-llvm passes each kernel buffer with its size in bytes when the
// runtime binds buffers by size (Vulkan), and computes that size from a
// static shape. Once the kernels are binaries no kernel signature is left
// to match, so a 1-D buffer of run-time length can be launched as a view of
// zero elements at the same address: the Vulkan runtime binds every buffer
// from its pointer to the end of its allocation.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/GPU/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILSTATICLAUNCHBUFFERS
#include "Stencil/Dialect/GPU/Transforms/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

namespace {

struct StencilStaticLaunchBuffersPass
    : public stencil::impl::StencilStaticLaunchBuffersBase<
          StencilStaticLaunchBuffersPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](gpu::LaunchFuncOp launch) {
      for (OpOperand &operand : launch.getKernelOperandsMutable()) {
        auto type = llvm::dyn_cast<MemRefType>(operand.get().getType());
        if (!type || type.hasStaticShape())
          continue;
        // A kernel still in a gpu.module would no longer match its launch.
        if (!SymbolTable::lookupNearestSymbolFrom<gpu::BinaryOp>(
                launch, launch.getKernelModuleName())) {
          launch.emitOpError("launches kernel module '")
              << launch.getKernelModuleName().getValue()
              << "', which is not a gpu.binary yet; run "
                 "stencil-static-launch-buffers after gpu-module-to-binary";
          return WalkResult::interrupt();
        }
        if (type.getRank() != 1 || !type.getLayout().isIdentity()) {
          launch.emitOpError("passes ")
              << type
              << " to a kernel; expected a 1-D buffer of run-time length "
                 "(stencil-static-launch-operands convention=flat-buffer "
                 "makes them)";
          return WalkResult::interrupt();
        }
        OpBuilder builder(launch);
        auto standIn =
            MemRefType::get({0}, type.getElementType(),
                            MemRefLayoutAttrInterface(), type.getMemorySpace());
        operand.set(memref::ReinterpretCastOp::create(
            builder, launch.getLoc(), standIn, operand.get(),
            /*offset=*/0, /*sizes=*/ArrayRef<int64_t>{0},
            /*strides=*/ArrayRef<int64_t>{1}));
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

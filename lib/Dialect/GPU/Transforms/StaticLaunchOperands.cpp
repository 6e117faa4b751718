//===- StaticLaunchOperands.cpp - Run-time shaped memrefs into launches ---===//
//
// The bare-pointer calling convention of kernels is defined for memrefs of
// static shape: the kernel rebuilds its descriptor from the pointer and the
// type. A launch that uses a memref of run-time shape gets a 0-d view of its
// first element (static, so a bare pointer) and its sizes (index values,
// kernel arguments), and rebuilds the row-major memref inside.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/GPU/Transforms/Passes.h"
#include "Stencil/Support/RowMajor.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILSTATICLAUNCHOPERANDS
#include "Stencil/Dialect/GPU/Transforms/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

namespace {

/// The memrefs of run-time shape that `launch`'s body uses from outside.
SmallVector<Value> getDynamicCaptures(gpu::LaunchOp launch) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(launch.getBody(), captured);
  SmallVector<Value> dynamic;
  for (Value value : captured)
    if (auto type = llvm::dyn_cast<MemRefType>(value.getType()))
      if (!type.hasStaticShape())
        dynamic.push_back(value);
  return dynamic;
}

LogicalResult passAsBarePointer(gpu::LaunchOp launch, Value memref) {
  auto type = llvm::cast<MemRefType>(memref.getType());
  if (!type.getLayout().isIdentity())
    return launch.emitOpError("uses ")
           << type
           << ", a memref of run-time shape with a layout; kernels take "
              "row-major buffers";
  Location loc = launch.getLoc();
  OpBuilder outside(launch);
  SmallVector<OpFoldResult> sizes = memref::getMixedSizes(outside, loc, memref);
  auto baseType =
      MemRefType::get({}, type.getElementType(), MemRefLayoutAttrInterface(),
                      type.getMemorySpace());
  Value base = memref::ReinterpretCastOp::create(
      outside, loc, baseType, memref, outside.getIndexAttr(0),
      ArrayRef<OpFoldResult>(), ArrayRef<OpFoldResult>());

  // Inside: the row-major strides from the sizes, then the view.
  OpBuilder inside = OpBuilder::atBlockBegin(&launch.getBody().front());
  SmallVector<OpFoldResult, 3> strides =
      stencil::buildRowMajorStrides(inside, loc, sizes);
  Value view =
      stencil::buildRowMajorView(inside, loc, type, base, sizes, strides);
  replaceAllUsesInRegionWith(memref, view, launch.getBody());
  return success();
}

struct StencilStaticLaunchOperandsPass
    : public stencil::impl::StencilStaticLaunchOperandsBase<
          StencilStaticLaunchOperandsPass> {
  using StencilStaticLaunchOperandsBase::StencilStaticLaunchOperandsBase;

  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](gpu::LaunchOp launch) {
      for (Value memref : getDynamicCaptures(launch)) {
        if (!dynamicShapes) {
          launch.emitOpError("uses ")
              << memref.getType()
              << ", a buffer of run-time shape (arrays whose extents the "
                 "program gives at run time); SPIR-V kernels (the Vulkan "
                 "target) bind buffers of static shape only: give the "
                 "arrays constant sizes, or use the cpu, cuda or rocm "
                 "target";
          return WalkResult::interrupt();
        }
        if (failed(passAsBarePointer(launch, memref)))
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

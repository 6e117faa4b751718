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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
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

/// Kernels index buffers row-major: a layout cannot be passed either way.
LogicalResult checkRowMajor(gpu::LaunchOp launch, Value memref) {
  auto type = llvm::cast<MemRefType>(memref.getType());
  if (type.getLayout().isIdentity())
    return success();
  return launch.emitOpError("uses ")
         << type
         << ", a memref of run-time shape with a layout; kernels take "
            "row-major buffers";
}

LogicalResult passAsBarePointer(gpu::LaunchOp launch, Value memref) {
  auto type = llvm::cast<MemRefType>(memref.getType());
  if (failed(checkRowMajor(launch, memref)))
    return failure();
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

/// The sizes of the memrefs a flat-buffer launch reads, in a device buffer
/// of i32 the launch's body loads them from: made once on entry to the
/// function, filled before each launch (the sizes of a buffer the time
/// loop rotates are those of whichever buffer the launch gets).
class ShapeBuffer {
public:
  ShapeBuffer(func::FuncOp func, gpu::LaunchOp launch, unsigned count)
      : launch(launch) {
    Location loc = launch.getLoc();
    OpBuilder atEntry = OpBuilder::atBlockBegin(&func.getBody().front());
    auto type = MemRefType::get({count}, atEntry.getI32Type());
    host = memref::AllocaOp::create(atEntry, loc, type);
    device = gpu::AllocOp::create(atEntry, loc, type, Type(), {}, {}, {})
                 .getMemref();
    func.walk([&](func::ReturnOp ret) {
      OpBuilder atReturn(ret);
      gpu::DeallocOp::create(atReturn, loc, Type(), {}, device);
    });
  }

  /// Size `size` (an index value outside the launch) becomes entry `slot`;
  /// returns its value inside the launch.
  Value add(Value size, unsigned slot) {
    Location loc = launch.getLoc();
    OpBuilder outside(launch);
    Value index = arith::ConstantIndexOp::create(outside, loc, slot);
    Value word =
        arith::IndexCastOp::create(outside, loc, outside.getI32Type(), size);
    memref::StoreOp::create(outside, loc, word, host, index);
    OpBuilder inside = getInsideBuilder();
    Value insideIndex = arith::ConstantIndexOp::create(inside, loc, slot);
    Value loaded = memref::LoadOp::create(inside, loc, device, insideIndex);
    lastInside =
        arith::IndexCastOp::create(inside, loc, inside.getIndexType(), loaded);
    return lastInside;
  }

  /// Copies the sizes to the device, before the launch.
  void finish() {
    OpBuilder outside(launch);
    gpu::MemcpyOp::create(outside, launch.getLoc(), Type(), {}, device, host);
  }

  /// Where views built inside the launch go: after the sizes.
  OpBuilder getInsideBuilder() {
    OpBuilder inside = OpBuilder::atBlockBegin(&launch.getBody().front());
    if (lastInside)
      inside.setInsertionPointAfterValue(lastInside);
    return inside;
  }

private:
  gpu::LaunchOp launch;
  Value host, device, lastInside;
};

/// Passes the memrefs of run-time shape that `launch` uses as 1-D views
/// of their elements, indexed row-major inside with sizes from a shape
/// buffer. A 1-D memref is passed as it is.
LogicalResult passAsFlatBuffers(func::FuncOp func, gpu::LaunchOp launch,
                                ArrayRef<Value> memrefs) {
  Location loc = launch.getLoc();
  unsigned slots = 0;
  for (Value memref : memrefs) {
    auto type = llvm::cast<MemRefType>(memref.getType());
    if (failed(checkRowMajor(launch, memref)))
      return failure();
    if (type.getRank() > 1)
      slots += type.getNumDynamicDims();
  }
  if (slots == 0)
    return success();
  ShapeBuffer shapes(func, launch, slots);
  unsigned slot = 0;
  for (Value memref : memrefs) {
    auto type = llvm::cast<MemRefType>(memref.getType());
    if (type.getRank() == 1)
      continue;
    OpBuilder outside(launch);
    // Outside: the sizes and the whole memref as one run of elements.
    SmallVector<Value, 3> sizesOutside;
    Value count = arith::ConstantIndexOp::create(outside, loc, 1);
    for (auto [axis, size] : llvm::enumerate(type.getShape())) {
      sizesOutside.push_back(
          ShapedType::isDynamic(size)
              ? memref::DimOp::create(outside, loc, memref, axis).getResult()
              : arith::ConstantIndexOp::create(outside, loc, size).getResult());
      count = arith::MulIOp::create(outside, loc, count, sizesOutside.back());
    }
    auto flatType =
        MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                        MemRefLayoutAttrInterface(), type.getMemorySpace());
    Value flat = memref::ReinterpretCastOp::create(
        outside, loc, flatType, memref, outside.getIndexAttr(0),
        ArrayRef<OpFoldResult>{count},
        ArrayRef<OpFoldResult>{outside.getIndexAttr(1)});
    // Inside: the sizes, constants where static.
    SmallVector<Value, 3> sizes;
    for (auto [axis, size] : llvm::enumerate(type.getShape())) {
      if (ShapedType::isDynamic(size)) {
        sizes.push_back(shapes.add(sizesOutside[axis], slot++));
      } else {
        OpBuilder inside = shapes.getInsideBuilder();
        sizes.push_back(arith::ConstantIndexOp::create(inside, loc, size));
      }
    }
    auto linearize = [&](OpBuilder &builder, Location at, ValueRange indices) {
      Value linear = indices.front();
      for (unsigned axis = 1; axis < indices.size(); ++axis) {
        linear = arith::MulIOp::create(builder, at, linear, sizes[axis]);
        linear = arith::AddIOp::create(builder, at, linear, indices[axis]);
      }
      return linear;
    };
    for (OpOperand &use : llvm::make_early_inc_range(memref.getUses())) {
      Operation *user = use.getOwner();
      if (!launch.getBody().isAncestor(user->getParentRegion()))
        continue;
      OpBuilder builder(user);
      if (auto load = llvm::dyn_cast<memref::LoadOp>(user)) {
        Value linear = linearize(builder, load.getLoc(), load.getIndices());
        load.replaceAllUsesWith(
            memref::LoadOp::create(builder, load.getLoc(), flat, linear)
                .getResult());
        load.erase();
      } else if (auto store = llvm::dyn_cast<memref::StoreOp>(user)) {
        Value linear = linearize(builder, store.getLoc(), store.getIndices());
        memref::StoreOp::create(builder, store.getLoc(), store.getValue(), flat,
                                linear);
        store.erase();
      } else if (auto dim = llvm::dyn_cast<memref::DimOp>(user);
                 dim && dim.getConstantIndex()) {
        dim.replaceAllUsesWith(sizes[*dim.getConstantIndex()]);
        dim.erase();
      } else {
        return user->emitOpError("uses ")
               << type
               << " in a kernel for a flat-buffer target; only loads, stores "
                  "and constant dims are rewritten";
      }
    }
  }
  shapes.finish();
  return success();
}

struct StencilStaticLaunchOperandsPass
    : public stencil::impl::StencilStaticLaunchOperandsBase<
          StencilStaticLaunchOperandsPass> {
  using StencilStaticLaunchOperandsBase::StencilStaticLaunchOperandsBase;

  void runOnOperation() override {
    bool flat = convention == "flat-buffer";
    if (!flat && convention != "bare-pointer") {
      getOperation().emitError("stencil-static-launch-operands: unknown "
                               "convention '")
          << convention << "'; expected bare-pointer or flat-buffer";
      return signalPassFailure();
    }
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches) {
      SmallVector<Value> dynamic = getDynamicCaptures(launch);
      if (flat) {
        if (failed(passAsFlatBuffers(getOperation(), launch, dynamic)))
          return signalPassFailure();
        continue;
      }
      for (Value memref : dynamic)
        if (failed(passAsBarePointer(launch, memref)))
          return signalPassFailure();
    }
  }
};

} // namespace

//===- PrepareSPIRVKernels.cpp - Kernels ready for convert-gpu-to-spirv ---===//
//
// A SPIR-V compute shader declares its work-group size (LocalSize), and
// its workgroup memory is a module variable. gpu-kernel-outlining records
// the launch's size as known_block_size and keeps workgroup buffers as
// attributions; this pass restates both in the forms convert-gpu-to-spirv
// reads: spirv.entry_point_abi, and memref.alloc in the Workgroup storage
// class.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/GPU/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

#include <limits>

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILPREPARESPIRVKERNELS
#include "Stencil/Dialect/GPU/Transforms/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

namespace {

/// Replaces the workgroup attributions of `func` by allocations at entry.
void allocateWorkgroupAttributions(gpu::GPUFuncOp func) {
  unsigned count = func.getNumWorkgroupAttributions();
  if (count == 0)
    return;
  Block &entry = func.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  auto workgroup = spirv::StorageClassAttr::get(func.getContext(),
                                                spirv::StorageClass::Workgroup);
  unsigned first = func.getFirstWorkgroupAttributionIndex();
  for (BlockArgument attribution : func.getWorkgroupAttributions()) {
    auto type = llvm::cast<MemRefType>(attribution.getType());
    auto spirvType = MemRefType::get(type.getShape(), type.getElementType(),
                                     type.getLayout(), workgroup);
    Value buffer =
        memref::AllocOp::create(builder, attribution.getLoc(), spirvType);
    attribution.replaceAllUsesWith(buffer);
  }
  for (unsigned i = count; i > 0; --i)
    entry.eraseArgument(first + i - 1);
  func->setAttr(gpu::GPUFuncOp::getNumWorkgroupAttributionsAttrName(),
                IntegerAttr::get(IndexType::get(func.getContext()), 0));
}

/// convert-gpu-to-spirv lowers `index` to 32 bits: a buffer of 2^31
/// elements or more would be addressed with wrapped indices.
LogicalResult checkIndexWidth(gpu::GPUFuncOp func) {
  for (Type type : func.getArgumentTypes()) {
    auto memref = llvm::dyn_cast<MemRefType>(type);
    if (!memref || !memref.hasStaticShape() ||
        memref.getNumElements() <= std::numeric_limits<int32_t>::max())
      continue;
    return func.emitOpError("takes ")
           << memref << ", " << memref.getNumElements()
           << " elements; SPIR-V kernels index buffers with 32 bits, up to "
           << std::numeric_limits<int32_t>::max()
           << " elements: use a smaller grid or another target";
  }
  return success();
}

struct StencilPrepareSPIRVKernelsPass
    : public stencil::impl::StencilPrepareSPIRVKernelsBase<
          StencilPrepareSPIRVKernelsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>()) {
      if (!func.isKernel())
        continue;
      if (failed(checkIndexWidth(func)))
        return signalPassFailure();
      allocateWorkgroupAttributions(func);
      if (func->hasAttr(spirv::getEntryPointABIAttrName()))
        continue;
      std::optional<ArrayRef<int32_t>> size = func.getKnownBlockSize();
      if (!size) {
        func.emitOpError("has no known_block_size; a SPIR-V kernel needs "
                         "its work-group size at compile time (launch it "
                         "with constant block sizes)");
        return signalPassFailure();
      }
      func->setAttr(spirv::getEntryPointABIAttrName(),
                    spirv::getEntryPointABIAttr(&getContext(), *size));
    }
  }
};

} // namespace

//===- InitAllDialects.h - Dialects known to the stencil tools --*- C++ -*-===//

#ifndef STENCIL_INITALLDIALECTS_H
#define STENCIL_INITALLDIALECTS_H

#include "Stencil/Dialect/Stencil/IR/StencilDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVM/ROCDL/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/SPIRV/Target.h"

namespace mlir::stencil {

/// Registers the stencil dialect and every upstream dialect (with its
/// interface extensions) that stencil programs are lowered to, so that
/// `stencil-opt` reads and writes every stage of every pipeline, including
/// the GPU targets' serialization (gpu-module-to-binary) and the LLVM IR
/// translation of every dialect the pipelines produce.
inline void registerAllDialects(DialectRegistry &registry) {
  registry.insert<StencilDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  ROCDL::registerROCDLTargetInterfaceExternalModels(registry);
  spirv::registerSPIRVTargetInterfaceExternalModels(registry);
}

} // namespace mlir::stencil

#endif // STENCIL_INITALLDIALECTS_H

//===- InitAllPasses.h - Passes known to the stencil tools ------*- C++ -*-===//

#ifndef STENCIL_INITALLPASSES_H
#define STENCIL_INITALLPASSES_H

#include "Stencil/Conversion/Passes.h"
#include "Stencil/Dialect/GPU/Transforms/Passes.h"
#include "Stencil/Dialect/Stencil/Transforms/Passes.h"
#include "Stencil/Tuning/Passes.h"

#include "mlir/InitAllPasses.h"

namespace mlir::stencil {

/// Registers the upstream passes, so pipelines mix them with ours as in
/// mlir-opt. Each pass group of this project adds its registration call here
/// when it lands (the tools call only this function).
inline void registerAllPasses() {
  mlir::registerAllPasses();
  registerStencilTransformsPasses();
  registerStencilGPUTransformsPasses();
  registerConversionPassesAndPipelines();
  registerStencilTuningPasses();
}

} // namespace mlir::stencil

#endif // STENCIL_INITALLPASSES_H

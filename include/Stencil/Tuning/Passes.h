//===- Passes.h - Target descriptions and static tuning ---------*- C++ -*-===//

#ifndef STENCIL_TUNING_PASSES_H
#define STENCIL_TUNING_PASSES_H

#include "mlir/Pass/Pass.h"

#include <string>

namespace mlir::stencil {

#define GEN_PASS_DECL
#include "Stencil/Tuning/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stencil/Tuning/Passes.h.inc"

} // namespace mlir::stencil

#endif // STENCIL_TUNING_PASSES_H

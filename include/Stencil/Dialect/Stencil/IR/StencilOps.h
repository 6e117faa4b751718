//===- StencilOps.h - Stencil dialect operations ----------------*- C++ -*-===//

#ifndef STENCIL_DIALECT_STENCIL_IR_STENCILOPS_H
#define STENCIL_DIALECT_STENCIL_IR_STENCILOPS_H

#include "Stencil/Dialect/Stencil/IR/StencilDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Stencil/Dialect/Stencil/IR/StencilInterfaces.h.inc"

#define GET_OP_CLASSES
#include "Stencil/Dialect/Stencil/IR/StencilOps.h.inc"

#endif // STENCIL_DIALECT_STENCIL_IR_STENCILOPS_H

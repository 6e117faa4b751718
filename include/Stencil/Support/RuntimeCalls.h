//===- RuntimeCalls.h - Calls into the host runtime -------------*- C++ -*-===//
//
// The runtime functions the lowered IR calls (runtime/mpi/stencil_mpi.h,
// runtime/common's stencil_write_raw_buffer) take only 64-bit integers, so
// IR calls them with `func.call` on i64 values and needs no memref
// descriptors. These helpers declare the functions on demand and convert
// arguments; stencil-distribute, the lowering of halo exchanges
// (StencilToMPI) and the lowering core (file writes) share them.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_RUNTIMECALLS_H
#define STENCIL_SUPPORT_RUNTIMECALLS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stencil {

/// Calls runtime function `name` (declared in `module` if needed) with
/// `args`, each an index or integer value converted to i64. Returns its i64
/// result as an index when `returnsIndex`, else a null value.
Value callRuntime(OpBuilder &builder, Location loc, ModuleOp module,
                  StringRef name, ValueRange args, bool returnsIndex = false);

/// The address of `memref`'s first element as an index.
Value getBufferAddress(OpBuilder &builder, Location loc, Value memref);

/// `values` padded to three entries with `fill` (an index constant), as the
/// runtime's s0, s1, s2 / w0, w1, w2 arguments expect.
SmallVector<Value, 3> padToThreeAxes(OpBuilder &builder, Location loc,
                                     ValueRange values, int64_t fill);

} // namespace mlir::stencil

#endif // STENCIL_SUPPORT_RUNTIMECALLS_H

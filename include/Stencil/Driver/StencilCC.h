//===- StencilCC.h - The pragma-C compiler driver ---------------*- C++ -*-===//

#ifndef STENCIL_DRIVER_STENCILCC_H
#define STENCIL_DRIVER_STENCILCC_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::stencil {

/// Runs `stencilcc` with its command-line arguments (without argv[0]);
/// returns the process exit status. See `stencilcc --help` and
/// docs/stencilcc.md.
int runStencilCC(llvm::ArrayRef<const char *> args);

/// What `stencilcc --version` prints: printToolVersion and the backends
/// built.
void printVersion(llvm::raw_ostream &os);

} // namespace mlir::stencil

#endif // STENCIL_DRIVER_STENCILCC_H

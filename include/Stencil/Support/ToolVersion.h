//===- ToolVersion.h - What --version prints --------------------*- C++ -*-===//

#ifndef STENCIL_SUPPORT_TOOLVERSION_H
#define STENCIL_SUPPORT_TOOLVERSION_H

#include "llvm/Support/raw_ostream.h"

namespace mlir::stencil {

/// stencil-mlir's version, the LLVM/MLIR it was built with and the prefix
/// the running tool belongs to (getInstallPrefix), one per line.
void printToolVersion(llvm::raw_ostream &os);

} // namespace mlir::stencil

#endif // STENCIL_SUPPORT_TOOLVERSION_H

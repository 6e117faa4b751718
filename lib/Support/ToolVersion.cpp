//===- ToolVersion.cpp - What --version prints ----------------------------===//

#include "Stencil/Support/ToolVersion.h"
#include "Stencil/Support/InstallPaths.h"
#include "Stencil/Version.h"

void mlir::stencil::printToolVersion(llvm::raw_ostream &os) {
  os << "stencil-mlir version " STENCIL_VERSION "\n"
     << "  built with LLVM/MLIR " STENCIL_LLVM_VERSION "\n"
     << "  installed in " << getInstallPrefix() << "\n";
}

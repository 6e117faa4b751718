//===- stencilcc.cpp - pragma C to executable -----------------------------===//

#include "Stencil/Driver/StencilCC.h"

#include "llvm/Support/InitLLVM.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  return mlir::stencil::runStencilCC(
      llvm::ArrayRef<const char *>(argv + 1, argv + argc));
}

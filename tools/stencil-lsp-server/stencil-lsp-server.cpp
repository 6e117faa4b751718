//===- stencil-lsp-server.cpp - Language server for stencil IR ------------===//
//
// MLIR's language server with the stencil dialect and every dialect
// stencil-opt knows: editors get diagnostics, hovers, go-to-definition and
// completion in .mlir files that use them (docs/Install.md sets it up for
// VS Code and Neovim).
//
//===----------------------------------------------------------------------===//

#include "Stencil/InitAllDialects.h"

#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::stencil::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}

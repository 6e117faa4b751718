//===- stencil-opt.cpp - The stencil-mlir optimizer driver ----------------===//
//
// mlir-opt with the stencil dialect and this project's passes: reads MLIR,
// runs a pass pipeline, writes MLIR. Invalid input gets a diagnostic at its
// location and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "Stencil/InitAllDialects.h"
#include "Stencil/InitAllPasses.h"
#include "Stencil/Support/ToolVersion.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::stencil::test {
void registerTestPasses();
} // namespace mlir::stencil::test

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::stencil::registerAllDialects(registry);
  mlir::stencil::registerAllPasses();
  mlir::stencil::test::registerTestPasses();
  llvm::cl::AddExtraVersionPrinter(mlir::stencil::printToolVersion);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "stencil-mlir optimizer driver\n", registry));
}

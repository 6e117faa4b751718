//===- stencil-reduce.cpp - Test-case reducer for stencil IR --------------===//
//
// mlir-reduce with the stencil dialect and this project's passes: shrinks an
// input while a script still finds it interesting (a crash, a wrong
// result), so a bug report carries the smallest IR that shows it.
//
//===----------------------------------------------------------------------===//

#include "Stencil/InitAllDialects.h"
#include "Stencil/InitAllPasses.h"

#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::stencil::registerAllDialects(registry);
  mlir::stencil::registerAllPasses();
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context));
}

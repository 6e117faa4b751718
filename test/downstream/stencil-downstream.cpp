//===- stencil-downstream.cpp - A tool outside stencil-mlir ---------------===//
//
// Reads stencil IR, attaches a target description and runs the work-group
// tuner, then prints the module: what a downstream compiler reusing the
// dialect and its passes does, through the installed package only.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "Stencil/Tuning/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: stencil-downstream FILE.mlir TARGET\n";
    return 2;
  }
  DialectRegistry registry;
  registry.insert<stencil::StencilDialect, arith::ArithDialect, DLTIDialect,
                  func::FuncDialect, memref::MemRefDialect>();
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[1], &context);
  if (!module)
    return 1;

  PassManager pm(&context);
  stencil::StencilAttachTargetOptions target;
  target.targets = {argv[2]};
  target.targetDirs = {STENCIL_TARGETS};
  pm.addPass(stencil::createStencilAttachTarget(target));
  pm.addPass(stencil::createStencilTuneWorkGroup());
  if (failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  return 0;
}

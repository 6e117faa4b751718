//===- ImportPragmaC.cpp - Run Clang and import the regions ---------------===//
//
// Runs Clang's real C front end on the file (so macros, includes and C
// semantics are Clang's), with a pragma handler for the `stencil` namespace.
// Once the translation unit is parsed, the directives are matched with the
// AST (RegionAnalysis.cpp), each region becomes a function
// (IREmitter.cpp), and the host interface is written (HostInterface.cpp).
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/ImportPragmaC/ImportPragmaC.h"

#include "Directives.h"
#include "HostInterface.h"
#include "IREmitter.h"
#include "RegionModel.h"

#include "mlir/IR/Verifier.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::pragma_c;

#ifndef STENCIL_CLANG_RESOURCE_DIR
#define STENCIL_CLANG_RESOURCE_DIR ""
#endif

namespace {

class ImportConsumer : public clang::ASTConsumer {
public:
  ImportConsumer(const std::vector<Directive> &directives,
                 PragmaCImportResult &result, bool residentBlocks)
      : directives(directives), result(result), residentBlocks(residentBlocks) {
  }

  void HandleTranslationUnit(clang::ASTContext &context) override {
    // A C file Clang rejects is not imported: its errors come first.
    if (context.getDiagnostics().hasErrorOccurred())
      return;
    std::vector<StencilRegion> regions = analyzeRegions(context, directives);
    if (context.getDiagnostics().hasErrorOccurred())
      return;
    for (StencilRegion &region : regions)
      if (!emitRegion(context, region, *result.module))
        return;
    result.numRegions = regions.size();
    result.manifest = buildManifest(context, regions);
    result.rewrittenSource = rewriteSource(context, regions, residentBlocks);
  }

private:
  const std::vector<Directive> &directives;
  PragmaCImportResult &result;
  bool residentBlocks;
};

class ImportAction : public clang::ASTFrontendAction {
public:
  ImportAction(PragmaCImportResult &result, const PragmaCImportOptions &options)
      : result(result), silenceDiagnostics(options.silenceDiagnostics),
        residentBlocks(options.residentBlocks) {}

  bool BeginSourceFileAction(clang::CompilerInstance &ci) override {
    // The engine still counts errors; only their printing is dropped.
    if (silenceDiagnostics)
      ci.getDiagnostics().setClient(new clang::IgnoringDiagConsumer(),
                                    /*ShouldOwnClient=*/true);
    // The preprocessor owns the handler; it sees every `#pragma stencil`.
    ci.getPreprocessor().AddPragmaHandler("stencil",
                                          new StencilPragmaHandler(directives));
    return true;
  }

  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<ImportConsumer>(directives, result, residentBlocks);
  }

private:
  std::vector<Directive> directives;
  PragmaCImportResult &result;
  bool silenceDiagnostics;
  bool residentBlocks;
};

} // namespace

LogicalResult mlir::stencil::importPragmaC(llvm::StringRef path,
                                           const PragmaCImportOptions &options,
                                           MLIRContext *context,
                                           PragmaCImportResult &result) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path);
  if (!file) {
    llvm::WithColor::error() << "cannot read '" << path
                             << "': " << file.getError().message() << "\n";
    return failure();
  }
  return importPragmaCSource((*file)->getBuffer(), path, options, context,
                             result);
}

LogicalResult mlir::stencil::importPragmaCSource(
    llvm::StringRef source, llvm::StringRef fileName,
    const PragmaCImportOptions &options, MLIRContext *context,
    PragmaCImportResult &result) {
  result.module =
      ModuleOp::create(FileLineColLoc::get(context, fileName, 1, 1));
  std::string resourceDir = options.resourceDir.empty()
                                ? std::string(STENCIL_CLANG_RESOURCE_DIR)
                                : options.resourceDir;
  std::vector<std::string> args;
  if (!resourceDir.empty())
    args.push_back("-resource-dir=" + resourceDir);
  // C, whatever the file is called; users may still pass -std=.
  args.push_back("-xc");
  llvm::append_range(args, options.clangArgs);

  bool ok = clang::tooling::runToolOnCodeWithArgs(
      std::make_unique<ImportAction>(result, options), source, args, fileName,
      "stencil-translate");
  if (!ok || !result.module)
    return failure();
  if (failed(verify(*result.module))) {
    result.internalError = true;
    llvm::WithColor::error()
        << "internal error: the imported module does not verify; please "
           "report this with the input file\n";
    return failure();
  }
  return success();
}

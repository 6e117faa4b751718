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
#include "OmpDevices.h"
#include "Physis.h"
#include "RegionModel.h"

#include "Stencil/Support/InstallPaths.h"

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
  ImportConsumer(clang::Preprocessor &pp, std::vector<Directive> &directives,
                 const std::vector<OmpLine> &ompLines,
                 PragmaCImportResult &result,
                 const PragmaCImportOptions &options)
      : pp(pp), directives(directives), ompLines(ompLines), result(result),
        residentBlocks(options.residentBlocks), frontend(options.frontend) {}

  void HandleTranslationUnit(clang::ASTContext &context) override {
    // A C file Clang rejects is not imported: its errors come first.
    if (context.getDiagnostics().hasErrorOccurred())
      return;
    if (!readOmpDevices(context))
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
  /// Seed 004's spelling, where the file uses it: its lines become
  /// directives beside (not mixed with) `#pragma stencil`'s.
  bool readOmpDevices(clang::ASTContext &context) {
    if (ompLines.empty() || frontend == PragmaFrontend::Stencil ||
        (frontend == PragmaFrontend::Auto && !usesOmpDevices(ompLines)))
      return true;
    if (!directives.empty()) {
      reportError(context.getDiagnostics(), directives.front().loc,
                  "this file uses both '#pragma stencil' and seed 004's "
                  "'#pragma omp target' spelling; write each region in one "
                  "(stencilcc --frontend=stencil reads only the first)");
      reportNote(context.getDiagnostics(), ompLines.front().hashLoc,
                 "the first '#pragma omp target' line");
      return false;
    }
    return translateOmpDevices(pp, ompLines, directives) &&
           completeOmpDevices(context, directives);
  }

  clang::Preprocessor &pp;
  std::vector<Directive> &directives;
  const std::vector<OmpLine> &ompLines;
  PragmaCImportResult &result;
  bool residentBlocks;
  PragmaFrontend frontend;
};

class ImportAction : public clang::ASTFrontendAction {
public:
  ImportAction(PragmaCImportResult &result, const PragmaCImportOptions &options)
      : result(result), options(options) {}

  bool BeginSourceFileAction(clang::CompilerInstance &ci) override {
    // The engine still counts errors; only their printing is dropped.
    if (options.silenceDiagnostics)
      ci.getDiagnostics().setClient(new clang::IgnoringDiagConsumer(),
                                    /*ShouldOwnClient=*/true);
    // The preprocessor owns the handler; it sees every `#pragma stencil`.
    ci.getPreprocessor().AddPragmaHandler("stencil",
                                          new StencilPragmaHandler(directives));
    // Clang's parser owns `#pragma omp`: seed 004's lines are seen through
    // the preprocessor's callback instead.
    if (options.frontend != PragmaFrontend::Stencil)
      ci.getPreprocessor().addPPCallbacks(
          std::make_unique<OmpLineCollector>(ci.getPreprocessor(), ompLines));
    return true;
  }

  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &ci, llvm::StringRef) override {
    return std::make_unique<ImportConsumer>(ci.getPreprocessor(), directives,
                                            ompLines, result, options);
  }

private:
  std::vector<Directive> directives;
  std::vector<OmpLine> ompLines;
  PragmaCImportResult &result;
  PragmaCImportOptions options;
};

/// Clang's arguments for the importer's parses.
std::vector<std::string> getClangArgs(const PragmaCImportOptions &options) {
  std::string resourceDir = options.resourceDir.empty()
                                ? std::string(STENCIL_CLANG_RESOURCE_DIR)
                                : options.resourceDir;
  std::vector<std::string> args;
  if (!resourceDir.empty())
    args.push_back("-resource-dir=" + resourceDir);
  // C, whatever the file is called; users may still pass -std=.
  args.push_back("-xc");
  llvm::append_range(args, options.clangArgs);
  return args;
}

} // namespace

bool mlir::stencil::isPhysisProgram(llvm::StringRef source) {
  return pragma_c::includesPhysisHeader(source);
}

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
  if (options.frontend == PragmaFrontend::Physis ||
      (options.frontend == PragmaFrontend::Auto && isPhysisProgram(source))) {
    // stencil-mlir's physis/physis.h, after the user's directories.
    PragmaCImportOptions regions = options;
    regions.frontend = PragmaFrontend::Stencil;
    regions.clangArgs.push_back("-I" +
                                resolveInstallPath("include/stencil-mlir"));
    std::optional<pragma_c::PhysisProgram> program = pragma_c::translatePhysis(
        source, fileName, getClangArgs(regions), options.residentBlocks,
        options.silenceDiagnostics);
    if (!program) {
      result.module =
          ModuleOp::create(FileLineColLoc::get(context, fileName, 1, 1));
      return failure();
    }
    // The import keeps the text as its regionsSource, also when it fails.
    result.physisMargin = program->margin;
    return importPragmaCSource(program->source, fileName, regions, context,
                               result);
  }
  result.regionsSource = source.str();
  result.module =
      ModuleOp::create(FileLineColLoc::get(context, fileName, 1, 1));
  std::vector<std::string> args = getClangArgs(options);

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

//===- stencil-translate.cpp - Import pragma-C into the stencil dialect ---===//
//
//   stencil-translate --import-pragma-c prog.c [-o prog.mlir]
//       [--manifest=prog.json] [--rewrite-c=prog.host.c]
//       [-I dir] [-D name[=value]] [-U name] [-std=c11] [--extra-arg=...]
//
// Errors in the C program or its directives are printed by Clang as
// `file:line:col: error: ...`; the exit status is then 1.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/ImportPragmaC/ImportPragmaC.h"
#include "Stencil/InitAllDialects.h"
#include "Stencil/Support/ToolVersion.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

static cl::OptionCategory category("stencil-translate options");

static cl::opt<std::string>
    importFile("import-pragma-c",
               cl::desc("Import the #pragma stencil regions of a C file"),
               cl::value_desc("file.c"), cl::cat(category));
static cl::opt<std::string> importPhysisFile(
    "import-physis",
    cl::desc("Import the PSStencilRuns of a Physis program (seed 003) as "
             "regions (--import-pragma-c FILE --frontend=physis)"),
    cl::value_desc("file.c"), cl::cat(category));
static cl::opt<std::string> regionsFile(
    "write-regions-c",
    cl::desc("Write the program as a front end (Physis) wrote it with "
             "#pragma stencil regions, before the import"),
    cl::value_desc("file.c"), cl::cat(category));
static cl::opt<std::string> outputFile("o", cl::desc("Output MLIR file"),
                                       cl::value_desc("file"), cl::init("-"),
                                       cl::cat(category));
static cl::opt<std::string>
    manifestFile("manifest",
                 cl::desc("Write the JSON description of the regions"),
                 cl::value_desc("file.json"), cl::cat(category));
static cl::opt<std::string> rewriteFile(
    "rewrite-c",
    cl::desc("Write the C file with each region replaced by a call"),
    cl::value_desc("file.c"), cl::cat(category));
static cl::list<std::string> includeDirs("I", cl::Prefix,
                                         cl::desc("Add an include directory"),
                                         cl::value_desc("dir"),
                                         cl::cat(category));
static cl::list<std::string> defines("D", cl::Prefix,
                                     cl::desc("Define a macro"),
                                     cl::value_desc("name[=value]"),
                                     cl::cat(category));
static cl::list<std::string> undefines("U", cl::Prefix,
                                       cl::desc("Undefine a macro"),
                                       cl::value_desc("name"),
                                       cl::cat(category));
static cl::opt<std::string> languageStandard("std",
                                             cl::desc("C language standard"),
                                             cl::value_desc("c11"),
                                             cl::cat(category));
static cl::opt<bool> residentBlocks(
    "resident-blocks",
    cl::desc("Rewrite the C file for stencilcc --mpi: resident arrays "
             "(distribute(...) resident) exist only as the MPI ranks' "
             "blocks, so their definitions are dropped"),
    cl::cat(category));
static cl::opt<mlir::stencil::PragmaFrontend> frontend(
    "frontend", cl::desc("The spelling of the directives"),
    cl::values(clEnumValN(mlir::stencil::PragmaFrontend::Auto, "auto",
                          "#pragma stencil, or seed 004's OpenMP spelling "
                          "where '#pragma omp target' lines use its "
                          "extensions (default)"),
               clEnumValN(mlir::stencil::PragmaFrontend::Stencil, "stencil",
                          "#pragma stencil only"),
               clEnumValN(mlir::stencil::PragmaFrontend::OmpDevices,
                          "omp-devices",
                          "every '#pragma omp target' line is seed 004's"),
               clEnumValN(mlir::stencil::PragmaFrontend::Physis, "physis",
                          "a Physis program: each PSStencilRun is a region "
                          "(auto: when it includes physis/physis.h)")),
    cl::init(mlir::stencil::PragmaFrontend::Auto), cl::cat(category));
static cl::list<std::string>
    extraArgs("extra-arg", cl::desc("Pass an argument to Clang as it is"),
              cl::value_desc("arg"), cl::cat(category));

/// Writes `text` to `path`; reports and returns false on failure.
static bool writeFile(StringRef path, StringRef text) {
  std::string message;
  std::unique_ptr<ToolOutputFile> file = mlir::openOutputFile(path, &message);
  if (!file) {
    WithColor::error() << message << "\n";
    return false;
  }
  file->os() << text;
  file->keep();
  return true;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  cl::HideUnrelatedOptions({&category, &getColorCategory()});
  cl::AddExtraVersionPrinter(mlir::stencil::printToolVersion);
  cl::ParseCommandLineOptions(
      argc, argv,
      "stencil-translate: import C with #pragma stencil directives (or a "
      "Physis program) into the stencil dialect\n");
  if (!importPhysisFile.empty()) {
    if (!importFile.empty()) {
      WithColor::error() << "pass one of --import-pragma-c and "
                            "--import-physis\n";
      return 1;
    }
    if (frontend.getNumOccurrences() &&
        frontend != mlir::stencil::PragmaFrontend::Physis) {
      WithColor::error() << "--import-physis reads a Physis program; drop "
                            "--frontend\n";
      return 1;
    }
    importFile = importPhysisFile;
    frontend = mlir::stencil::PragmaFrontend::Physis;
  }
  if (importFile.empty()) {
    WithColor::error() << "no input: pass --import-pragma-c FILE.c or "
                          "--import-physis FILE.c (see --help)\n";
    return 1;
  }

  mlir::stencil::PragmaCImportOptions options;
  for (const std::string &dir : includeDirs)
    options.clangArgs.push_back("-I" + dir);
  for (const std::string &define : defines)
    options.clangArgs.push_back("-D" + define);
  for (const std::string &name : undefines)
    options.clangArgs.push_back("-U" + name);
  if (!languageStandard.empty())
    options.clangArgs.push_back("-std=" + languageStandard);
  for (const std::string &arg : extraArgs)
    options.clangArgs.push_back(arg);
  options.residentBlocks = residentBlocks;
  options.frontend = frontend;

  mlir::DialectRegistry registry;
  mlir::stencil::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();

  mlir::stencil::PragmaCImportResult result;
  bool imported = succeeded(
      mlir::stencil::importPragmaC(importFile, options, &context, result));
  // What a front end wrote is worth seeing most when its import failed.
  if (!regionsFile.empty() && !result.regionsSource.empty() &&
      !writeFile(regionsFile, result.regionsSource))
    return 1;
  if (!imported)
    return 1;

  std::string mlirText;
  raw_string_ostream os(mlirText);
  result.module->print(os);
  if (!writeFile(outputFile, mlirText))
    return 1;
  if (!manifestFile.empty() && !writeFile(manifestFile, result.manifest + "\n"))
    return 1;
  if (!rewriteFile.empty() && !writeFile(rewriteFile, result.rewrittenSource))
    return 1;
  return 0;
}

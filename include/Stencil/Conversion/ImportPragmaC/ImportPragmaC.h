//===- ImportPragmaC.h - Import C with #pragma stencil ----------*- C++ -*-===//
//
// Parses a C file with Clang, finds the regions marked with `#pragma stencil`
// (seed 000 Table 2), and builds one function per region in the stencil
// dialect. It also describes each region for the driver that replaces the
// region by a call: a JSON manifest and a rewritten copy of the C file (see
// docs/PragmaC.md for the directive language and that interface).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_IMPORTPRAGMAC_IMPORTPRAGMAC_H
#define STENCIL_CONVERSION_IMPORTPRAGMAC_IMPORTPRAGMAC_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::stencil {

/// Which spelling of the directives a file is read in.
enum class PragmaFrontend {
  /// `#pragma stencil`, or seed 004's OpenMP spelling where the file's
  /// `#pragma omp target` lines use its extensions (`layout`, `shadow`,
  /// `reflect`, `gmove`, `bcast`).
  Auto,
  /// `#pragma stencil` only; `#pragma omp` lines are left to the host
  /// compiler.
  Stencil,
  /// Every `#pragma omp target` line is seed 004's.
  OmpDevices,
  /// A Physis program (seed 003): its `PSStencilRun`s are the regions.
  /// `Auto` reads a file this way when it includes `physis/physis.h`.
  Physis,
};

struct PragmaCImportOptions {
  /// Arguments passed to Clang as they are: -I, -D, -U, -std=, ...
  std::vector<std::string> clangArgs;
  /// Clang's resource directory (builtin headers such as stddef.h); the
  /// directory found at build time when empty.
  std::string resourceDir;
  /// Drops Clang's diagnostics instead of printing them (fuzzers, which
  /// only ask whether the input was accepted).
  bool silenceDiagnostics = false;
  /// Rewrites the C file for `stencilcc --mpi`: the resident arrays
  /// (`distribute(...) resident`) exist only as the ranks' blocks, so their
  /// definitions are dropped and the regions' functions get null pointers
  /// for them.
  /// A Physis program's runs are split across the ranks too.
  bool residentBlocks = false;
  PragmaFrontend frontend = PragmaFrontend::Auto;
};

struct PragmaCImportResult {
  /// One function per region, in source order.
  OwningOpRef<ModuleOp> module;
  /// JSON description of the regions (docs/PragmaC.md).
  std::string manifest;
  /// The C file with each region replaced by a call to its function.
  std::string rewrittenSource;
  /// The program with `#pragma stencil` regions as a front end wrote it
  /// (Physis), before the import, also when the import fails; the file
  /// itself otherwise.
  std::string regionsSource;
  /// A Physis program's grid margin (PHYSIS_MARGIN), with which its other C
  /// files must be compiled.
  std::optional<int64_t> physisMargin;
  /// Number of regions found (0 for a file without regions).
  unsigned numRegions = 0;
  /// Set when the importer built a module that does not verify: a bug in
  /// the importer, not in the input.
  bool internalError = false;
};

/// Whether C source text is a Physis program (it includes
/// `physis/physis.h`), which PragmaFrontend::Auto reads as one.
bool isPhysisProgram(llvm::StringRef source);

/// Imports `path`. Returns failure after Clang has printed every diagnostic
/// (file:line:col: error: ...) when the C code or a directive is invalid or
/// outside the supported subset.
LogicalResult importPragmaC(llvm::StringRef path,
                            const PragmaCImportOptions &options,
                            MLIRContext *context, PragmaCImportResult &result);

/// Imports C source text held in memory, named `fileName` in diagnostics
/// and locations.
LogicalResult importPragmaCSource(llvm::StringRef source,
                                  llvm::StringRef fileName,
                                  const PragmaCImportOptions &options,
                                  MLIRContext *context,
                                  PragmaCImportResult &result);

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_IMPORTPRAGMAC_IMPORTPRAGMAC_H

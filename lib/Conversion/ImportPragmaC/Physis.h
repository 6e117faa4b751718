//===- Physis.h - Physis programs read as regions ---------------*- C++ -*-===//
//
// Physis (seed 003) writes a stencil as a C function of one point
// (`PSGridGet` reads a grid at `x + c`, `PSGridEmit` writes the point) and
// applies it with `PSStencilRun(PSStencilMap(kernel, domain, grids...),
// ..., count)`. Each run says what a `#pragma stencil` region says, so the
// front end writes the program again with one pragma-C region per run (the
// stencil functions' bodies as its calc nests, under `#line` so that every
// later diagnostic names the user's lines) and the importer reads that
// (docs/Physis.md). Private to the importer.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_IMPORTPRAGMAC_PHYSIS_H
#define LIB_CONVERSION_IMPORTPRAGMAC_PHYSIS_H

#include "llvm/ADT/StringRef.h"

namespace clang {
class Stmt;
class VarDecl;
} // namespace clang

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::stencil::pragma_c {

/// Whether the file includes `physis/physis.h`: then it is a Physis
/// program.
bool includesPhysisHeader(llvm::StringRef source);

/// A Physis program written with `#pragma stencil` regions.
struct PhysisProgram {
  std::string source;
  /// The margin its grids are stored with (physis.h's PHYSIS_MARGIN), which
  /// the program's other C files must be compiled with too.
  int64_t margin = 0;
};

/// The Physis program `source` written with `#pragma stencil` regions, or
/// nothing after Clang has reported why not (with `silence`, without
/// printing). `clangArgs` are the importer's. `distributed` (stencilcc
/// --mpi) splits each run's grids across the MPI ranks.
std::optional<PhysisProgram>
translatePhysis(llvm::StringRef source, llvm::StringRef fileName,
                const std::vector<std::string> &clangArgs, bool distributed,
                bool silence);

/// `source` with the loops of constant trip count (an int, at most 64
/// iterations) in the stencil functions PSStencilMap applies written out,
/// one block per iteration with the loop variable replaced by its value, on
/// the loop's first line (PhysisLoops.cpp). Other text and line numbers
/// stay as they are.
std::string unrollStencilLoops(llvm::StringRef source, llvm::StringRef fileName,
                               const std::vector<std::string> &clangArgs);

/// Whether `body` assigns `var` (or a member or element of it), increments
/// or decrements it, or takes its address.
bool isChangedIn(const clang::VarDecl *var, const clang::Stmt *body);

} // namespace mlir::stencil::pragma_c

#endif // LIB_CONVERSION_IMPORTPRAGMAC_PHYSIS_H

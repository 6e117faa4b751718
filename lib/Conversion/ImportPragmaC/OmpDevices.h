//===- OmpDevices.h - Seed 004's OpenMP spelling of a region ----*- C++ -*-===//
//
// Seed 004 writes a multi-device stencil program in OpenMP with a few
// extensions: `#pragma omp target enter data map(to:u) device(0:4)
// layout(block,*) shadow(1)` before the time loop, `#pragma omp target
// teams distribute parallel for layout(u)` on each loop nest of a step,
// `#pragma omp target reflect(u)` for the halo exchange and `#pragma omp
// target exit data map(from:u)` after the loop; or, for one loop nest run
// once, `#pragma omp target map(...) layout(block)` and `#pragma omp teams
// distribute parallel for` on the nest (its Fig. 4), or one `target teams
// distribute parallel for map(...)` line. This spelling says what
// `#pragma stencil` says, so the importer turns its lines into the same
// directives and analyses them alike (docs/PragmaC.md, "Seed 004's OpenMP
// spelling"). Private to the importer.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_IMPORTPRAGMAC_OMPDEVICES_H
#define LIB_CONVERSION_IMPORTPRAGMAC_OMPDEVICES_H

#include "Directives.h"

#include "clang/Lex/PPCallbacks.h"

namespace clang {
class ASTContext;
class Preprocessor;
} // namespace clang

namespace mlir::stencil::pragma_c {

/// One `#pragma omp target ...` (or `#pragma omp teams ...`) line as
/// written: its tokens, raw (Clang's own OpenMP handler consumes the line;
/// the extensions are not OpenMP).
struct OmpLine {
  clang::SourceLocation hashLoc;
  clang::SourceLocation endLoc;
  /// The tokens after `#pragma omp`, from `target` (or `teams`) on.
  std::vector<clang::Token> tokens;
};

/// Records every `#pragma omp target` and `#pragma omp teams` line of the
/// main file.
class OmpLineCollector : public clang::PPCallbacks {
public:
  OmpLineCollector(clang::Preprocessor &pp, std::vector<OmpLine> &lines)
      : pp(pp), lines(lines) {}
  void PragmaDirective(clang::SourceLocation loc,
                       clang::PragmaIntroducerKind introducer) override;

private:
  clang::Preprocessor &pp;
  std::vector<OmpLine> &lines;
};

/// Whether the lines use seed 004's extensions (a `layout` or `shadow`
/// clause, a `reflect`, `gmove` or `bcast` construct): then every
/// `omp target` line of the file is read as that spelling.
bool usesOmpDevices(const std::vector<OmpLine> &lines);

/// Turns the lines into directives: per region `begin` (the first `enter
/// data`, or the `target` line of a region of one nest), `step` and
/// `dimension` to be completed from the AST, `data` (the mapped arrays,
/// typed by their declarations), `distribute` (layout and shadow), one
/// `calc` per loop construct and `end` (the last `exit data`, or after the
/// one nest). Reports malformed lines and the constructs not implemented as
/// Clang errors; returns false after any.
bool translateOmpDevices(clang::Preprocessor &pp,
                         const std::vector<OmpLine> &lines,
                         std::vector<Directive> &directives);

/// Names the dimensions of each region translated from that spelling after
/// the loop variables of its first nest, which the AST knows, and ends each
/// region of one nest after that nest.
bool completeOmpDevices(clang::ASTContext &context,
                        std::vector<Directive> &directives);

} // namespace mlir::stencil::pragma_c

#endif // LIB_CONVERSION_IMPORTPRAGMAC_OMPDEVICES_H

//===- Directives.h - #pragma stencil directives ----------------*- C++ -*-===//
//
// The directives as the preprocessor hands them over, before they are matched
// with the AST. Private to the importer.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_IMPORTPRAGMAC_DIRECTIVES_H
#define LIB_CONVERSION_IMPORTPRAGMAC_DIRECTIVES_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Pragma.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class DiagnosticsEngine;
} // namespace clang

namespace mlir::stencil::pragma_c {

enum class DirectiveKind {
  Begin,
  End,
  Step,
  Data,
  Dimension,
  Calc,
  Copy,
  Distribute,
  Halo
};

/// The spelling of a directive in diagnostics: "begin", "data", ...
const char *getDirectiveName(DirectiveKind kind);

/// A name with the place it was written.
struct NamedLoc {
  std::string name;
  clang::SourceLocation loc;
};

/// The element type of an array of a region.
enum class ElementKind { Float, Double, Int, Long };

/// The C name of an element type (`float`, ..., `long`).
llvm::StringRef getElementCName(ElementKind kind);

/// One array of a `data` clause: `float A[NZ][NY][NX]`. Sizes are kept as
/// (macro-expanded) tokens and evaluated once the AST can resolve `const int`
/// names.
struct ArrayDecl {
  NamedLoc name;
  ElementKind element = ElementKind::Float;
  bool isSource = false;
  /// `const float C[N]`: the region only reads it.
  bool isConst = false;
  /// Element type and sizes come from the array's C declaration (seed
  /// 004's `map(to: u)` names the array only); sizeTokens is then empty.
  bool typedByDeclaration = false;
  std::vector<std::vector<clang::Token>> sizeTokens;
  llvm::SmallVector<clang::SourceLocation, 3> sizeLocs;
  /// Seed 004's `map(to: x[0:n])`: the section's length, which gives the
  /// first extent of an array declared as a pointer (`double (*x)[m]`).
  std::vector<clang::Token> firstExtentTokens;
  clang::SourceLocation firstExtentLoc;
};

struct Directive {
  DirectiveKind kind;
  /// Location of the directive's name, for diagnostics.
  clang::SourceLocation loc;
  /// Location of the `#` that starts the pragma line.
  clang::SourceLocation hashLoc;
  /// Location of the end of the pragma line.
  clang::SourceLocation endLoc;

  // step(t:1000)
  NamedLoc stepVar;
  int64_t maxSteps = 0;
  // data source(...) destination(...)
  std::vector<ArrayDecl> arrays;
  // dimension(i, j, k)
  std::vector<NamedLoc> dimensions;
  // distribute(block, *, ...): true where the axis is block-distributed.
  llvm::SmallVector<bool, 3> distributed;
  // halo(w) / shadow(w), alone or after distribute.
  std::optional<int64_t> haloWidth;
  // `resident` after distribute: the arrays live only in the ranks' blocks
  // (docs/MPI.md). Valid where given; the arrays it names, all of `data`
  // when it names none.
  clang::SourceLocation residentLoc;
  std::vector<NamedLoc> residentArrays;

  // Translated from seed 004's OpenMP spelling (OmpDevices.h):
  /// On `begin`: the region was written in that spelling.
  bool ompDevices = false;
  /// On `step`: the time loop's variable is whatever the loop declares.
  /// On `dimension`: the names are those of the loops of the first nest,
  /// which starts after `firstNestLoc`; `rank` of them when not 0.
  /// On `end`: the region ends with the nest that starts after
  /// `firstNestLoc` (a `target` construct over one nest); its locations
  /// are completed from the AST.
  bool implicit = false;
  /// On `step`: the region has no time loop; its nests run once, in order.
  bool once = false;
  clang::SourceLocation firstNestLoc;
  unsigned rank = 0;
  /// On `end`: the arrays mapped back (`map(from: ...)`); the others keep
  /// their host values, as OpenMP says.
  std::vector<NamedLoc> mappedBack;
};

/// Collects every `#pragma stencil ...` line of the translation unit,
/// reporting malformed ones as Clang errors.
class StencilPragmaHandler : public clang::PragmaHandler {
public:
  explicit StencilPragmaHandler(std::vector<Directive> &directives)
      : clang::PragmaHandler(/*name=*/""), directives(directives) {}

  void HandlePragma(clang::Preprocessor &pp, clang::PragmaIntroducer introducer,
                    clang::Token &firstToken) override;

private:
  std::vector<Directive> &directives;
};

/// `text` with each C comment replaced by a space (string and character
/// literals kept as they are): source text that may go on one line, or be
/// checked for being blank.
std::string stripComments(llvm::StringRef text);

/// Reports `message` as a Clang error at `loc`.
void reportError(clang::DiagnosticsEngine &diags, clang::SourceLocation loc,
                 llvm::StringRef message);
/// Reports `message` as a Clang note at `loc`.
void reportNote(clang::DiagnosticsEngine &diags, clang::SourceLocation loc,
                llvm::StringRef message);

} // namespace mlir::stencil::pragma_c

#endif // LIB_CONVERSION_IMPORTPRAGMAC_DIRECTIVES_H

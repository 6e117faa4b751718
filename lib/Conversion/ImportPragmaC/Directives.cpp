//===- Directives.cpp - Parse #pragma stencil lines -----------------------===//
//
// Token-level parsing of the directive language (docs/PragmaC.md). The
// preprocessor has already expanded macros in the pragma's tokens, so
// `float A[NZ][NY][NX]` arrives with NZ... replaced by their definitions.
//
//===----------------------------------------------------------------------===//

#include "Directives.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Lex/LiteralSupport.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace mlir::stencil::pragma_c;

const char *mlir::stencil::pragma_c::getDirectiveName(DirectiveKind kind) {
  // In the order of DirectiveKind.
  static const char *const names[] = {"begin", "end",        "step",
                                      "data",  "dimension",  "calc",
                                      "copy",  "distribute", "halo"};
  return names[static_cast<unsigned>(kind)];
}

void mlir::stencil::pragma_c::reportError(DiagnosticsEngine &diags,
                                          SourceLocation loc,
                                          llvm::StringRef message) {
  unsigned id = diags.getCustomDiagID(DiagnosticsEngine::Error, "%0");
  diags.Report(loc, id) << message;
}

void mlir::stencil::pragma_c::reportNote(DiagnosticsEngine &diags,
                                         SourceLocation loc,
                                         llvm::StringRef message) {
  unsigned id = diags.getCustomDiagID(DiagnosticsEngine::Note, "%0");
  diags.Report(loc, id) << message;
}

namespace {
/// A cursor over the tokens of one pragma line (without the final eod).
class TokenCursor {
public:
  TokenCursor(Preprocessor &pp, std::vector<Token> tokens, SourceLocation eol)
      : pp(pp), tokens(std::move(tokens)), eol(eol) {}

  bool atEnd() const { return pos >= tokens.size(); }
  const Token &peek() const { return tokens[pos]; }
  SourceLocation loc() const { return atEnd() ? eol : peek().getLocation(); }
  Token next() { return tokens[pos++]; }

  bool isIdentifier(StringRef name) const {
    return !atEnd() && peek().is(tok::identifier) &&
           peek().getIdentifierInfo()->getName() == name;
  }
  bool is(tok::TokenKind kind) const { return !atEnd() && peek().is(kind); }

  /// The spelling of the next token, for diagnostics.
  std::string describe() const {
    if (atEnd())
      return "end of line";
    return "'" + pp.getSpelling(peek()) + "'";
  }

  /// Consumes a token of `kind` or reports what was expected.
  bool expect(tok::TokenKind kind, StringRef what) {
    if (is(kind)) {
      ++pos;
      return true;
    }
    error(loc(), "expected " + what.str() + ", found " + describe());
    return false;
  }

  /// Consumes an identifier into `out`.
  bool expectIdentifier(NamedLoc &out, StringRef what) {
    if (!is(tok::identifier)) {
      error(loc(), "expected " + what.str() + ", found " + describe());
      return false;
    }
    Token tok = next();
    out = {tok.getIdentifierInfo()->getName().str(), tok.getLocation()};
    return true;
  }

  /// Consumes a non-negative integer literal.
  bool expectInteger(int64_t &out, StringRef what) {
    if (!is(tok::numeric_constant)) {
      error(loc(), "expected " + what.str() + ", found " + describe());
      return false;
    }
    Token tok = next();
    SmallString<32> buffer;
    bool invalid = false;
    StringRef spelling = pp.getSpelling(tok, buffer, &invalid);
    NumericLiteralParser literal(spelling, tok.getLocation(),
                                 pp.getSourceManager(), pp.getLangOpts(),
                                 pp.getTargetInfo(), pp.getDiagnostics());
    llvm::APInt value(64, 0);
    if (invalid || literal.hadError || !literal.isIntegerLiteral() ||
        literal.GetIntegerValue(value) || value.getSExtValue() < 0) {
      error(tok.getLocation(),
            "expected " + what.str() + ", found '" + spelling.str() + "'");
      return false;
    }
    out = value.getSExtValue();
    return true;
  }

  void error(SourceLocation at, const std::string &message) {
    reportError(pp.getDiagnostics(), at, message);
  }

  Preprocessor &pp;

private:
  std::vector<Token> tokens;
  SourceLocation eol;
  size_t pos = 0;
};

/// `float A[NZ][NY][NX]`, `const double C[N]`; the size tokens are kept for
/// later evaluation.
bool parseArrayDecl(TokenCursor &cursor, bool isSource, ArrayDecl &array) {
  array.isSource = isSource;
  if (cursor.is(tok::kw_const)) {
    cursor.next();
    array.isConst = true;
  }
  if (cursor.is(tok::kw_float)) {
    cursor.next();
  } else if (cursor.is(tok::kw_double)) {
    cursor.next();
    array.element = ElementKind::Double;
  } else if (cursor.is(tok::kw_int)) {
    cursor.next();
    array.element = ElementKind::Int;
  } else if (cursor.is(tok::kw_long)) {
    cursor.next();
    array.element = ElementKind::Long;
    if (cursor.is(tok::kw_int))
      cursor.next();
  } else {
    cursor.error(cursor.loc(), "expected 'float', 'double', 'int' or 'long' "
                               "array declaration, found " +
                                   cursor.describe());
    return false;
  }
  if (cursor.is(tok::kw_const)) {
    cursor.next();
    array.isConst = true;
  }
  if (!cursor.expectIdentifier(array.name, "an array name"))
    return false;
  while (cursor.is(tok::l_square)) {
    array.sizeLocs.push_back(cursor.next().getLocation());
    std::vector<Token> size;
    int depth = 0;
    while (!cursor.atEnd() && !(depth == 0 && cursor.is(tok::r_square))) {
      if (cursor.is(tok::l_square) || cursor.is(tok::l_paren))
        ++depth;
      if (cursor.is(tok::r_square) || cursor.is(tok::r_paren))
        --depth;
      size.push_back(cursor.next());
    }
    if (size.empty()) {
      cursor.error(array.sizeLocs.back(),
                   "array '" + array.name.name + "' needs a size here");
      return false;
    }
    if (!cursor.expect(tok::r_square, "']'"))
      return false;
    array.sizeTokens.push_back(std::move(size));
  }
  // How many dimensions follow the loops and how many select components
  // is the region's business (ArrayAnalysis.cpp).
  if (array.sizeTokens.empty()) {
    cursor.error(array.name.loc,
                 "array '" + array.name.name + "' needs at least one size");
    return false;
  }
  return true;
}

/// `( decl, decl, ... )` after source/destination.
bool parseArrayList(TokenCursor &cursor, bool isSource,
                    std::vector<ArrayDecl> &arrays) {
  if (!cursor.expect(tok::l_paren, "'('"))
    return false;
  do {
    ArrayDecl array;
    if (!parseArrayDecl(cursor, isSource, array))
      return false;
    arrays.push_back(std::move(array));
  } while (cursor.is(tok::comma) && (cursor.next(), true));
  return cursor.expect(tok::r_paren, "',' or ')'");
}

bool parseData(TokenCursor &cursor, Directive &directive) {
  bool seenSource = false, seenDestination = false;
  while (!cursor.atEnd()) {
    NamedLoc clause;
    if (!cursor.expectIdentifier(clause, "'source' or 'destination'"))
      return false;
    bool isSource = clause.name == "source";
    if (!isSource && clause.name != "destination") {
      cursor.error(clause.loc, "unknown clause '" + clause.name +
                                   "' in 'data'; expected 'source' or "
                                   "'destination'");
      return false;
    }
    bool &seen = isSource ? seenSource : seenDestination;
    if (seen) {
      cursor.error(clause.loc,
                   "clause '" + clause.name + "' given twice in 'data'");
      return false;
    }
    seen = true;
    if (!parseArrayList(cursor, isSource, directive.arrays))
      return false;
  }
  // A region may update its sources in place and have no destination.
  if (!seenSource) {
    cursor.error(directive.loc, "'data' needs a 'source' clause");
    return false;
  }
  return true;
}

/// `(w)` after `halo` or `shadow`, with `at` the name for diagnostics.
bool parseHaloWidth(TokenCursor &cursor, Directive &directive,
                    SourceLocation at) {
  int64_t width;
  if (!cursor.expect(tok::l_paren, "'('") ||
      !cursor.expectInteger(width, "a halo width") ||
      !cursor.expect(tok::r_paren, "')'"))
    return false;
  if (width < 1) {
    cursor.error(at, "halo width must be at least 1");
    return false;
  }
  directive.haloWidth = width;
  return true;
}

/// A `halo(w)` or `shadow(w)` clause after `distribute(...)`.
bool parseHalo(TokenCursor &cursor, Directive &directive) {
  NamedLoc clause;
  cursor.expectIdentifier(clause, "'halo'");
  return parseHaloWidth(cursor, directive, clause.loc);
}

/// `(name, name, ...)`, each name `what` (for the message).
bool parseNameList(TokenCursor &cursor, const char *what,
                   std::vector<NamedLoc> &names) {
  if (!cursor.expect(tok::l_paren, "'('"))
    return false;
  do {
    NamedLoc name;
    if (!cursor.expectIdentifier(name, what))
      return false;
    names.push_back(name);
  } while (cursor.is(tok::comma) && (cursor.next(), true));
  return cursor.expect(tok::r_paren, "',' or ')'");
}

bool parseDistribute(TokenCursor &cursor, Directive &directive) {
  if (!cursor.expect(tok::l_paren, "'('"))
    return false;
  do {
    if (cursor.is(tok::star)) {
      cursor.next();
      directive.distributed.push_back(false);
      continue;
    }
    NamedLoc kind;
    if (!cursor.expectIdentifier(kind, "'block' or '*'"))
      return false;
    if (kind.name != "block") {
      cursor.error(kind.loc, "unknown distribution '" + kind.name +
                                 "'; expected 'block' or '*'");
      return false;
    }
    directive.distributed.push_back(true);
  } while (cursor.is(tok::comma) && (cursor.next(), true));
  if (!cursor.expect(tok::r_paren, "',' or ')'"))
    return false;
  // `halo(w)` (or `shadow(w)`) and `resident[(A, B, ...)]`, in any order.
  bool seenHalo = false;
  while (!cursor.atEnd()) {
    if (cursor.isIdentifier("halo") || cursor.isIdentifier("shadow")) {
      if (seenHalo) {
        cursor.error(cursor.loc(), "halo width given twice in "
                                   "'distribute'");
        return false;
      }
      seenHalo = true;
      if (!parseHalo(cursor, directive))
        return false;
      continue;
    }
    NamedLoc clause;
    if (!cursor.expectIdentifier(clause, "'halo', 'shadow' or 'resident'"))
      return false;
    if (clause.name != "resident") {
      cursor.error(clause.loc, "unknown clause '" + clause.name +
                                   "' in 'distribute'; expected 'halo', "
                                   "'shadow' or 'resident'");
      return false;
    }
    if (directive.residentLoc.isValid()) {
      cursor.error(clause.loc, "clause 'resident' given twice in "
                               "'distribute'");
      return false;
    }
    directive.residentLoc = clause.loc;
    if (cursor.is(tok::l_paren) &&
        !parseNameList(cursor, "an array of 'data'", directive.residentArrays))
      return false;
  }
  return true;
}

bool parseDirective(TokenCursor &cursor, Directive &directive) {
  switch (directive.kind) {
  case DirectiveKind::Begin:
  case DirectiveKind::End:
  case DirectiveKind::Calc:
  case DirectiveKind::Copy:
    return true;
  case DirectiveKind::Step:
    return cursor.expect(tok::l_paren, "'('") &&
           cursor.expectIdentifier(directive.stepVar,
                                   "the time loop variable") &&
           cursor.expect(tok::colon, "':'") &&
           cursor.expectInteger(directive.maxSteps,
                                "the maximum number of steps") &&
           cursor.expect(tok::r_paren, "')'");
  case DirectiveKind::Data:
    return parseData(cursor, directive);
  case DirectiveKind::Dimension: {
    if (!parseNameList(cursor, "a loop variable", directive.dimensions))
      return false;
    if (directive.dimensions.size() > 3) {
      cursor.error(directive.dimensions[3].loc,
                   "'dimension' names at most 3 loop variables");
      return false;
    }
    return true;
  }
  case DirectiveKind::Distribute:
    return parseDistribute(cursor, directive);
  case DirectiveKind::Halo:
    // The directive's name was the clause's: parse `(w)` only.
    return parseHaloWidth(cursor, directive, directive.loc);
  }
  llvm_unreachable("unknown directive kind");
}
} // namespace

void StencilPragmaHandler::HandlePragma(Preprocessor &pp,
                                        PragmaIntroducer introducer,
                                        Token &firstToken) {
  // Gather the line; the preprocessor expands macros as it lexes.
  std::vector<Token> tokens;
  Token tok = firstToken;
  while (tok.isNot(tok::eod)) {
    tokens.push_back(tok);
    pp.Lex(tok);
  }
  TokenCursor cursor(pp, tokens, tok.getLocation());
  // The host interface replaces a region by its source range, from the
  // `#` of `begin` to the end of the `end` line; an operator form has no
  // such line (and inside a macro, no range of its own).
  if (introducer.Kind != PIK_HashPragma) {
    cursor.error(introducer.Loc,
                 std::string("the ") +
                     (introducer.Kind == PIK__Pragma ? "_Pragma" : "__pragma") +
                     " operator form of the stencil directives is not "
                     "supported; write '#pragma stencil ...' on a line of "
                     "its own");
    return;
  }
  if (cursor.atEnd()) {
    cursor.error(introducer.Loc,
                 "expected a directive after '#pragma stencil'");
    return;
  }

  NamedLoc name;
  if (!cursor.expectIdentifier(name, "a stencil directive"))
    return;
  std::optional<DirectiveKind> kind =
      llvm::StringSwitch<std::optional<DirectiveKind>>(name.name)
          .Case("begin", DirectiveKind::Begin)
          .Case("end", DirectiveKind::End)
          .Case("step", DirectiveKind::Step)
          .Case("data", DirectiveKind::Data)
          .Case("dimension", DirectiveKind::Dimension)
          .Case("calc", DirectiveKind::Calc)
          .Case("copy", DirectiveKind::Copy)
          .Case("distribute", DirectiveKind::Distribute)
          .Cases({"halo", "shadow"}, DirectiveKind::Halo)
          .Default(std::nullopt);
  if (!kind) {
    cursor.error(name.loc, "unknown stencil directive '" + name.name +
                               "'; expected begin, end, step, data, "
                               "dimension, calc, copy, distribute, halo or "
                               "shadow");
    return;
  }

  Directive directive;
  directive.kind = *kind;
  directive.loc = name.loc;
  directive.hashLoc = introducer.Loc;
  directive.endLoc = tok.getLocation();
  if (!parseDirective(cursor, directive))
    return;
  if (!cursor.atEnd()) {
    cursor.error(cursor.loc(), "unexpected " + cursor.describe() +
                                   " after '#pragma stencil " + name.name +
                                   "'");
    return;
  }
  directives.push_back(std::move(directive));
}

StringRef mlir::stencil::pragma_c::getElementCName(ElementKind kind) {
  switch (kind) {
  case ElementKind::Float:
    return "float";
  case ElementKind::Double:
    return "double";
  case ElementKind::Int:
    return "int";
  case ElementKind::Long:
    return "long";
  }
  llvm_unreachable("unknown element kind");
}

std::string mlir::stencil::pragma_c::stripComments(llvm::StringRef text) {
  std::string result;
  result.reserve(text.size());
  for (size_t pos = 0; pos < text.size();) {
    char c = text[pos];
    // String and character literals keep what looks like a comment.
    if (c == '"' || c == '\'') {
      size_t end = pos + 1;
      while (end < text.size() && text[end] != c && text[end] != '\n')
        end += text[end] == '\\' ? 2 : 1;
      end = std::min(end + 1, text.size());
      result += text.slice(pos, end);
      pos = end;
    } else if (text.substr(pos).starts_with("//")) {
      size_t end = text.find('\n', pos);
      result += ' ';
      pos = end == llvm::StringRef::npos ? text.size() : end;
    } else if (text.substr(pos).starts_with("/*")) {
      size_t end = text.find("*/", pos + 2);
      result += ' ';
      pos = end == llvm::StringRef::npos ? text.size() : end + 2;
    } else {
      result += c;
      ++pos;
    }
  }
  return result;
}

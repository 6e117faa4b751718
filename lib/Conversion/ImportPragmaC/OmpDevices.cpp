//===- OmpDevices.cpp - Seed 004's OpenMP spelling of a region ------------===//
//
// Clang's parser owns `#pragma omp` (it registers its handler after ours
// could be, and skips the line without -fopenmp), so the lines are seen
// through the preprocessor's callback and lexed again from the source
// buffer, raw: macros in their clauses are expanded only where a clause
// takes a number (`shadow(W)` with `#define W 1`).
//
//===----------------------------------------------------------------------===//

#include "OmpDevices.h"

#include "Analyzer.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace mlir::stencil::pragma_c;

void OmpLineCollector::PragmaDirective(SourceLocation loc,
                                       PragmaIntroducerKind introducer) {
  // An operator form (_Pragma) has no line of its own to replace; Clang's
  // OpenMP handling (or none) deals with it.
  SourceManager &sm = pp.getSourceManager();
  if (introducer != PIK_HashPragma || loc.isMacroID() || !sm.isInMainFile(loc))
    return;
  auto [file, offset] = sm.getDecomposedLoc(loc);
  bool invalid = false;
  StringRef buffer = sm.getBufferData(file, &invalid);
  if (invalid)
    return;
  Lexer lexer(sm.getLocForStartOfFile(file), pp.getLangOpts(), buffer.begin(),
              buffer.begin() + offset, buffer.end());
  Token tok;
  lexer.LexFromRawLexer(tok); // `#`
  std::vector<Token> tokens;
  SourceLocation end = tok.getEndLoc();
  while (!lexer.LexFromRawLexer(tok) && !tok.isAtStartOfLine()) {
    tokens.push_back(tok);
    end = tok.getEndLoc();
  }
  // The last token of the file: LexFromRawLexer returned true with it.
  if (tok.isNot(tok::eof) && !tok.isAtStartOfLine()) {
    tokens.push_back(tok);
    end = tok.getEndLoc();
  }
  auto isWord = [](const Token &token, StringRef word) {
    return token.is(tok::raw_identifier) && token.getRawIdentifier() == word;
  };
  // `teams` lines too: in a `target` construct's block, the loop nest's
  // construct is written without `target`.
  if (tokens.size() < 3 || !isWord(tokens[0], "pragma") ||
      !isWord(tokens[1], "omp") ||
      !(isWord(tokens[2], "target") || isWord(tokens[2], "teams")))
    return;
  lines.push_back({loc, end, {tokens.begin() + 2, tokens.end()}});
}

namespace {

/// Whether only white space and comments separate `from` and `to`.
bool isBlankBetween(const SourceManager &sm, SourceLocation from,
                    SourceLocation to);

std::string spell(const Token &tok) {
  if (tok.is(tok::raw_identifier))
    return tok.getRawIdentifier().str();
  if (tok.isLiteral())
    return std::string(tok.getLiteralData(), tok.getLength());
  if (const char *punctuator = tok::getPunctuatorSpelling(tok.getKind()))
    return punctuator;
  return tok.getName();
}

/// What a line of the spelling is.
enum class Construct {
  EnterData,
  ExitData,
  Loop,
  Reflect,
  /// `target map(...)`: a construct over the statement after it.
  Target,
  /// `target data map(...)`: a data region over a structured block.
  TargetData,
  Gmove,
  Bcast,
  Reduction,
  Update
};

/// An array section of a map list, `[lower:length]`: its tokens.
struct Section {
  std::vector<Token> lower, length;
  SourceLocation loc;
};

struct Clause {
  std::string name;
  SourceLocation loc;
  /// Tokens between the parentheses; empty without them.
  std::vector<Token> arguments;
  SourceLocation endLoc;
};

/// A line parsed: its construct and clauses.
struct ParsedLine {
  const OmpLine *line;
  Construct construct;
  SourceLocation loc;
  std::vector<Clause> clauses;
  /// A loop construct written without `target` (`#pragma omp teams ...`):
  /// it belongs in a `target` construct's block.
  bool nested = false;
};

class LineParser {
public:
  explicit LineParser(Preprocessor &pp) : pp(pp), diags(pp.getDiagnostics()) {}

  std::optional<ParsedLine> parse(const OmpLine &line);
  bool error(SourceLocation loc, const llvm::Twine &message) {
    reportError(diags, loc, message.str());
    return false;
  }
  void note(SourceLocation loc, const llvm::Twine &message) {
    reportNote(diags, loc, message.str());
  }
  /// `name(list)` arguments as names: `u, v`.
  bool parseNames(const Clause &clause, std::vector<NamedLoc> &names);
  /// A map list: names, each with optional array sections `[lo:len]`; a
  /// name's first section, when it has one, in `sections` (same index).
  bool parseMapList(const Clause &clause, std::vector<NamedLoc> &names,
                    std::vector<std::optional<Section>> &sections);
  /// Raw tokens as the preprocessor would hand them over: object-like
  /// macros defined where the line is expanded, identifiers resolved.
  std::vector<Token> expand(llvm::ArrayRef<Token> raw) {
    return raw.empty() ? std::vector<Token>()
                       : expand(raw, raw.front().getLocation(), 0);
  }
  /// The same, with macros looked up where the line is, `at`.
  std::vector<Token> expand(llvm::ArrayRef<Token> raw, SourceLocation at,
                            unsigned depth);
  /// An integer argument, or a macro defined as one where the line is.
  std::optional<int64_t> parseInteger(const Token &tok);
  /// Whether only white space and comments separate `from` and `to`.
  bool onlySpaceBetween(SourceLocation from, SourceLocation to);

private:
  Preprocessor &pp;
  DiagnosticsEngine &diags;
};

std::optional<ParsedLine> LineParser::parse(const OmpLine &line) {
  const std::vector<Token> &tokens = line.tokens;
  auto wordAt = [&](size_t at) -> std::string {
    return at < tokens.size() && tokens[at].is(tok::raw_identifier)
               ? tokens[at].getRawIdentifier().str()
               : std::string();
  };
  ParsedLine parsed{&line, Construct::Target, tokens[0].getLocation(), {}};
  parsed.nested = wordAt(0) == "teams";
  size_t pos = parsed.nested ? 0 : 1; // after `target`
  std::string first = wordAt(pos);
  if ((first == "enter" || first == "exit") && wordAt(pos + 1) == "data") {
    parsed.construct =
        first == "enter" ? Construct::EnterData : Construct::ExitData;
    pos += 2;
  } else if (first == "teams" || first == "parallel") {
    // `teams distribute parallel for` and its shorter forms: one loop nest
    // over the devices.
    parsed.construct = Construct::Loop;
    auto isLoopWord = [](StringRef word) {
      return llvm::is_contained({StringRef("teams"), StringRef("distribute"),
                                 StringRef("parallel"), StringRef("for"),
                                 StringRef("simd")},
                                word);
    };
    while (isLoopWord(wordAt(pos)))
      ++pos;
  } else if (first == "data") {
    parsed.construct = Construct::TargetData;
    ++pos;
  } else if (first == "reflect") {
    parsed.construct = Construct::Reflect;
  } else if (first == "gmove") {
    parsed.construct = Construct::Gmove;
    ++pos;
  } else if (first == "bcast") {
    parsed.construct = Construct::Bcast;
  } else if (first == "reduction") {
    parsed.construct = Construct::Reduction;
  } else if (first == "update") {
    parsed.construct = Construct::Update;
    ++pos;
  }
  // Clauses: `name` or `name(...)`, commas between them allowed.
  while (pos < tokens.size()) {
    const Token &tok = tokens[pos];
    if (tok.is(tok::comma)) {
      ++pos;
      continue;
    }
    if (!tok.is(tok::raw_identifier)) {
      error(tok.getLocation(), "expected a clause, found '" + spell(tok) +
                                   "' in '#pragma omp target'");
      return std::nullopt;
    }
    Clause clause{
        tok.getRawIdentifier().str(), tok.getLocation(), {}, tok.getEndLoc()};
    ++pos;
    if (pos < tokens.size() && tokens[pos].is(tok::l_paren)) {
      int depth = 0;
      for (; pos < tokens.size(); ++pos) {
        if (tokens[pos].is(tok::l_paren) && depth++ == 0)
          continue;
        if (tokens[pos].is(tok::r_paren) && --depth == 0)
          break;
        clause.arguments.push_back(tokens[pos]);
      }
      if (pos >= tokens.size()) {
        error(clause.loc, "clause '" + clause.name + "' lacks its ')'");
        return std::nullopt;
      }
      clause.endLoc = tokens[pos].getEndLoc();
      ++pos;
    }
    parsed.clauses.push_back(std::move(clause));
  }
  return parsed;
}

bool LineParser::parseNames(const Clause &clause,
                            std::vector<NamedLoc> &names) {
  bool expectName = true;
  for (const Token &tok : clause.arguments) {
    if (expectName && tok.is(tok::raw_identifier)) {
      names.push_back({tok.getRawIdentifier().str(), tok.getLocation()});
      expectName = false;
    } else if (!expectName && tok.is(tok::comma)) {
      expectName = true;
    } else {
      return error(
          tok.getLocation(),
          "expected " + llvm::Twine(expectName ? "an array name" : "','") +
              " in '" + clause.name + "(...)', found '" + spell(tok) + "'");
    }
  }
  if (expectName)
    return error(clause.endLoc,
                 "expected an array name in '" + clause.name + "(...)'");
  return true;
}

bool LineParser::parseMapList(const Clause &clause,
                              std::vector<NamedLoc> &names,
                              std::vector<std::optional<Section>> &sections) {
  const std::vector<Token> &tokens = clause.arguments;
  size_t pos = 0;
  while (true) {
    if (pos >= tokens.size())
      return error(clause.endLoc,
                   "expected an array name in '" + clause.name + "(...)'");
    if (!tokens[pos].is(tok::raw_identifier))
      return error(tokens[pos].getLocation(),
                   "expected an array name in '" + clause.name +
                       "(...)', found '" + spell(tokens[pos]) + "'");
    names.push_back(
        {tokens[pos].getRawIdentifier().str(), tokens[pos].getLocation()});
    sections.emplace_back();
    ++pos;
    // `[lower:length]` per dimension; the first one is kept.
    while (pos < tokens.size() && tokens[pos].is(tok::l_square)) {
      Section section;
      section.loc = tokens[pos].getLocation();
      bool colon = false;
      int depth = 0;
      for (++pos; pos < tokens.size(); ++pos) {
        const Token &tok = tokens[pos];
        if (depth == 0 && tok.is(tok::r_square))
          break;
        if (tok.isOneOf(tok::l_paren, tok::l_square))
          ++depth;
        if (tok.isOneOf(tok::r_paren, tok::r_square))
          --depth;
        if (depth == 0 && tok.is(tok::colon) && colon)
          return error(tok.getLocation(),
                       "a strided section of '" + names.back().name +
                           "' ([lower:length:stride]) is not implemented; "
                           "map '" +
                           names.back().name + "[0:length]'");
        if (depth == 0 && tok.is(tok::colon)) {
          colon = true;
          continue;
        }
        (colon ? section.length : section.lower).push_back(tok);
      }
      if (pos >= tokens.size())
        return error(section.loc, "the array section of '" + names.back().name +
                                      "' lacks its ']'");
      if (!colon)
        return error(section.loc, "'" + names.back().name +
                                      "[...]' maps one element; map an array "
                                      "section '" +
                                      names.back().name +
                                      "[lower:length]' or the whole array");
      ++pos;
      if (!sections.back())
        sections.back() = std::move(section);
    }
    if (pos >= tokens.size())
      return true;
    if (!tokens[pos].is(tok::comma))
      return error(tokens[pos].getLocation(),
                   "expected ',' in '" + clause.name + "(...)', found '" +
                       spell(tokens[pos]) + "'");
    ++pos;
  }
}

std::vector<Token> LineParser::expand(llvm::ArrayRef<Token> raw,
                                      SourceLocation at, unsigned depth) {
  std::vector<Token> result;
  for (Token tok : raw) {
    // A raw name is resolved here; a macro's replacement comes resolved.
    IdentifierInfo *name = tok.is(tok::raw_identifier)
                               ? pp.LookUpIdentifierInfo(tok)
                               : tok.getIdentifierInfo();
    const MacroInfo *macro =
        name && depth < 16 ? pp.getMacroDefinitionAtLoc(name, at).getMacroInfo()
                           : nullptr;
    if (macro && !macro->isFunctionLike())
      llvm::append_range(result, expand(macro->tokens(), at, depth + 1));
    else
      result.push_back(tok);
  }
  return result;
}

std::optional<int64_t> LineParser::parseInteger(const Token &tok) {
  Token value = tok;
  if (tok.is(tok::raw_identifier)) {
    // A macro defined as one integer.
    // The definition in force at the line, not at the end of the file.
    IdentifierInfo *name = pp.getIdentifierInfo(tok.getRawIdentifier());
    const MacroInfo *macro =
        pp.getMacroDefinitionAtLoc(name, tok.getLocation()).getMacroInfo();
    if (!macro || macro->isFunctionLike() || macro->getNumTokens() != 1)
      return std::nullopt;
    value = macro->getReplacementToken(0);
  }
  if (!value.is(tok::numeric_constant))
    return std::nullopt;
  int64_t result;
  if (StringRef(value.getLiteralData(), value.getLength())
          .getAsInteger(0, result))
    return std::nullopt;
  return result;
}

bool LineParser::onlySpaceBetween(SourceLocation from, SourceLocation to) {
  return isBlankBetween(pp.getSourceManager(), from, to);
}

bool isBlankBetween(const SourceManager &sm, SourceLocation from,
                    SourceLocation to) {
  bool invalid = false;
  const char *begin = sm.getCharacterData(from, &invalid);
  const char *end = invalid ? nullptr : sm.getCharacterData(to, &invalid);
  return !invalid && begin <= end &&
         StringRef(stripComments(StringRef(begin, end - begin))).trim().empty();
}

/// A region being assembled from its lines.
struct PendingRegion {
  const ParsedLine *begin = nullptr;
  const ParsedLine *end = nullptr;
  std::vector<const ParsedLine *> loops;
  std::vector<NamedLoc> arrays;
  std::vector<NamedLoc> mappedBack;
  std::optional<llvm::SmallVector<bool, 3>> layout;
  SourceLocation layoutLoc;
  std::optional<int64_t> shadow;
  SourceLocation shadowLoc;
  /// Per array (same index), the first section a map gave it, if any.
  std::vector<std::optional<Section>> sections;
  /// Arrays named by `layout(v)` and `reflect(v)`: they must be mapped.
  std::vector<NamedLoc> referenced;
  /// A `target` construct over one loop nest, run once: no time loop, and
  /// the region ends with the nest.
  bool once = false;
};

class Translator {
public:
  Translator(Preprocessor &pp, std::vector<Directive> &directives)
      : parser(pp), directives(directives) {}

  bool run(const std::vector<OmpLine> &lines);

private:
  bool addMaps(PendingRegion &region, const ParsedLine &line);
  bool addLayout(PendingRegion &region, const ParsedLine &line,
                 const Clause &clause);
  /// The `layout` and `shadow` clauses of a line that maps arrays.
  bool addLayoutAndShadow(PendingRegion &region, const ParsedLine &line);
  std::optional<int64_t> parseWidth(const Clause &clause);
  bool checkClauses(const ParsedLine &line,
                    llvm::ArrayRef<llvm::StringRef> allowed,
                    llvm::StringRef construct);
  bool finish(PendingRegion &region);

  LineParser parser;
  std::vector<Directive> &directives;
};

std::optional<int64_t> Translator::parseWidth(const Clause &clause) {
  std::optional<int64_t> value;
  if (clause.arguments.size() == 1)
    value = parser.parseInteger(clause.arguments[0]);
  if (!value || *value < 0) {
    parser.error(clause.arguments.empty() ? clause.loc
                                          : clause.arguments[0].getLocation(),
                 "'" + clause.name +
                     "' takes a non-negative integer (or a macro defined as "
                     "one)");
    return std::nullopt;
  }
  return value;
}

bool Translator::addLayoutAndShadow(PendingRegion &region,
                                    const ParsedLine &line) {
  for (const Clause &clause : line.clauses) {
    if (clause.name == "layout" && !addLayout(region, line, clause))
      return false;
    if (clause.name == "shadow") {
      std::optional<int64_t> width = parseWidth(clause);
      if (!width)
        return false;
      region.shadow = std::max(region.shadow.value_or(0), *width);
      region.shadowLoc = clause.loc;
    }
  }
  return true;
}

bool Translator::checkClauses(const ParsedLine &line,
                              llvm::ArrayRef<llvm::StringRef> allowed,
                              llvm::StringRef construct) {
  for (const Clause &clause : line.clauses)
    if (!llvm::is_contained(allowed, clause.name)) {
      std::string list;
      for (llvm::StringRef name : allowed)
        list += (list.empty() ? "'" : ", '") + name.str() + "'";
      return parser.error(
          clause.loc, "unknown clause '" + clause.name + "' in '#pragma omp " +
                          (line.nested ? "" : "target") +
                          (line.nested || construct.empty() ? "" : " ") +
                          construct + "'; expected " + list);
    }
  return true;
}

bool Translator::addMaps(PendingRegion &region, const ParsedLine &line) {
  for (const Clause &clause : line.clauses) {
    if (clause.name != "map")
      continue;
    // `map(type: list)`; without a type, `tofrom`.
    Clause list = clause;
    std::string type = "tofrom";
    if (clause.arguments.size() >= 2 && clause.arguments[1].is(tok::colon)) {
      type = spell(clause.arguments[0]);
      list.arguments.erase(list.arguments.begin(), list.arguments.begin() + 2);
    }
    // A `target` construct maps both ways: in before it, back after it.
    bool enter = line.construct == Construct::EnterData;
    bool exit = line.construct == Construct::ExitData;
    llvm::StringRef construct = enter  ? "'target enter data'"
                                : exit ? "'target exit data'"
                                       : "a 'target' construct";
    llvm::StringRef expected = enter ? "'to', 'alloc' or 'tofrom'"
                               : exit
                                   ? "'from', 'tofrom', 'release' or 'delete'"
                                   : "'to', 'from', 'tofrom' or 'alloc'";
    bool valid =
        enter ? llvm::is_contained({"to", "alloc", "tofrom"}, type)
        : exit
            ? llvm::is_contained({"from", "tofrom", "release", "delete"}, type)
            : llvm::is_contained({"to", "from", "tofrom", "alloc"}, type);
    if (!valid)
      return parser.error(
          clause.arguments.empty() ? clause.loc
                                   : clause.arguments[0].getLocation(),
          "map type '" + type + "' in " + construct + "; expected " + expected);
    std::vector<NamedLoc> names;
    std::vector<std::optional<Section>> sections;
    if (!parser.parseMapList(list, names, sections))
      return false;
    bool mapsIn = !exit || type == "from" || type == "tofrom";
    bool mapsBack =
        (!enter || type == "tofrom") && (type == "from" || type == "tofrom");
    for (auto [name, section] : llvm::zip(names, sections)) {
      auto known = llvm::find_if(region.arrays, [&](const NamedLoc &array) {
        return array.name == name.name;
      });
      size_t index = known - region.arrays.begin();
      if (mapsIn && known == region.arrays.end()) {
        region.arrays.push_back(name);
        region.sections.push_back(section);
      } else if (known != region.arrays.end() && !region.sections[index]) {
        region.sections[index] = section;
      }
      if (mapsBack)
        region.mappedBack.push_back(name);
    }
  }
  return true;
}

bool Translator::addLayout(PendingRegion &region, const ParsedLine &line,
                           const Clause &clause) {
  // `layout(block, *)`: one entry per array dimension, the distributed
  // ones `block`. `layout(v)` (an array's layout) adds nothing new.
  llvm::SmallVector<bool, 3> distributed;
  bool expectEntry = true;
  for (const Token &tok : clause.arguments) {
    if (expectEntry && tok.is(tok::star)) {
      distributed.push_back(false);
      expectEntry = false;
    } else if (expectEntry && tok.is(tok::raw_identifier) &&
               tok.getRawIdentifier() == "block") {
      distributed.push_back(true);
      expectEntry = false;
    } else if (expectEntry && tok.is(tok::raw_identifier) &&
               clause.arguments.size() == 1 &&
               !llvm::is_contained({StringRef("cyclic"), StringRef("gblock")},
                                   tok.getRawIdentifier())) {
      // layout(v): checked against `data` when the region is complete.
      region.referenced.push_back(
          {tok.getRawIdentifier().str(), tok.getLocation()});
      return true;
    } else if (!expectEntry && tok.is(tok::comma)) {
      expectEntry = true;
    } else {
      return parser.error(tok.getLocation(),
                          "expected 'block' or '*' in 'layout(...)', found '" +
                              spell(tok) + "'" +
                              (tok.is(tok::raw_identifier)
                                   ? " (only block distributions are "
                                     "implemented)"
                                   : ""));
    }
  }
  if (expectEntry || distributed.empty())
    return parser.error(clause.endLoc,
                        "expected 'block' or '*' in 'layout(...)'");
  if (distributed.size() > 3)
    return parser.error(clause.loc, "'layout' gives more than 3 dimensions");
  if (region.layout && *region.layout != distributed) {
    parser.error(clause.loc, "this layout differs from an earlier one of the "
                             "region; all its arrays are distributed alike");
    parser.note(region.layoutLoc, "the earlier layout");
    return false;
  }
  // A region of one nest (a `target` construct) lays out its arrays and its
  // loop on its own lines.
  if (line.construct != Construct::EnterData && !region.once)
    return parser.error(clause.loc,
                        "a layout of block and '*' entries belongs on "
                        "'target enter data'; loops name an array's layout, "
                        "'layout(v)'");
  region.layout = distributed;
  region.layoutLoc = clause.loc;
  return true;
}

bool Translator::finish(PendingRegion &region) {
  bool ok = true;
  for (const NamedLoc &name : region.referenced)
    if (llvm::none_of(region.arrays, [&](const NamedLoc &array) {
          return array.name == name.name;
        }))
      ok = parser.error(
          name.loc,
          "'" + name.name + "' is not mapped by the region's " +
              (region.once ? "'target' construct" : "'target enter data'"));
  if (region.shadow && !region.layout)
    ok = parser.error(region.shadowLoc,
                      "'shadow' widens a distributed array's blocks: it "
                      "needs a 'layout' on " +
                          std::string(region.once ? "the 'target' construct"
                                                  : "'target enter data'"));
  if (region.loops.empty() && !region.once)
    ok = parser.error(region.begin->loc,
                      "the region has no loop nest: put '#pragma omp target "
                      "teams distribute parallel for' on the loop nests of "
                      "the time loop, between 'target enter data' and "
                      "'target exit data'");
  if (!ok)
    return false;
  const OmpLine &first = *region.begin->line;
  auto make = [&](DirectiveKind kind, SourceLocation loc) {
    Directive directive;
    directive.kind = kind;
    directive.loc = loc;
    directive.hashLoc = first.hashLoc;
    directive.endLoc = first.endLoc;
    return directive;
  };
  // Every directive but the nests' and `end` sits at the first line, which
  // comes before the region's statements.
  Directive begin = make(DirectiveKind::Begin, region.begin->loc);
  begin.ompDevices = true;
  directives.push_back(std::move(begin));
  Directive step = make(DirectiveKind::Step, region.begin->loc);
  step.implicit = true;
  step.once = region.once;
  directives.push_back(std::move(step));
  Directive data = make(DirectiveKind::Data, region.begin->loc);
  for (auto [name, section] : llvm::zip(region.arrays, region.sections)) {
    ArrayDecl array;
    array.name = name;
    // A section gives a pointer's first extent: `map(to: x[0:n])`. The
    // region maps whole arrays, so any other section changes nothing.
    if (section) {
      std::optional<int64_t> lower =
          section->lower.size() == 1 ? parser.parseInteger(section->lower[0])
                                     : std::nullopt;
      if (!section->lower.empty() && lower != 0) {
        ok = parser.error(section->loc,
                          "the section of '" + name.name +
                              "' must start at 0 (an integer constant): the "
                              "region maps whole arrays; map '" +
                              name.name + "[0:length]' or the whole array");
        continue;
      }
      if (section->length.empty()) {
        ok = parser.error(section->loc, "the section of '" + name.name +
                                            "' has no length: write '" +
                                            name.name + "[0:length]'");
        continue;
      }
      array.firstExtentTokens = parser.expand(section->length);
      array.firstExtentLoc = section->length.front().getLocation();
    }
    // Read or written: the analysis tells; every array is a source in the
    // sense of seed 000 (it need not be written).
    array.isSource = true;
    array.typedByDeclaration = true;
    data.arrays.push_back(std::move(array));
  }
  if (!ok)
    return false;
  directives.push_back(std::move(data));
  Directive dimension = make(DirectiveKind::Dimension, region.begin->loc);
  dimension.implicit = true;
  dimension.firstNestLoc = region.loops.front()->line->endLoc;
  dimension.rank = region.layout ? region.layout->size() : 0;
  directives.push_back(std::move(dimension));
  if (region.layout) {
    Directive distribute = make(DirectiveKind::Distribute, region.layoutLoc);
    distribute.distributed = *region.layout;
    distribute.haloWidth = region.shadow;
    directives.push_back(std::move(distribute));
  }
  for (const ParsedLine *loop : region.loops) {
    Directive calc = make(DirectiveKind::Calc, loop->loc);
    calc.hashLoc = loop->line->hashLoc;
    calc.endLoc = loop->line->endLoc;
    directives.push_back(std::move(calc));
  }
  // A region of one nest ends with it: completeOmpDevices, which sees the
  // statements, puts its end there.
  const ParsedLine &last = region.once ? *region.loops.back() : *region.end;
  Directive end = make(DirectiveKind::End, last.loc);
  end.hashLoc = last.line->hashLoc;
  end.endLoc = last.line->endLoc;
  end.mappedBack = region.mappedBack;
  end.implicit = region.once;
  end.firstNestLoc = last.line->endLoc;
  directives.push_back(std::move(end));
  return true;
}

bool Translator::run(const std::vector<OmpLine> &lines) {
  std::vector<ParsedLine> parsed;
  bool ok = true;
  for (const OmpLine &line : lines) {
    if (std::optional<ParsedLine> one = parser.parse(line))
      parsed.push_back(std::move(*one));
    else
      ok = false;
  }
  if (!ok)
    return false;
  std::optional<PendingRegion> open;
  for (auto [index, line] : llvm::enumerate(parsed)) {
    switch (line.construct) {
    case Construct::EnterData: {
      if (open && !open->loops.empty()) {
        parser.error(line.loc, "'target enter data' after the region's "
                               "loops: map every array before the time loop");
        return false;
      }
      if (!checkClauses(line, {"map", "device", "layout", "shadow"},
                        "enter data"))
        return false;
      if (!open) {
        open.emplace();
        open->begin = &line;
      }
      if (!addMaps(*open, line) || !addLayoutAndShadow(*open, line))
        return false;
      break;
    }
    case Construct::Target: {
      if (open)
        return parser.error(line.loc,
                            "a 'target' construct in the region that 'target "
                            "enter data' opened: put 'target teams distribute "
                            "parallel for' on each loop nest of the time loop");
      if (!checkClauses(line, {"map", "device", "layout", "shadow"}, ""))
        return false;
      // OpenMP allows nothing in a `target` construct beside a `teams`
      // construct: here, a loop nest's.
      bool nestFollows =
          index + 1 < parsed.size() &&
          parsed[index + 1].construct == Construct::Loop &&
          parsed[index + 1].nested &&
          parser.onlySpaceBetween(line.line->endLoc,
                                  parsed[index + 1].line->hashLoc);
      if (!nestFollows)
        return parser.error(
            line.loc,
            "a 'target' construct runs one loop nest here: put '#pragma omp "
            "teams distribute parallel for' on the next line, right before "
            "the nest (a time loop goes between 'target enter data' and "
            "'target exit data')");
      open.emplace();
      open->once = true;
      open->begin = &line;
      if (!addMaps(*open, line) || !addLayoutAndShadow(*open, line))
        return false;
      break;
    }
    case Construct::Loop: {
      // A loop construct in a `target` construct's block (`teams ...` after
      // `target map(...)`), or one with its own maps (`target teams
      // distribute parallel for map(...)`): a region of one nest, run once.
      bool opensRegion = !open && !line.nested;
      if (line.nested && !(open && open->once))
        return parser.error(line.loc,
                            "'#pragma omp teams' outside a 'target' "
                            "construct: put '#pragma omp target map(...)' on "
                            "the line before it");
      if (opensRegion && llvm::none_of(line.clauses, [](const Clause &clause) {
            return clause.name == "map";
          }))
        return parser.error(line.loc,
                            "a 'target teams distribute parallel for' loop "
                            "outside a region maps no array: map them on it "
                            "('map(to: b, c) map(from: a)'), or with 'target "
                            "enter data' before the time loop and 'target exit "
                            "data' after it");
      std::vector<StringRef> allowed = {
          "layout",       "device",       "collapse",   "private",
          "firstprivate", "shared",       "schedule",   "dist_schedule",
          "num_teams",    "thread_limit", "num_threads"};
      if (opensRegion)
        llvm::append_range(allowed, ArrayRef<StringRef>{"map", "shadow"});
      if (!checkClauses(line, allowed, "teams distribute parallel for"))
        return false;
      if (opensRegion) {
        open.emplace();
        open->once = true;
        open->begin = &line;
        if (!addMaps(*open, line) || !addLayoutAndShadow(*open, line))
          return false;
      } else {
        for (const Clause &clause : line.clauses)
          if (clause.name == "layout" && !addLayout(*open, line, clause))
            return false;
      }
      open->loops.push_back(&line);
      if (open->once) {
        open->end = &line;
        if (!finish(*open))
          return false;
        open.reset();
      }
      break;
    }
    case Construct::Reflect:
      if (!open)
        return parser.error(line.loc, "'target reflect' outside a region");
      if (!checkClauses(line, {"reflect", "device"}, "reflect"))
        return false;
      // The halo exchange is derived from the stencil's reads, where every
      // step needs it; the named arrays must be the region's.
      for (const Clause &clause : line.clauses)
        if (clause.name == "reflect" &&
            !parser.parseNames(clause, open->referenced))
          return false;
      break;
    case Construct::ExitData: {
      if (!open)
        return parser.error(line.loc, "'target exit data' without 'target "
                                      "enter data' before it");
      if (!checkClauses(line, {"map", "device", "layout"}, "exit data") ||
          !addMaps(*open, line))
        return false;
      for (const Clause &clause : line.clauses)
        if (clause.name == "layout" && !addLayout(*open, line, clause))
          return false;
      open->end = &line;
      // The next line continues the region's exit only where nothing but
      // white space comes between.
      bool more = index + 1 < parsed.size() &&
                  parsed[index + 1].construct == Construct::ExitData &&
                  parser.onlySpaceBetween(line.line->endLoc,
                                          parsed[index + 1].line->hashLoc);
      if (!more) {
        if (!finish(*open))
          return false;
        open.reset();
      }
      break;
    }
    case Construct::TargetData:
      return parser.error(line.loc,
                          "'target data' over a structured block is not "
                          "implemented yet; map the arrays with 'target enter "
                          "data' before the time loop and 'target exit data' "
                          "after it");
    case Construct::Gmove:
      return parser.error(line.loc,
                          "'#pragma omp target gmove' (copying array sections "
                          "between devices) is parsed but not implemented "
                          "yet");
    case Construct::Bcast:
      return parser.error(line.loc,
                          "'#pragma omp target bcast' is parsed but not "
                          "implemented yet; a scalar the loops read reaches "
                          "every device as it is");
    case Construct::Reduction:
      return parser.error(line.loc,
                          "'#pragma omp target reduction' is parsed but not "
                          "implemented yet; in a region, a reduction is a C "
                          "accumulation in a loop nest ('s += u[j][i];', "
                          "docs/PragmaC.md)");
    case Construct::Update:
      return parser.error(line.loc,
                          "'#pragma omp target update' is not implemented: "
                          "the host sees the arrays after 'target exit "
                          "data'");
    }
  }
  if (open)
    return parser.error(open->begin->loc,
                        "'target enter data' has no 'target exit data' after "
                        "the time loop");
  return true;
}

} // namespace

bool mlir::stencil::pragma_c::usesOmpDevices(
    const std::vector<OmpLine> &lines) {
  for (const OmpLine &line : lines)
    for (auto [index, tok] : llvm::enumerate(line.tokens)) {
      if (!tok.is(tok::raw_identifier))
        continue;
      StringRef word = tok.getRawIdentifier();
      bool clause = (word == "layout" || word == "shadow") &&
                    index + 1 < line.tokens.size() &&
                    line.tokens[index + 1].is(tok::l_paren);
      bool construct = index == 1 && (word == "reflect" || word == "gmove" ||
                                      word == "bcast");
      if (clause || construct)
        return true;
    }
  return false;
}

bool mlir::stencil::pragma_c::translateOmpDevices(
    Preprocessor &pp, const std::vector<OmpLine> &lines,
    std::vector<Directive> &directives) {
  return Translator(pp, directives).run(lines);
}

namespace {
/// Every `for` of the main file, in source order.
class ForCollector : public RecursiveASTVisitor<ForCollector> {
public:
  explicit ForCollector(const SourceManager &sm) : sm(sm) {}
  bool VisitForStmt(ForStmt *loop) {
    if (sm.isInMainFile(sm.getExpansionLoc(loop->getBeginLoc())))
      loops.push_back(loop);
    return true;
  }
  const SourceManager &sm;
  std::vector<const ForStmt *> loops;
};

/// The variable a `for` initializes: `i = 0` or `int i = 0`.
const VarDecl *getLoopVariable(const ForStmt *loop) {
  const Stmt *init = loop->getInit();
  if (auto *assign = dyn_cast_or_null<BinaryOperator>(init))
    if (assign->getOpcode() == BO_Assign)
      if (auto *ref =
              dyn_cast<DeclRefExpr>(assign->getLHS()->IgnoreParenImpCasts()))
        return dyn_cast<VarDecl>(ref->getDecl());
  if (auto *decl = dyn_cast_or_null<DeclStmt>(init))
    if (decl->isSingleDecl())
      return dyn_cast<VarDecl>(decl->getSingleDecl());
  return nullptr;
}
} // namespace

bool mlir::stencil::pragma_c::completeOmpDevices(
    ASTContext &context, std::vector<Directive> &directives) {
  const SourceManager &sm = context.getSourceManager();
  DiagnosticsEngine &diags = context.getDiagnostics();
  std::optional<ForCollector> collector;
  bool ok = true;
  // The loop right after a nest's directive line: nothing but white space
  // and comments between them.
  auto findNest = [&](SourceLocation lineEnd) -> const ForStmt * {
    if (!collector) {
      collector.emplace(sm);
      collector->TraverseDecl(context.getTranslationUnitDecl());
    }
    const ForStmt *first = nullptr;
    for (const ForStmt *loop : collector->loops) {
      SourceLocation at = sm.getExpansionLoc(loop->getBeginLoc());
      if (sm.isBeforeInTranslationUnit(lineEnd, at) &&
          (!first || sm.isBeforeInTranslationUnit(
                         at, sm.getExpansionLoc(first->getBeginLoc()))))
        first = loop;
    }
    return first && isBlankBetween(sm, lineEnd,
                                   sm.getExpansionLoc(first->getBeginLoc()))
               ? first
               : nullptr;
  };
  for (Directive &directive : directives) {
    // A region of one nest ends right after it, past the `;` of a body
    // that is not a compound statement.
    if (directive.kind == DirectiveKind::End && directive.implicit) {
      if (const ForStmt *nest = findNest(directive.firstNestLoc)) {
        const LangOptions &langOpts = context.getLangOpts();
        SourceLocation last = sm.getExpansionRange(nest->getEndLoc()).getEnd();
        SourceLocation after = Lexer::findLocationAfterToken(
            last, tok::semi, sm, langOpts,
            /*SkipTrailingWhitespaceAndNewLine=*/false);
        if (after.isInvalid())
          after = Lexer::getLocForEndOfToken(last, 0, sm, langOpts);
        directive.loc = last;
        directive.hashLoc = directive.endLoc = after;
      }
      continue;
    }
    if (directive.kind != DirectiveKind::Dimension || !directive.implicit)
      continue;
    const ForStmt *first = findNest(directive.firstNestLoc);
    unsigned wanted = directive.rank ? directive.rank : 3;
    const Stmt *stmt = first;
    while (directive.dimensions.size() < wanted) {
      auto *loop = dyn_cast_or_null<ForStmt>(skipSingleCompound(stmt));
      const VarDecl *var = loop ? getLoopVariable(loop) : nullptr;
      if (!var)
        break;
      directive.dimensions.push_back(
          {var->getNameAsString(), sm.getExpansionLoc(loop->getBeginLoc())});
      stmt = loop->getBody();
    }
    if (directive.dimensions.empty()) {
      reportError(diags, directive.firstNestLoc,
                  "expected a loop nest ('for') right after '#pragma omp "
                  "target teams distribute parallel for'");
      ok = false;
    } else if (directive.rank &&
               directive.dimensions.size() != directive.rank) {
      reportError(diags, directive.dimensions.front().loc,
                  "the loop nest has " +
                      std::to_string(directive.dimensions.size()) +
                      " loops, but the arrays' layout gives " +
                      std::to_string(directive.rank) + " dimensions");
      ok = false;
    }
  }
  if (!ok)
    return false;
  // OpenMP maps an array that a target construct uses and no clause names
  // `tofrom`: the region's, and mapped back. Only arrays of a mapped
  // array's constant shape are taken (a pointer's implicit map is empty,
  // a table of another shape stays a coefficient array), and not arrays
  // declared in the nest (private to each iteration). A scalar in a map
  // (`map(to: scalar)`, legal OpenMP) is no array of the region: a nest
  // reads it as any scalar.
  auto constantShape =
      [&](QualType type) -> std::optional<SmallVector<int64_t, 3>> {
    SmallVector<int64_t, 3> shape;
    while (const clang::ArrayType *array = context.getAsArrayType(type)) {
      auto *constant = dyn_cast<ConstantArrayType>(array);
      if (!constant)
        return std::nullopt;
      shape.push_back(constant->getSize().getSExtValue());
      type = array->getElementType();
    }
    if (shape.empty() || type.isConstQualified() ||
        !(type->isIntegerType() || type->isRealFloatingType()))
      return std::nullopt;
    return shape;
  };
  Directive *data = nullptr;
  std::vector<const Directive *> calcs;
  for (Directive &directive : directives) {
    if (directive.kind == DirectiveKind::Data)
      data = &directive;
    if (directive.kind == DirectiveKind::Calc)
      calcs.push_back(&directive);
    if (directive.kind != DirectiveKind::End || !data)
      continue;
    // What the nests use, by name, in order.
    std::vector<std::pair<const VarDecl *, SourceLocation>> used;
    for (const Directive *calc : calcs) {
      const ForStmt *nest = findNest(calc->endLoc);
      walkStmts(nest, [&](const Stmt *stmt) {
        auto *ref = dyn_cast<DeclRefExpr>(stmt);
        auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
        SourceRange range = nest->getSourceRange();
        bool local = var && sm.isPointWithin(var->getLocation(),
                                             range.getBegin(), range.getEnd());
        if (var && !local)
          used.push_back({var, sm.getExpansionLoc(ref->getBeginLoc())});
      });
    }
    auto isMapped = [&](StringRef name) {
      return llvm::any_of(data->arrays, [&](const ArrayDecl &array) {
        return array.name.name == name;
      });
    };
    auto dropMap = [&](StringRef name) {
      llvm::erase_if(data->arrays, [&](const ArrayDecl &array) {
        return array.name.name == name;
      });
      llvm::erase_if(directive.mappedBack, [&](const NamedLoc &mapped) {
        return mapped.name == name;
      });
    };
    SmallVector<SmallVector<int64_t, 3>> mappedShapes;
    for (auto [var, loc] : used) {
      if (!isMapped(var->getName()))
        continue;
      QualType type = var->getType();
      if (type->isArithmeticType())
        dropMap(var->getName());
      else if (auto shape = constantShape(type))
        mappedShapes.push_back(*shape);
    }
    for (auto [var, loc] : used) {
      if (isa<ParmVarDecl>(var) || isMapped(var->getName()))
        continue;
      std::optional<SmallVector<int64_t, 3>> shape =
          constantShape(var->getType());
      if (!shape || !llvm::is_contained(mappedShapes, *shape))
        continue;
      ArrayDecl array;
      array.name = {var->getNameAsString(), loc};
      array.isSource = true;
      array.typedByDeclaration = true;
      data->arrays.push_back(array);
      directive.mappedBack.push_back(array.name);
    }
    data = nullptr;
    calcs.clear();
  }
  return true;
}

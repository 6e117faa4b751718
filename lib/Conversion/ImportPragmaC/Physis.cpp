//===- Physis.cpp - Physis programs read as regions -----------------------===//
//
// A Physis run `PSStencilRun(PSStencilMap(k, d, g1, g2, s), ..., n)` is a
// region: n steps, each applying every map in turn. The front end parses
// the program with stencil-mlir's physis.h, checks each run and the
// stencil functions it applies against Physis's rules, and writes the
// program again: the run becomes a call of a new function whose body is a
// `#pragma stencil` region, one calc nest per map, the stencil function's
// body its loop body. Coordinates, grid reads and emits take their meaning
// in that body from macros and a few textual edits, so the body is the
// user's own text under `#line`, and every later diagnostic names it.
//
// Grids are stored with a margin (physis.h, PHYSIS_MARGIN) as wide as the
// widest offset read: a compiled nest computes both sides of a coordinate
// test, and the side C skips reads the margin instead of outside the grid.
//
//===----------------------------------------------------------------------===//

#include "Physis.h"

#include "Directives.h"
#include "RegionModel.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Regex.h"

#include <deque>
#include <map>

using namespace clang;
using namespace mlir::stencil::pragma_c;
using llvm::SmallVector;
using llvm::StringRef;

bool mlir::stencil::pragma_c::includesPhysisHeader(StringRef source) {
  llvm::Regex include("^[ \t]*#[ \t]*include[ \t]*[<\"]physis/physis\\.h[>\"]",
                      llvm::Regex::Newline);
  return include.match(source);
}

namespace {

constexpr const char *kAxisNames[] = {"x", "y", "z"};

/// Offsets beyond this are not a stencil's: they would give every grid of
/// the file a margin that wide.
constexpr int64_t kMaxOffset = 4096;

/// How a map visits its domain.
enum class MapKind { Plain, RedBlack, Red, Black };

/// What a grid handle type (`PSGrid3DFloat`) says.
struct GridType {
  unsigned rank;
  QualType element;
};

/// The rank and element type of a grid handle type of physis.h: a pointer
/// to `struct __PSGrid<R>D<Name>` whose `__ps_get` member returns the
/// element type.
std::optional<GridType> getGridType(QualType type) {
  const auto *pointer = type.getCanonicalType()->getAs<PointerType>();
  const RecordDecl *record =
      pointer ? pointer->getPointeeType()->getAsRecordDecl() : nullptr;
  if (!record || !record->getDeclName().isIdentifier())
    return std::nullopt;
  StringRef name = record->getName();
  if (!name.consume_front("__PSGrid") || name.size() < 2 || name[1] != 'D' ||
      name[0] < '1' || name[0] > '3')
    return std::nullopt;
  for (const FieldDecl *field : record->fields()) {
    if (!field->getDeclName().isIdentifier() || field->getName() != "__ps_get")
      continue;
    const auto *fnPointer = field->getType()->getAs<PointerType>();
    const auto *fn =
        fnPointer
            ? fnPointer->getPointeeType()->getAs<clang::FunctionProtoType>()
            : nullptr;
    if (fn)
      return GridType{unsigned(name[0] - '0'), fn->getReturnType()};
  }
  return std::nullopt;
}

bool isGrid(QualType type) { return getGridType(type).has_value(); }

/// The callee's name of a call of a named function, or "".
StringRef getCalleeName(const CallExpr *call) {
  if (const FunctionDecl *callee = call->getDirectCallee())
    if (callee->getDeclName().isIdentifier())
      return callee->getName();
  return "";
}

/// The member a grid access calls (`__ps_get`, `__ps_get_periodic`,
/// `__ps_emit`, `__ps_set`), for the expansions of PSGridGet,
/// PSGridGetPeriodic, PSGridEmit and PSGridSet, and the expression naming
/// the grid.
StringRef getGridAccess(const CallExpr *call, const Expr *&grid) {
  const auto *member =
      dyn_cast<MemberExpr>(call->getCallee()->IgnoreParenImpCasts());
  if (!member || !member->getMemberDecl()->getDeclName().isIdentifier())
    return "";
  StringRef name = member->getMemberDecl()->getName();
  if (name != "__ps_get" && name != "__ps_get_periodic" &&
      name != "__ps_emit" && name != "__ps_set")
    return "";
  grid = member->getBase()->IgnoreImpCasts();
  // physis.h's macros parenthesize the grid: `((g)->__ps_get(...))`.
  if (const auto *paren = dyn_cast<ParenExpr>(grid))
    grid = paren->getSubExpr()->IgnoreImpCasts();
  return name;
}

/// The grid parameters of `kernel` that it accesses with `member`
/// (`__ps_emit`, `__ps_get_periodic`), in order of first access.
llvm::SmallSetVector<const ParmVarDecl *, 2>
getAccessedGrids(const FunctionDecl *kernel, StringRef member) {
  struct Finder : RecursiveASTVisitor<Finder> {
    StringRef member;
    llvm::SmallSetVector<const ParmVarDecl *, 2> params;
    bool VisitCallExpr(CallExpr *call) {
      const Expr *grid = nullptr;
      if (getGridAccess(call, grid) == member)
        if (const auto *ref = dyn_cast<DeclRefExpr>(grid))
          if (const auto *param = dyn_cast<ParmVarDecl>(ref->getDecl()))
            params.insert(param);
      return true;
    }
  } finder;
  finder.member = member;
  finder.TraverseStmt(kernel->getBody());
  return finder.params;
}

/// Whether `kernel` reads grid parameter `param` (PSGridGet or
/// PSGridGetPeriodic).
bool readsGrid(const FunctionDecl *kernel, const ParmVarDecl *param) {
  return getAccessedGrids(kernel, "__ps_get").contains(param) ||
         getAccessedGrids(kernel, "__ps_get_periodic").contains(param);
}

/// A struct point type as component arrays: its scalars in order, all of
/// one type (seed 003's user-defined types, stored as a structure of
/// arrays).
struct StructLayout {
  ElementKind scalar;
  unsigned count;
};

/// How many scalars `type` holds, all of kind `scalar` (set by the
/// first); nothing for another type or a mix.
std::optional<unsigned> countScalars(QualType type,
                                     std::optional<ElementKind> &scalar) {
  type = type.getCanonicalType();
  if (const auto *array = dyn_cast<ConstantArrayType>(type.getTypePtr())) {
    std::optional<unsigned> each =
        countScalars(array->getElementType(), scalar);
    uint64_t n = array->getSize().getZExtValue();
    if (!each || n > 4096 || *each * n > 4096)
      return std::nullopt;
    return *each * unsigned(n);
  }
  if (const RecordDecl *record = type->getAsRecordDecl()) {
    if (record->isUnion())
      return std::nullopt;
    unsigned total = 0;
    for (const FieldDecl *field : record->fields()) {
      std::optional<unsigned> n = countScalars(field->getType(), scalar);
      if (!n || field->isBitField())
        return std::nullopt;
      total += *n;
      if (total > 4096)
        return std::nullopt;
    }
    return total ? std::optional<unsigned>(total) : std::nullopt;
  }
  std::optional<ElementKind> kind = getElementKind(type);
  if (!kind || (*kind != ElementKind::Float && *kind != ElementKind::Double) ||
      (scalar && *scalar != *kind))
    return std::nullopt;
  scalar = kind;
  return 1;
}

std::optional<StructLayout> getStructLayout(QualType type,
                                            const ASTContext &context) {
  std::optional<ElementKind> scalar;
  std::optional<unsigned> count = countScalars(type, scalar);
  if (!count || *count > 64)
    return std::nullopt;
  // The host's points are taken apart at the scalars' stride: no padding.
  uint64_t scalarBytes = *scalar == ElementKind::Float ? 4 : 8;
  if (context.getTypeSizeInChars(type).getQuantity() !=
      int64_t(*count * scalarBytes))
    return std::nullopt;
  return StructLayout{*scalar, *count};
}

/// One step into a point's value: a member by name, or an element.
struct MemberStep {
  std::string field;
  int64_t index = 0;
};

/// The component (the scalar's position in the struct) a member path
/// reaches from `type`, when it reaches one scalar.
std::optional<unsigned> getComponent(QualType type, ArrayRef<MemberStep> path) {
  unsigned component = 0;
  for (const MemberStep &step : path) {
    type = type.getCanonicalType();
    std::optional<ElementKind> scalar;
    if (const RecordDecl *record = type->getAsRecordDecl()) {
      const FieldDecl *found = nullptr;
      for (const FieldDecl *field : record->fields()) {
        if (field->getDeclName().isIdentifier() &&
            field->getName() == step.field) {
          found = field;
          break;
        }
        component += *countScalars(field->getType(), scalar);
      }
      if (!found || !step.field.size())
        return std::nullopt;
      type = found->getType();
      continue;
    }
    const auto *array = dyn_cast<ConstantArrayType>(type.getTypePtr());
    if (!array || !step.field.empty() || step.index < 0 ||
        uint64_t(step.index) >= array->getSize().getZExtValue())
      return std::nullopt;
    component +=
        unsigned(step.index) * *countScalars(array->getElementType(), scalar);
    type = array->getElementType();
  }
  if (!getElementKind(type))
    return std::nullopt;
  return component;
}

/// A member path written on an expression (`e.p[1].q`): its steps, its
/// outermost expression, and a subscript that is not a constant, if any.
struct MemberPath {
  SmallVector<MemberStep> steps;
  const Expr *last = nullptr;
  const Expr *nonConstantIndex = nullptr;
};

/// The member path above `base`, through implicit casts and the parents
/// `skipBeforeFirst` accepts before the first step.
MemberPath
getMemberPath(ASTContext &context, const Expr *base,
              llvm::function_ref<bool(const Expr *parent)> skipBeforeFirst) {
  MemberPath path;
  const Expr *chain = base;
  while (true) {
    DynTypedNodeList parents = context.getParents(*chain);
    const Expr *parent = parents.empty() ? nullptr : parents[0].get<Expr>();
    if (!parent)
      break;
    if (isa<ImplicitCastExpr>(parent) ||
        (path.steps.empty() && skipBeforeFirst(parent))) {
      chain = parent;
      continue;
    }
    if (const auto *member = dyn_cast<MemberExpr>(parent)) {
      if (member->getBase() != chain || member->isArrow() ||
          !member->getMemberDecl()->getDeclName().isIdentifier())
        break;
      path.steps.push_back({member->getMemberDecl()->getName().str()});
    } else if (const auto *element = dyn_cast<ArraySubscriptExpr>(parent)) {
      if (element->getBase()->IgnoreImpCasts() != chain->IgnoreImpCasts())
        break;
      std::optional<int64_t> index =
          evaluateInteger(element->getIdx(), context);
      if (!index) {
        path.nonConstantIndex = element->getIdx();
        break;
      }
      path.steps.push_back({"", *index});
    } else {
      break;
    }
    chain = path.last = parent;
  }
  return path;
}

/// Text replacements in a buffer, by offset: the length replaced and the
/// new text. They do not overlap.
using EditMap = std::map<unsigned, std::pair<unsigned, std::string>>;

/// `buffer[begin, end)` with the edits that start inside it applied.
std::string applyEdits(StringRef buffer, unsigned begin, unsigned end,
                       const EditMap &edits) {
  std::string text;
  unsigned at = begin;
  for (const auto &[offset, edit] : edits) {
    if (offset < at || offset >= end)
      continue;
    text += buffer.slice(at, offset).str();
    text += edit.second;
    at = offset + edit.first;
  }
  return text + buffer.slice(at, end).str();
}

/// Where each macro of the main file is defined or undefined.
struct MacroEvents : public PPCallbacks {
  MacroEvents(SourceManager &sm,
              std::vector<std::pair<std::string, SourceLocation>> &events)
      : sm(sm), events(events) {}
  void MacroDefined(const Token &name, const MacroDirective *) override {
    record(name);
  }
  void MacroUndefined(const Token &name, const MacroDefinition &,
                      const MacroDirective *) override {
    record(name);
  }
  void record(const Token &name) {
    if (sm.isInMainFile(name.getLocation()))
      events.emplace_back(name.getIdentifierInfo()->getName().str(),
                          name.getLocation());
  }
  SourceManager &sm;
  std::vector<std::pair<std::string, SourceLocation>> &events;
};

//===----------------------------------------------------------------------===//
// The program's runs
//===----------------------------------------------------------------------===//

/// The fixed axes of a slice read and their indices, and its mirrored
/// axes, as a suffix of names: `__at2_0` for z = 0, `__at0_m1` for x = -1,
/// `__mirror0_31` for x read as 31 - x.
std::string getSliceSuffix(ArrayRef<std::pair<unsigned, int64_t>> fixed,
                           ArrayRef<std::pair<unsigned, int64_t>> mirrored) {
  std::string suffix;
  for (auto [axis, index] : fixed)
    suffix +=
        "__at" + std::to_string(axis) + "_" +
        (index < 0 ? "m" + std::to_string(-index) : std::to_string(index));
  for (auto [axis, base] : mirrored)
    suffix += "__mirror" + std::to_string(axis) + "_" +
              (base < 0 ? "m" + std::to_string(-base) : std::to_string(base));
  return suffix;
}

/// c where `expr` is c - `var` (`N - x - 1`, `-x + 4`, `c - (x + 1)`).
std::optional<int64_t> getMirrorBase(const Expr *expr, const VarDecl *var,
                                     ASTContext &context) {
  expr = expr->IgnoreParenImpCasts();
  if (const auto *unary = dyn_cast<UnaryOperator>(expr))
    if (unary->getOpcode() == UO_Minus)
      if (std::optional<int64_t> offset =
              getOffsetFrom(unary->getSubExpr(), var, context))
        return -*offset;
  const auto *binary = dyn_cast<BinaryOperator>(expr);
  if (!binary ||
      (binary->getOpcode() != BO_Add && binary->getOpcode() != BO_Sub))
    return std::nullopt;
  bool add = binary->getOpcode() == BO_Add;
  std::optional<int64_t> lhs = evaluateInteger(binary->getLHS(), context);
  std::optional<int64_t> rhs = evaluateInteger(binary->getRHS(), context);
  if (rhs)
    if (std::optional<int64_t> base =
            getMirrorBase(binary->getLHS(), var, context))
      return add ? *base + *rhs : *base - *rhs;
  if (lhs && !add)
    if (std::optional<int64_t> offset =
            getOffsetFrom(binary->getRHS(), var, context))
      return *lhs - *offset;
  if (lhs && add)
    if (std::optional<int64_t> base =
            getMirrorBase(binary->getRHS(), var, context))
      return *lhs + *base;
  return std::nullopt;
}

/// One grid a run uses: a variable of the program.
struct RunGrid {
  const VarDecl *var;
  /// The element type, or for a struct grid its scalars' type.
  std::string elementType;
  /// A struct grid's number of scalars per point (its component arrays);
  /// 0 for a grid of numbers.
  unsigned components = 0;
  /// Its own rank: the run's, or fewer for a table the stencil functions
  /// only read (`PSGrid1DFloat k` in a 3-D function), which the region
  /// takes as a coefficient array.
  unsigned rank = 0;
  /// Extents, x first, when the grid's creation gives them as constants.
  SmallVector<int64_t, 3> extents;

  bool isTable(unsigned runRank) const { return rank < runRank; }
};

struct RunMap {
  const CallExpr *call;
  MapKind kind;
  const FunctionDecl *kernel;
  const Expr *domain;
  /// The arguments after the domain, one per parameter after the
  /// coordinates.
  SmallVector<const Expr *, 4> args;
  /// [min, max) per axis, x first, when the domain is constant.
  SmallVector<int64_t, 6> bounds;
  /// A constant domain without points: the map computes nothing.
  bool empty = false;
  /// The widest offset of the periodic reads, per axis.
  SmallVector<int64_t, 3> periodicReach;
  /// One index of a read of a grid of a lower rank (a table): the table's
  /// axis `tableAxis` follows coordinate `axis` at `offset`.
  struct TableRead {
    const ParmVarDecl *table;
    const Expr *index;
    unsigned tableAxis;
    unsigned axis;
    int64_t offset;
  };
  SmallVector<TableRead, 4> tableReads;
  /// A read of a grid of the function's rank with constant indices along
  /// some axes (`PSGridGet(g, x, y, 0)`): the fixed axes and their
  /// indices, and the others' offsets, x first.
  struct SliceRead {
    const ParmVarDecl *grid;
    const CallExpr *call;
    SmallVector<std::pair<unsigned, int64_t>, 1> fixed;
    SmallVector<std::pair<unsigned, int64_t>, 3> offsets;
    /// Axes read mirrored (`N - x - 1`), each with its c of `c - x`.
    SmallVector<std::pair<unsigned, int64_t>, 1> mirrored;
  };
  SmallVector<SliceRead, 2> sliceReads;
  /// The grid parameters read at the point's coordinates on every axis.
  llvm::SmallPtrSet<const ParmVarDecl *, 4> wholeReads;
  /// The grid parameters the stencil function emits, whole or by member.
  llvm::SmallSetVector<const ParmVarDecl *, 2> emits;
  /// The PSStencil variable whose initializer the map is, if any: its
  /// scalar arguments and domain are then the values they had there
  /// (Physis's closure), kept in hidden locals declared after it.
  const VarDecl *stencil = nullptr;
};

struct Run {
  const CallExpr *call;
  const FunctionDecl *enclosing;
  unsigned rank = 0;
  SmallVector<RunMap, 2> maps;
  const Expr *count = nullptr;
  /// The grids, in order of first use.
  SmallVector<const RunGrid *, 4> grids;
  /// The first grid of the run's rank.
  const RunGrid *shape = nullptr;
  /// The region's arrays' extents, x first: the largest of the grids of the
  /// run's rank along each axis; empty when their sizes are known only at
  /// run time (they must then agree).
  SmallVector<int64_t, 3> extents;
  /// The region's array for each grid: its name, unless a stencil function
  /// of the run uses that name for something else.
  std::map<const RunGrid *, std::string> arrayNames;
  /// Local variables the run names that the rewritten call may no longer
  /// read (domains, stencils).
  llvm::SmallSetVector<const VarDecl *, 4> named;

  /// Whether `grid` is smaller than the region's arrays along some axis:
  /// the run stores it in one of their shape (zeros beyond it) while it
  /// runs, so that a point has one place in every array.
  bool embeds(const RunGrid *grid) const {
    return !grid->isTable(rank) && !sliceOnly.contains(grid) &&
           grid->extents != extents;
  }
  /// Whether `grid` is one of the region's arrays.
  bool isArray(const RunGrid *grid) const {
    return !grid->isTable(rank) && !sliceOnly.contains(grid);
  }
  bool hasSlices(const RunGrid *grid) const {
    return llvm::any_of(slices,
                        [&](const Slice &slice) { return slice.grid == grid; });
  }

  /// A slice of a grid that the run's maps read at constant indices along
  /// some axes: a table the run copies when it starts (the run does not
  /// write the grid), of the grid's other axes.
  struct Slice {
    const RunGrid *grid;
    SmallVector<std::pair<unsigned, int64_t>, 1> fixed;
    /// Axes copied mirrored, each with the c of the copy's point p = the
    /// grid's point c - p. Reads with another c get a copy of their own: a
    /// shared one read at offsets would widen every grid's margin.
    SmallVector<std::pair<unsigned, int64_t>, 1> mirrored;
    std::string name;

    bool matches(const RunGrid *other, const RunMap::SliceRead &read) const {
      return grid == other && fixed == read.fixed && mirrored == read.mirrored;
    }
    /// Whether the copy has the run's rank: then an array of the region.
    bool isWhole() const { return fixed.empty(); }
  };
  SmallVector<Slice, 2> slices;
  /// Grids the run reads through slices only: not arrays of the region.
  llvm::SmallPtrSet<const RunGrid *, 2> sliceOnly;

  /// The grid a map binds to its stencil function's grid parameter.
  const RunGrid *gridOfParam(const RunMap &map,
                             const ParmVarDecl *param) const {
    return gridOf(map.args[param->getFunctionScopeIndex() - rank]);
  }
  /// `'p'`, or `'p' (grid 'g')` where the grid's name differs: a grid
  /// parameter in a message.
  std::string describeParam(const RunMap &map, const ParmVarDecl *param) const {
    StringRef name = gridOfParam(map, param)->var->getName();
    std::string text = "'" + param->getName().str() + "'";
    if (param->getName() != name)
      text += " (grid '" + name.str() + "')";
    return text;
  }

  /// The grid a map's argument binds, if it is one.
  const RunGrid *gridOf(const Expr *arg) const {
    for (const RunGrid *grid : grids)
      if (grid->var == getReferencedVar(arg))
        return grid;
    return nullptr;
  }
};

class PhysisReader {
public:
  PhysisReader(
      ASTContext &context, StringRef fileName, bool distributed,
      const std::vector<std::pair<std::string, SourceLocation>> &macroEvents)
      : context(context), sm(context.getSourceManager()),
        diags(context.getDiagnostics()), fileName(fileName),
        distributed(distributed), macroEvents(macroEvents) {}

  /// Finds and checks every run; false after reporting an error.
  bool read();
  /// The program with each run replaced.
  std::string write();
  int64_t getMargin() const { return margin; }

private:
  bool readRun(const CallExpr *call, const FunctionDecl *enclosing);
  bool readMap(const Expr *arg, const FunctionDecl *enclosing, RunMap &map,
               Run &run, unsigned depth = 0);
  bool readKernel(RunMap &map, unsigned &rank);
  bool checkKernelBody(RunMap &map, unsigned rank);
  bool checkHostAccesses(const FunctionDecl *function);
  bool readGridArgument(const Expr *arg, const FunctionDecl *enclosing,
                        Run &run);
  bool readDomain(const FunctionDecl *enclosing, unsigned rank, RunMap &map,
                  Run &run);
  bool checkRunNames(Run &run);
  bool checkTable(const Run &run, const RunGrid &table);
  bool readSlices(Run &run);
  bool checkReach(const Run &run);

  std::string writeRunFunction(const Run &run, unsigned index,
                               std::string &prototype, std::string &call);
  std::string writeKernelBody(const Run &run, const RunMap &map);
  std::string writePeriodicFills(const Run &run, const RunMap &map);

  bool error(SourceLocation loc, const llvm::Twine &message) {
    reportError(diags, loc, message.str());
    return false;
  }
  unsigned getOffset(SourceLocation loc) {
    return sm.getFileOffset(sm.getExpansionLoc(loc));
  }
  unsigned getLine(SourceLocation loc) {
    return sm.getExpansionLineNumber(loc);
  }
  std::string quoted(StringRef text) {
    std::string escaped = "\"";
    for (char c : text) {
      if (c == '\\' || c == '"')
        escaped += '\\';
      escaped += c;
    }
    return escaped + "\"";
  }
  std::string lineDirective(unsigned line) {
    return "#line " + std::to_string(line) + " " + quoted(fileName) + "\n";
  }
  /// The text of an expression as written, also where it is an argument
  /// of a macro (PSStencilMap's); empty where it is not in the file.
  std::string getText(SourceRange range) {
    CharSourceRange chars = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(range), sm, context.getLangOpts());
    if (chars.isInvalid())
      return "";
    return Lexer::getSourceText(chars, sm, context.getLangOpts()).str();
  }
  /// The identifiers of a stretch of the main file, as raw tokens.
  llvm::StringSet<> getIdentifiers(unsigned begin, unsigned end);

  /// A macro invocation written in the main file around `inner`, its
  /// first argument's first token (after a member path and a comma when
  /// `afterMember`): from the start of its name to after its closing
  /// parenthesis, and where its first argument ends. Clang's expansion
  /// ranges do not give it when it stands in another macro's argument.
  struct Invocation {
    unsigned begin, firstArgEnd, end;
  };
  std::optional<Invocation> findInvocation(unsigned inner, bool afterMember,
                                           ArrayRef<StringRef> names);

  ASTContext &context;
  SourceManager &sm;
  DiagnosticsEngine &diags;
  std::string fileName;
  /// For `stencilcc --mpi`: the runs split their grids' outermost axis
  /// across the ranks, as Physis does across nodes.
  bool distributed;
  const std::vector<std::pair<std::string, SourceLocation>> &macroEvents;
  std::vector<Run> runs;
  /// Every grid a run uses, by variable, in order of first use.
  std::deque<RunGrid> grids;
  /// The stencil functions checked so far.
  llvm::SmallPtrSet<const FunctionDecl *, 8> checkedKernels;
  /// The widest offset any stencil function reads at.
  int64_t margin = 0;
  /// Reads of one member of a struct grid's point: its component, and the
  /// member path's outermost expression (`PSGridGet(g, x, y, z).p[1]`).
  struct ComponentRead {
    unsigned component;
    const Expr *path;
  };
  std::map<const CallExpr *, ComponentRead> componentReads;
  /// `PSGridEmitUtype(g.member, v)`: the grid parameter and the component.
  struct ComponentEmit {
    const ParmVarDecl *grid;
    unsigned component;
  };
  std::map<const CallExpr *, ComponentEmit> componentEmits;
  /// Slice reads (RunMap::SliceRead), by call: the suffix their grid's
  /// name takes in the region (getSliceSuffix).
  std::map<const CallExpr *, std::string> sliceSuffixes;
  /// A struct value declared in a stencil function (`struct P v =
  /// PSGridGet(g, x, y, z);`, `= {a, b}`, `= w`, or none): in the region,
  /// one local of the scalar type per component, named prefix + number.
  struct StructLocal {
    StructLayout layout;
    std::string prefix;
  };
  std::map<const VarDecl *, StructLocal> structLocals;
  /// A component of a struct local used by its member path (`v.p[1]`): the
  /// local, the component, and the path's outermost expression.
  struct StructMemberUse {
    const VarDecl *var;
    unsigned component;
    const Expr *path;
  };
  std::map<const DeclRefExpr *, StructMemberUse> structMemberUses;
  /// Struct locals read whole: by PSGridEmit(g, v), or copied into another.
  llvm::SmallPtrSet<const DeclRefExpr *, 4> structWholeUses;
  /// `PSGridEmit(g, v)` of a struct local: the grid parameter and the local.
  struct StructEmit {
    const ParmVarDecl *grid;
    const VarDecl *var;
  };
  std::map<const CallExpr *, StructEmit> structEmits;
  /// The declaration of each PSStencil variable a run applies, after which
  /// its closure's values are kept.
  std::map<const VarDecl *, const DeclStmt *> stencilDecls;
  /// The hidden local that keeps argument `index` (0: the domain) of a
  /// stored stencil.
  std::string getBinding(const VarDecl *stencil, unsigned index) {
    return "__ps_bind_" + stencil->getNameAsString() + "_" +
           std::to_string(index);
  }

  /// The grid parameters a stencil function emits, whole or by member.
  llvm::SmallSetVector<const ParmVarDecl *, 2>
  getEmittedGrids(const FunctionDecl *kernel) {
    llvm::SmallSetVector<const ParmVarDecl *, 2> params =
        getAccessedGrids(kernel, "__ps_emit");
    for (const auto &[call, emit] : componentEmits)
      if (emit.grid->getDeclContext() == kernel)
        params.insert(emit.grid);
    return params;
  }

  /// The run's grids a map emits.
  SmallVector<const RunGrid *, 2> getEmittedRunGrids(const Run &run,
                                                     const RunMap &map) {
    SmallVector<const RunGrid *, 2> emitted;
    for (auto [param, arg] : llvm::zip_equal(
             map.kernel->parameters().drop_front(run.rank), map.args))
      if (map.emits.contains(param))
        if (const RunGrid *grid = run.gridOf(arg))
          emitted.push_back(grid);
    return emitted;
  }

  RunGrid *findGrid(const VarDecl *var) {
    for (RunGrid &grid : grids)
      if (grid.var == var)
        return &grid;
    return nullptr;
  }
};

bool PhysisReader::read() {
  struct RunFinder : RecursiveASTVisitor<RunFinder> {
    PhysisReader &reader;
    SourceManager &sm;
    const FunctionDecl *function = nullptr;
    std::vector<std::pair<const CallExpr *, const FunctionDecl *>> calls;
    SmallVector<const FunctionDecl *> functions;
    RunFinder(PhysisReader &reader, SourceManager &sm)
        : reader(reader), sm(sm) {}
    bool TraverseFunctionDecl(FunctionDecl *decl) {
      if (!decl->hasBody() ||
          !sm.isInMainFile(sm.getExpansionLoc(decl->getLocation())))
        return true;
      function = decl;
      functions.push_back(decl);
      return RecursiveASTVisitor::TraverseFunctionDecl(decl);
    }
    bool VisitCallExpr(CallExpr *call) {
      if (function && getCalleeName(call) == "PSStencilRun")
        calls.emplace_back(call, function);
      return true;
    }
  } finder(*this, sm);
  finder.TraverseDecl(context.getTranslationUnitDecl());
  bool ok = true;
  for (auto [call, function] : finder.calls)
    ok = readRun(call, function) && ok;
  for (const Run &run : runs)
    ok = ok && checkReach(run);
  for (const FunctionDecl *function : finder.functions)
    ok = checkHostAccesses(function) && ok;
  return ok && !diags.hasErrorOccurred();
}

/// Point access outside stencil functions: physis.h's handles do not
/// implement it on the host.
bool PhysisReader::checkHostAccesses(const FunctionDecl *function) {
  if (checkedKernels.contains(function))
    return true;
  // A stencil function no run applies: its coordinates, then a grid.
  unsigned numInts = 0;
  while (numInts < function->getNumParams() &&
         function->getParamDecl(numInts)->getType()->isIntegerType())
    ++numInts;
  if (numInts > 0 && llvm::any_of(function->parameters(), [](auto *param) {
        return isGrid(param->getType());
      }))
    return true;
  struct Finder : RecursiveASTVisitor<Finder> {
    const CallExpr *found = nullptr;
    bool VisitCallExpr(CallExpr *call) {
      const Expr *grid = nullptr;
      if (!found && !getGridAccess(call, grid).empty())
        found = call;
      return true;
    }
  } finder;
  finder.TraverseStmt(function->getBody());
  if (!finder.found)
    return true;
  return error(finder.found->getBeginLoc(),
               "grid points are read and written in stencil functions only "
               "(PSGridGet, PSGridEmit); on the host, use PSGridCopyin and "
               "PSGridCopyout");
}

bool PhysisReader::readRun(const CallExpr *call,
                           const FunctionDecl *enclosing) {
  if (call->getBeginLoc().isMacroID() || call->getEndLoc().isMacroID())
    return error(call->getBeginLoc(),
                 "PSStencilRun must be written in the program, not produced "
                 "by a macro");
  Run run;
  run.call = call;
  run.enclosing = enclosing;
  unsigned numArgs = call->getNumArgs();
  for (unsigned i = 0; i < numArgs; ++i) {
    const Expr *arg = call->getArg(i)->IgnoreParenImpCasts();
    if (arg->getType()->isIntegerType()) {
      if (i + 1 != numArgs || i == 0)
        return error(arg->getBeginLoc(),
                     "PSStencilRun takes stencils (PSStencilMap(...)) and "
                     "then, last, the number of times to run them");
      run.count = arg;
      if (getText(arg->getSourceRange()).empty())
        return error(arg->getBeginLoc(),
                     "write the number of times to run in the program, not "
                     "through a macro that expands to several arguments");
      break;
    }
    RunMap map;
    if (!readMap(arg, enclosing, map, run))
      return false;
    run.maps.push_back(map);
  }
  for (RunMap &map : run.maps) {
    unsigned rank;
    if (!readKernel(map, rank))
      return false;
    if (run.rank && rank != run.rank)
      return error(map.call->getBeginLoc(),
                   "this stencil function is " + llvm::Twine(rank) +
                       "-D but the run's first is " + llvm::Twine(run.rank) +
                       "-D; the stencils of one PSStencilRun must have one "
                       "rank");
    run.rank = rank;
    if (!readDomain(enclosing, rank, map, run))
      return false;
    for (auto [param, arg] :
         llvm::zip_equal(map.kernel->parameters().drop_front(rank), map.args))
      if (isGrid(param->getType()) && !readGridArgument(arg, enclosing, run))
        return false;
  }
  if (!readSlices(run))
    return false;
  // One shape for all of a run's grids of its rank: a region's arrays have
  // one. Tables of a lower rank keep their own.
  for (const RunGrid *grid : run.grids)
    if (run.isArray(grid)) {
      run.shape = grid;
      break;
    }
  if (!run.shape)
    return error(call->getBeginLoc(),
                 "this run's stencil functions are " + llvm::Twine(run.rank) +
                     "-D but take no " + llvm::Twine(run.rank) +
                     "-D grid; they must write one");
  // Grids of constant sizes may differ: the region's arrays take the
  // largest along each axis, and a smaller grid is embedded in one
  // (Run::embeds). Sizes known only when the run starts must agree.
  const RunGrid *first = run.shape;
  run.extents = first->extents;
  for (const RunGrid *grid : run.grids) {
    if (!run.isArray(grid))
      continue;
    if (grid->extents.empty() != first->extents.empty())
      return error(call->getBeginLoc(),
                   "the sizes of grid '" +
                       (grid->extents.empty() ? grid : first)->var->getName() +
                       "' are not constants where those of '" +
                       (grid->extents.empty() ? first : grid)->var->getName() +
                       "' are; create the grids of one PSStencilRun alike");
    for (auto [largest, extent] : llvm::zip(run.extents, grid->extents))
      largest = std::max(largest, extent);
  }
  for (const RunGrid *grid : run.grids) {
    if (grid->isTable(run.rank)) {
      if (!checkTable(run, *grid))
        return false;
      continue;
    }
    for (const Run::Slice &slice : run.slices)
      if (slice.grid == grid && slice.isWhole() && grid->extents != run.extents)
        return error(call->getBeginLoc(),
                     "grid '" + grid->var->getName() +
                         "' is read mirrored, which needs the run's grids to "
                         "have its sizes, as constants (not supported yet)");
    if (!run.embeds(grid))
      continue;
    if (grid->components)
      return error(call->getBeginLoc(),
                   "the struct grid '" + grid->var->getName() +
                       "' is smaller than other grids of this run; struct "
                       "grids of different sizes in one PSStencilRun are not "
                       "supported yet");
    for (const RunMap &map : run.maps)
      for (auto [param, arg] : llvm::zip_equal(
               map.kernel->parameters().drop_front(run.rank), map.args))
        if (run.gridOf(arg) == grid &&
            getAccessedGrids(map.kernel, "__ps_get_periodic").contains(param))
          return error(map.call->getBeginLoc(),
                       "'" + map.kernel->getName() + "' reads grid '" +
                           grid->var->getName() +
                           "' periodically, and it is smaller than other "
                           "grids of this run; periodic reads of grids of "
                           "different sizes are not supported yet");
  }
  for (RunMap &map : run.maps) {
    // A constant domain inside the grids it is applied to, and inside each
    // grid it emits.
    if (!map.bounds.empty() && !run.extents.empty())
      for (unsigned axis = 0; axis < run.rank; ++axis)
        if (map.bounds[2 * axis] < 0 ||
            map.bounds[2 * axis + 1] > run.extents[axis])
          return error(map.domain->getBeginLoc(),
                       "this domain runs from " +
                           llvm::Twine(map.bounds[2 * axis]) + " to " +
                           llvm::Twine(map.bounds[2 * axis + 1]) + " along " +
                           kAxisNames[axis] + ", outside the run's grids (" +
                           llvm::Twine(run.extents[axis]) + " points)");
    if (!map.bounds.empty() && !map.empty && !run.extents.empty())
      for (const RunGrid *grid : getEmittedRunGrids(run, map))
        for (unsigned axis = 0; axis < run.rank; ++axis)
          if (map.bounds[2 * axis + 1] > grid->extents[axis])
            return error(map.domain->getBeginLoc(),
                         "this domain runs to " +
                             llvm::Twine(map.bounds[2 * axis + 1]) + " along " +
                             kAxisNames[axis] + ", past grid '" +
                             grid->var->getName() + "' (" +
                             llvm::Twine(grid->extents[axis]) +
                             " points), "
                             "which '" +
                             map.kernel->getName() + "' emits");
    // A periodic read finds its value in the margin, which the region
    // fills from the other side: sizes it knows, at least as wide as the
    // reads.
    if (getAccessedGrids(map.kernel, "__ps_get_periodic").empty())
      continue;
    if (run.extents.empty())
      return error(map.call->getBeginLoc(),
                   "'" + map.kernel->getName() +
                       "' reads with PSGridGetPeriodic, which needs the "
                       "grids' sizes as constants (PSGrid...New(N, ...) with "
                       "N known when compiling)");
    for (unsigned axis = 0; axis < run.rank; ++axis)
      if (map.periodicReach[axis] > run.extents[axis])
        return error(map.call->getBeginLoc(),
                     "'" + map.kernel->getName() + "' reads periodically " +
                         llvm::Twine(map.periodicReach[axis]) +
                         " points away along " + kAxisNames[axis] +
                         ", beyond the grids' " +
                         llvm::Twine(run.extents[axis]) + " points");
  }
  if (!checkRunNames(run))
    return false;
  runs.push_back(std::move(run));
  return true;
}

bool PhysisReader::readMap(const Expr *arg, const FunctionDecl *enclosing,
                           RunMap &map, Run &run, unsigned depth) {
  // A stencil kept in a variable: its initializer, read again at the run,
  // which gives Physis's closure only if nothing it reads changes.
  if (const VarDecl *var = getReferencedVar(arg)) {
    const Expr *init = var->hasInit() && var->isLocalVarDecl() && depth < 8
                           ? var->getInit()->IgnoreParenImpCasts()
                           : nullptr;
    if (!init || isChangedIn(var, enclosing->getBody()))
      return error(arg->getBeginLoc(),
                   "the stencil '" + var->getName() +
                       "' must be initialized with PSStencilMap(...) in this "
                       "function and not changed");
    run.named.insert(var);
    if (!getReferencedVar(init)) {
      // The closure's scalars and domain are kept where it is made; its
      // grids are the run's, so they must still be the same grids.
      map.stencil = var;
      if (const auto *call = dyn_cast<CallExpr>(init))
        for (const Expr *bound : llvm::drop_begin(call->arguments(), 2))
          if (const VarDecl *grid = getReferencedVar(bound))
            if (isGrid(grid->getType()) &&
                ((!grid->isLocalVarDecl() && !isa<ParmVarDecl>(grid)) ||
                 isChangedIn(grid, enclosing->getBody())))
              return error(arg->getBeginLoc(),
                           "the stencil '" + var->getName() + "' binds grid '" +
                               grid->getName() +
                               "', which may change before the run; write "
                               "the PSStencilMap in the PSStencilRun");
      DynTypedNodeList parents = context.getParents(*var);
      const DeclStmt *declStmt =
          parents.empty() ? nullptr : parents[0].get<DeclStmt>();
      if (!declStmt || declStmt->getEndLoc().isMacroID())
        return error(var->getLocation(),
                     "declare the stencil '" + var->getName() +
                         "' in a statement of its own, written in the "
                         "program");
      stencilDecls[var] = declStmt;
    }
    return readMap(init, enclosing, map, run, depth + 1);
  }
  const auto *call = dyn_cast<CallExpr>(arg);
  StringRef name = call ? getCalleeName(call) : "";
  std::optional<MapKind> kind =
      llvm::StringSwitch<std::optional<MapKind>>(name)
          .Case("__PSStencilMap", MapKind::Plain)
          .Case("__PSStencilMapRedBlack", MapKind::RedBlack)
          .Case("__PSStencilMapRed", MapKind::Red)
          .Case("__PSStencilMapBlack", MapKind::Black)
          .Default(std::nullopt);
  if (!kind)
    return error(arg->getBeginLoc(),
                 "PSStencilRun takes stencils made by PSStencilMap (or "
                 "PSStencilMapRedBlack, ...) and then the number of times to "
                 "run them");
  map.call = call;
  map.kind = *kind;
  if (call->getNumArgs() < 2)
    return error(call->getBeginLoc(),
                 "PSStencilMap takes a stencil function, a domain and the "
                 "function's arguments");
  const Expr *kernelRef = call->getArg(0)->IgnoreParenCasts();
  const auto *ref = dyn_cast<DeclRefExpr>(kernelRef);
  const auto *kernel = ref ? dyn_cast<FunctionDecl>(ref->getDecl()) : nullptr;
  if (!kernel)
    return error(kernelRef->getBeginLoc(),
                 "the first argument of PSStencilMap must name a stencil "
                 "function");
  map.kernel = kernel->getDefinition();
  if (!map.kernel || !sm.isInMainFile(sm.getExpansionLoc(
                         map.kernel->getBody()->getBeginLoc())))
    return error(kernelRef->getBeginLoc(),
                 "the stencil function '" + kernel->getName() +
                     "' must be defined in this file");
  map.domain = call->getArg(1);
  for (unsigned i = 2; i < call->getNumArgs(); ++i)
    map.args.push_back(call->getArg(i));
  return true;
}

bool PhysisReader::readKernel(RunMap &map, unsigned &rank) {
  const FunctionDecl *kernel = map.kernel;
  if (!kernel->getReturnType()->isVoidType())
    return error(kernel->getLocation(), "the stencil function '" +
                                            kernel->getName() +
                                            "' must return void");
  // The coordinates come first: Physis writes them `const int`; an
  // integer parameter after them (not const) is a scalar. Without const,
  // as many as the widest grid has axes.
  unsigned numConst = 0, numInts = 0, gridRank = 0;
  for (const ParmVarDecl *param : kernel->parameters())
    if (std::optional<GridType> grid = getGridType(param->getType()))
      gridRank = std::max(gridRank, grid->rank);
  while (numInts < kernel->getNumParams() &&
         kernel->getParamDecl(numInts)->getType()->isIntegerType())
    ++numInts;
  while (numConst < numInts &&
         kernel->getParamDecl(numConst)->getType().isConstQualified())
    ++numConst;
  if (!gridRank)
    return error(kernel->getLocation(), "the stencil function '" +
                                            kernel->getName() +
                                            "' takes no grid");
  rank = numConst ? numConst : std::min(numInts, gridRank);
  if (rank < 1 || rank > 3)
    return error(kernel->getLocation(),
                 "the stencil function '" + kernel->getName() +
                     "' must begin with 1 to 3 integer parameters, the "
                     "coordinates of its point (it has " +
                     llvm::Twine(rank) + ")");
  unsigned numBound = kernel->getNumParams() - rank;
  if (map.args.size() != numBound)
    return error(map.call->getBeginLoc(),
                 "'" + kernel->getName() + "' takes " + llvm::Twine(numBound) +
                     " arguments after its coordinates, but PSStencilMap "
                     "gives " +
                     llvm::Twine(map.args.size()));
  for (auto [param, arg] :
       llvm::zip_equal(kernel->parameters().drop_front(rank), map.args)) {
    QualType type = param->getType();
    QualType argType = arg->IgnoreParenImpCasts()->getType();
    // The run function takes the argument as written.
    if (getText(arg->getSourceRange()).empty())
      return error(arg->getBeginLoc(),
                   "write this argument of PSStencilMap in the program, not "
                   "through a macro that expands to several");
    if (std::optional<GridType> grid = getGridType(type)) {
      if (grid->rank > rank)
        return error(param->getLocation(),
                     "'" + param->getName() + "' is a " +
                         llvm::Twine(grid->rank) + "-D grid in a " +
                         llvm::Twine(rank) +
                         "-D stencil function; a stencil function's grids "
                         "have its rank, or fewer axes (tables it reads)");
      if (grid->rank < rank && grid->element->isRecordType())
        return error(param->getLocation(),
                     "'" + param->getName() + "' is a " +
                         llvm::Twine(grid->rank) + "-D grid of '" +
                         grid->element.getAsString() + "' in a " +
                         llvm::Twine(rank) +
                         "-D stencil function; grids of a lower rank hold "
                         "numbers (struct points are not supported yet)");
      if (grid->element->isRecordType()) {
        if (!getStructLayout(grid->element, context))
          return error(param->getLocation(),
                       "'" + param->getName() + "' is a grid of '" +
                           grid->element.getAsString() +
                           "'; struct points must hold float or double "
                           "members only, all of one type (arrays of them "
                           "too), without padding");
      } else if (!getElementKind(grid->element))
        return error(param->getLocation(),
                     "'" + param->getName() + "' is a grid of '" +
                         grid->element.getAsString() +
                         "'; stencils compute on grids of float, double, "
                         "int and long");
      if (!context.hasSameUnqualifiedType(argType, type))
        return error(arg->getBeginLoc(), "this argument is a '" +
                                             argType.getAsString() + "' but '" +
                                             param->getName() + "' of '" +
                                             kernel->getName() + "' is a '" +
                                             type.getAsString() + "'");
      continue;
    }
    if (!type->isArithmeticType())
      return error(param->getLocation(),
                   "'" + param->getName() +
                       "' must be a grid or a number: stencil functions "
                       "take no other arguments");
    if (!argType->isArithmeticType())
      return error(arg->getBeginLoc(), "'" + param->getName() + "' of '" +
                                           kernel->getName() +
                                           "' takes a number");
  }
  if (map.kind != MapKind::Plain)
    for (const ParmVarDecl *param : kernel->parameters())
      if (std::optional<GridType> grid = getGridType(param->getType()))
        if (grid->element->isRecordType())
          return error(map.call->getBeginLoc(),
                       "red-black stencils over struct grids are not "
                       "supported yet");
  if (!checkKernelBody(map, rank))
    return false;
  map.emits = getEmittedGrids(kernel);
  return true;
}

bool PhysisReader::checkKernelBody(RunMap &map, unsigned rank) {
  const FunctionDecl *kernel = map.kernel;
  map.periodicReach.assign(rank, 0);
  const auto *body = dyn_cast<CompoundStmt>(kernel->getBody());
  if (!body || body->getLBracLoc().isMacroID() ||
      body->getRBracLoc().isMacroID())
    return error(kernel->getLocation(),
                 "the body of the stencil function '" + kernel->getName() +
                     "' must be written in the file, not produced by a "
                     "macro");
  struct Checker : RecursiveASTVisitor<Checker> {
    PhysisReader &reader;
    RunMap &map;
    const FunctionDecl *kernel;
    unsigned rank;
    llvm::SmallPtrSet<const DeclRefExpr *, 8> gridUses;
    bool ok = true;
    Checker(PhysisReader &reader, RunMap &map, unsigned rank)
        : reader(reader), map(map), kernel(map.kernel), rank(rank) {}

    bool VisitCallExpr(CallExpr *call) {
      const Expr *gridExpr = nullptr;
      StringRef access = getGridAccess(call, gridExpr);
      if (access.empty()) {
        if (getCalleeName(call) == "PSGridDim")
          return visitGridDim(call);
        if (getCalleeName(call) == "__PSGridEmitUtype")
          return visitEmitMember(call);
        return true;
      }
      // The grid is the parameter's name itself: the region's macros
      // paste it.
      const auto *grid = dyn_cast<DeclRefExpr>(gridExpr);
      const auto *param =
          grid ? dyn_cast<ParmVarDecl>(grid->getDecl()) : nullptr;
      if (!param || param->getDeclContext() != kernel ||
          !reader.sm.isMacroArgExpansion(grid->getLocation()))
        return fail(call->getBeginLoc(),
                    "write the name of a grid parameter of the stencil "
                    "function as the grid of PSGridGet and PSGridEmit");
      gridUses.insert(grid);
      if (access == "__ps_set")
        return fail(call->getBeginLoc(),
                    "stencil functions write their point with PSGridEmit, "
                    "not PSGridSet");
      GridType type = *getGridType(param->getType());
      QualType element = type.element;
      if (type.rank < rank)
        return visitTableRead(call, param, type.rank, access);
      if (access == "__ps_emit") {
        if (element->isRecordType())
          return visitStructEmit(call, param, element);
        return true;
      }
      if (element->isRecordType() && !visitMemberRead(call, element))
        return false;
      RunMap::SliceRead slice{param, call, {}, {}, {}};
      for (unsigned axis = 0; axis < call->getNumArgs(); ++axis) {
        const ParmVarDecl *coordinate = kernel->getParamDecl(axis);
        std::optional<int64_t> offset =
            getOffsetFrom(call->getArg(axis), coordinate, reader.context);
        // A constant index: the read is of a slice of the grid
        // (PSGridGet(g, x, y, 0)), which the run takes as a table.
        std::optional<int64_t> fixed =
            offset ? std::nullopt
                   : evaluateInteger(call->getArg(axis), reader.context);
        if (fixed && access == "__ps_get" && !element->isRecordType()) {
          slice.fixed.push_back({axis, *fixed});
          continue;
        }
        // `N - x - 1`: the grid read mirrored along the axis, which the
        // run takes as a mirrored copy.
        std::optional<int64_t> mirror =
            offset || fixed
                ? std::nullopt
                : getMirrorBase(call->getArg(axis), coordinate, reader.context);
        if (mirror && access == "__ps_get" && !element->isRecordType()) {
          if (reader.getText(call->getArg(axis)->getSourceRange()).empty())
            return fail(call->getArg(axis)->getBeginLoc(),
                        "write a mirrored index in the stencil function, "
                        "not through a macro");
          slice.mirrored.push_back({axis, *mirror});
          continue;
        }
        if (fixed || mirror)
          return fail(
              call->getArg(axis)->getBeginLoc(),
              llvm::Twine(fixed ? "a constant index" : "a mirrored index") +
                  " is read from grids of numbers with PSGridGet "
                  "only (not supported yet for " +
                  (element->isRecordType() ? "struct grids"
                                           : "PSGridGetPeriodic") +
                  ")");
        if (!offset)
          return fail(call->getArg(axis)->getBeginLoc(),
                      "index " + llvm::Twine(axis + 1) +
                          " of PSGridGet must be '" + coordinate->getName() +
                          "' plus or minus a constant (the stencil "
                          "function's coordinate along that axis), a "
                          "constant, or a constant minus '" +
                          coordinate->getName() + "'");
        slice.offsets.push_back({axis, *offset});
        if (*offset < -kMaxOffset || *offset > kMaxOffset)
          return fail(call->getArg(axis)->getBeginLoc(),
                      "an offset of " + llvm::Twine(*offset) +
                          " is wider than stencils read (at most " +
                          llvm::Twine(kMaxOffset) + ")");
        reader.margin = std::max(reader.margin, std::abs(*offset));
        if (access == "__ps_get_periodic")
          map.periodicReach[axis] =
              std::max(map.periodicReach[axis], std::abs(*offset));
      }
      if (slice.fixed.empty() && slice.mirrored.empty()) {
        map.wholeReads.insert(param);
        return true;
      }
      if (slice.offsets.empty() && slice.mirrored.empty())
        return fail(call->getBeginLoc(),
                    "every index of this PSGridGet is a constant; a stencil "
                    "function reads a grid along at least one coordinate "
                    "(not supported yet)");
      reader.sliceSuffixes[call] = getSliceSuffix(slice.fixed, slice.mirrored);
      map.sliceReads.push_back(std::move(slice));
      return true;
    }
    /// `PSGridGet(k, x - 1)` of a grid of a lower rank than the function:
    /// a table the region reads along the coordinates its indices name,
    /// each a different one.
    bool visitTableRead(CallExpr *call, const ParmVarDecl *param,
                        unsigned tableRank, StringRef access) {
      std::string what = "'" + param->getName().str() + "', a " +
                         std::to_string(tableRank) + "-D grid in a " +
                         std::to_string(rank) + "-D stencil function,";
      if (access == "__ps_emit")
        return fail(call->getBeginLoc(),
                    what + " is only read: a stencil function emits points "
                           "of its own rank");
      if (access == "__ps_get_periodic")
        return fail(call->getBeginLoc(),
                    what + " is read with PSGridGetPeriodic, which is not "
                           "supported yet for grids of a lower rank");
      SmallVector<const ParmVarDecl *, 3> followed;
      for (unsigned index = 0; index < call->getNumArgs(); ++index) {
        const Expr *arg = call->getArg(index);
        std::optional<int64_t> offset;
        const ParmVarDecl *coordinate = nullptr;
        for (unsigned axis = 0; axis < rank && !offset; ++axis) {
          coordinate = kernel->getParamDecl(axis);
          offset = getOffsetFrom(arg, coordinate, reader.context);
        }
        if (!offset)
          return fail(arg->getBeginLoc(),
                      "index " + llvm::Twine(index + 1) + " of PSGridGet on " +
                          what +
                          " must be one of the function's coordinates plus "
                          "or minus a constant");
        if (llvm::is_contained(followed, coordinate))
          return fail(arg->getBeginLoc(),
                      "'" + coordinate->getName() + "' indexes " + what +
                          " twice; each index must follow a different "
                          "coordinate");
        followed.push_back(coordinate);
        if (*offset < -kMaxOffset || *offset > kMaxOffset)
          return fail(arg->getBeginLoc(),
                      "an offset of " + llvm::Twine(*offset) +
                          " is wider than stencils read (at most " +
                          llvm::Twine(kMaxOffset) + ")");
        reader.margin = std::max(reader.margin, std::abs(*offset));
        map.tableReads.push_back(
            {param, arg, index, coordinate->getFunctionScopeIndex(), *offset});
      }
      return true;
    }
    /// `PSGridGet(g, x, y, z).p[1]`: the member path up to one scalar.
    bool visitMemberRead(CallExpr *call, QualType element) {
      // physis.h's own parentheses come before the first member; the
      // user's after it are not part of the path. C materializes the
      // struct a call returns before taking a member.
      MemberPath memberPath =
          getMemberPath(reader.context, call, [&](const Expr *parent) {
            return isa<MaterializeTemporaryExpr>(parent) ||
                   (isa<ParenExpr>(parent) &&
                    !reader.sm.isInMainFile(
                        reader.sm.getSpellingLoc(parent->getBeginLoc())));
          });
      if (memberPath.nonConstantIndex)
        return fail(memberPath.nonConstantIndex->getBeginLoc(),
                    "an index into a member of a struct grid's point "
                    "must be a constant");
      ArrayRef<MemberStep> path = memberPath.steps;
      const Expr *last = memberPath.last;
      if (path.empty()) {
        if (initializesStructLocal(call)) {
          const Expr *grid = nullptr;
          getGridAccess(call, grid);
          if (!reader.findInvocation(
                  reader.sm.getFileOffset(
                      reader.sm.getFileLoc(grid->getBeginLoc())),
                  false, {"PSGridGet", "PSGridGetPeriodic"}))
            return fail(call->getBeginLoc(),
                        "write PSGridGet(g, ...) that reads a struct value "
                        "in the stencil function, not through a macro");
          return true;
        }
        return fail(call->getBeginLoc(),
                    "a struct grid's point is read one member at a time "
                    "(PSGridGet(g, ...).member), or whole into a struct "
                    "value of its type (struct P v = PSGridGet(g, ...);)");
      }
      std::optional<unsigned> component = getComponent(element, path);
      if (!component)
        return fail(last->getBeginLoc(),
                    "this member path must reach one number of the point "
                    "(every index given)");
      if (last->getEndLoc().isMacroID() &&
          !reader.sm.isMacroArgExpansion(last->getEndLoc()))
        return fail(last->getBeginLoc(),
                    "write the member path in the stencil function, not "
                    "through a macro");
      const Expr *grid = nullptr;
      getGridAccess(call, grid);
      if (!reader.findInvocation(reader.sm.getFileOffset(
                                     reader.sm.getFileLoc(grid->getBeginLoc())),
                                 false, {"PSGridGet", "PSGridGetPeriodic"}))
        return fail(call->getBeginLoc(),
                    "write PSGridGet(g, ...).member in the stencil function, "
                    "not through a macro");
      reader.componentReads[call] = {*component, last};
      return true;
    }
    /// `PSGridEmitUtype(g.q, v)`: its first argument arrives as text.
    bool visitEmitMember(CallExpr *call) {
      const auto *text =
          call->getNumArgs() == 2
              ? dyn_cast<StringLiteral>(call->getArg(0)->IgnoreParenImpCasts())
              : nullptr;
      SourceLocation begin = call->getBeginLoc();
      if (!text || !begin.isMacroID() ||
          !reader.sm.isInMainFile(reader.sm.getExpansionLoc(begin)))
        return fail(begin, "write PSGridEmitUtype(g.member, value) in the "
                           "stencil function");
      // grid ( '.' member | '[' constant ']' )+
      StringRef rest = text->getString();
      auto takeName = [&]() {
        rest = rest.ltrim();
        size_t n = 0;
        while (n < rest.size() && (llvm::isAlnum(rest[n]) || rest[n] == '_'))
          ++n;
        StringRef name = rest.take_front(n);
        rest = rest.drop_front(n);
        return name;
      };
      StringRef gridName = takeName();
      SmallVector<MemberStep> path;
      bool ok = !gridName.empty();
      while (ok && !rest.ltrim().empty()) {
        rest = rest.ltrim();
        if (rest.consume_front(".")) {
          StringRef field = takeName();
          ok = !field.empty();
          path.push_back({field.str()});
        } else if (rest.consume_front("[")) {
          rest = rest.ltrim();
          size_t n = 0;
          while (n < rest.size() && llvm::isAlnum(rest[n]))
            ++n;
          // C's integer literals: decimal, octal (010) and hex (0x8).
          int64_t index = 0;
          ok = n > 0 && n < 12 && !rest.take_front(n).getAsInteger(0, index);
          rest = rest.drop_front(n).ltrim();
          ok = ok && rest.consume_front("]");
          path.push_back({"", index});
        } else {
          ok = false;
        }
      }
      const ParmVarDecl *grid = nullptr;
      for (const ParmVarDecl *param : kernel->parameters())
        if (param->getName() == gridName && isGrid(param->getType()))
          grid = param;
      if (!ok || !grid || path.empty())
        return fail(begin, "PSGridEmitUtype takes a struct grid parameter's "
                           "member with constant indices (g.q, g.p[1]), and "
                           "the value");
      std::optional<unsigned> component =
          getComponent(getGridType(grid->getType())->element, path);
      if (!component)
        return fail(begin, "'" + text->getString() +
                               "' must reach one number of a point of a "
                               "struct grid");
      const Expr *value = call->getArg(1)->IgnoreImpCasts();
      // physis.h writes `(v)`; the user's value starts inside.
      if (const auto *paren = dyn_cast<ParenExpr>(value))
        value = paren->getSubExpr();
      if (!reader.findInvocation(reader.sm.getFileOffset(reader.sm.getFileLoc(
                                     value->getBeginLoc())),
                                 true, {"PSGridEmitUtype"}))
        return fail(begin, "write PSGridEmitUtype(g.member, value) in the "
                           "stencil function, not through a macro");
      reader.componentEmits[call] = {grid, *component};
      return true;
    }
    /// Whether `call`, a whole read of a struct grid's point, initializes a
    /// struct local.
    bool initializesStructLocal(const CallExpr *call) {
      const Expr *inner = call;
      while (true) {
        DynTypedNodeList parents = reader.context.getParents(*inner);
        if (parents.empty())
          return false;
        if (const auto *var = parents[0].get<VarDecl>())
          return reader.structLocals.count(var) &&
                 var->getInit()->IgnoreParenImpCasts() == call;
        const auto *parent = parents[0].get<Expr>();
        if (!parent || !isa<ParenExpr, ImplicitCastExpr>(parent))
          return false;
        inner = parent;
      }
    }
    /// `struct P v = ...;` in a stencil function: a struct value whose
    /// members the region keeps in scalar locals.
    bool VisitVarDecl(VarDecl *var) {
      if (isa<ParmVarDecl>(var) || !var->isLocalVarDecl() ||
          !var->getType().getCanonicalType()->isRecordType())
        return true;
      QualType type = var->getType().getCanonicalType();
      std::optional<StructLayout> layout =
          getStructLayout(type, reader.context);
      if (!layout)
        return fail(var->getLocation(),
                    "a struct value in a stencil function must hold float "
                    "or double numbers only, without padding");
      DynTypedNodeList parents = reader.context.getParents(*var);
      const auto *decl = parents.empty() ? nullptr : parents[0].get<DeclStmt>();
      if (!decl || !decl->isSingleDecl() || decl->getBeginLoc().isMacroID() ||
          decl->getEndLoc().isMacroID())
        return fail(var->getLocation(),
                    "declare each struct value in a declaration of its own, "
                    "written in the stencil function");
      if (var->isStaticLocal())
        return fail(var->getLocation(),
                    "a struct value in a stencil function must not be "
                    "static");
      if (const Expr *init = var->getInit()) {
        init = init->IgnoreParenImpCasts();
        const Expr *grid = nullptr;
        if (const auto *list = dyn_cast<InitListExpr>(init)) {
          // One number per member, in order: `{a, b, c}`.
          const RecordDecl *record = type->getAsRecordDecl();
          unsigned fields =
              std::distance(record->field_begin(), record->field_end());
          bool flat =
              fields == layout->count && list->getNumInits() == layout->count;
          for (const Expr *element : list->inits())
            flat &= !isa<InitListExpr>(element->IgnoreParenImpCasts());
          if (!flat)
            return fail(init->getBeginLoc(),
                        "initialize a struct value with one number per "
                        "member ({a, b, c}), a PSGridGet of its grid, or "
                        "another struct value");
          // Each number's text on its own, in the braces as written.
          bool written = !list->getLBraceLoc().isMacroID() &&
                         !list->getRBraceLoc().isMacroID();
          unsigned previousEnd = reader.sm.getFileOffset(list->getLBraceLoc());
          for (const Expr *element : list->inits()) {
            if (isa<ImplicitValueInitExpr>(element))
              continue;
            unsigned from = reader.sm.getFileOffset(
                reader.sm.getExpansionRange(element->getBeginLoc()).getBegin());
            unsigned to = reader.sm.getFileOffset(
                reader.sm.getExpansionRange(element->getEndLoc()).getEnd());
            written &= from > previousEnd && to >= from;
            previousEnd = to;
          }
          if (!written)
            return fail(init->getBeginLoc(),
                        "write the braces of a struct value and each of its "
                        "numbers in the stencil function, not through a "
                        "macro");
        } else if (const auto *call = dyn_cast<CallExpr>(init);
                   call && StringRef(getGridAccess(call, grid))
                               .starts_with("__ps_get")) {
          // Checked as a read of the grid.
        } else if (const auto *ref = dyn_cast<DeclRefExpr>(init);
                   ref && isa<VarDecl>(ref->getDecl()) &&
                   reader.structLocals.count(cast<VarDecl>(ref->getDecl())) &&
                   ref->getType().getCanonicalType().getUnqualifiedType() ==
                       type.getUnqualifiedType()) {
          reader.structWholeUses.insert(ref);
        } else {
          return fail(init->getBeginLoc(),
                      "initialize a struct value with one number per "
                      "member ({a, b, c}), a PSGridGet of its grid, or "
                      "another struct value");
        }
      }
      reader.structLocals[var] = {*layout,
                                  "__ps_" + var->getNameAsString() + "_"};
      return true;
    }
    /// `PSGridEmit(g, v)` of a struct grid: `v` a struct local of its type,
    /// the emit a statement of its own (the region emits each member).
    bool visitStructEmit(CallExpr *call, const ParmVarDecl *grid,
                         QualType element) {
      const auto *ref =
          call->getNumArgs() == 1
              ? dyn_cast<DeclRefExpr>(call->getArg(0)->IgnoreParenImpCasts())
              : nullptr;
      const auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
      if (!var || !reader.structLocals.count(var) ||
          var->getType().getCanonicalType().getUnqualifiedType() !=
              element.getCanonicalType().getUnqualifiedType())
        return fail(call->getBeginLoc(),
                    "emit a struct grid's point from a struct value of its "
                    "type declared in the stencil function "
                    "(PSGridEmit(g, v)), or member by member with "
                    "PSGridEmitUtype(g.member, v)");
      const Expr *inner = call;
      while (true) {
        DynTypedNodeList parents = reader.context.getParents(*inner);
        const auto *parent = parents.empty() ? nullptr : parents[0].get<Expr>();
        if (!parent || !isa<ParenExpr, ImplicitCastExpr>(parent))
          break;
        inner = parent;
      }
      DynTypedNodeList parents = reader.context.getParents(*inner);
      if (parents.empty() || !parents[0].get<CompoundStmt>())
        return fail(call->getBeginLoc(),
                    "write PSGridEmit(g, v) of a struct value as a statement "
                    "of its own in a block");
      const Expr *gridExpr = nullptr;
      getGridAccess(call, gridExpr);
      std::optional<PhysisReader::Invocation> invocation =
          reader.findInvocation(reader.sm.getFileOffset(reader.sm.getFileLoc(
                                    gridExpr->getBeginLoc())),
                                false, {"PSGridEmit"});
      if (!invocation)
        return fail(call->getBeginLoc(),
                    "write PSGridEmit(g, v) in the stencil function, not "
                    "through a macro");
      // The statement is the invocation itself, not in parentheses.
      if (reader.sm.getFileOffset(
              reader.sm.getExpansionRange(inner->getBeginLoc()).getBegin()) !=
          invocation->begin)
        return fail(call->getBeginLoc(),
                    "write PSGridEmit(g, v) of a struct value as a statement "
                    "of its own in a block");
      reader.structWholeUses.insert(ref);
      reader.structEmits[call] = {grid, var};
      return true;
    }
    /// A use of struct local `var` by a member path down to one number.
    bool visitStructUse(DeclRefExpr *ref, const VarDecl *var) {
      if (reader.structWholeUses.count(ref))
        return true;
      MemberPath memberPath = getMemberPath(reader.context, ref,
                                            [](const Expr *) { return false; });
      if (memberPath.nonConstantIndex)
        return fail(memberPath.nonConstantIndex->getBeginLoc(),
                    "an index into a member of a struct value must be a "
                    "constant");
      const Expr *last = memberPath.last;
      std::optional<unsigned> component =
          memberPath.steps.empty()
              ? std::nullopt
              : getComponent(var->getType(), memberPath.steps);
      if (!component)
        return fail(ref->getLocation(),
                    "a struct value in a stencil function is used by its "
                    "numbers (v.member, v.p[1]), emitted whole with "
                    "PSGridEmit(g, v), or copied into another; not as a "
                    "whole here");
      SourceLocation begin = ref->getLocation(), end = last->getEndLoc();
      auto written = [&](SourceLocation loc) {
        return !loc.isMacroID() || reader.sm.isMacroArgExpansion(loc);
      };
      if (!written(begin) || !written(end))
        return fail(ref->getLocation(),
                    "write the member path of a struct value in the stencil "
                    "function, not through a macro");
      reader.structMemberUses[ref] = {var, *component, last};
      return true;
    }
    bool visitGridDim(CallExpr *call) {
      const auto *grid =
          call->getNumArgs() == 2
              ? dyn_cast<DeclRefExpr>(call->getArg(0)->IgnoreParenImpCasts())
              : nullptr;
      const auto *param =
          grid ? dyn_cast<ParmVarDecl>(grid->getDecl()) : nullptr;
      if (!param || param->getDeclContext() != kernel ||
          !isGrid(param->getType()))
        return fail(call->getBeginLoc(),
                    "PSGridDim takes a grid parameter of the stencil "
                    "function and an axis");
      gridUses.insert(grid);
      std::optional<int64_t> axis =
          evaluateInteger(call->getArg(1), reader.context);
      unsigned gridRank = getGridType(param->getType())->rank;
      if (!axis || *axis < 0 || *axis >= gridRank)
        return fail(call->getArg(1)->getBeginLoc(),
                    "the axis of PSGridDim must be a constant from 0 to " +
                        llvm::Twine(gridRank - 1));
      SourceLocation begin = call->getBeginLoc();
      if (begin.isMacroID() && !reader.sm.isMacroArgExpansion(begin))
        return fail(call->getBeginLoc(),
                    "PSGridDim must be written in the stencil function, "
                    "not produced by a macro");
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *ref) {
      if (const auto *var = dyn_cast<VarDecl>(ref->getDecl());
          var && reader.structLocals.count(var))
        return visitStructUse(ref, var);
      const auto *param = dyn_cast<ParmVarDecl>(ref->getDecl());
      if (!param || param->getDeclContext() != kernel ||
          isGrid(param->getType()))
        return true;
      SourceLocation loc = ref->getLocation();
      if (loc.isMacroID() && !reader.sm.isMacroArgExpansion(loc))
        return fail(loc, "'" + param->getName() +
                             "' is used inside a macro's definition; the "
                             "stencil function's parameters must be written "
                             "in its body");
      return true;
    }
    // A region's nest computes every point without branching out of it.
    bool VisitForStmt(ForStmt *loop) { return failLoop(loop); }
    bool VisitWhileStmt(WhileStmt *loop) { return failLoop(loop); }
    bool VisitDoStmt(DoStmt *loop) { return failLoop(loop); }
    bool failLoop(Stmt *loop) {
      return fail(loop->getBeginLoc(),
                  "this loop is not supported in a stencil function: a "
                  "loop is written out when an int counts up by one "
                  "between constant bounds, at most 64 times, without "
                  "break, continue, return or preprocessor lines, its "
                  "variable unchanged in it, named by no macro and not "
                  "read after it");
    }
    bool VisitReturnStmt(ReturnStmt *ret) {
      const auto *body = cast<CompoundStmt>(kernel->getBody());
      if (body->body_empty() || body->body_back() != ret ||
          ret->getBeginLoc().isMacroID())
        return fail(ret->getBeginLoc(),
                    "a 'return' before the end of a stencil function is not "
                    "supported; put the statements it skips under an 'if'");
      return true;
    }
    bool VisitGotoStmt(GotoStmt *jump) {
      return fail(jump->getBeginLoc(),
                  "'goto' is not supported in stencil functions");
    }
    bool fail(SourceLocation loc, const llvm::Twine &message) {
      ok = false;
      return reader.error(loc, message);
    }
  } checker(*this, map, rank);
  checker.TraverseStmt(kernel->getBody());
  if (!checker.ok)
    return false;
  // Grid parameters only as the grid of an access.
  struct GridRefs : RecursiveASTVisitor<GridRefs> {
    SmallVector<const DeclRefExpr *> refs;
    const FunctionDecl *kernel;
    bool VisitDeclRefExpr(DeclRefExpr *ref) {
      const auto *param = dyn_cast<ParmVarDecl>(ref->getDecl());
      if (param && param->getDeclContext() == kernel &&
          isGrid(param->getType()))
        refs.push_back(ref);
      return true;
    }
  } refs;
  refs.kernel = kernel;
  refs.TraverseStmt(kernel->getBody());
  for (const DeclRefExpr *ref : refs.refs)
    if (!checker.gridUses.contains(ref))
      return error(ref->getLocation(),
                   "a grid is used in a stencil function through PSGridGet, "
                   "PSGridEmit and PSGridDim only");
  // The body is compiled at the end of the file: the macros it uses must
  // still mean there what they mean here.
  unsigned end = getOffset(body->getRBracLoc());
  llvm::StringSet<> used = getIdentifiers(getOffset(body->getLBracLoc()), end);
  for (const auto &[name, loc] : macroEvents)
    if (getOffset(loc) > end && used.contains(name)) {
      error(loc, "macro '" + name +
                     "' is defined again or undefined after "
                     "the stencil function '" +
                     kernel->getName() +
                     "' that uses it, which stencilcc does not support");
      return false;
    }
  checkedKernels.insert(kernel);
  return true;
}

llvm::StringSet<> PhysisReader::getIdentifiers(unsigned begin, unsigned end) {
  StringRef buffer = sm.getBufferData(sm.getMainFileID());
  Lexer lexer(sm.getLocForStartOfFile(sm.getMainFileID()),
              context.getLangOpts(), buffer.begin(), buffer.begin() + begin,
              buffer.end());
  llvm::StringSet<> names;
  Token token;
  while (!lexer.LexFromRawLexer(token) &&
         sm.getFileOffset(token.getLocation()) < end)
    if (token.is(tok::raw_identifier))
      names.insert(token.getRawIdentifier());
  return names;
}

std::optional<PhysisReader::Invocation>
PhysisReader::findInvocation(unsigned inner, bool afterMember,
                             ArrayRef<StringRef> names) {
  StringRef buffer = sm.getBufferData(sm.getMainFileID());
  unsigned at = inner;
  auto skipSpace = [&] {
    while (at > 0 && llvm::isSpace(buffer[at - 1]))
      --at;
  };
  skipSpace();
  unsigned firstArgEnd = inner;
  if (afterMember) {
    if (at == 0 || buffer[at - 1] != ',')
      return std::nullopt;
    firstArgEnd = --at;
    while (at > 0 && (llvm::isAlnum(buffer[at - 1]) || buffer[at - 1] == '_' ||
                      buffer[at - 1] == '.' || buffer[at - 1] == '[' ||
                      buffer[at - 1] == ']' || llvm::isSpace(buffer[at - 1])))
      --at;
  }
  if (at == 0 || buffer[at - 1] != '(')
    return std::nullopt;
  unsigned open = --at;
  skipSpace();
  unsigned nameEnd = at;
  while (at > 0 && (llvm::isAlnum(buffer[at - 1]) || buffer[at - 1] == '_'))
    --at;
  if (!llvm::is_contained(names, buffer.slice(at, nameEnd)))
    return std::nullopt;
  // The closing parenthesis, by raw tokens from the opening one.
  Lexer lexer(sm.getLocForStartOfFile(sm.getMainFileID()),
              context.getLangOpts(), buffer.begin(), buffer.begin() + open,
              buffer.end());
  Token token;
  int depth = 0;
  while (!lexer.LexFromRawLexer(token)) {
    if (token.is(tok::l_paren))
      ++depth;
    else if (token.is(tok::r_paren) && --depth == 0) {
      unsigned close = sm.getFileOffset(token.getLocation());
      if (!afterMember)
        firstArgEnd = inner;
      return Invocation{at, firstArgEnd, close + 1};
    }
  }
  return std::nullopt;
}

bool PhysisReader::readGridArgument(const Expr *arg,
                                    const FunctionDecl *enclosing, Run &run) {
  const VarDecl *var = getReferencedVar(arg);
  if (!var)
    return error(arg->getBeginLoc(), "pass a grid variable here");
  if (RunGrid *known = findGrid(var)) {
    if (!llvm::is_contained(run.grids, known))
      run.grids.push_back(known);
    return true;
  }
  RunGrid grid;
  grid.var = var;
  std::optional<GridType> type = getGridType(var->getType());
  grid.rank = type->rank;
  if (std::optional<StructLayout> layout =
          type->element->isRecordType()
              ? getStructLayout(type->element, context)
              : std::nullopt) {
    grid.elementType = getElementCName(layout->scalar).str();
    grid.components = layout->count;
  } else {
    grid.elementType = getElementCName(*getElementKind(type->element)).str();
  }
  // Sizes known at compile time: from `PSGrid3DFloatNew(N, N, N)` in the
  // variable's initializer, when nothing assigns it afterwards.
  const auto *init =
      var->hasInit() && var->isLocalVarDecl()
          ? dyn_cast<CallExpr>(var->getInit()->IgnoreParenImpCasts())
          : nullptr;
  StringRef creator = init ? getCalleeName(init) : "";
  if (creator.starts_with("PSGrid") && creator.ends_with("New") &&
      init->getNumArgs() >= type->rank &&
      !isChangedIn(var, enclosing->getBody())) {
    for (unsigned axis = 0; axis < type->rank; ++axis) {
      std::optional<int64_t> n = evaluateInteger(init->getArg(axis), context);
      if (!n || *n < 1 || *n > (int64_t(1) << 40)) {
        grid.extents.clear();
        break;
      }
      grid.extents.push_back(*n);
    }
  }
  grids.push_back(grid);
  run.grids.push_back(&grids.back());
  return true;
}

bool PhysisReader::readDomain(const FunctionDecl *enclosing, unsigned rank,
                              RunMap &map, Run &run) {
  const Expr *init = map.domain->IgnoreParenImpCasts();
  if (const VarDecl *var = getReferencedVar(init)) {
    if (var->isLocalVarDecl())
      run.named.insert(var);
    init = var->hasInit() && var->isLocalVarDecl() &&
                   !isChangedIn(var, enclosing->getBody())
               ? var->getInit()->IgnoreParenImpCasts()
               : nullptr;
  }
  const auto *call = init ? dyn_cast<CallExpr>(init) : nullptr;
  StringRef name = call ? getCalleeName(call) : "";
  if (!name.consume_front("PSDomain") || name.size() != 5 ||
      !name.ends_with("DNew")) {
    // Evaluated when the run starts, as written.
    if (getText(map.domain->getSourceRange()).empty())
      return error(map.domain->getBeginLoc(),
                   "write the domain of PSStencilMap in the program, not "
                   "through a macro that expands to several arguments");
    return true;
  }
  unsigned domainRank = name[0] - '0';
  if (domainRank != rank)
    return error(map.domain->getBeginLoc(),
                 "this domain is " + llvm::Twine(domainRank) +
                     "-D but the stencil function '" + map.kernel->getName() +
                     "' is " + llvm::Twine(rank) + "-D");
  for (const Expr *bound : call->arguments()) {
    std::optional<int64_t> value = evaluateInteger(bound, context);
    if (!value || *value < INT32_MIN || *value > INT32_MAX) {
      map.bounds.clear();
      return true;
    }
    map.bounds.push_back(*value);
  }
  for (unsigned axis = 0; axis < rank; ++axis)
    map.empty |= map.bounds[2 * axis] >= map.bounds[2 * axis + 1];
  return true;
}

/// A grid of a lower rank than its run is a coefficient array of the
/// region, of constant sizes, read along loops of constant bounds
/// (checkReach: inside the table and its margin).
bool PhysisReader::checkTable(const Run &run, const RunGrid &table) {
  StringRef name = table.var->getName();
  std::string what = "the " + std::to_string(table.rank) + "-D grid '" +
                     name.str() + "', read by this run's " +
                     std::to_string(run.rank) + "-D stencil functions,";
  if (table.extents.empty())
    return error(run.call->getBeginLoc(),
                 what + " needs its sizes as constants (PSGrid" +
                     std::to_string(table.rank) +
                     "D...New(N, ...) with N known when compiling)");
  if (run.extents.empty())
    return error(run.call->getBeginLoc(),
                 what + " needs the sizes of grid '" +
                     run.shape->var->getName() +
                     "' as constants (not supported yet)");
  for (const RunMap &map : run.maps)
    for (const RunMap::TableRead &read : map.tableReads) {
      if (run.gridOfParam(map, read.table) != &table)
        continue;
      if (map.bounds.empty())
        return error(map.domain->getBeginLoc(),
                     what + " needs this domain as constants (not supported "
                            "yet)");
    }
  return true;
}

/// Reads of tables and slices at the domain's far edge stay inside their
/// storage: the grid and the margin, which is known once every stencil
/// function of the file has been read.
bool PhysisReader::checkReach(const Run &run) {
  auto check = [&](const RunMap &map, const ParmVarDecl *param,
                   const Expr *index, unsigned axis, int64_t offset,
                   int64_t extent) {
    int64_t last = map.bounds[2 * axis + 1] - 1;
    if (last + offset < extent + margin)
      return true;
    std::string grid = run.describeParam(map, param);
    std::string storage = llvm::Twine(extent).str() + " points";
    if (margin)
      storage += " and the margin of " + std::to_string(margin);
    return error(index->getBeginLoc(),
                 "PSGridGet reads " + grid + " at " +
                     llvm::Twine(last + offset) + " when " + kAxisNames[axis] +
                     " = " + llvm::Twine(last) + ", past its " + storage);
  };
  for (const RunMap &map : run.maps) {
    if (map.empty)
      continue;
    for (const RunMap::TableRead &read : map.tableReads) {
      const RunGrid *table = run.gridOfParam(map, read.table);
      if (!check(map, read.table, read.index, read.axis, read.offset,
                 table->extents[read.tableAxis]))
        return false;
    }
    for (const RunMap::SliceRead &read : map.sliceReads) {
      const RunGrid *grid = run.gridOfParam(map, read.grid);
      for (auto [axis, offset] : read.offsets)
        if (!check(map, read.grid, read.call->getArg(axis), axis, offset,
                   grid->extents[axis]))
          return false;
      // The mirrored copy's point x holds the grid's c - x.
      for (auto [axis, base] : read.mirrored)
        if (!check(map, read.grid, read.call->getArg(axis), axis, 0,
                   grid->extents[axis]))
          return false;
    }
  }
  return true;
}

/// Collects the slices the run's maps read (RunMap::SliceRead), and the
/// grids read through slices only. The run copies a slice when it starts:
/// of a grid it does not write, of constant sizes, read over constant
/// domains (checkReach: inside the grid and its margin).
bool PhysisReader::readSlices(Run &run) {
  for (RunMap &map : run.maps)
    for (RunMap::SliceRead &read : map.sliceReads) {
      const RunGrid *grid = run.gridOfParam(map, read.grid);
      StringRef name = grid->var->getName();
      std::string what = run.describeParam(map, read.grid);
      for (const RunMap &other : run.maps)
        if (llvm::is_contained(getEmittedRunGrids(run, other), grid))
          return error(
              read.call->getBeginLoc(),
              "PSGridGet reads " + what +
                  " at a constant or mirrored index, and this run's stencil "
                  "function '" +
                  other.kernel->getName() +
                  "' emits it; such reads take grids the run "
                  "does not write (not supported yet)");
      if (grid->extents.empty())
        return error(
            read.call->getBeginLoc(),
            "PSGridGet reads " + what +
                " at a constant or mirrored index, which needs its sizes as "
                "constants (PSGrid...New(N, ...) with N known when "
                "compiling)");
      if (map.bounds.empty())
        return error(
            map.domain->getBeginLoc(),
            "'" + map.kernel->getName() + "' reads " + what +
                " at a constant or mirrored index, which needs this domain as "
                "constants (not supported yet)");
      if (map.empty)
        continue;
      for (auto [axis, index] : read.fixed)
        if (index < 0 || index >= grid->extents[axis])
          return error(read.call->getArg(axis)->getBeginLoc(),
                       "PSGridGet reads " + what + " at " + kAxisNames[axis] +
                           " = " + llvm::Twine(index) + ", outside its " +
                           llvm::Twine(grid->extents[axis]) + " points");
      const Run::Slice *slice =
          llvm::find_if(run.slices, [&](const Run::Slice &slice) {
            return slice.matches(grid, read);
          });
      if (slice == run.slices.end())
        run.slices.push_back({grid, read.fixed, read.mirrored,
                              "__ps_slice_" + name.str() +
                                  getSliceSuffix(read.fixed, read.mirrored)});
    }
  for (const RunGrid *grid : run.grids) {
    if (grid->isTable(run.rank) || !run.hasSlices(grid))
      continue;
    bool whole = llvm::any_of(run.maps, [&](const RunMap &map) {
      return llvm::any_of(
          llvm::zip_equal(map.kernel->parameters().drop_front(run.rank),
                          map.args),
          [&](auto pair) {
            auto [param, arg] = pair;
            return run.gridOf(arg) == grid && (map.wholeReads.contains(param) ||
                                               map.emits.contains(param));
          });
    });
    if (!whole)
      run.sliceOnly.insert(grid);
  }
  return true;
}

/// Names the region's arrays: a grid keeps its name unless a stencil
/// function of the run uses that name (a parameter, a local, a global it
/// reads), where it would mean something else.
bool PhysisReader::checkRunNames(Run &run) {
  // Grid parameters only name the grid of a read (macros paste them), and
  // coordinates become the loop variables: neither stays in the body.
  llvm::StringSet<> used;
  for (const RunMap &map : run.maps) {
    const auto *body = cast<CompoundStmt>(map.kernel->getBody());
    llvm::StringSet<> gone;
    for (const auto [index, param] : llvm::enumerate(map.kernel->parameters()))
      if (index < run.rank || isGrid(param->getType()))
        gone.insert(param->getName());
    for (const auto &entry : getIdentifiers(getOffset(body->getLBracLoc()),
                                            getOffset(body->getRBracLoc())))
      if (!gone.contains(entry.getKey()))
        used.insert(entry.getKey());
    for (const ParmVarDecl *param : map.kernel->parameters())
      if (!gone.contains(param->getName()))
        used.insert(param->getName());
  }
  for (const RunGrid *grid : run.grids) {
    std::string name = grid->var->getNameAsString();
    run.arrayNames[grid] = used.contains(name) ? "__ps_grid_" + name : name;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// The program written again
//===----------------------------------------------------------------------===//

std::string PhysisReader::writeKernelBody(const Run &run, const RunMap &map) {
  const FunctionDecl *kernel = map.kernel;
  const auto *body = cast<CompoundStmt>(kernel->getBody());
  unsigned begin = getOffset(body->getLBracLoc()) + 1;
  unsigned end = getOffset(body->getRBracLoc());
  // Edits, by offset: coordinates as the loop variables less the margin,
  // PSGridDim as the extent, a final `return;` dropped.
  EditMap edits;
  struct EditFinder : RecursiveASTVisitor<EditFinder> {
    PhysisReader &reader;
    const Run &run;
    const RunMap &map;
    const FunctionDecl *kernel;
    EditMap &edits;
    EditFinder(PhysisReader &reader, const Run &run, const RunMap &map,
               EditMap &edits)
        : reader(reader), run(run), map(map), kernel(map.kernel), edits(edits) {
    }
    bool VisitDeclRefExpr(DeclRefExpr *ref) {
      // `v.p[1]` of a struct local as its component's local.
      auto use = reader.structMemberUses.find(ref);
      if (use != reader.structMemberUses.end()) {
        unsigned from = fileOffset(ref->getLocation());
        edits[from] = {endOfToken(use->second.path->getEndLoc()) - from,
                       reader.structLocals.at(use->second.var).prefix +
                           std::to_string(use->second.component)};
        return true;
      }
      const auto *param = dyn_cast<ParmVarDecl>(ref->getDecl());
      if (!param || param->getDeclContext() != kernel ||
          param->getFunctionScopeIndex() >= run.rank)
        return true;
      SourceLocation loc = reader.sm.getFileLoc(ref->getLocation());
      std::string text =
          "(__" + std::string(kAxisNames[param->getFunctionScopeIndex()]);
      if (reader.margin)
        text += " - " + std::to_string(reader.margin);
      text += ")";
      edits[reader.sm.getFileOffset(loc)] = {(unsigned)param->getName().size(),
                                             text};
      return true;
    }
    unsigned fileOffset(SourceLocation loc) {
      return reader.sm.getFileOffset(reader.sm.getFileLoc(loc));
    }
    unsigned endOfToken(SourceLocation loc) {
      return reader.sm.getFileOffset(
          Lexer::getLocForEndOfToken(reader.sm.getFileLoc(loc), 0, reader.sm,
                                     reader.context.getLangOpts()));
    }
    bool VisitVarDecl(VarDecl *var) {
      if (reader.structLocals.count(var))
        structDecls.push_back(var);
      return true;
    }
    bool VisitCallExpr(CallExpr *call) {
      if (reader.structEmits.count(call))
        structEmitCalls.push_back(call);
      // `PSGridGet(g, x, y, 0)` as `PSGridGet(g__at2_0, x, y, 0)`.
      auto slice = reader.sliceSuffixes.find(call);
      if (slice != reader.sliceSuffixes.end()) {
        const Expr *grid = nullptr;
        getGridAccess(call, grid);
        unsigned at = fileOffset(grid->getBeginLoc());
        edits[at] = {endOfToken(grid->getBeginLoc()) - at,
                     cast<DeclRefExpr>(grid)->getDecl()->getNameAsString() +
                         slice->second};
        // A mirrored index as the coordinate, where the run's copy holds
        // the point it reads: the whole index replaced, coordinate and all.
        const auto *read =
            llvm::find_if(map.sliceReads, [&](const RunMap::SliceRead &read) {
              return read.call == call;
            });
        for (auto mirrored : read->mirrored) {
          CharSourceRange range = Lexer::makeFileCharRange(
              CharSourceRange::getTokenRange(
                  call->getArg(mirrored.first)->getSourceRange()),
              reader.sm, reader.context.getLangOpts());
          unsigned from = reader.sm.getFileOffset(range.getBegin());
          std::string text = "((__" + std::string(kAxisNames[mirrored.first]);
          if (reader.margin)
            text += " - " + std::to_string(reader.margin);
          mirroredEdits.push_back(
              {from,
               {reader.sm.getFileOffset(range.getEnd()) - from, text + "))"}});
        }
        return true;
      }
      // `PSGridGet(g, x, y, z).p[1]` as `__PS_GETC_g(3, x, y, z)`.
      auto read = reader.componentReads.find(call);
      if (read != reader.componentReads.end()) {
        const Expr *grid = nullptr;
        getGridAccess(call, grid);
        unsigned gridAt = fileOffset(grid->getBeginLoc());
        PhysisReader::Invocation get = *reader.findInvocation(
            gridAt, false, {"PSGridGet", "PSGridGetPeriodic"});
        std::string param =
            cast<DeclRefExpr>(grid)->getDecl()->getNameAsString();
        edits[get.begin] = {endOfToken(grid->getBeginLoc()) - get.begin,
                            "__PS_GETC_" + param + "(" +
                                std::to_string(read->second.component)};
        unsigned pathEnd = endOfToken(read->second.path->getEndLoc());
        edits[get.end] = {pathEnd - get.end, ""};
        return true;
      }
      // `PSGridEmitUtype(g.q, v)` as `__PS_EMITC_g(1, v)`.
      auto emit = reader.componentEmits.find(call);
      if (emit != reader.componentEmits.end()) {
        const Expr *value = call->getArg(1)->IgnoreImpCasts();
        if (const auto *paren = dyn_cast<ParenExpr>(value))
          value = paren->getSubExpr();
        PhysisReader::Invocation utype = *reader.findInvocation(
            fileOffset(value->getBeginLoc()), true, {"PSGridEmitUtype"});
        edits[utype.begin] = {utype.firstArgEnd - utype.begin,
                              "__PS_EMITC_" +
                                  emit->second.grid->getNameAsString() + "(" +
                                  std::to_string(emit->second.component)};
        return true;
      }
      if (getCalleeName(call) != "PSGridDim")
        return true;
      int64_t axis = *evaluateInteger(call->getArg(1), reader.context);
      // The grid's own size: a table's, or a grid's smaller than the run's
      // arrays, is a constant; sizes known at run time are all one.
      const auto *param = cast<ParmVarDecl>(
          cast<DeclRefExpr>(call->getArg(0)->IgnoreParenImpCasts())->getDecl());
      const RunGrid *grid = run.gridOfParam(map, param);
      std::string text = grid->extents.empty()
                             ? "__ps_n" + std::string(kAxisNames[axis])
                             : std::to_string(grid->extents[axis]);
      unsigned from =
          reader.sm.getFileOffset(reader.sm.getFileLoc(call->getBeginLoc()));
      unsigned to = reader.sm.getFileOffset(
          Lexer::getLocForEndOfToken(reader.sm.getFileLoc(call->getEndLoc()), 0,
                                     reader.sm, reader.context.getLangOpts()));
      edits[from] = {to - from, "(" + text + ")"};
      return true;
    }
    SmallVector<const VarDecl *> structDecls;
    SmallVector<const CallExpr *> structEmitCalls;
    /// Mirrored indices, which replace the coordinate edits inside them.
    SmallVector<std::pair<unsigned, std::pair<unsigned, std::string>>>
        mirroredEdits;
  } finder(*this, run, map, edits);
  finder.TraverseStmt(const_cast<CompoundStmt *>(body));
  for (auto &[from, edit] : finder.mirroredEdits) {
    edits.erase(edits.lower_bound(from), edits.lower_bound(from + edit.first));
    edits[from] = edit;
  }
  // Struct values as scalar locals, one per component: their declarations
  // and whole emits, written with the edits above inside them.
  StringRef buffer = sm.getBufferData(sm.getMainFileID());
  // `text` in place of buffer[from, to): where either spans lines, the
  // text after it keeps its line through a #line directive (directives may
  // stand between a statement's tokens).
  auto keepLines = [&](unsigned from, unsigned to, std::string text) {
    if (buffer.slice(from, to).contains('\n') || StringRef(text).contains('\n'))
      text += "\n" + lineDirective(sm.getLineNumber(sm.getMainFileID(), to));
    return text;
  };
  // An expression's text, macros it starts or ends with included.
  auto textOf = [&](const Expr *expr) {
    unsigned from =
        finder.fileOffset(sm.getExpansionRange(expr->getBeginLoc()).getBegin());
    unsigned to =
        finder.endOfToken(sm.getExpansionRange(expr->getEndLoc()).getEnd());
    return applyEdits(buffer, from, to, edits);
  };
  for (const VarDecl *var : finder.structDecls) {
    const StructLocal &local = structLocals.at(var);
    const auto *decl = context.getParents(*var)[0].get<DeclStmt>();
    SmallVector<std::string> values(local.layout.count);
    if (const Expr *init = var->getInit()) {
      init = init->IgnoreParenImpCasts();
      if (const auto *list = dyn_cast<InitListExpr>(init)) {
        for (auto [component, element] : llvm::enumerate(list->inits()))
          values[component] = isa<ImplicitValueInitExpr>(element)
                                  ? "0"
                                  : "(" + textOf(element) + ")";
      } else if (const auto *ref = dyn_cast<DeclRefExpr>(init)) {
        const StructLocal &from =
            structLocals.at(cast<VarDecl>(ref->getDecl()));
        for (unsigned component = 0; component < local.layout.count;
             ++component)
          values[component] = from.prefix + std::to_string(component);
      } else {
        // A whole read: `__PS_GETC_g(c, x, y, z)` per component.
        const auto *call = cast<CallExpr>(init);
        const Expr *grid = nullptr;
        getGridAccess(call, grid);
        unsigned gridAt = finder.fileOffset(grid->getBeginLoc());
        Invocation get =
            *findInvocation(gridAt, false, {"PSGridGet", "PSGridGetPeriodic"});
        std::string arguments = applyEdits(
            buffer, finder.endOfToken(grid->getBeginLoc()), get.end, edits);
        std::string param =
            cast<DeclRefExpr>(grid)->getDecl()->getNameAsString();
        for (unsigned component = 0; component < local.layout.count;
             ++component)
          values[component] = "__PS_GETC_" + param + "(" +
                              std::to_string(component) + arguments;
      }
    }
    std::string text = getElementCName(local.layout.scalar).str();
    for (unsigned component = 0; component < local.layout.count; ++component) {
      text +=
          (component ? ", " : " ") + local.prefix + std::to_string(component);
      if (!values[component].empty())
        text += " = " + values[component];
    }
    // The declaration up to its semicolon.
    unsigned from = finder.fileOffset(decl->getBeginLoc());
    unsigned to = finder.fileOffset(decl->getEndLoc());
    edits[from] = {to - from, keepLines(from, to, text)};
  }
  for (const CallExpr *call : finder.structEmitCalls) {
    const StructEmit &emit = structEmits.at(call);
    const StructLocal &local = structLocals.at(emit.var);
    const Expr *grid = nullptr;
    getGridAccess(call, grid);
    Invocation invocation = *findInvocation(
        finder.fileOffset(grid->getBeginLoc()), false, {"PSGridEmit"});
    std::string text;
    for (unsigned component = 0; component < local.layout.count; ++component)
      text += std::string(component ? "; " : "") + "__PS_EMITC_" +
              emit.grid->getNameAsString() + "(" + std::to_string(component) +
              ", " + local.prefix + std::to_string(component) + ")";
    edits[invocation.begin] = {
        invocation.end - invocation.begin,
        keepLines(invocation.begin, invocation.end, text)};
  }
  // Physis stencil functions end with `return;`; a calc body has none.
  if (!body->body_empty())
    if (const auto *ret = dyn_cast<ReturnStmt>(body->body_back()))
      if (!ret->getRetValue() && !ret->getBeginLoc().isMacroID())
        edits[getOffset(ret->getBeginLoc())] = {6, ""};

  std::string text =
      applyEdits(sm.getBufferData(sm.getMainFileID()), begin, end, edits);
  // The body's first line keeps its columns.
  unsigned column = sm.getExpansionColumnNumber(body->getLBracLoc());
  return lineDirective(getLine(body->getLBracLoc())) +
         std::string(column, ' ') + text;
}

std::string PhysisReader::writePeriodicFills(const Run &run,
                                             const RunMap &map) {
  unsigned rank = run.rank;
  std::string out;
  for (const ParmVarDecl *param :
       getAccessedGrids(map.kernel, "__ps_get_periodic")) {
    unsigned index = param->getFunctionScopeIndex() - rank;
    const RunGrid *grid = run.gridOf(map.args[index]);
    // Each component array of a struct grid is filled alike.
    SmallVector<std::string> names;
    if (grid->components)
      for (unsigned c = 0; c < grid->components; ++c)
        names.push_back(run.arrayNames.at(grid) + "[" + std::to_string(c) +
                        "]");
    else
      names.push_back(run.arrayNames.at(grid));
    for (const std::string &name : names)
      // Each margin layer the reads reach takes the cells a period away,
      // axis by axis over the whole stored extent of the others, so the
      // corners come last.
      for (unsigned fixed = rank; fixed-- > 0;) {
        int64_t n = run.extents[fixed];
        std::string loops;
        for (unsigned axis = rank; axis-- > 0;) {
          if (axis == fixed)
            continue;
          std::string var = "__" + std::string(kAxisNames[axis]);
          loops += "    for (" + var + " = 0; " + var + " < " +
                   std::to_string(run.extents[axis] + 2 * margin) + "; " + var +
                   "++)\n";
        }
        auto cell = [&](int64_t at) {
          std::string text = name;
          for (unsigned axis = rank; axis-- > 0;)
            text += axis == fixed ? "[" + std::to_string(at) + "]"
                                  : "[__" + std::string(kAxisNames[axis]) + "]";
          return text;
        };
        // One statement per layer and side: a boundary statement writes one
        // fixed coordinate.
        for (int64_t k = margin - map.periodicReach[fixed]; k < margin; ++k) {
          out += loops + "      " + cell(k) + " = " + cell(k + n) + ";\n";
          out += loops + "      " + cell(n + 2 * margin - 1 - k) + " = " +
                 cell(2 * margin - 1 - k) + ";\n";
        }
      }
  }
  return out;
}

std::string PhysisReader::writeRunFunction(const Run &run, unsigned index,
                                           std::string &prototype,
                                           std::string &call) {
  unsigned rank = run.rank;
  std::string name = "physis_" + run.enclosing->getNameAsString() + "_run" +
                     std::to_string(index);
  std::string where =
      fileName + ":" + std::to_string(getLine(run.call->getBeginLoc()));
  // Which grids some map emits.
  llvm::SmallPtrSet<const VarDecl *, 4> emitted;
  for (const RunMap &map : run.maps) {
    for (auto [param, arg] :
         llvm::zip_equal(map.kernel->parameters().drop_front(rank), map.args))
      if (map.emits.contains(param))
        emitted.insert(getReferencedVar(arg));
  }
  const RunGrid *shape = run.shape;
  bool dynamic = run.extents.empty();
  std::string m = std::to_string(margin);
  auto extent = [&](unsigned axis) {
    return dynamic ? "__ps_n" + std::string(kAxisNames[axis]) +
                         (margin ? " + " + std::to_string(2 * margin) : "")
                   : std::to_string(run.extents[axis] + 2 * margin);
  };
  // A struct grid is its component arrays, one per scalar of the point. A
  // table has its own constant sizes.
  auto dims = [&](const RunGrid *grid) {
    std::string text;
    if (grid->isTable(rank)) {
      for (unsigned axis = grid->rank; axis-- > 0;)
        text += "[" + std::to_string(grid->extents[axis] + 2 * margin) + "]";
      return text;
    }
    for (unsigned axis = rank; axis-- > 0;)
      text += "[" + extent(axis) + "]";
    return text;
  };
  auto declarator = [&](const RunGrid *grid) {
    return grid->elementType + " " + run.arrayNames.at(grid) +
           (grid->components ? "[" + std::to_string(grid->components) + "]"
                             : "") +
           dims(grid);
  };
  std::string storedPoints;
  for (unsigned axis = 0; axis < rank; ++axis)
    storedPoints +=
        std::string(axis ? " * " : "") + "(size_t)(" + extent(axis) + ")";

  // Parameters and the call's arguments, each evaluated once by the call.
  SmallVector<std::string> params, args;
  if (dynamic)
    for (unsigned axis = 0; axis < rank; ++axis) {
      params.push_back("long long __ps_n" + std::string(kAxisNames[axis]));
      args.push_back("PSGridDim(" + shape->var->getNameAsString() + ", " +
                     std::to_string(axis) + ")");
    }
  for (const RunGrid *grid : run.grids) {
    std::string arg = "__PSRunGrid(" + quoted(where) + ", " +
                      grid->var->getNameAsString() + ", " + m + ")";
    // The storage of a grid read through slices, which the run copies.
    if (run.hasSlices(grid)) {
      params.push_back("const void *__ps_slices_" + run.arrayNames.at(grid));
      args.push_back(arg);
    }
    if (!run.isArray(grid) && !grid->isTable(rank))
      continue;
    params.push_back(
        grid->components   ? "void *__ps_points_" + run.arrayNames.at(grid)
        : run.embeds(grid) ? "void *__ps_small_" + run.arrayNames.at(grid)
                           : declarator(grid));
    args.push_back(arg);
  }
  // Scalars under names of their own, which each stencil function's body
  // takes by a macro for its parameter's name.
  std::vector<std::string> scalarDefines(run.maps.size());
  std::vector<std::string> scalarUndefines(run.maps.size());
  for (auto [mapIndex, map] : llvm::enumerate(run.maps)) {
    for (auto [param, arg] :
         llvm::zip_equal(map.kernel->parameters().drop_front(rank), map.args)) {
      if (isGrid(param->getType()))
        continue;
      std::string scalar =
          "__ps_s" + std::to_string(mapIndex) + "_" + param->getNameAsString();
      params.push_back(param->getType().getUnqualifiedType().getAsString() +
                       " " + scalar);
      args.push_back(map.stencil
                         ? getBinding(map.stencil,
                                      param->getFunctionScopeIndex() - rank + 1)
                         : "(" + getText(arg->getSourceRange()) + ")");
      scalarDefines[mapIndex] +=
          "#define " + param->getNameAsString() + " " + scalar + "\n";
      scalarUndefines[mapIndex] += "#undef " + param->getNameAsString() + "\n";
    }
    if (map.bounds.empty()) {
      params.push_back("__PSDomain __ps_d" + std::to_string(mapIndex));
      args.push_back(map.stencil
                         ? getBinding(map.stencil, 0)
                         : "(" + getText(map.domain->getSourceRange()) + ")");
    }
  }
  params.push_back("int __ps_count");
  args.push_back(run.count ? "(" + getText(run.count->getSourceRange()) + ")"
                           : "1");

  std::string signature =
      "static void " + name + "(" + llvm::join(params, ", ") + ")";
  prototype = signature + ";\n";
  // The call: what the compiler could not check first, and the variables
  // the run named, which the program may no longer read otherwise.
  SmallVector<std::string> parts;
  for (const VarDecl *var : run.named)
    parts.push_back("(void)" + var->getNameAsString());
  if (dynamic)
    for (const RunGrid *grid : run.grids)
      if (grid != shape && !grid->isTable(rank))
        parts.push_back("__PSCheckSameShape(" + quoted(where) + ", " +
                        shape->var->getNameAsString() + ", " +
                        grid->var->getNameAsString() + ")");
  parts.push_back(name + "(" + llvm::join(args, ", ") + ")");
  call = "(" + llvm::join(parts, ", ") + ")";

  // Seed 000's meaning: sources are read, destinations written. Where
  // every grid is written (two maps that swap roles), the first is the
  // source; a region may write its sources.
  SmallVector<std::string> sources, destinations;
  bool allEmitted = llvm::all_of(run.grids, [&](const RunGrid *grid) {
    return emitted.contains(grid->var) || !run.isArray(grid);
  });
  // A struct grid's component arrays are written member by member, some
  // maybe not at all: sources, which a region may write. Tables are not
  // data: the region finds them as coefficient arrays.
  for (const RunGrid *grid : run.grids) {
    if (!run.isArray(grid))
      continue;
    (emitted.contains(grid->var) && !grid->components &&
             !(allEmitted && grid == shape)
         ? destinations
         : sources)
        .push_back(declarator(grid));
  }
  unsigned callLine = getLine(run.call->getBeginLoc());
  std::optional<int64_t> count = run.count ? evaluateInteger(run.count, context)
                                           : std::optional<int64_t>(1);
  std::string loops;
  for (unsigned axis = rank; axis-- > 0;)
    loops += std::string(loops.empty() ? "" : ", ") + "__" + kAxisNames[axis];

  std::string out = lineDirective(callLine) + signature + " {\n";
  out += "  int " + loops + ", __ps_step;\n";
  // The stencil functions live on in the program, compiled here.
  llvm::SmallPtrSet<const FunctionDecl *, 4> kernels;
  for (const RunMap &map : run.maps)
    if (kernels.insert(map.kernel).second)
      out += "  (void)" + map.kernel->getNameAsString() + ";\n";
  // Domains known only now, against the grids.
  for (auto [mapIndex, map] : llvm::enumerate(run.maps)) {
    if (!map.bounds.empty())
      continue;
    std::string extents;
    for (unsigned axis = 0; axis < 3; ++axis)
      extents += ", " + (axis >= rank ? std::string("1")
                         : dynamic    ? "__ps_n" + std::string(kAxisNames[axis])
                                      : std::to_string(run.extents[axis]));
    out += "  __PSCheckDomain(" + quoted(where) + ", __ps_d" +
           std::to_string(mapIndex) + ", " + std::to_string(rank) + extents +
           ");\n";
    // And against each smaller grid it emits.
    for (const RunGrid *grid : getEmittedRunGrids(run, map)) {
      if (!run.embeds(grid))
        continue;
      std::string own;
      for (unsigned axis = 0; axis < 3; ++axis)
        own += ", " + std::to_string(axis < rank ? grid->extents[axis] : 1);
      out += "  __PSCheckDomain(" + quoted(where) + ", __ps_d" +
             std::to_string(mapIndex) + ", " + std::to_string(rank) + own +
             ");\n";
    }
  }
  // A red-black half-sweep updates a grid in place from its neighbours of
  // the other colour: it reads a copy of the grid taken before it (a
  // scratch array), which those neighbours share with the grid.
  std::map<const RunGrid *, std::string> scratch;
  for (const RunMap &map : run.maps) {
    if (map.kind == MapKind::Plain)
      continue;
    for (auto [param, arg] :
         llvm::zip_equal(map.kernel->parameters().drop_front(rank), map.args))
      if (map.emits.contains(param) && readsGrid(map.kernel, param))
        if (const RunGrid *grid = run.gridOf(arg))
          scratch[grid] = "__ps_rb_" + run.arrayNames.at(grid);
  }
  for (const auto &[grid, name] : scratch)
    sources.push_back(grid->elementType + " " + name + dims(grid));
  // Struct grids as component arrays for the region, and back after it.
  std::string after;
  for (const auto &[grid, name] : scratch) {
    // A pointer to its rows: `data` gives the outermost extent.
    std::string rows;
    for (unsigned axis = rank - 1; axis-- > 0;)
      rows += "[" + extent(axis) + "]";
    out += "  " + grid->elementType + " (*" + name + ")" + rows + " = (" +
           grid->elementType + " (*)" + rows + ")__PSScratch(" + storedPoints +
           " * sizeof(" + grid->elementType + "));\n";
    after += "  __PSFreeScratch(" + name + ");\n";
  }
  // Slices as tables of their own, copied from their grids' storage (the
  // run does not write those grids); static: they may be large. A copy
  // mirrored along an axis holds at p the grid's point c - p (zero where
  // that is outside the grid's storage); one of the run's rank (mirrored
  // only) is a source array of the region, on the heap.
  for (const Run::Slice &slice : run.slices) {
    const RunGrid *grid = slice.grid;
    auto stored = [&](unsigned axis) {
      return std::to_string(grid->extents[axis] + 2 * margin);
    };
    std::string dims, rows, loops, at, from, inside;
    for (unsigned axis = rank; axis-- > 0;) {
      if (axis + 1 < rank)
        rows += "[" + stored(axis) + "]";
      const auto *fixed = llvm::find_if(
          slice.fixed, [&](auto fixed) { return fixed.first == axis; });
      if (fixed != slice.fixed.end()) {
        from += "[" + std::to_string(fixed->second + margin) + "]";
        continue;
      }
      std::string var = "__" + std::string(kAxisNames[axis]);
      dims += "[" + stored(axis) + "]";
      at += "[" + var + "]";
      const auto *mirrored = llvm::find_if(slice.mirrored, [&](auto mirrored) {
        return mirrored.first == axis;
      });
      if (mirrored != slice.mirrored.end()) {
        std::string source = "(" +
                             std::to_string(mirrored->second + 2 * margin) +
                             " - " + var + ")";
        inside += std::string(inside.empty() ? "" : " && ") + source +
                  " >= 0 && " + source + " < " + stored(axis);
        from += "[" + source + "]";
      } else {
        from += "[" + var + "]";
      }
      loops += "    for (" + var + " = 0; " + var + " < " + stored(axis) +
               "; " + var + "++)\n";
    }
    std::string type = grid->elementType;
    if (slice.isWhole()) {
      out += "  " + type + " (*" + slice.name + ")" + rows + " = (" + type +
             " (*)" + rows + ")__PSScratch(" + storedPoints + " * sizeof(" +
             type + "));\n";
      after += "  __PSFreeScratch(" + slice.name + ");\n";
      sources.push_back(type + " " + slice.name + dims);
    } else {
      out += "  static " + type + " " + slice.name + dims + ";\n";
    }
    std::string value = "__ps_from" + from;
    if (!inside.empty())
      value = "(" + inside + ") ? " + value + " : (" + type + ")0";
    out += "  {\n    const " + type + " (*__ps_from)" + rows + " = (const " +
           type + " (*)" + rows + ")__ps_slices_" + run.arrayNames.at(grid) +
           ";\n" + loops + "      " + slice.name + at + " = " + value +
           ";\n  }\n";
  }
  // Grids smaller than the run's arrays in arrays of their shape, and back
  // after it when some map emits them.
  for (const RunGrid *grid : run.grids) {
    if (!run.embeds(grid))
      continue;
    std::string array = run.arrayNames.at(grid);
    std::string rows;
    for (unsigned axis = rank - 1; axis-- > 0;)
      rows += "[" + extent(axis) + "]";
    std::string sizes;
    for (unsigned axis = 0; axis < 3; ++axis)
      sizes += ", " + std::to_string(
                          axis < rank ? grid->extents[axis] + 2 * margin : 1);
    for (unsigned axis = 0; axis < 3; ++axis)
      sizes += ", " + (axis < rank ? extent(axis) : std::string("1"));
    std::string type = grid->elementType;
    out += "  " + type + " (*" + array + ")" + rows + " = (" + type + " (*)" +
           rows + ")__PSEmbed(__ps_small_" + array + ", sizeof(" + type + ")" +
           sizes + ");\n";
    after += "  __PSUnembed(__ps_small_" + array + ", " + array + ", " +
             (emitted.contains(grid->var) ? "1" : "0") + ", sizeof(" + type +
             ")" + sizes + ");\n";
  }
  for (const RunGrid *grid : run.grids) {
    if (!grid->components)
      continue;
    std::string array = run.arrayNames.at(grid);
    std::string scalar = grid->elementType;
    std::string count = std::to_string(grid->components);
    out += "  " + scalar + " (*" + array + ")" + dims(grid) + " = (" + scalar +
           " (*)" + dims(grid) + ")__PSToComponents(__ps_points_" + array +
           ", " + storedPoints + ", " + count + ", sizeof(" + scalar + "));\n";
    after += "  __PSFromComponents(__ps_points_" + array + ", " + array + ", " +
             storedPoints + ", " + count + ", sizeof(" + scalar + "));\n";
  }
  out += "#pragma stencil begin\n";
  out += "#pragma stencil step(__ps_step:" +
         std::to_string(count && *count > 0 ? *count : 100) + ")\n";
  out += "#pragma stencil data source(" + llvm::join(sources, ", ") + ")";
  if (!destinations.empty())
    out += " destination(" + llvm::join(destinations, ", ") + ")";
  out += "\n#pragma stencil dimension(" + loops + ")\n";
  // Periodic margins are filled from the other side of the grid, which a
  // rank's block does not hold: such runs are computed whole on every rank
  // (each holds the whole grids), not split.
  bool periodic = llvm::any_of(run.maps, [](const RunMap &map) {
    return !getAccessedGrids(map.kernel, "__ps_get_periodic").empty();
  });
  if (distributed && !periodic) {
    out += "#pragma stencil distribute(block";
    for (unsigned axis = 1; axis < rank; ++axis)
      out += ", *";
    out += ")\n";
  }
  out += "  for (__ps_step = 0; __ps_step < __ps_count; __ps_step++) {\n";
  for (auto [mapIndex, map] : llvm::enumerate(run.maps)) {
    if (map.empty)
      continue;
    // Each grid parameter reads and writes the grid bound to it.
    std::string defines = scalarDefines[mapIndex];
    std::string undefines = scalarUndefines[mapIndex];
    for (auto [param, arg] :
         llvm::zip_equal(map.kernel->parameters().drop_front(rank), map.args)) {
      if (!isGrid(param->getType()))
        continue;
      const RunGrid *bound = run.gridOf(arg);
      std::string array = run.arrayNames.at(bound);
      std::string p = param->getNameAsString();
      std::string indices, subscripts, point;
      for (unsigned axis = 0; axis < bound->rank; ++axis)
        indices +=
            std::string(axis ? ", " : "") + "__ps_i" + std::to_string(axis);
      for (unsigned axis = bound->rank; axis-- > 0;) {
        subscripts += "[(__ps_i" + std::to_string(axis) + ")" +
                      (margin ? " + " + m : "") + "]";
        point += "[__" + std::string(kAxisNames[axis]) + "]";
      }
      if (bound->isTable(rank)) {
        defines += "#define __PS_GET_" + p + "(" + indices + ") " + array +
                   subscripts + "\n";
        undefines += "#undef __PS_GET_" + p + "\n";
        continue;
      }
      if (getGridType(param->getType())->element->isRecordType()) {
        defines += "#define __PS_GETC_" + p + "(__ps_c, " + indices + ") " +
                   array + "[__ps_c]" + subscripts + "\n";
        defines += "#define __PS_EMITC_" + p + "(__ps_c, __ps_v) " + array +
                   "[__ps_c]" + point + " = (__ps_v)\n";
        undefines +=
            "#undef __PS_GETC_" + p + "\n#undef __PS_EMITC_" + p + "\n";
        continue;
      }
      std::string readArray = map.kind != MapKind::Plain &&
                                      scratch.count(bound) &&
                                      map.emits.contains(param)
                                  ? scratch.at(bound)
                                  : array;
      defines += "#define __PS_GET_" + p + "(" + indices + ") " + readArray +
                 subscripts + "\n";
      defines += "#define __PS_EMIT_" + p + "(__ps_v) " + array + point +
                 " = (__ps_v)\n";
      undefines += "#undef __PS_GET_" + p + "\n#undef __PS_EMIT_" + p + "\n";
    }
    // A slice read names its grid with the slice's suffix (EditFinder):
    // all of its indices in, the slice's subscripts out.
    llvm::StringSet<> sliceMacros;
    for (const RunMap::SliceRead &read : map.sliceReads) {
      std::string macro = "__PS_GET_" + read.grid->getNameAsString() +
                          getSliceSuffix(read.fixed, read.mirrored);
      if (!sliceMacros.insert(macro).second)
        continue;
      const RunGrid *grid = run.gridOfParam(map, read.grid);
      const Run::Slice *slice = llvm::find_if(
          run.slices, [&](auto &slice) { return slice.matches(grid, read); });
      std::string indices, subscripts;
      for (unsigned axis = 0; axis < rank; ++axis)
        indices +=
            std::string(axis ? ", " : "") + "__ps_i" + std::to_string(axis);
      for (unsigned axis = rank; axis-- > 0;)
        if (llvm::none_of(read.fixed,
                          [&](auto fixed) { return fixed.first == axis; }))
          subscripts += "[(__ps_i" + std::to_string(axis) + ")" +
                        (margin ? " + " + m : "") + "]";
      defines += "#define " + macro + "(" + indices + ") " + slice->name +
                 subscripts + "\n";
      undefines += "#undef " + macro + "\n";
    }
    out += "#line 1 \"<physis regions>\"\n" + defines + lineDirective(callLine);
    // Plain maps sweep once; red-black ones sweep the points whose
    // coordinates sum to an even number (red), then the odd ones.
    SmallVector<int, 2> parities;
    switch (map.kind) {
    case MapKind::Plain:
      parities = {-1};
      break;
    case MapKind::RedBlack:
      parities = {0, 1};
      break;
    case MapKind::Red:
      parities = {0};
      break;
    case MapKind::Black:
      parities = {1};
      break;
    }
    for (int parity : parities) {
      out += writePeriodicFills(run, map);
      for (auto [param, arg] : llvm::zip_equal(
               map.kernel->parameters().drop_front(rank), map.args)) {
        const RunGrid *bound = run.gridOf(arg);
        if (parity < 0 || !bound || !scratch.count(bound) ||
            !map.emits.contains(param))
          continue;
        out += "#pragma stencil calc\n";
        std::string point;
        for (unsigned axis = rank; axis-- > 0;) {
          std::string var = "__" + std::string(kAxisNames[axis]);
          out += "    for (" + var + " = 0; " + var + " < " + extent(axis) +
                 "; " + var + "++)\n";
          point += "[" + var + "]";
        }
        out += "      " + scratch.at(bound) + point + " = " +
               run.arrayNames.at(bound) + point + ";\n";
      }
      out += "#pragma stencil calc\n";
      for (unsigned axis = rank; axis-- > 0;) {
        std::string var = "__" + std::string(kAxisNames[axis]);
        std::string lo, hi;
        if (!map.bounds.empty()) {
          lo = std::to_string(map.bounds[2 * axis] + margin);
          hi = std::to_string(map.bounds[2 * axis + 1] + margin);
        } else {
          std::string d = "__ps_d" + std::to_string(mapIndex);
          std::string at = "[" + std::to_string(axis) + "]";
          lo = d + ".min" + at + (margin ? " + " + m : "");
          hi = d + ".max" + at + (margin ? " + " + m : "");
        }
        out += "    for (" + var + " = " + lo + "; " + var + " < " + hi + "; " +
               var + "++)\n";
      }
      std::string body = writeKernelBody(run, map);
      if (parity >= 0) {
        std::string sum;
        for (unsigned axis = 0; axis < rank; ++axis)
          sum += std::string(axis ? " + " : "") + "(__" + kAxisNames[axis] +
                 (margin ? " - " + m : "") + ")";
        body = "    if (((" + sum + ") & 1) == " + std::to_string(parity) +
               ") {\n" + body + "\n" + lineDirective(callLine) + "    }";
      }
      out += "    {\n" + body + "\n" + lineDirective(callLine) + "    }\n";
    }
    out +=
        "#line 1 \"<physis regions>\"\n" + undefines + lineDirective(callLine);
  }
  out += "  }\n#pragma stencil end\n" + after + "}\n";
  return out;
}

std::string PhysisReader::write() {
  StringRef buffer = sm.getBufferData(sm.getMainFileID());
  // Replacements in the program, by offset: each run by its call, each
  // run function's prototype before the function holding the run.
  EditMap edits;
  std::string functions =
      "\n/* stencil-mlir: the Physis runs as regions. */\n"
      "#line 1 \"<physis regions>\"\n"
      "#undef PSGridGet\n"
      "#define PSGridGet(g, ...) __PS_GET_##g(__VA_ARGS__)\n"
      "#undef PSGridGetPeriodic\n"
      "#define PSGridGetPeriodic(g, ...) "
      "__PS_GET_##g(__VA_ARGS__)\n"
      "#undef PSGridEmit\n"
      "#define PSGridEmit(g, v) __PS_EMIT_##g(v)\n";
  std::map<unsigned, std::string> prototypes;
  for (auto [index, run] : llvm::enumerate(runs)) {
    CharSourceRange range = sm.getExpansionRange(run.call->getSourceRange());
    unsigned from = sm.getFileOffset(range.getBegin());
    unsigned to = sm.getFileOffset(Lexer::getLocForEndOfToken(
        range.getEnd(), 0, sm, context.getLangOpts()));
    std::string call;
    if (llvm::all_of(run.maps, [](const RunMap &map) { return map.empty; })) {
      // Domains without points: nothing to run.
      SmallVector<std::string> parts;
      for (const VarDecl *var : run.named)
        parts.push_back("(void)" + var->getNameAsString());
      parts.push_back("(void)0");
      call = "(" + llvm::join(parts, ", ") + ")";
    } else {
      std::string prototype;
      functions += writeRunFunction(run, index, prototype, call);
      SourceLocation start = sm.getExpansionLoc(run.enclosing->getBeginLoc());
      unsigned lineStart =
          getOffset(start) - (sm.getExpansionColumnNumber(start) - 1);
      prototypes[lineStart] += prototype;
    }
    // The lines the run spanned, so that the rest keeps its numbers.
    call += std::string(buffer.slice(from, to).count('\n'), '\n');
    edits[from] = {to - from, call};
  }
  for (auto &[offset, text] : prototypes)
    edits[offset] = {
        0, text + lineDirective(sm.getLineNumber(sm.getMainFileID(), offset))};
  // Each stored stencil's domain and scalars, kept as they are where it is
  // made (on the same line, which keeps the numbering).
  for (const auto &[var, declStmt] : stencilDecls) {
    const auto *call = cast<CallExpr>(var->getInit()->IgnoreParenImpCasts());
    std::string text;
    for (unsigned i = 1; i < call->getNumArgs(); ++i) {
      const Expr *arg = call->getArg(i);
      if (isGrid(arg->IgnoreParenImpCasts()->getType()))
        continue;
      std::string value = getText(arg->getSourceRange());
      std::string name = getBinding(var, i - 1);
      text += " __typeof__(" + value + ") " + name + " = (" + value +
              "); (void)" + name + ";";
    }
    unsigned end = sm.getFileOffset(
        Lexer::getLocForEndOfToken(sm.getExpansionLoc(declStmt->getEndLoc()), 0,
                                   sm, context.getLangOpts()));
    edits[end] = {0, text};
  }

  std::string out = "#define PHYSIS_MARGIN " + std::to_string(margin) + "\n" +
                    lineDirective(1);
  out += applyEdits(buffer, 0, buffer.size(), edits);
  if (!out.empty() && out.back() != '\n')
    out += '\n';
  return out + functions;
}

class PhysisConsumer : public ASTConsumer {
public:
  PhysisConsumer(
      StringRef fileName, bool distributed, PhysisProgram &result,
      const std::vector<std::pair<std::string, SourceLocation>> &macroEvents)
      : fileName(fileName), distributed(distributed), result(result),
        macroEvents(macroEvents) {}
  void HandleTranslationUnit(ASTContext &context) override {
    if (context.getDiagnostics().hasErrorOccurred())
      return;
    PhysisReader reader(context, fileName, distributed, macroEvents);
    if (!reader.read())
      return;
    result.source = reader.write();
    result.margin = reader.getMargin();
  }

private:
  std::string fileName;
  bool distributed;
  PhysisProgram &result;
  const std::vector<std::pair<std::string, SourceLocation>> &macroEvents;
};

class PhysisAction : public ASTFrontendAction {
public:
  PhysisAction(PhysisProgram &result, bool distributed, bool silence)
      : result(result), distributed(distributed), silence(silence) {}
  bool BeginSourceFileAction(CompilerInstance &ci) override {
    if (silence)
      ci.getDiagnostics().setClient(new IgnoringDiagConsumer(),
                                    /*ShouldOwnClient=*/true);
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<MacroEvents>(ci.getSourceManager(), macroEvents));
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef file) override {
    return std::make_unique<PhysisConsumer>(file, distributed, result,
                                            macroEvents);
  }

private:
  PhysisProgram &result;
  bool distributed;
  bool silence;
  std::vector<std::pair<std::string, SourceLocation>> macroEvents;
};

} // namespace

bool mlir::stencil::pragma_c::isChangedIn(const VarDecl *var,
                                          const Stmt *body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *var;
    bool changed = false;
    bool refersTo(const Expr *expr) {
      while (true) {
        expr = expr->IgnoreParenImpCasts();
        if (const auto *member = dyn_cast<MemberExpr>(expr))
          expr = member->getBase();
        else if (const auto *element = dyn_cast<ArraySubscriptExpr>(expr))
          expr = element->getBase();
        else
          break;
      }
      const auto *ref = dyn_cast<DeclRefExpr>(expr);
      return ref && ref->getDecl() == var;
    }
    bool VisitBinaryOperator(BinaryOperator *op) {
      if (op->isAssignmentOp() && refersTo(op->getLHS()))
        changed = true;
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *op) {
      if ((op->isIncrementDecrementOp() || op->getOpcode() == UO_AddrOf) &&
          refersTo(op->getSubExpr()))
        changed = true;
      return true;
    }
  } finder;
  finder.var = var;
  finder.TraverseStmt(const_cast<Stmt *>(body));
  return finder.changed;
}

std::optional<PhysisProgram> mlir::stencil::pragma_c::translatePhysis(
    StringRef source, StringRef fileName,
    const std::vector<std::string> &clangArgs, bool distributed, bool silence) {
  PhysisProgram result;
  std::string unrolled = unrollStencilLoops(source, fileName, clangArgs);
  bool ok = tooling::runToolOnCodeWithArgs(
      std::make_unique<PhysisAction>(result, distributed, silence), unrolled,
      clangArgs, fileName, "stencil-translate");
  if (!ok || result.source.empty())
    return std::nullopt;
  return result;
}

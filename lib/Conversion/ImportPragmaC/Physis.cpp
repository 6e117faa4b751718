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

#include "Stencil/Support/InstallPaths.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <map>

using namespace clang;
using namespace mlir::stencil::pragma_c;
using llvm::SmallVector;
using llvm::StringRef;

#ifndef STENCIL_CLANG_RESOURCE_DIR
#define STENCIL_CLANG_RESOURCE_DIR ""
#endif

bool mlir::stencil::pragma_c::includesPhysisHeader(StringRef source) {
  llvm::Regex include("^[ \t]*#[ \t]*include[ \t]*[<\"]physis/physis\\.h[>\"]",
                      llvm::Regex::Newline);
  return include.match(source);
}

namespace {

constexpr const char *kAxisNames[] = {"x", "y", "z"};

/// How a map visits its domain.
enum class MapKind { Plain, RedBlack, Red, Black };

/// One grid a run uses: a variable of the program.
struct RunGrid {
  const VarDecl *var;
  std::string elementType;
  unsigned rank;
  /// Extents, x first, when the grid's creation gives them as constants.
  SmallVector<int64_t, 3> extents;
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
};

struct Run {
  const CallExpr *call;
  const FunctionDecl *enclosing;
  SmallVector<RunMap, 2> maps;
  const Expr *count = nullptr;
};

/// The rank of a grid handle type (`PSGrid3DFloat`), or 0.
unsigned getGridRank(QualType type) {
  const auto *pointer = type.getCanonicalType()->getAs<PointerType>();
  if (!pointer)
    return 0;
  const RecordDecl *record = pointer->getPointeeType()->getAsRecordDecl();
  if (!record)
    return 0;
  StringRef name = record->getName();
  if (!name.consume_front("__PSGrid") || name.size() < 2 || name[1] != 'D')
    return 0;
  if (name[0] < '1' || name[0] > '3')
    return 0;
  return name[0] - '0';
}

/// The element type of a grid handle type: the return type of its
/// `__ps_get` member.
QualType getGridElementType(QualType type) {
  const RecordDecl *record = type.getCanonicalType()
                                 ->getAs<PointerType>()
                                 ->getPointeeType()
                                 ->getAsRecordDecl();
  for (const FieldDecl *field : record->fields())
    if (field->getName() == "__ps_get")
      if (const auto *fn = field->getType()
                               ->getPointeeType()
                               ->getAs<clang::FunctionProtoType>())
        return fn->getReturnType();
  return {};
}

/// The callee's name of a call of a named function, or "".
StringRef getCalleeName(const CallExpr *call) {
  if (const FunctionDecl *callee = call->getDirectCallee())
    if (callee->getDeclName().isIdentifier())
      return callee->getName();
  return "";
}

/// The member a grid access calls (`__ps_get`, `__ps_get_periodic`,
/// `__ps_emit`) and the grid it reads, for the expansion of PSGridGet,
/// PSGridGetPeriodic and PSGridEmit.
StringRef getGridAccess(const CallExpr *call, const DeclRefExpr *&grid) {
  const auto *member =
      dyn_cast<MemberExpr>(call->getCallee()->IgnoreParenImpCasts());
  if (!member || !member->getMemberDecl()->getDeclName().isIdentifier())
    return "";
  StringRef name = member->getMemberDecl()->getName();
  if (name != "__ps_get" && name != "__ps_get_periodic" && name != "__ps_emit")
    return "";
  grid = dyn_cast<DeclRefExpr>(member->getBase()->IgnoreParenImpCasts());
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
      const DeclRefExpr *grid = nullptr;
      if (getGridAccess(call, grid) == member && grid)
        if (const auto *param = dyn_cast<ParmVarDecl>(grid->getDecl()))
          params.insert(param);
      return true;
    }
  } finder;
  finder.member = member;
  finder.TraverseStmt(kernel->getBody());
  return finder.params;
}

/// Whether `var` is assigned, incremented or has its address taken in
/// `body` (then its initializer does not tell its value).
bool isChangedIn(const VarDecl *var, const Stmt *body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *var;
    bool changed = false;
    bool refersTo(const Expr *expr) {
      const auto *ref = dyn_cast<DeclRefExpr>(expr->IgnoreParenImpCasts());
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

class PhysisReader {
public:
  PhysisReader(ASTContext &context, StringRef fileName, bool distributed)
      : context(context), sm(context.getSourceManager()),
        diags(context.getDiagnostics()), fileName(fileName),
        distributed(distributed) {}

  /// Finds and checks every run; false after reporting an error.
  bool read();
  /// The program with each run replaced.
  std::string write();

private:
  bool readRun(const CallExpr *call, const FunctionDecl *enclosing);
  bool readMap(const Expr *arg, const FunctionDecl *enclosing, RunMap &map);
  bool readKernel(const RunMap &map, unsigned &rank);
  bool readGridArgument(const Expr *arg, const ParmVarDecl *param,
                        const FunctionDecl *enclosing, Run &run);
  bool readDomain(const Expr *domain, unsigned rank,
                  const FunctionDecl *enclosing, RunMap &map);
  bool checkKernelBody(const FunctionDecl *kernel, unsigned rank);

  std::string writeRunFunction(const Run &run, unsigned index,
                               std::string &prototype, std::string &callArgs);
  std::string writeKernelBody(const Run &run, const RunMap &map,
                              unsigned mapIndex);
  std::string writePeriodicFills(const Run &run, const RunMap &map,
                                 unsigned rank);

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
  std::string lineDirective(unsigned line) {
    std::string escaped;
    for (char c : fileName) {
      if (c == '\\' || c == '"')
        escaped += '\\';
      escaped += c;
    }
    return "#line " + std::to_string(line) + " \"" + escaped + "\"\n";
  }
  /// The text of an expression as written, also where it is an argument
  /// of a macro (PSStencilMap's).
  StringRef getText(SourceRange range) {
    CharSourceRange chars = CharSourceRange::getTokenRange(
        sm.getFileLoc(range.getBegin()), sm.getFileLoc(range.getEnd()));
    return Lexer::getSourceText(chars, sm, context.getLangOpts());
  }

  ASTContext &context;
  SourceManager &sm;
  DiagnosticsEngine &diags;
  std::string fileName;
  /// For `stencilcc --mpi`: the runs split their grids' outermost axis
  /// across the ranks, as Physis does across nodes.
  bool distributed;
  std::vector<Run> runs;
  /// Every grid a run uses, by variable, in order of first use.
  std::vector<RunGrid> grids;
  /// The widest offset any stencil function reads at.
  int64_t margin = 0;
  /// The grid whose shape the run being written has.
  const RunGrid *runShape = nullptr;

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
    bool ok = true;
    RunFinder(PhysisReader &reader, SourceManager &sm)
        : reader(reader), sm(sm) {}
    bool TraverseFunctionDecl(FunctionDecl *decl) {
      if (!decl->hasBody() ||
          !sm.isInMainFile(sm.getExpansionLoc(decl->getLocation())))
        return true;
      function = decl;
      return RecursiveASTVisitor::TraverseFunctionDecl(decl);
    }
    bool VisitCallExpr(CallExpr *call) {
      if (function && getCalleeName(call) == "PSStencilRun")
        ok &= reader.readRun(call, function);
      return true;
    }
  } finder(*this, sm);
  finder.TraverseDecl(context.getTranslationUnitDecl());
  return finder.ok && !diags.hasErrorOccurred();
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
      break;
    }
    RunMap map;
    if (!readMap(arg, enclosing, map))
      return false;
    run.maps.push_back(map);
  }
  // Every map applies over one rank; its grids are the run's.
  unsigned rank = 0;
  for (RunMap &map : run.maps) {
    unsigned mapRank;
    if (!readKernel(map, mapRank))
      return false;
    if (rank && mapRank != rank)
      return error(map.call->getBeginLoc(),
                   "this stencil function is " + llvm::Twine(mapRank) +
                       "-D but the run's first is " + llvm::Twine(rank) +
                       "-D; the stencils of one PSStencilRun must have one "
                       "rank");
    rank = mapRank;
    if (!readDomain(map.domain, rank, enclosing, map))
      return false;
    unsigned numCoordinates = rank;
    for (auto [param, arg] : llvm::zip_equal(
             map.kernel->parameters().drop_front(numCoordinates), map.args))
      if (getGridRank(param->getType()) &&
          !readGridArgument(arg, param, enclosing, run))
        return false;
  }
  if (llvm::none_of(run.maps, [](const RunMap &map) {
        return llvm::any_of(map.kernel->parameters(), [](const ParmVarDecl *p) {
          return getGridRank(p->getType()) != 0;
        });
      }))
    return error(call->getBeginLoc(), "the stencils of this run take no grid");
  // One shape for all of a run's grids: a region's arrays have one.
  const RunGrid *first = nullptr;
  for (const RunGrid &grid : grids) {
    bool used = false;
    for (const RunMap &map : run.maps)
      for (const Expr *arg : map.args)
        if (getReferencedVar(arg) == grid.var)
          used = true;
    if (!used)
      continue;
    if (!first) {
      first = &grid;
      continue;
    }
    if (!grid.extents.empty() && !first->extents.empty() &&
        grid.extents != first->extents)
      return error(call->getBeginLoc(),
                   "the grids '" + first->var->getName() + "' and '" +
                       grid.var->getName() +
                       "' of this run differ in shape; the grids of one "
                       "PSStencilRun must have one shape (not supported "
                       "yet)");
    if (grid.extents.empty() != first->extents.empty())
      return error(
          call->getBeginLoc(),
          "the sizes of grid '" +
              (grid.extents.empty() ? grid.var : first->var)->getName() +
              "' are not constants where those of '" +
              (grid.extents.empty() ? first->var : grid.var)->getName() +
              "' are; create the grids of one PSStencilRun alike");
  }
  // A constant domain inside the grids of constant size it is applied to.
  for (const RunMap &map : run.maps) {
    if (map.bounds.empty())
      continue;
    for (const Expr *arg : map.args) {
      const RunGrid *grid = findGrid(getReferencedVar(arg));
      if (!grid || grid->extents.empty())
        continue;
      for (unsigned axis = 0; axis < rank; ++axis)
        if (map.bounds[2 * axis] < 0 ||
            map.bounds[2 * axis + 1] > grid->extents[axis])
          return error(
              map.domain->getBeginLoc(),
              "this domain runs from " + llvm::Twine(map.bounds[2 * axis]) +
                  " to " + llvm::Twine(map.bounds[2 * axis + 1]) + " along " +
                  kAxisNames[axis] + ", outside grid '" + grid->var->getName() +
                  "' (" + llvm::Twine(grid->extents[axis]) + " points)");
    }
  }
  // A periodic read finds its value in the margin, which the region fills
  // from the other side: sizes it knows, and a margin they can fill.
  for (const RunMap &map : run.maps)
    for (const ParmVarDecl *param :
         getAccessedGrids(map.kernel, "__ps_get_periodic")) {
      const RunGrid *grid = findGrid(
          getReferencedVar(map.args[param->getFunctionScopeIndex() - rank]));
      if (distributed)
        return error(map.call->getBeginLoc(),
                     "'" + map.kernel->getName() + "' reads grid '" +
                         grid->var->getName() +
                         "' with PSGridGetPeriodic, which is not supported "
                         "under --mpi yet (it runs on one process)");
      if (grid->extents.empty())
        return error(map.call->getBeginLoc(),
                     "'" + map.kernel->getName() + "' reads grid '" +
                         grid->var->getName() +
                         "' with PSGridGetPeriodic, which needs its sizes "
                         "as constants (PSGrid...New(N, ...) with N known "
                         "when compiling)");
      for (int64_t extent : grid->extents)
        if (extent < margin)
          return error(
              map.call->getBeginLoc(),
              "grid '" + grid->var->getName() + "' has " + llvm::Twine(extent) +
                  " points along an axis, fewer than the widest "
                  "offset read (" +
                  llvm::Twine(margin) + "), which a periodic read cannot wrap");
    }
  runs.push_back(std::move(run));
  return true;
}

bool PhysisReader::readMap(const Expr *arg, const FunctionDecl *enclosing,
                           RunMap &map) {
  // A stencil kept in a variable: its initializer, when nothing changes it.
  if (const VarDecl *var = getReferencedVar(arg)) {
    if (var->hasInit() && !isa<ParmVarDecl>(var) &&
        !isChangedIn(var, enclosing->getBody()))
      return readMap(var->getInit()->IgnoreParenImpCasts(), enclosing, map);
    return error(arg->getBeginLoc(),
                 "the stencil '" + var->getName() +
                     "' must be initialized with PSStencilMap(...) in this "
                     "function and not changed");
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
  if (!map.kernel)
    return error(kernelRef->getBeginLoc(),
                 "the stencil function '" + kernel->getName() +
                     "' must be defined in this file");
  if (*kind != MapKind::Plain)
    return error(call->getBeginLoc(),
                 "red-black stencils (PSStencilMapRedBlack, PSStencilMapRed, "
                 "PSStencilMapBlack) are not supported yet");
  map.domain = call->getArg(1);
  for (unsigned i = 2; i < call->getNumArgs(); ++i)
    map.args.push_back(call->getArg(i));
  return true;
}

bool PhysisReader::readKernel(const RunMap &map, unsigned &rank) {
  const FunctionDecl *kernel = map.kernel;
  if (!kernel->getReturnType()->isVoidType())
    return error(kernel->getLocation(), "the stencil function '" +
                                            kernel->getName() +
                                            "' must return void");
  // The coordinates come first: integer parameters.
  rank = 0;
  for (const ParmVarDecl *param : kernel->parameters()) {
    if (!param->getType()->isIntegerType())
      break;
    ++rank;
  }
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
    if (unsigned gridRank = getGridRank(type)) {
      if (gridRank != rank)
        return error(param->getLocation(),
                     "'" + param->getName() + "' is a " +
                         llvm::Twine(gridRank) + "-D grid in a " +
                         llvm::Twine(rank) +
                         "-D stencil function; grids of another rank than "
                         "the stencil's are not supported yet");
      if (!context.hasSameUnqualifiedType(arg->IgnoreParenImpCasts()->getType(),
                                          type))
        return error(arg->getBeginLoc(),
                     "this argument is a '" +
                         arg->IgnoreParenImpCasts()->getType().getAsString() +
                         "' but '" + param->getName() + "' of '" +
                         kernel->getName() + "' is a '" + type.getAsString() +
                         "'");
      continue;
    }
    if (!type->isArithmeticType())
      return error(param->getLocation(),
                   "'" + param->getName() +
                       "' must be a grid or a number: stencil functions "
                       "take no other arguments");
    if (!arg->IgnoreParenImpCasts()->getType()->isArithmeticType())
      return error(arg->getBeginLoc(), "'" + param->getName() + "' of '" +
                                           kernel->getName() +
                                           "' takes a number");
  }
  return checkKernelBody(kernel, rank);
}

bool PhysisReader::checkKernelBody(const FunctionDecl *kernel, unsigned rank) {
  struct Checker : RecursiveASTVisitor<Checker> {
    PhysisReader &reader;
    const FunctionDecl *kernel;
    unsigned rank;
    llvm::SmallPtrSet<const DeclRefExpr *, 8> gridUses;
    bool ok = true;
    Checker(PhysisReader &reader, const FunctionDecl *kernel, unsigned rank)
        : reader(reader), kernel(kernel), rank(rank) {}

    bool VisitCallExpr(CallExpr *call) {
      const DeclRefExpr *grid = nullptr;
      StringRef access = getGridAccess(call, grid);
      if (access.empty()) {
        if (getCalleeName(call) == "PSGridDim")
          return visitGridDim(call);
        return true;
      }
      if (!grid || !isa<ParmVarDecl>(grid->getDecl()))
        return fail(call->getBeginLoc(),
                    "grids are read and written through the stencil "
                    "function's grid parameters");
      gridUses.insert(grid);
      if (access == "__ps_emit")
        return true;
      for (unsigned axis = 0; axis < call->getNumArgs(); ++axis) {
        const ParmVarDecl *coordinate = kernel->getParamDecl(axis);
        std::optional<int64_t> offset =
            getOffsetFrom(call->getArg(axis), coordinate, reader.context);
        if (!offset)
          return fail(call->getArg(axis)->getBeginLoc(),
                      "index " + llvm::Twine(axis + 1) +
                          " of PSGridGet must be '" + coordinate->getName() +
                          "' plus or minus a constant (the stencil "
                          "function's coordinate along that axis)");
        reader.margin = std::max(reader.margin, std::abs(*offset));
      }
      return true;
    }
    // A region's nest computes every point without branching out of it.
    bool VisitForStmt(ForStmt *loop) { return failLoop(loop); }
    bool VisitWhileStmt(WhileStmt *loop) { return failLoop(loop); }
    bool VisitDoStmt(DoStmt *loop) { return failLoop(loop); }
    bool failLoop(Stmt *loop) {
      return fail(loop->getBeginLoc(),
                  "loops in stencil functions are not supported yet (a "
                  "point's value is computed without one)");
    }
    bool VisitReturnStmt(ReturnStmt *ret) {
      const auto *body = cast<CompoundStmt>(kernel->getBody());
      if (body->body_empty() || body->body_back() != ret)
        return fail(ret->getBeginLoc(),
                    "a 'return' before the end of a stencil function is not "
                    "supported; put the statements it skips under an 'if'");
      return true;
    }
    bool VisitGotoStmt(GotoStmt *jump) {
      return fail(jump->getBeginLoc(),
                  "'goto' is not supported in stencil functions");
    }
    bool visitGridDim(CallExpr *call) {
      const auto *grid =
          call->getNumArgs() == 2
              ? dyn_cast<DeclRefExpr>(call->getArg(0)->IgnoreParenImpCasts())
              : nullptr;
      if (!grid || !getGridRank(grid->getType()))
        return fail(call->getBeginLoc(),
                    "PSGridDim takes a grid parameter of the stencil "
                    "function and an axis");
      gridUses.insert(grid);
      std::optional<int64_t> axis =
          evaluateInteger(call->getArg(1), reader.context);
      if (!axis || *axis < 0 || *axis >= rank)
        return fail(call->getArg(1)->getBeginLoc(),
                    "the axis of PSGridDim must be a constant from 0 to " +
                        llvm::Twine(rank - 1));
      SourceLocation begin = call->getBeginLoc();
      if (begin.isMacroID() && !reader.sm.isMacroArgExpansion(begin))
        return fail(call->getBeginLoc(),
                    "PSGridDim must be written in the stencil function, "
                    "not produced by a macro");
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *ref) {
      const auto *param = dyn_cast<ParmVarDecl>(ref->getDecl());
      if (!param || param->getDeclContext() != kernel)
        return true;
      if (getGridRank(param->getType()))
        return true; // checked once every access is known
      SourceLocation loc = ref->getLocation();
      if (loc.isMacroID() && !reader.sm.isMacroArgExpansion(loc))
        return fail(loc, "'" + param->getName() +
                             "' is used inside a macro's definition; the "
                             "stencil function's parameters must be written "
                             "in its body");
      return true;
    }
    bool fail(SourceLocation loc, const llvm::Twine &message) {
      ok = false;
      return reader.error(loc, message);
    }
  } checker(*this, kernel, rank);
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
          getGridRank(param->getType()))
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
  return true;
}

bool PhysisReader::readGridArgument(const Expr *arg, const ParmVarDecl *param,
                                    const FunctionDecl *enclosing, Run &run) {
  const VarDecl *var = getReferencedVar(arg);
  if (!var)
    return error(arg->getBeginLoc(),
                 "pass a grid variable for '" + param->getName() + "'");
  if (findGrid(var))
    return true;
  RunGrid grid;
  grid.var = var;
  grid.rank = getGridRank(var->getType());
  grid.elementType = getGridElementType(var->getType()).getAsString();
  if (getGridElementType(var->getType())->isRecordType())
    return error(arg->getBeginLoc(),
                 "grids of a struct type (DeclareGrid3D) are not supported "
                 "yet");
  if (!getGridElementType(var->getType())->isFloatingType())
    return error(arg->getBeginLoc(),
                 "'" + var->getName() + "' is a grid of '" + grid.elementType +
                     "'; stencils compute on grids of float and double only "
                     "(integer grids are not supported yet)");
  // Sizes known at compile time: from `PSGrid3DFloatNew(N, N, N)` in the
  // variable's initializer, when nothing assigns it afterwards.
  const auto *init =
      var->hasInit() && !isa<ParmVarDecl>(var)
          ? dyn_cast<CallExpr>(var->getInit()->IgnoreParenImpCasts())
          : nullptr;
  if (init && getCalleeName(init).starts_with("PSGrid") &&
      getCalleeName(init).ends_with("New") && init->getNumArgs() >= grid.rank &&
      !(var->isLocalVarDecl() && isChangedIn(var, enclosing->getBody()))) {
    for (unsigned axis = 0; axis < grid.rank; ++axis) {
      std::optional<int64_t> n = evaluateInteger(init->getArg(axis), context);
      if (!n || *n < 1) {
        grid.extents.clear();
        break;
      }
      grid.extents.push_back(*n);
    }
  }
  grids.push_back(grid);
  return true;
}

bool PhysisReader::readDomain(const Expr *domain, unsigned rank,
                              const FunctionDecl *enclosing, RunMap &map) {
  const Expr *init = domain->IgnoreParenImpCasts();
  if (const VarDecl *var = getReferencedVar(init))
    init = var->hasInit() && !isa<ParmVarDecl>(var) &&
                   !isChangedIn(var, enclosing->getBody())
               ? var->getInit()->IgnoreParenImpCasts()
               : nullptr;
  const auto *call = init ? dyn_cast<CallExpr>(init) : nullptr;
  StringRef name = call ? getCalleeName(call) : "";
  if (name.consume_front("PSDomain") && name.size() == 5 &&
      name.ends_with("DNew")) {
    unsigned domainRank = name[0] - '0';
    if (domainRank != rank)
      return error(domain->getBeginLoc(),
                   "this domain is " + llvm::Twine(domainRank) +
                       "-D but the stencil function '" + map.kernel->getName() +
                       "' is " + llvm::Twine(rank) + "-D");
    for (const Expr *bound : call->arguments()) {
      std::optional<int64_t> value = evaluateInteger(bound, context);
      if (!value) {
        map.bounds.clear();
        return true;
      }
      map.bounds.push_back(*value);
    }
  }
  return true;
}

std::string PhysisReader::writeKernelBody(const Run &run, const RunMap &map,
                                          unsigned mapIndex) {
  const FunctionDecl *kernel = map.kernel;
  unsigned rank = 0;
  while (rank < kernel->getNumParams() &&
         kernel->getParamDecl(rank)->getType()->isIntegerType())
    ++rank;
  const auto *body = cast<CompoundStmt>(kernel->getBody());
  unsigned begin = getOffset(body->getLBracLoc()) + 1;
  unsigned end = getOffset(body->getRBracLoc());
  // Edits, by offset: coordinates as the loop variables less the margin,
  // PSGridDim as the extent, a final `return;` dropped.
  std::map<unsigned, std::pair<unsigned, std::string>> edits;
  struct EditFinder : RecursiveASTVisitor<EditFinder> {
    PhysisReader &reader;
    const FunctionDecl *kernel;
    unsigned rank;
    std::map<unsigned, std::pair<unsigned, std::string>> &edits;
    const Run &run;
    EditFinder(PhysisReader &reader, const FunctionDecl *kernel, unsigned rank,
               std::map<unsigned, std::pair<unsigned, std::string>> &edits,
               const Run &run)
        : reader(reader), kernel(kernel), rank(rank), edits(edits), run(run) {}
    bool VisitDeclRefExpr(DeclRefExpr *ref) {
      const auto *param = dyn_cast<ParmVarDecl>(ref->getDecl());
      if (!param || param->getDeclContext() != kernel ||
          param->getFunctionScopeIndex() >= rank)
        return true;
      SourceLocation loc = reader.sm.getSpellingLoc(ref->getLocation());
      std::string text =
          "(__" + std::string(kAxisNames[param->getFunctionScopeIndex()]);
      if (reader.margin)
        text += " - " + std::to_string(reader.margin);
      text += ")";
      edits[reader.sm.getFileOffset(loc)] = {(unsigned)param->getName().size(),
                                             text};
      return true;
    }
    bool VisitCallExpr(CallExpr *call) {
      if (getCalleeName(call) != "PSGridDim")
        return true;
      int64_t axis = *evaluateInteger(call->getArg(1), reader.context);
      const RunGrid *grid = reader.runShape;
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
  } finder(*this, kernel, rank, edits, run);
  finder.TraverseStmt(const_cast<CompoundStmt *>(body));
  // Physis stencil functions end with `return;`; a calc body has none.
  if (!body->body_empty())
    if (const auto *ret = dyn_cast<ReturnStmt>(body->body_back()))
      if (!ret->getRetValue() && !ret->getBeginLoc().isMacroID())
        edits[getOffset(ret->getBeginLoc())] = {6, ""};

  StringRef buffer = sm.getBufferData(sm.getMainFileID());
  std::string text;
  unsigned at = begin;
  for (auto &[offset, edit] : edits) {
    if (offset < at || offset >= end)
      continue;
    text += buffer.slice(at, offset).str();
    text += edit.second;
    at = offset + edit.first;
  }
  text += buffer.slice(at, end).str();
  // The body's first line keeps its columns.
  unsigned column = sm.getExpansionColumnNumber(body->getLBracLoc());
  return lineDirective(getLine(body->getLBracLoc())) +
         std::string(column, ' ') + text;
}

std::string PhysisReader::writeRunFunction(const Run &run, unsigned index,
                                           std::string &prototype,
                                           std::string &callArgs) {
  unsigned rank = 0;
  while (
      run.maps.front().kernel->getParamDecl(rank)->getType()->isIntegerType())
    ++rank;
  std::string name = "physis_" + run.enclosing->getNameAsString() + "_run" +
                     std::to_string(index);
  // The run's grids, in order of first use; which of them some map emits.
  SmallVector<const RunGrid *, 4> runGrids;
  llvm::SmallPtrSet<const VarDecl *, 4> emitted;
  for (const RunMap &map : run.maps) {
    for (const Expr *arg : map.args)
      if (const VarDecl *var = getReferencedVar(arg))
        if (const RunGrid *grid = findGrid(var))
          if (!llvm::is_contained(runGrids, grid))
            runGrids.push_back(grid);
    llvm::SmallSetVector<const ParmVarDecl *, 2> emits =
        getAccessedGrids(map.kernel, "__ps_emit");
    for (auto [param, arg] :
         llvm::zip_equal(map.kernel->parameters().drop_front(rank), map.args))
      if (emits.contains(param))
        emitted.insert(getReferencedVar(arg));
  }
  const RunGrid *shape = runGrids.front();
  runShape = shape;
  bool dynamic = shape->extents.empty();
  auto extent = [&](unsigned axis) {
    std::string m = margin ? " + " + std::to_string(2 * margin) : "";
    return dynamic ? "__ps_n" + std::string(kAxisNames[axis]) + m
                   : std::to_string(shape->extents[axis] + 2 * margin);
  };
  auto declarator = [&](const RunGrid &grid) {
    std::string text = grid.elementType + " " + grid.var->getNameAsString();
    for (unsigned axis = rank; axis-- > 0;)
      text += "[" + extent(axis) + "]";
    return text;
  };

  // Parameters and the call's arguments.
  SmallVector<std::string> params, args;
  std::string where =
      fileName + ":" + std::to_string(getLine(run.call->getBeginLoc()));
  if (dynamic)
    for (unsigned axis = 0; axis < rank; ++axis) {
      params.push_back("long long __ps_n" + std::string(kAxisNames[axis]));
      args.push_back("PSGridDim(" + shape->var->getNameAsString() + ", " +
                     std::to_string(axis) + ")");
    }
  for (const RunGrid *grid : runGrids) {
    params.push_back(declarator(*grid));
    args.push_back("__PSGridData(" + grid->var->getNameAsString() + ")");
  }
  // Scalars, per map, named after the parameter (numbered when two maps
  // bind one name differently).
  std::vector<std::vector<std::string>> scalarNames(run.maps.size());
  llvm::StringSet<> usedNames;
  for (const RunGrid *grid : runGrids)
    usedNames.insert(grid->var->getName());
  for (auto [mapIndex, map] : llvm::enumerate(run.maps)) {
    for (auto [param, arg] :
         llvm::zip_equal(map.kernel->parameters().drop_front(rank), map.args)) {
      if (getGridRank(param->getType())) {
        scalarNames[mapIndex].push_back("");
        continue;
      }
      std::string scalar = param->getNameAsString();
      for (unsigned n = 1; usedNames.contains(scalar); ++n)
        scalar = param->getNameAsString() + "_" + std::to_string(n);
      usedNames.insert(scalar);
      scalarNames[mapIndex].push_back(scalar);
      params.push_back(param->getType().getUnqualifiedType().getAsString() +
                       " " + scalar);
      args.push_back("(" + getText(arg->getSourceRange()).str() + ")");
    }
    if (map.bounds.empty())
      for (unsigned axis = 0; axis < rank; ++axis)
        for (const char *side : {"min", "max"}) {
          params.push_back("long long __ps_d" + std::to_string(mapIndex) + "_" +
                           kAxisNames[axis] + side);
          args.push_back("(" + getText(map.domain->getSourceRange()).str() +
                         ")." + side + "[" + std::to_string(axis) + "]");
        }
  }
  params.push_back("int __ps_count");
  args.push_back(
      run.count ? "(" + getText(run.count->getSourceRange()).str() + ")" : "1");

  std::string signature =
      "static void " + name + "(" + llvm::join(params, ", ") + ")";
  prototype = signature + ";\n";
  callArgs = name + "(" + llvm::join(args, ", ") + ")";
  // What the compiler could not check, the call checks.
  for (const RunMap &map : run.maps)
    if (dynamic || map.bounds.empty())
      for (const Expr *arg : map.args)
        if (const RunGrid *grid = findGrid(getReferencedVar(arg))) {
          callArgs = "__PSCheckDomain(\"" + where + "\", " +
                     grid->var->getNameAsString() + ", " +
                     getText(map.domain->getSourceRange()).str() + ", " +
                     std::to_string(rank) + "), " + callArgs;
          break;
        }
  if (dynamic)
    for (const RunGrid *grid : runGrids)
      if (grid != shape)
        callArgs = "__PSCheckSameShape(\"" + where + "\", " +
                   shape->var->getNameAsString() + ", " +
                   grid->var->getNameAsString() + "), " + callArgs;

  // The region.
  // Seed 000's meaning: sources are read, destinations written. Where
  // every grid is written (two maps that swap roles), the first is the
  // source; a region may write its sources.
  SmallVector<std::string> sources, destinations;
  bool allEmitted = llvm::all_of(runGrids, [&](const RunGrid *grid) {
    return emitted.contains(grid->var);
  });
  for (const RunGrid *grid : runGrids)
    (emitted.contains(grid->var) && !(allEmitted && grid == runGrids.front())
         ? destinations
         : sources)
        .push_back(declarator(*grid));
  unsigned callLine = getLine(run.call->getBeginLoc());
  std::optional<int64_t> count = run.count ? evaluateInteger(run.count, context)
                                           : std::optional<int64_t>(1);
  std::string loops;
  for (unsigned axis = rank; axis-- > 0;)
    loops += std::string(loops.empty() ? "" : ", ") + "__" + kAxisNames[axis];
  std::string out = lineDirective(callLine) + signature + " {\n";
  out += "  int " + loops + ", __ps_step;\n";
  out += "#pragma stencil begin\n";
  out += "#pragma stencil step(__ps_step:" +
         std::to_string(count && *count > 0 ? *count : 100) + ")\n";
  out += "#pragma stencil data";
  if (!sources.empty())
    out += " source(" + llvm::join(sources, ", ") + ")";
  if (!destinations.empty())
    out += " destination(" + llvm::join(destinations, ", ") + ")";
  out += "\n#pragma stencil dimension(" + loops + ")\n";
  if (distributed) {
    out += "#pragma stencil distribute(block";
    for (unsigned axis = 1; axis < rank; ++axis)
      out += ", *";
    out += ")\n";
  }
  out += "  for (__ps_step = 0; __ps_step < __ps_count; __ps_step++) {\n";
  for (auto [mapIndex, map] : llvm::enumerate(run.maps)) {
    // Each grid parameter reads and writes the grid bound to it.
    std::string defines, undefines;
    std::string m = std::to_string(margin);
    for (auto [param, arg, scalar] :
         llvm::zip_equal(map.kernel->parameters().drop_front(rank), map.args,
                         scalarNames[mapIndex])) {
      if (!getGridRank(param->getType())) {
        if (scalar != param->getName())
          defines +=
              "#define " + param->getNameAsString() + " " + scalar + "\n",
              undefines += "#undef " + param->getNameAsString() + "\n";
        continue;
      }
      std::string gridName = getReferencedVar(arg)->getNameAsString();
      std::string p = param->getNameAsString();
      std::string indices, subscripts, point;
      for (unsigned axis = 0; axis < rank; ++axis)
        indices +=
            std::string(axis ? ", " : "") + "__ps_i" + std::to_string(axis);
      for (unsigned axis = rank; axis-- > 0;) {
        subscripts += "[(__ps_i" + std::to_string(axis) + ")" +
                      (margin ? " + " + m : "") + "]";
        point += "[__" + std::string(kAxisNames[axis]) + "]";
      }
      defines += "#define __PS_GET_" + p + "(" + indices + ") " + gridName +
                 subscripts + "\n";
      defines += "#define __PS_EMIT_" + p + "(__ps_v) " + gridName + point +
                 " = (__ps_v)\n";
      undefines += "#undef __PS_GET_" + p + "\n#undef __PS_EMIT_" + p + "\n";
    }
    if (!defines.empty())
      out +=
          "#line 1 \"<physis regions>\"\n" + defines + lineDirective(callLine);
    out += writePeriodicFills(run, map, rank);
    out += "#pragma stencil calc\n";
    for (unsigned axis = rank; axis-- > 0;) {
      std::string var = "__" + std::string(kAxisNames[axis]);
      std::string lo, hi;
      if (!map.bounds.empty()) {
        lo = std::to_string(map.bounds[2 * axis] + margin);
        hi = std::to_string(map.bounds[2 * axis + 1] + margin);
      } else {
        std::string d =
            "__ps_d" + std::to_string(mapIndex) + "_" + kAxisNames[axis];
        lo = d + "min" + (margin ? " + " + m : "");
        hi = d + "max" + (margin ? " + " + m : "");
      }
      out += "    for (" + var + " = " + lo + "; " + var + " < " + hi + "; " +
             var + "++)\n";
    }
    out += "    {\n" + writeKernelBody(run, map, mapIndex) + "\n" +
           lineDirective(callLine) + "    }\n";
    out += undefines;
  }
  out += "  }\n#pragma stencil end\n}\n";
  return out;
}

std::string PhysisReader::writePeriodicFills(const Run &run, const RunMap &map,
                                             unsigned rank) {
  std::string out;
  for (const ParmVarDecl *param :
       getAccessedGrids(map.kernel, "__ps_get_periodic")) {
    unsigned index = param->getFunctionScopeIndex() - rank;
    std::string grid = getReferencedVar(map.args[index])->getNameAsString();
    // Each margin takes the cells a period away, axis by axis over the
    // whole stored extent of the others, so the corners come last.
    for (unsigned fixed = rank; fixed-- > 0;) {
      int64_t n = runShape->extents[fixed];
      std::string loops;
      for (unsigned axis = rank; axis-- > 0;) {
        if (axis == fixed)
          continue;
        std::string var = "__" + std::string(kAxisNames[axis]);
        loops += "    for (" + var + " = 0; " + var + " < " +
                 std::to_string(runShape->extents[axis] + 2 * margin) + "; " +
                 var + "++)\n";
      }
      auto cell = [&](int64_t at) {
        std::string text = grid;
        for (unsigned axis = rank; axis-- > 0;)
          text += axis == fixed ? "[" + std::to_string(at) + "]"
                                : "[__" + std::string(kAxisNames[axis]) + "]";
        return text;
      };
      // One statement per margin layer: a boundary statement writes one
      // fixed coordinate.
      for (int64_t k = 0; k < margin; ++k) {
        out += loops + "      " + cell(k) + " = " + cell(k + n) + ";\n";
        out += loops + "      " + cell(n + margin + k) + " = " +
               cell(margin + k) + ";\n";
      }
    }
  }
  return out;
}

std::string PhysisReader::write() {
  StringRef buffer = sm.getBufferData(sm.getMainFileID());
  // Replacements in the program, by offset: each run by its call, each
  // run function's prototype before the function holding the run.
  std::map<unsigned, std::pair<unsigned, std::string>> edits;
  std::string functions;
  functions += "\n/* stencil-mlir: the Physis runs as regions. */\n"
               "#line 1 \"<physis regions>\"\n"
               "#undef PSGridGet\n"
               "#define PSGridGet(g, ...) __PS_GET_##g(__VA_ARGS__)\n"
               "#undef PSGridGetPeriodic\n"
               "#define PSGridGetPeriodic(g, ...) __PS_GET_##g(__VA_ARGS__)\n"
               "#undef PSGridEmit\n"
               "#define PSGridEmit(g, v) __PS_EMIT_##g(v)\n";
  std::map<unsigned, std::string> prototypes;
  for (auto [index, run] : llvm::enumerate(runs)) {
    std::string prototype, call;
    functions += writeRunFunction(run, index, prototype, call);
    SourceLocation start = sm.getExpansionLoc(run.enclosing->getBeginLoc());
    unsigned lineStart =
        getOffset(start) - (sm.getExpansionColumnNumber(start) - 1);
    prototypes[lineStart] += prototype;
    CharSourceRange range = sm.getExpansionRange(run.call->getSourceRange());
    unsigned from = sm.getFileOffset(range.getBegin());
    unsigned to = sm.getFileOffset(Lexer::getLocForEndOfToken(
        range.getEnd(), 0, sm, context.getLangOpts()));
    edits[from] = {to - from, call};
  }
  for (auto &[offset, text] : prototypes)
    edits[offset] = {
        0, text + lineDirective(sm.getLineNumber(sm.getMainFileID(), offset))};

  std::string out = "#define PHYSIS_MARGIN " + std::to_string(margin) + "\n" +
                    lineDirective(1);
  unsigned at = 0;
  for (auto &[offset, edit] : edits) {
    out += buffer.slice(at, offset).str();
    out += edit.second;
    at = offset + edit.first;
  }
  out += buffer.substr(at).str();
  if (!out.empty() && out.back() != '\n')
    out += '\n';
  return out + functions;
}

class PhysisConsumer : public ASTConsumer {
public:
  PhysisConsumer(StringRef fileName, bool distributed,
                 std::optional<std::string> &result)
      : fileName(fileName), distributed(distributed), result(result) {}
  void HandleTranslationUnit(ASTContext &context) override {
    if (context.getDiagnostics().hasErrorOccurred())
      return;
    PhysisReader reader(context, fileName, distributed);
    if (reader.read())
      result = reader.write();
  }

private:
  std::string fileName;
  bool distributed;
  std::optional<std::string> &result;
};

class PhysisAction : public ASTFrontendAction {
public:
  PhysisAction(std::optional<std::string> &result, bool distributed,
               bool silence)
      : result(result), distributed(distributed), silence(silence) {}
  bool BeginSourceFileAction(CompilerInstance &ci) override {
    if (silence)
      ci.getDiagnostics().setClient(new IgnoringDiagConsumer(),
                                    /*ShouldOwnClient=*/true);
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef file) override {
    return std::make_unique<PhysisConsumer>(file, distributed, result);
  }

private:
  std::optional<std::string> &result;
  bool distributed;
  bool silence;
};

} // namespace

std::optional<std::string> mlir::stencil::pragma_c::translatePhysis(
    StringRef source, StringRef fileName,
    const std::vector<std::string> &clangArgs, bool distributed, bool silence) {
  std::vector<std::string> args;
  std::string resourceDir = STENCIL_CLANG_RESOURCE_DIR;
  if (!resourceDir.empty())
    args.push_back("-resource-dir=" + resourceDir);
  args.push_back("-xc");
  llvm::append_range(args, clangArgs);
  std::optional<std::string> result;
  bool ok = tooling::runToolOnCodeWithArgs(
      std::make_unique<PhysisAction>(result, distributed, silence), source,
      args, fileName, "stencil-translate");
  if (!ok)
    return std::nullopt;
  return result;
}

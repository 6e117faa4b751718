//===- RegionAnalysis.cpp - Match directives with the AST -----------------===//
//
// Groups the `#pragma stencil` directives of each function into regions,
// finds the time loop and its calc and copy loop nests in Clang's AST, and
// checks everything the stencil dialect needs: one time loop, perfect nests
// over the `dimension` variables with constant bounds inside the arrays,
// arrays of one shape whose C declarations agree with `data`, and a copy
// section that pairs every destination with a source. The calc body itself
// is checked while it is translated (IREmitter.cpp).
//
//===----------------------------------------------------------------------===//

#include "RegionModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace mlir::stencil::pragma_c;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

const Expr *mlir::stencil::pragma_c::skipTransparent(const Expr *expr) {
  while (true) {
    expr = expr->IgnoreParens();
    auto *cast = dyn_cast<ImplicitCastExpr>(expr);
    if (!cast)
      return expr;
    switch (cast->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_ArrayToPointerDecay:
      expr = cast->getSubExpr();
      continue;
    default:
      return expr;
    }
  }
}

const VarDecl *mlir::stencil::pragma_c::getReferencedVar(const Expr *expr) {
  if (auto *ref = dyn_cast<DeclRefExpr>(skipTransparent(expr)))
    return dyn_cast<VarDecl>(ref->getDecl());
  return nullptr;
}

static std::optional<int64_t>
evaluateIntegerImpl(const Expr *expr, ASTContext &context, unsigned depth) {
  if (depth > 32)
    return std::nullopt;
  expr = expr->IgnoreParens();
  if (auto *literal = dyn_cast<IntegerLiteral>(expr))
    return literal->getValue().getSExtValue();
  if (auto *cast = dyn_cast<CastExpr>(expr)) {
    if (!cast->getType()->isIntegerType() ||
        !cast->getSubExpr()->getType()->isIntegerType())
      return std::nullopt;
    return evaluateIntegerImpl(cast->getSubExpr(), context, depth + 1);
  }
  if (auto *unary = dyn_cast<UnaryOperator>(expr)) {
    std::optional<int64_t> value =
        evaluateIntegerImpl(unary->getSubExpr(), context, depth + 1);
    if (!value)
      return std::nullopt;
    if (unary->getOpcode() == UO_Minus)
      return -*value;
    if (unary->getOpcode() == UO_Plus)
      return *value;
    return std::nullopt;
  }
  if (auto *binary = dyn_cast<BinaryOperator>(expr)) {
    std::optional<int64_t> lhs =
        evaluateIntegerImpl(binary->getLHS(), context, depth + 1);
    std::optional<int64_t> rhs =
        evaluateIntegerImpl(binary->getRHS(), context, depth + 1);
    if (!lhs || !rhs)
      return std::nullopt;
    switch (binary->getOpcode()) {
    case BO_Add:
      return *lhs + *rhs;
    case BO_Sub:
      return *lhs - *rhs;
    case BO_Mul:
      return *lhs * *rhs;
    case BO_Div:
      return *rhs == 0 ? std::nullopt : std::optional<int64_t>(*lhs / *rhs);
    case BO_Rem:
      return *rhs == 0 ? std::nullopt : std::optional<int64_t>(*lhs % *rhs);
    default:
      return std::nullopt;
    }
  }
  if (auto *ref = dyn_cast<DeclRefExpr>(expr)) {
    if (auto *constant = dyn_cast<EnumConstantDecl>(ref->getDecl()))
      return constant->getInitVal().getSExtValue();
    // A `const int` is not a constant expression in C, but its value is
    // known when its initializer is.
    if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
      if (var->getType().isConstQualified() &&
          var->getType()->isIntegerType() && var->getInit())
        return evaluateIntegerImpl(var->getInit(), context, depth + 1);
    return std::nullopt;
  }
  Expr::EvalResult result;
  if (!expr->isValueDependent() && expr->EvaluateAsInt(result, context))
    return result.Val.getInt().getSExtValue();
  return std::nullopt;
}

std::optional<int64_t>
mlir::stencil::pragma_c::evaluateInteger(const Expr *expr,
                                         ASTContext &context) {
  return evaluateIntegerImpl(expr, context, 0);
}

/// The halo the distribution asks for must fit in the cells the arrays keep
/// around the grid, where the neighbours' values will be stored.
static bool checkHaloFits(const StencilRegion &region,
                          DiagnosticsEngine &diags) {
  const Directive *source = region.halo ? region.halo : region.distribute;
  if (!region.distribute || !source || !source->haloWidth)
    return true;
  int64_t width = *source->haloWidth;
  for (unsigned axis = 0; axis < region.getRank(); ++axis) {
    if (!region.distribute->distributed[axis])
      continue;
    const LoopRange &loop = region.calcNest.loops[axis];
    int64_t room = std::min(loop.lower, region.shape[axis] - loop.upper);
    if (width > room) {
      reportError(diags, source->loc,
                  "halo(" + std::to_string(width) + ") is wider than the " +
                      std::to_string(room) +
                      " cells the arrays keep around the grid along "
                      "dimension " +
                      std::to_string(axis));
      return false;
    }
  }
  return true;
}

namespace {

//===----------------------------------------------------------------------===//
// Analyzer
//===----------------------------------------------------------------------===//

class Analyzer {
public:
  explicit Analyzer(ASTContext &context)
      : context(context), sm(context.getSourceManager()),
        diags(context.getDiagnostics()) {}

  std::vector<StencilRegion> run(const std::vector<Directive> &directives);

private:
  SourceLocation expansion(SourceLocation loc) const {
    return sm.getExpansionLoc(loc);
  }
  bool before(SourceLocation a, SourceLocation b) const {
    return sm.isBeforeInTranslationUnit(expansion(a), expansion(b));
  }
  bool error(SourceLocation loc, const llvm::Twine &message) {
    reportError(diags, loc, message.str());
    return false;
  }
  void note(SourceLocation loc, const llvm::Twine &message) {
    reportNote(diags, loc, message.str());
  }

  bool analyzeRegion(StencilRegion &region,
                     const std::vector<const Directive *> &inner);
  bool assignDirectives(StencilRegion &region,
                        const std::vector<const Directive *> &inner);
  bool findTimeLoop(StencilRegion &region);
  bool analyzeTimeLoop(StencilRegion &region);
  bool splitTimeLoopBody(StencilRegion &region, const Stmt *&calc,
                         const Stmt *&copy);
  bool analyzeArrays(StencilRegion &region);
  bool analyzeNest(StencilRegion &region, const Stmt *stmt, StringRef section,
                   LoopNest &nest);
  bool analyzeCopies(StencilRegion &region);

  /// `v = e` or `T v = e` in a for-init; sets `var` and `init`.
  bool matchLoopInit(const Stmt *init, const VarDecl *&var, const Expr *&value,
                     bool &declares);
  /// `v < e` or `v <= e`.
  bool matchLoopCond(const Expr *cond, const VarDecl *var, const Expr *&bound,
                     bool &inclusive);
  /// `v++`, `++v`, `v += 1`, `v = v + 1`.
  bool matchLoopInc(const Expr *inc, const VarDecl *var);

  std::optional<int64_t> evaluateSize(const std::vector<Token> &tokens,
                                      const FunctionDecl *function,
                                      SourceLocation loc);
  const VarDecl *findVariable(StringRef name, const FunctionDecl *function);
  const VarDecl *findArrayDecl(StringRef name, const Stmt *scope);

  ASTContext &context;
  SourceManager &sm;
  DiagnosticsEngine &diags;
};

/// Calls `fn` on every statement below `stmt`, `stmt` included.
template <typename Fn> void walkStmts(const Stmt *stmt, Fn &&fn) {
  if (!stmt)
    return;
  fn(stmt);
  for (const Stmt *child : stmt->children())
    walkStmts(child, fn);
}

/// Unwraps `{ s }` into `s`.
const Stmt *skipSingleCompound(const Stmt *stmt) {
  while (auto *compound = dyn_cast_or_null<CompoundStmt>(stmt)) {
    if (compound->size() != 1)
      break;
    stmt = compound->body_front();
  }
  return stmt;
}

std::string shapeString(ArrayRef<int64_t> shape) {
  std::string text;
  for (int64_t size : shape)
    text += "[" + std::to_string(size) + "]";
  return text;
}

} // namespace

std::vector<StencilRegion>
Analyzer::run(const std::vector<Directive> &directives) {
  // Function bodies of the main file, to place each directive in one.
  std::vector<const FunctionDecl *> functions;
  for (const Decl *decl : context.getTranslationUnitDecl()->decls())
    if (auto *function = dyn_cast<FunctionDecl>(decl))
      if (function->doesThisDeclarationHaveABody())
        functions.push_back(function);

  std::vector<std::vector<const Directive *>> perFunction(functions.size());
  for (const Directive &directive : directives) {
    if (!sm.isInMainFile(expansion(directive.loc))) {
      error(directive.loc, "'#pragma stencil' regions must be in the main "
                           "source file, not in a header");
      continue;
    }
    auto it = llvm::find_if(functions, [&](const FunctionDecl *function) {
      SourceRange body = function->getBody()->getSourceRange();
      return before(body.getBegin(), directive.loc) &&
             before(directive.loc, body.getEnd());
    });
    if (it == functions.end()) {
      error(directive.loc, llvm::Twine("'#pragma stencil ") +
                               getDirectiveName(directive.kind) +
                               "' must be inside a function body");
      continue;
    }
    perFunction[it - functions.begin()].push_back(&directive);
  }

  std::vector<StencilRegion> regions;
  for (auto [function, list] : llvm::zip(functions, perFunction)) {
    const Directive *open = nullptr;
    std::vector<const Directive *> inner;
    unsigned index = 0;
    for (const Directive *directive : list) {
      switch (directive->kind) {
      case DirectiveKind::Begin:
        if (open) {
          error(directive->loc, "'#pragma stencil begin' inside a region "
                                "that is still open");
          note(open->loc, "the open region begins here");
          continue;
        }
        open = directive;
        inner.clear();
        break;
      case DirectiveKind::End: {
        if (!open) {
          error(directive->loc,
                "'#pragma stencil end' without a matching 'begin'");
          continue;
        }
        StencilRegion region;
        region.function = function;
        region.begin = open;
        region.end = directive;
        region.name = "stencil_" + function->getNameAsString() + "_" +
                      std::to_string(index++);
        if (analyzeRegion(region, inner))
          regions.push_back(std::move(region));
        open = nullptr;
        break;
      }
      default:
        if (!open) {
          error(directive->loc, llvm::Twine("'#pragma stencil ") +
                                    getDirectiveName(directive->kind) +
                                    "' outside a 'begin'/'end' region");
          continue;
        }
        inner.push_back(directive);
      }
    }
    if (open)
      error(open->loc, "'#pragma stencil begin' has no matching 'end'");
  }
  return regions;
}

bool Analyzer::analyzeRegion(StencilRegion &region,
                             const std::vector<const Directive *> &inner) {
  if (!assignDirectives(region, inner) || !findTimeLoop(region) ||
      !analyzeTimeLoop(region))
    return false;
  const Stmt *calc = nullptr, *copy = nullptr;
  if (!splitTimeLoopBody(region, calc, copy) || !analyzeArrays(region) ||
      !analyzeNest(region, calc, "calc", region.calcNest) ||
      !analyzeNest(region, copy, "copy", region.copyNest) ||
      !checkHaloFits(region, diags))
    return false;
  // The copy section must sweep the points the calc section computes.
  for (unsigned axis = 0; axis < region.getRank(); ++axis) {
    const LoopRange &c = region.calcNest.loops[axis];
    const LoopRange &p = region.copyNest.loops[axis];
    if (c.lower != p.lower || c.upper != p.upper) {
      error(region.copy->loc,
            "the copy loop over '" + p.var->getName() + "' runs over [" +
                llvm::Twine(p.lower) + ", " + llvm::Twine(p.upper) +
                ") but the calc loop over [" + llvm::Twine(c.lower) + ", " +
                llvm::Twine(c.upper) + "); they must match");
      return false;
    }
  }
  return analyzeCopies(region);
}

bool Analyzer::assignDirectives(StencilRegion &region,
                                const std::vector<const Directive *> &inner) {
  bool ok = true;
  for (const Directive *directive : inner) {
    const Directive **slot = nullptr;
    switch (directive->kind) {
    case DirectiveKind::Step:
      slot = &region.step;
      break;
    case DirectiveKind::Data:
      slot = &region.data;
      break;
    case DirectiveKind::Dimension:
      slot = &region.dimension;
      break;
    case DirectiveKind::Calc:
      slot = &region.calc;
      break;
    case DirectiveKind::Copy:
      slot = &region.copy;
      break;
    case DirectiveKind::Distribute:
      slot = &region.distribute;
      break;
    case DirectiveKind::Halo:
      slot = &region.halo;
      break;
    case DirectiveKind::Begin:
    case DirectiveKind::End:
      llvm_unreachable("begin and end delimit regions");
    }
    if (*slot) {
      ok = error(directive->loc, llvm::Twine("'#pragma stencil ") +
                                     getDirectiveName(directive->kind) +
                                     "' given twice in one region");
      note((*slot)->loc, "first given here");
      continue;
    }
    *slot = directive;
  }
  if (!ok)
    return false;
  for (auto [directive, name] :
       {std::pair{region.step, "step"}, std::pair{region.data, "data"},
        std::pair{region.dimension, "dimension"},
        std::pair{region.calc, "calc"}, std::pair{region.copy, "copy"}}) {
    if (!directive)
      ok = error(region.begin->loc, llvm::Twine("the region has no "
                                                "'#pragma stencil ") +
                                        name + "'");
  }
  if (region.distribute && region.halo && region.distribute->haloWidth) {
    ok = error(region.halo->loc, "halo width given twice: here and in "
                                 "'distribute'");
  }
  if (region.halo && !region.distribute)
    ok = error(region.halo->loc,
               "'#pragma stencil halo' needs a 'distribute' directive");
  return ok;
}

bool Analyzer::findTimeLoop(StencilRegion &region) {
  // The outermost statements between the `begin` and `end` lines.
  SourceLocation lo = region.begin->endLoc, hi = region.end->hashLoc;
  SmallVector<const Stmt *> contained;
  std::function<void(const Stmt *)> collect = [&](const Stmt *stmt) {
    if (!stmt)
      return;
    if (before(lo, stmt->getBeginLoc()) && before(stmt->getEndLoc(), hi)) {
      contained.push_back(stmt);
      return;
    }
    if (before(stmt->getBeginLoc(), lo) && before(lo, stmt->getEndLoc()))
      for (const Stmt *child : stmt->children())
        collect(child);
  };
  collect(region.function->getBody());

  if (contained.empty() || !isa<ForStmt>(contained.front()))
    return error(contained.empty() ? region.end->loc
                                   : contained.front()->getBeginLoc(),
                 "expected the time loop ('for') after the region's "
                 "directives");
  if (contained.size() > 1) {
    error(contained[1]->getBeginLoc(),
          "only the time loop may stand between '#pragma stencil begin' "
          "and 'end'");
    note(contained[0]->getBeginLoc(), "the time loop is here");
    return false;
  }
  region.timeLoop = cast<ForStmt>(contained.front());

  bool ok = true;
  SourceLocation loopBegin = region.timeLoop->getBeginLoc();
  SourceLocation bodyBegin = region.timeLoop->getBody()->getBeginLoc();
  for (const Directive *directive : {region.step, region.data, region.dimension,
                                     region.distribute, region.halo})
    if (directive && !before(directive->loc, loopBegin))
      ok = error(directive->loc, llvm::Twine("'#pragma stencil ") +
                                     getDirectiveName(directive->kind) +
                                     "' must come before the time loop");
  for (const Directive *directive : {region.calc, region.copy})
    if (!before(bodyBegin, directive->loc))
      ok = error(directive->loc, llvm::Twine("'#pragma stencil ") +
                                     getDirectiveName(directive->kind) +
                                     "' must be inside the time loop");
  return ok;
}

bool Analyzer::matchLoopInit(const Stmt *init, const VarDecl *&var,
                             const Expr *&value, bool &declares) {
  if (auto *declStmt = dyn_cast_or_null<DeclStmt>(init)) {
    if (!declStmt->isSingleDecl())
      return false;
    auto *decl = dyn_cast<VarDecl>(declStmt->getSingleDecl());
    if (!decl || !decl->getInit())
      return false;
    var = decl;
    value = decl->getInit();
    declares = true;
    return true;
  }
  auto *assign = dyn_cast_or_null<BinaryOperator>(init);
  if (!assign || assign->getOpcode() != BO_Assign)
    return false;
  var = getReferencedVar(assign->getLHS());
  value = assign->getRHS();
  declares = false;
  return var != nullptr;
}

bool Analyzer::matchLoopCond(const Expr *cond, const VarDecl *var,
                             const Expr *&bound, bool &inclusive) {
  auto *compare = dyn_cast_or_null<BinaryOperator>(
      cond ? cond->IgnoreParenImpCasts() : nullptr);
  if (!compare ||
      (compare->getOpcode() != BO_LT && compare->getOpcode() != BO_LE) ||
      getReferencedVar(compare->getLHS()) != var)
    return false;
  bound = compare->getRHS();
  inclusive = compare->getOpcode() == BO_LE;
  return true;
}

bool Analyzer::matchLoopInc(const Expr *inc, const VarDecl *var) {
  if (!inc)
    return false;
  inc = inc->IgnoreParenImpCasts();
  if (auto *unary = dyn_cast<UnaryOperator>(inc))
    return unary->isIncrementOp() &&
           getReferencedVar(unary->getSubExpr()) == var;
  if (auto *compound = dyn_cast<CompoundAssignOperator>(inc))
    return compound->getOpcode() == BO_AddAssign &&
           getReferencedVar(compound->getLHS()) == var &&
           evaluateInteger(compound->getRHS(), context) == 1;
  if (auto *assign = dyn_cast<BinaryOperator>(inc)) {
    if (assign->getOpcode() != BO_Assign ||
        getReferencedVar(assign->getLHS()) != var)
      return false;
    auto *add =
        dyn_cast<BinaryOperator>(assign->getRHS()->IgnoreParenImpCasts());
    if (!add || add->getOpcode() != BO_Add)
      return false;
    return (getReferencedVar(add->getLHS()) == var &&
            evaluateInteger(add->getRHS(), context) == 1) ||
           (getReferencedVar(add->getRHS()) == var &&
            evaluateInteger(add->getLHS(), context) == 1);
  }
  return false;
}

bool Analyzer::analyzeTimeLoop(StencilRegion &region) {
  const ForStmt *loop = region.timeLoop;
  const VarDecl *var = nullptr;
  const Expr *lower = nullptr;
  bool declares = false;
  if (!matchLoopInit(loop->getInit(), var, lower, declares))
    return error(loop->getBeginLoc(), "the time loop must start with '" +
                                          region.step->stepVar.name +
                                          " = <first step>'");
  if (var->getName() != region.step->stepVar.name) {
    error(lower->getBeginLoc(),
          "time loop variable '" + var->getName() + "' does not match '" +
              region.step->stepVar.name + "' of '#pragma stencil step'");
    note(region.step->stepVar.loc, "the step directive is here");
    return false;
  }
  if (!var->getType()->isIntegerType())
    return error(var->getLocation(), "the time loop variable '" +
                                         var->getName() +
                                         "' must have an integer type");
  const Expr *upper = nullptr;
  bool inclusive = false;
  if (!matchLoopCond(loop->getCond(), var, upper, inclusive))
    return error(loop->getCond() ? loop->getCond()->getBeginLoc()
                                 : loop->getBeginLoc(),
                 "the time loop condition must be '" + var->getName() +
                     " < bound' or '" + var->getName() + " <= bound'");
  if (!matchLoopInc(loop->getInc(), var))
    return error(
        loop->getInc() ? loop->getInc()->getBeginLoc() : loop->getBeginLoc(),
        "the time loop must advance by one step ('" + var->getName() + "++')");
  for (const Expr *bound : {lower, upper}) {
    if (bound->HasSideEffects(context))
      return error(bound->getBeginLoc(), "the time loop bound has side "
                                         "effects; compute it before the "
                                         "region");
    if (!bound->getType()->isIntegerType())
      return error(bound->getBeginLoc(),
                   "the time loop bound must be an integer");
  }
  region.timeVar = var;
  region.timeVarDeclaredInLoop = declares;
  region.stepLower = lower;
  region.stepUpper = upper;
  region.stepInclusive = inclusive;
  return true;
}

bool Analyzer::splitTimeLoopBody(StencilRegion &region, const Stmt *&calc,
                                 const Stmt *&copy) {
  const Stmt *body = region.timeLoop->getBody();
  SmallVector<const Stmt *> children;
  SourceLocation previousEnd;
  if (auto *compound = dyn_cast<CompoundStmt>(body)) {
    llvm::append_range(children, compound->body());
    previousEnd = compound->getLBracLoc();
  } else {
    children.push_back(body);
    previousEnd = region.timeLoop->getRParenLoc();
  }
  for (const Stmt *child : children) {
    if (isa<NullStmt>(child))
      continue;
    const Directive *owner = nullptr;
    for (const Directive *directive : {region.calc, region.copy})
      if (before(previousEnd, directive->loc) &&
          before(directive->loc, child->getBeginLoc()))
        owner = directive;
    previousEnd = child->getEndLoc();
    if (!owner) {
      const Stmt *previous = calc ? calc : nullptr;
      if (copy)
        previous = copy;
      if (previous)
        return error(child->getBeginLoc(),
                     "only one loop nest may follow each of '#pragma "
                     "stencil calc' and 'copy'");
      return error(child->getBeginLoc(),
                   "statement in the time loop is not under '#pragma "
                   "stencil calc' or 'copy'");
    }
    const Stmt *&slot = owner->kind == DirectiveKind::Calc ? calc : copy;
    slot = child;
  }
  if (!calc)
    return error(region.calc->loc,
                 "'#pragma stencil calc' is not followed by a loop nest");
  if (!copy)
    return error(region.copy->loc,
                 "'#pragma stencil copy' is not followed by a loop nest");
  if (before(copy->getBeginLoc(), calc->getBeginLoc()))
    return error(region.copy->loc,
                 "the copy section must follow the calc section");
  return true;
}

const VarDecl *Analyzer::findVariable(StringRef name,
                                      const FunctionDecl *function) {
  const VarDecl *found = nullptr;
  walkStmts(function->getBody(), [&](const Stmt *stmt) {
    if (auto *declStmt = dyn_cast<DeclStmt>(stmt))
      for (const Decl *decl : declStmt->decls())
        if (auto *var = dyn_cast<VarDecl>(decl))
          if (!found && var->getName() == name)
            found = var;
  });
  for (const ParmVarDecl *param : function->parameters())
    if (!found && param->getName() == name)
      found = param;
  if (found)
    return found;
  for (const NamedDecl *decl :
       context.getTranslationUnitDecl()->lookup(&context.Idents.get(name)))
    if (auto *var = dyn_cast<VarDecl>(decl))
      return var;
  return nullptr;
}

const VarDecl *Analyzer::findArrayDecl(StringRef name, const Stmt *scope) {
  const VarDecl *found = nullptr;
  walkStmts(scope, [&](const Stmt *stmt) {
    if (auto *ref = dyn_cast<DeclRefExpr>(stmt))
      if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        if (!found && var->getName() == name)
          found = var;
  });
  return found;
}

std::optional<int64_t> Analyzer::evaluateSize(const std::vector<Token> &tokens,
                                              const FunctionDecl *function,
                                              SourceLocation loc) {
  // A small recursive-descent evaluator over the macro-expanded tokens:
  // integers, `const int` names, + - * / %, parentheses.
  size_t pos = 0;
  std::function<std::optional<int64_t>()> parseSum;
  std::function<std::optional<int64_t>()> parseAtom =
      [&]() -> std::optional<int64_t> {
    if (pos >= tokens.size())
      return std::nullopt;
    const Token &tok = tokens[pos++];
    if (tok.is(tok::minus)) {
      std::optional<int64_t> value = parseAtom();
      return value ? std::optional<int64_t>(-*value) : std::nullopt;
    }
    if (tok.is(tok::l_paren)) {
      std::optional<int64_t> value = parseSum();
      if (pos >= tokens.size() || !tokens[pos].is(tok::r_paren))
        return std::nullopt;
      ++pos;
      return value;
    }
    if (tok.is(tok::numeric_constant)) {
      std::string spelling = Lexer::getSpelling(tok, sm, context.getLangOpts());
      StringRef digits = StringRef(spelling).rtrim("uUlL");
      int64_t value;
      if (digits.getAsInteger(0, value))
        return std::nullopt;
      return value;
    }
    if (tok.is(tok::identifier)) {
      const VarDecl *var =
          findVariable(tok.getIdentifierInfo()->getName(), function);
      if (!var || !var->getType().isConstQualified() || !var->getInit())
        return std::nullopt;
      return evaluateInteger(var->getInit(), context);
    }
    return std::nullopt;
  };
  auto parseProduct = [&]() -> std::optional<int64_t> {
    std::optional<int64_t> value = parseAtom();
    while (value && pos < tokens.size() &&
           tokens[pos].isOneOf(tok::star, tok::slash, tok::percent)) {
      tok::TokenKind op = tokens[pos++].getKind();
      std::optional<int64_t> rhs = parseAtom();
      if (!rhs || (op != tok::star && *rhs == 0))
        return std::nullopt;
      value = op == tok::star    ? *value * *rhs
              : op == tok::slash ? *value / *rhs
                                 : *value % *rhs;
    }
    return value;
  };
  parseSum = [&]() -> std::optional<int64_t> {
    std::optional<int64_t> value = parseProduct();
    while (value && pos < tokens.size() &&
           tokens[pos].isOneOf(tok::plus, tok::minus)) {
      bool add = tokens[pos++].is(tok::plus);
      std::optional<int64_t> rhs = parseProduct();
      if (!rhs)
        return std::nullopt;
      value = add ? *value + *rhs : *value - *rhs;
    }
    return value;
  };
  std::optional<int64_t> value = parseSum();
  if (!value || pos != tokens.size())
    return std::nullopt;
  return value;
}

bool Analyzer::analyzeArrays(StencilRegion &region) {
  bool ok = true;
  for (const ArrayDecl &decl : region.data->arrays) {
    if (region.findArray(decl.name.name)) {
      ok = error(decl.name.loc,
                 "array '" + decl.name.name + "' appears twice in 'data'");
      continue;
    }
    RegionArray array;
    array.name = decl.name.name;
    array.loc = decl.name.loc;
    array.isDouble = decl.isDouble;
    array.isSource = decl.isSource;
    for (auto [tokens, loc] : llvm::zip(decl.sizeTokens, decl.sizeLocs)) {
      std::optional<int64_t> size = evaluateSize(tokens, region.function, loc);
      if (!size) {
        ok = error(loc, "the size of '" + array.name +
                            "' must be a constant: an integer, a macro or a "
                            "'const int'");
        break;
      }
      if (*size <= 0) {
        ok = error(loc, "the size of '" + array.name +
                            "' must be positive, "
                            "got " +
                            llvm::Twine(*size));
        break;
      }
      array.shape.push_back(*size);
    }
    if (array.shape.size() != decl.sizeTokens.size())
      continue;

    // The C declaration must agree with the directive.
    array.decl = findArrayDecl(array.name, region.timeLoop);
    if (array.decl) {
      QualType type = array.decl->getType();
      SmallVector<int64_t, 3> dims;
      bool isPointer = false;
      if (const PointerType *pointer = type->getAs<PointerType>()) {
        type = pointer->getPointeeType();
        isPointer = true;
      }
      while (const ConstantArrayType *arrayType =
                 context.getAsConstantArrayType(type)) {
        dims.push_back(arrayType->getSize().getSExtValue());
        type = arrayType->getElementType();
      }
      ArrayRef<int64_t> expected = array.shape;
      if (isPointer)
        expected = expected.drop_front();
      bool elementOk = array.isDouble
                           ? type->isSpecificBuiltinType(BuiltinType::Double)
                           : type->isSpecificBuiltinType(BuiltinType::Float);
      if (!elementOk || ArrayRef<int64_t>(dims) != expected) {
        error(array.loc, "'" + array.name + "' is declared as '" +
                             array.decl->getType().getAsString() +
                             "' but '#pragma stencil data' says '" +
                             (array.isDouble ? "double " : "float ") +
                             array.name + shapeString(array.shape) + "'");
        note(array.decl->getLocation(),
             "'" + array.name + "' is declared here");
        ok = false;
        continue;
      }
    }
    region.arrays.push_back(std::move(array));
  }
  if (!ok)
    return false;

  // One shape for all arrays: it is the shape of the grid's storage.
  region.shape = region.arrays.front().shape;
  for (const RegionArray &array : region.arrays)
    if (array.shape != region.shape)
      return error(array.loc, "array '" + array.name + "' is " +
                                  shapeString(array.shape) + " but '" +
                                  region.arrays.front().name + "' is " +
                                  shapeString(region.shape) +
                                  "; all arrays of a region must have the "
                                  "same shape");
  if (region.dimension->dimensions.size() != region.getRank())
    return error(region.dimension->loc,
                 "'dimension' names " +
                     llvm::Twine(region.dimension->dimensions.size()) +
                     " loop variables but the arrays have " +
                     llvm::Twine(region.getRank()) + " dimensions");
  if (region.distribute &&
      region.distribute->distributed.size() != region.getRank())
    return error(region.distribute->loc,
                 "'distribute' names " +
                     llvm::Twine(region.distribute->distributed.size()) +
                     " axes but the arrays have " +
                     llvm::Twine(region.getRank()));
  if (region.distribute &&
      llvm::none_of(region.distribute->distributed, [](bool d) { return d; }))
    return error(region.distribute->loc,
                 "'distribute' must split at least one axis ('block')");
  return true;
}

bool Analyzer::analyzeNest(StencilRegion &region, const Stmt *stmt,
                           StringRef section, LoopNest &nest) {
  const std::vector<NamedLoc> &dims = region.dimension->dimensions;
  for (unsigned axis = 0; axis < region.getRank(); ++axis) {
    stmt = skipSingleCompound(stmt);
    auto *loop = dyn_cast_or_null<ForStmt>(stmt);
    if (!loop) {
      error(stmt ? stmt->getBeginLoc() : region.timeLoop->getBeginLoc(),
            "expected a 'for' loop over '" + dims[axis].name + "' (dimension " +
                llvm::Twine(axis) + ") in the " + section + " section");
      note(region.dimension->loc, "the dimensions are named here");
      return false;
    }
    LoopRange range;
    const Expr *lower = nullptr, *upper = nullptr;
    bool inclusive = false;
    if (!matchLoopInit(loop->getInit(), range.var, lower, range.declaresVar))
      return error(loop->getBeginLoc(), "the " + section +
                                            " loop must start with '" +
                                            dims[axis].name + " = <bound>'");
    if (range.var->getName() != dims[axis].name) {
      error(lower->getBeginLoc(), "loop variable '" + range.var->getName() +
                                      "' does not match '" + dims[axis].name +
                                      "', dimension " + llvm::Twine(axis) +
                                      " of '#pragma stencil dimension'");
      note(dims[axis].loc, "the dimension is named here");
      return false;
    }
    if (!matchLoopCond(loop->getCond(), range.var, upper, inclusive))
      return error(loop->getCond() ? loop->getCond()->getBeginLoc()
                                   : loop->getBeginLoc(),
                   "the loop condition must be '" + dims[axis].name +
                       " < bound' or '" + dims[axis].name + " <= bound'");
    if (!matchLoopInc(loop->getInc(), range.var))
      return error(loop->getInc() ? loop->getInc()->getBeginLoc()
                                  : loop->getBeginLoc(),
                   "the loop over '" + dims[axis].name +
                       "' must advance by one ('" + dims[axis].name + "++')");
    std::optional<int64_t> lo = evaluateInteger(lower, context);
    std::optional<int64_t> hi = evaluateInteger(upper, context);
    if (!lo || !hi)
      return error((lo ? upper : lower)->getBeginLoc(),
                   "the bound of the loop over '" + dims[axis].name +
                       "' must be a constant expression");
    range.lower = *lo;
    range.upper = *hi + (inclusive ? 1 : 0);
    if (range.lower >= range.upper)
      return error(loop->getBeginLoc(), "the " + section + " loop over '" +
                                            dims[axis].name + "' is empty: [" +
                                            llvm::Twine(range.lower) + ", " +
                                            llvm::Twine(range.upper) + ")");
    if (range.lower < 0)
      return error(lower->getBeginLoc(),
                   "the loop over '" + dims[axis].name + "' starts at " +
                       llvm::Twine(range.lower) + ", before the arrays");
    if (range.upper > region.shape[axis])
      return error(upper->getBeginLoc(),
                   "the loop over '" + dims[axis].name + "' runs to " +
                       llvm::Twine(range.upper) + ", beyond the size " +
                       llvm::Twine(region.shape[axis]) +
                       " of the arrays along dimension " + llvm::Twine(axis));
    nest.loops.push_back(range);
    stmt = loop->getBody();
  }
  nest.body = stmt;
  return true;
}

bool Analyzer::analyzeCopies(StencilRegion &region) {
  const Stmt *body = region.copyNest.body;
  SmallVector<const Stmt *> statements;
  if (auto *compound = dyn_cast<CompoundStmt>(body))
    llvm::append_range(statements, compound->body());
  else
    statements.push_back(body);

  // `source[i][j][k] = destination[i][j][k];`, both at the loop point.
  auto matchPoint = [&](const Expr *expr) -> RegionArray * {
    SmallVector<const Expr *, 3> indices;
    expr = skipTransparent(expr);
    while (auto *subscript = dyn_cast<ArraySubscriptExpr>(expr)) {
      indices.push_back(subscript->getIdx());
      expr = skipTransparent(subscript->getBase());
    }
    const VarDecl *var = getReferencedVar(expr);
    if (!var || indices.size() != region.getRank())
      return nullptr;
    std::reverse(indices.begin(), indices.end());
    for (auto [index, loop] : llvm::zip(indices, region.copyNest.loops))
      if (getReferencedVar(index) != loop.var)
        return nullptr;
    return region.findArray(var->getName());
  };

  for (const Stmt *stmt : statements) {
    if (isa<NullStmt>(stmt))
      continue;
    auto *assign = dyn_cast<BinaryOperator>(stmt);
    RegionArray *target = nullptr, *value = nullptr;
    if (assign && assign->getOpcode() == BO_Assign) {
      target = matchPoint(assign->getLHS());
      value = matchPoint(assign->getRHS());
    }
    if (!target || !value)
      return error(stmt->getBeginLoc(),
                   "the copy section may only hold assignments "
                   "'source[...] = destination[...]' at the loop point");
    if (!target->isSource)
      return error(assign->getLHS()->getBeginLoc(),
                   "the copy section writes '" + target->name +
                       "', which is not a source array");
    if (value->isSource)
      return error(assign->getRHS()->getBeginLoc(),
                   "the copy section reads '" + value->name +
                       "', which is not a destination array");
    if (target->copiedFrom)
      return error(assign->getLHS()->getBeginLoc(),
                   "source '" + target->name +
                       "' is copied into twice in the copy section");
    target->copiedFrom = value - region.arrays.data();
    value->copiedBack = true;
  }
  bool ok = true;
  for (const RegionArray &array : region.arrays)
    if (!array.isSource && !array.copiedBack)
      ok = error(array.loc, "destination '" + array.name +
                                "' is never copied back to a source in the "
                                "copy section");
  return ok;
}

std::vector<StencilRegion> mlir::stencil::pragma_c::analyzeRegions(
    ASTContext &context, const std::vector<Directive> &directives) {
  return Analyzer(context).run(directives);
}

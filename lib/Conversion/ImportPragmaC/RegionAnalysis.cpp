//===- RegionAnalysis.cpp - Match directives with the AST -----------------===//
//
// Groups the `#pragma stencil` directives of each function into regions,
// finds the time loop in Clang's AST and splits its body into the calc and
// copy sections; ArrayAnalysis.cpp checks the arrays and the loop nests.
// Together they check everything the stencil dialect needs: one time loop,
// perfect nests over the `dimension` variables with constant bounds inside
// the arrays, arrays of one shape whose C declarations agree with `data`,
// and a copy section that pairs every destination with a source. The calc
// body itself is checked while it is translated (CalcTranslator.cpp).
//
//===----------------------------------------------------------------------===//

#include "Analyzer.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

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

QualType mlir::stencil::pragma_c::getWrittenType(const VarDecl *var) {
  if (auto *param = dyn_cast<ParmVarDecl>(var))
    return param->getOriginalType();
  return var->getType();
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

std::optional<ElementKind>
mlir::stencil::pragma_c::getElementKind(QualType type) {
  const auto *builtin = type.getCanonicalType()->getAs<BuiltinType>();
  if (!builtin)
    return std::nullopt;
  switch (builtin->getKind()) {
  case BuiltinType::Float:
    return ElementKind::Float;
  case BuiltinType::Double:
    return ElementKind::Double;
  case BuiltinType::Int:
    return ElementKind::Int;
  case BuiltinType::Long:
    return ElementKind::Long;
  default:
    return std::nullopt;
  }
}

std::optional<int64_t>
mlir::stencil::pragma_c::getOffsetFrom(const Expr *expr, const VarDecl *var,
                                       ASTContext &context) {
  expr = expr->IgnoreParenImpCasts();
  if (getReferencedVar(expr) == var)
    return 0;
  const auto *binary = dyn_cast<BinaryOperator>(expr);
  if (!binary ||
      (binary->getOpcode() != BO_Add && binary->getOpcode() != BO_Sub))
    return std::nullopt;
  bool add = binary->getOpcode() == BO_Add;
  if (std::optional<int64_t> c = evaluateInteger(binary->getRHS(), context))
    if (std::optional<int64_t> base =
            getOffsetFrom(binary->getLHS(), var, context))
      return add ? llvm::checkedAdd(*base, *c) : llvm::checkedSub(*base, *c);
  if (add)
    if (std::optional<int64_t> c = evaluateInteger(binary->getLHS(), context))
      if (std::optional<int64_t> base =
              getOffsetFrom(binary->getRHS(), var, context))
        return llvm::checkedAdd(*base, *c);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Analyzer
//===----------------------------------------------------------------------===//

const Stmt *mlir::stencil::pragma_c::skipSingleCompound(const Stmt *stmt) {
  while (auto *compound = dyn_cast_or_null<CompoundStmt>(stmt)) {
    if (compound->size() != 1)
      break;
    stmt = compound->body_front();
  }
  return stmt;
}

std::string mlir::stencil::pragma_c::shapeString(ArrayRef<int64_t> shape) {
  std::string text;
  for (int64_t size : shape)
    text += "[" + std::to_string(size) + "]";
  return text;
}

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
  checkResidentUses(regions);
  return regions;
}

namespace {
/// Every reference to a variable in the translation unit.
class ReferenceCollector : public RecursiveASTVisitor<ReferenceCollector> {
public:
  explicit ReferenceCollector(
      const llvm::DenseMap<const VarDecl *, unsigned> &watched)
      : watched(watched) {}
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
      if (watched.count(var->getCanonicalDecl()))
        references.push_back(ref);
    return true;
  }
  const llvm::DenseMap<const VarDecl *, unsigned> &watched;
  std::vector<const DeclRefExpr *> references;
};
} // namespace

std::vector<const VarDecl *>
mlir::stencil::pragma_c::getDeclarationGroup(ASTContext &context,
                                             const VarDecl *var) {
  const SourceManager &sm = context.getSourceManager();
  SourceLocation begin = sm.getExpansionLoc(var->getBeginLoc());
  std::vector<const VarDecl *> group;
  auto visit = [&](const Decl *decl) {
    if (auto *other = dyn_cast<VarDecl>(decl))
      if (!isa<ParmVarDecl>(other) &&
          sm.getExpansionLoc(other->getBeginLoc()) == begin)
        group.push_back(other);
  };
  if (var->isLocalVarDecl()) {
    auto *function = dyn_cast<FunctionDecl>(var->getDeclContext());
    if (function && function->hasBody())
      walkStmts(function->getBody(), [&](const Stmt *stmt) {
        if (auto *declStmt = dyn_cast<DeclStmt>(stmt))
          for (const Decl *local : declStmt->decls())
            visit(local);
      });
  } else {
    for (const Decl *decl : context.getTranslationUnitDecl()->decls())
      visit(decl);
  }
  if (group.empty())
    group.push_back(var);
  return group;
}

void Analyzer::checkResidentUses(std::vector<StencilRegion> &regions) {
  // Each resident array and the region it lives in.
  llvm::DenseMap<const VarDecl *, unsigned> home;
  for (auto [index, region] : llvm::enumerate(regions))
    for (const RegionArray &array : region.arrays) {
      if (!array.isResident)
        continue;
      auto [it, inserted] =
          home.insert({array.decl->getCanonicalDecl(), unsigned(index)});
      if (inserted || it->second == index)
        continue;
      error(region.distribute->residentLoc,
            "'" + array.name +
                "' is resident in an earlier region too; a resident array "
                "exists only inside one region, so its values could not "
                "pass from one to the next: put the sweeps in one region");
      note(regions[it->second].begin->loc, "the earlier region");
    }
  if (home.empty())
    return;
  // Under --mpi their definitions go; the other variables of a declaration
  // would go with them.
  for (const StencilRegion &region : regions)
    for (const RegionArray &array : region.arrays) {
      if (!array.isResident)
        continue;
      for (const VarDecl *other : getDeclarationGroup(context, array.decl))
        if (!home.count(other->getCanonicalDecl())) {
          error(other->getLocation(),
                "'" + other->getName() + "' is declared with resident array '" +
                    array.name +
                    "', whose definition stencilcc --mpi drops; declare it "
                    "apart");
          note(region.distribute->residentLoc, "made resident here");
          return;
        }
    }
  ReferenceCollector collector(home);
  collector.TraverseDecl(context.getTranslationUnitDecl());
  llvm::SmallPtrSet<const VarDecl *, 4> reported;
  for (const DeclRefExpr *ref : collector.references) {
    const VarDecl *var = cast<VarDecl>(ref->getDecl())->getCanonicalDecl();
    const StencilRegion &region = regions[home.lookup(var)];
    SourceLocation at = ref->getBeginLoc();
    if (before(region.begin->hashLoc, at) && before(at, region.end->endLoc))
      continue;
    if (!reported.insert(var).second)
      continue;
    error(at, "'" + var->getName() +
                  "' is resident (distribute(...) resident): under "
                  "stencilcc --mpi it exists only as the ranks' blocks, "
                  "inside its region; initialize it, reduce it and write "
                  "it (stencil_write_raw) in the region");
    note(region.distribute->residentLoc, "made resident here");
  }
}

bool Analyzer::analyzeRegion(StencilRegion &region,
                             const std::vector<const Directive *> &inner) {
  SmallVector<OutsideStatement> outside;
  // A region without a time loop (seed 004's `target` construct over one
  // nest) runs its nests once, as nests before a time loop run.
  if (!assignDirectives(region, inner) || !findTimeLoop(region, outside) ||
      (region.timeLoop && !analyzeTimeLoop(region)))
    return false;
  SmallVector<std::pair<const Directive *, const Stmt *>> loopNests;
  if (region.timeLoop && !splitTimeLoopBody(region, loopNests))
    return false;
  // The nests in program order: before the time loop, in it, after it;
  // resets and output calls outside the loop know which nests precede them.
  struct PlacedNest {
    Phase phase;
    const Directive *directive;
    const Stmt *stmt;
  };
  SmallVector<PlacedNest> nests;
  struct PlacedOutput {
    const CallExpr *call;
    const Expr *condition;
    Phase phase;
    unsigned afterSections;
  };
  SmallVector<PlacedOutput> outputCalls;
  auto placeOutside = [&](Phase phase) {
    for (const OutsideStatement &statement : outside) {
      if (statement.phase != phase)
        continue;
      if (statement.directive) {
        nests.push_back({phase, statement.directive, statement.stmt});
        continue;
      }
      if (const CallExpr *call = getOutputCall(statement.stmt)) {
        auto *ifStmt = dyn_cast<IfStmt>(statement.stmt);
        outputCalls.push_back({call, ifStmt ? ifStmt->getCond() : nullptr,
                               phase, unsigned(nests.size())});
        continue;
      }
      if (auto [var, assign] = matchReset(statement.stmt); var) {
        region.resets.push_back({var, assign, phase, unsigned(nests.size())});
        continue;
      }
      return error(statement.stmt->getBeginLoc(),
                   "before and after the time loop, a region holds 'calc' "
                   "nests, resets of the variables they reduce into and "
                   "stencil_write_raw calls");
    }
    return true;
  };
  if (!placeOutside(Phase::Before))
    return false;
  for (auto [directive, stmt] : loopNests)
    nests.push_back({Phase::Step, directive, stmt});
  if (!placeOutside(Phase::After))
    return false;

  SmallVector<const Stmt *> statements;
  for (const PlacedNest &nest : nests)
    statements.push_back(nest.stmt);
  for (const PlacedOutput &output : outputCalls)
    statements.push_back(output.call);
  if (!analyzeArrays(region, statements))
    return false;
  for (const PlacedNest &nest : nests) {
    Section &section = region.sections.emplace_back();
    section.phase = nest.phase;
    section.directive = nest.directive;
    section.loc =
        nest.directive ? nest.directive->loc : nest.stmt->getBeginLoc();
    unsigned rank = region.getRank();
    section.reachLow.assign(rank, 0);
    section.reachHigh.assign(rank, 0);
    section.reachLowArray.assign(rank, "");
    section.reachHighArray.assign(rank, "");
    if (nest.directive ? !analyzeNest(region, nest.stmt, section.getKindName(),
                                      section.nest)
                       : !analyzeBoundary(region, nest.stmt, section.nest))
      return false;
  }
  if (region.begin->ompDevices && !checkHostStatements(region))
    return false;
  for (const PlacedOutput &output : outputCalls)
    if (!analyzeOutput(region, output.call, output.condition, output.phase,
                       output.afterSections))
      return false;
  if (!checkHaloFits(region, diags))
    return false;
  // One argument per distinct run-time bound: nests over the same range
  // share theirs.
  for (unsigned index = 0; index < region.sections.size(); ++index)
    for (unsigned axis = 0; axis < region.getRank(); ++axis)
      for (bool isUpper : {false, true}) {
        LoopRange &loop = region.sections[index].nest.loops[axis];
        LoopBound &bound = isUpper ? loop.upper : loop.lower;
        if (bound.isConstant())
          continue;
        unsigned clashes = 0;
        std::optional<unsigned> same;
        for (auto [k, other] : llvm::enumerate(region.runtimeBounds)) {
          if (!same && sameBound(bound, region.getBound(other)))
            same = k;
          if (other.axis == axis && other.isUpper == isUpper)
            ++clashes;
        }
        if (same) {
          bound.runtimeIndex = *same;
          continue;
        }
        std::string name =
            loop.var->getNameAsString() + (isUpper ? "_upper" : "_lower");
        if (clashes)
          name += "_" + std::to_string(clashes);
        bound.runtimeIndex = region.runtimeBounds.size();
        region.runtimeBounds.push_back({index, axis, isUpper, name});
      }
  for (Section &section : region.sections)
    if (!(section.isCopy() ? analyzeCopies(region, section)
                           : collectWrites(region, section)))
      return false;
  for (const Section &section : region.sections)
    for (unsigned index : section.writes) {
      RegionArray &array = region.arrays[index];
      if (array.isConst) {
        error(section.loc, "this " + section.getKindName() + " nest writes '" +
                               array.getDisplayName() + "', which is const");
        note(array.loc, "'" + array.name + "' is named here");
        return false;
      }
      array.isWritten = true;
      array.isWrittenInLoop |= section.isInLoop();
    }
  if (region.begin->ompDevices && !markHostValues(region))
    return false;
  return markResidentArrays(region);
}

bool Analyzer::checkHostStatements(const StencilRegion &region) {
  // In OpenMP a statement of the time loop outside the target constructs
  // runs on the host, on arrays the devices do not update until 'target
  // exit data'; as a boundary statement it would run on the region's.
  for (const Section &section : region.sections)
    if (!section.directive && section.isInLoop())
      return error(section.loc,
                   "in seed 004's spelling a statement of the time loop "
                   "outside a 'target teams distribute parallel for' runs "
                   "on the host's copy of the arrays; put it under a loop "
                   "construct, or outside the region");
  return true;
}

bool Analyzer::markHostValues(StencilRegion &region) {
  // A mapped array not mapped back keeps its host values: the region
  // computes on a copy, whose size is the array's.
  for (RegionArray &array : region.arrays) {
    array.keepsHostValues =
        array.isWritten &&
        llvm::none_of(region.end->mappedBack, [&](const NamedLoc &name) {
          return name.name == array.name;
        });
    if (array.keepsHostValues &&
        (isa<ParmVarDecl>(array.decl) ||
         !context.getAsArrayType(array.decl->getType())))
      return error(array.loc,
                   "'" + array.name +
                       "' is written but not mapped back, so the host keeps "
                       "its values and the region computes on a copy, which "
                       "needs the array's size: map it back ('map(from: " +
                       array.name +
                       ")') or declare it as an array, not a "
                       "parameter or pointer");
  }
  return true;
}

std::pair<const VarDecl *, const BinaryOperator *>
Analyzer::matchReset(const Stmt *stmt) {
  auto *assign = dyn_cast<BinaryOperator>(stmt);
  const VarDecl *var = assign && assign->getOpcode() == BO_Assign
                           ? getReferencedVar(assign->getLHS())
                           : nullptr;
  if (!var || var->getType()->isArrayType() || var->getType()->isPointerType())
    return {nullptr, nullptr};
  return {var, assign};
}

const CallExpr *Analyzer::getOutputCall(const Stmt *stmt) {
  // `if (condition) stencil_write_raw(...);`, without an else.
  if (auto *ifStmt = dyn_cast<IfStmt>(stmt)) {
    if (ifStmt->getElse() || ifStmt->getInit() ||
        ifStmt->getConditionVariable())
      return nullptr;
    stmt = skipSingleCompound(ifStmt->getThen());
  }
  auto *call = dyn_cast_or_null<CallExpr>(stmt);
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  if (!callee || (callee->getName() != "stencil_write_raw_bytes" &&
                  callee->getName() != "stencil_write_raw"))
    return nullptr;
  return call;
}

bool Analyzer::analyzeOutput(StencilRegion &region, const CallExpr *call,
                             const Expr *condition, Phase phase,
                             unsigned afterSections) {
  // stencil_io.h: stencil_write_raw(A, path) is
  // stencil_write_raw_bytes((A), sizeof(A), (path)).
  SourceLocation at = call->getBeginLoc();
  auto *size = call->getNumArgs() == 3
                   ? dyn_cast<UnaryExprOrTypeTraitExpr>(
                         call->getArg(1)->IgnoreParenImpCasts())
                   : nullptr;
  const VarDecl *var =
      call->getNumArgs() == 3
          ? getReferencedVar(call->getArg(0)->IgnoreParenImpCasts())
          : nullptr;
  if (!size || size->getKind() != UETT_SizeOf || size->isArgumentType() ||
      !var || getReferencedVar(size->getArgumentExpr()) != var)
    return error(at, "write an array of the region with "
                     "'stencil_write_raw(A, path)' (stencil_io.h), which "
                     "writes all of A");
  // sizeof of a pointer (a parameter `double A[n][n]`) is the pointer's
  // size: plain C would write a few bytes.
  if (!var->getType()->isArrayType())
    return error(call->getArg(0)->IgnoreParenImpCasts()->getBeginLoc(),
                 "'" + var->getName() +
                     "' is a pointer here, so stencil_write_raw(" +
                     var->getName() +
                     ", ...) would write sizeof a pointer in C; write an "
                     "array defined in this function or file");
  RegionArray *array = region.findArray(var->getName());
  if (!array)
    return error(call->getArg(0)->IgnoreParenImpCasts()->getBeginLoc(),
                 "'" + var->getName() +
                     "' is not an array of the region's 'data'; "
                     "stencil_write_raw in a region writes its arrays");
  if (!array->componentShape.empty())
    return error(call->getArg(0)->IgnoreParenImpCasts()->getBeginLoc(),
                 "'" + var->getName() +
                     "' has component dimensions; stencil_write_raw in a "
                     "region writes arrays of the grid's rank only");
  const Expr *path = call->getArg(2);
  QualType pathType = path->IgnoreParenImpCasts()->getType();
  if (const auto *arrayType = context.getAsArrayType(pathType))
    pathType = context.getPointerType(arrayType->getElementType());
  if (!pathType->isPointerType() || !pathType->getPointeeType()->isCharType())
    return error(path->IgnoreParenImpCasts()->getBeginLoc(),
                 "the file name of stencil_write_raw "
                 "must be a string ('char *')");
  // The path and the condition are evaluated when the region is entered.
  for (auto entry :
       {std::pair{path, "the file name of stencil_write_raw"},
        std::pair{condition, "the condition of stencil_write_raw"}}) {
    const Expr *expr = entry.first;
    const char *what = entry.second;
    if (!expr)
      continue;
    if (expr->HasSideEffects(context))
      return error(expr->IgnoreParenImpCasts()->getBeginLoc(),
                   llvm::Twine(what) +
                       " has side effects; the region evaluates it on "
                       "entry: compute it before the region");
    bool ok = true;
    walkStmts(expr, [&](const Stmt *stmt) {
      const VarDecl *read = nullptr;
      if (auto *ref = dyn_cast<DeclRefExpr>(stmt))
        read = dyn_cast<VarDecl>(ref->getDecl());
      if (!ok || !read)
        return;
      if (region.isDataArray(read->getName()) ||
          region.assignedInLoop.contains(read) ||
          llvm::any_of(region.sections, [&](const Section &section) {
            return llvm::any_of(section.nest.loops, [&](const LoopRange &l) {
              return l.var == read;
            });
          }))
        ok = error(stmt->getBeginLoc(),
                   llvm::Twine(what) + " reads '" + read->getName() +
                       "', which the region changes; the region evaluates "
                       "it on entry: compute it before the region");
    });
    if (!ok)
      return false;
  }
  OutputStatement &output = region.outputs.emplace_back();
  output.call = call;
  output.field = array - region.arrays.data();
  output.path = path;
  output.condition = condition;
  output.phase = phase;
  output.afterSections = afterSections;
  output.paramName = "path" + std::to_string(region.outputs.size() - 1);
  return true;
}

bool Analyzer::markResidentArrays(StencilRegion &region) {
  if (!region.distribute || region.distribute->residentLoc.isInvalid())
    return true;
  const Directive &distribute = *region.distribute;
  for (const NamedLoc &name : distribute.residentArrays)
    if (!region.isDataArray(name.name))
      return error(name.loc, "'" + name.name +
                                 "' is not an array of the region's 'data'; "
                                 "'resident' names arrays of 'data'");
  for (RegionArray &array : region.arrays) {
    if (!distribute.residentArrays.empty() &&
        llvm::none_of(distribute.residentArrays, [&](const NamedLoc &name) {
          return name.name == array.name;
        }))
      continue;
    // The region drops the array's definition under --mpi: it must be an
    // array this file defines, once.
    const VarDecl *decl = array.decl;
    if (!decl || isa<ParmVarDecl>(decl) || !decl->getType()->isArrayType() ||
        decl->hasExternalStorage() ||
        std::distance(decl->redecls_begin(), decl->redecls_end()) != 1) {
      error(array.loc, "'" + array.name +
                           "' is resident, so each rank holds only its "
                           "block: it must be an array this file defines, "
                           "in one declaration ('static float " +
                           array.name +
                           "[N][N];'), not a parameter, a pointer or an "
                           "'extern' declaration");
      if (decl)
        note(decl->getLocation(), "'" + array.name + "' is declared here");
      return false;
    }
    // Its blocks start at zero: an initializer would be lost.
    if (const Expr *init = decl->getInit()) {
      error(init->getBeginLoc(),
            "'" + array.name +
                "' is resident, so its blocks start at zero under "
                "stencilcc --mpi and this initializer would be lost; "
                "initialize it in a 'calc' nest of the region");
      note(distribute.residentLoc, "made resident here");
      return false;
    }
    array.isResident = true;
  }
  // Each run of the region allocates the blocks afresh: a region that runs
  // again in a loop would not see the values the last run left.
  const Stmt *enclosingLoop = nullptr;
  walkStmts(region.function->getBody(), [&](const Stmt *stmt) {
    if (!enclosingLoop && isa<ForStmt, WhileStmt, DoStmt>(stmt) &&
        before(stmt->getBeginLoc(), region.begin->loc) &&
        before(region.end->loc, stmt->getEndLoc()))
      enclosingLoop = stmt;
  });
  if (enclosingLoop) {
    error(distribute.residentLoc,
          "a region with resident arrays allocates their blocks each time "
          "it runs; in a loop, each run would start from zero where C keeps "
          "the last run's values: move the loop into the region");
    note(enclosingLoop->getBeginLoc(), "the enclosing loop");
    return false;
  }
  return true;
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
    case DirectiveKind::Copy:
      region.nestDirectives.push_back(directive);
      continue;
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
        std::pair{region.dimension, "dimension"}}) {
    if (!directive)
      ok = error(region.begin->loc, llvm::Twine("the region has no "
                                                "'#pragma stencil ") +
                                        name + "'");
  }
  if (llvm::none_of(region.nestDirectives, [](const Directive *directive) {
        return directive->kind == DirectiveKind::Calc;
      }))
    ok = error(region.begin->loc, "the region has no '#pragma stencil calc'");
  if (region.distribute && region.halo && region.distribute->haloWidth) {
    ok = error(region.halo->loc, "halo width given twice: here and in "
                                 "'distribute'");
  }
  if (region.halo && !region.distribute)
    ok = error(region.halo->loc,
               "'#pragma stencil halo' needs a 'distribute' directive");
  return ok;
}

bool Analyzer::findTimeLoop(StencilRegion &region,
                            SmallVectorImpl<OutsideStatement> &outside) {
  // The outermost statements between the `begin` and `end` lines. A region
  // of one nest may begin on the nest's own directive line.
  bool once = region.step->once;
  SourceLocation lo = once ? region.begin->hashLoc : region.begin->endLoc;
  SourceLocation hi = region.end->hashLoc;
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
  llvm::erase_if(contained,
                 [](const Stmt *stmt) { return isa<NullStmt>(stmt); });
  if (contained.empty())
    return error(region.end->loc, once ? "expected a loop nest ('for') after "
                                         "the region's directives"
                                       : "expected the time loop ('for') "
                                         "after the region's directives");

  // The time loop is the `for` of the step variable that no `calc`
  // directive governs; the other statements run once, before or after it.
  auto isTimeLoop = [&](const Stmt *stmt) {
    auto *loop = dyn_cast<ForStmt>(stmt);
    const VarDecl *var = nullptr;
    const Expr *value = nullptr;
    bool declares = false;
    return loop && matchLoopInit(loop->getInit(), var, value, declares) &&
           var->getName() == region.step->stepVar.name;
  };
  const Stmt *timeLoop = nullptr;
  // A directive governs the statement right after it.
  SourceLocation previousEnd = lo;
  auto ownerOf = [&](const Stmt *stmt) -> const Directive * {
    const Directive *owner = nullptr;
    for (const Directive *directive : region.nestDirectives)
      if (before(previousEnd, directive->loc) &&
          before(directive->loc, stmt->getBeginLoc()))
        owner = owner ? owner : directive;
    return owner;
  };
  for (const Stmt *stmt : contained) {
    if (once)
      break;
    if (isTimeLoop(stmt) && !ownerOf(stmt)) {
      timeLoop = stmt;
      break;
    }
    previousEnd = stmt->getEndLoc();
  }
  // Without a `for` of the step variable, the first ungoverned `for` is the
  // time loop, and analyzeTimeLoop says what is wrong with it.
  previousEnd = lo;
  if (!timeLoop && !once)
    for (const Stmt *stmt : contained) {
      if (isa<ForStmt>(stmt) && !ownerOf(stmt)) {
        timeLoop = stmt;
        break;
      }
      previousEnd = stmt->getEndLoc();
    }
  if (!timeLoop && !once)
    return error(contained.front()->getBeginLoc(),
                 "expected the time loop ('for') after the region's "
                 "directives");
  region.timeLoop = cast_or_null<ForStmt>(timeLoop);

  bool ok = true;
  SourceLocation firstBegin = contained.front()->getBeginLoc();
  for (const Directive *directive : {region.step, region.data, region.dimension,
                                     region.distribute, region.halo})
    if (directive && !before(directive->loc, firstBegin))
      ok = error(directive->loc,
                 region.begin->ompDevices
                     ? llvm::Twine("'target enter data' must come before the "
                                   "region's first statement: map every "
                                   "array before the other statements")
                     : llvm::Twine("'#pragma stencil ") +
                           getDirectiveName(directive->kind) +
                           "' must come before the region's first "
                           "statement");
  if (!ok)
    return false;

  // Before and after the time loop: calc nests, each under its directive,
  // resets and output calls (classified by analyzeRegion). Without one,
  // everything is "before".
  SourceLocation loopBegin = timeLoop ? timeLoop->getBeginLoc() : hi;
  SourceLocation loopEnd = timeLoop ? timeLoop->getEndLoc() : hi;
  previousEnd = lo;
  llvm::SmallPtrSet<const Directive *, 4> owned;
  for (const Stmt *stmt : contained) {
    if (stmt == timeLoop) {
      previousEnd = stmt->getEndLoc();
      continue;
    }
    const Directive *owner = nullptr;
    for (const Directive *directive : region.nestDirectives) {
      if (!before(directive->loc, stmt->getBeginLoc()) ||
          !before(previousEnd, directive->loc))
        continue;
      if (owner) {
        error(owner->loc, llvm::Twine("'#pragma stencil ") +
                              getDirectiveName(owner->kind) +
                              "' is not followed by a loop nest");
        return false;
      }
      owner = directive;
    }
    previousEnd = stmt->getEndLoc();
    Phase phase =
        before(stmt->getBeginLoc(), loopBegin) ? Phase::Before : Phase::After;
    if (once)
      collectAssignedVariables(stmt, region.assignedInLoop);
    if (owner) {
      owned.insert(owner);
      if (owner->kind == DirectiveKind::Copy) {
        error(owner->loc, "'#pragma stencil copy' belongs in the time loop; "
                          "before or after it, a region runs 'calc' nests");
        note(loopBegin, "the time loop is here");
        return false;
      }
    }
    outside.push_back({phase, owner, stmt});
  }
  // Every directive outside the time loop governs a nest.
  for (const Directive *directive : region.nestDirectives) {
    bool inLoop = timeLoop && before(loopBegin, directive->loc) &&
                  before(directive->loc, loopEnd);
    if (!inLoop && !owned.contains(directive))
      return error(directive->loc, llvm::Twine("'#pragma stencil ") +
                                       getDirectiveName(directive->kind) +
                                       "' is not followed by a loop nest");
  }
  return true;
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
  // `i < n` with a wider or floating-point `n` converts `i`.
  if (!compare ||
      (compare->getOpcode() != BO_LT && compare->getOpcode() != BO_LE) ||
      getReferencedVar(compare->getLHS()->IgnoreParenImpCasts()) != var)
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

void Analyzer::collectAssignedVariables(
    const Stmt *root, llvm::SmallPtrSetImpl<const VarDecl *> &assigned) {
  walkStmts(root, [&](const Stmt *stmt) {
    const Expr *target = nullptr;
    if (auto *binary = dyn_cast<BinaryOperator>(stmt);
        binary && binary->isAssignmentOp())
      target = binary->getLHS();
    if (auto *unary = dyn_cast<UnaryOperator>(stmt);
        unary && unary->isIncrementDecrementOp())
      target = unary->getSubExpr();
    if (const VarDecl *written = target ? getReferencedVar(target) : nullptr)
      assigned.insert(written);
  });
}

bool Analyzer::analyzeTimeLoop(StencilRegion &region) {
  const ForStmt *loop = region.timeLoop;
  const VarDecl *var = nullptr;
  const Expr *lower = nullptr;
  bool declares = false;
  if (!matchLoopInit(loop->getInit(), var, lower, declares))
    return error(loop->getBeginLoc(),
                 "the time loop must start with '" +
                     (region.step->implicit ? std::string("<variable>")
                                            : region.step->stepVar.name) +
                     " = <first step>'");
  // Seed 004's spelling names no step variable: the loop's is taken.
  if (!region.step->implicit && var->getName() != region.step->stepVar.name) {
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
  // C evaluates the upper bound before every step, the compiled region
  // once: it must not depend on what the loop changes.
  llvm::SmallPtrSet<const VarDecl *, 8> &assigned = region.assignedInLoop;
  assigned.insert(var);
  collectAssignedVariables(loop->getBody(), assigned);
  bool ok = true;
  walkStmts(upper, [&](const Stmt *stmt) {
    auto *ref = dyn_cast<DeclRefExpr>(stmt);
    auto *read = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    if (!ok || !read)
      return;
    StringRef name = read->getName();
    if (read == var)
      ok = error(ref->getBeginLoc(),
                 "the time loop bound depends on the loop variable '" + name +
                     "'; C evaluates it before every step, the compiled "
                     "region once: compute the number of steps before the "
                     "region");
    else if (region.isDataArray(name))
      ok = error(ref->getBeginLoc(),
                 "the time loop bound reads '" + name +
                     "', an array of the region; C evaluates the bound "
                     "before every step, the compiled region once: compute "
                     "the number of steps before the region");
    else if (assigned.contains(read))
      ok = error(ref->getBeginLoc(),
                 "the time loop bound reads '" + name +
                     "', which the loop assigns; C evaluates the bound "
                     "before every step, the compiled region once: compute "
                     "the number of steps before the region");
  });
  if (!ok)
    return false;
  region.timeVar = var;
  region.timeVarDeclaredInLoop = declares;
  region.stepLower = lower;
  region.stepUpper = upper;
  region.stepInclusive = inclusive;
  return true;
}

bool Analyzer::splitTimeLoopBody(
    StencilRegion &region,
    SmallVectorImpl<std::pair<const Directive *, const Stmt *>> &nests) {
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
  // Each directive governs the statement that follows it.
  SmallVector<const Directive *> inLoop;
  for (const Directive *directive : region.nestDirectives)
    if (before(region.timeLoop->getBeginLoc(), directive->loc) &&
        before(directive->loc, region.timeLoop->getEndLoc()))
      inLoop.push_back(directive);
  auto next = inLoop.begin();
  for (const Stmt *child : children) {
    if (isa<NullStmt>(child))
      continue;
    const Directive *owner = nullptr;
    for (; next != inLoop.end() && before((*next)->loc, child->getBeginLoc());
         ++next) {
      if (owner || !before(previousEnd, (*next)->loc)) {
        error((*next)->loc, llvm::Twine("'#pragma stencil ") +
                                getDirectiveName((*next)->kind) +
                                "' is not followed by a loop nest");
        return false;
      }
      owner = *next;
    }
    previousEnd = child->getEndLoc();
    if (owner) {
      nests.push_back({owner, child});
      continue;
    }
    // `v = value;` before the first nest resets a reduction variable; the
    // translation of the calc bodies checks that `v` is one.
    if (nests.empty())
      if (auto [var, assign] = matchReset(child); var) {
        region.resets.push_back({var, assign});
        continue;
      }
    if (getOutputCall(child)) {
      error(child->getBeginLoc(),
            "stencil_write_raw in a region runs before or after its time "
            "loop, not in it");
      note(region.timeLoop->getBeginLoc(), "the time loop is here");
      return false;
    }
    // Anything else is a boundary statement (analyzeBoundary).
    nests.push_back({nullptr, child});
  }
  if (next != inLoop.end())
    return error((*next)->loc, llvm::Twine("'#pragma stencil ") +
                                   getDirectiveName((*next)->kind) +
                                   "' is not followed by a loop nest");
  return true;
}

/// `expr` as `base + addend`, looking through additions and subtractions
/// of constants at the top.
static std::pair<const Expr *, int64_t>
splitAddend(const Expr *expr, int64_t addend, ASTContext &context) {
  while (true) {
    expr = expr->IgnoreParenImpCasts();
    auto *binary = dyn_cast<BinaryOperator>(expr);
    if (!binary ||
        (binary->getOpcode() != BO_Add && binary->getOpcode() != BO_Sub))
      return {expr, addend};
    int64_t sign = binary->getOpcode() == BO_Add ? 1 : -1;
    if (std::optional<int64_t> value =
            evaluateInteger(binary->getRHS(), context)) {
      addend += sign * *value;
      expr = binary->getLHS();
    } else if (std::optional<int64_t> value =
                   evaluateInteger(binary->getLHS(), context);
               value && sign == 1) {
      addend += *value;
      expr = binary->getRHS();
    } else {
      return {expr, addend};
    }
  }
}

bool Analyzer::sameBound(const LoopBound &a, const LoopBound &b) {
  if (a.isConstant() || b.isConstant())
    return a.value == b.value;
  auto [baseA, addendA] = splitAddend(a.expr, a.addend, context);
  auto [baseB, addendB] = splitAddend(b.expr, b.addend, context);
  if (addendA != addendB)
    return false;
  llvm::FoldingSetNodeID idA, idB;
  baseA->Profile(idA, context, /*Canonical=*/true);
  baseB->Profile(idB, context, /*Canonical=*/true);
  return idA == idB;
}

std::string Analyzer::getBoundText(const LoopBound &bound) {
  if (bound.isConstant())
    return std::to_string(*bound.value);
  std::string text =
      Lexer::getSourceText(sm.getExpansionRange(bound.expr->getSourceRange()),
                           sm, context.getLangOpts())
          .str();
  return bound.addend ? text + " + " + std::to_string(bound.addend) : text;
}

std::vector<StencilRegion> mlir::stencil::pragma_c::analyzeRegions(
    ASTContext &context, const std::vector<Directive> &directives) {
  return Analyzer(context).run(directives);
}

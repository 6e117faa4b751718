//===- Reductions.cpp - Reduction updates in a calc body ------------------===//
//
// A variable of the enclosing function or file that the calc body updates
// (Himeno's `gosa += ss*ss`) is a reduction of the region: each point
// contributes a value, and after the loop nest the variable holds its old
// value combined with all contributions. The forms C programs use:
//
//   s += e;  s -= e;  s *= e;  s = s + e;  s = e + s;  s = s - e;  s = s * e;
//   s = fmax(s, e);  s = fmin(s, e);  (fmaxf, fminf; either argument order)
//   s = s > e ? s : e;  s = s < e ? s : e;  (and every equivalent ordering)
//
// `s` may not be read otherwise in the body (its running value does not
// exist at a point), and one variable takes one kind of update (`+=` and
// `-=` are both sums). The contribution is `e` converted to the type of
// `s` (negated for `-`); several updates of one variable at a point
// combine into one contribution.
//
//===----------------------------------------------------------------------===//

#include "CalcTranslator.h"

#include "Stencil/Dialect/Stencil/Utils/ReductionUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::pragma_c;
using clang::dyn_cast;

namespace {

/// How an assignment updates its variable.
struct UpdateForm {
  ReductionKind kind;
  /// `e`, the other operand.
  const clang::Expr *operand;
  /// `s -= e`, `s = s - e`: the contribution is -e.
  bool negate = false;
  /// For messages: `+=`, `fmax`, `?:`, ...
  std::string spelling;
};

bool sameExpr(const clang::Expr *a, const clang::Expr *b,
              const clang::ASTContext &context) {
  llvm::FoldingSetNodeID idA, idB;
  a->IgnoreParenImpCasts()->Profile(idA, context, /*Canonical=*/true);
  b->IgnoreParenImpCasts()->Profile(idB, context, /*Canonical=*/true);
  return idA == idB;
}

/// The form of `assign` as an update of `var`, if it is one.
std::optional<UpdateForm> matchUpdate(const clang::BinaryOperator *assign,
                                      const clang::VarDecl *var,
                                      const clang::ASTContext &context) {
  auto isVar = [&](const clang::Expr *expr) {
    auto *ref = dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
    return ref && ref->getDecl() == var;
  };
  const clang::Expr *rhs = assign->getRHS();
  switch (assign->getOpcode()) {
  case clang::BO_AddAssign:
    return UpdateForm{ReductionKind::Add, rhs, false, "+="};
  case clang::BO_SubAssign:
    return UpdateForm{ReductionKind::Add, rhs, true, "-="};
  case clang::BO_MulAssign:
    return UpdateForm{ReductionKind::Mul, rhs, false, "*="};
  case clang::BO_Assign:
    break;
  default:
    return std::nullopt;
  }

  const clang::Expr *value = rhs->IgnoreParenImpCasts();
  if (auto *binary = dyn_cast<clang::BinaryOperator>(value)) {
    const clang::Expr *lhs = binary->getLHS(), *other = binary->getRHS();
    switch (binary->getOpcode()) {
    case clang::BO_Add:
      if (isVar(lhs))
        return UpdateForm{ReductionKind::Add, other, false, "+"};
      if (isVar(other))
        return UpdateForm{ReductionKind::Add, lhs, false, "+"};
      return std::nullopt;
    case clang::BO_Sub:
      if (isVar(lhs))
        return UpdateForm{ReductionKind::Add, other, true, "-"};
      return std::nullopt;
    case clang::BO_Mul:
      if (isVar(lhs))
        return UpdateForm{ReductionKind::Mul, other, false, "*"};
      if (isVar(other))
        return UpdateForm{ReductionKind::Mul, lhs, false, "*"};
      return std::nullopt;
    default:
      return std::nullopt;
    }
  }

  if (auto *call = dyn_cast<clang::CallExpr>(value)) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee || call->getNumArgs() != 2)
      return std::nullopt;
    std::optional<ReductionKind> kind =
        llvm::StringSwitch<std::optional<ReductionKind>>(callee->getName())
            .Cases({"fmax", "fmaxf"}, ReductionKind::Max)
            .Cases({"fmin", "fminf"}, ReductionKind::Min)
            .Default(std::nullopt);
    if (!kind)
      return std::nullopt;
    std::string name = callee->getName().str();
    if (isVar(call->getArg(0)))
      return UpdateForm{*kind, call->getArg(1), false, name};
    if (isVar(call->getArg(1)))
      return UpdateForm{*kind, call->getArg(0), false, name};
    return std::nullopt;
  }

  // `s > e ? s : e` and its mirror images: the comparison and the branches
  // name `s` and the same `e`.
  if (auto *conditional = dyn_cast<clang::ConditionalOperator>(value)) {
    auto *compare = dyn_cast<clang::BinaryOperator>(
        conditional->getCond()->IgnoreParenImpCasts());
    if (!compare || !compare->isRelationalOp())
      return std::nullopt;
    bool varLeft = isVar(compare->getLHS());
    if (varLeft == isVar(compare->getRHS()))
      return std::nullopt;
    const clang::Expr *operand =
        varLeft ? compare->getRHS() : compare->getLHS();
    const clang::Expr *whenTrue = conditional->getTrueExpr();
    const clang::Expr *whenFalse = conditional->getFalseExpr();
    bool trueIsVar;
    if (isVar(whenTrue) && sameExpr(whenFalse, operand, context))
      trueIsVar = true;
    else if (isVar(whenFalse) && sameExpr(whenTrue, operand, context))
      trueIsVar = false;
    else
      return std::nullopt;
    clang::BinaryOperatorKind op = compare->getOpcode();
    bool trueMeansVarGreater = varLeft
                                   ? (op == clang::BO_GT || op == clang::BO_GE)
                                   : (op == clang::BO_LT || op == clang::BO_LE);
    // Keeping the variable when it is the greater one is a maximum.
    ReductionKind kind = trueMeansVarGreater == trueIsVar ? ReductionKind::Max
                                                          : ReductionKind::Min;
    return UpdateForm{kind, operand, false, "?:"};
  }
  return std::nullopt;
}

} // namespace

bool CalcTranslator::translateReduction(const clang::BinaryOperator *assign,
                                        const clang::VarDecl *var) {
  clang::SourceLocation at = assign->getLHS()->getBeginLoc();
  std::string name = ("'" + var->getName() + "'").str();
  if (isLoopVariable(var))
    return error(at, "loop variable " + name +
                         " may not be assigned in the calc section");
  clang::QualType type = var->getType().getCanonicalType();
  if (type->isArrayType() || type->isPointerType() ||
      region.findArray(var->getName()))
    return error(at, name + " must be indexed with the loop variables in "
                            "the calc section");
  std::optional<UpdateForm> form = matchUpdate(assign, var, astContext);
  if (!form)
    return error(at, name +
                         " is declared outside the calc section, which may "
                         "update it only as a reduction: '" +
                         var->getName() + " += e', '-=', '*=', '" +
                         var->getName() + " = fmax(" + var->getName() +
                         ", e)', 'fmin', or '" + var->getName() + " = " +
                         var->getName() + " > e ? " + var->getName() +
                         " : e' (or '<')");
  // float, double, and the signed integers MPI and the GPU backends combine.
  bool isFloat = type->isSpecificBuiltinType(clang::BuiltinType::Float) ||
                 type->isSpecificBuiltinType(clang::BuiltinType::Double);
  bool isInteger = type->isSignedIntegerType() && !type->isBooleanType() &&
                   (astContext.getTypeSize(type) == 32 ||
                    astContext.getTypeSize(type) == 64);
  if (!isFloat && !isInteger)
    return error(at, "reductions over '" + var->getType().getAsString() +
                         "' are not supported; use float, double, int or "
                         "long");
  const clang::Expr *operand = form->operand->IgnoreParenImpCasts();
  if (isInteger &&
      (form->kind == ReductionKind::Add || form->kind == ReductionKind::Mul) &&
      operand->getType()->isRealFloatingType())
    return error(operand->getBeginLoc(),
                 "'" + var->getName() + " " + form->spelling +
                     " e' with a floating-point 'e' rounds at every update "
                     "of integer " +
                     name + "; compute the contribution as an integer");
  if (isInteger && form->spelling.rfind("fm", 0) == 0)
    return error(assign->getRHS()->getBeginLoc(),
                 "'" + form->spelling +
                     "' reduces floating-point variables; "
                     "for integer " +
                     name + " write '" + var->getName() + " = " +
                     var->getName() + " > e ? " + var->getName() + " : e'");
  // The variable's running value is not known at a point.
  if (scalarArguments.count(var)) {
    error(at, name + " is read as a value in the calc section and updated "
                     "here as a reduction; its running value is not known "
                     "inside the loop nest");
    for (const CapturedScalar &scalar : region.scalars)
      if (scalar.decl == var)
        reportNote(diags, scalar.firstUse, "read here");
    return false;
  }

  RegionReduction *reduction = nullptr;
  for (RegionReduction &existing : region.reductions)
    if (existing.decl == var)
      reduction = &existing;
  unsigned sectionIndex = section - region.sections.data();
  if (reduction && reduction->section != sectionIndex) {
    error(at, name + " is reduced in two loop nests of the region; a "
                     "reduction belongs to one nest");
    reportNote(diags, reduction->loc, "first updated here");
    return false;
  }
  if (reduction && reduction->kind != form->kind) {
    error(at, name + " is updated by '" + form->spelling + "' here and by '" +
                  reduction->spelling +
                  "' before; a reduction combines with one operator");
    reportNote(diags, reduction->loc, "first updated here");
    return false;
  }
  if (!reduction) {
    region.reductions.push_back(
        {var, form->kind, sectionIndex, at, form->spelling, /*reset=*/nullptr});
    reduction = &region.reductions.back();
    contributions.push_back(Value());
  }
  unsigned index = reduction - region.reductions.data();

  Location location = loc(assign->getOperatorLoc());
  Value contribution = translateValue(operand, var->getType());
  if (!contribution)
    return false;
  if (form->negate)
    contribution =
        isFloat
            ? arith::NegFOp::create(builder, location, contribution).getResult()
            : arith::SubIOp::create(
                  builder, location,
                  arith::ConstantOp::create(
                      builder, location,
                      builder.getZeroAttr(contribution.getType())),
                  contribution)
                  .getResult();
  Value &combined = contributions[index];
  combined = combined ? createReductionCombine(builder, location, form->kind,
                                               combined, contribution)
                      : contribution;
  return true;
}

//===- CalcTranslator.cpp - A calc body in stencil IR ---------------------===//
//
// The calc body is translated expression by expression from Clang's AST,
// following its implicit conversions exactly (float -> double promotion of
// `C0*A[i]` with a double C0, truncation on assignment), so the stencil
// computes bit for bit what the C loop computes. Array reads become
// stencil.access ops on block arguments created at first use, one per
// array read; scalars of the enclosing function become arguments too.
//
//===----------------------------------------------------------------------===//

#include "CalcTranslator.h"

#include "Stencil/Dialect/Stencil/IR/StencilOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::pragma_c;
using clang::dyn_cast;
using clang::isa;

Type CalcTranslator::mapType(clang::QualType type, clang::SourceLocation at) {
  type = type.getCanonicalType().getUnqualifiedType();
  if (type->isSpecificBuiltinType(clang::BuiltinType::Float))
    return builder.getF32Type();
  if (type->isSpecificBuiltinType(clang::BuiltinType::Double))
    return builder.getF64Type();
  if (type->isIntegerType() && !type->isBooleanType())
    return builder.getIntegerType(astContext.getTypeSize(type));
  error(at, "values of type '" + type.getAsString() +
                "' are not supported in the calc section; use float, "
                "double or integers");
  return {};
}

Value CalcTranslator::convert(Value value, clang::QualType from,
                              clang::QualType to, Location location) {
  Type fromType = value.getType();
  Type toType = mapType(to, {});
  if (!toType || fromType == toType)
    return value;
  bool fromFloat = isa<FloatType>(fromType), toFloat = isa<FloatType>(toType);
  if (fromFloat && toFloat)
    return fromType.getIntOrFloatBitWidth() < toType.getIntOrFloatBitWidth()
               ? arith::ExtFOp::create(builder, location, toType, value)
                     .getResult()
               : arith::TruncFOp::create(builder, location, toType, value)
                     .getResult();
  if (!fromFloat && toFloat)
    return from->isUnsignedIntegerType()
               ? arith::UIToFPOp::create(builder, location, toType, value)
                     .getResult()
               : arith::SIToFPOp::create(builder, location, toType, value)
                     .getResult();
  if (fromFloat && !toFloat)
    return to->isUnsignedIntegerType()
               ? arith::FPToUIOp::create(builder, location, toType, value)
                     .getResult()
               : arith::FPToSIOp::create(builder, location, toType, value)
                     .getResult();
  unsigned fromWidth = fromType.getIntOrFloatBitWidth();
  unsigned toWidth = toType.getIntOrFloatBitWidth();
  if (fromWidth > toWidth)
    return arith::TruncIOp::create(builder, location, toType, value);
  return from->isUnsignedIntegerType()
             ? arith::ExtUIOp::create(builder, location, toType, value)
                   .getResult()
             : arith::ExtSIOp::create(builder, location, toType, value)
                   .getResult();
}

bool CalcTranslator::translateStmt(const clang::Stmt *stmt) {
  if (auto *compound = dyn_cast<clang::CompoundStmt>(stmt)) {
    scopes.emplace_back();
    for (const clang::Stmt *child : compound->body())
      if (!translateStmt(child))
        return false;
    scopes.pop_back();
    return true;
  }
  if (isa<clang::NullStmt>(stmt))
    return true;
  if (auto *declStmt = dyn_cast<clang::DeclStmt>(stmt)) {
    if (scopes.empty())
      scopes.emplace_back();
    for (const clang::Decl *decl : declStmt->decls()) {
      auto *var = dyn_cast<clang::VarDecl>(decl);
      if (!var)
        return error(decl->getLocation(), "only variable declarations are "
                                          "supported in the calc section");
      if (!translateDecl(var))
        return false;
    }
    return true;
  }
  if (auto *assign = dyn_cast<clang::BinaryOperator>(stmt))
    if (assign->isAssignmentOp())
      return translateAssign(assign);
  if (auto *ifStmt = dyn_cast<clang::IfStmt>(stmt))
    return translateIf(ifStmt);
  if (isa<clang::BreakStmt, clang::ContinueStmt, clang::ReturnStmt,
          clang::GotoStmt, clang::IndirectGotoStmt>(stmt)) {
    StringRef keyword = isa<clang::BreakStmt>(stmt)      ? "break"
                        : isa<clang::ContinueStmt>(stmt) ? "continue"
                        : isa<clang::ReturnStmt>(stmt)   ? "return"
                                                         : "goto";
    return error(stmt->getBeginLoc(),
                 "'" + keyword +
                     "' is not supported in the calc section: every point "
                     "of the nest is computed; put the statements to skip "
                     "under an 'if' instead");
  }
  if (isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt>(stmt))
    return error(stmt->getBeginLoc(),
                 "loops inside the calc loop nest are not supported");
  if (auto *expr = dyn_cast<clang::Expr>(stmt)) {
    if (auto *unary = dyn_cast<clang::UnaryOperator>(expr->IgnoreParens()))
      if (unary->isIncrementDecrementOp())
        return error(stmt->getBeginLoc(),
                     "'++' and '--' are not supported in the calc section; "
                     "write 'x = x + 1'");
    if (isa<clang::CallExpr>(expr->IgnoreParens()))
      return error(stmt->getBeginLoc(),
                   "a call whose result is unused has no effect a stencil "
                   "can express");
    return error(stmt->getBeginLoc(),
                 "this expression statement has no effect; the calc section "
                 "holds assignments");
  }
  return error(stmt->getBeginLoc(), llvm::Twine("'") +
                                        stmt->getStmtClassName() +
                                        "' statements are not supported in "
                                        "the calc section");
}

bool CalcTranslator::translateDecl(const clang::VarDecl *var) {
  if (!var->hasLocalStorage())
    return error(var->getLocation(),
                 "'static' variables are not supported in the calc section");
  if (!mapType(var->getType(), var->getLocation()))
    return false;
  Value value;
  if (const clang::Expr *init = var->getInit())
    if (!(value = translateExpr(init)))
      return false;
  scopes.back()[var] = value;
  return true;
}

bool CalcTranslator::translateAssign(const clang::BinaryOperator *assign) {
  Location location = loc(assign->getOperatorLoc());
  const clang::Expr *target = assign->getLHS()->IgnoreParens();
  auto compound = dyn_cast<clang::CompoundAssignOperator>(assign);

  // The value to store: for `x op= y`, x and y meet in the computation type
  // and the result converts back to x's type, as in C.
  auto compute = [&](Value old) -> Value {
    Value rhs = translateExpr(assign->getRHS());
    if (!rhs || !compound)
      return rhs;
    clang::QualType computeType = compound->getComputationLHSType();
    Value lhs = convert(old, target->getType(), computeType, location);
    Value result = binaryOp(
        clang::BinaryOperator::getOpForCompoundAssignment(assign->getOpcode()),
        compound->getComputationResultType(), lhs,
        convert(rhs, assign->getRHS()->getType(),
                compound->getComputationResultType(), location),
        location, assign->getOperatorLoc());
    if (!result)
      return {};
    return convert(result, compound->getComputationResultType(),
                   target->getType(), location);
  };

  if (auto *ref = dyn_cast<clang::DeclRefExpr>(target)) {
    auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
    Value *slot = var ? lookupTemporary(var) : nullptr;
    if (!slot && var) {
      std::optional<bool> temporary = isOuterTemporary(assign, var);
      if (!temporary)
        return false;
      if (!*temporary)
        return translateReduction(assign, var);
      slot = &scopes.front()[var];
      if (!llvm::is_contained(region.outerTemporaries, var))
        region.outerTemporaries.push_back(var);
    }
    if (!slot)
      return error(target->getBeginLoc(),
                   "'" + ref->getDecl()->getName() +
                       "' cannot be assigned in the calc section");
    if (compound && !*slot)
      return error(target->getBeginLoc(), "'" + var->getName() +
                                              "' is read before it is "
                                              "assigned");
    Value value = compute(*slot);
    if (!value)
      return false;
    *slot = value;
    return true;
  }

  if (isa<clang::ArraySubscriptExpr>(target)) {
    unsigned arrayIndex;
    SmallVector<int64_t, 3> offsets;
    if (!matchAccess(target, arrayIndex, offsets))
      return false;
    const RegionArray &array = region.arrays[arrayIndex];
    if (llvm::any_of(offsets, [](int64_t o) { return o != 0; }))
      return error(target->getBeginLoc(),
                   describeSection() + " must write '" +
                       array.getDisplayName() +
                       "' at the loop point, not at an offset");
    Value old;
    if (compound) {
      old = readArray(cast<clang::ArraySubscriptExpr>(target));
      if (!old)
        return false;
    }
    Value value = compute(old);
    if (!value)
      return false;
    written[arrayIndex] = value;
    return true;
  }
  return error(target->getBeginLoc(),
               describeSection() +
                   " may assign only to elements of the arrays of 'data' and "
                   "to variables declared in it");
}

std::optional<bool>
CalcTranslator::isOuterTemporary(const clang::BinaryOperator *assign,
                                 const clang::VarDecl *var) {
  if (assign->getOpcode() != clang::BO_Assign || !var->hasLocalStorage() ||
      isLoopVariable(var) || !mapType(var->getType(), {}))
    return false;
  bool readsItself = false;
  walkStmts(assign->getRHS(), [&](const clang::Stmt *stmt) {
    if (auto *ref = dyn_cast<clang::DeclRefExpr>(stmt))
      readsItself |= ref->getDecl() == var;
  });
  if (readsItself)
    return false;
  clang::SourceLocation at = assign->getLHS()->getBeginLoc();
  if (scalarArguments.count(var)) {
    error(at, "'" + var->getName() +
                  "' is read in the calc section before it is assigned here; "
                  "its value would come from the previous point");
    for (const CapturedScalar &scalar : region.scalars)
      if (scalar.decl == var)
        reportNote(diags, scalar.firstUse, "read here");
    return std::nullopt;
  }
  // Outside the region C would see the value of the last point, which a
  // stencil does not single out.
  clang::SourceLocation begin = sm.getExpansionLoc(region.begin->hashLoc);
  clang::SourceLocation end = sm.getExpansionLoc(region.end->endLoc);
  const clang::DeclRefExpr *outside = nullptr;
  walkStmts(region.function->getBody(), [&](const clang::Stmt *stmt) {
    auto *ref = dyn_cast<clang::DeclRefExpr>(stmt);
    if (outside || !ref || ref->getDecl() != var)
      return;
    clang::SourceLocation loc = sm.getExpansionLoc(ref->getBeginLoc());
    if (sm.isBeforeInTranslationUnit(loc, begin) ||
        sm.isBeforeInTranslationUnit(end, loc))
      outside = ref;
  });
  if (outside) {
    error(at, "'" + var->getName() +
                  "' is assigned in the calc section and used outside the "
                  "region, where C would see the value of the last point; "
                  "declare it inside the loop body, or use another variable "
                  "there");
    reportNote(diags, outside->getBeginLoc(), "used here");
    return std::nullopt;
  }
  return true;
}

Value CalcTranslator::translateValue(const clang::Expr *expr,
                                     clang::QualType to) {
  Value value = translateExpr(expr);
  if (!value)
    return {};
  return convert(value, expr->getType(), to, loc(expr->getBeginLoc()));
}

Value CalcTranslator::translateExpr(const clang::Expr *expr) {
  expr = expr->IgnoreParens();
  Location location = loc(expr->getBeginLoc());
  if (auto *literal = dyn_cast<clang::FloatingLiteral>(expr)) {
    Type type = mapType(expr->getType(), expr->getBeginLoc());
    if (!type)
      return {};
    return arith::ConstantOp::create(builder, location,
                                     FloatAttr::get(type, literal->getValue()));
  }
  if (auto *literal = dyn_cast<clang::IntegerLiteral>(expr)) {
    Type type = mapType(expr->getType(), expr->getBeginLoc());
    if (!type)
      return {};
    return arith::ConstantOp::create(
        builder, location, IntegerAttr::get(type, literal->getValue()));
  }
  if (auto *cast = dyn_cast<clang::CastExpr>(expr))
    return translateCast(cast);
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(expr))
    return translateVar(ref);
  if (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(expr))
    return readArray(subscript);
  if (auto *unary = dyn_cast<clang::UnaryOperator>(expr)) {
    if (unary->getOpcode() == clang::UO_Plus)
      return translateExpr(unary->getSubExpr());
    if (unary->getOpcode() == clang::UO_Minus) {
      Value operand = translateExpr(unary->getSubExpr());
      if (!operand)
        return {};
      if (isa<FloatType>(operand.getType()))
        return arith::NegFOp::create(builder, location, operand);
      Value zero = arith::ConstantOp::create(
          builder, location, IntegerAttr::get(operand.getType(), 0));
      return arith::SubIOp::create(builder, location, zero, operand);
    }
    return fail(unary->getOperatorLoc(),
                "operator '" +
                    clang::UnaryOperator::getOpcodeStr(unary->getOpcode()) +
                    "' is not supported in the calc section");
  }
  if (auto *binary = dyn_cast<clang::BinaryOperator>(expr))
    return translateBinary(binary);
  if (auto *conditional = dyn_cast<clang::ConditionalOperator>(expr)) {
    Value condition = translateCondition(conditional->getCond());
    if (!condition)
      return {};
    pushGuard(condition, location);
    Value whenTrue = translateExpr(conditional->getTrueExpr());
    popGuard();
    if (!whenTrue)
      return {};
    pushGuard(createNot(builder, location, condition), location);
    Value whenFalse = translateExpr(conditional->getFalseExpr());
    popGuard();
    if (!whenFalse)
      return {};
    return arith::SelectOp::create(builder, location, condition, whenTrue,
                                   whenFalse);
  }
  if (auto *call = dyn_cast<clang::CallExpr>(expr))
    return translateCall(call);
  return fail(expr->getBeginLoc(), llvm::Twine("this expression ('") +
                                       expr->getStmtClassName() +
                                       "') is not supported in the calc "
                                       "section");
}

Value CalcTranslator::translateCast(const clang::CastExpr *cast) {
  Location location = loc(cast->getBeginLoc());
  switch (cast->getCastKind()) {
  case clang::CK_LValueToRValue:
  case clang::CK_NoOp:
    return translateExpr(cast->getSubExpr());
  case clang::CK_FloatingCast:
  case clang::CK_IntegralToFloating:
  case clang::CK_FloatingToIntegral:
  case clang::CK_IntegralCast: {
    if (!mapType(cast->getType(), cast->getBeginLoc()))
      return {};
    Value value = translateExpr(cast->getSubExpr());
    if (!value)
      return {};
    return convert(value, cast->getSubExpr()->getType(), cast->getType(),
                   location);
  }
  default:
    return fail(cast->getBeginLoc(), llvm::Twine("the conversion '") +
                                         cast->getCastKindName() +
                                         "' is not supported in the calc "
                                         "section (pointers are not "
                                         "supported)");
  }
}

Value CalcTranslator::binaryOp(clang::BinaryOperatorKind kind,
                               clang::QualType type, Value lhs, Value rhs,
                               Location location, clang::SourceLocation at) {
  bool isFloat = isa<FloatType>(lhs.getType());
  bool isUnsigned = type->isUnsignedIntegerType();
  switch (kind) {
  case clang::BO_Add:
    return isFloat
               ? arith::AddFOp::create(builder, location, lhs, rhs).getResult()
               : arith::AddIOp::create(builder, location, lhs, rhs).getResult();
  case clang::BO_Sub:
    return isFloat
               ? arith::SubFOp::create(builder, location, lhs, rhs).getResult()
               : arith::SubIOp::create(builder, location, lhs, rhs).getResult();
  case clang::BO_Mul:
    return isFloat
               ? arith::MulFOp::create(builder, location, lhs, rhs).getResult()
               : arith::MulIOp::create(builder, location, lhs, rhs).getResult();
  case clang::BO_Div:
    if (isFloat)
      return arith::DivFOp::create(builder, location, lhs, rhs);
    rhs = guardDivisor(builder, location, getGuard(), rhs);
    return isUnsigned
               ? arith::DivUIOp::create(builder, location, lhs, rhs).getResult()
               : arith::DivSIOp::create(builder, location, lhs, rhs)
                     .getResult();
  case clang::BO_Rem:
    if (isFloat)
      return fail(at, "'%' needs integer operands");
    rhs = guardDivisor(builder, location, getGuard(), rhs);
    return isUnsigned
               ? arith::RemUIOp::create(builder, location, lhs, rhs).getResult()
               : arith::RemSIOp::create(builder, location, lhs, rhs)
                     .getResult();
  case clang::BO_Shl:
  case clang::BO_Shr: {
    if (isFloat)
      return fail(at, "shifts need integer operands");
    // C converts the operands of a shift separately: the count to the
    // width of the value shifted.
    auto width = [](Value v) { return v.getType().getIntOrFloatBitWidth(); };
    if (width(rhs) > width(lhs))
      rhs = arith::TruncIOp::create(builder, location, lhs.getType(), rhs);
    else if (width(rhs) < width(lhs))
      rhs = arith::ExtSIOp::create(builder, location, lhs.getType(), rhs);
    if (kind == clang::BO_Shl)
      return arith::ShLIOp::create(builder, location, lhs, rhs);
    return isUnsigned
               ? arith::ShRUIOp::create(builder, location, lhs, rhs).getResult()
               : arith::ShRSIOp::create(builder, location, lhs, rhs)
                     .getResult();
  }
  case clang::BO_And:
  case clang::BO_Or:
  case clang::BO_Xor:
    if (isFloat)
      return fail(at, "bitwise operators need integer operands");
    if (kind == clang::BO_And)
      return arith::AndIOp::create(builder, location, lhs, rhs);
    if (kind == clang::BO_Or)
      return arith::OrIOp::create(builder, location, lhs, rhs);
    return arith::XOrIOp::create(builder, location, lhs, rhs);
  default:
    return fail(at, "operator '" + clang::BinaryOperator::getOpcodeStr(kind) +
                        "' is not supported here in the calc section");
  }
}

Value CalcTranslator::translateBinary(const clang::BinaryOperator *binary) {
  if (binary->isAssignmentOp())
    return fail(binary->getOperatorLoc(),
                "assignments inside expressions are not supported in the "
                "calc section");
  if (binary->isComparisonOp() || binary->isLogicalOp()) {
    // A truth value used as a number: C's int 0 or 1.
    Type type = mapType(binary->getType(), binary->getOperatorLoc());
    Value condition = type ? translateCondition(binary) : Value();
    if (!condition)
      return {};
    return arith::ExtUIOp::create(builder, loc(binary->getOperatorLoc()), type,
                                  condition);
  }
  Value lhs = translateExpr(binary->getLHS());
  Value rhs = lhs ? translateExpr(binary->getRHS()) : Value();
  if (!rhs)
    return {};
  return binaryOp(binary->getOpcode(), binary->getType(), lhs, rhs,
                  loc(binary->getOperatorLoc()), binary->getOperatorLoc());
}

Value CalcTranslator::translateCondition(const clang::Expr *expr) {
  expr = expr->IgnoreParenImpCasts();
  Location location = loc(expr->getBeginLoc());
  if (auto *binary = dyn_cast<clang::BinaryOperator>(expr)) {
    if (binary->isComparisonOp())
      return translateComparison(binary);
    if (binary->isLogicalOp()) {
      // C evaluates the right operand only when the left does not decide;
      // here both are evaluated, the right one guarded as if it were not.
      Value lhs = translateCondition(binary->getLHS());
      if (!lhs)
        return {};
      bool isAnd = binary->getOpcode() == clang::BO_LAnd;
      pushGuard(isAnd ? lhs : createNot(builder, location, lhs), location);
      Value rhs = translateCondition(binary->getRHS());
      popGuard();
      if (!rhs)
        return {};
      Location at = loc(binary->getOperatorLoc());
      return isAnd ? arith::AndIOp::create(builder, at, lhs, rhs).getResult()
                   : arith::OrIOp::create(builder, at, lhs, rhs).getResult();
    }
  }
  if (auto *unary = dyn_cast<clang::UnaryOperator>(expr))
    if (unary->getOpcode() == clang::UO_LNot) {
      Value operand = translateCondition(unary->getSubExpr());
      if (!operand)
        return {};
      return createNot(builder, loc(unary->getOperatorLoc()), operand);
    }
  // Any other scalar: true when it is not zero.
  if (!expr->getType()->isScalarType() || expr->getType()->isPointerType())
    return fail(expr->getBeginLoc(), "this condition is not a number");
  Value value = translateExpr(expr);
  if (!value)
    return {};
  Value zero = arith::ConstantOp::create(builder, location,
                                         builder.getZeroAttr(value.getType()));
  if (isa<FloatType>(value.getType()))
    return arith::CmpFOp::create(builder, location, arith::CmpFPredicate::UNE,
                                 value, zero);
  return arith::CmpIOp::create(builder, location, arith::CmpIPredicate::ne,
                               value, zero);
}

Value CalcTranslator::translateComparison(
    const clang::BinaryOperator *compare) {
  Location location = loc(compare->getOperatorLoc());
  Value lhs = translateExpr(compare->getLHS());
  Value rhs = lhs ? translateExpr(compare->getRHS()) : Value();
  if (!rhs)
    return {};
  if (isa<FloatType>(lhs.getType())) {
    // Ordered comparisons are false on NaN, `!=` is true: C's semantics.
    arith::CmpFPredicate predicate;
    switch (compare->getOpcode()) {
    case clang::BO_LT:
      predicate = arith::CmpFPredicate::OLT;
      break;
    case clang::BO_LE:
      predicate = arith::CmpFPredicate::OLE;
      break;
    case clang::BO_GT:
      predicate = arith::CmpFPredicate::OGT;
      break;
    case clang::BO_GE:
      predicate = arith::CmpFPredicate::OGE;
      break;
    case clang::BO_EQ:
      predicate = arith::CmpFPredicate::OEQ;
      break;
    default:
      predicate = arith::CmpFPredicate::UNE;
      break;
    }
    return arith::CmpFOp::create(builder, location, predicate, lhs, rhs);
  }
  bool isUnsigned = compare->getLHS()->getType()->isUnsignedIntegerType();
  arith::CmpIPredicate predicate;
  switch (compare->getOpcode()) {
  case clang::BO_LT:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case clang::BO_LE:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case clang::BO_GT:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case clang::BO_GE:
    predicate =
        isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  case clang::BO_EQ:
    predicate = arith::CmpIPredicate::eq;
    break;
  default:
    predicate = arith::CmpIPredicate::ne;
    break;
  }
  return arith::CmpIOp::create(builder, location, predicate, lhs, rhs);
}

Value CalcTranslator::translateCall(const clang::CallExpr *call) {
  const clang::FunctionDecl *callee = call->getDirectCallee();
  StringRef name = callee ? callee->getName() : StringRef();
  enum class MathFn { None, Sqrt, Fabs, Fmin, Fmax, Exp };
  MathFn fn = llvm::StringSwitch<MathFn>(name)
                  .Cases({"sqrt", "sqrtf"}, MathFn::Sqrt)
                  .Cases({"fabs", "fabsf"}, MathFn::Fabs)
                  .Cases({"fmin", "fminf"}, MathFn::Fmin)
                  .Cases({"fmax", "fmaxf"}, MathFn::Fmax)
                  .Cases({"exp", "expf"}, MathFn::Exp)
                  .Default(MathFn::None);
  if (fn == MathFn::None)
    return fail(call->getBeginLoc(),
                "call to '" + (name.empty() ? StringRef("<indirect>") : name) +
                    "' is not supported in the calc section; supported are "
                    "sqrt, fabs, fmin, fmax and exp (and their 'f' forms)");
  SmallVector<Value, 2> args;
  for (const clang::Expr *arg : call->arguments()) {
    Value value = translateExpr(arg);
    if (!value)
      return {};
    args.push_back(value);
  }
  unsigned expected = (fn == MathFn::Fmin || fn == MathFn::Fmax) ? 2 : 1;
  if (args.size() != expected || !isa<FloatType>(args[0].getType()))
    return fail(call->getBeginLoc(), "'" + name + "' takes " +
                                         llvm::Twine(expected) +
                                         " floating-point arguments");
  Location location = loc(call->getBeginLoc());
  switch (fn) {
  case MathFn::Sqrt:
    return math::SqrtOp::create(builder, location, args[0]);
  case MathFn::Fabs:
    return math::AbsFOp::create(builder, location, args[0]);
  case MathFn::Exp:
    return math::ExpOp::create(builder, location, args[0]);
  // C's fmin/fmax return the other operand when one is NaN: minnum/maxnum.
  case MathFn::Fmin:
    return arith::MinNumFOp::create(builder, location, args[0], args[1]);
  case MathFn::Fmax:
    return arith::MaxNumFOp::create(builder, location, args[0], args[1]);
  case MathFn::None:
    break;
  }
  llvm_unreachable("handled above");
}

Value CalcTranslator::translateVar(const clang::DeclRefExpr *ref) {
  Location location = loc(ref->getBeginLoc());
  if (auto *constant = dyn_cast<clang::EnumConstantDecl>(ref->getDecl())) {
    Type type = mapType(ref->getType(), ref->getBeginLoc());
    if (!type)
      return {};
    return arith::ConstantOp::create(
        builder, location,
        IntegerAttr::get(type, constant->getInitVal().getSExtValue()));
  }
  auto *var = dyn_cast<clang::VarDecl>(ref->getDecl());
  if (!var)
    return fail(ref->getBeginLoc(), "'" + ref->getDecl()->getName() +
                                        "' cannot be used in the calc "
                                        "section");
  if (isLoopVariable(var)) {
    Type type = mapType(var->getType(), ref->getBeginLoc());
    if (!type)
      return {};
    // The point's coordinate, as the C variable's type.
    if (section)
      for (auto [axis, loop] : llvm::enumerate(section->nest.loops))
        if (loop.var == var) {
          Value index = IndexOp::create(builder, location, axis);
          return arith::IndexCastOp::create(builder, location, type, index);
        }
    if (section && var == region.timeVar)
      return getStepValue(ref->getBeginLoc());
    if (section)
      return fail(ref->getBeginLoc(),
                  describeSection() + " does not loop over '" + var->getName() +
                      "', so it has no value here");
    return fail(ref->getBeginLoc(),
                "loop variable '" + var->getName() +
                    "' cannot be used as a value outside the loop nests");
  }
  if (Value *slot = lookupTemporary(var)) {
    if (!*slot)
      return fail(ref->getBeginLoc(),
                  "'" + var->getName() + "' is read before it is assigned");
    return *slot;
  }
  if (region.findArray(var->getName()) || var->getType()->isArrayType() ||
      var->getType()->isPointerType())
    return fail(ref->getBeginLoc(),
                "'" + var->getName() +
                    "' must be indexed with the loop variables in the calc "
                    "section");
  // A `const` integer with a known value is a constant, like a macro.
  if (var->getType().isConstQualified() && var->getType()->isIntegerType())
    if (std::optional<int64_t> value = evaluateInteger(ref, astContext)) {
      Type type = mapType(ref->getType(), ref->getBeginLoc());
      if (!type)
        return {};
      return arith::ConstantOp::create(builder, location,
                                       IntegerAttr::get(type, *value));
    }
  // A reduction's running value exists only once the loop nest is done.
  if (const RegionReduction *reduction = findReduction(var)) {
    error(ref->getBeginLoc(),
          "'" + var->getName() +
              "' is reduced by the calc section, so its value is not "
              "known inside the loop nest; it may only be updated ('" +
              var->getName() + " += ...')");
    reportNote(diags, reduction->loc, "reduced here");
    return {};
  }
  // Any other scalar of the enclosing function or file: passed in.
  if (!mapType(var->getType(), ref->getBeginLoc()))
    return {};
  auto it = scalarArguments.find(var);
  if (it != scalarArguments.end())
    return it->second;
  BlockArgument argument = block->addArgument(
      mapType(var->getType(), ref->getBeginLoc()), loc(var->getLocation()));
  argumentSources.push_back(ArgumentSource::forScalar(var));
  scalarArguments[var] = argument;
  if (llvm::none_of(region.scalars, [&](const CapturedScalar &scalar) {
        return scalar.decl == var;
      }))
    region.scalars.push_back({var, ref->getBeginLoc()});
  return argument;
}

/// The array `expr` subscripts, its subscripts outermost first in
/// `indices`.
static const clang::Expr *
peelSubscripts(const clang::Expr *expr,
               SmallVectorImpl<const clang::Expr *> &indices) {
  const clang::Expr *base = skipTransparent(expr);
  while (auto *subscript = dyn_cast<clang::ArraySubscriptExpr>(base)) {
    indices.push_back(subscript->getIdx());
    base = skipTransparent(subscript->getBase());
  }
  std::reverse(indices.begin(), indices.end());
  return base;
}

bool CalcTranslator::matchAccess(const clang::Expr *expr, unsigned &arrayIndex,
                                 SmallVectorImpl<int64_t> &offsets) {
  SmallVector<const clang::Expr *, 3> indices;
  const clang::Expr *base = peelSubscripts(expr, indices);
  auto *ref = dyn_cast<clang::DeclRefExpr>(base);
  if (!ref)
    return error(base->getBeginLoc(),
                 "only named arrays can be indexed in the calc section");
  RegionArray *any = region.findArray(ref->getDecl()->getName());
  if (!any)
    return error(ref->getBeginLoc(),
                 "'" + ref->getDecl()->getName() +
                     (!region.begin->ompDevices
                          ? "' is not an array of '#pragma stencil data'"
                      : region.step->once
                          ? "' is not mapped by the region's 'target' "
                            "construct (a pointer or parameter needs a "
                            "section, 'map(to: x[0:n])')"
                          : "' is not mapped by the region's 'target enter "
                            "data'"));
  unsigned components = any->componentShape.size();
  unsigned fullRank = components + region.getRank();
  if (indices.size() != fullRank)
    return error(expr->getBeginLoc(),
                 "'" + any->name + "' has " + llvm::Twine(fullRank) +
                     " dimensions but is indexed with " +
                     llvm::Twine(indices.size()) + " subscripts");
  // The component: constants, checked when the region was analysed.
  SmallVector<int64_t, 1> component;
  for (const clang::Expr *index : ArrayRef(indices).take_front(components)) {
    std::optional<int64_t> value = evaluateInteger(index, astContext);
    if (!value)
      return error(index->getBeginLoc(),
                   "this subscript of '" + any->name +
                       "' selects a component and must be a constant");
    component.push_back(*value);
  }
  RegionArray *array = region.findField(any->name, component);
  if (!array)
    return error(expr->getBeginLoc(), "component '" + any->name +
                                          shapeString(component) +
                                          "' is not used by the loop nests");
  arrayIndex = array - region.arrays.data();
  indices.erase(indices.begin(), indices.begin() + components);
  for (auto [axis, index] : llvm::enumerate(indices)) {
    const LoopRange &loop = section->nest.loops[axis];
    const clang::Expr *stripped = index->IgnoreParenImpCasts();
    std::optional<int64_t> offset;
    if (!loop.var) {
      // A boundary statement's fixed axis: constant subscripts.
      std::optional<int64_t> at = evaluateInteger(index, astContext);
      if (!at)
        return error(index->getBeginLoc(),
                     "subscript " + llvm::Twine(components + axis) + " of '" +
                         array->getDisplayName() +
                         "' must be a constant: this statement does not "
                         "loop over dimension " +
                         llvm::Twine(axis));
      offset = *at - *loop.lower.value;
    } else {
      offset = getOffsetFrom(stripped, loop.var, astContext);
    }
    if (!offset)
      return error(index->getBeginLoc(),
                   "subscript " + llvm::Twine(components + axis) + " of '" +
                       array->getDisplayName() + "' must be '" +
                       loop.var->getName() + "' plus or minus a constant");
    bool isStatic = region.isStaticExtent(axis);
    if (!loop.var &&
        (*loop.lower.value + *offset < 0 ||
         (isStatic && *loop.lower.value + *offset >= region.shape[axis])))
      return error(index->getBeginLoc(),
                   "'" + array->getDisplayName() +
                       "' is read outside its bounds: subscript " +
                       llvm::Twine(*loop.lower.value + *offset) +
                       " but the size is " + region.getExtentText(axis));
    // Constant bounds are checked here against constant extents, the rest
    // on entry to the region against the reach recorded below.
    std::optional<int64_t> bad, at;
    if (loop.lower.isConstant() && *loop.lower.value + *offset < 0) {
      at = *loop.lower.value;
      bad = *at + *offset;
    } else if (loop.upper.isConstant() && isStatic &&
               *loop.upper.value - 1 + *offset >= region.shape[axis]) {
      at = *loop.upper.value - 1;
      bad = *at + *offset;
    }
    if (bad)
      return error(
          index->getBeginLoc(),
          "'" + array->getDisplayName() + "' is read outside its bounds: for " +
              (loop.var ? loop.var->getName() : "") + " = " + llvm::Twine(*at) +
              " this subscript is " + llvm::Twine(*bad) + " but the size is " +
              llvm::Twine(region.shape[axis]));
    if (*offset < section->reachLow[axis]) {
      section->reachLow[axis] = *offset;
      section->reachLowArray[axis] = array->getDisplayName();
    }
    if (*offset > section->reachHigh[axis]) {
      section->reachHigh[axis] = *offset;
      section->reachHighArray[axis] = array->getDisplayName();
    }
    offsets.push_back(*offset);
  }
  return true;
}

BlockArgument CalcTranslator::getFieldArgument(unsigned arrayIndex) {
  auto it = fieldArguments.find(arrayIndex);
  if (it != fieldArguments.end())
    return it->second;
  const RegionArray &array = region.arrays[arrayIndex];
  BlockArgument argument = block->addArgument(
      FieldType::get(region.shape,
                     getFieldElementType(array.element, builder.getContext())),
      loc(array.loc));
  argumentSources.push_back(ArgumentSource::forArray(arrayIndex));
  fieldArguments[arrayIndex] = argument;
  return argument;
}

Value CalcTranslator::getStepValue(clang::SourceLocation at) {
  if (section && !section->isInLoop())
    return fail(at, describeSection() +
                        " runs outside the time loop, where the step "
                        "variable '" +
                        region.timeVar->getName() +
                        "' has no value of its own");
  // A value the time loop carries, the same at every point of a step.
  if (!stepArgument) {
    const clang::VarDecl *var = region.timeVar;
    Type type = mapType(var->getType(), at);
    if (!type)
      return {};
    stepArgument = block->addArgument(type, loc(var->getLocation()));
    argumentSources.push_back(ArgumentSource::forStep());
    region.stepValueType = var->getType();
  }
  return stepArgument;
}

Value CalcTranslator::readStepTable(const clang::ArraySubscriptExpr *expr,
                                    bool &handled) {
  handled = false;
  // Without a time loop there are no steps to index by.
  const clang::VarDecl *var = getReferencedVar(expr->getBase());
  if (!var || !region.timeVar || region.findArray(var->getName()))
    return {};
  // A parameter declared `double fict[TMAX]` keeps its size in the type it
  // was written with.
  const clang::ConstantArrayType *arrayType =
      astContext.getAsConstantArrayType(getWrittenType(var));
  if (!arrayType || !arrayType->getElementType()->isArithmeticType())
    return {};
  std::optional<int64_t> offset =
      getOffsetFrom(expr->getIdx(), region.timeVar, astContext);
  if (!offset)
    return {};
  handled = true;
  if (section && !section->isInLoop())
    return fail(expr->getBeginLoc(),
                describeSection() +
                    " runs outside the time loop, where the "
                    "step variable '" +
                    region.timeVar->getName() +
                    "' has no value of its own to read '" + var->getName() +
                    "' at");
  Type elementType = mapType(arrayType->getElementType(), expr->getBeginLoc());
  // The table is read at the step's value, which the time loop carries.
  if (!elementType || !mapType(region.timeVar->getType(), expr->getBeginLoc()))
    return {};
  region.stepValueType = region.timeVar->getType();
  auto table = llvm::find_if(region.stepTables,
                             [&](const StepTable &t) { return t.decl == var; });
  if (table == region.stepTables.end()) {
    StepTable &added = region.stepTables.emplace_back();
    added.decl = var;
    added.size = arrayType->getSize().getSExtValue();
    added.elementType = arrayType->getElementType();
    added.lowOffset = added.highOffset = *offset;
    added.firstUse = expr->getBeginLoc();
    table = std::prev(region.stepTables.end());
  }
  unsigned sectionIndex = section - region.sections.data();
  if (!llvm::is_contained(table->sections, sectionIndex))
    table->sections.push_back(sectionIndex);
  table->lowOffset = std::min(table->lowOffset, *offset);
  table->highOffset = std::max(table->highOffset, *offset);
  unsigned tableIndex = table - region.stepTables.begin();
  BlockArgument &argument = tableArguments[{tableIndex, *offset}];
  if (!argument) {
    argument = block->addArgument(elementType, loc(expr->getBeginLoc()));
    argumentSources.push_back(ArgumentSource::forTable(tableIndex, *offset));
  }
  return argument;
}

Value CalcTranslator::readCoefficientArray(
    const clang::ArraySubscriptExpr *expr, bool &handled) {
  handled = false;
  SmallVector<const clang::Expr *, 3> indices;
  const clang::Expr *base = peelSubscripts(expr, indices);
  const clang::VarDecl *var = getReferencedVar(base);
  if (!var || region.findArray(var->getName()) ||
      indices.size() >= region.getRank())
    return {};
  // Constant sizes, one per subscript, of an element a field may hold.
  SmallVector<int64_t, 2> shape;
  clang::QualType type = getWrittenType(var);
  while (const auto *arrayType = astContext.getAsConstantArrayType(type)) {
    shape.push_back(arrayType->getSize().getSExtValue());
    type = arrayType->getElementType();
  }
  if (shape.size() != indices.size() || !type->isArithmeticType())
    return {};
  handled = true;
  std::string name = var->getName().str();
  std::optional<ElementKind> element = getElementKind(type);
  if (!element)
    return fail(expr->getBeginLoc(),
                "'" + name +
                    "' has fewer dimensions than the loop nest and "
                    "elements of type '" +
                    type.getAsString() +
                    "'; such arrays may hold float, double, int or long");
  // Each subscript follows one loop variable of the nest, each a different
  // one, in any order.
  SmallVector<int64_t, 2> offsets, along;
  for (auto [dim, index] : llvm::enumerate(indices)) {
    std::optional<int64_t> offset;
    unsigned axis = 0;
    for (auto [a, loop] : llvm::enumerate(section->nest.loops)) {
      if (!loop.var)
        continue;
      offset =
          getOffsetFrom(index->IgnoreParenImpCasts(), loop.var, astContext);
      if (offset) {
        axis = a;
        break;
      }
    }
    if (!offset)
      return fail(index->getBeginLoc(),
                  "subscript " + llvm::Twine(dim) + " of '" + name +
                      "', which has fewer dimensions than the loop nest, "
                      "must be one of its loop variables plus or minus a "
                      "constant");
    const LoopRange &loop = section->nest.loops[axis];
    if (llvm::is_contained(along, int64_t(axis)))
      return fail(index->getBeginLoc(),
                  "'" + name + "' is indexed by '" + loop.var->getName() +
                      "' twice; each subscript must follow a different loop "
                      "variable");
    if (!loop.lower.isConstant() || !loop.upper.isConstant())
      return fail(index->getBeginLoc(),
                  "'" + name +
                      "' has fewer dimensions than the loop nest and "
                      "is read along '" +
                      loop.var->getName() +
                      "', whose loop has a run-time bound; such arrays are "
                      "read only along loops of constant bounds (not "
                      "supported yet)");
    int64_t first = *loop.lower.value + *offset;
    int64_t last = *loop.upper.value - 1 + *offset;
    if (*loop.upper.value > *loop.lower.value &&
        (first < 0 || last >= shape[dim]))
      return fail(index->getBeginLoc(),
                  "'" + name + "' is read outside its bounds: for " +
                      loop.var->getName() + " = " +
                      llvm::Twine(first < 0 ? *loop.lower.value
                                            : *loop.upper.value - 1) +
                      " this subscript is " +
                      llvm::Twine(first < 0 ? first : last) +
                      " but the size is " + llvm::Twine(shape[dim]));
    offsets.push_back(*offset);
    along.push_back(axis);
  }
  auto known = llvm::find_if(
      region.coefficientArrays,
      [&](const CoefficientArray &array) { return array.decl == var; });
  if (known == region.coefficientArrays.end()) {
    CoefficientArray &added = region.coefficientArrays.emplace_back();
    added.decl = var;
    added.shape = shape;
    added.element = *element;
    added.firstUse = expr->getBeginLoc();
    known = std::prev(region.coefficientArrays.end());
  }
  unsigned index = known - region.coefficientArrays.begin();
  BlockArgument &field = coefficientArguments[index];
  if (!field) {
    field = block->addArgument(
        FieldType::get(shape,
                       getFieldElementType(*element, builder.getContext())),
        loc(var->getLocation()));
    argumentSources.push_back(ArgumentSource::forCoefficients(index));
  }
  return AccessOp::create(builder, loc(expr->getBeginLoc()), field,
                          builder.getDenseI64ArrayAttr(offsets),
                          builder.getDenseI64ArrayAttr(along));
}

Value CalcTranslator::readArray(const clang::ArraySubscriptExpr *expr) {
  if (!section)
    return fail(expr->getBeginLoc(),
                "a value computed once per step, outside the loop nests, may "
                "read constants and scalars only, not arrays");
  bool handled = false;
  Value fromTable = readStepTable(expr, handled);
  if (handled)
    return fromTable;
  Value coefficient = readCoefficientArray(expr, handled);
  if (handled)
    return coefficient;
  unsigned arrayIndex;
  SmallVector<int64_t, 3> offsets;
  if (!matchAccess(expr, arrayIndex, offsets))
    return {};
  const RegionArray &array = region.arrays[arrayIndex];
  bool atPoint = llvm::all_of(offsets, [](int64_t o) { return o == 0; });
  // A boundary statement writes only at its fixed coordinates: a read off
  // them finds a cell it never writes.
  bool offFixed = false;
  for (auto [loop, offset] : llvm::zip_equal(section->nest.loops, offsets))
    offFixed |= !loop.var && offset != 0;
  if (llvm::is_contained(section->writes, arrayIndex) && !offFixed) {
    // C would read the values this nest has already written at the
    // neighbours that come before the point, and the old ones after it.
    if (!atPoint)
      return fail(expr->getBeginLoc(),
                  describeSection() + " reads '" + array.getDisplayName() +
                      "' at an offset, but it also writes '" +
                      array.getDisplayName() +
                      "'; an array a nest writes may be read in that nest "
                      "only at the loop point (write the new values to "
                      "another array, or read them in a later nest)");
    // After an assignment in this body, C reads the value just written.
    auto it = written.find(arrayIndex);
    if (it != written.end())
      return it->second;
  }
  return readField(arrayIndex, offsets, loc(expr->getBeginLoc()));
}

Value CalcTranslator::readField(unsigned arrayIndex, ArrayRef<int64_t> offsets,
                                Location location) {
  SmallVector<int64_t, 3> &r = radius[arrayIndex];
  r.resize(offsets.size(), 0);
  for (auto [axis, offset] : llvm::enumerate(offsets))
    r[axis] = std::max(r[axis], std::abs(offset));
  BlockArgument field = getFieldArgument(arrayIndex);
  // The field types of the region carry no decomposition inside the apply
  // body until the emitter sets them; the access's type follows the field.
  return AccessOp::create(builder, location, field,
                          builder.getDenseI64ArrayAttr(offsets),
                          /*along=*/nullptr);
}

//===- IfConversion.cpp - if / else in a calc body ------------------------===//
//
// A stencil point computes values, it does not branch: `if (c) A; else B;`
// becomes A and B translated one after the other, each from the state before
// the `if`, and every temporary, destination and reduction that either
// changes is then `select(c, after A, after B)`. What a branch leaves alone
// keeps its value, as in C: a destination not assigned on a path keeps the
// value it has at the point (read through its field), a reduction gets no
// contribution there. Evaluating the path C does not take is harmless for
// floating point and loads inside the stencil's reach; integer divisions
// there divide by 1 (guardDivisor).
//
//===----------------------------------------------------------------------===//

#include "CalcTranslator.h"

#include "Stencil/Dialect/Stencil/Utils/ReductionUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::pragma_c;

Value pragma_c::createNot(OpBuilder &builder, Location location,
                          Value condition) {
  Value one = arith::ConstantIntOp::create(builder, location, 1, 1);
  return arith::XOrIOp::create(builder, location, condition, one);
}

Value pragma_c::guardDivisor(OpBuilder &builder, Location location, Value guard,
                             Value divisor) {
  if (!guard)
    return divisor;
  Value one = arith::ConstantOp::create(
      builder, location, builder.getIntegerAttr(divisor.getType(), 1));
  return arith::SelectOp::create(builder, location, guard, divisor, one);
}

void CalcTranslator::pushGuard(Value condition, Location location) {
  Value outer = getGuard();
  guards.push_back(
      outer ? arith::AndIOp::create(builder, location, outer, condition)
                  .getResult()
            : condition);
}

namespace {
/// What a branch can change: the temporaries of the scopes open at the
/// `if`, the values written to destinations, the reductions' contributions.
struct BranchState {
  SmallVector<llvm::DenseMap<const clang::VarDecl *, Value>> scopes;
  llvm::DenseMap<unsigned, Value> written;
  SmallVector<Value> contributions;
};
} // namespace

bool CalcTranslator::translateIf(const clang::IfStmt *ifStmt) {
  if (ifStmt->getInit() || ifStmt->getConditionVariable() ||
      ifStmt->isConsteval())
    return error(ifStmt->getBeginLoc(),
                 "only 'if (condition)' is supported in the calc section");
  Location location = loc(ifStmt->getIfLoc());
  Value condition = translateCondition(ifStmt->getCond());
  if (!condition)
    return false;

  BranchState before{scopes, written, contributions};
  // Translates one branch from the state before the `if` and returns the
  // state after it.
  auto translateBranch = [&](const clang::Stmt *branch,
                             Value guard) -> std::optional<BranchState> {
    scopes = before.scopes;
    written = before.written;
    contributions = before.contributions;
    // A reduction first met in the other branch has no contribution here.
    contributions.resize(region.reductions.size());
    if (branch) {
      pushGuard(guard, location);
      bool ok = translateStmt(branch);
      popGuard();
      if (!ok)
        return std::nullopt;
    }
    return BranchState{scopes, written, contributions};
  };
  std::optional<BranchState> whenTrue =
      translateBranch(ifStmt->getThen(), condition);
  if (!whenTrue)
    return false;
  std::optional<BranchState> whenFalse = translateBranch(
      ifStmt->getElse(), createNot(builder, location, condition));
  if (!whenFalse)
    return false;

  auto select = [&](Value a, Value b) -> Value {
    if (a == b)
      return a;
    return arith::SelectOp::create(builder, location, condition, a, b);
  };
  // Temporaries of the scopes open at the `if` (a branch's own scopes are
  // closed). One assigned on a single path and read after the `if` is
  // indeterminate on the other in C; the assigned value stands for both.
  for (auto [scope, trueScope, falseScope] :
       llvm::zip_equal(scopes, whenTrue->scopes, whenFalse->scopes)) {
    for (auto &[var, value] : trueScope) {
      Value other = falseScope.lookup(var);
      scope[var] = !value ? other : !other ? value : select(value, other);
    }
    for (auto &[var, value] : falseScope)
      if (!trueScope.count(var))
        scope[var] = value;
  }
  // Destinations: on a path that does not write one, it keeps its value.
  auto writtenValue = [&](const BranchState &state, unsigned array) -> Value {
    Value value = state.written.lookup(array);
    if (value)
      return value;
    SmallVector<int64_t, 3> centre(region.getRank(), 0);
    return readField(array, centre, location);
  };
  llvm::SmallSetVector<unsigned, 4> arrays;
  for (auto &entry : whenTrue->written)
    arrays.insert(entry.first);
  for (auto &entry : whenFalse->written)
    arrays.insert(entry.first);
  written = before.written;
  for (unsigned array : arrays) {
    Value a = writtenValue(*whenTrue, array);
    Value b = writtenValue(*whenFalse, array);
    written[array] = select(a, b);
  }
  // Reductions: no contribution on a path that does not update one.
  contributions.assign(region.reductions.size(), Value());
  for (unsigned index = 0, count = contributions.size(); index < count;
       ++index) {
    auto at = [&](const SmallVector<Value> &values) {
      return index < values.size() ? values[index] : Value();
    };
    Value a = at(whenTrue->contributions), b = at(whenFalse->contributions);
    if (!a && !b)
      continue;
    const RegionReduction &reduction = region.reductions[index];
    Type type = a ? a.getType() : b.getType();
    auto orIdentity = [&](Value value) {
      return value ? value
                   : createReductionIdentity(builder, location, reduction.kind,
                                             type);
    };
    // Sequenced: the order of ops must not depend on the host compiler.
    Value whenTrueValue = orIdentity(a);
    Value whenFalseValue = orIdentity(b);
    contributions[index] = select(whenTrueValue, whenFalseValue);
  }
  return true;
}

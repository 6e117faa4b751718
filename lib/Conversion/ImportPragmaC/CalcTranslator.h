//===- CalcTranslator.h - A calc body in stencil IR -------------*- C++ -*-===//
//
// Translates the body of a region's calc loop nest, expression by expression
// from Clang's AST, into the ops of a stencil.apply body. Private to the
// importer; IREmitter.cpp builds the function around it.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_IMPORTPRAGMAC_CALCTRANSLATOR_H
#define LIB_CONVERSION_IMPORTPRAGMAC_CALCTRANSLATOR_H

#include "RegionModel.h"

#include "mlir/IR/Builders.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::stencil::pragma_c {

/// The MLIR location of `at` (where its macro expansion begins).
inline Location getLocation(MLIRContext *context,
                            const clang::SourceManager &sm,
                            clang::SourceLocation at) {
  clang::PresumedLoc presumed = sm.getPresumedLoc(sm.getExpansionLoc(at));
  if (presumed.isInvalid())
    return UnknownLoc::get(context);
  return FileLineColLoc::get(context, presumed.getFilename(),
                             presumed.getLine(), presumed.getColumn());
}

/// `!condition` for an i1.
Value createNot(OpBuilder &builder, Location location, Value condition);
/// `divisor`, or 1 where `guard` (if any) is false: a division evaluated on
/// a path C does not take must not trap.
Value guardDivisor(OpBuilder &builder, Location location, Value guard,
                   Value divisor);

/// Translates the calc body into ops in a detached block whose arguments are
/// created on first use: one per field read, one per captured scalar.
class CalcTranslator {
public:
  /// Translates the body of `section` (of `region`), or with no section
  /// values computed once per step outside the nests (translateValue).
  CalcTranslator(clang::ASTContext &astContext, StencilRegion &region,
                 Section *section, MLIRContext *context, Block *block)
      : astContext(astContext), diags(astContext.getDiagnostics()),
        sm(astContext.getSourceManager()), region(region), section(section),
        builder(context), block(block) {
    builder.setInsertionPointToEnd(block);
    contributions.resize(region.reductions.size());
  }

  bool translate(const clang::Stmt *body) {
    // The outermost scope holds the temporaries declared outside the
    // section (C89's `float s0, ss;` at the top of the function).
    scopes.emplace_back();
    bool ok = translateStmt(body);
    scopes.pop_back();
    return ok;
  }

  /// Translates `expr`, a value computed once per step outside the loop
  /// nest (a reset's value), converted to `to`; it may read constants and
  /// the scalars the region captures.
  Value translateValue(const clang::Expr *expr, clang::QualType to);

  /// What each block argument stands for: an array (index into
  /// region.arrays), a captured scalar, the step variable's value or an
  /// element of a step table.
  struct ArgumentSource {
    std::optional<unsigned> array;
    const clang::VarDecl *scalar = nullptr;
    /// The value of the step variable in the current step.
    bool step = false;
    /// Or element `t + tableOffset` of step table `table`.
    std::optional<unsigned> table;
    int64_t tableOffset = 0;
    /// Or the field of coefficient array `coefficients`.
    std::optional<unsigned> coefficients;

    static ArgumentSource forArray(unsigned index) {
      ArgumentSource source;
      source.array = index;
      return source;
    }
    static ArgumentSource forScalar(const clang::VarDecl *var) {
      ArgumentSource source;
      source.scalar = var;
      return source;
    }
    static ArgumentSource forStep() {
      ArgumentSource source;
      source.step = true;
      return source;
    }
    static ArgumentSource forCoefficients(unsigned index) {
      ArgumentSource source;
      source.coefficients = index;
      return source;
    }
    static ArgumentSource forTable(unsigned table, int64_t offset) {
      ArgumentSource source;
      source.table = table;
      source.tableOffset = offset;
      return source;
    }
  };
  SmallVector<ArgumentSource> argumentSources;
  /// The value written to each destination (by array index).
  llvm::DenseMap<unsigned, Value> written;
  /// Largest |offset| per axis at which each array is read.
  llvm::DenseMap<unsigned, SmallVector<int64_t, 3>> radius;
  /// Per reduction of region.reductions, its contribution at the point (the
  /// point's updates combined); null for those of other sections.
  SmallVector<Value> contributions;

  Location loc(clang::SourceLocation at) const {
    return getLocation(builder.getContext(), sm, at);
  }

private:
  bool error(clang::SourceLocation at, const llvm::Twine &message) {
    reportError(diags, at, message.str());
    return false;
  }
  Value fail(clang::SourceLocation at, const llvm::Twine &message) {
    error(at, message);
    return {};
  }

  /// "the calc section" or "the boundary statement", for messages.
  std::string describeSection() const {
    return section && section->isBoundary() ? "the boundary statement"
                                            : "the calc section";
  }
  Type mapType(clang::QualType type, clang::SourceLocation at);
  Value convert(Value value, clang::QualType from, clang::QualType to,
                Location location);

  bool translateStmt(const clang::Stmt *stmt);
  bool translateDecl(const clang::VarDecl *var);
  bool translateAssign(const clang::BinaryOperator *assign);
  /// `var op= e` and its equivalents, `var` declared outside the calc
  /// section: a reduction update (Reductions.cpp).
  bool translateReduction(const clang::BinaryOperator *assign,
                          const clang::VarDecl *var);
  /// Whether `var = value;` makes `var`, declared outside the calc section,
  /// a temporary of each point: a local of the enclosing function that the
  /// value does not read, not read before in the body, and used nowhere
  /// outside the region (where C would see the last point's value). Reports
  /// why not when it would be one but for the last two.
  std::optional<bool> isOuterTemporary(const clang::BinaryOperator *assign,
                                       const clang::VarDecl *var);
  const RegionReduction *findReduction(const clang::VarDecl *var) const {
    for (const RegionReduction &reduction : region.reductions)
      if (reduction.decl == var)
        return &reduction;
    return nullptr;
  }
  Value translateExpr(const clang::Expr *expr);
  Value translateCast(const clang::CastExpr *cast);
  Value translateBinary(const clang::BinaryOperator *binary);
  /// A condition as an i1: comparisons, `&&`, `||`, `!`, and any other
  /// scalar compared with zero, as C does.
  Value translateCondition(const clang::Expr *expr);
  Value translateComparison(const clang::BinaryOperator *compare);
  /// `if` / `else if` / `else` (IfConversion.cpp): both branches are
  /// translated, then every temporary, destination and reduction that a
  /// branch changes is selected by the condition.
  bool translateIf(const clang::IfStmt *ifStmt);
  /// The condition under which the code being translated runs in C, null
  /// at the top level. Both sides of a branch are evaluated, so an integer
  /// division on the side not taken divides by 1 instead of trapping.
  Value getGuard() const { return guards.empty() ? Value() : guards.back(); }
  void pushGuard(Value condition, Location location);
  void popGuard() { guards.pop_back(); }
  Value translateCall(const clang::CallExpr *call);
  Value translateVar(const clang::DeclRefExpr *ref);
  Value binaryOp(clang::BinaryOperatorKind kind, clang::QualType type,
                 Value lhs, Value rhs, Location location,
                 clang::SourceLocation at);

  /// Matches `A[i + a][j - b][k]`: the array and the offsets.
  bool matchAccess(const clang::Expr *expr, unsigned &arrayIndex,
                   SmallVectorImpl<int64_t> &offsets);
  Value readArray(const clang::ArraySubscriptExpr *expr);
  /// `fict[t + c]`: a one-dimensional array outside `data` read at the step
  /// variable, a value per step; null with `handled` false when `expr` is
  /// not such a read.
  Value readStepTable(const clang::ArraySubscriptExpr *expr, bool &handled);
  /// A read of an array of fewer dimensions than the nest, not in `data`,
  /// each subscript a loop variable plus or minus a constant
  /// (CoefficientArray); `handled` is false when `expr` is not one.
  Value readCoefficientArray(const clang::ArraySubscriptExpr *expr,
                             bool &handled);
  /// The value of the step variable, as its C type.
  Value getStepValue(clang::SourceLocation at);
  /// Reads `arrayIndex` at `offsets` from the point, through its field.
  Value readField(unsigned arrayIndex, ArrayRef<int64_t> offsets,
                  Location location);
  BlockArgument getFieldArgument(unsigned arrayIndex);

  Value *lookupTemporary(const clang::VarDecl *var) {
    for (auto &scope : llvm::reverse(scopes)) {
      auto it = scope.find(var);
      if (it != scope.end())
        return &it->second;
    }
    return nullptr;
  }
  bool isLoopVariable(const clang::VarDecl *var) const {
    if (var == region.timeVar)
      return true;
    for (const Section &other : region.sections)
      for (const LoopRange &loop : other.nest.loops)
        if (loop.var == var)
          return true;
    return false;
  }

  clang::ASTContext &astContext;
  clang::DiagnosticsEngine &diags;
  clang::SourceManager &sm;
  StencilRegion &region;
  Section *section;
  OpBuilder builder;
  Block *block;
  /// Scalars declared in the calc body: null until assigned.
  SmallVector<llvm::DenseMap<const clang::VarDecl *, Value>> scopes;
  /// Conditions of the enclosing branches, each combined with the ones
  /// outside it (getGuard).
  SmallVector<Value> guards;
  llvm::DenseMap<unsigned, BlockArgument> fieldArguments;
  llvm::DenseMap<const clang::VarDecl *, BlockArgument> scalarArguments;
  BlockArgument stepArgument;
  llvm::DenseMap<std::pair<unsigned, int64_t>, BlockArgument> tableArguments;
  llvm::DenseMap<unsigned, BlockArgument> coefficientArguments;
};

} // namespace mlir::stencil::pragma_c

#endif // LIB_CONVERSION_IMPORTPRAGMAC_CALCTRANSLATOR_H

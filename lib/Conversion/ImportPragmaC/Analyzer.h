//===- Analyzer.h - Match directives with the AST ---------------*- C++ -*-===//
//
// The analysis of the regions of one translation unit, private to the
// importer: RegionAnalysis.cpp groups the directives into regions and finds
// each time loop; ArrayAnalysis.cpp checks the arrays, the calc and copy
// loop nests and the copy pairs.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_IMPORTPRAGMAC_ANALYZER_H
#define LIB_CONVERSION_IMPORTPRAGMAC_ANALYZER_H

#include "RegionModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"

namespace mlir::stencil::pragma_c {

class Analyzer {
public:
  explicit Analyzer(clang::ASTContext &context)
      : context(context), sm(context.getSourceManager()),
        diags(context.getDiagnostics()) {}

  std::vector<StencilRegion> run(const std::vector<Directive> &directives);

private:
  clang::SourceLocation expansion(clang::SourceLocation loc) const {
    return sm.getExpansionLoc(loc);
  }
  bool before(clang::SourceLocation a, clang::SourceLocation b) const {
    return sm.isBeforeInTranslationUnit(expansion(a), expansion(b));
  }
  bool error(clang::SourceLocation loc, const llvm::Twine &message) {
    reportError(diags, loc, message.str());
    return false;
  }
  void note(clang::SourceLocation loc, const llvm::Twine &message) {
    reportNote(diags, loc, message.str());
  }

  bool analyzeRegion(StencilRegion &region,
                     const std::vector<const Directive *> &inner);
  bool assignDirectives(StencilRegion &region,
                        const std::vector<const Directive *> &inner);
  /// A statement of a region outside its time loop: a `calc` nest (under
  /// `directive`), a reset or an output call.
  struct OutsideStatement {
    Phase phase;
    const Directive *directive;
    const clang::Stmt *stmt;
  };
  /// Finds the time loop and the statements before and after it.
  bool findTimeLoop(StencilRegion &region,
                    llvm::SmallVectorImpl<OutsideStatement> &outside);
  /// `v = value;` with `v` a scalar: a reset, if `v` turns out to be reduced.
  static std::pair<const clang::VarDecl *, const clang::BinaryOperator *>
  matchReset(const clang::Stmt *stmt);
  /// The call, when `stmt` is `stencil_write_raw(...)` or `if (c)
  /// stencil_write_raw(...)`; else null.
  static const clang::CallExpr *getOutputCall(const clang::Stmt *stmt);
  /// Checks an output call and adds it to the region's outputs.
  bool analyzeOutput(StencilRegion &region, const clang::CallExpr *call,
                     const clang::Expr *condition, Phase phase,
                     unsigned afterSections);
  /// Reports each use of a resident array outside its region, and arrays
  /// resident in two regions.
  void checkResidentUses(std::vector<StencilRegion> &regions);
  /// Marks the arrays `distribute(...) resident` names, checking that this
  /// file defines them.
  bool markResidentArrays(StencilRegion &region);
  bool analyzeTimeLoop(StencilRegion &region);
  /// Adds the variables `root` assigns (`=`, `op=`, `++`, `--`).
  static void collectAssignedVariables(
      const clang::Stmt *root,
      llvm::SmallPtrSetImpl<const clang::VarDecl *> &assigned);
  /// The loop nest each `calc` and `copy` directive governs and the
  /// boundary statements (directive null), in order, and the resets before
  /// the first.
  bool splitTimeLoopBody(
      StencilRegion &region,
      llvm::SmallVectorImpl<std::pair<const Directive *, const clang::Stmt *>>
          &nests);
  /// The arrays of `data`, split into one field per component that the
  /// nests use.
  bool analyzeArrays(StencilRegion &region,
                     llvm::ArrayRef<const clang::Stmt *> nests);
  /// The components of `array` (of the region's rank, its leading
  /// dimensions stripped into `componentShape`) that the statements read or
  /// write, in ascending order.
  bool findComponents(const RegionArray &array,
                      llvm::ArrayRef<const clang::Stmt *> statements,
                      std::vector<llvm::SmallVector<int64_t, 1>> &used);
  bool analyzeNest(StencilRegion &region, const clang::Stmt *stmt,
                   llvm::StringRef section, LoopNest &nest);
  /// A boundary statement: loops over some of the dimensions, in order, and
  /// a body writing at constant subscripts along the others.
  bool analyzeBoundary(StencilRegion &region, const clang::Stmt *stmt,
                       LoopNest &nest);
  /// One loop of a nest over dimension `axis`: its variable and bounds.
  bool analyzeLoop(StencilRegion &region, const clang::ForStmt *loop,
                   unsigned axis, llvm::StringRef section, LoopRange &range);
  /// The pairs of a copy section (`source[...] = destination[...]` at the
  /// loop point).
  bool analyzeCopies(StencilRegion &region, Section &section);
  /// The fields a calc section assigns to.
  bool collectWrites(StencilRegion &region, Section &section);
  /// The field `a[c]...[i][j]` names (its component subscripts constants),
  /// or null; the subscripts of the loop axes are not looked at.
  RegionArray *findSubscriptedField(
      StencilRegion &region, const clang::Expr *expr,
      llvm::SmallVectorImpl<const clang::Expr *> *loopSubscripts = nullptr);
  /// Whether two bounds are equal: the same constant, or the same
  /// expression up to added constants (`n-1` and `n-2 + 1` of `<=`).
  bool sameBound(const LoopBound &a, const LoopBound &b);
  /// `7`, `imax-1`, `n-2 + 1`: a bound as written, for messages.
  std::string getBoundText(const LoopBound &bound);
  /// Fills `bound` from `expr` + `addend`: a constant, or an integer
  /// expression without side effects that nothing in the region changes.
  bool makeBound(StencilRegion &region, const clang::Expr *expr, int64_t addend,
                 llvm::StringRef loopName, LoopBound &bound);

  /// `v = e` or `T v = e` in a for-init; sets `var` and `init`.
  bool matchLoopInit(const clang::Stmt *init, const clang::VarDecl *&var,
                     const clang::Expr *&value, bool &declares);
  /// `v < e` or `v <= e`.
  bool matchLoopCond(const clang::Expr *cond, const clang::VarDecl *var,
                     const clang::Expr *&bound, bool &inclusive);
  /// `v++`, `++v`, `v += 1`, `v = v + 1`.
  bool matchLoopInc(const clang::Expr *inc, const clang::VarDecl *var);

  /// A size of `data` (macro-expanded tokens) as a linear form: constants
  /// (`N`, `const int` names) and integer variables of `function` or the
  /// file, + - * / % and parentheses, products and quotients by constants.
  std::optional<LinearForm>
  evaluateSize(const std::vector<clang::Token> &tokens,
               const clang::FunctionDecl *function);
  /// The same for a C expression: a variably modified type's size.
  std::optional<LinearForm> getLinearForm(const clang::Expr *expr);
  const clang::VarDecl *findVariable(llvm::StringRef name,
                                     const clang::FunctionDecl *function);
  /// Seed 004's spelling: no host statements in the time loop.
  bool checkHostStatements(const StencilRegion &region);
  /// Seed 004's spelling: which arrays keep their host values (written,
  /// not mapped back), each declared as an array so that it can be copied.
  bool markHostValues(StencilRegion &region);
  /// The element type and sizes of a `data` array from its C declaration
  /// (seed 004's maps name arrays only); each size goes to `addSize`.
  bool typeFromDeclaration(
      StencilRegion &region, const ArrayDecl &decl,
      llvm::ArrayRef<const clang::Stmt *> nests, RegionArray &array,
      llvm::function_ref<bool(std::optional<LinearForm>, const std::string &,
                              clang::SourceLocation)>
          addSize);
  const clang::VarDecl *findArrayDecl(llvm::StringRef name,
                                      const clang::Stmt *scope);

  clang::ASTContext &context;
  clang::SourceManager &sm;
  clang::DiagnosticsEngine &diags;
};

/// Unwraps `{ s }` into `s`.
const clang::Stmt *skipSingleCompound(const clang::Stmt *stmt);

/// Whether the halo the distribution asks for fits in the cells the arrays
/// keep around the grid; reports it when not.
bool checkHaloFits(const StencilRegion &region,
                   clang::DiagnosticsEngine &diags);

} // namespace mlir::stencil::pragma_c

#endif // LIB_CONVERSION_IMPORTPRAGMAC_ANALYZER_H

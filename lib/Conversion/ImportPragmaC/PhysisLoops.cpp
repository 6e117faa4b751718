//===- PhysisLoops.cpp - Loops of constant trip count in stencil functions
//-===//
//
// Physis stencil functions loop over the members of a struct point
// (`for (i = 0; i < DIM; ++i) PSGridEmitUtype(g2.p[i], ...)`) or over a
// neighbourhood (`for (i = -1; i <= 1; ++i) s += PSGridGet(g, x + i, y)`).
// A point's value is computed without loops in a region's calc nest, and
// member indices and offsets must be constants, so such loops are written
// out: each iteration a block of its own with the loop variable's tokens
// replaced by the iteration's value. The program is then parsed again,
// until no loop of a constant trip count is left (an inner loop whose
// bounds named the outer variable has constant bounds after the outer one
// is written out). A loop that does not qualify stays, and the reader
// reports it.
//
// The copies stand on the loop's first line, with the loop's newlines
// after them, so every other line of the file keeps its number: a
// diagnostic inside a copy names the loop's first line.
//
//===----------------------------------------------------------------------===//

#include "Physis.h"

#include "RegionModel.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"

#include <map>

using namespace clang;
using namespace mlir::stencil::pragma_c;
using llvm::StringRef;

namespace {

/// Iterations a loop may have to be written out, and copies of loop
/// bodies a stencil function may have in all.
constexpr int64_t kMaxTrips = 64;
constexpr int64_t kMaxCopies = 1024;

/// A loop to write out: `for (v = lo; v < hi; ++v) body`, the source range
/// it spans and its body's.
struct Unrollable {
  const VarDecl *var;
  int64_t lo, hi;
  CharSourceRange loop, body;
  /// A body of one statement, whose range leaves out its semicolon.
  bool needsSemicolon;
};

/// `v` in a loop header, the variable itself.
const VarDecl *getLoopVar(const Expr *expr) {
  const auto *ref = dyn_cast<DeclRefExpr>(expr->IgnoreParenImpCasts());
  const auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  return var && var->isLocalVarDecl() && var->getType()->isIntegerType()
             ? var
             : nullptr;
}

/// Whether `stmt` leaves the loop body otherwise than at its end.
bool hasJump(const Stmt *stmt) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool found = false;
    bool VisitBreakStmt(BreakStmt *) { return !(found = true); }
    bool VisitContinueStmt(ContinueStmt *) { return !(found = true); }
    bool VisitReturnStmt(ReturnStmt *) { return !(found = true); }
    bool VisitGotoStmt(GotoStmt *) { return !(found = true); }
    bool VisitLabelStmt(LabelStmt *) { return !(found = true); }
  } finder;
  finder.TraverseStmt(const_cast<Stmt *>(stmt));
  return finder.found;
}

/// Whether the body names `var` where token replacement cannot reach it (a
/// macro's definition), or holds preprocessor lines, which a copy on one
/// line cannot keep.
bool hasHiddenText(const Stmt *body, const VarDecl *var, CharSourceRange range,
                   ASTContext &context) {
  const SourceManager &sm = context.getSourceManager();
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *var;
    const SourceManager &sm;
    bool found = false;
    Finder(const VarDecl *var, const SourceManager &sm) : var(var), sm(sm) {}
    bool VisitDeclRefExpr(DeclRefExpr *ref) {
      if (ref->getDecl() == var && ref->getLocation().isMacroID() &&
          !sm.isMacroArgExpansion(ref->getLocation()))
        found = true;
      return true;
    }
  } finder(var, sm);
  finder.TraverseStmt(const_cast<Stmt *>(body));
  if (finder.found)
    return true;
  StringRef text = Lexer::getSourceText(range, sm, context.getLangOpts());
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  return llvm::any_of(
      lines, [](StringRef line) { return line.ltrim().starts_with("#"); });
}

/// `loop` as an Unrollable, when an `int` counts up by one between
/// constant bounds (compared as signed numbers), its variable unchanged by
/// the body and not read after it.
std::optional<Unrollable> matchLoop(const ForStmt *loop,
                                    const FunctionDecl *function,
                                    ASTContext &context) {
  const SourceManager &sm = context.getSourceManager();
  // The `for` written in the file; the body may end in a macro's
  // invocation (PSGridGet(...)), whose text is the file's.
  if (!loop->getInit() || !loop->getCond() || !loop->getInc() ||
      loop->getBeginLoc().isMacroID() || !sm.isInMainFile(loop->getBeginLoc()))
    return std::nullopt;
  CharSourceRange range = sm.getExpansionRange(loop->getSourceRange());
  CharSourceRange body =
      sm.getExpansionRange(loop->getBody()->getSourceRange());
  if (!sm.isInMainFile(range.getEnd()) || !sm.isInMainFile(body.getBegin()))
    return std::nullopt;
  // v = lo, or int v = lo.
  const VarDecl *var = nullptr;
  const Expr *lower = nullptr;
  bool declared = false;
  if (const auto *decl = dyn_cast<DeclStmt>(loop->getInit())) {
    const auto *local = decl->isSingleDecl()
                            ? dyn_cast<VarDecl>(decl->getSingleDecl())
                            : nullptr;
    if (!local || !local->getInit())
      return std::nullopt;
    var = local;
    lower = local->getInit();
    declared = true;
  } else if (const auto *assign = dyn_cast<BinaryOperator>(loop->getInit());
             assign && assign->getOpcode() == BO_Assign) {
    var = getLoopVar(assign->getLHS());
    lower = assign->getRHS();
  }
  // An `int`, so that a literal in its place means the same in C.
  if (!var || !context.hasSameUnqualifiedType(var->getType(), context.IntTy))
    return std::nullopt;
  // v < hi, or v <= hi, compared as signed numbers.
  const auto *cond = dyn_cast<BinaryOperator>(loop->getCond()->IgnoreParens());
  if (!cond || (cond->getOpcode() != BO_LT && cond->getOpcode() != BO_LE) ||
      getLoopVar(cond->getLHS()) != var ||
      !cond->getLHS()->getType()->isSignedIntegerType())
    return std::nullopt;
  // ++v, v++, v += 1.
  const Expr *inc = loop->getInc()->IgnoreParens();
  bool byOne = false;
  if (const auto *unary = dyn_cast<UnaryOperator>(inc))
    byOne = unary->isIncrementOp() && getLoopVar(unary->getSubExpr()) == var;
  else if (const auto *compound = dyn_cast<CompoundAssignOperator>(inc))
    byOne = compound->getOpcode() == BO_AddAssign &&
            getLoopVar(compound->getLHS()) == var &&
            evaluateInteger(compound->getRHS(), context) == int64_t(1);
  std::optional<int64_t> lo = evaluateInteger(lower, context);
  std::optional<int64_t> hi = evaluateInteger(cond->getRHS(), context);
  if (!byOne || !lo || !hi || *lo < INT32_MIN || *lo > INT32_MAX ||
      *hi < INT32_MIN || *hi > INT32_MAX)
    return std::nullopt;
  int64_t end = *hi + (cond->getOpcode() == BO_LE ? 1 : 0);
  if (end - *lo > kMaxTrips || isChangedIn(var, loop->getBody()) ||
      hasJump(loop->getBody()) ||
      hasHiddenText(loop->getBody(), var, body, context))
    return std::nullopt;
  // A variable declared before the loop keeps its last value after it in
  // C; the copies do not set it, so nothing after the loop may read it.
  // Assigning it is not reading it, nor is a later loop that starts by
  // assigning it (`for (j = -1; ...)` again, as nested loops over
  // variables declared up front are, once written out).
  if (!declared) {
    struct Uses : RecursiveASTVisitor<Uses> {
      const VarDecl *var;
      const ForStmt *loop;
      const SourceManager &sm;
      llvm::SmallPtrSet<const DeclRefExpr *, 4> assigned;
      bool after = false;
      Uses(const VarDecl *var, const ForStmt *loop, const SourceManager &sm)
          : var(var), loop(loop), sm(sm) {}
      bool isAfter(const Stmt *stmt) {
        return sm.isBeforeInTranslationUnit(loop->getEndLoc(),
                                            stmt->getBeginLoc());
      }
      bool TraverseForStmt(ForStmt *other) {
        const auto *init = dyn_cast_or_null<BinaryOperator>(other->getInit());
        if (other != loop && isAfter(other) && init &&
            init->getOpcode() == BO_Assign && getLoopVar(init->getLHS()) == var)
          return true;
        return RecursiveASTVisitor::TraverseForStmt(other);
      }
      bool VisitBinaryOperator(BinaryOperator *op) {
        if (op->getOpcode() == BO_Assign)
          if (const auto *ref =
                  dyn_cast<DeclRefExpr>(op->getLHS()->IgnoreParens()))
            assigned.insert(ref);
        return true;
      }
      bool VisitDeclRefExpr(DeclRefExpr *ref) {
        if (ref->getDecl() == var && !assigned.contains(ref) && isAfter(ref))
          after = true;
        return true;
      }
    } uses(var, loop, sm);
    uses.TraverseStmt(function->getBody());
    if (uses.after)
      return std::nullopt;
  }
  return Unrollable{var,   *lo,  std::max(end, *lo),
                    range, body, !isa<CompoundStmt>(loop->getBody())};
}

/// The body's tokens on one line, the variable's replaced by `value`
/// (member names after `.` and `->` kept), comments dropped.
std::string writeCopy(const Unrollable &loop, int64_t value,
                      ASTContext &context) {
  const SourceManager &sm = context.getSourceManager();
  const LangOptions &lang = context.getLangOpts();
  // The raw lexer reads the whole file's buffer, which ends in a NUL, from
  // the body's first character to its end.
  FileID file = sm.getMainFileID();
  StringRef buffer = sm.getBufferData(file);
  unsigned begin = sm.getFileOffset(loop.body.getBegin());
  unsigned end = sm.getFileOffset(
      Lexer::getLocForEndOfToken(loop.body.getEnd(), 0, sm, lang));
  Lexer lexer(sm.getLocForStartOfFile(file), lang, buffer.begin(),
              buffer.begin() + begin, buffer.end());
  std::string copy, name = loop.var->getNameAsString();
  std::string literal =
      value < 0 ? "(" + std::to_string(value) + ")" : std::to_string(value);
  Token token, previous;
  previous.startToken();
  while (true) {
    lexer.LexFromRawLexer(token);
    unsigned at = sm.getFileOffset(token.getLocation());
    if (token.is(tok::eof) || at >= end)
      break;
    StringRef spelling = buffer.substr(at, token.getLength());
    if (!copy.empty() && (token.hasLeadingSpace() || token.isAtStartOfLine()))
      copy += ' ';
    bool isVar = token.is(tok::raw_identifier) &&
                 token.getRawIdentifier() == name &&
                 !previous.isOneOf(tok::period, tok::arrow);
    copy += isVar ? literal : spelling.str();
    previous = token;
  }
  return loop.needsSemicolon ? copy + ";" : copy;
}

/// Finds the outermost loops of constant trip count in stencil functions
/// (functions of integer coordinates and a grid) and writes them out.
class LoopConsumer : public ASTConsumer {
public:
  LoopConsumer(std::string &result, bool &changed)
      : result(result), changed(changed) {}

  void HandleTranslationUnit(ASTContext &context) override {
    if (context.getDiagnostics().hasErrorOccurred())
      return;
    const SourceManager &sm = context.getSourceManager();
    struct Finder : RecursiveASTVisitor<Finder> {
      ASTContext &context;
      const FunctionDecl *function = nullptr;
      unsigned depth = 0;
      std::vector<Unrollable> loops;
      std::map<const FunctionDecl *, int64_t> copies;
      llvm::SmallPtrSet<const FunctionDecl *, 4> kernels;
      explicit Finder(ASTContext &context) : context(context) {}
      bool TraverseFunctionDecl(FunctionDecl *decl) {
        if (!decl->hasBody() || !kernels.contains(decl->getDefinition()))
          return true;
        function = decl;
        return RecursiveASTVisitor::TraverseFunctionDecl(decl);
      }
      bool TraverseForStmt(ForStmt *loop) {
        if (depth == 0 && function)
          if (std::optional<Unrollable> found =
                  matchLoop(loop, function, context)) {
            int64_t &total = copies[function];
            total += found->hi - found->lo;
            if (total <= kMaxCopies) {
              loops.push_back(*found);
              return true;
            }
          }
        ++depth;
        bool ok = RecursiveASTVisitor::TraverseForStmt(loop);
        --depth;
        return ok;
      }
    } finder(context);
    // The stencil functions: those PSStencilMap (and its red-black forms)
    // applies; others keep their loops.
    struct Kernels : RecursiveASTVisitor<Kernels> {
      llvm::SmallPtrSet<const FunctionDecl *, 4> &found;
      explicit Kernels(llvm::SmallPtrSet<const FunctionDecl *, 4> &found)
          : found(found) {}
      bool VisitCallExpr(CallExpr *call) {
        const FunctionDecl *callee = call->getDirectCallee();
        if (!callee || !callee->getDeclName().isIdentifier() ||
            !callee->getName().starts_with("__PSStencilMap") ||
            call->getNumArgs() == 0)
          return true;
        const auto *ref =
            dyn_cast<DeclRefExpr>(call->getArg(0)->IgnoreParenCasts());
        if (const auto *kernel =
                ref ? dyn_cast<FunctionDecl>(ref->getDecl()) : nullptr)
          if (const FunctionDecl *definition = kernel->getDefinition())
            found.insert(definition);
        return true;
      }
    } kernels(finder.kernels);
    kernels.TraverseDecl(context.getTranslationUnitDecl());
    finder.TraverseDecl(context.getTranslationUnitDecl());
    if (finder.loops.empty())
      return;
    StringRef buffer = sm.getBufferData(sm.getMainFileID());
    std::string out;
    unsigned at = 0;
    for (const Unrollable &loop : finder.loops) {
      unsigned begin = sm.getFileOffset(loop.loop.getBegin());
      unsigned end = sm.getFileOffset(Lexer::getLocForEndOfToken(
          loop.loop.getEnd(), 0, sm, context.getLangOpts()));
      out += buffer.slice(at, begin).str();
      for (int64_t value = loop.lo; value < loop.hi; ++value)
        out += "{ " + writeCopy(loop, value, context) + " } ";
      out += std::string(buffer.slice(begin, end).count('\n'), '\n');
      at = end;
    }
    out += buffer.substr(at).str();
    result = std::move(out);
    changed = true;
  }

private:
  std::string &result;
  bool &changed;
};

class LoopAction : public ASTFrontendAction {
public:
  LoopAction(std::string &result, bool &changed)
      : result(result), changed(changed) {}
  bool BeginSourceFileAction(CompilerInstance &ci) override {
    ci.getDiagnostics().setClient(new IgnoringDiagConsumer(),
                                  /*ShouldOwnClient=*/true);
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<LoopConsumer>(result, changed);
  }

private:
  std::string &result;
  bool &changed;
};

} // namespace

std::string mlir::stencil::pragma_c::unrollStencilLoops(
    StringRef source, StringRef fileName,
    const std::vector<std::string> &clangArgs) {
  std::string text = source.str();
  // Each pass writes out the outermost loops; the loops they held are
  // outermost in the next.
  for (unsigned pass = 0; pass < 8; ++pass) {
    std::string next;
    bool changed = false;
    tooling::runToolOnCodeWithArgs(std::make_unique<LoopAction>(next, changed),
                                   text, clangArgs, fileName,
                                   "stencil-translate");
    if (!changed)
      break;
    text = std::move(next);
  }
  return text;
}

//===- RegionModel.h - A #pragma stencil region, analysed -------*- C++ -*-===//
//
// What the importer knows about one region after matching its directives
// with Clang's AST: arrays, loops, copy pairs. Private to the importer; the
// IR emitter and the host interface (manifest, rewritten C) read it.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_IMPORTPRAGMAC_REGIONMODEL_H
#define LIB_CONVERSION_IMPORTPRAGMAC_REGIONMODEL_H

#include "Directives.h"

#include "Stencil/Dialect/Stencil/IR/StencilDialect.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::stencil::pragma_c {

/// A bound of a loop of a nest: a constant, or an integer expression of the
/// program's variables (`imax-1`), known at run time.
struct LoopBound {
  /// The bound, when constant (the upper bound of a `<=` loop plus one).
  std::optional<int64_t> value;
  /// The bound as written, and what the loop adds to it (1 for the upper
  /// bound of a `<=` loop).
  const clang::Expr *expr = nullptr;
  int64_t addend = 0;
  /// For a run-time bound: its index in StencilRegion::runtimeBounds.
  unsigned runtimeIndex = 0;
  bool isConstant() const { return value.has_value(); }
};

/// `for (v = lower; v < upper; v++)`, or `v <= upper`. In a boundary
/// statement, an axis it does not loop over is fixed: no variable, the
/// range [c, c + 1) of the constant subscript it writes at.
struct LoopRange {
  /// Null for a fixed axis.
  const clang::VarDecl *var = nullptr;
  LoopBound lower, upper;
  /// The loop declares its variable (`for (int i = ...)`), so it is not
  /// visible after the region.
  bool declaresVar = false;
};

/// A run-time bound of a nest: an argument of the region's function
/// (`long long`, `index` in the IR), checked on entry against the arrays.
/// Nests whose bounds are the same expression share one.
struct RuntimeBound {
  /// The section and axis where it first appears.
  unsigned section = 0;
  unsigned axis = 0;
  bool isUpper = false;
  /// `i_upper`, unique in the region: the parameter's name.
  std::string name;
};

/// An array extent as a linear form of integer variables (`n`, `n + 0`,
/// `2*m - 1`): two extents are the same when their forms are, whatever
/// their spelling.
struct LinearForm {
  int64_t constant = 0;
  /// Coefficient per variable, none zero.
  std::map<const clang::VarDecl *, int64_t> terms;
  bool operator==(const LinearForm &other) const {
    return constant == other.constant && terms == other.terms;
  }
};

/// An extent of the arrays known at run time only (`n` of a C99 parameter
/// `double A[n][n]`): an argument of the region's function (`long long`,
/// `index` in the IR), computed once on entry. Axes of the same extent
/// share one.
struct RuntimeExtent {
  LinearForm form;
  /// The extent as `data` writes it, a C expression at the region.
  std::string text;
  clang::SourceLocation loc;
  /// `extent0`, unique in the region: the parameter's name.
  std::string name;
};

/// A perfect loop nest over the region's dimensions, outermost first.
struct LoopNest {
  llvm::SmallVector<LoopRange, 3> loops;
  const clang::Stmt *body = nullptr;
};

/// One field of the region: an array of `data`, or one component of an
/// array whose leading subscripts are constants (`a[3]` of
/// `float a[4][NI][NJ][NK]` under `dimension(i, j, k)`).
struct RegionArray {
  /// The C array's name.
  std::string name;
  clang::SourceLocation loc;
  const clang::VarDecl *decl = nullptr;
  ElementKind element = ElementKind::Float;
  bool isSource = false;
  /// `const` in `data` or in the C declaration's element type: a nest
  /// writing it is an error, and the prototype takes `const T *`.
  bool isConst = false;
  /// The field's shape: the array's last `rank` dimensions, kDynamic for
  /// a run-time extent.
  llvm::SmallVector<int64_t, 3> shape;
  /// Per dimension of `shape`, the index of its run-time extent in
  /// StencilRegion::runtimeExtents; none for a constant.
  llvm::SmallVector<std::optional<unsigned>, 3> extents;
  /// The array's leading dimensions beyond the grid's rank, and the
  /// constant subscripts that select this field among them.
  llvm::SmallVector<int64_t, 1> componentShape;
  llvm::SmallVector<int64_t, 1> component;
  /// For a source: the destination a copy section copies into it, if any.
  std::optional<unsigned> copiedFrom;
  /// Written by a nest of the region: written back at the end.
  bool isWritten = false;
  /// Written by a nest of the time loop: carried from step to step. The
  /// time loop only reads the rest (a nest before the loop may have set
  /// them).
  bool isWrittenInLoop = false;
  bool isCarried() const { return isWrittenInLoop; }
  /// Named by `distribute(...) resident`: under `stencilcc --mpi` the array
  /// exists only as the ranks' blocks, so only its region may use it.
  bool isResident = false;
  /// Written by the region but, in seed 004's spelling, not mapped back
  /// (`map(from: ...)`): the region computes on a copy, and the host array
  /// keeps its values, as OpenMP says.
  bool keepsHostValues = false;
  /// `a`, or `a[3]` for a component, as the C program spells it.
  std::string getDisplayName() const {
    std::string text = name;
    for (int64_t index : component)
      text += "[" + std::to_string(index) + "]";
    return text;
  }
  /// A C identifier for the field: `a`, or `a_3` for a component.
  std::string getParamName() const {
    std::string text = name;
    for (int64_t index : component)
      text += "_" + std::to_string(index);
    return text;
  }
};

/// A scalar of the enclosing function read by the calc section; it becomes
/// an argument of the region's function.
struct CapturedScalar {
  const clang::VarDecl *decl = nullptr;
  /// Where the region first reads it.
  clang::SourceLocation firstUse;
};

/// Where a statement of a region runs: before the time loop (once), in each
/// step, or after the time loop (once).
enum class Phase { Before, Step, After };

/// `v = value;` in the time loop before the calc nest: sets a reduction
/// variable at the start of every step (Himeno's `gosa = 0.0;`). Outside the
/// time loop, it sets the variable once, before a nest of the same phase
/// reduces into it (`sum = 0.0;` before a checksum nest after the loop).
struct ResetStatement {
  const clang::VarDecl *var = nullptr;
  const clang::BinaryOperator *assign = nullptr;
  Phase phase = Phase::Step;
  /// Outside the time loop: the index in StencilRegion::sections of the
  /// first nest after it.
  unsigned nextSection = 0;
};

/// `stencil_write_raw(A, path)` (stencil_io.h) before or after the time
/// loop: the field's elements in C order, as the region has them after the
/// sections before it, to the file `path` names (collectively across MPI
/// ranks).
struct OutputStatement {
  const clang::CallExpr *call = nullptr;
  /// The index in StencilRegion::arrays of the field written.
  unsigned field = 0;
  const clang::Expr *path = nullptr;
  /// `if (condition) stencil_write_raw(...);`: written only when it holds
  /// (evaluated on entry, like the path); null when unconditional.
  const clang::Expr *condition = nullptr;
  /// Before or after the time loop, and the number of sections
  /// (StencilRegion::sections) that run before it.
  Phase phase = Phase::After;
  unsigned afterSections = 0;
  /// `path0`, unique in the region: the parameter's name.
  std::string paramName;
};

/// A variable of the enclosing function or file that the calc section
/// reduces into (`gosa += ss*ss`); passed by address, so the C program
/// sees what its loop would have left there.
struct RegionReduction {
  const clang::VarDecl *decl = nullptr;
  ReductionKind kind = ReductionKind::Add;
  /// The calc section that updates it.
  unsigned section = 0;
  /// Where the calc section first updates it, and how (`+=`, `fmax`, ...).
  clang::SourceLocation loc;
  std::string spelling;
  /// Its reset in the time loop, if any.
  const ResetStatement *reset = nullptr;
};

/// A one-dimensional array outside `data` that the nests read at the step
/// variable (`fict[t]`, a boundary value per step): an argument of the
/// region's function, read once per step.
struct StepTable {
  const clang::VarDecl *decl = nullptr;
  int64_t size = 0;
  clang::QualType elementType;
  /// The lowest and highest offset from the step variable it is read at.
  int64_t lowOffset = 0, highOffset = 0;
  clang::SourceLocation firstUse;
  /// The sections that read it: only a step over one of them that is not
  /// empty reads the table.
  llvm::SmallVector<unsigned, 2> sections;
};

/// An array of fewer dimensions than the loop nests, not in `data`, that
/// the nests read along some of their loop variables (a coefficient table
/// `cx[i]`, `cyz[j][k]` in an `i, j, k` nest; Physis's grids of a lower
/// rank). The region only reads it: a field of its own shape, read `along`
/// the grid axes its subscripts name.
struct CoefficientArray {
  const clang::VarDecl *decl = nullptr;
  /// Its constant sizes, outermost first.
  llvm::SmallVector<int64_t, 2> shape;
  ElementKind element = ElementKind::Float;
  clang::SourceLocation firstUse;
};

/// One loop nest of the time loop, under `#pragma stencil calc` or `copy`,
/// or a boundary statement without a directive: a nest over some of the
/// dimensions that sets cells at constant subscripts along the others
/// (`for (j = 0; j < n; j++) ey[0][j] = fict[t];`). The nests of a step run
/// in order, each a stencil.apply on its own grid. A `calc` nest may also
/// stand before the time loop (initialization) or after it (reductions,
/// output), and runs once there.
struct Section {
  Phase phase = Phase::Step;
  /// Null for a boundary statement.
  const Directive *directive = nullptr;
  /// The directive, or the boundary statement's first token.
  clang::SourceLocation loc;
  bool isCopy() const {
    return directive && directive->kind == DirectiveKind::Copy;
  }
  bool isBoundary() const { return !directive; }
  LoopNest nest;
  /// The fields (indices into StencilRegion::arrays) the nest writes, in
  /// ascending order.
  llvm::SmallVector<unsigned, 2> writes;
  /// For a copy section: (source, destination) per assignment, by source.
  llvm::SmallVector<std::pair<unsigned, unsigned>, 2> copies;
  /// Filled while the body is translated: per axis, the lowest and highest
  /// offset at which a field is read or written (0 at least), and the field
  /// (display name) that reaches there first.
  llvm::SmallVector<int64_t, 3> reachLow, reachHigh;
  llvm::SmallVector<std::string, 3> reachLowArray, reachHighArray;
  /// Whether both nests run over the same points: equal constants, or the
  /// same run-time bound arguments.
  bool hasSameRange(const Section &other) const {
    for (auto [a, b] : llvm::zip_equal(nest.loops, other.nest.loops))
      for (auto [x, y] :
           {std::pair{&a.lower, &b.lower}, std::pair{&a.upper, &b.upper}})
        if (x->value != y->value ||
            (!x->isConstant() && x->runtimeIndex != y->runtimeIndex))
          return false;
    return true;
  }
  /// "calc", "copy" or "boundary", for messages and the manifest.
  llvm::StringRef getKindName() const {
    return isBoundary() ? "boundary" : isCopy() ? "copy" : "calc";
  }
  bool isInLoop() const { return phase == Phase::Step; }
};

struct StencilRegion {
  /// Name of the generated function: stencil_<function>_<n>.
  std::string name;
  const clang::FunctionDecl *function = nullptr;
  const Directive *begin = nullptr;
  const Directive *end = nullptr;
  const Directive *step = nullptr;
  const Directive *data = nullptr;
  const Directive *dimension = nullptr;
  const Directive *distribute = nullptr;
  const Directive *halo = nullptr;
  /// The `calc` and `copy` directives, in order.
  std::vector<const Directive *> nestDirectives;

  /// Null in a region without a time loop (seed 004's `target` construct
  /// over one nest): its nests run once, in phase `Before`; its function
  /// takes no step count and has no `stencil.iterate`.
  const clang::ForStmt *timeLoop = nullptr;
  const clang::VarDecl *timeVar = nullptr;
  bool timeVarDeclaredInLoop = false;
  /// The variables the time loop assigns (its own, the nests' loop
  /// variables, reduction variables, temporaries): what C re-reads in every
  /// step, so no value computed once on entry may read them.
  llvm::SmallPtrSet<const clang::VarDecl *, 8> assignedInLoop;
  /// The time loop runs `v = stepLower; v < stepUpper` (or `<=`).
  const clang::Expr *stepLower = nullptr;
  const clang::Expr *stepUpper = nullptr;
  bool stepInclusive = false;

  std::vector<RegionArray> arrays;
  /// The fields' shape (kDynamic where run-time), and per axis its
  /// run-time extent, if any.
  llvm::SmallVector<int64_t, 3> shape;
  llvm::SmallVector<std::optional<unsigned>, 3> extents;
  /// The run-time extents of the arrays, each once, in order of first
  /// appearance.
  std::vector<RuntimeExtent> runtimeExtents;
  /// The loop nests of a step, in order.
  std::vector<Section> sections;
  /// The nests' bounds that are not constants, each once, in order of first
  /// appearance (per nest, axis by axis, the lower before the upper).
  std::vector<RuntimeBound> runtimeBounds;
  /// Filled while the calc bodies are translated, in order of first use.
  std::vector<CapturedScalar> scalars;
  /// Variables declared outside the calc sections that they use as
  /// temporaries of each point (C89's `float s0, ss;`), in order.
  std::vector<const clang::VarDecl *> outerTemporaries;
  /// The reset statements of the time loop, in order.
  std::vector<ResetStatement> resets;
  /// The C type of the step variable when a calc body reads it as a value
  /// (`t*dt`): the time loop then carries it, from the first step's value,
  /// an argument of the region's function. Null otherwise.
  clang::QualType stepValueType;
  bool usesStepValue() const { return !stepValueType.isNull(); }
  /// Filled while the calc bodies are translated, in order of first use.
  std::vector<StepTable> stepTables;
  /// Filled while the calc bodies are translated, in order of first use.
  std::vector<CoefficientArray> coefficientArrays;
  /// Filled while the calc bodies are translated, in order of first update.
  std::vector<RegionReduction> reductions;
  /// The `stencil_write_raw` calls before and after the time loop, in order.
  std::vector<OutputStatement> outputs;

  unsigned getRank() const { return shape.size(); }
  /// Whether something runs before or after the time loop: then the region
  /// runs, and its function is called, whatever the number of steps.
  bool hasStatementsOutsideLoop() const {
    return !outputs.empty() ||
           llvm::any_of(sections, [](const Section &section) {
             return !section.isInLoop();
           });
  }
  bool isStaticExtent(unsigned axis) const { return !extents[axis]; }
  /// Whether the region's function takes values that the call computes on
  /// entry (run-time bounds or extents): then it is called only when a step
  /// runs, as C would evaluate nothing otherwise.
  bool hasRuntimeValues() const {
    return !runtimeBounds.empty() || !runtimeExtents.empty();
  }
  /// The extent along `axis` for messages: `64`, or `n` as written.
  std::string getExtentText(unsigned axis) const {
    return extents[axis] ? runtimeExtents[*extents[axis]].text
                         : std::to_string(shape[axis]);
  }
  const LoopBound &getBound(const RuntimeBound &bound) const {
    const LoopRange &loop = sections[bound.section].nest.loops[bound.axis];
    return bound.isUpper ? loop.upper : loop.lower;
  }
  const LoopRange &getLoop(const RuntimeBound &bound) const {
    return sections[bound.section].nest.loops[bound.axis];
  }
  /// Whether `var` is the time loop's variable or a `dimension` variable
  /// (by name: each nest's loops may declare their own).
  bool isLoopVariable(const clang::VarDecl *var) const {
    return var == timeVar ||
           llvm::any_of(dimension->dimensions, [&](const NamedLoc &dim) {
             return dim.name == var->getName();
           });
  }
  /// Whether `data` names an array `name`.
  bool isDataArray(llvm::StringRef name) const {
    return llvm::any_of(data->arrays, [&](const ArrayDecl &array) {
      return array.name.name == name;
    });
  }
  /// `[64][n]`: `array`'s dimensions as `data` writes them, for messages.
  std::string getShapeText(const RegionArray &array) const {
    std::string text;
    for (auto [size, extent] : llvm::zip_equal(array.shape, array.extents))
      text += "[" +
              (extent ? runtimeExtents[*extent].text : std::to_string(size)) +
              "]";
    return text;
  }
  /// The first field of C array `name`, if any.
  RegionArray *findArray(llvm::StringRef name) {
    for (RegionArray &array : arrays)
      if (array.name == name)
        return &array;
    return nullptr;
  }
  /// The field of C array `name` with component subscripts `component`.
  RegionArray *findField(llvm::StringRef name,
                         llvm::ArrayRef<int64_t> component) {
    for (RegionArray &array : arrays)
      if (array.name == name &&
          llvm::ArrayRef<int64_t>(array.component) == component)
        return &array;
    return nullptr;
  }
};

/// The element type of a C type, if a region's arrays may have it.
std::optional<ElementKind> getElementKind(clang::QualType type);

/// The field element type of an array of a region (`long` is 64 bits, as
/// on the LP64 hosts the host code is compiled for).
inline mlir::Type getFieldElementType(ElementKind kind,
                                      mlir::MLIRContext *context) {
  switch (kind) {
  case ElementKind::Float:
    return mlir::Float32Type::get(context);
  case ElementKind::Double:
    return mlir::Float64Type::get(context);
  case ElementKind::Int:
    return mlir::IntegerType::get(context, 32);
  case ElementKind::Long:
    return mlir::IntegerType::get(context, 64);
  }
  llvm_unreachable("unknown element kind");
}

/// Evaluates an integer expression of constants: literals, macros (already
/// expanded), `const` integer variables with constant initializers, enum
/// constants, `+ - * / %` and parentheses.
std::optional<int64_t> evaluateInteger(const clang::Expr *expr,
                                       clang::ASTContext &context);

/// `c` for an expression that is `var` plus or minus constants: `var`,
/// `var + c`, `c + var`, `var - c`, and sums of those (`(var - 1) + 2`, as
/// macros write them); nothing for any other form or an overflow.
std::optional<int64_t> getOffsetFrom(const clang::Expr *expr,
                                     const clang::VarDecl *var,
                                     clang::ASTContext &context);

/// Calls `fn` on every statement below `stmt`, `stmt` included.
template <typename Fn> void walkStmts(const clang::Stmt *stmt, Fn &&fn) {
  if (!stmt)
    return;
  fn(stmt);
  for (const clang::Stmt *child : stmt->children())
    walkStmts(child, fn);
}

/// `[n][m]...`, the C declarator of `shape`.
std::string shapeString(llvm::ArrayRef<int64_t> shape);

/// Skips parentheses and implicit casts that do not change the value's
/// meaning for the importer (lvalue-to-rvalue, no-op, array decay).
const clang::Expr *skipTransparent(const clang::Expr *expr);

/// The type `var` was declared with: for a parameter, as written, before an
/// array decays to a pointer (`double A[n][n]`, `double fict[TMAX]`).
clang::QualType getWrittenType(const clang::VarDecl *var);

/// The variable `expr` names, looking through parentheses and implicit
/// conversions; null when it names none.
const clang::VarDecl *getReferencedVar(const clang::Expr *expr);

/// The variables one declaration declares along with `var` (`static float
/// A[N], B[N];`), in order: they share its specifiers' location.
std::vector<const clang::VarDecl *>
getDeclarationGroup(clang::ASTContext &context, const clang::VarDecl *var);

/// Groups the directives into regions, matches them with the AST and checks
/// the supported subset. Reports every problem as a Clang error; returns the
/// regions that passed.
std::vector<StencilRegion>
analyzeRegions(clang::ASTContext &context,
               const std::vector<Directive> &directives);

} // namespace mlir::stencil::pragma_c

#endif // LIB_CONVERSION_IMPORTPRAGMAC_REGIONMODEL_H

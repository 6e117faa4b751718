//===- HostInterface.cpp - Manifest and rewritten C -----------------------===//

#include "HostInterface.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace clang;
using namespace mlir::stencil::pragma_c;

namespace {

/// The text of an expression as written (macros unexpanded).
std::string getSourceText(ASTContext &context, const Expr *expr) {
  const SourceManager &sm = context.getSourceManager();
  CharSourceRange range = sm.getExpansionRange(expr->getSourceRange());
  // Without comments: a `//` would end the line the text goes on.
  return stripComments(Lexer::getSourceText(range, sm, context.getLangOpts()));
}

/// The text of a macro argument as written in the macro's call
/// (`stencil_write_raw(A, argv[2])` gives `argv[2]`), or of an expression
/// outside macros.
std::string getArgumentText(ASTContext &context, const Expr *expr) {
  const SourceManager &sm = context.getSourceManager();
  SourceLocation begin = sm.getTopMacroCallerLoc(expr->getBeginLoc());
  SourceLocation end = sm.getTopMacroCallerLoc(expr->getEndLoc());
  return stripComments(Lexer::getSourceText(
      CharSourceRange::getTokenRange(begin, end), sm, context.getLangOpts()));
}

std::string getElementName(const RegionArray &array) {
  return getElementCName(array.element).str();
}

/// A run-time bound as written, with what the loop adds (` + 1` for `<=`).
std::string getBoundSource(ASTContext &context, const LoopBound &bound) {
  std::string text = getSourceText(context, bound.expr);
  return bound.addend ? text + " + " + std::to_string(bound.addend) : text;
}

/// The local variable of the call block that holds a run-time bound.
std::string getBoundVariable(const StencilRegion &region,
                             const RuntimeBound &bound) {
  return region.name + "_" + bound.name;
}

/// The local variable of the call block that holds a run-time extent.
std::string getExtentVariable(const StencilRegion &region,
                              const RuntimeExtent &extent) {
  return region.name + "_" + extent.name;
}

/// The extent along `axis` in the call block: the constant, or the local
/// variable that holds it.
std::string getExtentValue(const StencilRegion &region, unsigned axis) {
  if (region.isStaticExtent(axis))
    return std::to_string(region.shape[axis]);
  return getExtentVariable(region,
                           region.runtimeExtents[*region.extents[axis]]);
}

/// The value of a bound of a nest in the call block: the constant, or the
/// local variable that holds it.
std::string getBoundValue(const StencilRegion &region, const LoopBound &bound) {
  if (bound.isConstant())
    return std::to_string(*bound.value);
  return getBoundVariable(region, region.runtimeBounds[bound.runtimeIndex]);
}

/// The C condition under which `section`'s nest runs any point once the
/// bounds are known: `lo < hi && ...` over its run-time ranges, empty when
/// all its bounds are constants (the analysis rejects empty constant
/// ranges).
std::string getNonEmptyCondition(const StencilRegion &region,
                                 const Section &section) {
  std::string condition;
  for (const LoopRange &loop : section.nest.loops)
    if (!loop.lower.isConstant() || !loop.upper.isConstant())
      condition += (condition.empty() ? "" : " && ") +
                   getBoundValue(region, loop.lower) + " < " +
                   getBoundValue(region, loop.upper);
  return condition;
}

/// `text` as the body of a C string literal that is also a printf format.
std::string escapeFormat(llvm::StringRef text) {
  std::string escaped;
  for (char c : text) {
    if (c == '%')
      escaped += "%%";
    else if (c == '"' || c == '\\')
      escaped += std::string("\\") + c;
    else if (c == '\n')
      escaped += ' ';
    else
      escaped += c;
  }
  return escaped;
}

/// ` if (CONDITION) stencil_bound_error("MESSAGE", VALUE);`: `message` holds
/// `\x01` where the value is printed, put in after the text is escaped.
void writeRuntimeCheck(llvm::raw_ostream &os, const std::string &condition,
                       const std::string &message, const std::string &value) {
  std::string format = escapeFormat(message);
  format.replace(format.find('\x01'), 1, "%lld");
  os << " if (" << condition << ") stencil_bound_error(\"" << format << "\", "
     << value << ");";
}

/// `&A[0][0][0]`: a pointer to the first element, for arrays and for
/// pointers to arrays alike.
std::string getFirstElement(const StencilRegion &region,
                            const RegionArray &array) {
  std::string text = "&" + array.getDisplayName();
  for (unsigned axis = 0; axis < region.getRank(); ++axis)
    text += "[0]";
  return text;
}

/// The copy a region computes on where the host array keeps its values.
std::string getHostCopyName(const StencilRegion &region,
                            const RegionArray &array) {
  return region.name + "_copy" + std::to_string(&array - region.arrays.data());
}

std::string getTypeName(const clang::VarDecl *decl) {
  return decl->getType().getCanonicalType().getUnqualifiedType().getAsString();
}

std::string getScalarTypeName(const CapturedScalar &scalar) {
  return getTypeName(scalar.decl);
}

const char *getKindName(mlir::stencil::ReductionKind kind) {
  switch (kind) {
  case mlir::stencil::ReductionKind::Add:
    return "add";
  case mlir::stencil::ReductionKind::Mul:
    return "mul";
  case mlir::stencil::ReductionKind::Min:
    return "min";
  case mlir::stencil::ReductionKind::Max:
    return "max";
  }
  return "";
}

/// The arguments of the call to the region's function, without the step
/// count: arrays by their first element, captured scalars by value,
/// reduction variables by address.
std::string getCallArguments(ASTContext &context, const StencilRegion &region,
                             bool residentBlocks) {
  std::string text;
  // A resident array has no definition under --mpi: the region allocates
  // the rank's block.
  for (const RegionArray &array : region.arrays)
    text += (residentBlocks && array.isResident
                 ? "(" + getElementName(array) + " *)0"
             : array.keepsHostValues ? "(" + getElementName(array) + " *)" +
                                           getHostCopyName(region, array)
                                     : getFirstElement(region, array)) +
            ", ";
  for (const CapturedScalar &scalar : region.scalars)
    text += scalar.decl->getNameAsString() + ", ";
  for (const RegionReduction &reduction : region.reductions)
    text += "&" + reduction.decl->getNameAsString() + ", ";
  for (const RuntimeBound &bound : region.runtimeBounds)
    text += getBoundVariable(region, bound) + ", ";
  for (const RuntimeExtent &extent : region.runtimeExtents)
    text += getExtentVariable(region, extent) + ", ";
  for (const StepTable &table : region.stepTables)
    text += "&" + table.decl->getNameAsString() + "[0], ";
  for (const CoefficientArray &array : region.coefficientArrays) {
    text += "&" + array.decl->getNameAsString();
    for (size_t dim = 0; dim < array.shape.size(); ++dim)
      text += "[0]";
    text += ", ";
  }
  // A conditional write gets a null file name when it does not write.
  for (const OutputStatement &output : region.outputs) {
    std::string path =
        getArgumentText(context, output.path->IgnoreParenImpCasts());
    text += output.condition
                ? "(" + getSourceText(context, output.condition) +
                      ") ? (const char *)(" + path + ") : (const char *)0, "
                : "(" + path + "), ";
  }
  if (region.usesStepValue())
    text += "(" + getSourceText(context, region.stepLower) + "), ";
  return text;
}

/// `(long long)(upper) - (long long)(lower)`, plus one for `<=`: the number
/// of steps; zero or less runs none. Empty without a time loop.
std::string getStepCount(ASTContext &context, const StencilRegion &region) {
  if (!region.timeLoop)
    return "";
  std::string count =
      "(long long)(" + getSourceText(context, region.stepUpper) +
      ") - (long long)(" + getSourceText(context, region.stepLower) + ")";
  if (region.stepInclusive)
    count += " + 1";
  return count;
}

/// The arguments of a call of the region's function, each followed by
/// ", " (getCallArguments), completed with the step count where the region
/// has a time loop.
std::string withStepCount(const StencilRegion &region, StringRef arguments,
                          StringRef steps) {
  if (!region.timeLoop)
    return arguments.drop_back(2).str();
  return (arguments + steps).str();
}

llvm::json::Object getLocation(ASTContext &context, SourceLocation loc) {
  const SourceManager &sm = context.getSourceManager();
  loc = sm.getExpansionLoc(loc);
  return llvm::json::Object{{"line", sm.getExpansionLineNumber(loc)},
                            {"column", sm.getExpansionColumnNumber(loc)},
                            {"offset", sm.getFileOffset(loc)}};
}

} // namespace

std::string mlir::stencil::pragma_c::getPrototype(ASTContext &context,
                                                  const StencilRegion &region) {
  std::string text = "void " + region.name + "(";
  for (const RegionArray &array : region.arrays)
    text += (array.isConst ? "const " : "") + getElementName(array) + " *" +
            array.getParamName() + ", ";
  for (const CapturedScalar &scalar : region.scalars)
    text +=
        getScalarTypeName(scalar) + " " + scalar.decl->getNameAsString() + ", ";
  for (const RegionReduction &reduction : region.reductions)
    text += getTypeName(reduction.decl) + " *" +
            reduction.decl->getNameAsString() + ", ";
  for (const RuntimeBound &bound : region.runtimeBounds)
    text += "long long " + bound.name + ", ";
  for (const RuntimeExtent &extent : region.runtimeExtents)
    text += "long long " + extent.name + ", ";
  // The step tables and the step variable's first value, when a calc body
  // reads them.
  for (const StepTable &table : region.stepTables)
    text += table.elementType.getCanonicalType().getAsString() + " *" +
            table.decl->getNameAsString() + ", ";
  for (const CoefficientArray &array : region.coefficientArrays)
    text += "const " + std::string(getElementCName(array.element)) + " *" +
            array.decl->getNameAsString() + ", ";
  for (const OutputStatement &output : region.outputs)
    text += "const char *" + output.paramName + ", ";
  if (region.usesStepValue())
    text += region.stepValueType.getCanonicalType()
                .getUnqualifiedType()
                .getAsString() +
            " " + region.timeVar->getNameAsString() + ", ";
  // A region without a time loop takes no step count.
  if (!region.timeLoop)
    return StringRef(text).drop_back(2).str() + ")";
  return text + "long long steps)";
}

std::string
mlir::stencil::pragma_c::buildManifest(ASTContext &context,
                                       llvm::ArrayRef<StencilRegion> regions) {
  const SourceManager &sm = context.getSourceManager();
  llvm::json::Array regionList;
  for (const StencilRegion &region : regions) {
    llvm::json::Array arrays, scalars, reductions, lower, upper, shape;
    for (const RegionArray &array : region.arrays) {
      llvm::json::Object object{
          {"name", array.getDisplayName()},
          {"element", getElementName(array)},
          {"role", array.isSource ? "source" : "destination"},
          {"written", array.isCarried()}};
      if (array.copiedFrom)
        object["copied_from"] =
            region.arrays[*array.copiedFrom].getDisplayName();
      if (!array.component.empty()) {
        object["array"] = array.name;
        object["component"] = llvm::json::Array(array.component);
      }
      arrays.push_back(std::move(object));
    }
    for (const CapturedScalar &scalar : region.scalars)
      scalars.push_back(
          llvm::json::Object{{"name", scalar.decl->getNameAsString()},
                             {"type", getScalarTypeName(scalar)}});
    for (const RegionReduction &reduction : region.reductions) {
      llvm::json::Object object{{"name", reduction.decl->getNameAsString()},
                                {"type", getTypeName(reduction.decl)},
                                {"kind", getKindName(reduction.kind)}};
      object["reset"] = reduction.reset
                            ? llvm::json::Value(getSourceText(
                                  context, reduction.reset->assign->getRHS()))
                            : llvm::json::Value(nullptr);
      reductions.push_back(std::move(object));
    }
    llvm::json::Array nests;
    for (const Section &section : region.sections) {
      llvm::json::Array nestLower, nestUpper;
      for (const LoopRange &loop : section.nest.loops)
        for (auto [bound, list] : {std::pair{&loop.lower, &nestLower},
                                   std::pair{&loop.upper, &nestUpper}})
          if (bound->isConstant())
            list->push_back(*bound->value);
          else
            list->push_back(getBoundSource(context, *bound));
      if (lower.empty() && !section.isCopy() && !section.isBoundary()) {
        lower = nestLower;
        upper = nestUpper;
      }
      llvm::json::Array writes;
      for (unsigned index : section.writes)
        writes.push_back(region.arrays[index].getDisplayName());
      nests.push_back(llvm::json::Object{{"kind", section.getKindName()},
                                         {"lower", std::move(nestLower)},
                                         {"upper", std::move(nestUpper)},
                                         {"writes", std::move(writes)}});
    }
    // A run-time extent as its C text.
    for (unsigned axis = 0; axis < region.getRank(); ++axis)
      shape.push_back(region.isStaticExtent(axis)
                          ? llvm::json::Value(region.shape[axis])
                          : llvm::json::Value(region.getExtentText(axis)));
    std::string call = region.name + "(" +
                       withStepCount(region,
                                     getCallArguments(context, region,
                                                      /*residentBlocks=*/false),
                                     getStepCount(context, region)) +
                       ")";

    llvm::json::Object object{
        {"name", region.name},
        {"function", region.function->getNameAsString()},
        {"begin", getLocation(context, region.begin->hashLoc)},
        {"end", getLocation(context, region.end->endLoc)},
        {"shape", std::move(shape)},
        {"grid", llvm::json::Object{{"lower", std::move(lower)},
                                    {"upper", std::move(upper)}}},
        {"nests", std::move(nests)},
        {"max_steps", region.step->maxSteps},
        {"steps", region.timeLoop
                      ? llvm::json::Value(llvm::json::Object{
                            {"variable", region.timeVar->getNameAsString()},
                            {"lower", getSourceText(context, region.stepLower)},
                            {"upper", getSourceText(context, region.stepUpper)},
                            {"inclusive", region.stepInclusive},
                            {"value_read", region.usesStepValue()}})
                      : llvm::json::Value(nullptr)},
        {"arrays", std::move(arrays)},
        {"scalars", std::move(scalars)},
        {"reductions", std::move(reductions)},
        {"prototype", getPrototype(context, region)},
        {"call", call}};
    if (region.distribute) {
      llvm::json::Array axes;
      for (bool distributed : region.distribute->distributed)
        axes.push_back(distributed ? "block" : "*");
      object["distribute"] = std::move(axes);
      std::optional<int64_t> halo =
          region.halo ? region.halo->haloWidth : region.distribute->haloWidth;
      if (halo)
        object["halo"] = *halo;
    }
    regionList.push_back(std::move(object));
  }
  llvm::json::Object manifest{
      {"version", 1},
      {"source", sm.getFileEntryRefForID(sm.getMainFileID())->getName().str()},
      {"regions", std::move(regionList)}};
  return llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)));
}

/// The alignment the host program gives the arrays of the regions it
/// defines: a cache line. The lowered sweeps store whole lines; rows that
/// start at line boundaries (any row of a multiple of 64 bytes, in an array
/// aligned to 64) share no line with their neighbours (StreamingRows.cpp).
/// Left to the compiler, an array's alignment changes with whatever else
/// the program links, and the sweeps' speed with it.
constexpr unsigned kArrayAlignment = 64;

/// Gives the arrays of `regions` defined in the main file with static
/// storage duration kArrayAlignment, unless they ask for their own: an
/// attribute before the definition, which applies to each of its
/// declarators.
static void alignRegionArrays(ASTContext &context, Rewriter &rewriter,
                              llvm::ArrayRef<StencilRegion> regions,
                              bool residentBlocks) {
  SourceManager &sm = context.getSourceManager();
  llvm::SmallPtrSet<const void *, 8> done;
  for (const StencilRegion &region : regions)
    for (const RegionArray &array : region.arrays) {
      // The definition, which may follow the declaration the region saw;
      // arrays defined in another file keep their alignment.
      if (!array.decl || (residentBlocks && array.isResident))
        continue;
      const VarDecl *decl = array.decl->getDefinition();
      for (const VarDecl *redecl : array.decl->redecls())
        if (!decl)
          decl = redecl->getActingDefinition();
      if (!decl || !decl->hasGlobalStorage() || decl->hasAttr<AlignedAttr>() ||
          !context.getAsConstantArrayType(decl->getType()))
        continue;
      SourceLocation begin = decl->getBeginLoc();
      if (begin.isInvalid() || begin.isMacroID() || !sm.isInMainFile(begin) ||
          !done.insert(begin.getPtrEncoding()).second)
        continue;
      rewriter.InsertTextBefore(begin, "__attribute__((aligned(" +
                                           std::to_string(kArrayAlignment) +
                                           "))) ");
    }
}

/// `long long R_steps`, the number of steps, counted without overflow, and
/// the declaration of `stencil_bound_error` the other checks call too: a
/// count beyond 64 bits, or one the time variable's type cannot reach (a
/// `char t` up to 1000, which C would wrap, with an implementation-defined
/// or undefined result), stops the program with `stencil: error:
/// FILE:LINE: ...` before the region runs.
static void writeStepCount(ASTContext &context, const StencilRegion &region,
                           llvm::raw_ostream &os) {
  // Without a time loop, only the bound checks call it.
  if (!region.timeLoop) {
    if (region.hasRuntimeValues())
      os << "  extern void stencil_bound_error(const char *, long long);\n";
    return;
  }
  const SourceManager &sm = context.getSourceManager();
  PresumedLoc where =
      sm.getPresumedLoc(sm.getExpansionLoc(region.stepUpper->getBeginLoc()));
  std::string steps = region.name + "_steps";
  std::string lower = "(" + getSourceText(context, region.stepLower) + ")";
  std::string upper = "(" + getSourceText(context, region.stepUpper) + ")";
  std::string name = region.timeVar->getNameAsString();
  std::string type = getTypeName(region.timeVar);
  std::string prefix =
      std::string(where.getFilename()) + ":" + std::to_string(where.getLine()) +
      ": the time loop over '" + name + "' from " + lower + " to " + upper;
  os << "  long long " << steps
     << "; extern void stencil_bound_error(const char *, long long);";
  std::string count =
      "__builtin_sub_overflow(" + upper + ", " + lower + ", &" + steps + ")";
  if (region.stepInclusive)
    count += " || __builtin_add_overflow(" + steps + ", 1, &" + steps + ")";
  writeRuntimeCheck(os, count,
                    prefix + " counts more steps than 64 bits hold (\x01 "
                             "after wrapping)",
                    steps);
  writeRuntimeCheck(os,
                    steps + " > 0 && __builtin_add_overflow(" + lower + ", " +
                        steps + " - 1, &(" + type + "){0})",
                    prefix + " runs \x01 steps, beyond what '" + name + "' (" +
                        type + ") can count to",
                    steps);
  os << "\n";
}

/// Computes the run-time bounds once and checks them against the arrays'
/// extents, the stencil's reach and the halo a distribution keeps: a
/// violation prints `stencil: error: FILE:LINE: ...` and exits 1 before
/// anything is written (runtime/common/stencil_check.c). Three lines, so the
/// call block stays shorter than most regions.
static void writeBoundChecks(ASTContext &context, const StencilRegion &region,
                             llvm::raw_ostream &os) {
  const SourceManager &sm = context.getSourceManager();
  os << "  long long ";
  llvm::ListSeparator comma;
  for (const RuntimeBound &bound : region.runtimeBounds) {
    const LoopBound &b = region.getBound(bound);
    os << comma << getBoundVariable(region, bound) << " = (long long)("
       << getSourceText(context, b.expr) << ")";
    if (b.addend)
      os << " + " << b.addend;
  }
  for (const RuntimeExtent &extent : region.runtimeExtents)
    os << comma << getExtentVariable(region, extent) << " = (long long)("
       << extent.text << ")";
  os << ";\n";
  std::optional<int64_t> halo;
  if (region.distribute)
    halo = region.halo ? region.halo->haloWidth : region.distribute->haloWidth;
  // Each nest's bounds against the reach of that nest; only a step over a
  // non-empty nest reads anything.
  // A nest over the range of an earlier one that reaches no further needs
  // no checks of its own (a copy nest after its calc nest).
  auto coveredBy = [&](const Section &later, const Section &earlier) {
    if (!later.hasSameRange(earlier))
      return false;
    for (unsigned axis = 0; axis < region.getRank(); ++axis)
      if (later.reachLow[axis] < earlier.reachLow[axis] ||
          later.reachHigh[axis] > earlier.reachHigh[axis])
        return false;
    return true;
  };
  for (unsigned index = 0; index < region.sections.size(); ++index) {
    const Section &section = region.sections[index];
    const auto &loops = section.nest.loops;
    // A constant upper bound needs a check against a run-time extent.
    auto needsCheck = [&](unsigned axis, bool isUpper) {
      const LoopRange &loop = loops[axis];
      return !(isUpper ? loop.upper : loop.lower).isConstant() ||
             (isUpper && !region.isStaticExtent(axis));
    };
    bool any = false;
    for (unsigned axis = 0; axis < region.getRank(); ++axis)
      any |= needsCheck(axis, false) || needsCheck(axis, true);
    if (!any)
      continue;
    if (llvm::any_of(ArrayRef(region.sections).take_front(index),
                     [&](const Section &earlier) {
                       return coveredBy(section, earlier);
                     }))
      continue;
    // A nest outside the time loop runs whatever the number of steps.
    std::string runs = getNonEmptyCondition(region, section);
    if (section.isInLoop())
      runs = region.name + "_steps > 0" + (runs.empty() ? "" : " && ") + runs;
    os << "  if (" << (runs.empty() ? "1" : runs) << ") {";
    for (auto [axis, loop] : llvm::enumerate(loops)) {
      for (bool isUpper : {false, true}) {
        const LoopBound &b = isUpper ? loop.upper : loop.lower;
        if (!needsCheck(axis, isUpper))
          continue;
        std::string variable = getBoundValue(region, b);
        // A boundary statement's fixed axis has no loop: the constant
        // subscript it writes at.
        std::string name = loop.var ? loop.var->getNameAsString()
                                    : std::to_string(*loop.lower.value);
        PresumedLoc where = sm.getPresumedLoc(
            sm.getExpansionLoc(b.expr ? b.expr->getBeginLoc() : section.loc));
        std::string prefix =
            std::string(where.getFilename()) + ":" +
            std::to_string(where.getLine()) +
            (loop.var ? ": the " + std::string(isUpper ? "upper" : "lower") +
                            " bound '" + getSourceText(context, b.expr) + "'" +
                            (b.addend ? " (inclusive)" : "") +
                            " of the loop over '" + name + "' is \x01"
                      : ": the boundary statement writes at subscript \x01");
        bool isFixed = !loop.var;
        std::string extent = region.getExtentText(axis);
        std::string extentValue = getExtentValue(region, axis);
        std::string dimension = " along dimension " + std::to_string(axis);
        auto check = [&](const std::string &condition,
                         const std::string &message) {
          int64_t addend = isFixed ? 1 : b.addend;
          writeRuntimeCheck(os, condition, prefix + message,
                            addend ? variable + " - " + std::to_string(addend)
                                   : variable);
        };
        if (isUpper) {
          int64_t reach = section.reachHigh[axis];
          const std::string &array = section.reachHighArray[axis];
          check(variable + " + " + std::to_string(reach) + " > " + extentValue,
                array.empty()
                    ? ", beyond the " + extent + " elements of the arrays" +
                          dimension
                    : ", but '" + array + "' is read at " + name + "+" +
                          std::to_string(reach) + ", beyond its " + extent +
                          " elements" + dimension);
        } else {
          int64_t reach = section.reachLow[axis];
          const std::string &array = section.reachLowArray[axis];
          check(variable + " + " + std::to_string(reach) + " < 0",
                array.empty()
                    ? ", before the first element of the arrays"
                    : ", but '" + array + "' is read at " + name +
                          std::to_string(reach) + ", before its first element");
        }
        // The neighbours' halo lands in the cells around the grid.
        if (halo && region.distribute->distributed[axis]) {
          std::string width = std::to_string(*halo);
          check(isUpper ? variable + " + " + width + " > " + extentValue
                        : variable + " < " + width,
                ", which leaves fewer than the " + width + " cells halo(" +
                    width + ") needs " + (isUpper ? "after" : "before") +
                    " the grid" +
                    (isUpper ? " in the " + extent + " elements" + dimension
                             : std::string()));
        }
      }
    }
    os << " }\n";
  }
}

/// The steps read the step tables at t + offset, t from the time loop's
/// first value to its last: each must lie inside its table, or the program
/// stops as a C program reading outside an array might not.
static void writeTableChecks(ASTContext &context, const StencilRegion &region,
                             llvm::raw_ostream &os) {
  const SourceManager &sm = context.getSourceManager();
  std::string first =
      "(long long)(" + getSourceText(context, region.stepLower) + ")";
  std::string steps = region.name + "_steps";
  os << "  if (" << steps << " > 0) {";
  for (const StepTable &table : region.stepTables) {
    // Only a step over a nest that is not empty reads the table.
    std::string runs;
    for (unsigned index : table.sections) {
      std::string condition =
          getNonEmptyCondition(region, region.sections[index]);
      if (condition.empty()) {
        runs.clear();
        break;
      }
      runs += (runs.empty() ? "(" : " || (") + condition + ")";
    }
    if (!runs.empty())
      os << " if (" << runs << ")";
    os << " {";
    PresumedLoc where = sm.getPresumedLoc(sm.getExpansionLoc(table.firstUse));
    std::string name = table.decl->getNameAsString();
    std::string t = region.timeVar->getNameAsString();
    auto check = [&](const std::string &value, int64_t offset,
                     const std::string &condition, const std::string &what) {
      std::string at =
          offset ? t + (offset > 0 ? "+" : "") + std::to_string(offset) : t;
      writeRuntimeCheck(os, condition,
                        std::string(where.getFilename()) + ":" +
                            std::to_string(where.getLine()) +
                            ": the step table '" + name + "' is read at " + at +
                            " = \x01, " + what,
                        value);
    };
    std::string low = first + " + " + std::to_string(table.lowOffset);
    std::string high =
        first + " + " + steps + " - 1 + " + std::to_string(table.highOffset);
    check(low, table.lowOffset, low + " < 0", "before its first element");
    check(high, table.highOffset, high + " >= " + std::to_string(table.size),
          "beyond its " + std::to_string(table.size) + " elements");
    os << " }";
  }
  os << " }\n";
}

/// Leaves the loop variables declared outside the loops as the nests would:
/// once a step has run, each loop of a non-empty range ends at its upper
/// bound, one of an empty range at its lower bound, and the loops inside an
/// empty one never start.
static void writeLoopVariables(const StencilRegion &region,
                               llvm::raw_ostream &os) {
  // The assignments of one phase's nests, in order.
  auto ladderOf = [&](Phase phase) {
    std::string ladder, previous;
    for (const Section &section : region.sections) {
      if (section.phase != phase)
        continue;
      std::string step, closing;
      for (const LoopRange &loop : section.nest.loops) {
        // A boundary statement's fixed axis has no loop.
        if (!loop.var)
          continue;
        std::string lower = getBoundValue(region, loop.lower);
        std::string upper = getBoundValue(region, loop.upper);
        std::string name = loop.var->getNameAsString();
        bool known = loop.lower.isConstant() && loop.upper.isConstant();
        if (!known) {
          step += " if (" + lower + " < " + upper + ") {";
          closing =
              (loop.declaresVar ? std::string(" }")
                                : " } else " + name + " = " + lower + ";") +
              closing;
        }
        if (!loop.declaresVar)
          step += " " + name + " = " + upper + ";";
      }
      step += closing;
      // Nests over the same range leave the same values.
      if (step != previous)
        ladder += step;
      previous = step;
    }
    return ladder.find('=') == std::string::npos ? std::string() : ladder;
  };
  // The nests outside the time loop run once; those in it when a step
  // runs. The last to run leaves its values.
  std::string before = ladderOf(Phase::Before), step = ladderOf(Phase::Step),
              after = ladderOf(Phase::After);
  if (!before.empty())
    os << " " << before << "\n";
  if (!step.empty())
    os << "  if (" << region.name << "_steps > 0) {" << step << " }\n";
  if (!after.empty())
    os << " " << after << "\n";
}

/// Under stencilcc --mpi the resident arrays exist only as the ranks'
/// blocks: their definitions become a comment, so no rank holds a global
/// array. The analysis checked that each is its array's only declaration,
/// without an initializer, and that every declarator of it is resident.
static void dropResidentDefinitions(ASTContext &context, Rewriter &rewriter,
                                    llvm::ArrayRef<StencilRegion> regions) {
  SourceManager &sm = context.getSourceManager();
  llvm::SmallPtrSet<const VarDecl *, 8> resident;
  for (const StencilRegion &region : regions)
    for (const RegionArray &array : region.arrays)
      if (array.isResident)
        resident.insert(array.decl->getCanonicalDecl());
  if (resident.empty())
    return;
  llvm::SmallPtrSet<const void *, 8> done;
  for (const VarDecl *var : resident) {
    std::vector<const VarDecl *> group = getDeclarationGroup(context, var);
    SourceLocation begin = sm.getExpansionLoc(group.front()->getBeginLoc());
    if (!done.insert(begin.getPtrEncoding()).second)
      continue;
    std::string names;
    for (const VarDecl *declarator : group)
      names += (names.empty() ? "" : ", ") + declarator->getNameAsString();
    // The `;` after the last declarator, past any attributes.
    SourceLocation at = sm.getExpansionLoc(group.back()->getEndLoc()), end;
    for (int guard = 0; guard < 256 && end.isInvalid(); ++guard) {
      std::optional<Token> next =
          Lexer::findNextToken(at, sm, context.getLangOpts());
      if (!next)
        break;
      if (next->is(tok::semi))
        end = next->getEndLoc();
      at = next->getLocation();
    }
    // The analysis saw a declaration; one that ends elsewhere keeps its
    // text, and the host compile still builds.
    if (end.isInvalid())
      continue;
    // The lines stay: diagnostics of the host compile point at the
    // original ones.
    CharSourceRange range = CharSourceRange::getCharRange(begin, end);
    StringRef text = Lexer::getSourceText(range, sm, context.getLangOpts());
    rewriter.ReplaceText(range, "/* " + names +
                                    ": resident, held as the MPI ranks' "
                                    "blocks (stencilcc --mpi) */" +
                                    std::string(text.count('\n'), '\n'));
  }
}

std::string
mlir::stencil::pragma_c::rewriteSource(ASTContext &context,
                                       llvm::ArrayRef<StencilRegion> regions,
                                       bool residentBlocks) {
  SourceManager &sm = context.getSourceManager();
  Rewriter rewriter(sm, context.getLangOpts());
  if (residentBlocks)
    dropResidentDefinitions(context, rewriter, regions);
  alignRegionArrays(context, rewriter, regions, residentBlocks);
  for (const StencilRegion &region : regions) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "/* #pragma stencil region " << region.name
       << ": replaced by a call to the compiled stencil */\n{\n"
       << "  extern " << getPrototype(context, region) << ";\n";
    writeStepCount(context, region, os);
    if (region.hasRuntimeValues())
      writeBoundChecks(context, region, os);
    if (!region.stepTables.empty())
      writeTableChecks(context, region, os);
    // With run-time bounds a region of no steps is not called: C would not
    // look at the bounds, so neither may the region's function.
    // A region that runs nests or output calls outside its time loop is
    // called whatever the number of steps.
    // Arrays not mapped back (seed 004's spelling): the region computes on
    // copies, which go away after it.
    for (const RegionArray &array : region.arrays)
      if (array.keepsHostValues) {
        std::string copy = getHostCopyName(region, array);
        std::string name = array.getDisplayName();
        os << "  void *" << copy << " = __builtin_malloc(sizeof(" << name
           << "));\n  if (!" << copy << ") __builtin_abort();\n"
           << "  __builtin_memcpy(" << copy << ", " << name << ", sizeof("
           << name << "));\n";
      }
    os << "  ";
    if (region.hasRuntimeValues() && !region.hasStatementsOutsideLoop())
      os << "if (" << region.name << "_steps > 0) ";
    os << region.name << "("
       << withStepCount(region,
                        getCallArguments(context, region, residentBlocks),
                        region.name + "_steps")
       << ");\n";
    for (const RegionArray &array : region.arrays)
      if (array.keepsHostValues)
        os << "  __builtin_free(" << getHostCopyName(region, array) << ");\n";
    writeLoopVariables(region, os);
    // The variables the loops used are now only set, or not used at all
    // (temporaries declared outside the loops): keep the compiler's unused
    // warnings quiet, on the same line.
    std::string used;
    llvm::SmallPtrSet<const VarDecl *, 8> seen;
    auto use = [&](const VarDecl *var) {
      if (seen.insert(var).second)
        used += " (void)" + var->getNameAsString() + ";";
    };
    for (const Section &section : region.sections)
      for (const LoopRange &loop : section.nest.loops)
        if (loop.var && !loop.declaresVar)
          use(loop.var);
    for (const VarDecl *var : region.outerTemporaries)
      use(var);
    if (region.timeLoop && !region.timeVarDeclaredInLoop) {
      std::string lower = getSourceText(context, region.stepLower);
      os << "  " << region.timeVar->getName() << " = " << region.name
         << "_steps > 0 ? (" << lower << ") + " << region.name << "_steps : ("
         << lower << ");";
      use(region.timeVar);
      os << used << "\n";
    } else if (!used.empty()) {
      os << " " << used << "\n";
    }
    os << "}";
    // Pad with empty lines so the code after the region keeps its line
    // numbers: diagnostics of the host compile point at the original lines.
    // A call block longer than its region (a region of one short nest)
    // goes on one line.
    unsigned regionLines = sm.getExpansionLineNumber(region.end->endLoc) -
                           sm.getExpansionLineNumber(region.begin->hashLoc);
    unsigned textLines = llvm::count(text, '\n');
    if (textLines > regionLines) {
      std::replace(text.begin(), text.end(), '\n', ' ');
      textLines = 0;
    }
    for (unsigned line = textLines; line < regionLines; ++line)
      os << "\n";
    rewriter.ReplaceText(CharSourceRange::getCharRange(region.begin->hashLoc,
                                                       region.end->endLoc),
                         text);
  }
  const llvm::RewriteBuffer *buffer =
      rewriter.getRewriteBufferFor(sm.getMainFileID());
  if (!buffer)
    return sm.getBufferData(sm.getMainFileID()).str();
  return std::string(buffer->begin(), buffer->end());
}

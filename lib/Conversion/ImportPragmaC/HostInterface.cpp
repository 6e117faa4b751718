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
  return Lexer::getSourceText(range, sm, context.getLangOpts()).str();
}

std::string getElementName(const RegionArray &array) {
  return array.isDouble ? "double" : "float";
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
std::string getCallArguments(const StencilRegion &region) {
  std::string text;
  for (const RegionArray &array : region.arrays)
    text += getFirstElement(region, array) + ", ";
  for (const CapturedScalar &scalar : region.scalars)
    text += scalar.decl->getNameAsString() + ", ";
  for (const RegionReduction &reduction : region.reductions)
    text += "&" + reduction.decl->getNameAsString() + ", ";
  return text;
}

/// `(long long)(upper) - (long long)(lower)`, plus one for `<=`: the number
/// of steps; zero or less runs none.
std::string getStepCount(ASTContext &context, const StencilRegion &region) {
  std::string count =
      "(long long)(" + getSourceText(context, region.stepUpper) +
      ") - (long long)(" + getSourceText(context, region.stepLower) + ")";
  if (region.stepInclusive)
    count += " + 1";
  return count;
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
    text += getElementName(array) + " *" + array.getParamName() + ", ";
  for (const CapturedScalar &scalar : region.scalars)
    text +=
        getScalarTypeName(scalar) + " " + scalar.decl->getNameAsString() + ", ";
  for (const RegionReduction &reduction : region.reductions)
    text += getTypeName(reduction.decl) + " *" +
            reduction.decl->getNameAsString() + ", ";
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
    for (const LoopRange &loop : region.calcNest.loops) {
      lower.push_back(loop.lower);
      upper.push_back(loop.upper);
    }
    for (int64_t size : region.shape)
      shape.push_back(size);
    std::string call = region.name + "(" + getCallArguments(region) +
                       getStepCount(context, region) + ")";

    llvm::json::Object object{
        {"name", region.name},
        {"function", region.function->getNameAsString()},
        {"begin", getLocation(context, region.begin->hashLoc)},
        {"end", getLocation(context, region.end->endLoc)},
        {"shape", std::move(shape)},
        {"grid", llvm::json::Object{{"lower", std::move(lower)},
                                    {"upper", std::move(upper)}}},
        {"max_steps", region.step->maxSteps},
        {"steps",
         llvm::json::Object{{"variable", region.timeVar->getNameAsString()},
                            {"lower", getSourceText(context, region.stepLower)},
                            {"upper", getSourceText(context, region.stepUpper)},
                            {"inclusive", region.stepInclusive}}},
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
                              llvm::ArrayRef<StencilRegion> regions) {
  SourceManager &sm = context.getSourceManager();
  llvm::SmallPtrSet<const void *, 8> done;
  for (const StencilRegion &region : regions)
    for (const RegionArray &array : region.arrays) {
      // The definition, which may follow the declaration the region saw;
      // arrays defined in another file keep their alignment.
      if (!array.decl)
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

std::string
mlir::stencil::pragma_c::rewriteSource(ASTContext &context,
                                       llvm::ArrayRef<StencilRegion> regions) {
  SourceManager &sm = context.getSourceManager();
  Rewriter rewriter(sm, context.getLangOpts());
  alignRegionArrays(context, rewriter, regions);
  for (const StencilRegion &region : regions) {
    std::string steps = getStepCount(context, region);
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "/* #pragma stencil region " << region.name
       << ": replaced by a call to the compiled stencil */\n{\n"
       << "  extern " << getPrototype(context, region) << ";\n"
       << "  long long " << region.name << "_steps = " << steps << ";\n"
       << "  " << region.name << "(" << getCallArguments(region) << region.name
       << "_steps);\n";

    // Leave the loop variables declared outside the loops as the loops
    // would: the nests end at their upper bounds once a step has run.
    std::string loopVars;
    llvm::SmallPtrSet<const VarDecl *, 6> seen;
    for (const LoopNest *nest : {&region.calcNest, &region.copyNest})
      for (const LoopRange &loop : nest->loops)
        if (!loop.declaresVar && seen.insert(loop.var).second)
          loopVars += " " + loop.var->getNameAsString() + " = " +
                      std::to_string(loop.upper) + ";";
    if (!loopVars.empty())
      os << "  if (" << region.name << "_steps > 0) {" << loopVars << " }\n";
    if (!region.timeVarDeclaredInLoop) {
      std::string lower = getSourceText(context, region.stepLower);
      os << "  " << region.timeVar->getName() << " = " << region.name
         << "_steps > 0 ? (" << lower << ") + " << region.name << "_steps : ("
         << lower << ");\n";
    }
    os << "}";
    // Pad with empty lines so the code after the region keeps its line
    // numbers: diagnostics of the host compile point at the original lines.
    unsigned regionLines = sm.getExpansionLineNumber(region.end->endLoc) -
                           sm.getExpansionLineNumber(region.begin->hashLoc);
    unsigned textLines = llvm::count(text, '\n');
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

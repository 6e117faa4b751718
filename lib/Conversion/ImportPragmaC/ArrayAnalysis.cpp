//===- ArrayAnalysis.cpp - The arrays and loop nests of a region ----------===//
//
// The part of the region analysis that checks what the time loop touches:
// the arrays `data` names against their C declarations, the calc and copy
// loop nests over the `dimension` variables, the copy pairs, and that a
// distribution's halo fits around the grid.
//
//===----------------------------------------------------------------------===//

#include "Analyzer.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;
using namespace mlir::stencil::pragma_c;

/// The halo the distribution asks for must fit in the cells the arrays keep
/// around the grid, where the neighbours' values will be stored.
bool mlir::stencil::pragma_c::checkHaloFits(const StencilRegion &region,
                                            DiagnosticsEngine &diags) {
  const Directive *source = region.halo ? region.halo : region.distribute;
  if (!region.distribute || !source || !source->haloWidth)
    return true;
  int64_t width = *source->haloWidth;
  for (unsigned axis = 0; axis < region.getRank(); ++axis) {
    if (!region.distribute->distributed[axis])
      continue;
    // Run-time bounds are checked on entry (HostInterface.cpp).
    int64_t room = width;
    for (const Section &section : region.sections) {
      const LoopRange &loop = section.nest.loops[axis];
      if (loop.lower.isConstant())
        room = std::min(room, *loop.lower.value);
      if (loop.upper.isConstant() && region.isStaticExtent(axis))
        room = std::min(room, region.shape[axis] - *loop.upper.value);
    }
    if (width > room) {
      reportError(diags, source->loc,
                  "halo(" + std::to_string(width) + ") is wider than the " +
                      std::to_string(room) +
                      " cells the arrays keep around the grid along "
                      "dimension " +
                      std::to_string(axis));
      return false;
    }
  }
  return true;
}

const VarDecl *Analyzer::findVariable(StringRef name,
                                      const FunctionDecl *function) {
  const VarDecl *found = nullptr;
  walkStmts(function->getBody(), [&](const Stmt *stmt) {
    if (auto *declStmt = dyn_cast<DeclStmt>(stmt))
      for (const Decl *decl : declStmt->decls())
        if (auto *var = dyn_cast<VarDecl>(decl))
          if (!found && var->getName() == name)
            found = var;
  });
  for (const ParmVarDecl *param : function->parameters())
    if (!found && param->getName() == name)
      found = param;
  if (found)
    return found;
  for (const NamedDecl *decl :
       context.getTranslationUnitDecl()->lookup(&context.Idents.get(name)))
    if (auto *var = dyn_cast<VarDecl>(decl))
      return var;
  return nullptr;
}

const VarDecl *Analyzer::findArrayDecl(StringRef name, const Stmt *scope) {
  const VarDecl *found = nullptr;
  walkStmts(scope, [&](const Stmt *stmt) {
    if (auto *ref = dyn_cast<DeclRefExpr>(stmt))
      if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        if (!found && var->getName() == name)
          found = var;
  });
  return found;
}

namespace {
/// The arithmetic of linear forms that array extents may use: sums, and
/// products, quotients and remainders where the form is a constant.
bool isConstantForm(const LinearForm &form) { return form.terms.empty(); }

LinearForm constantForm(int64_t value) {
  LinearForm form;
  form.constant = value;
  return form;
}

LinearForm addForms(LinearForm a, const LinearForm &b, int64_t sign) {
  a.constant += sign * b.constant;
  for (const auto &[var, coefficient] : b.terms)
    if ((a.terms[var] += sign * coefficient) == 0)
      a.terms.erase(var);
  return a;
}

std::optional<LinearForm> combineForms(const LinearForm &a, const LinearForm &b,
                                       char op) {
  if (op == '+' || op == '-')
    return addForms(a, b, op == '+' ? 1 : -1);
  if (op == '*') {
    if (!isConstantForm(a) && !isConstantForm(b))
      return std::nullopt;
    const LinearForm &form = isConstantForm(a) ? b : a;
    int64_t factor = isConstantForm(a) ? a.constant : b.constant;
    if (factor == 0)
      return constantForm(0);
    LinearForm scaled = form;
    scaled.constant *= factor;
    for (auto &term : scaled.terms)
      term.second *= factor;
    return scaled;
  }
  if (!isConstantForm(a) || !isConstantForm(b) || b.constant == 0)
    return std::nullopt;
  return constantForm(op == '/' ? a.constant / b.constant
                                : a.constant % b.constant);
}
} // namespace

std::optional<LinearForm>
Analyzer::evaluateSize(const std::vector<Token> &tokens,
                       const FunctionDecl *function) {
  // A small recursive-descent evaluator over the macro-expanded tokens:
  // integers, `const int` names, integer variables, + - * / %,
  // parentheses.
  size_t pos = 0;
  std::function<std::optional<LinearForm>()> parseSum;
  std::function<std::optional<LinearForm>()> parseAtom =
      [&]() -> std::optional<LinearForm> {
    if (pos >= tokens.size())
      return std::nullopt;
    const Token &tok = tokens[pos++];
    if (tok.isOneOf(tok::minus, tok::plus)) {
      bool negate = tok.is(tok::minus);
      std::optional<LinearForm> value = parseAtom();
      if (!value || !negate)
        return value;
      return addForms(LinearForm(), *value, -1);
    }
    if (tok.is(tok::l_paren)) {
      std::optional<LinearForm> value = parseSum();
      if (pos >= tokens.size() || !tokens[pos].is(tok::r_paren))
        return std::nullopt;
      ++pos;
      return value;
    }
    if (tok.is(tok::numeric_constant)) {
      std::string spelling = Lexer::getSpelling(tok, sm, context.getLangOpts());
      StringRef digits = StringRef(spelling).rtrim("uUlL");
      int64_t value;
      if (digits.getAsInteger(0, value))
        return std::nullopt;
      return constantForm(value);
    }
    if (tok.is(tok::identifier)) {
      const VarDecl *var =
          findVariable(tok.getIdentifierInfo()->getName(), function);
      if (!var || !var->getType()->isIntegerType())
        return std::nullopt;
      if (var->getType().isConstQualified() && var->getInit())
        if (std::optional<int64_t> value =
                evaluateInteger(var->getInit(), context))
          return constantForm(*value);
      LinearForm form;
      form.terms[var] = 1;
      return form;
    }
    return std::nullopt;
  };
  auto parseProduct = [&]() -> std::optional<LinearForm> {
    std::optional<LinearForm> value = parseAtom();
    while (value && pos < tokens.size() &&
           tokens[pos].isOneOf(tok::star, tok::slash, tok::percent)) {
      tok::TokenKind op = tokens[pos++].getKind();
      std::optional<LinearForm> rhs = parseAtom();
      if (!rhs)
        return std::nullopt;
      value = combineForms(*value, *rhs,
                           op == tok::star    ? '*'
                           : op == tok::slash ? '/'
                                              : '%');
    }
    return value;
  };
  parseSum = [&]() -> std::optional<LinearForm> {
    std::optional<LinearForm> value = parseProduct();
    while (value && pos < tokens.size() &&
           tokens[pos].isOneOf(tok::plus, tok::minus)) {
      bool add = tokens[pos++].is(tok::plus);
      std::optional<LinearForm> rhs = parseProduct();
      if (!rhs)
        return std::nullopt;
      value = addForms(*value, *rhs, add ? 1 : -1);
    }
    return value;
  };
  std::optional<LinearForm> value = parseSum();
  if (!value || pos != tokens.size())
    return std::nullopt;
  return value;
}

std::optional<LinearForm> Analyzer::getLinearForm(const Expr *expr) {
  expr = expr->IgnoreParenImpCasts();
  if (std::optional<int64_t> value = evaluateInteger(expr, context))
    return constantForm(*value);
  if (auto *ref = dyn_cast<DeclRefExpr>(expr)) {
    auto *var = dyn_cast<VarDecl>(ref->getDecl());
    if (!var || !var->getType()->isIntegerType())
      return std::nullopt;
    LinearForm form;
    form.terms[var] = 1;
    return form;
  }
  if (auto *unary = dyn_cast<UnaryOperator>(expr)) {
    std::optional<LinearForm> operand = getLinearForm(unary->getSubExpr());
    if (!operand ||
        (unary->getOpcode() != UO_Minus && unary->getOpcode() != UO_Plus))
      return std::nullopt;
    return unary->getOpcode() == UO_Plus ? operand
                                         : addForms(LinearForm(), *operand, -1);
  }
  if (auto *binary = dyn_cast<BinaryOperator>(expr)) {
    char op;
    switch (binary->getOpcode()) {
    case BO_Add:
      op = '+';
      break;
    case BO_Sub:
      op = '-';
      break;
    case BO_Mul:
      op = '*';
      break;
    case BO_Div:
      op = '/';
      break;
    case BO_Rem:
      op = '%';
      break;
    default:
      return std::nullopt;
    }
    std::optional<LinearForm> lhs = getLinearForm(binary->getLHS());
    std::optional<LinearForm> rhs = getLinearForm(binary->getRHS());
    if (!lhs || !rhs)
      return std::nullopt;
    return combineForms(*lhs, *rhs, op);
  }
  return std::nullopt;
}

bool Analyzer::findComponents(const RegionArray &array,
                              ArrayRef<const Stmt *> statements,
                              std::vector<SmallVector<int64_t, 1>> &used) {
  unsigned components = array.componentShape.size();
  unsigned fullRank = components + array.shape.size();
  std::string shape = shapeString(array.componentShape);
  bool ok = true;
  for (const Stmt *statement : statements)
    walkStmts(statement, [&](const Stmt *stmt) {
      // The outermost subscript of a full `a[c][i][j][k]`.
      auto *outer = dyn_cast<ArraySubscriptExpr>(stmt);
      if (!ok || !outer)
        return;
      SmallVector<const Expr *, 4> indices;
      const Expr *base = outer;
      while (auto *subscript =
                 dyn_cast<ArraySubscriptExpr>(skipTransparent(base))) {
        indices.push_back(subscript->getIdx());
        base = subscript->getBase();
      }
      const VarDecl *var = getReferencedVar(base);
      if (!var || var->getName() != array.name || indices.size() != fullRank)
        return;
      std::reverse(indices.begin(), indices.end());
      SmallVector<int64_t, 1> component;
      for (unsigned axis = 0; axis < components; ++axis) {
        std::optional<int64_t> value = evaluateInteger(indices[axis], context);
        if (!value) {
          unsigned loops = array.shape.size();
          ok = error(indices[axis]->getBeginLoc(),
                     "subscript " + Twine(axis) + " of '" + array.name +
                         "' must be a constant: '" + array.name + "' has " +
                         Twine(fullRank) +
                         " dimensions and 'dimension' names " + Twine(loops) +
                         (loops == 1 ? " loop variable" : " loop variables") +
                         ", so " +
                         (components == 1 ? Twine("its first subscript selects")
                                          : "its first " + Twine(components) +
                                                " subscripts select") +
                         " one of its " + shape + " component arrays");
          return;
        }
        if (*value < 0 || *value >= array.componentShape[axis]) {
          ok = error(indices[axis]->getBeginLoc(),
                     "component subscript " + Twine(axis) + " of '" +
                         array.name + "' is " + Twine(*value) +
                         ", outside [0, " + Twine(array.componentShape[axis]) +
                         ")");
          return;
        }
        component.push_back(*value);
      }
      if (!llvm::is_contained(used, component))
        used.push_back(component);
    });
  llvm::sort(used);
  return ok;
}

bool Analyzer::typeFromDeclaration(
    StencilRegion &region, const ArrayDecl &decl, ArrayRef<const Stmt *> nests,
    RegionArray &array,
    llvm::function_ref<bool(std::optional<LinearForm>, const std::string &,
                            SourceLocation)>
        addSize) {
  const VarDecl *var = findArrayDecl(array.name, region.timeLoop);
  for (const Stmt *statement : nests)
    if (!var)
      var = findArrayDecl(array.name, statement);
  if (!var)
    return error(decl.name.loc, "'" + array.name +
                                    "' is mapped but no loop nest of the "
                                    "region uses it");
  QualType type = getWrittenType(var);
  // A pointer (`double (*x)[m]`, `double *x`, `double x[][m]`) takes its
  // first extent from the map's section, `x[0:n]`.
  QualType pointee;
  if (const PointerType *pointer = type->getAs<PointerType>())
    pointee = pointer->getPointeeType();
  else if (auto *incomplete = dyn_cast_or_null<IncompleteArrayType>(
               context.getAsArrayType(type)))
    pointee = incomplete->getElementType();
  if (!pointee.isNull() && !decl.firstExtentTokens.empty()) {
    std::string text;
    for (const Token &tok : decl.firstExtentTokens)
      text += (text.empty() ? "" : " ") +
              Lexer::getSpelling(tok, sm, context.getLangOpts());
    if (!addSize(evaluateSize(decl.firstExtentTokens, region.function), text,
                 decl.firstExtentLoc))
      return false;
    type = pointee;
  } else if (!pointee.isNull()) {
    return error(decl.name.loc,
                 "'" + array.name +
                     "' is a pointer: map a section that gives its extent ('" +
                     array.name + "[0:n]')");
  } else if (!context.getAsArrayType(type)) {
    return error(
        decl.name.loc,
        "'" + array.name +
            "' must be declared as an array (float, double, int or long, "
            "sizes constant or C99 run-time extents) for its map "
            "to give its size");
  }
  while (const clang::ArrayType *arrayType = context.getAsArrayType(type)) {
    SourceLocation loc = var->getLocation();
    if (auto *constant = dyn_cast<ConstantArrayType>(arrayType)) {
      if (!addSize(constantForm(constant->getSize().getSExtValue()), "", loc))
        return false;
    } else if (auto *variable = dyn_cast<VariableArrayType>(arrayType)) {
      const Expr *size = variable->getSizeExpr();
      if (size)
        loc = size->getBeginLoc();
      std::string text =
          size ? Lexer::getSourceText(
                     CharSourceRange::getTokenRange(size->getSourceRange()), sm,
                     context.getLangOpts())
                     .str()
               : "";
      if (!addSize(size ? getLinearForm(size) : std::nullopt, text, loc))
        return false;
    } else {
      return error(decl.name.loc,
                   "'" + array.name + "' has an array type without a size");
    }
    type = arrayType->getElementType();
  }
  std::optional<ElementKind> element = getElementKind(type);
  if (!element)
    return error(decl.name.loc, "'" + array.name + "' has elements of type '" +
                                    type.getAsString() +
                                    "'; regions compute float, double, int "
                                    "and long arrays");
  array.element = *element;
  return true;
}

bool Analyzer::analyzeArrays(StencilRegion &region,
                             ArrayRef<const Stmt *> nests) {
  unsigned rank = region.dimension->dimensions.size();
  bool ok = true;
  std::vector<RegionArray> declared;
  for (const ArrayDecl &decl : region.data->arrays) {
    if (llvm::any_of(declared, [&](const RegionArray &array) {
          return array.name == decl.name.name;
        })) {
      ok = error(decl.name.loc,
                 "array '" + decl.name.name + "' appears twice in 'data'");
      continue;
    }
    RegionArray array;
    array.name = decl.name.name;
    array.loc = decl.name.loc;
    array.element = decl.element;
    array.isSource = decl.isSource;
    array.isConst = decl.isConst;
    // One size: a constant, or a run-time extent (C99 `double A[n][n]`)
    // evaluated on entry, so nothing the region computes may feed it.
    auto addSize = [&](std::optional<LinearForm> size, const std::string &text,
                       SourceLocation loc) {
      if (!size) {
        ok = error(loc, "the size of '" + array.name +
                            "' must be an integer expression of constants "
                            "and integer variables (an integer, a macro, a "
                            "'const int', 'n', 'n + 1', '2*n')");
        return false;
      }
      if (isConstantForm(*size)) {
        if (size->constant <= 0) {
          ok = error(loc, "the size of '" + array.name +
                              "' must be positive, got " +
                              llvm::Twine(size->constant));
          return false;
        }
        array.shape.push_back(size->constant);
        array.extents.push_back(std::nullopt);
        return true;
      }
      for (const auto &term : size->terms)
        if (region.isLoopVariable(term.first))
          ok = error(loc, "the size of '" + array.name +
                              "' depends on loop "
                              "variable '" +
                              term.first->getName() +
                              "'; compute it before the region");
        else if (region.assignedInLoop.contains(term.first))
          ok = error(loc, "the size of '" + array.name + "' reads '" +
                              term.first->getName() +
                              "', which the time loop assigns; compute it "
                              "before the region");
      if (!ok)
        return false;
      auto same = llvm::find_if(
          region.runtimeExtents,
          [&](const RuntimeExtent &extent) { return extent.form == *size; });
      if (same == region.runtimeExtents.end()) {
        region.runtimeExtents.push_back(
            {*size, text, loc,
             "extent" + std::to_string(region.runtimeExtents.size())});
        same = std::prev(region.runtimeExtents.end());
      }
      array.shape.push_back(ShapedType::kDynamic);
      array.extents.push_back(same - region.runtimeExtents.begin());
      return true;
    };
    size_t expectedSizes = decl.sizeTokens.size();
    if (decl.typedByDeclaration) {
      // Seed 004's `map(to: u)` names the array: its declaration gives the
      // element type and the sizes.
      if (!typeFromDeclaration(region, decl, nests, array, addSize)) {
        ok = false;
        continue;
      }
      expectedSizes = array.shape.size();
    }
    for (auto [tokens, loc] : llvm::zip(decl.sizeTokens, decl.sizeLocs)) {
      std::string text;
      for (const Token &tok : tokens)
        text += (text.empty() ? "" : " ") +
                Lexer::getSpelling(tok, sm, context.getLangOpts());
      if (!addSize(evaluateSize(tokens, region.function), text, loc))
        break;
    }
    if (array.shape.size() != expectedSizes)
      continue;

    // The C declaration must agree with the directive: constant sizes, or
    // the same run-time extents (a C99 variably modified parameter, whose
    // first extent only `data` gives when it is written `(*A)[n]`).
    // Looked up where the region uses it: in the time loop or in the
    // statements before and after it.
    array.decl = findArrayDecl(array.name, region.timeLoop);
    for (const Stmt *statement : nests)
      if (!array.decl)
        array.decl = findArrayDecl(array.name, statement);
    if (array.decl) {
      QualType type = getWrittenType(array.decl);
      // Per dimension its size as a linear form, none where it has none.
      SmallVector<std::optional<LinearForm>, 4> dims;
      bool isPointer = false;
      if (const PointerType *pointer = type->getAs<PointerType>()) {
        type = pointer->getPointeeType();
        isPointer = true;
      }
      while (const clang::ArrayType *arrayType = context.getAsArrayType(type)) {
        if (auto *constant = dyn_cast<ConstantArrayType>(arrayType))
          dims.push_back(constantForm(constant->getSize().getSExtValue()));
        else if (auto *variable = dyn_cast<VariableArrayType>(arrayType))
          dims.push_back(variable->getSizeExpr()
                             ? getLinearForm(variable->getSizeExpr())
                             : std::nullopt);
        else if (dims.empty() && isa<IncompleteArrayType>(arrayType))
          // `double A[][n]`: a pointer whose extent `data` gives.
          isPointer = true;
        else
          break;
        type = arrayType->getElementType();
      }
      size_t first = isPointer ? 1 : 0;
      bool shapeOk = dims.size() + first == array.shape.size();
      for (unsigned axis = first; shapeOk && axis < array.shape.size();
           ++axis) {
        LinearForm expected =
            array.extents[axis]
                ? region.runtimeExtents[*array.extents[axis]].form
                : constantForm(array.shape[axis]);
        shapeOk = dims[axis - first] == expected;
      }
      bool elementOk = getElementKind(type) == array.element;
      array.isConst |= type.isConstQualified();
      if (!elementOk || !shapeOk) {
        error(array.loc, "'" + array.name + "' is declared as '" +
                             getWrittenType(array.decl).getAsString() +
                             "' but '#pragma stencil data' says '" +
                             getElementCName(array.element) + " " + array.name +
                             region.getShapeText(array) + "'");
        note(array.decl->getLocation(),
             "'" + array.name + "' is declared here");
        ok = false;
        continue;
      }
    }
    // The last `rank` dimensions follow the loop nest; any before them
    // select a component array.
    if (array.shape.size() < rank) {
      ok = error(array.loc,
                 "'" + array.name + "' has " + Twine(array.shape.size()) +
                     (array.shape.size() == 1 ? " dimension" : " dimensions") +
                     " but 'dimension' names " + Twine(rank) +
                     " loop variables; an array needs one dimension per loop "
                     "variable, after any leading dimensions that select a "
                     "component (a[4][NI][NJ][NK] read as a[3][i][j][k]); "
                     "an array of fewer dimensions (c[j][k] in an i, j, k "
                     "nest) is a coefficient table the nests only read: "
                     "leave it out of 'data'");
      continue;
    }
    unsigned components = array.shape.size() - rank;
    if (llvm::any_of(ArrayRef(array.extents).take_front(components),
                     [](std::optional<unsigned> extent) {
                       return extent.has_value();
                     })) {
      ok = error(array.loc, "the leading dimensions of '" + array.name +
                                "', which select a component, must have "
                                "constant sizes");
      continue;
    }
    array.componentShape.assign(array.shape.begin(),
                                array.shape.begin() + components);
    array.shape.erase(array.shape.begin(), array.shape.begin() + components);
    array.extents.erase(array.extents.begin(),
                        array.extents.begin() + components);
    declared.push_back(std::move(array));
  }
  if (!ok)
    return false;

  // Plain arrays are fields as they are; component arrays give one field
  // per component the nests use.
  for (RegionArray &array : declared) {
    if (array.componentShape.empty()) {
      region.arrays.push_back(array);
      continue;
    }
    std::vector<SmallVector<int64_t, 1>> used;
    if (!findComponents(array, nests, used))
      return false;
    for (SmallVector<int64_t, 1> &component : used) {
      region.arrays.push_back(array);
      region.arrays.back().component = std::move(component);
    }
  }
  if (region.arrays.empty())
    return error(region.data->loc,
                 "the loop nests use no component of the arrays of 'data'");

  // One shape for all fields: it is the shape of the grid's storage.
  region.shape = region.arrays.front().shape;
  region.extents = region.arrays.front().extents;
  for (const RegionArray &array : region.arrays)
    if (array.shape != region.shape || array.extents != region.extents)
      return error(array.loc,
                   "array '" + array.getDisplayName() + "' is " +
                       region.getShapeText(array) + " but '" +
                       region.arrays.front().getDisplayName() + "' is " +
                       region.getShapeText(region.arrays.front()) +
                       "; all arrays of a region must have the same shape" +
                       (array.componentShape.empty() &&
                                region.arrays.front().componentShape.empty()
                            ? ""
                            : " after their component dimensions"));
  if (region.distribute &&
      region.distribute->distributed.size() != region.getRank())
    return error(region.distribute->loc,
                 "'distribute' names " +
                     llvm::Twine(region.distribute->distributed.size()) +
                     " axes but the arrays have " +
                     llvm::Twine(region.getRank()));
  if (region.distribute &&
      llvm::none_of(region.distribute->distributed, [](bool d) { return d; }))
    return error(region.distribute->loc,
                 "'distribute' must split at least one axis ('block')");
  return true;
}

bool Analyzer::makeBound(StencilRegion &region, const Expr *expr,
                         int64_t addend, StringRef loopName, LoopBound &bound) {
  bound.expr = expr;
  bound.addend = addend;
  if (std::optional<int64_t> value = evaluateInteger(expr, context)) {
    bound.value = *value + addend;
    return true;
  }
  // A run-time bound: evaluated once on entry, so nothing the region changes
  // may feed it.
  if (!expr->getType()->isIntegerType())
    return error(expr->getBeginLoc(), "the bound of the loop over '" +
                                          loopName + "' must be an integer");
  if (expr->HasSideEffects(context))
    return error(expr->getBeginLoc(),
                 "the bound of the loop over '" + loopName +
                     "' has side effects; compute it before the region");
  bool ok = true;
  walkStmts(expr, [&](const Stmt *stmt) {
    auto *ref = dyn_cast<DeclRefExpr>(stmt);
    auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    if (!ok || !var)
      return;
    StringRef name = var->getName();
    if (region.isLoopVariable(var))
      ok = error(ref->getBeginLoc(),
                 "the bound of the loop over '" + loopName +
                     "' depends on loop variable '" + name +
                     "'; the bounds of a nest must not depend on its loops "
                     "or the time loop");
    else if (region.isDataArray(name))
      ok = error(ref->getBeginLoc(), "the bound of the loop over '" + loopName +
                                         "' reads '" + name +
                                         "', an array the region computes");
  });
  return ok;
}

bool Analyzer::analyzeLoop(StencilRegion &region, const ForStmt *loop,
                           unsigned axis, StringRef section, LoopRange &range) {
  const std::vector<NamedLoc> &dims = region.dimension->dimensions;
  const Expr *lower = nullptr, *upper = nullptr;
  bool inclusive = false;
  if (!matchLoopInit(loop->getInit(), range.var, lower, range.declaresVar))
    return error(loop->getBeginLoc(), "the " + section +
                                          " loop must start with '" +
                                          dims[axis].name + " = <bound>'");
  if (range.var->getName() != dims[axis].name) {
    error(lower->getBeginLoc(), "loop variable '" + range.var->getName() +
                                    "' does not match '" + dims[axis].name +
                                    "', dimension " + llvm::Twine(axis) +
                                    " of '#pragma stencil dimension'");
    note(dims[axis].loc, "the dimension is named here");
    return false;
  }
  if (!matchLoopCond(loop->getCond(), range.var, upper, inclusive))
    return error(loop->getCond() ? loop->getCond()->getBeginLoc()
                                 : loop->getBeginLoc(),
                 "the loop condition must be '" + dims[axis].name +
                     " < bound' or '" + dims[axis].name + " <= bound'");
  if (!matchLoopInc(loop->getInc(), range.var))
    return error(loop->getInc() ? loop->getInc()->getBeginLoc()
                                : loop->getBeginLoc(),
                 "the loop over '" + dims[axis].name +
                     "' must advance by one ('" + dims[axis].name + "++')");
  if (!makeBound(region, lower, 0, dims[axis].name, range.lower) ||
      !makeBound(region, upper, inclusive ? 1 : 0, dims[axis].name,
                 range.upper))
    return false;
  std::optional<int64_t> lo = range.lower.value, hi = range.upper.value;
  if (lo && hi && *lo >= *hi)
    return error(loop->getBeginLoc(), "the " + section + " loop over '" +
                                          dims[axis].name + "' is empty: [" +
                                          llvm::Twine(*lo) + ", " +
                                          llvm::Twine(*hi) + ")");
  if (lo && *lo < 0)
    return error(lower->getBeginLoc(), "the loop over '" + dims[axis].name +
                                           "' starts at " + llvm::Twine(*lo) +
                                           ", before the arrays");
  if (hi && region.isStaticExtent(axis) && *hi > region.shape[axis])
    return error(upper->getBeginLoc(),
                 "the loop over '" + dims[axis].name + "' runs to " +
                     llvm::Twine(*hi) + ", beyond the size " +
                     llvm::Twine(region.shape[axis]) +
                     " of the arrays along dimension " + llvm::Twine(axis));
  return true;
}

bool Analyzer::analyzeNest(StencilRegion &region, const Stmt *stmt,
                           StringRef section, LoopNest &nest) {
  const std::vector<NamedLoc> &dims = region.dimension->dimensions;
  for (unsigned axis = 0; axis < region.getRank(); ++axis) {
    stmt = skipSingleCompound(stmt);
    auto *loop = dyn_cast_or_null<ForStmt>(stmt);
    if (!loop) {
      error(stmt ? stmt->getBeginLoc() : region.begin->loc,
            "expected a 'for' loop over '" + dims[axis].name + "' (dimension " +
                llvm::Twine(axis) + ") in the " + section + " section");
      note(region.dimension->loc, "the dimensions are named here");
      return false;
    }
    LoopRange range;
    if (!analyzeLoop(region, loop, axis, section, range))
      return false;
    nest.loops.push_back(range);
    stmt = loop->getBody();
  }
  nest.body = stmt;
  return true;
}

bool Analyzer::analyzeBoundary(StencilRegion &region, const Stmt *stmt,
                               LoopNest &nest) {
  const std::vector<NamedLoc> &dims = region.dimension->dimensions;
  unsigned rank = region.getRank();
  // The loops, each over a later dimension than the one before.
  SmallVector<std::optional<LoopRange>, 3> loops(rank);
  unsigned next = 0;
  stmt = skipSingleCompound(stmt);
  while (auto *loop = dyn_cast_or_null<ForStmt>(stmt)) {
    const VarDecl *var = nullptr;
    const Expr *value = nullptr;
    bool declares = false;
    std::optional<unsigned> axis;
    if (matchLoopInit(loop->getInit(), var, value, declares))
      for (unsigned d = next; d < rank; ++d)
        if (dims[d].name == var->getName())
          axis = d;
    if (!axis)
      return error(loop->getBeginLoc(),
                   "a loop in the time loop outside the marked nests must run "
                   "over dimension variables, in the order of '#pragma "
                   "stencil dimension' (a boundary statement), or follow "
                   "'#pragma stencil calc'");
    LoopRange range;
    if (!analyzeLoop(region, loop, *axis, "boundary", range))
      return false;
    loops[*axis] = range;
    next = *axis + 1;
    stmt = skipSingleCompound(loop->getBody());
  }
  nest.body = stmt;
  // The other axes are fixed at the subscripts of the first array written.
  const Expr *target = nullptr;
  walkStmts(stmt, [&](const Stmt *child) {
    auto *assign = dyn_cast<BinaryOperator>(child);
    if (!target && assign && assign->isAssignmentOp() &&
        isa<ArraySubscriptExpr>(skipTransparent(assign->getLHS())))
      target = assign->getLHS();
  });
  SmallVector<const Expr *, 3> subscripts;
  if (!target || !findSubscriptedField(region, target, &subscripts))
    return error(stmt->getBeginLoc(),
                 "a statement in the time loop outside the marked nests must "
                 "set cells of the arrays of 'data' (a boundary statement: "
                 "loops over some dimensions, constant subscripts along the "
                 "others), or follow '#pragma stencil calc'");
  for (unsigned axis = 0; axis < rank; ++axis) {
    if (loops[axis]) {
      nest.loops.push_back(*loops[axis]);
      continue;
    }
    std::optional<int64_t> at = evaluateInteger(subscripts[axis], context);
    if (!at)
      return error(subscripts[axis]->getBeginLoc(),
                   "this boundary statement does not loop over '" +
                       dims[axis].name +
                       "', so its subscript along dimension " +
                       llvm::Twine(axis) + " must be a constant");
    // Against a run-time extent, checked on entry (HostInterface.cpp).
    if (*at < 0 || (region.isStaticExtent(axis) && *at >= region.shape[axis]))
      return error(subscripts[axis]->getBeginLoc(),
                   "subscript " + llvm::Twine(*at) + " along dimension " +
                       llvm::Twine(axis) + " lies outside the arrays' " +
                       region.getExtentText(axis) + " elements");
    LoopRange fixed;
    fixed.lower.value = *at;
    fixed.upper.value = *at + 1;
    nest.loops.push_back(fixed);
  }
  return true;
}

RegionArray *
Analyzer::findSubscriptedField(StencilRegion &region, const Expr *expr,
                               SmallVectorImpl<const Expr *> *loopSubscripts) {
  SmallVector<const Expr *, 4> indices;
  expr = skipTransparent(expr);
  while (auto *subscript = dyn_cast<ArraySubscriptExpr>(expr)) {
    indices.push_back(subscript->getIdx());
    expr = skipTransparent(subscript->getBase());
  }
  const VarDecl *var = getReferencedVar(expr);
  RegionArray *any = var ? region.findArray(var->getName()) : nullptr;
  if (!any || indices.size() != any->componentShape.size() + region.getRank())
    return nullptr;
  std::reverse(indices.begin(), indices.end());
  unsigned components = any->componentShape.size();
  SmallVector<int64_t, 1> component;
  for (const Expr *index : ArrayRef(indices).take_front(components)) {
    std::optional<int64_t> value = evaluateInteger(index, context);
    if (!value)
      return nullptr;
    component.push_back(*value);
  }
  if (loopSubscripts)
    loopSubscripts->assign(indices.begin() + components, indices.end());
  return region.findField(var->getName(), component);
}

bool Analyzer::collectWrites(StencilRegion &region, Section &section) {
  // The translation of the body checks each assignment; here only which
  // fields it changes matters, so that reads can be told apart from them.
  walkStmts(section.nest.body, [&](const Stmt *stmt) {
    auto *assign = dyn_cast<BinaryOperator>(stmt);
    if (!assign || !assign->isAssignmentOp())
      return;
    if (RegionArray *field = findSubscriptedField(region, assign->getLHS())) {
      unsigned index = field - region.arrays.data();
      if (!llvm::is_contained(section.writes, index))
        section.writes.push_back(index);
    }
  });
  llvm::sort(section.writes);
  return true;
}

bool Analyzer::analyzeCopies(StencilRegion &region, Section &section) {
  const Stmt *body = section.nest.body;
  SmallVector<const Stmt *> statements;
  if (auto *compound = dyn_cast<CompoundStmt>(body))
    llvm::append_range(statements, compound->body());
  else
    statements.push_back(body);

  // `source[i][j][k] = destination[i][j][k];`, both at the loop point,
  // after the constant subscripts of a component (`a[1][i][j][k]`).
  auto matchPoint = [&](const Expr *expr) -> RegionArray * {
    SmallVector<const Expr *, 3> subscripts;
    RegionArray *field = findSubscriptedField(region, expr, &subscripts);
    if (!field)
      return nullptr;
    for (auto [index, loop] : llvm::zip(subscripts, section.nest.loops))
      if (getReferencedVar(index) != loop.var)
        return nullptr;
    return field;
  };

  SmallVector<unsigned> copied;
  for (const Stmt *stmt : statements) {
    if (isa<NullStmt>(stmt))
      continue;
    auto *assign = dyn_cast<BinaryOperator>(stmt);
    // A reduction belongs with the values it reduces.
    if (assign && assign->isAssignmentOp())
      if (const VarDecl *var = getReferencedVar(assign->getLHS()))
        if (!var->getType()->isArrayType() && !var->getType()->isPointerType())
          return error(assign->getLHS()->getBeginLoc(),
                       "the copy section copies arrays only; an update of '" +
                           var->getName() +
                           "' (a reduction) belongs in the calc section");
    RegionArray *target = nullptr, *value = nullptr;
    if (assign && assign->getOpcode() == BO_Assign) {
      target = matchPoint(assign->getLHS());
      value = matchPoint(assign->getRHS());
    }
    if (!target || !value)
      return error(stmt->getBeginLoc(),
                   "the copy section may only hold assignments "
                   "'source[...] = destination[...]' at the loop point");
    if (!target->isSource)
      return error(assign->getLHS()->getBeginLoc(),
                   "the copy section writes '" + target->getDisplayName() +
                       "', which is not a source array");
    if (value->isSource)
      return error(assign->getRHS()->getBeginLoc(),
                   "the copy section reads '" + value->getDisplayName() +
                       "', which is not a destination array");
    unsigned index = target - region.arrays.data();
    if (llvm::is_contained(section.writes, index))
      return error(assign->getLHS()->getBeginLoc(),
                   "source '" + target->getDisplayName() +
                       "' is copied into twice in the copy section");
    section.writes.push_back(index);
    section.copies.push_back({index, unsigned(value - region.arrays.data())});
    target->copiedFrom = value - region.arrays.data();
  }
  llvm::sort(section.writes);
  llvm::sort(section.copies);
  return true;
}

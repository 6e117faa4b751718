//===- IREmitter.cpp - Build stencil IR for an analysed region ------------===//
//
// One func.func per region:
//
//   func.func @stencil_main_0(%A: memref<..>, ..., %c0: f32, ..., %steps:
//   index)
//     loads -> stencil.grid (one per range) -> stencil.iterate {
//       per nest, in order:
//         [stencil.exchange of distributed fields it reads off-centre]
//         calc: stencil.apply (the translated loop body)
//         copy: stencil.apply (destination -> source at the loop point)
//       stencil.yield
//     } -> stores of the arrays the loop changes
//
// The calc bodies themselves are translated by CalcTranslator.cpp.
//
//===----------------------------------------------------------------------===//

#include "IREmitter.h"
#include "CalcTranslator.h"

#include "Stencil/Dialect/Stencil/IR/StencilOps.h"
#include "Stencil/Support/RowMajor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::pragma_c;

//===----------------------------------------------------------------------===//
// StencilRegion -> func.func
//===----------------------------------------------------------------------===//

namespace {
/// A calc section's translated body, waiting for its apply.
struct TranslatedNest {
  std::unique_ptr<Block> block;
  std::unique_ptr<CalcTranslator> translator;
};
} // namespace

func::FuncOp mlir::stencil::pragma_c::emitRegion(clang::ASTContext &astContext,
                                                 StencilRegion &region,
                                                 ModuleOp module) {
  MLIRContext *context = module.getContext();
  OpBuilder builder(context);
  clang::DiagnosticsEngine &diags = astContext.getDiagnostics();
  auto loc = [&](clang::SourceLocation at) {
    return getLocation(context, astContext.getSourceManager(), at);
  };

  // Translate the calc bodies first: they decide which fields and scalars
  // the region reads and which variables it reduces into.
  std::vector<TranslatedNest> nests(region.sections.size());
  for (auto [section, nest] : llvm::zip_equal(region.sections, nests)) {
    if (section.isCopy())
      continue;
    nest.block = std::make_unique<Block>();
    nest.translator = std::make_unique<CalcTranslator>(
        astContext, region, &section, context, nest.block.get());
    if (!nest.translator->translate(section.nest.body))
      return {};
  }
  // Each translator saw the reductions found before it.
  for (TranslatedNest &nest : nests)
    if (nest.translator)
      nest.translator->contributions.resize(region.reductions.size());
  // Run-time bounds, output file names and their conditions are computed
  // once, on entry; C evaluates them where they stand, after whatever the
  // region changed before: the time loop's variables, and the reduction
  // variables, resets and temporaries of every nest.
  llvm::SmallPtrSet<const clang::VarDecl *, 8> changed(
      region.assignedInLoop.begin(), region.assignedInLoop.end());
  for (const RegionReduction &reduction : region.reductions)
    changed.insert(reduction.decl);
  for (const ResetStatement &reset : region.resets)
    changed.insert(reset.var);
  changed.insert(region.outerTemporaries.begin(),
                 region.outerTemporaries.end());
  auto findChanged = [&](const clang::Expr *expr) {
    const clang::VarDecl *found = nullptr;
    walkStmts(expr, [&](const clang::Stmt *stmt) {
      auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt);
      auto *var =
          ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
      if (!found && var && changed.contains(var))
        found = var;
    });
    return found;
  };
  auto whatChanges = [&](const clang::VarDecl *var) -> std::string {
    bool reduced =
        llvm::any_of(region.reductions,
                     [&](const RegionReduction &r) { return r.decl == var; });
    return reduced ? "a nest of the region reduces into" : "the region assigns";
  };
  for (const RuntimeBound &bound : region.runtimeBounds) {
    const clang::Expr *expr = region.getBound(bound).expr;
    const clang::VarDecl *assigned = findChanged(expr);
    if (!assigned)
      continue;
    reportError(diags, expr->getBeginLoc(),
                "the bound of the loop over '" +
                    region.getLoop(bound).var->getName().str() + "' reads '" +
                    assigned->getName().str() + "', which " +
                    whatChanges(assigned) +
                    "; C evaluates the bound where the loop stands, the "
                    "compiled region once, on entry: compute it before the "
                    "region");
    return {};
  }
  for (const OutputStatement &output : region.outputs)
    for (const clang::Expr *expr : {output.path, output.condition}) {
      const clang::VarDecl *assigned = expr ? findChanged(expr) : nullptr;
      if (!assigned)
        continue;
      reportError(
          diags, expr->IgnoreParenImpCasts()->getBeginLoc(),
          std::string(expr == output.path ? "the file name" : "the condition") +
              " of stencil_write_raw reads '" + assigned->getName().str() +
              "', which " + whatChanges(assigned) +
              "; the region evaluates it on entry: compute it "
              "before the region");
      return {};
    }

  // Each reset sets a reduction variable; its value is computed once, before
  // the time loop, from constants and captured scalars.
  Block resetBlock;
  CalcTranslator resets(astContext, region, /*section=*/nullptr, context,
                        &resetBlock);
  SmallVector<Value> resetValues(region.reductions.size());
  for (const ResetStatement &reset : region.resets) {
    auto it = llvm::find_if(region.reductions, [&](const RegionReduction &r) {
      return r.decl == reset.var;
    });
    std::string name = reset.var->getName().str();
    if (it == region.reductions.end()) {
      reportError(diags, reset.assign->getBeginLoc(),
                  reset.phase == Phase::Step
                      ? "'" + name +
                            "' is assigned in the time loop but the calc "
                            "section does not reduce into it; before the "
                            "calc nest, the time loop may only reset "
                            "reduction variables"
                      : "'" + name +
                            "' is assigned outside the time loop but no nest "
                            "of the region reduces into it; there, a region "
                            "may only reset the variables its nests reduce "
                            "into");
      return {};
    }
    if (it->reset) {
      reportError(diags, reset.assign->getBeginLoc(),
                  "'" + name +
                      (reset.phase == Phase::Step
                           ? "' is reset twice in one step"
                           : "' is reset twice in the region"));
      reportNote(diags, it->reset->assign->getBeginLoc(), "first reset here");
      return {};
    }
    // A reset applies to the nest of its own phase that follows it: one in
    // the time loop resets every step, one outside sets the value once.
    const Section &reducer = region.sections[it->section];
    if (reducer.phase != reset.phase ||
        (reset.phase != Phase::Step && reset.nextSection > it->section)) {
      reportError(diags, reset.assign->getBeginLoc(),
                  "'" + name +
                      "' is reset here, but the nest that reduces into it " +
                      (reducer.phase == Phase::Step
                           ? "runs in the time loop: assign it before "
                             "'#pragma stencil begin' to set it once, or at "
                             "the top of the time loop to reset it every "
                             "step"
                           : "runs outside the time loop: reset it right "
                             "before that nest"));
      reportNote(diags, it->loc, "reduced here");
      return {};
    }
    it->reset = &reset;
    Value value =
        resets.translateValue(reset.assign->getRHS(), reset.var->getType());
    if (!value)
      return {};
    resetValues[it - region.reductions.begin()] = value;
  }
  // Each nest decided on its own what a scalar of the function is; C sees
  // one variable through all of them.
  for (const CapturedScalar &scalar : region.scalars) {
    const char *role = nullptr;
    if (llvm::is_contained(region.outerTemporaries, scalar.decl))
      role = "assigns it at every point as a temporary; C would read the "
             "last point's value";
    else if (llvm::any_of(region.reductions, [&](const RegionReduction &r) {
               return r.decl == scalar.decl;
             }))
      role = "reduces into it; its running value is not known at a point";
    if (role) {
      reportError(diags, scalar.firstUse,
                  "'" + scalar.decl->getName().str() +
                      "' is read here as the value it has before the "
                      "region, but another loop nest of the step " +
                      role);
      return {};
    }
  }
  for (const RegionReduction &reduction : region.reductions)
    if (llvm::is_contained(region.outerTemporaries, reduction.decl)) {
      reportError(diags, reduction.loc,
                  "'" + reduction.decl->getName().str() +
                      "' is reduced into here, but another loop nest of the "
                      "step assigns it as a temporary of each point");
      return {};
    }
  for (const RegionArray &array : region.arrays)
    if (!array.isSource && !array.isWritten) {
      reportError(diags, array.loc,
                  "destination '" + array.getDisplayName() +
                      "' is never written by a loop nest of the region");
      return {};
    }
  // A nest that writes no array computes nothing unless it reduces, and its
  // grid's shape then comes from an array it reads.
  for (unsigned index = 0; index < region.sections.size(); ++index) {
    const Section &section = region.sections[index];
    if (section.isCopy() || !section.writes.empty())
      continue;
    bool reduces =
        llvm::any_of(region.reductions, [&](const RegionReduction &r) {
          return r.section == index;
        });
    bool readsArray =
        llvm::any_of(nests[index].translator->argumentSources,
                     [](const CalcTranslator::ArgumentSource &source) {
                       return source.array.has_value();
                     });
    if (reduces && readsArray)
      continue;
    reportError(diags, section.loc,
                reduces ? "this nest writes no array and reads none; a nest "
                          "that only reduces must read an array of 'data'"
                        : "this nest writes no array of 'data' and reduces "
                          "into no variable: it computes nothing");
    return {};
  }

  DecompositionAttr decomposition;
  if (region.distribute) {
    SmallVector<AxisDistribution> axes;
    for (bool distributed : region.distribute->distributed)
      axes.push_back(distributed ? AxisDistribution::Block
                                 : AxisDistribution::Replicated);
    decomposition = DecompositionAttr::get(context, axes);
  }
  auto elementType = [&](const RegionArray &array) -> Type {
    return getFieldElementType(array.element, context);
  };
  auto fieldType = [&](const RegionArray &array) {
    return FieldType::get(context, region.shape, elementType(array),
                          decomposition);
  };

  // Signature: arrays, captured scalars, reduction variables, run-time
  // bounds and extents, step tables, the step variable's first value, step
  // count. An array of run-time extents comes as a pointer to its first
  // element (a 0-d memref, so the C caller's bare pointer still suffices),
  // reinterpreted with its extents on entry.
  bool hasRuntimeExtents = !region.runtimeExtents.empty();
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  for (const RegionArray &array : region.arrays) {
    argTypes.push_back(
        MemRefType::get(hasRuntimeExtents ? ArrayRef<int64_t>() : region.shape,
                        elementType(array)));
    argLocs.push_back(loc(array.loc));
  }
  DenseMap<const clang::VarDecl *, unsigned> scalarArgIndex;
  // The type a translated block gave the first argument that `matches`.
  auto argumentType =
      [&](function_ref<bool(const CalcTranslator::ArgumentSource &)> matches)
      -> Type {
    SmallVector<std::pair<CalcTranslator *, Block *>> translated;
    for (TranslatedNest &nest : nests)
      if (nest.translator)
        translated.push_back({nest.translator.get(), nest.block.get()});
    translated.push_back({&resets, &resetBlock});
    for (auto [translator, block] : translated)
      for (auto [i, source] : llvm::enumerate(translator->argumentSources))
        if (matches(source))
          return block->getArgument(i).getType();
    llvm_unreachable("each captured value is an argument of a translated "
                     "block");
  };
  auto scalarType = [&](const clang::VarDecl *decl) {
    return argumentType([&](const CalcTranslator::ArgumentSource &source) {
      return source.scalar == decl;
    });
  };
  for (const CapturedScalar &scalar : region.scalars) {
    scalarArgIndex[scalar.decl] = argTypes.size();
    argTypes.push_back(scalarType(scalar.decl));
    argLocs.push_back(loc(scalar.decl->getLocation()));
  }
  // Reduction variables by address: loaded before the loop, stored after.
  unsigned firstReductionArg = argTypes.size();
  for (const RegionReduction &reduction : region.reductions) {
    Value contribution =
        nests[reduction.section]
            .translator->contributions[&reduction - region.reductions.data()];
    argTypes.push_back(MemRefType::get({}, contribution.getType()));
    argLocs.push_back(loc(reduction.decl->getLocation()));
  }
  // The run-time bounds of the nests.
  unsigned firstBoundArg = argTypes.size();
  for (const RuntimeBound &bound : region.runtimeBounds) {
    argTypes.push_back(builder.getIndexType());
    argLocs.push_back(loc(region.getBound(bound).expr->getBeginLoc()));
  }
  unsigned firstExtentArg = argTypes.size();
  for (const RuntimeExtent &extent : region.runtimeExtents) {
    argTypes.push_back(builder.getIndexType());
    argLocs.push_back(loc(extent.loc));
  }
  // The step tables, then the step variable's first value, when a body
  // reads them.
  unsigned firstTableArg = argTypes.size();
  for (auto [k, table] : llvm::enumerate(region.stepTables)) {
    unsigned index = k;
    Type element =
        argumentType([&](const CalcTranslator::ArgumentSource &source) {
          return source.table == index;
        });
    argTypes.push_back(MemRefType::get({table.size}, element));
    argLocs.push_back(loc(table.decl->getLocation()));
  }
  // The coefficient arrays, of their own constant shapes.
  unsigned firstCoefficientArg = argTypes.size();
  for (const CoefficientArray &array : region.coefficientArrays) {
    argTypes.push_back(MemRefType::get(
        array.shape, getFieldElementType(array.element, context)));
    argLocs.push_back(loc(array.decl->getLocation()));
  }
  // The file names of the output calls, as pointers to their first
  // character.
  unsigned firstPathArg = argTypes.size();
  for (const OutputStatement &output : region.outputs) {
    argTypes.push_back(MemRefType::get({}, builder.getI8Type()));
    argLocs.push_back(loc(output.path->getBeginLoc()));
  }
  // The step variable has an integer type (analyzeTimeLoop).
  Type stepType;
  if (region.usesStepValue()) {
    stepType =
        builder.getIntegerType(astContext.getTypeSize(region.stepValueType));
    argTypes.push_back(stepType);
    argLocs.push_back(loc(region.stepLower->getBeginLoc()));
  }
  // The step count, where the region has a time loop.
  if (region.timeLoop) {
    argTypes.push_back(builder.getIndexType());
    argLocs.push_back(loc(region.timeLoop->getBeginLoc()));
  }

  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(builder, loc(region.begin->loc), region.name,
                                   builder.getFunctionType(argTypes, {}));
  StencilDialect::MaxStepsAttrHelper(builder.getContext())
      .setAttr(func, builder.getI64IntegerAttr(region.step->maxSteps));
  auto residentAttr = StencilDialect::ResidentAttrHelper(context);
  for (auto [index, array] : llvm::enumerate(region.arrays))
    if (array.isResident)
      func.setArgAttr(index, residentAttr.getName(), builder.getUnitAttr());
  Block *entry = builder.createBlock(&func.getBody(), {}, argTypes, argLocs);

  // The grids' bounds first: a distributed function needs them before its
  // first stencil op. Nests over the same range share a grid.
  struct GridBounds {
    const Section *section;
    Location location;
    SmallVector<OpFoldResult, 3> lower, upper;
  };
  SmallVector<GridBounds> gridBounds;
  SmallVector<unsigned> gridOfSection;
  for (const Section &section : region.sections) {
    auto same = llvm::find_if(gridBounds, [&](const GridBounds &other) {
      return other.section->hasSameRange(section);
    });
    gridOfSection.push_back(same - gridBounds.begin());
    if (same != gridBounds.end())
      continue;
    GridBounds &grid =
        gridBounds.emplace_back(GridBounds{&section, loc(section.loc), {}, {}});
    for (const LoopRange &loop : section.nest.loops) {
      for (auto [bound, bounds] : {std::pair{&loop.lower, &grid.lower},
                                   std::pair{&loop.upper, &grid.upper}})
        bounds->push_back(
            bound->isConstant()
                ? OpFoldResult(builder.getIndexAttr(*bound->value))
                : OpFoldResult(
                      entry->getArgument(firstBoundArg + bound->runtimeIndex)));
      // A C loop whose upper bound lies below its lower one runs no
      // iteration: an empty grid, [lower, lower).
      if (loop.lower.isConstant() && loop.upper.isConstant())
        continue;
      Location boundLoc =
          loc((loop.upper.isConstant() ? loop.lower : loop.upper)
                  .expr->getBeginLoc());
      Value low =
          getValueOrCreateConstantIndexOp(builder, boundLoc, grid.lower.back());
      Value high =
          getValueOrCreateConstantIndexOp(builder, boundLoc, grid.upper.back());
      grid.upper.back() =
          arith::MaxSIOp::create(builder, boundLoc, low, high).getResult();
    }
  }
  // The arrays as memrefs of the fields' shape, row-major.
  SmallVector<Value> memrefs(
      entry->getArguments().take_front(region.arrays.size()));
  if (hasRuntimeExtents) {
    Location extentLoc = loc(region.runtimeExtents.front().loc);
    SmallVector<OpFoldResult, 3> sizes;
    for (unsigned axis = 0; axis < region.getRank(); ++axis)
      sizes.push_back(
          region.isStaticExtent(axis)
              ? OpFoldResult(builder.getIndexAttr(region.shape[axis]))
              : OpFoldResult(entry->getArgument(firstExtentArg +
                                                *region.extents[axis])));
    SmallVector<OpFoldResult, 3> strides =
        buildRowMajorStrides(builder, extentLoc, sizes);
    for (auto [index, array] : llvm::enumerate(region.arrays))
      memrefs[index] =
          buildRowMajorView(builder, loc(array.loc),
                            MemRefType::get(region.shape, elementType(array)),
                            memrefs[index], sizes, strides);
  }
  // Loads, then the grids of the loop nests.
  SmallVector<Value> loaded;
  for (auto [index, array] : llvm::enumerate(region.arrays))
    loaded.push_back(LoadOp::create(builder, loc(array.loc), fieldType(array),
                                    memrefs[index]));
  // Coefficient arrays are read only, never distributed: every rank holds
  // them whole (stencil-distribute gives each rank its part).
  SmallVector<Value> coefficientFields;
  for (auto [index, array] : llvm::enumerate(region.coefficientArrays))
    coefficientFields.push_back(LoadOp::create(
        builder, loc(array.decl->getLocation()),
        FieldType::get(array.shape,
                       getFieldElementType(array.element, context)),
        entry->getArgument(firstCoefficientArg + index)));
  SmallVector<Value> grids;
  for (const GridBounds &grid : gridBounds)
    grids.push_back(
        GridOp::create(builder, grid.location, grid.lower, grid.upper));

  // Exchange widths: the halo clause, or the largest radius at which a nest
  // reads the field, along the distributed axes.
  auto exchangeWidths = [&](unsigned arrayIndex) {
    SmallVector<int64_t, 3> widths(region.getRank(), 0);
    if (!decomposition)
      return widths;
    std::optional<int64_t> halo =
        region.halo ? region.halo->haloWidth : region.distribute->haloWidth;
    for (const TranslatedNest &nest : nests) {
      if (!nest.translator)
        continue;
      auto it = nest.translator->radius.find(arrayIndex);
      if (it == nest.translator->radius.end())
        continue;
      for (unsigned axis = 0; axis < region.getRank(); ++axis)
        if (decomposition.isDistributed(axis) && it->second[axis] > 0)
          widths[axis] =
              std::max(widths[axis], halo ? std::max(*halo, it->second[axis])
                                          : it->second[axis]);
    }
    return widths;
  };
  auto maybeExchange = [&](Value field, unsigned arrayIndex) -> Value {
    SmallVector<int64_t, 3> widths = exchangeWidths(arrayIndex);
    if (llvm::all_of(widths, [](int64_t w) { return w == 0; }))
      return field;
    return ExchangeOp::create(builder, loc(region.distribute->loc), field,
                              builder.getDenseI64ArrayAttr(widths));
  };

  // The current value of every array (a field) and reduction variable, as
  // the statements so far leave them.
  DenseMap<unsigned, Value> current;
  for (auto [index, field] : llvm::enumerate(loaded))
    current[index] = field;
  SmallVector<Value> reductionValues;
  for (auto [k, reduction] : llvm::enumerate(region.reductions))
    reductionValues.push_back(memref::LoadOp::create(
        builder, loc(reduction.loc), entry->getArgument(firstReductionArg + k),
        ValueRange()));
  for (auto [i, source] : llvm::enumerate(resets.argumentSources))
    resetBlock.getArgument(i).replaceAllUsesWith(
        entry->getArgument(scalarArgIndex[source.scalar]));
  entry->getOperations().splice(entry->end(), resetBlock.getOperations());
  builder.setInsertionPointToEnd(entry);

  // The exchanged value of a field, while no nest has written it since.
  DenseMap<unsigned, std::pair<Value, Value>> exchanged;
  auto exchangedCurrent = [&](unsigned index) {
    auto it = exchanged.find(index);
    if (it != exchanged.end() && it->second.first == current[index])
      return it->second.second;
    Value value = maybeExchange(current[index], index);
    exchanged[index] = {current[index], value};
    return value;
  };
  // The fields the time loop only reads, exchanged once before it.
  SmallVector<Value> readOnly(region.arrays.size());
  // The step variable's value in this step, inside the time loop.
  Value stepValue;

  auto emitSection = [&](unsigned sectionIndex) -> void {
    const Section &section = region.sections[sectionIndex];
    Value grid = grids[gridOfSection[sectionIndex]];
    Location sectionLoc = loc(section.loc);
    if (section.isCopy()) {
      // Every source copied into takes its destination's new values on the
      // grid.
      SmallVector<Value> copyInputs, copyOutputs;
      for (auto [source, destination] : section.copies) {
        copyInputs.push_back(current[destination]);
        copyOutputs.push_back(current[source]);
      }
      auto copyApply =
          ApplyOp::create(builder, sectionLoc, grid, copyInputs, copyOutputs);
      OpBuilder body = OpBuilder::atBlockEnd(copyApply.getBodyBlock());
      SmallVector<int64_t, 3> zero(region.getRank(), 0);
      SmallVector<Value> values;
      for (BlockArgument argument : copyApply.getBodyBlock()->getArguments())
        values.push_back(AccessOp::create(body, sectionLoc, argument,
                                          body.getDenseI64ArrayAttr(zero),
                                          /*along=*/nullptr));
      ReturnOp::create(body, sectionLoc, values);
      for (auto [position, pair] : llvm::enumerate(section.copies))
        current[pair.first] = copyApply.getResult(position);
      return;
    }

    TranslatedNest &nest = nests[sectionIndex];
    CalcTranslator &calc = *nest.translator;
    SmallVector<Value> inputs;
    for (auto [i, source] : llvm::enumerate(calc.argumentSources)) {
      if (source.scalar) {
        inputs.push_back(entry->getArgument(scalarArgIndex[source.scalar]));
        continue;
      }
      if (source.step) {
        inputs.push_back(stepValue);
        continue;
      }
      if (source.table) {
        // This step's element, read on the host before the sweep.
        Location tableLoc = nest.block->getArgument(i).getLoc();
        Value index = arith::IndexCastOp::create(
            builder, tableLoc, builder.getIndexType(), stepValue);
        if (source.tableOffset) {
          Value offset = arith::ConstantIndexOp::create(builder, tableLoc,
                                                        source.tableOffset);
          index = arith::AddIOp::create(builder, tableLoc, index, offset);
        }
        // The host checks the steps against the table when a nest reading
        // it is not empty; when all are, C reads nothing, and the clamp
        // keeps this read inside the table.
        Value first = arith::ConstantIndexOp::create(builder, tableLoc, 0);
        Value last = arith::ConstantIndexOp::create(
            builder, tableLoc, region.stepTables[*source.table].size - 1);
        index = arith::MaxSIOp::create(builder, tableLoc, index, first);
        index = arith::MinSIOp::create(builder, tableLoc, index, last);
        inputs.push_back(memref::LoadOp::create(
            builder, tableLoc,
            entry->getArgument(firstTableArg + *source.table), index));
        continue;
      }
      if (source.coefficients) {
        inputs.push_back(coefficientFields[*source.coefficients]);
        continue;
      }
      unsigned index = *source.array;
      // Outside the time loop, a nest that reads a field at its points only
      // needs no halo.
      bool offCentre = false;
      if (auto it = calc.radius.find(index); it != calc.radius.end())
        offCentre = llvm::any_of(it->second, [](int64_t r) { return r > 0; });
      if (section.isInLoop())
        inputs.push_back(region.arrays[index].isCarried()
                             ? exchangedCurrent(index)
                             : readOnly[index]);
      else
        inputs.push_back(offCentre ? exchangedCurrent(index) : current[index]);
      // Inside the apply, fields have the region's (possibly distributed)
      // type.
      nest.block->getArgument(i).setType(inputs.back().getType());
    }
    SmallVector<Value> outputs, returned;
    for (unsigned index : section.writes) {
      assert(calc.written.count(index) && "the analysis found the writes");
      outputs.push_back(current[index]);
      returned.push_back(calc.written[index]);
    }
    // This nest's reductions start from their reset value, or accumulate
    // from the variable's current value (in the time loop, the one it
    // carries across steps).
    SmallVector<unsigned> reduced;
    SmallVector<Value> reduceInits;
    SmallVector<ReductionKind> kinds;
    for (auto [k, reduction] : llvm::enumerate(region.reductions)) {
      if (reduction.section != sectionIndex)
        continue;
      reduced.push_back(k);
      reduceInits.push_back(resetValues[k] ? resetValues[k]
                                           : reductionValues[k]);
      kinds.push_back(reduction.kind);
      returned.push_back(calc.contributions[k]);
    }
    auto apply = ApplyOp::create(builder, sectionLoc, grid, inputs, outputs,
                                 reduceInits, kinds);
    Block *applyBody = apply.getBodyBlock();
    for (auto [from, to] :
         llvm::zip(nest.block->getArguments(), applyBody->getArguments()))
      from.replaceAllUsesWith(to);
    // A value returned as it came in (`B[i] = c;`, `e[0][j] = fict[t];`)
    // is the argument itself, not a use of it.
    for (Value &value : returned)
      if (auto argument = llvm::dyn_cast<BlockArgument>(value))
        if (argument.getOwner() == nest.block.get())
          value = applyBody->getArgument(argument.getArgNumber());
    applyBody->getOperations().splice(applyBody->end(),
                                      nest.block->getOperations());
    builder.setInsertionPointToEnd(applyBody);
    ReturnOp::create(builder, sectionLoc, returned);
    builder.setInsertionPointAfter(apply);
    for (auto [position, index] : llvm::enumerate(section.writes))
      current[index] = apply.getResult(position);
    for (auto [position, k] : llvm::enumerate(reduced))
      reductionValues[k] = apply.getReductionResults()[position];
  };
  // The output calls of `phase` placed after `count` sections.
  auto emitOutputs = [&](Phase phase, unsigned count) {
    for (auto [k, output] : llvm::enumerate(region.outputs))
      if (output.phase == phase && output.afterSections == count)
        WriteRawOp::create(builder, loc(output.call->getBeginLoc()),
                           current[output.field],
                           entry->getArgument(firstPathArg + k));
  };
  // The statements outside the time loop in `phase`, in order.
  auto emitOutside = [&](Phase phase) {
    for (auto [index, section] : llvm::enumerate(region.sections)) {
      if (section.phase != phase)
        continue;
      emitOutputs(phase, index);
      emitSection(index);
    }
    // Calls after the phase's last nest.
    unsigned count =
        phase == Phase::After
            ? region.sections.size()
            : llvm::count_if(region.sections, [](const Section &section) {
                return section.phase == Phase::Before;
              });
    emitOutputs(phase, count);
  };
  emitOutside(Phase::Before);

  // A region without a time loop ran its nests above.
  if (region.timeLoop) {
    Value steps = entry->getArguments().back();
    // The fields the loop reads but never changes: their halo is refreshed
    // once, before it.
    llvm::SmallDenseSet<unsigned, 8> readInLoop;
    for (auto [sectionIndex, section] : llvm::enumerate(region.sections))
      if (section.isInLoop() && !section.isCopy())
        for (const CalcTranslator::ArgumentSource &source :
             nests[sectionIndex].translator->argumentSources)
          if (source.array)
            readInLoop.insert(*source.array);
    for (auto [index, array] : llvm::enumerate(region.arrays))
      if (!array.isCarried() && readInLoop.contains(index))
        readOnly[index] = exchangedCurrent(index);

    // The time loop carries every array it changes, then the variables its
    // nests reduce into, then the step variable's value.
    SmallVector<unsigned> carried, loopReductions;
    SmallVector<Value> inits;
    for (auto [index, array] : llvm::enumerate(region.arrays))
      if (array.isCarried()) {
        carried.push_back(index);
        inits.push_back(current[index]);
      }
    for (auto [k, reduction] : llvm::enumerate(region.reductions))
      if (region.sections[reduction.section].isInLoop()) {
        loopReductions.push_back(k);
        inits.push_back(reductionValues[k]);
      }
    if (stepType)
      inits.push_back(entry->getArgument(entry->getNumArguments() - 2));
    auto iterate = IterateOp::create(
        builder, loc(region.timeLoop->getBeginLoc()), steps, inits);
    Block *loopBody = iterate.getBodyBlock();
    for (auto [position, index] : llvm::enumerate(carried))
      current[index] = loopBody->getArgument(position);
    for (auto [position, k] : llvm::enumerate(loopReductions))
      reductionValues[k] = loopBody->getArgument(carried.size() + position);
    if (stepType)
      stepValue = loopBody->getArguments().back();

    builder.setInsertionPointToStart(loopBody);
    for (auto [index, section] : llvm::enumerate(region.sections))
      if (section.isInLoop())
        emitSection(index);

    SmallVector<Value> yielded;
    for (unsigned index : carried)
      yielded.push_back(current[index]);
    for (unsigned k : loopReductions)
      yielded.push_back(reductionValues[k]);
    if (stepType) {
      Location stepLoc = loc(region.timeLoop->getInc()->getBeginLoc());
      Value one = arith::ConstantOp::create(
          builder, stepLoc, builder.getIntegerAttr(stepType, 1));
      yielded.push_back(
          arith::AddIOp::create(builder, stepLoc, stepValue, one));
    }
    YieldOp::create(builder, loc(region.timeLoop->getEndLoc()), yielded);

    // After the loop: its results, then the statements after it.
    builder.setInsertionPointAfter(iterate);
    stepValue = Value();
    for (auto [position, index] : llvm::enumerate(carried))
      current[index] = iterate.getResult(position);
    for (auto [position, k] : llvm::enumerate(loopReductions))
      reductionValues[k] = iterate.getResult(carried.size() + position);
    emitOutside(Phase::After);
  }

  // Write back what the region changed.
  for (auto [index, array] : llvm::enumerate(region.arrays))
    if (array.isWritten)
      StoreOp::create(builder, loc(region.end->loc), current[index],
                      memrefs[index]);
  for (auto [k, value] : llvm::enumerate(reductionValues))
    memref::StoreOp::create(builder, loc(region.end->loc), value,
                            entry->getArgument(firstReductionArg + k),
                            ValueRange());
  func::ReturnOp::create(builder, loc(region.end->loc));
  return func;
}

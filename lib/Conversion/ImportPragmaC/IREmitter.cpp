//===- IREmitter.cpp - Build stencil IR for an analysed region ------------===//
//
// One func.func per region:
//
//   func.func @stencil_main_0(%A: memref<..>, ..., %c0: f32, ..., %steps:
//   index)
//     loads -> stencil.grid -> stencil.iterate {
//       [stencil.exchange of distributed fields read off-centre]
//       calc: stencil.apply (the translated loop body)
//       copy: stencil.apply (destination -> source at the loop point)
//       stencil.yield
//     } -> stores of the arrays the loop changes
//
// The calc body itself is translated by CalcTranslator.cpp.
//
//===----------------------------------------------------------------------===//

#include "IREmitter.h"
#include "CalcTranslator.h"

#include "Stencil/Dialect/Stencil/IR/StencilOps.h"

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

func::FuncOp mlir::stencil::pragma_c::emitRegion(clang::ASTContext &astContext,
                                                 StencilRegion &region,
                                                 ModuleOp module) {
  MLIRContext *context = module.getContext();
  OpBuilder builder(context);
  Block tempBlock;
  CalcTranslator calc(astContext, region, context, &tempBlock);
  auto loc = [&](clang::SourceLocation at) { return calc.loc(at); };

  // Translate the calc body first: it decides which fields and scalars the
  // region reads and which variables it reduces into.
  if (!calc.translate(region.calcNest.body))
    return {};
  // A run-time bound is read once, on entry; a variable the region
  // reduces into changes.
  for (const RuntimeBound &bound : region.runtimeBounds) {
    const LoopRange &loop = region.calcNest.loops[bound.axis];
    const clang::Expr *expr = (bound.isUpper ? loop.upper : loop.lower).expr;
    for (const RegionReduction &reduction : region.reductions) {
      bool reads = false;
      walkStmts(expr, [&](const clang::Stmt *stmt) {
        if (auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(stmt))
          reads |= ref->getDecl() == reduction.decl;
      });
      if (reads) {
        reportError(astContext.getDiagnostics(), expr->getBeginLoc(),
                    "the bound of the loop over '" + loop.var->getName().str() +
                        "' reads '" + reduction.decl->getName().str() +
                        "', which the calc section reduces into");
        return {};
      }
    }
  }

  // Each reset sets a reduction variable; its value is computed once, before
  // the time loop, from constants and captured scalars.
  Block resetBlock;
  CalcTranslator resets(astContext, region, context, &resetBlock);
  SmallVector<Value> resetValues(region.reductions.size());
  for (const ResetStatement &reset : region.resets) {
    auto it = llvm::find_if(region.reductions, [&](const RegionReduction &r) {
      return r.decl == reset.var;
    });
    if (it == region.reductions.end()) {
      reportError(astContext.getDiagnostics(), reset.assign->getBeginLoc(),
                  "'" + reset.var->getName().str() +
                      "' is assigned in the time loop but the calc section "
                      "does not reduce into it; before the calc nest, the "
                      "time loop may only reset reduction variables");
      return {};
    }
    if (it->reset) {
      reportError(astContext.getDiagnostics(), reset.assign->getBeginLoc(),
                  "'" + reset.var->getName().str() +
                      "' is reset twice in one step");
      reportNote(astContext.getDiagnostics(), it->reset->assign->getBeginLoc(),
                 "first reset here");
      return {};
    }
    it->reset = &reset;
    Value value =
        resets.translateValue(reset.assign->getRHS(), reset.var->getType());
    if (!value)
      return {};
    resetValues[it - region.reductions.begin()] = value;
  }
  for (auto [index, array] : llvm::enumerate(region.arrays))
    if (!array.isSource && !calc.written.count(index)) {
      reportError(astContext.getDiagnostics(), array.loc,
                  "destination '" + array.getDisplayName() +
                      "' is never written by the calc section");
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
    return array.isDouble ? Type(builder.getF64Type())
                          : Type(builder.getF32Type());
  };
  auto fieldType = [&](const RegionArray &array) {
    return FieldType::get(context, region.shape, elementType(array),
                          decomposition);
  };

  // Signature: arrays, captured scalars, step count.
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  for (const RegionArray &array : region.arrays) {
    argTypes.push_back(MemRefType::get(region.shape, elementType(array)));
    argLocs.push_back(loc(array.loc));
  }
  DenseMap<const clang::VarDecl *, unsigned> scalarArgIndex;
  auto scalarType = [&](const clang::VarDecl *decl) -> Type {
    for (auto [translator, block] :
         {std::pair{&calc, &tempBlock}, std::pair{&resets, &resetBlock}})
      for (auto [i, source] : llvm::enumerate(translator->argumentSources))
        if (source.scalar == decl)
          return block->getArgument(i).getType();
    llvm_unreachable("a captured scalar is an argument of a translated block");
  };
  for (const CapturedScalar &scalar : region.scalars) {
    scalarArgIndex[scalar.decl] = argTypes.size();
    argTypes.push_back(scalarType(scalar.decl));
    argLocs.push_back(loc(scalar.decl->getLocation()));
  }
  // Reduction variables by address: loaded before the loop, stored after.
  unsigned firstReductionArg = argTypes.size();
  for (auto [reduction, contribution] :
       llvm::zip_equal(region.reductions, calc.contributions)) {
    argTypes.push_back(MemRefType::get({}, contribution.getType()));
    argLocs.push_back(loc(reduction.decl->getLocation()));
  }
  // The run-time bounds of the calc nest.
  unsigned firstBoundArg = argTypes.size();
  for (const RuntimeBound &bound : region.runtimeBounds) {
    const LoopRange &loop = region.calcNest.loops[bound.axis];
    argTypes.push_back(builder.getIndexType());
    argLocs.push_back(
        loc((bound.isUpper ? loop.upper : loop.lower).expr->getBeginLoc()));
  }
  argTypes.push_back(builder.getIndexType());
  argLocs.push_back(loc(region.timeLoop->getBeginLoc()));

  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(builder, loc(region.begin->loc), region.name,
                                   builder.getFunctionType(argTypes, {}));
  StencilDialect::MaxStepsAttrHelper(builder.getContext())
      .setAttr(func, builder.getI64IntegerAttr(region.step->maxSteps));
  Block *entry = builder.createBlock(&func.getBody(), {}, argTypes, argLocs);
  Value steps = entry->getArguments().back();

  // The calc grid's bounds first: a distributed function needs them before
  // its first stencil op.
  SmallVector<OpFoldResult, 3> lower, upper;
  for (const LoopRange &loop : region.calcNest.loops)
    for (auto [bound, bounds] :
         {std::pair{&loop.lower, &lower}, std::pair{&loop.upper, &upper}})
      if (bound->isConstant())
        bounds->push_back(builder.getIndexAttr(*bound->value));
      else
        bounds->push_back(Value());
  for (auto [k, bound] : llvm::enumerate(region.runtimeBounds))
    (bound.isUpper ? upper : lower)[bound.axis] =
        entry->getArgument(firstBoundArg + k);
  // A C loop whose upper bound lies below its lower one runs no iteration:
  // an empty grid, [lower, lower).
  for (unsigned axis = 0; axis < region.getRank(); ++axis) {
    const LoopRange &loop = region.calcNest.loops[axis];
    if (loop.lower.isConstant() && loop.upper.isConstant())
      continue;
    Location boundLoc = loc((loop.upper.isConstant() ? loop.lower : loop.upper)
                                .expr->getBeginLoc());
    Value low = getValueOrCreateConstantIndexOp(builder, boundLoc, lower[axis]);
    Value high =
        getValueOrCreateConstantIndexOp(builder, boundLoc, upper[axis]);
    upper[axis] =
        arith::MaxSIOp::create(builder, boundLoc, low, high).getResult();
  }
  // Loads, then the grid of the calc loop nest.
  SmallVector<Value> loaded;
  for (auto [index, array] : llvm::enumerate(region.arrays))
    loaded.push_back(LoadOp::create(builder, loc(array.loc), fieldType(array),
                                    entry->getArgument(index)));
  Value grid = GridOp::create(builder, loc(region.calc->loc), lower, upper);

  // Exchange widths: the halo clause, or the radius at which the field is
  // read, along the distributed axes.
  auto exchangeWidths = [&](unsigned arrayIndex) {
    SmallVector<int64_t, 3> widths(region.getRank(), 0);
    auto it = calc.radius.find(arrayIndex);
    if (!decomposition || it == calc.radius.end())
      return widths;
    std::optional<int64_t> halo =
        region.halo ? region.halo->haloWidth : region.distribute->haloWidth;
    for (unsigned axis = 0; axis < region.getRank(); ++axis)
      if (decomposition.isDistributed(axis) && it->second[axis] > 0)
        widths[axis] =
            halo ? std::max(*halo, it->second[axis]) : it->second[axis];
    return widths;
  };
  auto maybeExchange = [&](Value field, unsigned arrayIndex) -> Value {
    SmallVector<int64_t, 3> widths = exchangeWidths(arrayIndex);
    if (llvm::all_of(widths, [](int64_t w) { return w == 0; }))
      return field;
    return ExchangeOp::create(builder, loc(region.distribute->loc), field,
                              builder.getDenseI64ArrayAttr(widths));
  };

  // Read-only sources never change: refresh their halo once, before the loop.
  SmallVector<Value> readOnly(region.arrays.size());
  for (auto [index, array] : llvm::enumerate(region.arrays))
    if (!array.isCarried())
      readOnly[index] = maybeExchange(loaded[index], index);

  // The reduction variables' values before the loop, and the reset values.
  SmallVector<Value> reductionInits;
  for (auto [k, reduction] : llvm::enumerate(region.reductions))
    reductionInits.push_back(memref::LoadOp::create(
        builder, loc(reduction.loc), entry->getArgument(firstReductionArg + k),
        ValueRange()));
  for (auto [i, source] : llvm::enumerate(resets.argumentSources))
    resetBlock.getArgument(i).replaceAllUsesWith(
        entry->getArgument(scalarArgIndex[source.scalar]));
  entry->getOperations().splice(entry->end(), resetBlock.getOperations());
  builder.setInsertionPointToEnd(entry);

  // The time loop carries every array it changes, then the reduction
  // variables.
  SmallVector<unsigned> carried;
  SmallVector<Value> inits;
  for (auto [index, array] : llvm::enumerate(region.arrays))
    if (array.isCarried()) {
      carried.push_back(index);
      inits.push_back(loaded[index]);
    }
  llvm::append_range(inits, reductionInits);
  auto iterate = IterateOp::create(builder, loc(region.timeLoop->getBeginLoc()),
                                   steps, inits);
  DenseMap<unsigned, Value> current;
  for (auto [position, index] : llvm::enumerate(carried))
    current[index] = iterate.getBodyBlock()->getArgument(position);
  // A reduction starts from its reset value, or accumulates across steps
  // from the value the loop carries.
  SmallVector<Value> reduceInits;
  SmallVector<ReductionKind> kinds;
  for (auto [k, reduction] : llvm::enumerate(region.reductions)) {
    reduceInits.push_back(
        resetValues[k]
            ? resetValues[k]
            : Value(iterate.getBodyBlock()->getArgument(carried.size() + k)));
    kinds.push_back(reduction.kind);
  }

  builder.setInsertionPointToStart(iterate.getBodyBlock());
  SmallVector<Value> inputs;
  for (auto [i, source] : llvm::enumerate(calc.argumentSources)) {
    if (source.scalar) {
      inputs.push_back(entry->getArgument(scalarArgIndex[source.scalar]));
      continue;
    }
    unsigned index = *source.array;
    inputs.push_back(region.arrays[index].isCarried()
                         ? maybeExchange(current[index], index)
                         : readOnly[index]);
    // Inside the apply, fields have the region's (possibly distributed)
    // type.
    tempBlock.getArgument(i).setType(inputs.back().getType());
  }
  SmallVector<unsigned> destinations;
  SmallVector<Value> outputs, returned;
  for (auto [index, array] : llvm::enumerate(region.arrays))
    if (!array.isSource) {
      destinations.push_back(index);
      outputs.push_back(current[index]);
      returned.push_back(calc.written[index]);
    }
  llvm::append_range(returned, calc.contributions);
  auto calcApply = ApplyOp::create(builder, loc(region.calc->loc), grid, inputs,
                                   outputs, reduceInits, kinds);
  Block *calcBody = calcApply.getBodyBlock();
  for (auto [from, to] :
       llvm::zip(tempBlock.getArguments(), calcBody->getArguments()))
    from.replaceAllUsesWith(to);
  calcBody->getOperations().splice(calcBody->end(), tempBlock.getOperations());
  builder.setInsertionPointToEnd(calcBody);
  ReturnOp::create(builder, loc(region.calc->loc), returned);
  builder.setInsertionPointAfter(calcApply);
  for (auto [position, index] : llvm::enumerate(destinations))
    current[index] = calcApply.getResult(position);

  // Copy section: every source that is copied into takes its destination's
  // new values on the grid.
  SmallVector<unsigned> copiedSources;
  SmallVector<Value> copyInputs, copyOutputs;
  for (auto [index, array] : llvm::enumerate(region.arrays))
    if (array.copiedFrom) {
      copiedSources.push_back(index);
      copyInputs.push_back(current[*array.copiedFrom]);
      copyOutputs.push_back(current[index]);
    }
  if (!copiedSources.empty()) {
    auto copyApply = ApplyOp::create(builder, loc(region.copy->loc), grid,
                                     copyInputs, copyOutputs);
    OpBuilder body = OpBuilder::atBlockEnd(copyApply.getBodyBlock());
    SmallVector<int64_t, 3> zero(region.getRank(), 0);
    SmallVector<Value> values;
    for (BlockArgument argument : copyApply.getBodyBlock()->getArguments())
      values.push_back(AccessOp::create(body, loc(region.copy->loc), argument,
                                        body.getDenseI64ArrayAttr(zero)));
    ReturnOp::create(body, loc(region.copy->loc), values);
    for (auto [position, index] : llvm::enumerate(copiedSources))
      current[index] = copyApply.getResult(position);
  }

  SmallVector<Value> yielded;
  for (unsigned index : carried)
    yielded.push_back(current[index]);
  llvm::append_range(yielded, calcApply.getReductionResults());
  YieldOp::create(builder, loc(region.timeLoop->getEndLoc()), yielded);

  // Write back what the loop changed.
  builder.setInsertionPointAfter(iterate);
  for (auto [position, index] : llvm::enumerate(carried))
    StoreOp::create(builder, loc(region.end->loc), iterate.getResult(position),
                    entry->getArgument(index));
  for (unsigned k = 0; k < region.reductions.size(); ++k)
    memref::StoreOp::create(
        builder, loc(region.end->loc), iterate.getResult(carried.size() + k),
        entry->getArgument(firstReductionArg + k), ValueRange());
  func::ReturnOp::create(builder, loc(region.end->loc));
  return func;
}

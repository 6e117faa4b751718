//===- TimeLoops.cpp - Time loops as pointer swaps and time blocks --------===//
//
// A time loop in the copy form of seed 000 Fig. 4 (calc into the
// destinations, copy them back into the sources) runs as a pointer swap,
// so each step moves half the data. Swapping is valid when a destination's
// boundary ring equals its source's, so before the loop each destination's
// ring is saved and given the source's; after it both arrays get the last
// interior (the C program ends with source == destination on the grid) and
// the destination its own ring back. Where a time block runs the last step,
// the backend may write the last interior into both arrays itself
// (TimeBlock::finalStore), sparing that copy's pass over the grid. Zero
// steps leave both arrays as they were.
//
// With a schedule's time_block T > 1 the loop first runs whole blocks of T
// steps, which the backend emits; the remaining steps run one at a time, or,
// on backends that take a block's depth at run time, in one more block, the
// steps spread evenly over the blocks (a lone remaining step runs alone).
// A calc's reductions matter at the last step only: where the backend can,
// each block computes them in its last level and the loop's scalars come
// out of the blocks; elsewhere the blocks skip them and the last step runs
// alone. In a distributed function each step's points are split by the
// ExchangeLowering, which overlaps the halo exchange with the interior; a
// time block there starts with an exchange at least T x radius deep and its
// steps compute the neighbours' points that its later steps read, as deep
// halos do.
//
// A sweep chain (SweepChain.h) runs in blocks too, one level per sweep,
// its last sweep's fields swapped with spare buffers of the same rings;
// the steps the blocks leave, its last among them, run as the rotating
// loop.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::lowering;

void FunctionLowering::copyRing(OpBuilder &builder, Location loc, Value source,
                                Value target, ValueRange lower,
                                ValueRange upper) {
  forEachRingSlabOf(builder, loc, source, lower, upper,
                    [&](OpBuilder &b, ValueRange from, ValueRange to) {
                      backend.copyBox(b, loc, source, target, from, to, {}, {});
                    });
}

SmallVector<BoxBuffer>
FunctionLowering::allocateRing(OpBuilder &builder, Location loc, Value buffer,
                               ValueRange lower, ValueRange upper) {
  SmallVector<BoxBuffer> slabs;
  // Slabs of run-time extent (a run-time ring, or a field of run-time
  // shape, which the slabs span), where the backend has no such buffers,
  // share one buffer like the field, each cell where it is.
  bool dynamic = !llvm::cast<MemRefType>(buffer.getType()).hasStaticShape() ||
                 llvm::any_of(llvm::concat<const Value>(lower, upper),
                              [](Value v) { return !getConstantIntValue(v); });
  Value whole;
  if (dynamic && !backend.allocatesDynamicBoxes())
    whole = backend.allocateLike(builder, loc, buffer);
  forEachRingSlabOf(
      builder, loc, buffer, lower, upper,
      [&](OpBuilder &b, ValueRange from, ValueRange to) {
        slabs.push_back(whole ? BoxBuffer{whole, {}}
                              : backend.allocateBox(b, loc, buffer, from, to));
      });
  return slabs;
}

void FunctionLowering::copyRingSlabs(OpBuilder &builder, Location loc,
                                     ArrayRef<BoxBuffer> slabs, Value buffer,
                                     ValueRange lower, ValueRange upper,
                                     bool restore) {
  const BoxBuffer *slab = slabs.begin();
  forEachRingSlabOf(builder, loc, buffer, lower, upper,
                    [&](OpBuilder &b, ValueRange from, ValueRange to) {
                      const BoxBuffer &saved = *slab++;
                      if (restore)
                        backend.copyBox(b, loc, saved.buffer, buffer, from, to,
                                        /*sourceShift=*/saved.origin, {});
                      else
                        backend.copyBox(b, loc, buffer, saved.buffer, from, to,
                                        {}, /*targetShift=*/saved.origin);
                    });
}

FunctionLowering::LoweredTimeBlocks FunctionLowering::lowerTimeBlocks(
    OpBuilder &builder, IterateOp iterate, const TimeLoopPlan &loop,
    ArrayRef<Value> buffersIn, Value steps, Value zero, Value one,
    StepPartition *partition,
    function_ref<Value(unsigned stage, unsigned pair)> ringHolder,
    bool storeFinalState, const RowEndComparison *rowEnds) {
  const TimeBlockPlan &blocks = loop.blocks;
  // The scalars a copy-form loop carries: per scalar, its init and the
  // calc's reduction that it is.
  SmallVector<Value> scalars;
  SmallVector<unsigned> scalarReductions;
  if (loop.section) {
    auto yield = llvm::cast<YieldOp>(iterate.getBodyBlock()->getTerminator());
    ApplyOp sectionCalc = loop.section->calc;
    unsigned outputs = sectionCalc.getOutputs().size();
    for (unsigned index : loop.section->scalars) {
      scalars.push_back(iterate.getInits()[index]);
      auto result = llvm::cast<OpResult>(yield.getValues()[index]);
      scalarReductions.push_back(result.getResultNumber() - outputs);
    }
  }
  if (blocks.timeBlock <= 1)
    return {SmallVector<Value>(buffersIn), scalars, steps, Value(), Value()};
  Location loc = iterate.getLoc();
  unsigned count = blocks.elementTypes.size();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  // The blocks compute the reductions in their last level where the
  // backend can and no exchange partitions the steps (a rank's blocks then
  // compute some of its neighbours' points too): then every step may run
  // in a block.
  // The reductions' inits come from before the loop, where the blocks are:
  // a copy section's body holds its calc and copy only.
  ApplyOp firstCalc = blocks.stages.front().calc;
  bool reducesInBlocks =
      blocks.reduces && !partition && backend.reducesInTimeBlocks(blocks);
  assert(llvm::none_of(firstCalc.getReduceInits(),
                       [&](Value init) {
                         return iterate->isAncestor(
                             init.getParentBlock()->getParentOp());
                       }) &&
         "a copy section's reductions start from values before the loop");
  bool reductionStepAlone = blocks.reduces && !reducesInBlocks;
  bool lastStepAlone = blocks.lastStepAlone || reductionStepAlone;
  SmallVector<ReductionKind> reductionKinds;
  if (reducesInBlocks)
    reductionKinds = firstCalc.getReductionKinds();
  Value blockSize = constant(blocks.timeBlock);
  Value blockedSteps = steps;
  if (lastStepAlone)
    blockedSteps = arith::MaxSIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, steps, one), zero);
  Value blockCount =
      arith::DivSIOp::create(builder, loc, blockedSteps, blockSize);
  Value blocked = arith::MulIOp::create(builder, loc, blockCount, blockSize);
  Value remainder = arith::SubIOp::create(builder, loc, blockedSteps, blocked);
  Value singleSteps =
      lastStepAlone
          ? arith::SubIOp::create(builder, loc, steps, blocked).getResult()
          : remainder;
  // Backends that take a block's depth at run time run the remaining steps
  // (the last one apart, when it runs alone), if more than one, in one more
  // block, and spread the steps evenly over the blocks: T is the deepest
  // block the tuner allows, and a block costs more per step the deeper it
  // is (its overlaps grow with the depth), while its fixed costs do not
  // shrink with it: heat3d's 16 steps at T = 7 ran 6.5% faster as blocks of
  // 6, 5 and 5 than of 7, 7 and 2 (docs/Tuning.md, "Even blocks"). Not
  // where reductions run in the last step alone: the remaining steps run
  // alone like it (the blocks are then all of full depth, but still given
  // it at run time: the same scheme runs).
  bool runtimeDepth = backend.runsShallowTimeBlocks(blocks);
  bool shallow = runtimeDepth && !reductionStepAlone;
  // The blocks' steps plus blockCount - 1: the i-th block (from 0) is
  // (stepsRoundedUp - i) / blockCount deep, the first ones a step deeper
  // where the steps do not divide evenly.
  Value stepsRoundedUp, lastBlock;
  if (shallow) {
    Value deepRemainder = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sge, remainder, constant(2));
    Value stepsInBlocks = arith::SelectOp::create(builder, loc, deepRemainder,
                                                  blockedSteps, blocked);
    blockCount = arith::AddIOp::create(
        builder, loc, blockCount,
        arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(),
                                     deepRemainder));
    singleSteps = arith::SelectOp::create(
        builder, loc, deepRemainder, lastStepAlone ? one : zero, singleSteps);
    lastBlock = arith::SubIOp::create(builder, loc, blockCount, one);
    stepsRoundedUp =
        arith::AddIOp::create(builder, loc, stepsInBlocks, lastBlock);
  }
  // The blocks run the loop's last step when at least one runs and no
  // single step follows (never with a last step alone).
  bool storesFinal = storeFinalState && !partition && !lastStepAlone &&
                     backend.storesFinalState(blocks);
  Value noSingleStep;
  if (storesFinal || reducesInBlocks)
    noSingleStep = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         singleSteps, zero);
  Value storedFinalState;
  if (storesFinal) {
    Value someBlock = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sgt, blockCount, zero);
    storedFinalState =
        arith::AndIOp::create(builder, loc, noSingleStep, someBlock);
  }
  // The scalars follow the buffers where the blocks compute them.
  SmallVector<Value> blockInits(buffersIn);
  if (reducesInBlocks)
    llvm::append_range(blockInits, scalars);
  auto blockLoop =
      scf::ForOp::create(builder, loc, zero, blockCount, one, blockInits);
  Block *blockBody = blockLoop.getBody();
  if (!blockBody->empty())
    blockBody->getTerminator()->erase();
  OpBuilder inBlock = OpBuilder::atBlockEnd(blockBody);
  ValueRange iterArgs = blockLoop.getRegionIterArgs().take_front(2 * count);
  auto inputBuffer = [&](unsigned stage, unsigned input) -> Value {
    ApplyOp calc = blocks.stages[stage].calc;
    Value value = calc.getInputs()[input];
    return llvm::isa<FieldType>(value.getType()) ? getBuffer(value) : Value();
  };
  ValueRange sources = iterArgs.take_front(count);
  auto holder = [&](unsigned stage, unsigned pair) -> Value {
    // The copy form's destinations have their sources' rings; a chain's
    // last stage writes the fields the first reads, and the earlier ones
    // fields of their own, which the blocks do not write.
    if (stage + 1 == blocks.getNumStages())
      return sources[pair];
    return ringHolder(stage, pair);
  };
  TimeBlock block{
      blocks,      loop.schedule, sources, iterArgs.drop_front(count),
      inputBuffer, holder,        {},      {}};
  if (partition) {
    // The exchanged fields are carried: their buffers are the block's.
    setLoopBuffers(iterate, iterArgs, count);
    partition->emitBeforeTimeBlock(inBlock, getExchangedBuffers(*loop.section));
    block.ringLow = partition->getRingLow();
    block.ringHigh = partition->getRingHigh();
  }
  Value depth;
  if (shallow) {
    // The loop runs only where blockCount > 0.
    Value share = arith::SubIOp::create(inBlock, loc, stepsRoundedUp,
                                        blockLoop.getInductionVar());
    depth = arith::DivUIOp::create(inBlock, loc, share, blockCount);
  } else if (runtimeDepth) {
    depth = blockSize;
  }
  Value isLast;
  if (storedFinalState || reducesInBlocks) {
    Value lastIndex =
        lastBlock ? lastBlock
                  : arith::SubIOp::create(inBlock, loc, blockCount, one);
    isLast = arith::CmpIOp::create(inBlock, loc, arith::CmpIPredicate::eq,
                                   blockLoop.getInductionVar(), lastIndex);
  }
  if (storedFinalState)
    block.finalStore =
        arith::AndIOp::create(inBlock, loc, isLast, storedFinalState);
  block.reductions = reductionKinds;
  if (reducesInBlocks)
    block.reductionsMatter =
        arith::AndIOp::create(inBlock, loc, isLast, noSingleStep);
  Value isFirst;
  if (rowEnds) {
    isFirst = arith::CmpIOp::create(inBlock, loc, arith::CmpIPredicate::eq,
                                    blockLoop.getInductionVar(), zero);
    block.comparesRowEnds = isFirst;
    block.rowEndFlags = rowEnds->flags;
  }
  SmallVector<Value> partials =
      backend.emitTimeBlock(inBlock, loc, block, depth);
  if (rowEnds) {
    auto ifFirst = scf::IfOp::create(inBlock, loc, isFirst);
    OpBuilder then = ifFirst.getThenBodyBuilder();
    rowEnds->afterFirstBlock(then);
  }
  SmallVector<Value> yielded(iterArgs.drop_front(count));
  llvm::append_range(yielded, iterArgs.take_front(count));
  // Each block's reductions replace the last's: the loop's are the last
  // step's, which the last block runs unless a single step follows (the
  // other blocks may skip them and return the identities). They combine as
  // a single step's do: this rank's points, then all ranks' (a distributed
  // loop whose calc reads no halo has no partition), then the init.
  if (reducesInBlocks) {
    SmallVector<Value> reduced;
    for (auto [kind, init, partial] : llvm::zip_equal(
             reductionKinds, firstCalc.getReduceInits(), partials)) {
      Value value = partial;
      if (distributed)
        value = exchanges->combineAcrossRanks(inBlock, loc, kind, value);
      reduced.push_back(
          createReductionCombine(inBlock, loc, kind, init, value));
    }
    for (unsigned reduction : scalarReductions)
      yielded.push_back(reduced[reduction]);
  }
  scf::YieldOp::create(inBlock, loc, yielded);
  ValueRange results = blockLoop.getResults();
  SmallVector<Value> buffersOut(results.take_front(2 * count));
  if (reducesInBlocks)
    scalars.assign(results.begin() + 2 * count, results.end());
  return {buffersOut, scalars, singleSteps, storedFinalState, blockCount};
}

void FunctionLowering::lowerChainLoop(IterateOp iterate,
                                      const TimeLoopPlan &loop) {
  const SweepChain &chain = *loop.chain;
  Location loc = iterate.getLoc();
  // The blocks read the constants and grids of the step before it.
  for (Operation *op : chain.invariantOps)
    op->moveBefore(iterate);
  OpBuilder builder(iterate);
  // A chain carries fields only (SweepChain.h). The blocks read the fields
  // the loop does not change through their iter_args' buffers too.
  SmallVector<Value> initBuffers;
  for (auto [index, init] : llvm::enumerate(iterate.getInits())) {
    initBuffers.push_back(getBuffer(init));
    setBuffer(plan.getLoopBuffer(iterate, index), initBuffers.back());
  }
  SmallVector<Value> lower, upper;
  ApplyOp first = chain.stages.front().apply;
  getGridBounds(builder, loc, first.getGridOp(), lower, upper);
  // The last stage writes the fields the first reads: its last level in a
  // block writes into spare buffers with the same rings, which the block
  // then swaps with the fields' own. The other stages' fields keep their
  // rings and get their last values from the last step, which runs alone.
  ArrayRef<unsigned> state = chain.stages.back().carried;
  SmallVector<Value> blockBuffers, spares;
  for (unsigned position : state)
    blockBuffers.push_back(initBuffers[position]);
  for (unsigned position : state) {
    Value field = initBuffers[position];
    Value spare = backend.allocateLike(builder, loc, field);
    copyRing(builder, loc, field, spare, lower, upper);
    spares.push_back(spare);
    blockBuffers.push_back(spare);
  }
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value steps = arith::MaxSIOp::create(builder, loc, iterate.getSteps(), zero);
  LoweredTimeBlocks blocks = lowerTimeBlocks(
      builder, iterate, loop, blockBuffers, steps, zero, one,
      /*partition=*/nullptr, [&](unsigned stage, unsigned pair) {
        return initBuffers[chain.stages[stage].carried[pair]];
      });
  SmallVector<Value> loopInits(initBuffers);
  for (auto [pair, position] : llvm::enumerate(state))
    loopInits[position] = blocks.buffers[pair];
  scf::ForOp forOp = emitRotatingLoop(iterate, loopInits, blocks.singleSteps);
  // The loop yields in place: its results are the fields' own buffers.
  builder.setInsertionPointAfter(forOp);
  for (unsigned pair = 0; pair < state.size(); ++pair) {
    Value latest = forOp.getResult(state[pair]);
    Value own = initBuffers[state[pair]];
    ifDifferent(builder, loc, latest, own, {}, [&](OpBuilder &b) {
      backend.copyBox(b, loc, latest, own, lower, upper, {}, {});
    });
    backend.freeBuffer(builder, loc, spares[pair]);
  }
}

void FunctionLowering::lowerSwapLoop(IterateOp iterate,
                                     const TimeLoopPlan &loop) {
  const CopySection &section = *loop.section;
  Location loc = iterate.getLoc();
  unsigned count = section.pairs.size();
  SmallVector<Value> sources, destinations;
  for (auto [source, destination] : section.pairs) {
    sources.push_back(getBuffer(iterate.getInits()[source]));
    destinations.push_back(getBuffer(iterate.getInits()[destination]));
  }

  OpBuilder builder(iterate);
  SmallVector<Value> lower, upper;
  ApplyOp calc = section.calc;
  getGridBounds(builder, loc, calc.getGridOp(), lower, upper);
  // Rings usually agree already (C programs set both arrays' boundaries
  // alike): then the host skips saving, aligning and restoring them, a
  // strided pass over every row each. The first block reads no
  // destination's ring, and its last level has each row's lines in the
  // cache: where the backend can, that level compares the row ends, a
  // line each, whose strided pass before the loop, which the prefetchers
  // do not follow, cost heat3d 256^3 5% of 20 steps (docs/stencilcc.md,
  // "Rings compared in the first block").
  bool rowEndsInBlock = !distributed && loop.blocks.timeBlock > 1 &&
                        backend.comparesRowEnds(loop.blocks);
  SmallVector<SmallVector<BoxBuffer>> savedRings;
  SmallVector<Value> ringDiffers;
  auto alignRing = [&](OpBuilder &b, unsigned k) {
    copyRingSlabs(b, loc, savedRings[k], destinations[k], lower, upper,
                  /*restore=*/false);
    copyRing(b, loc, sources[k], destinations[k], lower, upper);
  };
  for (unsigned k = 0; k < count; ++k) {
    Value source = sources[k], destination = destinations[k];
    savedRings.push_back(allocateRing(builder, loc, destination, lower, upper));
    Value differ = backend.ringsDiffer(
        builder, loc, source, destination, lower, upper,
        rowEndsInBlock ? RingCells::AcrossRows : RingCells::All);
    assert((differ || !rowEndsInBlock) &&
           "a backend that compares row ends compares rings");
    ringDiffers.push_back(differ);
    runIf(builder, loc, differ, [&](OpBuilder &b) { alignRing(b, k); });
  }
  // Per pair, an i8 in host memory that holds 1 where the row ends differ;
  // their rings are then aligned after the first block, or before the
  // steps where no block runs. (Rings aligned above have equal ends.)
  SmallVector<Value> rowEndFlags;
  if (rowEndsInBlock)
    for (unsigned k = 0; k < count; ++k)
      rowEndFlags.push_back(createClearedFlag(builder, loc));
  auto alignWhereRowEndsDiffer = [&](OpBuilder &b) {
    for (unsigned k = 0; k < count; ++k)
      runIf(b, loc, isFlagSet(b, loc, rowEndFlags[k]),
            [&](OpBuilder &then) { alignRing(then, k); });
  };
  RowEndComparison rowEnds{rowEndFlags, alignWhereRowEndsDiffer};

  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value steps = arith::MaxSIOp::create(builder, loc, iterate.getSteps(), zero);
  SmallVector<Value> all(sources);
  llvm::append_range(all, destinations);
  // In a distributed function the exchange lowering plans the steps before
  // the loops.
  std::unique_ptr<StepPartition> partition;
  if (!section.exchanges.empty())
    partition = exchanges->planSteps(builder, iterate, loop);
  LoweredTimeBlocks blocks = lowerTimeBlocks(
      builder, iterate, loop, all, steps, zero, one, partition.get(),
      /*ringHolder=*/nullptr,
      /*storeFinalState=*/true, rowEndsInBlock ? &rowEnds : nullptr);
  if (rowEndsInBlock) {
    // Where no block ran, the row ends are compared before the steps that
    // run alone: a step may write the destinations' ring cells that share
    // lines with its rows (streamed rows store whole lines, with the
    // source's ring: ApplyLowering::ringSources), and the steps after the
    // first read its ring.
    Value noBlock = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, blocks.blockCount, zero);
    Value someStep = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sgt, blocks.singleSteps, zero);
    Value compare = arith::AndIOp::create(builder, loc, noBlock, someStep);
    runIf(builder, loc, compare, [&](OpBuilder &b) {
      for (unsigned k = 0; k < count; ++k) {
        Value differ = backend.ringsDiffer(b, loc, sources[k], destinations[k],
                                           lower, upper, RingCells::RowEnds);
        assert(differ && "a backend that compares row ends compares rings");
        runIf(b, loc, differ, [&](OpBuilder &then) {
          // Before the loop, in one thread: a plain store.
          Value set =
              arith::ConstantIntOp::create(then, loc, then.getI8Type(), 1);
          memref::StoreOp::create(then, loc, set, rowEndFlags[k], ValueRange{});
          alignRing(then, k);
        });
      }
    });
  }
  // The scalars the loop carries follow the buffers: those the blocks
  // computed, or the loop's inits.
  SmallVector<Value> loopInits(blocks.buffers);
  llvm::append_range(loopInits, blocks.scalars);
  auto forOp = scf::ForOp::create(builder, loc, zero, blocks.singleSteps, one,
                                  loopInits);
  Block *forBody = forOp.getBody();
  if (!forBody->empty())
    forBody->getTerminator()->erase();
  ValueRange iterArgs = forOp.getRegionIterArgs();
  setLoopBuffers(iterate, iterArgs, count);
  Block *body = iterate.getBodyBlock();
  for (auto [s, index] : llvm::enumerate(section.scalars))
    body->getArgument(index).replaceAllUsesWith(iterArgs[2 * count + s]);
  auto yield = llvm::cast<YieldOp>(body->getTerminator());
  forBody->getOperations().splice(forBody->end(), body->getOperations(),
                                  Block::iterator(calc));
  toErase.push_back(iterate);
  toErase.push_back(section.copy);
  toErase.push_back(yield);

  // The rings were aligned above (their row ends, where the first block
  // compares them, after that block or before the steps where no block
  // runs), and no sweep writes them but with the values they already hold,
  // so each step's destination ring equals its source's. Not so for a
  // distributed loop, whose exchanges refresh the sources' halos only.
  SmallVector<Value> ringSources;
  if (section.exchanges.empty())
    for (Value output : calc.getOutputs()) {
      Value buffer = getBuffer(output);
      for (unsigned k = 0; k < count; ++k)
        if (iterArgs[count + k] == buffer)
          ringSources.push_back(iterArgs[k]);
    }
  auto emitStep = [&](OpBuilder &b, ValueRange gridLower, ValueRange gridUpper,
                      BoxFn emitBox) {
    partition->emitStep(b, forOp.getInductionVar(), gridLower, gridUpper,
                        getExchangedBuffers(section), emitBox);
  };
  lowerApply(calc, partition ? BoxPartition(emitStep) : BoxPartition(),
             ringSources);
  // Swap: the new values become the sources of the next step; the scalars
  // are the calc's reductions (lowered above).
  OpBuilder atEnd = OpBuilder::atBlockEnd(forBody);
  SmallVector<Value> swapped(iterArgs.drop_front(count).take_front(count));
  llvm::append_range(swapped, iterArgs.take_front(count));
  for (unsigned index : section.scalars)
    swapped.push_back(yield.getValues()[index]);
  scf::YieldOp::create(atEnd, loc, swapped);
  for (auto [s, index] : llvm::enumerate(section.scalars))
    iterate.getResult(index).replaceAllUsesWith(forOp.getResult(2 * count + s));

  builder.setInsertionPointAfter(forOp);
  Value ranSteps = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::sgt, steps, zero);
  // Unless the last block left the last interior in both arrays already.
  Value copiesInterior;
  if (blocks.storedFinalState) {
    Value yes = arith::ConstantIntOp::create(builder, loc, 1, 1);
    copiesInterior =
        arith::XOrIOp::create(builder, loc, blocks.storedFinalState, yes);
    ranSteps = arith::AndIOp::create(builder, loc, ranSteps, copiesInterior);
  }
  for (unsigned k = 0; k < count; ++k) {
    Value latest = forOp.getResult(k);
    ifDifferent(
        builder, loc, latest, sources[k], copiesInterior, [&](OpBuilder &b) {
          backend.copyBox(b, loc, latest, sources[k], lower, upper, {}, {});
        });
    ifDifferent(builder, loc, latest, destinations[k], ranSteps,
                [&](OpBuilder &b) {
                  backend.copyBox(b, loc, latest, destinations[k], lower, upper,
                                  {}, {});
                });
    // A backend that does not compare aligned the ring unconditionally.
    Value aligned = ringDiffers[k];
    if (rowEndsInBlock && aligned)
      aligned = arith::OrIOp::create(builder, loc, aligned,
                                     isFlagSet(builder, loc, rowEndFlags[k]));
    runIf(builder, loc, aligned, [&](OpBuilder &b) {
      copyRingSlabs(b, loc, savedRings[k], destinations[k], lower, upper,
                    /*restore=*/true);
    });
    SmallVector<Value> freed;
    for (const BoxBuffer &slab : savedRings[k])
      if (!llvm::is_contained(freed, slab.buffer)) {
        backend.freeBuffer(builder, loc, slab.buffer);
        freed.push_back(slab.buffer);
      }
  }
}

//===- BufferPlan.cpp - Where the lowering keeps each field ---------------===//
//
// Walks a stencil function in program order, as the lowering will, giving
// each field value a buffer and checking, with what is known at that point,
// that writing in place is legal. Nothing here changes the IR.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/StencilCommon/BufferPlan.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "Stencil/Dialect/Stencil/Analysis/AccessExtents.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stencil;

std::optional<int64_t> TimeBlockPlan::getStaticExtent(unsigned axis) const {
  std::optional<int64_t> low = getConstantIntValue(lower[axis]);
  std::optional<int64_t> high = getConstantIntValue(upper[axis]);
  if (!low || !high)
    return std::nullopt;
  return *high - *low;
}

/// A time loop writes its buffers in place, step after step.
static constexpr llvm::StringLiteral kSharedLoopBuffers =
    "carries two fields in one buffer; this lowering needs distinct buffers";

namespace mlir::stencil {

class BufferPlanner {
public:
  using Buffer = BufferPlan::Buffer;
  using BufferId = BufferPlan::BufferId;

  BufferPlanner(func::FuncOp func, const BufferPlanOptions &options,
                BufferPlan &plan)
      : func(func), options(options), plan(plan) {}

  LogicalResult run() {
    if (failed(checkNesting()))
      return failure();
    return planBlock(func.getBody().front());
  }

private:
  LogicalResult checkNesting();
  LogicalResult planBlock(Block &block);
  LogicalResult planLoad(LoadOp load);
  LogicalResult planApply(ApplyOp apply);
  LogicalResult checkOverwrite(ApplyOp apply, BufferId buffer);
  LogicalResult planIterate(IterateOp iterate);
  LogicalResult planCopySection(IterateOp iterate, TimeLoopPlan &loop);
  void planTimeBlocks(IterateOp iterate, TimeLoopPlan &loop);
  void planChainTimeBlocks(IterateOp iterate, TimeLoopPlan &loop);
  /// The grid, tile and radius of `blocks`, whose stages are set.
  void fillTimeBlockShape(TimeBlockPlan &blocks, GridOp grid,
                          ScheduleAttr schedule);
  LogicalResult planRotatingLoop(IterateOp iterate, TimeLoopPlan &loop);

  BufferId getOwnedBuffer(Buffer::Kind kind, Operation *owner,
                          unsigned position = 0) {
    unsigned result = kind == Buffer::Kind::LoopResult;
    auto [it, inserted] = plan.ownedBuffers.try_emplace(
        std::make_tuple(owner, position, result), plan.buffers.size());
    if (inserted)
      plan.buffers.push_back({kind, owner, position});
    return it->second;
  }
  void assign(Value field, BufferId buffer) {
    plan.bufferOf[field] = buffer;
    fieldsIn[buffer].push_back(field);
  }
  /// The buffer of `field`, which `user` uses; an error when no op of the
  /// function defines it (a field argument of the function).
  FailureOr<BufferId> lookup(Value field, Operation *user) {
    auto it = plan.bufferOf.find(field);
    if (it != plan.bufferOf.end())
      return it->second;
    return user->emitOpError(
        "uses a field that no stencil.load, stencil.apply or stencil.iterate "
        "of this function defines; the lowering gives buffers to those "
        "only (load a memref instead of passing a field)");
  }
  /// The buffers of `fields`, which `user` uses; `shared` is the error when
  /// two of them are one buffer.
  FailureOr<SmallVector<BufferId>>
  lookupDistinct(ValueRange fields, Operation *user, StringRef shared) {
    SmallVector<BufferId> found;
    for (Value field : fields) {
      FailureOr<BufferId> buffer = lookup(field, user);
      if (failed(buffer))
        return failure();
      if (llvm::is_contained(found, *buffer))
        return user->emitOpError(shared);
      found.push_back(*buffer);
    }
    return found;
  }
  /// The region where `buffer` exists at run time.
  Region *getScope(BufferId buffer) const;

  func::FuncOp func;
  const BufferPlanOptions &options;
  BufferPlan &plan;
  /// The fields assigned to each buffer so far, in program order.
  DenseMap<BufferId, SmallVector<Value>> fieldsIn;
  llvm::DenseSet<Value> loadedMemRefs;
};

} // namespace mlir::stencil

LogicalResult BufferPlanner::checkNesting() {
  // Stencil ops live at the function's top level and in time loop bodies
  // (the verifier keeps an apply's body to accesses and its return).
  // Anywhere else (an scf.if, another block) nothing would lower them.
  // Grids and fields become buffers and loops, which no other op could
  // take (func.return, func.call, an scf.for's iter_args).
  WalkResult result = func.walk([&](Operation *op) -> WalkResult {
    if (!llvm::isa<StencilDialect>(op->getDialect())) {
      for (Type type : op->getOperandTypes())
        if (llvm::isa<StencilDialect>(type.getDialect()))
          return op->emitError("'")
                 << op->getName() << "' uses a value of type " << type
                 << ", which only stencil ops may use: the lowering turns "
                    "grids and fields into buffers and loops";
      return WalkResult::advance();
    }
    Operation *parent = op->getParentOp();
    if (llvm::isa<ApplyOp, IterateOp>(parent))
      return WalkResult::advance();
    if (parent == func.getOperation()) {
      if (op->getBlock() == &func.getBody().front())
        return WalkResult::advance();
      return op->emitOpError(
          "lies in a block other than the function's entry block; the "
          "lowering handles stencil ops there and in stencil.iterate "
          "bodies only");
    }
    return op->emitOpError("is nested in '")
           << parent->getName()
           << "'; the lowering handles stencil ops at the top level of a "
              "function and in stencil.iterate bodies only";
  });
  return failure(result.wasInterrupted());
}

Region *BufferPlanner::getScope(BufferId buffer) const {
  const Buffer &info = plan.buffers[buffer];
  switch (info.kind) {
  case Buffer::Kind::MemRef:
    return llvm::cast<LoadOp>(info.owner).getMemref().getParentRegion();
  case Buffer::Kind::LoadCopy:
    return info.owner->getParentRegion();
  case Buffer::Kind::LoopArgument:
    return &llvm::cast<IterateOp>(info.owner).getBody();
  case Buffer::Kind::LoopResult:
    return info.owner->getParentRegion();
  }
  llvm_unreachable("every kind of buffer is handled");
}

LogicalResult BufferPlanner::planBlock(Block &block) {
  for (Operation &op : block) {
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .Case<LoadOp>([&](LoadOp load) { return planLoad(load); })
            .Case<ApplyOp>([&](ApplyOp apply) { return planApply(apply); })
            .Case<IterateOp>(
                [&](IterateOp iterate) { return planIterate(iterate); })
            .Case<StoreOp>([&](StoreOp store) {
              return failure(failed(lookup(store.getField(), store)));
            })
            .Case<WriteRawOp>([&](WriteRawOp write) {
              return failure(failed(lookup(write.getField(), write)));
            })
            .Case<ExchangeOp>([&](ExchangeOp exchange) -> LogicalResult {
              // The identity on one rank's buffer; across ranks, a refresh
              // of its halo in place.
              FailureOr<BufferId> buffer =
                  lookup(exchange.getField(), exchange);
              if (failed(buffer))
                return failure();
              assign(exchange.getResult(), *buffer);
              return success();
            })
            // A yield is planned with its loop; a grid holds no field.
            .Case<YieldOp, GridOp>([](Operation *) { return success(); })
            .Default([](Operation *other) -> LogicalResult {
              assert(!llvm::isa<StencilDialect>(other->getDialect()) &&
                     "every stencil op at this level is planned above");
              return success();
            });
    if (failed(result))
      return failure();
  }
  return success();
}

LogicalResult BufferPlanner::planLoad(LoadOp load) {
  // The first load of a memref works on it in place; a second field from
  // the same memref must not see the first one's in-place updates.
  bool inPlace = options.loadsAliasMemRefs &&
                 loadedMemRefs.insert(load.getMemref()).second;
  assign(load.getResult(),
         getOwnedBuffer(inPlace ? Buffer::Kind::MemRef : Buffer::Kind::LoadCopy,
                        load));
  return success();
}

/// The schedule of `op` (an apply or a time loop), else that of the
/// innermost time loop around it that has one.
static ScheduleAttr getInheritedSchedule(Operation *op) {
  if (auto apply = llvm::dyn_cast<ApplyOp>(op))
    if (ScheduleAttr own = apply.getScheduleAttr())
      return own;
  auto loop = llvm::dyn_cast<IterateOp>(op);
  if (!loop)
    loop = op->getParentOfType<IterateOp>();
  for (; loop; loop = loop->getParentOfType<IterateOp>())
    if (ScheduleAttr schedule = loop.getScheduleAttr())
      return schedule;
  return {};
}

/// Whether `user` runs after `op` within one execution of `op`'s block.
static bool isAfter(Operation *user, Operation *op) {
  Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*user);
  return ancestor && ancestor != op && op->isBeforeInBlock(ancestor);
}

LogicalResult BufferPlanner::checkOverwrite(ApplyOp apply, BufferId buffer) {
  // The output's buffer is overwritten on the grid: every field living in
  // it must be dead from here on.
  for (Value field : fieldsIn.lookup(buffer))
    for (Operation *user : field.getUsers())
      if (isAfter(user, apply)) {
        InFlightDiagnostic diag =
            apply.emitOpError("overwrites the buffer of a field that is "
                              "still used afterwards; this lowering needs "
                              "the output to be dead after the apply");
        diag.attachNote(user->getLoc()) << "later use here";
        return failure();
      }
  // In a loop, writing into a field defined outside the loop destroys the
  // value the next iteration reads again.
  auto loop = apply->getParentOfType<IterateOp>();
  if (loop && !loop.getBody().isAncestor(getScope(buffer)))
    return apply.emitOpError(
        "writes a field defined outside the enclosing time loop; carry it "
        "through the loop's iter_args instead");
  return success();
}

LogicalResult BufferPlanner::planApply(ApplyOp apply) {
  if (!apply.getGridOp())
    return apply.emitOpError("needs its grid from a stencil.grid op");
  FailureOr<SmallVector<BufferId>> outputBuffers = lookupDistinct(
      apply.getOutputs(), apply,
      "writes two outputs into one buffer; give each output a field of its "
      "own");
  if (failed(outputBuffers))
    return failure();
  for (BufferId buffer : *outputBuffers)
    if (failed(checkOverwrite(apply, buffer)))
      return failure();
  // Reading a point that another work item already overwrote is a race:
  // inputs sharing an output's buffer may be read only at the centre, or
  // off the grid (a boundary row reading the row beside it): along an
  // axis of constant bounds, an offset that leaves the grid from every
  // point reads cells the apply never writes.
  GridOp grid = apply.getGridOp();
  auto leavesGrid = [&](ArrayRef<int64_t> offset) {
    for (auto [axis, o] : llvm::enumerate(offset)) {
      int64_t lower = grid.getStaticLower()[axis];
      int64_t upper = grid.getStaticUpper()[axis];
      if (o == 0 || ShapedType::isDynamic(lower) ||
          ShapedType::isDynamic(upper))
        continue;
      if (lower + o >= upper || upper - 1 + o < lower)
        return true;
    }
    return false;
  };
  Block *body = apply.getBodyBlock();
  for (auto [index, input] : llvm::enumerate(apply.getInputs())) {
    if (!llvm::isa<FieldType>(input.getType()))
      continue;
    FailureOr<BufferId> buffer = lookup(input, apply);
    if (failed(buffer))
      return failure();
    if (!llvm::is_contained(*outputBuffers, *buffer))
      continue;
    for (Operation *user : body->getArgument(index).getUsers()) {
      auto access = llvm::dyn_cast<FieldAccessOpInterface>(user);
      if (access &&
          llvm::any_of(access.getAccessOffset(),
                       [](int64_t o) { return o != 0; }) &&
          !leavesGrid(access.getAccessOffset()))
        return access->emitOpError(
            "reads, at an offset, the buffer its apply writes; this "
            "lowering cannot give the apply a separate output buffer yet");
    }
  }
  for (auto [result, buffer] :
       llvm::zip(apply.getFieldResults(), *outputBuffers))
    assign(result, buffer);
  plan.applySchedules[apply] = getInheritedSchedule(apply);
  return success();
}

LogicalResult BufferPlanner::planIterate(IterateOp iterate) {
  TimeLoopPlan &loop = plan.timeLoops[iterate];
  loop.schedule = getInheritedSchedule(iterate);
  loop.section = matchCopySection(iterate);
  if (loop.section)
    return planCopySection(iterate, loop);
  return planRotatingLoop(iterate, loop);
}

LogicalResult BufferPlanner::planCopySection(IterateOp iterate,
                                             TimeLoopPlan &loop) {
  const CopySection &section = *loop.section;
  unsigned count = section.pairs.size();
  // Sources, then destinations: the buffers the swapped loop rotates.
  SmallVector<Value> initFields;
  for (bool destinations : {false, true})
    for (auto [source, destination] : section.pairs)
      initFields.push_back(
          iterate.getInits()[destinations ? destination : source]);
  FailureOr<SmallVector<BufferId>> inits =
      lookupDistinct(initFields, iterate, kSharedLoopBuffers);
  if (failed(inits))
    return failure();
  Block *body = iterate.getBodyBlock();
  for (auto [k, pair] : llvm::enumerate(section.pairs)) {
    assign(body->getArgument(pair.first),
           getOwnedBuffer(Buffer::Kind::LoopArgument, iterate, k));
    assign(body->getArgument(pair.second),
           getOwnedBuffer(Buffer::Kind::LoopArgument, iterate, count + k));
  }
  for (ExchangeOp exchange : section.exchanges)
    assign(exchange.getResult(), plan.getBuffer(exchange.getField()));
  planTimeBlocks(iterate, loop);
  if (failed(planApply(section.calc)))
    return failure();
  // The loop ends with its results back in the arrays it started from.
  for (auto [k, pair] : llvm::enumerate(section.pairs)) {
    assign(iterate.getResult(pair.first), (*inits)[k]);
    assign(iterate.getResult(pair.second), (*inits)[count + k]);
  }
  return success();
}

void BufferPlanner::planTimeBlocks(IterateOp iterate, TimeLoopPlan &loop) {
  const CopySection &section = *loop.section;
  TimeBlockPlan &blocks = loop.blocks;
  ApplyOp calc = section.calc;
  GridOp grid = calc.getGridOp();
  int64_t timeBlock = loop.schedule ? loop.schedule.getTimeBlock() : 1;
  // planApply reports a grid that is not a stencil.grid.
  if (!grid)
    return;
  // Across ranks a block's tiles read T x radius cells of halo from its
  // first step (stencil-distribute makes halos exchange_depth x radius
  // deep).
  if (int64_t exchanged = section.getExchangedSteps(); timeBlock > exchanged) {
    iterate.emitWarning("time_block ")
        << timeBlock << " needs halos " << timeBlock
        << " x radius deep, but the exchanges bring enough for " << exchanged
        << " step" << (exchanged == 1 ? "" : "s")
        << "; give exchange_depth at least " << timeBlock
        << ". Running one step per sweep";
    timeBlock = 1;
  }
  Block *body = iterate.getBodyBlock();
  // The carried pair whose source `input` (a loop argument) is, or -1.
  auto getCarriedPair = [&](Value input) {
    auto argument = llvm::dyn_cast<BlockArgument>(input);
    if (argument && argument.getOwner() == body)
      for (auto [k, p] : llvm::enumerate(section.pairs))
        if (argument.getArgNumber() == p.first)
          return static_cast<int>(k);
    return -1;
  };
  // The grown steps read every carried field in the neighbours' points,
  // centre-only reads included: each needs its halo.
  if (timeBlock > 1 && !section.exchanges.empty())
    for (Value input : calc.getInputs()) {
      int pair = getCarriedPair(input);
      if (pair < 0)
        continue;
      iterate.emitWarning("time_block ")
          << timeBlock << " computes the neighbours' points, which read "
          << "iter_arg #" << section.pairs[pair].first
          << " in its halo, but it is not exchanged. Running one step per "
             "sweep";
      timeBlock = 1;
      break;
    }
  // A block computes T steps at once; a value that one step hands to the
  // next (a reduction accumulating across steps) would need every level.
  if (timeBlock > 1 && llvm::any_of(section.scalars, [&](unsigned index) {
        return !body->getArgument(index).use_empty();
      })) {
    iterate.emitWarning("time_block ")
        << timeBlock
        << " is not combined with a value carried from step to step (a "
           "reduction that accumulates across steps); running one step per "
           "sweep";
    timeBlock = 1;
  }
  blocks.timeBlock = timeBlock;
  if (timeBlock == 1)
    return;
  blocks.reduces = calc.getNumReductions() > 0;
  TimeBlockStage stage{calc, {}, {}};
  for (Value input : calc.getInputs()) {
    // A distributed loop's calc reads its sources through their exchanges.
    if (auto exchange = input.getDefiningOp<ExchangeOp>())
      input = exchange.getField();
    stage.carriedInput.push_back(getCarriedPair(input));
  }
  for (Value output : calc.getOutputs())
    for (auto [k, p] : llvm::enumerate(section.pairs))
      if (llvm::cast<BlockArgument>(output).getArgNumber() == p.second)
        stage.outputPair.push_back(k);
  blocks.stages.push_back(std::move(stage));
  fillTimeBlockShape(blocks, grid, loop.schedule);
  for (auto [source, destination] : section.pairs)
    blocks.elementTypes.push_back(
        llvm::cast<FieldType>(iterate.getInits()[source].getType())
            .getElementType());
}

void BufferPlanner::fillTimeBlockShape(TimeBlockPlan &blocks, GridOp grid,
                                       ScheduleAttr schedule) {
  Builder builder(grid.getContext());
  blocks.lower =
      getMixedValues(grid.getStaticLower(), grid.getDynamicLower(), builder);
  blocks.upper =
      getMixedValues(grid.getStaticUpper(), grid.getDynamicUpper(), builder);
  blocks.tile.assign(schedule.getTileOrWorkGroup().begin(),
                     schedule.getTileOrWorkGroup().end());
  for (unsigned axis = 0; axis < blocks.tile.size(); ++axis)
    if (std::optional<int64_t> extent = blocks.getStaticExtent(axis))
      blocks.tile[axis] = std::min(blocks.tile[axis], *extent);
  // The halo a level needs: how far its stage reads the carried fields, at
  // most over the stages.
  blocks.radiusLow.assign(grid.getRank(), 0);
  blocks.radiusHigh.assign(grid.getRank(), 0);
  for (const TimeBlockStage &stage : blocks.stages) {
    Extent carried = getReadExtent(stage.calc, [&](BlockArgument argument) {
      return stage.carriedInput[argument.getArgNumber()] >= 0;
    });
    for (unsigned axis = 0; axis < carried.getRank(); ++axis) {
      blocks.radiusLow[axis] =
          std::max(blocks.radiusLow[axis], carried.getLowHalo(axis));
      blocks.radiusHigh[axis] =
          std::max(blocks.radiusHigh[axis], carried.getHighHalo(axis));
    }
  }
}

void BufferPlanner::planChainTimeBlocks(IterateOp iterate, TimeLoopPlan &loop) {
  int64_t timeBlock = loop.schedule ? loop.schedule.getTimeBlock() : 1;
  if (timeBlock <= 1)
    return;
  std::string whyNot;
  loop.chain = matchSweepChain(iterate, &whyNot);
  if (!loop.chain) {
    InFlightDiagnostic warning = iterate.emitWarning("time_block ")
                                 << timeBlock;
    if (whyNot.empty())
      warning << " is implemented for the calc/copy form of the time loop "
                 "and for sweep chains only; running one step per sweep";
    else
      warning << " is implemented for the calc/copy form of the time loop "
                 "and for sweep chains only, and "
              << whyNot << "; running one step per sweep";
    return;
  }
  TimeBlockPlan &blocks = loop.blocks;
  GridOp grid = loop.chain->stages.front().apply.getGridOp();
  // planApply reported a grid that is not a stencil.grid.
  if (!grid)
    return;
  blocks.timeBlock = timeBlock;
  for (const SweepChain::Stage &sweep : loop.chain->stages) {
    TimeBlockStage stage{sweep.apply, sweep.previousOutput, {}};
    for (unsigned output = 0; output < sweep.carried.size(); ++output)
      stage.outputPair.push_back(output);
    blocks.stages.push_back(std::move(stage));
  }
  // The blocks keep what the earlier stages write in rings; the last step
  // writes their fields.
  blocks.lastStepAlone = true;
  fillTimeBlockShape(blocks, grid, loop.schedule);
  for (unsigned position : loop.chain->stages.back().carried)
    blocks.elementTypes.push_back(
        llvm::cast<FieldType>(iterate.getInits()[position].getType())
            .getElementType());
}

LogicalResult BufferPlanner::planRotatingLoop(IterateOp iterate,
                                              TimeLoopPlan &loop) {
  // Fields get buffers; scalars the loop carries stay values.
  auto isField = [](Value value) {
    return llvm::isa<FieldType>(value.getType());
  };
  SmallVector<Value> fieldInits(
      llvm::make_filter_range(iterate.getInits(), isField));
  FailureOr<SmallVector<BufferId>> inits =
      lookupDistinct(fieldInits, iterate, kSharedLoopBuffers);
  if (failed(inits))
    return failure();
  Block *body = iterate.getBodyBlock();
  SmallVector<BufferId> carried;
  for (BlockArgument argument :
       llvm::make_filter_range(body->getArguments(), isField)) {
    carried.push_back(getOwnedBuffer(Buffer::Kind::LoopArgument, iterate,
                                     argument.getArgNumber()));
    assign(argument, carried.back());
  }
  if (failed(planBlock(*body)))
    return failure();
  // The next step writes in place: its buffers must stay distinct, as a
  // permutation of the loop's own.
  auto yield = llvm::cast<YieldOp>(body->getTerminator());
  SmallVector<BufferId> yielded;
  for (Value value : llvm::make_filter_range(yield.getValues(), isField)) {
    auto it = plan.bufferOf.find(value);
    if (it == plan.bufferOf.end() || !llvm::is_contained(carried, it->second) ||
        llvm::is_contained(yielded, it->second))
      return yield.emitOpError(
          "must yield the loop's buffers in some order (each field an "
          "iter_arg or computed in place of one), once each");
    yielded.push_back(it->second);
  }
  // A loop that yields its buffers in place ends with its results in the
  // init buffers; a rotating loop's result buffers are known at run time.
  loop.yieldsInPlace = yielded == carried;
  planChainTimeBlocks(iterate, loop);
  unsigned field = 0;
  for (auto [index, result] : llvm::enumerate(iterate.getResults())) {
    if (!isField(result))
      continue;
    assign(result, loop.yieldsInPlace ? (*inits)[field]
                                      : getOwnedBuffer(Buffer::Kind::LoopResult,
                                                       iterate, index));
    ++field;
  }
  return success();
}

FailureOr<BufferPlan> BufferPlan::build(func::FuncOp func,
                                        const BufferPlanOptions &options) {
  BufferPlan plan;
  if (failed(BufferPlanner(func, options, plan).run()))
    return failure();
  return plan;
}

BufferPlan::BufferId BufferPlan::getBuffer(Value field) const {
  auto it = bufferOf.find(field);
  assert(it != bufferOf.end() && "every field the lowering uses is planned");
  return it->second;
}

BufferPlan::BufferId BufferPlan::getLoadBuffer(LoadOp load) const {
  return getBuffer(load.getResult());
}

BufferPlan::BufferId BufferPlan::getLoopBuffer(IterateOp loop,
                                               unsigned position,
                                               bool result) const {
  auto it = ownedBuffers.find(
      std::make_tuple(loop.getOperation(), position, unsigned(result)));
  assert(it != ownedBuffers.end() && "the loop's buffers are planned");
  return it->second;
}

ScheduleAttr BufferPlan::getSchedule(ApplyOp apply) const {
  auto it = applySchedules.find(apply);
  assert(it != applySchedules.end() && "every apply is planned");
  return it->second;
}

const TimeLoopPlan &BufferPlan::getTimeLoop(IterateOp loop) const {
  auto it = timeLoops.find(loop);
  assert(it != timeLoops.end() && "every time loop is planned");
  return it->second;
}

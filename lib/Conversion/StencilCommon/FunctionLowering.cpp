//===- FunctionLowering.cpp - Stencil functions onto a backend ------------===//
//
// Rewrites the stencil ops of a function in program order onto the buffers
// its BufferPlan chose:
//
// - `stencil.load` works in place on its memref, or gets a buffer copied
//   from it;
// - `stencil.apply` writes into the buffer of its `outs` field, as the
//   backend emits boxes of points (tiled loops, kernels);
// - `stencil.iterate` becomes an `scf.for` carrying the buffers; a yield
//   that exchanges fields rotates them, and a loop in the copy form runs as
//   a pointer swap (TimeLoops.cpp);
// - `stencil.exchange` is the identity on one rank, halo exchange calls in
//   a function stencil-distribute marked (ExchangeLowering);
// - `stencil.store` copies only when the buffer is not already the target.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "Stencil/Support/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::lowering;

LoweringBackend::~LoweringBackend() = default;
StepPartition::~StepPartition() = default;
ExchangeLowering::~ExchangeLowering() = default;

void ApplyLowering::emitPoint(OpBuilder &builder, Location loc,
                              ValueRange point, LoweringBackend &backend,
                              ReduceFn reduce) const {
  stencil::emitPoint(
      builder, loc, apply, point,
      [&](OpBuilder &b, Location l, unsigned input, ValueRange at, AccessOp) {
        return memref::LoadOp::create(b, l, inputs[input], at);
      },
      [&](OpBuilder &b, Location l, unsigned output, Value value) {
        memref::StoreOp::create(b, l, value, outputs[output], point);
      },
      [&](OpBuilder &b, Location l, unsigned input) {
        return backend.loadScalar(b, l, inputs[input]);
      },
      /*clone=*/nullptr, reduce);
}

void lowering::runIf(OpBuilder &builder, Location loc, Value condition,
                     function_ref<void(OpBuilder &)> then) {
  if (!condition)
    return then(builder);
  auto ifOp = scf::IfOp::create(builder, loc, condition);
  OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
  then(thenBuilder);
}

void lowering::ifDifferent(OpBuilder &builder, Location loc, Value a, Value b,
                           Value extraCondition,
                           function_ref<void(OpBuilder &)> then) {
  Value pa = memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, a);
  Value pb = memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, b);
  Value differ =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, pa, pb);
  if (extraCondition)
    differ = arith::AndIOp::create(builder, loc, differ, extraCondition);
  auto ifOp = scf::IfOp::create(builder, loc, differ);
  OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
  then(thenBuilder);
}

void FunctionLowering::run() {
  lowerBlock(func.getBody().front());
  // Stencil values are used only by stencil ops: drop every reference
  // first, then erase, in any order.
  for (Operation *op : toErase)
    op->dropAllReferences();
  for (Operation *op : llvm::reverse(toErase))
    op->erase();
  // The buffers of loads live until the function returns, after its stores.
  func.walk([&](func::ReturnOp ret) {
    OpBuilder atReturn(ret);
    for (unsigned id = 0; id < plan.getNumBuffers(); ++id)
      if (plan.getBufferInfo(id).kind == BufferPlan::Buffer::Kind::LoadCopy)
        backend.freeBuffer(atReturn, ret.getLoc(), buffers[id]);
  });
  backend.finishFunction(func);
}

void FunctionLowering::lowerBlock(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block))
    llvm::TypeSwitch<Operation *>(&op)
        .Case<LoadOp>([&](LoadOp load) { lowerLoad(load); })
        .Case<ApplyOp>([&](ApplyOp apply) { lowerApply(apply); })
        .Case<IterateOp>([&](IterateOp iterate) { lowerIterate(iterate); })
        .Case<StoreOp>([&](StoreOp store) { lowerStore(store); })
        .Case<ExchangeOp>([&](ExchangeOp exchange) { lowerExchange(exchange); })
        .Case<WriteRawOp>([&](WriteRawOp write) { lowerWriteRaw(write); })
        // Yields are lowered with their loop.
        .Case<GridOp>([&](GridOp grid) { toErase.push_back(grid); });
}

void FunctionLowering::lowerLoad(LoadOp load) {
  toErase.push_back(load);
  BufferPlan::BufferId id = plan.getLoadBuffer(load);
  Value memref = load.getMemref();
  if (plan.getBufferInfo(id).kind == BufferPlan::Buffer::Kind::MemRef) {
    setBuffer(id, memref);
    return;
  }
  OpBuilder builder(load);
  Value buffer = backend.allocateLike(builder, load.getLoc(), memref);
  backend.copyFromMemRef(builder, load.getLoc(), memref, buffer);
  setBuffer(id, buffer);
}

void FunctionLowering::lowerApply(ApplyOp apply, BoxPartition partition,
                                  ArrayRef<Value> ringSources) {
  OpBuilder builder(apply);
  ApplyLowering lowering;
  lowering.apply = apply;
  lowering.schedule = plan.getSchedule(apply);
  for (Value input : apply.getInputs())
    lowering.inputs.push_back(
        llvm::isa<FieldType>(input.getType()) ? getBuffer(input) : input);
  for (Value output : apply.getOutputs())
    lowering.outputs.push_back(getBuffer(output));
  lowering.ringSources.assign(ringSources.begin(), ringSources.end());
  lowering.ringSources.resize(lowering.outputs.size());
  lowering.reductions = apply.getReductionKinds();
  getGridBounds(builder, apply.getLoc(), apply.getGridOp(), lowering.lower,
                lowering.upper);
  SmallVector<Value> partials = backend.emitApply(builder, lowering, partition);
  // Each reduction: this rank's contributions, then all ranks', then the
  // init. Its uses see the value from here on.
  Location loc = apply.getLoc();
  for (auto [result, init, kind, partial] :
       llvm::zip_equal(apply.getReductionResults(), apply.getReduceInits(),
                       lowering.reductions, partials)) {
    Value reduced = partial;
    if (distributed)
      reduced = exchanges->combineAcrossRanks(builder, loc, kind, reduced);
    result.replaceAllUsesWith(
        createReductionCombine(builder, loc, kind, init, reduced));
  }
  toErase.push_back(apply);
}

void FunctionLowering::lowerIterate(IterateOp iterate) {
  const TimeLoopPlan &loop = plan.getTimeLoop(iterate);
  if (loop.section)
    return lowerSwapLoop(iterate, loop);
  lowerRotatingLoop(iterate);
}

void FunctionLowering::lowerRotatingLoop(IterateOp iterate) {
  const TimeLoopPlan &loop = plan.getTimeLoop(iterate);
  if (loop.chain && loop.blocks.timeBlock > 1)
    return lowerChainLoop(iterate, loop);
  Location loc = iterate.getLoc();
  // The loop carries the fields' buffers and the scalars, in order.
  SmallVector<Value> initBuffers;
  for (Value init : iterate.getInits())
    initBuffers.push_back(isField(init) ? getBuffer(init) : init);
  OpBuilder builder(iterate);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  // A negative step count runs no step, as in C.
  Value steps = arith::MaxSIOp::create(builder, loc, iterate.getSteps(), zero);
  scf::ForOp forOp = emitRotatingLoop(iterate, initBuffers, steps);
  // A rotating loop's result buffers are known only at run time.
  for (auto [index, result, lowered] :
       llvm::enumerate(iterate.getResults(), forOp.getResults())) {
    if (!isField(result))
      result.replaceAllUsesWith(lowered);
    else if (!loop.yieldsInPlace)
      setBuffer(plan.getLoopBuffer(iterate, index, /*result=*/true), lowered);
  }
}

scf::ForOp FunctionLowering::emitRotatingLoop(IterateOp iterate,
                                              ArrayRef<Value> initBuffers,
                                              Value steps) {
  Location loc = iterate.getLoc();
  OpBuilder builder(iterate);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  auto forOp = scf::ForOp::create(builder, loc, zero, steps, one, initBuffers);
  Block *forBody = forOp.getBody();
  if (!forBody->empty())
    forBody->getTerminator()->erase();
  forBody->getOperations().splice(forBody->end(),
                                  iterate.getBodyBlock()->getOperations());
  for (auto [index, argument, carried] : llvm::enumerate(
           iterate.getBodyBlock()->getArguments(), forOp.getRegionIterArgs())) {
    if (isField(argument))
      setBuffer(plan.getLoopBuffer(iterate, index), carried);
    else
      argument.replaceAllUsesWith(carried);
  }
  toErase.push_back(iterate);

  lowerBlock(*forBody);
  auto yield = llvm::cast<YieldOp>(forBody->getTerminator());
  SmallVector<Value> yielded;
  for (Value value : yield.getValues())
    yielded.push_back(isField(value) ? getBuffer(value) : value);
  OpBuilder atYield(yield);
  scf::YieldOp::create(atYield, yield.getLoc(), yielded);
  toErase.push_back(yield);
  return forOp;
}

void FunctionLowering::lowerExchange(ExchangeOp exchange) {
  OpBuilder builder(exchange);
  exchanges->emitExchange(builder, exchange, getBuffer(exchange.getField()));
  toErase.push_back(exchange);
}

void FunctionLowering::lowerWriteRaw(WriteRawOp write) {
  toErase.push_back(write);
  OpBuilder builder(write);
  Location loc = write.getLoc();
  Value buffer = getBuffer(write.getField());
  // A device buffer is written from a host copy.
  Value host = buffer;
  if (!backend.buffersMayAliasMemRefs()) {
    auto type = llvm::cast<MemRefType>(buffer.getType());
    SmallVector<Value> sizes;
    for (int64_t axis = 0; axis < type.getRank(); ++axis)
      if (type.isDynamicDim(axis))
        sizes.push_back(memref::DimOp::create(builder, loc, buffer, axis));
    host = memref::AllocOp::create(
        builder, loc, MemRefType::get(type.getShape(), type.getElementType()),
        sizes);
    backend.copyToMemRef(builder, loc, buffer, host);
  }
  if (distributed) {
    exchanges->emitWriteRaw(builder, loc, host, write.getPath());
  } else {
    // stencil_write_raw_buffer(address, bytes, path), runtime/common.
    auto type = llvm::cast<MemRefType>(host.getType());
    Value bytes = arith::ConstantIndexOp::create(
        builder, loc, type.getElementType().getIntOrFloatBitWidth() / 8);
    for (int64_t axis = 0; axis < type.getRank(); ++axis)
      bytes = arith::MulIOp::create(
          builder, loc, bytes, memref::DimOp::create(builder, loc, host, axis));
    auto module = func->getParentOfType<ModuleOp>();
    callRuntime(builder, loc, module, "stencil_write_raw_buffer",
                {getBufferAddress(builder, loc, host), bytes,
                 getBufferAddress(builder, loc, write.getPath())});
  }
  if (host != buffer)
    memref::DeallocOp::create(builder, loc, host);
}

void FunctionLowering::lowerStore(StoreOp store) {
  toErase.push_back(store);
  if (loweredStores.contains(store))
    return;
  Value buffer = getBuffer(store.getField());
  if (buffer == store.getMemref())
    return;
  Location loc = store.getLoc();
  OpBuilder builder(store);
  if (!backend.buffersMayAliasMemRefs()) {
    backend.copyToMemRef(builder, loc, buffer, store.getMemref());
    return;
  }

  // Stores after a swapping loop may exchange the contents of several
  // memrefs; copy through temporaries so no store reads what another one
  // already overwrote. Group the stores of this block whose fields exist
  // already.
  SmallVector<StoreOp> group;
  for (Operation *op = store; op; op = op->getNextNode()) {
    auto other = llvm::dyn_cast<StoreOp>(op);
    if (!other || loweredStores.contains(other))
      continue;
    Operation *definition = other.getField().getDefiningOp();
    bool exists = !definition || definition->getBlock() != store->getBlock() ||
                  definition->isBeforeInBlock(store);
    if (exists && getBuffer(other.getField()) != other.getMemref())
      group.push_back(other);
  }

  if (group.size() == 1) {
    // Copy unless the loop left the result in the target already.
    ifDifferent(builder, loc, buffer, store.getMemref(), {},
                [&](OpBuilder &then) {
                  backend.copyToMemRef(then, loc, buffer, store.getMemref());
                });
    loweredStores.insert(store);
    return;
  }
  SmallVector<Value> temporaries;
  for (StoreOp member : group) {
    Value source = getBuffer(member.getField());
    Value temporary = backend.allocateLike(builder, loc, source);
    backend.copyToMemRef(builder, loc, source, temporary);
    temporaries.push_back(temporary);
  }
  for (auto [member, temporary] : llvm::zip(group, temporaries)) {
    backend.copyToMemRef(builder, loc, temporary, member.getMemref());
    backend.freeBuffer(builder, loc, temporary);
    loweredStores.insert(member);
  }
}

LogicalResult mlir::stencil::lowerFunction(func::FuncOp func,
                                           LoweringBackend &backend,
                                           ExchangeLowering *exchanges) {
  bool distributed =
      StencilDialect::MpiAttrHelper(func.getContext()).isAttrPresent(func);
  // On one rank a halo exchange is the identity: drop them first, so the
  // time loop keeps the forms the fast paths recognise.
  if (!distributed)
    func.walk([](ExchangeOp exchange) {
      exchange.getResult().replaceAllUsesWith(exchange.getField());
      exchange.erase();
    });
  FailureOr<BufferPlan> plan =
      BufferPlan::build(func, backend.getPlanOptions());
  if (failed(plan) || failed(backend.checkFunction(func, *plan)))
    return failure();
  assert((!distributed || exchanges) &&
         "a backend without exchange lowering rejects distributed functions");
  if (distributed && failed(exchanges->checkFunction(func)))
    return failure();
  FunctionLowering(func, *plan, backend, exchanges, distributed).run();
  // Residency (stencil.resident) concerns the fields, which are gone now:
  // stencil-distribute has used it, and on one process the arguments are
  // the arrays.
  StringAttr resident =
      StencilDialect::ResidentAttrHelper(func.getContext()).getName();
  for (unsigned index = 0; index < func.getNumArguments(); ++index)
    func.removeArgAttr(index, resident);
  return success();
}

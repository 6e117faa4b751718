//===- MPIExchangeLowering.cpp - Halo exchanges as MPI runtime calls ------===//
//
// In a function stencil-distribute made one rank's part, a halo exchange is
// a call of runtime/mpi on the field's buffer. In a copy-form time loop the
// exchange steps overlap communication with computation: the exchange of
// the last field begins, the interior points (those that read no halo
// cell) are computed, the exchange ends, then the ring of boundary points
// is. With exchange depth k (seed 001) the exchange happens every k steps,
// k x radius deep, and step j after it also computes the ring of
// (k - 1 - j) x radius cells of the neighbours' points that the next steps
// read. Time blocks of T steps (T <= k) exchange before every block,
// blocking (their tiles read the halo from the first step), and grow their
// steps the same way; a block writes its own points only, so the next one
// needs a fresh halo.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/StencilToMPI/StencilToMPI.h"

#include "Stencil/Dialect/Stencil/Analysis/AccessExtents.h"
#include "Stencil/Support/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::stencil;

namespace {

/// Calls the MPI runtime's exchange function `name` on `buffer`, its
/// `_device` variant where `buffer` is in GPU memory.
void emitExchangeCall(OpBuilder &builder, Location loc, ModuleOp module,
                      StringRef name, Value buffer, ArrayRef<int64_t> widths,
                      bool deviceBuffer) {
  auto type = llvm::cast<MemRefType>(buffer.getType());
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  SmallVector<Value> sizes, widthValues;
  for (unsigned axis = 0; axis < type.getRank(); ++axis) {
    sizes.push_back(memref::DimOp::create(builder, loc, buffer, axis));
    widthValues.push_back(constant(widths[axis]));
  }
  SmallVector<Value> args = {
      getBufferAddress(builder, loc, buffer),
      constant(type.getElementType().getIntOrFloatBitWidth() / 8)};
  llvm::append_range(args, padToThreeAxes(builder, loc, sizes, 1));
  llvm::append_range(args, padToThreeAxes(builder, loc, widthValues, 0));
  callRuntime(builder, loc, module,
              deviceBuffer ? (name + "_device").str() : name.str(), args);
}

/// The steps of one distributed copy-form loop.
class MPIStepPartition : public StepPartition {
public:
  MPIStepPartition(OpBuilder &builder, IterateOp loop, const TimeLoopPlan &plan,
                   bool deviceBuffers);
  void emitStep(OpBuilder &builder, Value step, ValueRange lower,
                ValueRange upper, ValueRange exchanged, BoxFn emitBox) override;
  void emitBeforeTimeBlock(OpBuilder &builder, ValueRange exchanged) override;
  ArrayRef<Value> getRingLow() const override { return ringLow; }
  ArrayRef<Value> getRingHigh() const override { return ringHigh; }

private:
  Value constant(OpBuilder &builder, int64_t value) const {
    return arith::ConstantIndexOp::create(builder, loc, value);
  }
  /// The grid grown by `steps` x radius into the neighbours' points.
  void grow(OpBuilder &builder, Value steps, ValueRange lower, ValueRange upper,
            SmallVectorImpl<Value> &from, SmallVectorImpl<Value> &to) const;
  /// A step that exchanges the halo of the `exchanged` buffers, computing
  /// [from, to).
  void emitExchangeStep(OpBuilder &builder, ValueRange lower, ValueRange upper,
                        ValueRange from, ValueRange to, ValueRange exchanged,
                        BoxFn emitBox) const;

  Location loc;
  ModuleOp module;
  bool deviceBuffers;
  unsigned rank;
  SmallVector<int64_t, 3> radius;
  int64_t depth;
  SmallVector<ExchangeOp> exchanges;
  /// Per axis: how far this rank's ring reaches into each neighbour (null
  /// on the axes not distributed, which do not grow), and whether it has
  /// that neighbour (0 or 1).
  SmallVector<Value, 3> ringLow, ringHigh, neighbourLow, neighbourHigh;
};

} // namespace

MPIStepPartition::MPIStepPartition(OpBuilder &builder, IterateOp loop,
                                   const TimeLoopPlan &plan, bool deviceBuffers)
    : loc(loop.getLoc()), module(loop->getParentOfType<ModuleOp>()),
      deviceBuffers(deviceBuffers), exchanges(plan.section->exchanges) {
  ApplyOp calc = plan.section->calc;
  rank = calc.getRank();
  radius = getReadExtent(calc).getRadius();
  depth = plan.schedule ? plan.schedule.getExchangeDepth() : 1;
  // Deep steps compute the neighbours' points too; their contributions
  // would count twice. (Time blocks skip the reductions: with blocks, k is
  // what the blocks need, and the single steps after them quietly exchange
  // every step.)
  if (depth > 1 && calc.getNumReductions() > 0) {
    if (plan.blocks.timeBlock <= 1)
      loop.emitWarning("exchange_depth ")
          << depth
          << " is not combined with a reduction (the redundant points would "
             "count twice); exchanging every step";
    depth = 1;
  }
  auto fieldType = llvm::cast<FieldType>(loop.getInits()[0].getType());
  DecompositionAttr decomposition = fieldType.getDecomposition();
  // A deep halo needs exchanges as deep; stencil-distribute makes them so.
  for (ExchangeOp exchange : exchanges)
    for (unsigned axis = 0; axis < rank; ++axis)
      if (depth > 1 && decomposition.isDistributed(axis) &&
          exchange.getWidths()[axis] < depth * radius[axis]) {
        exchange.emitWarning("width ")
            << exchange.getWidths()[axis] << " along axis " << axis
            << " is less than exchange_depth " << depth << " x radius "
            << radius[axis] << "; exchanging every step instead";
        depth = 1;
      }

  Value zero = constant(builder, 0);
  for (unsigned axis = 0; axis < rank; ++axis) {
    if (!decomposition || !decomposition.isDistributed(axis)) {
      ringLow.push_back(Value());
      ringHigh.push_back(Value());
      neighbourLow.push_back(zero);
      neighbourHigh.push_back(zero);
      continue;
    }
    auto query = [&](StringRef name, int64_t side) {
      Value axisValue = constant(builder, axis);
      Value sideValue = constant(builder, side);
      return callRuntime(builder, loc, module, name, {axisValue, sideValue},
                         /*returnsIndex=*/true);
    };
    ringLow.push_back(query("stencil_mpi_ring", 0));
    ringHigh.push_back(query("stencil_mpi_ring", 1));
    neighbourLow.push_back(query("stencil_mpi_has_neighbor", 0));
    neighbourHigh.push_back(query("stencil_mpi_has_neighbor", 1));
  }
}

void MPIStepPartition::emitBeforeTimeBlock(OpBuilder &builder,
                                           ValueRange exchanged) {
  for (auto [exchange, buffer] : llvm::zip_equal(exchanges, exchanged)) {
    ExchangeOp op = exchange;
    emitExchangeCall(builder, loc, module, "stencil_mpi_exchange", buffer,
                     op.getWidths(), deviceBuffers);
  }
}

void MPIStepPartition::grow(OpBuilder &builder, Value steps, ValueRange lower,
                            ValueRange upper, SmallVectorImpl<Value> &from,
                            SmallVectorImpl<Value> &to) const {
  for (unsigned axis = 0; axis < rank; ++axis) {
    from.push_back(growLowerBound(builder, loc, lower[axis], steps,
                                  radius[axis], ringLow[axis]));
    to.push_back(growUpperBound(builder, loc, upper[axis], steps, radius[axis],
                                ringHigh[axis]));
  }
}

void MPIStepPartition::emitExchangeStep(OpBuilder &builder, ValueRange lower,
                                        ValueRange upper, ValueRange from,
                                        ValueRange to, ValueRange exchanged,
                                        BoxFn emitBox) const {
  // All but the last exchange block; the last is in flight while the
  // interior is computed.
  for (auto [exchange, buffer] :
       llvm::zip(ArrayRef(exchanges).drop_back(), exchanged.drop_back())) {
    ExchangeOp op = exchange;
    emitExchangeCall(builder, loc, module, "stencil_mpi_exchange", buffer,
                     op.getWidths(), deviceBuffers);
  }
  ExchangeOp last = exchanges.back();
  emitExchangeCall(builder, loc, module, "stencil_mpi_exchange_begin",
                   exchanged.back(), last.getWidths(), deviceBuffers);
  // Points at least a radius away from every neighbour read no halo.
  SmallVector<Value> innerLower, innerUpper;
  for (unsigned axis = 0; axis < rank; ++axis) {
    Value r = constant(builder, radius[axis]);
    Value lo = arith::AddIOp::create(
        builder, loc, lower[axis],
        arith::MulIOp::create(builder, loc, neighbourLow[axis], r));
    Value hi = arith::SubIOp::create(
        builder, loc, upper[axis],
        arith::MulIOp::create(builder, loc, neighbourHigh[axis], r));
    lo = arith::MinSIOp::create(builder, loc, lo, upper[axis]);
    hi = arith::MaxSIOp::create(builder, loc, hi, lo);
    innerLower.push_back(lo);
    innerUpper.push_back(hi);
  }
  emitBox(builder, innerLower, innerUpper);
  callRuntime(builder, loc, module, "stencil_mpi_exchange_end", {});
  forEachRingSlab(builder, from, to, innerLower, innerUpper, emitBox);
}

void MPIStepPartition::emitStep(OpBuilder &builder, Value step,
                                ValueRange lower, ValueRange upper,
                                ValueRange exchanged, BoxFn emitBox) {
  if (depth == 1) {
    emitExchangeStep(builder, lower, upper, lower, upper, exchanged, emitBox);
    return;
  }
  Value phase =
      arith::RemSIOp::create(builder, loc, step, constant(builder, depth));
  Value exchangeNow = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::eq, phase, constant(builder, 0));
  auto ifOp = scf::IfOp::create(builder, loc, exchangeNow, /*withElse=*/true);
  {
    OpBuilder then = ifOp.getThenBodyBuilder();
    SmallVector<Value> from, to;
    grow(then, constant(then, depth - 1), lower, upper, from, to);
    emitExchangeStep(then, lower, upper, from, to, exchanged, emitBox);
  }
  OpBuilder otherwise = ifOp.getElseBodyBuilder();
  Value remaining = arith::SubIOp::create(
      otherwise, loc, constant(otherwise, depth - 1), phase);
  SmallVector<Value> from, to;
  grow(otherwise, remaining, lower, upper, from, to);
  emitBox(otherwise, from, to);
}

namespace {

/// The runtime's code for a reduced type (stencil_mpi_allreduce).
std::optional<int64_t> getRuntimeTypeCode(Type type) {
  if (type.isF32())
    return 0;
  if (type.isF64())
    return 1;
  if (type.isInteger(32))
    return 2;
  if (type.isInteger(64))
    return 3;
  return std::nullopt;
}

class MPIExchangeLowering : public ExchangeLowering {
public:
  explicit MPIExchangeLowering(bool deviceBuffers)
      : deviceBuffers(deviceBuffers) {}

  LogicalResult checkFunction(func::FuncOp func) override {
    WalkResult result = func.walk([&](ApplyOp apply) -> WalkResult {
      for (Value init : apply.getReduceInits())
        if (!getRuntimeTypeCode(init.getType()))
          return apply.emitOpError("reduces a value of type ")
                 << init.getType()
                 << " across MPI ranks; the MPI runtime combines f32, f64, "
                    "i32 and i64";
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  void emitExchange(OpBuilder &builder, ExchangeOp exchange,
                    Value buffer) override {
    emitExchangeCall(
        builder, exchange.getLoc(), exchange->getParentOfType<ModuleOp>(),
        "stencil_mpi_exchange", buffer, exchange.getWidths(), deviceBuffers);
  }

  std::unique_ptr<StepPartition> planSteps(OpBuilder &builder, IterateOp loop,
                                           const TimeLoopPlan &plan) override {
    return std::make_unique<MPIStepPartition>(builder, loop, plan,
                                              deviceBuffers);
  }

  Value combineAcrossRanks(OpBuilder &builder, Location loc, ReductionKind kind,
                           Value value) override {
    // In place in a one-element buffer whose address the runtime takes.
    Type type = value.getType();
    std::optional<int64_t> typeCode = getRuntimeTypeCode(type);
    assert(typeCode && "checkFunction admits the runtime's types only");
    // On entry to the function: an alloca in the time loop would grow the
    // stack by one element per step.
    auto func = builder.getInsertionBlock()
                    ->getParent()
                    ->getParentOfType<func::FuncOp>();
    OpBuilder atEntry = OpBuilder::atBlockBegin(&func.getBody().front());
    Value memory =
        memref::AllocaOp::create(atEntry, loc, MemRefType::get({1}, type));
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    memref::StoreOp::create(builder, loc, value, memory, ValueRange{zero});
    Value address = getBufferAddress(builder, loc, memory);
    Value typeValue = arith::ConstantIndexOp::create(builder, loc, *typeCode);
    Value kindValue = arith::ConstantIndexOp::create(
        builder, loc, static_cast<int64_t>(kind));
    auto module =
        builder.getBlock()->getParentOp()->getParentOfType<ModuleOp>();
    callRuntime(builder, loc, module, "stencil_mpi_allreduce",
                {address, typeValue, kindValue});
    return memref::LoadOp::create(builder, loc, memory, ValueRange{zero});
  }

  void emitWriteRaw(OpBuilder &builder, Location loc, Value buffer,
                    Value path) override {
    auto type = llvm::cast<MemRefType>(buffer.getType());
    SmallVector<Value> extents;
    for (int64_t axis = 0; axis < type.getRank(); ++axis)
      extents.push_back(memref::DimOp::create(builder, loc, buffer, axis));
    SmallVector<Value> args = {
        getBufferAddress(builder, loc, buffer),
        arith::ConstantIndexOp::create(
            builder, loc, type.getElementType().getIntOrFloatBitWidth() / 8)};
    llvm::append_range(args, padToThreeAxes(builder, loc, extents, 1));
    args.push_back(getBufferAddress(builder, loc, path));
    auto module =
        builder.getBlock()->getParentOp()->getParentOfType<ModuleOp>();
    callRuntime(builder, loc, module, "stencil_mpi_write_raw", args);
  }

private:
  bool deviceBuffers;
};

} // namespace

std::unique_ptr<ExchangeLowering>
mlir::stencil::createMPIExchangeLowering(bool deviceBuffers) {
  return std::make_unique<MPIExchangeLowering>(deviceBuffers);
}

//===- FunctionLowering.h - The state of lowering one function --*- C++ -*-===//
//
// The lowering of one stencil function after its BufferPlan: the buffers
// materialized so far and the ops to erase, shared by the steps in
// FunctionLowering.cpp (loads, applies, rotating loops, stores, exchanges)
// and TimeLoops.cpp (the copy-form loop as a pointer swap, its time
// blocks and distributed steps). Nothing here reports user errors: the plan
// and the backend's check did.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILCOMMON_FUNCTIONLOWERING_H
#define STENCIL_LIB_CONVERSION_STENCILCOMMON_FUNCTIONLOWERING_H

#include "Stencil/Conversion/StencilCommon/LoweringBackend.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::stencil::lowering {

class FunctionLowering {
public:
  FunctionLowering(func::FuncOp func, const BufferPlan &plan,
                   LoweringBackend &backend, ExchangeLowering *exchanges,
                   bool distributed)
      : func(func), plan(plan), backend(backend), exchanges(exchanges),
        distributed(distributed), buffers(plan.getNumBuffers()) {}

  void run();

private:
  void lowerBlock(Block &block);
  void lowerLoad(LoadOp load);
  /// Lowers `apply` where it is: its points over its grid, or in the boxes
  /// of `partition`; `ringSources` as in ApplyLowering.
  void lowerApply(ApplyOp apply, BoxPartition partition = nullptr,
                  ArrayRef<Value> ringSources = {});
  void lowerIterate(IterateOp iterate);
  void lowerRotatingLoop(IterateOp iterate);
  void lowerSwapLoop(IterateOp iterate, const TimeLoopPlan &loop);
  /// The sweep chain `iterate` with time blocks: the blocks, then the
  /// rotating loop for the steps they leave.
  void lowerChainLoop(IterateOp iterate, const TimeLoopPlan &loop);
  /// What lowerTimeBlocks emitted: the buffers the blocks leave, the
  /// scalars a copy-form loop carries after them (the last block's
  /// reductions where the blocks compute them, else the loop's inits), how
  /// many single steps remain, and an i1 that holds where the blocks ran
  /// the loop's last step and left its values in both fields of every pair
  /// (TimeBlock::finalStore; null where they never do).
  struct LoweredTimeBlocks {
    SmallVector<Value> buffers;
    SmallVector<Value> scalars;
    Value singleSteps;
    Value storedFinalState;
    /// How many blocks ran (null where T <= 1: none).
    Value blockCount;
  };
  /// A swap loop's comparison of the row ends of its rings in the first
  /// block (LoweringBackend::comparesRowEnds): the flags the block sets,
  /// per carried pair (TimeBlock::rowEndFlags), and what follows that
  /// block, before the next reads any destination's ring.
  struct RowEndComparison {
    ArrayRef<Value> flags;
    function_ref<void(OpBuilder &)> afterFirstBlock;
  };
  /// The whole blocks of T steps of a swap loop or a sweep chain before its
  /// single steps. `buffersIn` holds the buffers the first level reads, then
  /// those the last level writes, which each block swaps. `ringHolder`
  /// gives a chain's buffers of each stage but the last (TimeBlock). `zero`
  /// and `one` are index constants. With `storeFinalState` (the copy form),
  /// the last block writes the last step's values into both buffers of each
  /// pair where the backend can. With `rowEnds`, the first block compares
  /// the rings' row ends.
  LoweredTimeBlocks
  lowerTimeBlocks(OpBuilder &builder, IterateOp iterate,
                  const TimeLoopPlan &loop, ArrayRef<Value> buffersIn,
                  Value steps, Value zero, Value one, StepPartition *partition,
                  function_ref<Value(unsigned stage, unsigned pair)> ringHolder,
                  bool storeFinalState = false,
                  const RowEndComparison *rowEnds = nullptr);
  /// A rotating loop of `steps` steps from `initBuffers` (the iter_args'
  /// buffers and scalars); returns the loop.
  scf::ForOp emitRotatingLoop(IterateOp iterate, ArrayRef<Value> initBuffers,
                              Value steps);
  void lowerStore(StoreOp store);
  void lowerExchange(ExchangeOp exchange);
  void lowerWriteRaw(WriteRawOp write);

  static bool isField(Value value) {
    return llvm::isa<FieldType>(value.getType());
  }
  /// The buffer of field `field`, materialized already.
  Value getBuffer(Value field) const {
    Value buffer = buffers[plan.getBuffer(field)];
    assert(buffer && "buffers are materialized before their fields are used");
    return buffer;
  }
  void setBuffer(BufferPlan::BufferId id, Value buffer) {
    buffers[id] = buffer;
  }
  /// Gives the swap loop `iterate`'s sources and destinations the buffers
  /// `iterArgs` (a loop's: the `count` sources, then the destinations).
  void setLoopBuffers(IterateOp iterate, ValueRange iterArgs, unsigned count) {
    for (unsigned k = 0; k < 2 * count; ++k)
      setBuffer(plan.getLoopBuffer(iterate, k), iterArgs[k]);
  }
  /// The buffers of the fields `section` exchanges, in its order.
  SmallVector<Value> getExchangedBuffers(const CopySection &section) const {
    SmallVector<Value> exchanged;
    for (ExchangeOp exchange : section.exchanges)
      exchanged.push_back(getBuffer(exchange.getField()));
    return exchanged;
  }

  /// Copies the cells of `source` outside [lower, upper) into `target`.
  void copyRing(OpBuilder &builder, Location loc, Value source, Value target,
                ValueRange lower, ValueRange upper);
  /// One compact buffer per slab of the ring of `buffer` outside [lower,
  /// upper): saving touches no more memory than the ring itself.
  SmallVector<BoxBuffer> allocateRing(OpBuilder &builder, Location loc,
                                      Value buffer, ValueRange lower,
                                      ValueRange upper);
  /// Copies the ring of `buffer` into the slabs of allocateRing, or back
  /// when `restore`.
  void copyRingSlabs(OpBuilder &builder, Location loc,
                     ArrayRef<BoxBuffer> slabs, Value buffer, ValueRange lower,
                     ValueRange upper, bool restore);

  func::FuncOp func;
  const BufferPlan &plan;
  LoweringBackend &backend;
  ExchangeLowering *exchanges;
  /// stencil-distribute made the function one MPI rank's part.
  bool distributed;
  /// Per planned buffer, its value once emitted.
  SmallVector<Value> buffers;
  SmallVector<Operation *> toErase;
  llvm::DenseSet<Operation *> loweredStores;
};

/// Runs `then` under `condition`, or unconditionally when it is null.
void runIf(OpBuilder &builder, Location loc, Value condition,
           function_ref<void(OpBuilder &)> then);

/// Runs `then` when the memrefs `a` and `b` are different buffers at run
/// time (and `extraCondition` holds, when given).
void ifDifferent(OpBuilder &builder, Location loc, Value a, Value b,
                 Value extraCondition, function_ref<void(OpBuilder &)> then);

} // namespace mlir::stencil::lowering

#endif // STENCIL_LIB_CONVERSION_STENCILCOMMON_FUNCTIONLOWERING_H

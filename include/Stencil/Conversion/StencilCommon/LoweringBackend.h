//===- LoweringBackend.h - One lowering core, several backends --*- C++ -*-===//
//
// Lowering a stencil function is the same for every target: plan the buffers
// (BufferPlan.h), then rewrite loads, applies, time loops, exchanges and
// stores in program order. What differs is where buffers live and how a box
// of points is visited; a LoweringBackend answers that:
//
//   StencilToLoops   host memory, tiled scf.parallel loops (OpenMP), time
//                    blocks as pipelined rows or overlapped tiles;
//   StencilToGPU     device memory, one gpu.launch per box, time blocks in
//                    workgroup memory.
//
// Halo exchanges of functions that stencil-distribute made one MPI rank's
// part go through an ExchangeLowering, which StencilToMPI implements: the
// exchange calls, and the steps of a distributed time loop that overlap
// the exchange with the interior points.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILCOMMON_LOWERINGBACKEND_H
#define STENCIL_CONVERSION_STENCILCOMMON_LOWERINGBACKEND_H

#include "Stencil/Conversion/StencilCommon/BufferPlan.h"
#include "Stencil/Conversion/StencilCommon/PointLowering.h"
#include "Stencil/Conversion/StencilCommon/TimeBlock.h"

#include <memory>

namespace mlir::stencil {

/// What a backend needs to emit the points of one apply.
class LoweringBackend;

/// Cells of a ring, the cells of a buffer outside the grid: all of them;
/// all but the ends of the grid's rows (the cells beyond the grid along the
/// innermost axis, within it along the others), which lie one or a few a
/// row, a cache line each, where the others are whole rows; or those ends
/// alone.
enum class RingCells { All, AcrossRows, RowEnds };

struct ApplyLowering {
  ApplyOp apply;
  /// The apply's schedule, else its time loop's (null when neither has one).
  ScheduleAttr schedule;
  /// Per input: the buffer of a field input, the value of a scalar one.
  SmallVector<Value> inputs;
  /// Per output: the buffer the apply writes.
  SmallVector<Value> outputs;
  /// Per output: a buffer whose cells outside the grid (its ring) equal the
  /// output's at every step, or null. A swap loop keeps each destination's
  /// ring equal to its source's; streamed rows use that to store whole
  /// cache lines there.
  SmallVector<Value> ringSources;
  /// The grid [lower, upper), as index values.
  SmallVector<Value, 3> lower, upper;
  /// The kind of each reduction of the apply, in order (empty: none).
  SmallVector<ReductionKind> reductions;

  /// The apply at `point`: loads from its input buffers, stores into its
  /// output buffers, scalars as `backend` passes them to a point; its
  /// contributions to reductions go to `reduce` (dropped when null).
  void emitPoint(OpBuilder &builder, Location loc, ValueRange point,
                 LoweringBackend &backend, ReduceFn reduce = nullptr) const;
};

/// Emits the points of an apply's grid [lower, upper) as boxes, each through
/// `emitBox`: a distributed time loop emits the points that read no halo
/// while the exchange is in flight, then the rest.
using BoxPartition = function_ref<void(OpBuilder &, ValueRange lower,
                                       ValueRange upper, BoxFn emitBox)>;

/// A buffer for the cells of a box: cell p of the box is element
/// p - origin (origin empty: element p).
struct BoxBuffer {
  Value buffer;
  SmallVector<Value, 3> origin;
};

class LoweringBackend {
public:
  virtual ~LoweringBackend();

  /// The pass the backend serves, for messages.
  virtual StringRef getPassName() const = 0;
  /// How loads get their buffers.
  virtual BufferPlanOptions getPlanOptions() const = 0;
  /// Rejects, before the IR changes, what this backend cannot lower.
  virtual LogicalResult checkFunction(func::FuncOp func,
                                      const BufferPlan &plan) = 0;

  /// A new buffer of the shape and elements of `like`.
  virtual Value allocateLike(OpBuilder &builder, Location loc, Value like) = 0;
  /// A new buffer that holds the elements of `like` in the box [from, to).
  virtual BoxBuffer allocateBox(OpBuilder &builder, Location loc, Value like,
                                ValueRange from, ValueRange to) = 0;
  /// Whether allocateBox makes buffers of the box's size when its bounds
  /// are known at run time only; if not, the core saves a ring of run-time
  /// extent into one buffer like the whole field.
  virtual bool allocatesDynamicBoxes() const = 0;
  virtual void freeBuffer(OpBuilder &builder, Location loc, Value buffer) = 0;
  /// Copies element p of `source` to `target` for every p in the box
  /// [lower, upper), reading source[p - sourceShift] and writing
  /// target[p - targetShift] (no shift when empty).
  virtual void copyBox(OpBuilder &builder, Location loc, Value source,
                       Value target, ValueRange lower, ValueRange upper,
                       ValueRange sourceShift, ValueRange targetShift) = 0;
  /// An i1 telling whether the cells of `a` and `b` outside [lower, upper)
  /// (those of them that `cells` names) differ in any bit, or null when the
  /// backend does not compare (the caller then assumes they differ).
  virtual Value ringsDiffer(OpBuilder &builder, Location loc, Value a, Value b,
                            ValueRange lower, ValueRange upper,
                            RingCells cells) = 0;
  /// Whether a buffer may be, at run time, a memref the function stores to
  /// (true in host memory, where loads work in place).
  virtual bool buffersMayAliasMemRefs() const = 0;
  /// Copies all of the function's memref `memref` into `buffer` (a load
  /// that gets a buffer of its own).
  virtual void copyFromMemRef(OpBuilder &builder, Location loc, Value memref,
                              Value buffer) = 0;
  /// Copies all of `buffer` into `memref` (a `stencil.store`; where buffers
  /// may alias memrefs, also between buffers).
  virtual void copyToMemRef(OpBuilder &builder, Location loc, Value buffer,
                            Value memref) = 0;

  /// The value of scalar `value` (a scalar input of an apply, defined outside
  /// it) where a point is computed: the value itself on the host, a load
  /// from a buffer the backend fills once inside a kernel.
  virtual Value loadScalar(OpBuilder &builder, Location loc, Value value) = 0;
  /// Emits the points of one apply in the boxes `partition` hands out, or
  /// over its whole grid when `partition` is null. Returns, per reduction,
  /// the points' contributions combined, starting from the identity (the
  /// core combines that with the reduction's init and, across MPI ranks,
  /// with the other ranks'), in an order that depends on the schedule only.
  virtual SmallVector<Value> emitApply(OpBuilder &builder,
                                       const ApplyLowering &apply,
                                       BoxPartition partition) = 0;
  /// Whether blocks of fewer steps than T, known at run time, are emitted
  /// as one block too: the steps left after the whole blocks then run in
  /// one more block when there are two or more, and the steps are spread
  /// evenly over the blocks.
  virtual bool runsShallowTimeBlocks(const TimeBlockPlan &plan) const = 0;
  /// Emits one block of the time loop: T steps, or, when the backend runs
  /// shallow blocks, `depth` steps (an index value, 2 <= depth <= T; T
  /// itself where every block is full). Where `block.reductions` is set,
  /// returns per reduction its last level's contributions combined as
  /// emitApply's are; else nothing.
  virtual SmallVector<Value> emitTimeBlock(OpBuilder &builder, Location loc,
                                           const TimeBlock &block,
                                           Value depth) = 0;
  /// Whether emitTimeBlock computes the reductions of `plan`'s calc in each
  /// block's last level (TimeBlock::reductions); otherwise a reducing
  /// loop's last step runs alone after the blocks.
  virtual bool reducesInTimeBlocks(const TimeBlockPlan &plan) const {
    return false;
  }
  /// Whether emitTimeBlock honours TimeBlock::finalStore for `plan`'s
  /// blocks of the copy form.
  virtual bool storesFinalState(const TimeBlockPlan &plan) const {
    return false;
  }
  /// Whether emitTimeBlock compares the ends of the rows its last level
  /// writes in `plan`'s blocks of the copy form (TimeBlock::rowEndFlags),
  /// flags in host memory: the swap loop of an undistributed function then
  /// compares the rest of the rings before the loop and the ends in its
  /// first block, or before its steps where no block runs. Such a backend
  /// must compare rings (ringsDiffer never null).
  virtual bool comparesRowEnds(const TimeBlockPlan &plan) const {
    return false;
  }

  /// Called after the function is lowered, after the buffers of its loads
  /// are freed at its returns: frees what else lives until it returns.
  virtual void finishFunction(func::FuncOp func) = 0;
};

/// Splits the steps of a distributed time loop's calc into boxes.
class StepPartition {
public:
  virtual ~StepPartition();
  /// Emits step `step` (the loop's induction variable) of the calc over its
  /// grid [lower, upper) through `emitBox`; `exchanged` holds the buffers
  /// of the loop's exchanged fields at this step, in the order of its
  /// exchanges.
  virtual void emitStep(OpBuilder &builder, Value step, ValueRange lower,
                        ValueRange upper, ValueRange exchanged,
                        BoxFn emitBox) = 0;
  /// Emits what a time block needs before it: the exchange of the
  /// `exchanged` buffers, whose halos the buffer plan checked are at least
  /// T x radius deep (a block writes its own points only, so every block
  /// needs a fresh halo).
  virtual void emitBeforeTimeBlock(OpBuilder &builder,
                                   ValueRange exchanged) = 0;
  /// Per axis, how many cells of the neighbours' points a step may compute
  /// below and above the grid; null where the axis is not distributed
  /// (TimeBlock::ringLow).
  virtual ArrayRef<Value> getRingLow() const = 0;
  virtual ArrayRef<Value> getRingHigh() const = 0;
};

/// The halo exchanges of a function that stencil-distribute made one MPI
/// rank's part (`stencil.mpi`); StencilToMPI implements it.
class ExchangeLowering {
public:
  virtual ~ExchangeLowering();
  /// Rejects, before the IR changes, what cannot run across ranks.
  virtual LogicalResult checkFunction(func::FuncOp func) = 0;
  /// Exchanges the halo of `buffer`, the field of `exchange`, where the op
  /// is.
  virtual void emitExchange(OpBuilder &builder, ExchangeOp exchange,
                            Value buffer) = 0;
  /// Plans the steps of copy-form time loop `loop`, whose calc reads
  /// exchanged fields: emits at `builder`, before the loop, what the plan
  /// needs to know, and returns how each step of the calc is split.
  virtual std::unique_ptr<StepPartition>
  planSteps(OpBuilder &builder, IterateOp loop, const TimeLoopPlan &plan) = 0;
  /// `value`, this rank's part of a reduction of `kind`, combined over all
  /// ranks (every rank gets the result).
  virtual Value combineAcrossRanks(OpBuilder &builder, Location loc,
                                   ReductionKind kind, Value value) = 0;
  /// Writes every rank's block of `buffer` (a host memref of the rank's
  /// block plus halo) into the file whose name starts at `path` (a 0-d i8
  /// memref), at the block's place in the global array: a collective write.
  virtual void emitWriteRaw(OpBuilder &builder, Location loc, Value buffer,
                            Value path) = 0;
};

/// Lowers the stencil ops of `func`: plans its buffers (reporting every user
/// error on its op before anything changes), lets `backend` reject what it
/// cannot do, then rewrites. A function marked `stencil.mpi` needs
/// `exchanges`; elsewhere an exchange is the identity.
LogicalResult lowerFunction(func::FuncOp func, LoweringBackend &backend,
                            ExchangeLowering *exchanges);

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_STENCILCOMMON_LOWERINGBACKEND_H

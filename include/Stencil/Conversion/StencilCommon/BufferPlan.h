//===- BufferPlan.h - Where the lowering keeps each field -------*- C++ -*-===//
//
// Every backend lowers a stencil function the same way: each field value
// lives in a buffer, applies write into the buffer of their `outs` field in
// place, and time loops carry buffers from step to step. The BufferPlan
// decides all of that on the stencil IR, before any op is rewritten:
//
// - which buffer holds each field value: a `stencil.load` works in place on
//   its memref (a second load of the same memref, and every load on a
//   device, gets a copy), an apply's results live in its outputs' buffers,
//   a time loop's body arguments in the buffers the loop carries;
// - whether writing in place is legal: an apply may overwrite a buffer only
//   when every field in it is dead afterwards, may read it at the centre
//   only, and inside a time loop may write only buffers the loop carries;
// - which time loops have the copy form of seed 000 Fig. 4 (calc into the
//   destinations, copy back into the sources) and run as a pointer swap,
//   with how many steps they block (temporal blocking) and why not more;
//   which loops of several sweeps are sweep chains that run in blocks too.
//
// Every user error is reported here, on the ops, before the IR changes;
// the lowering that follows (LoweringBackend.h) cannot fail.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILCOMMON_BUFFERPLAN_H
#define STENCIL_CONVERSION_STENCILCOMMON_BUFFERPLAN_H

#include "Stencil/Dialect/Stencil/IR/StencilOps.h"
#include "Stencil/Dialect/Stencil/Utils/CopySection.h"
#include "Stencil/Dialect/Stencil/Utils/SweepChain.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <optional>

namespace mlir::stencil {

/// One stage of a time block's steps: the apply that computes it, and which
/// of the fields the previous stage wrote it reads.
struct TimeBlockStage {
  ApplyOp calc;
  /// Per calc input: the carried pair (the previous stage's output) it
  /// reads, or -1.
  SmallVector<int> carriedInput;
  /// Per calc output: the carried pair it writes.
  SmallVector<unsigned> outputPair;
};

/// The static part of running a time loop in blocks of T steps (seed 000
/// Fig. 3): what each stage of a step reads from where, and how far. A
/// copy-form loop has one stage, its calc; a sweep chain (SweepChain.h)
/// one per sweep. A block runs T x stages levels, level l being stage
/// l mod stages; level l + 1 reads what level l wrote.
struct TimeBlockPlan {
  SmallVector<TimeBlockStage, 2> stages;
  /// T, after the fallbacks the plan warned about; 1: no time blocks.
  int64_t timeBlock = 1;
  /// The schedule's tile (or work group), clipped to the grid.
  SmallVector<int64_t, 3> tile;
  /// How far the stages read the carried fields below and above a point:
  /// the most over the stages.
  SmallVector<int64_t, 3> radiusLow, radiusHigh;
  /// The grid [lower, upper): constants, or index values known at run time
  /// only (defined before the loop).
  SmallVector<OpFoldResult, 3> lower, upper;
  /// The grid's extent along `axis`, when its bounds are constants.
  std::optional<int64_t> getStaticExtent(unsigned axis) const;
  /// Per pair: the element type of its fields.
  SmallVector<Type> elementTypes;
  /// The copy form's calc reduces. The loop's scalars do not feed its
  /// steps, so only the last step's reductions matter: a backend that
  /// reducesInTimeBlocks computes them in each block's last level, others
  /// run the last step alone after blocks that skip them.
  bool reduces = false;
  /// The last step of a sweep chain runs on its own, after the blocks:
  /// blocks keep the earlier stages' fields in rings, the last step writes
  /// them.
  bool lastStepAlone = false;

  unsigned getNumStages() const { return stages.size(); }
  /// The levels of a block: T x stages.
  int64_t getNumLevels() const { return timeBlock * getNumStages(); }
  /// The private buffers an overlapped tile keeps per pair: one per stage,
  /// level l writing buffer l mod n and reading the one before (two for
  /// one stage, which its levels write in turn).
  unsigned getBuffersPerPair() const { return std::max(getNumStages(), 2u); }
  /// The stage of level `level` (from 0).
  const TimeBlockStage &getStage(int64_t level) const {
    return stages[level % getNumStages()];
  }
};

/// How a time loop runs.
struct TimeLoopPlan {
  /// The loop's schedule, else that of the loop around it.
  ScheduleAttr schedule;
  /// Set when the loop has the copy form: it runs as a pointer swap.
  std::optional<CopySection> section;
  /// Set when a loop without the copy form is a sweep chain
  /// (SweepChain.h) that runs in time blocks.
  std::optional<SweepChain> chain;
  /// The time blocks of the copy form or of the sweep chain (timeBlock 1
  /// when none).
  TimeBlockPlan blocks;
  /// A rotating loop whose yield leaves every buffer where it started: its
  /// results are its inits' buffers.
  bool yieldsInPlace = false;
};

struct BufferPlanOptions {
  /// Whether the first `stencil.load` of a memref may work in place on it
  /// (host memory); otherwise every load gets a buffer of its own (device
  /// memory).
  bool loadsAliasMemRefs = true;
};

class BufferPlan {
public:
  /// A buffer the lowering gives to fields.
  struct Buffer {
    enum class Kind {
      /// The memref a `stencil.load` reads, worked on in place.
      MemRef,
      /// A new buffer holding a copy of what a `stencil.load` reads.
      LoadCopy,
      /// A buffer a time loop carries; `position` counts its iteration
      /// arguments (a swap loop's sources, then its destinations).
      LoopArgument,
      /// A rotating loop's result `position`, known only at run time.
      LoopResult,
    };
    Kind kind;
    /// The load or the time loop.
    Operation *owner;
    unsigned position = 0;
  };
  using BufferId = unsigned;

  /// Plans `func`; reports each user error on its op and fails.
  static FailureOr<BufferPlan> build(func::FuncOp func,
                                     const BufferPlanOptions &options);

  /// The buffer of field value `field`.
  BufferId getBuffer(Value field) const;
  const Buffer &getBufferInfo(BufferId id) const { return buffers[id]; }
  unsigned getNumBuffers() const { return buffers.size(); }
  /// The buffer a load, a time loop's argument or a rotating loop's result
  /// got.
  BufferId getLoadBuffer(LoadOp load) const;
  BufferId getLoopBuffer(IterateOp loop, unsigned position,
                         bool result = false) const;

  const TimeLoopPlan &getTimeLoop(IterateOp loop) const;
  /// The apply's schedule, else that of the innermost time loop around it
  /// that has one (null when none has).
  ScheduleAttr getSchedule(ApplyOp apply) const;

private:
  friend class BufferPlanner;
  SmallVector<Buffer> buffers;
  DenseMap<Value, BufferId> bufferOf;
  /// (load or loop, position, 1 for a loop result else 0) -> buffer.
  DenseMap<std::tuple<Operation *, unsigned, unsigned>, BufferId> ownedBuffers;
  DenseMap<Operation *, TimeLoopPlan> timeLoops;
  DenseMap<Operation *, ScheduleAttr> applySchedules;
};

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_STENCILCOMMON_BUFFERPLAN_H

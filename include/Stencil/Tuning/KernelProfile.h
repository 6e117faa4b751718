//===- KernelProfile.h - What the tuning models know of a stencil -*- C++
//-*-===//
//
// The static figures of seed 000 Eq. (1) and seed 001 Eq. (3) for one time
// loop: grid extents, stencil radius, number of arrays, operations per
// point, element size. Read from the IR only.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_TUNING_KERNELPROFILE_H
#define STENCIL_TUNING_KERNELPROFILE_H

#include "Stencil/Dialect/Stencil/IR/StencilOps.h"

#include <algorithm>
#include <string>

namespace mlir::stencil {

struct KernelProfile {
  /// The apply with the most operations in the loop: the calc section.
  ApplyOp kernel;
  unsigned rank = 0;
  /// Points of the grid per axis, outermost first.
  SmallVector<int64_t, 3> extent;
  /// The grid's bounds are known at run time only: `extent` is the largest
  /// grid the fields hold, given the stencil's reach.
  bool extentEstimated = false;
  /// Neither the grid's bounds nor the fields' extents are known before
  /// run time (arrays of run-time extents): `extent` is a large grid.
  bool extentAssumed = false;
  /// Largest read offset below and above the point, per axis (>= 0).
  SmallVector<int64_t, 3> radiusLow, radiusHigh;
  /// Distinct fields the kernel reads or writes (seed 000 "N_array").
  int64_t numArrays = 0;
  /// Fields read at an offset other than 0 along some axis: those whose
  /// halo must be loaded (and exchanged).
  int64_t numHaloArrays = 0;
  /// Fields the kernel writes.
  int64_t numOutputs = 0;
  /// Floating-point operations per point (seed 000 "N_op").
  int64_t opsPerPoint = 0;
  int64_t elementBytes = 4;
  bool isDouble = false;
  /// Whether the fields carry a decomposition.
  DecompositionAttr decomposition;
  /// The loop hands a scalar from one step to the next (a reduction that
  /// accumulates across steps): each step needs the one before it whole.
  bool carriesScalars = false;
  /// One of them is not a reduction's result: the C program's step
  /// variable, read as a value.
  bool carriesStepValue = false;
  /// The step has the calc/copy form of seed 000 Fig. 4 (CopySection.h),
  /// the one the lowerings block in time.
  bool isCopyForm = false;
  /// The applies of a step that compute (not point copies), run in order.
  unsigned numSweeps = 0;
  /// The step is a sweep chain (SweepChain.h), which the lowerings block
  /// in time with one level per apply: `levelsPerStep` of them. Otherwise,
  /// for a step of several applies, why not.
  bool isSweepChain = false;
  unsigned levelsPerStep = 1;
  /// The chain's sweeps exchange halos between them: blocks need the
  /// function to run as one process.
  bool chainExchanges = false;
  /// The fields each sweep of the chain writes: a block keeps a copy of
  /// each per sweep (two for one sweep) in its tile.
  int64_t chainFields = 0;

  /// How many fields a time block's overlapped tile holds: the chain's
  /// copies, else every field the kernel touches.
  int64_t getTileFields() const {
    if (!isSweepChain)
      return numArrays;
    return chainFields * std::max<int64_t>(levelsPerStep, 2);
  }
  std::string whyNotChain;

  /// Whether the lowerings can compute several steps per sweep (T > 1):
  /// the calc/copy form or a sweep chain, carrying no value from step to
  /// step.
  bool canBlockInTime() const {
    return (isCopyForm || isSweepChain) && !carriesScalars && !carriesStepValue;
  }

  /// For remarks: how the extents were found, when they were estimated
  /// ("" otherwise).
  std::string describeEstimate() const;

  /// Fields neither read off-centre nor written (Himeno's coefficients):
  /// read at the point only.
  int64_t getNumCentreOnlyInputs() const {
    return std::max<int64_t>(numArrays - numHaloArrays - numOutputs, 0);
  }

  /// Seed 000 Eq. (1): bytes per operation of one sweep.
  double getAlgorithmBF() const {
    return double(numArrays * elementBytes) / double(opsPerPoint);
  }
};

/// Profiles the time loop's kernel; fails with an error at the loop when
/// it holds no apply, or when neither its grid nor its fields have a static
/// size.
FailureOr<KernelProfile> profileTimeLoop(IterateOp iterate);

/// Calls `fn` with each time loop under `root` and its profile; fails (the
/// error already reported) at the first loop that cannot be profiled.
LogicalResult forEachProfiledTimeLoop(
    Operation *root, function_ref<void(IterateOp, const KernelProfile &)> fn);

} // namespace mlir::stencil

#endif // STENCIL_TUNING_KERNELPROFILE_H

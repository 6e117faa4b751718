//===- TuneExchangeDepth.cpp - Seed 001's halo-exchange depth model -------===//
//
// With a halo of depth k x radius exchanged every k steps, one block of k
// steps on a rank costs (seed 001 Eq. (1))
//
//   t_block(k) = max(T_inner(k), T_comm(k)) + T_boundary(k)
//
// where the interior (points that need no halo) is computed while the halo
// is in flight, and the boundary ring — including the redundant points of
// the deeper halo, which shrink by the radius each step — afterwards. Each
// computation costs max(flop/F, byte/B) per point plus a launch cost
// (Eqs. (3), (4)); communication costs the network latency plus the halo
// bytes over the network bandwidth, per distributed axis. k minimizes
// ceil(steps / k) x t_block(k) (Eq. (2)).
//
// With on-node time blocks of T steps (seed 000 Fig. 3) each block starts
// with an exchange T x radius deep (it writes its own points only), so
// k = T; its steps compute the block grown by (T - 1 - j) x radius into the
// neighbours' points. The model then predicts, per step, one block's
// computation (inputs read once for T steps) plus its exchange, which is
// not overlapped, over T; the remark says so next to k.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Support/Shape.h"
#include "Stencil/Tuning/KernelProfile.h"
#include "Stencil/Tuning/Passes.h"
#include "Stencil/Tuning/TargetDescription.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILTUNEEXCHANGEDEPTH
#include "Stencil/Tuning/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {

/// Splits `ranks` over the distributed axes as evenly as possible (largest
/// factor to the largest axis).
SmallVector<int64_t, 3> processGrid(const KernelProfile &profile,
                                    int64_t ranks) {
  SmallVector<int64_t, 3> grid(profile.rank, 1);
  SmallVector<unsigned, 3> axes;
  for (unsigned axis = 0; axis < profile.rank; ++axis)
    if (profile.decomposition.isDistributed(axis))
      axes.push_back(axis);
  // Peel prime factors, largest first, onto the axis with the most points
  // per rank.
  // Trial division up to the square root: what remains is prime.
  SmallVector<int64_t> factors;
  int64_t n = ranks;
  for (int64_t p = 2; p * p <= n; ++p)
    while (n % p == 0) {
      factors.push_back(p);
      n /= p;
    }
  if (n > 1)
    factors.push_back(n);
  for (int64_t factor : llvm::reverse(factors)) {
    unsigned best = axes.front();
    for (unsigned axis : axes)
      if (profile.extent[axis] / grid[axis] > profile.extent[best] / grid[best])
        best = axis;
    grid[best] *= factor;
  }
  return grid;
}

struct Prediction {
  int64_t depth;
  double inner, comm, boundary, perStep;
};

/// The prediction with the least time per step (the first of equals).
const Prediction *getFastest(ArrayRef<Prediction> predictions) {
  const Prediction *best = nullptr;
  for (const Prediction &p : predictions)
    if (!best || p.perStep < best->perStep)
      best = &p;
  return best;
}

/// Points per rank along each axis (rounded up) for the process grid
/// `processes`.
SmallVector<int64_t, 3> getLocalBlock(const KernelProfile &profile,
                                      ArrayRef<int64_t> processes) {
  SmallVector<int64_t, 3> local;
  for (unsigned axis = 0; axis < profile.rank; ++axis)
    local.push_back(llvm::divideCeil(profile.extent[axis], processes[axis]));
  return local;
}

} // namespace

namespace {
struct StencilTuneExchangeDepthPass
    : public stencil::impl::StencilTuneExchangeDepthBase<
          StencilTuneExchangeDepthPass> {
  using StencilTuneExchangeDepthBase::StencilTuneExchangeDepthBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (ranks < 1 || maxDepth < 1) {
      module.emitError("stencil-tune-exchange-depth: ranks and max-depth "
                       "must be at least 1");
      return signalPassFailure();
    }
    FailureOr<TargetDescription> found =
        getTuningTarget(module, device, "stencil-tune-exchange-depth");
    if (failed(found))
      return signalPassFailure();
    const TargetDescription &target = *found;
    LogicalResult result = forEachProfiledTimeLoop(
        module, [&](IterateOp iterate, const KernelProfile &profile) {
          if (!profile.decomposition)
            return;
          ScheduleAttr schedule = iterate.getScheduleAttr();
          if (schedule && schedule.getTimeBlock() > 1) {
            tuneWithTimeBlocks(iterate, profile, target);
            return;
          }
          // One rank exchanges nothing: k does not matter.
          if (ranks == 1)
            return;
          tune(iterate, profile, target);
        });
    if (failed(result))
      signalPassFailure();
  }

  static bool reduces(IterateOp iterate) {
    bool found = false;
    iterate.walk([&](ApplyOp apply) { found |= apply.getNumReductions() > 0; });
    return found;
  }

  /// The steps the model assumes: the function's stencil.max_steps, else
  /// 1000.
  int64_t getSteps(IterateOp iterate) {
    int64_t steps = 1000;
    if (auto func = iterate->getParentOfType<FunctionOpInterface>())
      if (IntegerAttr attr =
              StencilDialect::MaxStepsAttrHelper(&getContext()).getAttr(func))
        steps = std::max<int64_t>(1, attr.getInt());
    return steps;
  }

  void setSchedule(IterateOp iterate, const KernelProfile &profile,
                   int64_t timeBlock, int64_t depth) {
    ScheduleAttr schedule = iterate.getScheduleAttr();
    SmallVector<int64_t, 3> wg = schedule
                                     ? SmallVector<int64_t, 3>(schedule.getWg())
                                     : SmallVector<int64_t, 3>(profile.rank, 1);
    iterate.setScheduleAttr(ScheduleAttr::get(
        &getContext(), wg, schedule ? schedule.getTile() : ArrayRef<int64_t>(),
        timeBlock, depth, schedule && schedule.getStreamingStores()));
  }

  /// Whether a halo of `depth` x radius fits the ranks' blocks: the
  /// runtime needs the thinnest block, extent / ranks rounded down, at
  /// least as thick as the halo.
  static bool haloFits(const KernelProfile &profile,
                       ArrayRef<int64_t> processes, int64_t depth) {
    for (unsigned axis = 0; axis < profile.rank; ++axis)
      if (processes[axis] > 1 && profile.extent[axis] / processes[axis] <
                                     depth * std::max(profile.radiusLow[axis],
                                                      profile.radiusHigh[axis]))
        return false;
    return true;
  }

  /// Seconds per point of one step: flops over the peak or bytes over the
  /// bandwidth, each array read and written once per `stepsPerPass` steps.
  static double getPointSeconds(const KernelProfile &profile,
                                const TargetDescription &target,
                                int64_t stepsPerPass) {
    double peak =
        (profile.isDouble ? target.peakGflopsF64 : target.peakGflopsF32) * 1e9;
    double bandwidth = target.bandwidthGBps * 1e9;
    return std::max(double(profile.opsPerPoint) / peak,
                    double(profile.numArrays * profile.elementBytes) /
                        (bandwidth * double(stepsPerPass)));
  }

  /// T > 1 from the time-block rule: k = T, or T smaller where the ranks'
  /// blocks are thinner than its halo.
  void tuneWithTimeBlocks(IterateOp iterate, const KernelProfile &profile,
                          const TargetDescription &target) {
    int64_t timeBlock = iterate.getScheduleAttr().getTimeBlock();
    SmallVector<int64_t, 3> processes = processGrid(profile, ranks);
    SmallVector<int64_t, 3> local = getLocalBlock(profile, processes);
    std::string process = formatShape(processes, AxisOrder::OutermostFirst);
    if (!haloFits(profile, processes, timeBlock)) {
      int64_t fits = timeBlock - 1;
      while (fits > 1 && !haloFits(profile, processes, fits))
        --fits;
      iterate.emitRemark() << llvm::formatv(
          "stencil-tune-exchange-depth: time blocks of {0} steps need halos "
          "{0} x radius deep, thicker than the blocks of {1} ranks (process "
          "grid {2}); time_block {0} -> {3}",
          timeBlock, ranks, process, fits);
      if (fits <= 1) {
        setSchedule(iterate, profile, 1, 1);
        if (ranks > 1)
          tune(iterate, profile, target);
        return;
      }
      timeBlock = fits;
    }
    // One rank exchanges nothing: the halo need only last a block.
    if (ranks == 1) {
      setSchedule(iterate, profile, timeBlock, timeBlock);
      return;
    }
    // A block reads and writes each array once for its T steps.
    double perPoint = getPointSeconds(profile, target, timeBlock);
    double compute = target.launchOverheadUs * 1e-6;
    for (int64_t j = 0; j < timeBlock; ++j)
      compute +=
          boxPoints(profile, processes, local, timeBlock - 1 - j) * perPoint;
    double comm = commTime(profile, processes, local, timeBlock, target);
    double blockedPerStep = (compute + comm) / double(timeBlock);
    // Single steps overlap their exchanges: the faster of the two runs.
    int64_t steps = getSteps(iterate);
    SmallVector<Prediction> single =
        predictSingleSteps(profile, target, processes, local, steps);
    // Deep single steps would count the neighbours' points in a reduction
    // (blocks skip the reductions, which the last step, run alone, does).
    if (reduces(iterate) && !single.empty())
      single.truncate(1);
    const Prediction *best = getFastest(single);
    std::string blocked = llvm::formatv(
        "time blocks of T = {0} steps with k = {0} (each block exchanges a "
        "halo {0} x radius deep first, not overlapped): {1:F1} us/step "
        "(compute {2:F1}, comm {3:F1} us per block)",
        timeBlock, blockedPerStep * 1e6, compute * 1e6, comm * 1e6);
    if (best && best->perStep < blockedPerStep) {
      setSchedule(iterate, profile, 1, best->depth);
      iterate.emitRemark() << llvm::formatv(
                                  "exchange depth k = {0}, time_block 1 on "
                                  "'{1}' for {2} ranks (process grid {3}, {4} "
                                  "steps): single steps are predicted faster "
                                  "than ",
                                  best->depth, target.name, ranks, process,
                                  steps)
                                  .str()
                           << blocked << formatPredictions(single)
                           << profile.describeEstimate();
      return;
    }
    setSchedule(iterate, profile, timeBlock, timeBlock);
    iterate.emitRemark() << llvm::formatv(
                                "exchange depth k = {0} with time_block {0} "
                                "on '{1}' for {2} ranks (process grid {3}, "
                                "{4} steps): ",
                                timeBlock, target.name, ranks, process, steps)
                                .str()
                         << blocked << "; single steps"
                         << formatPredictions(single)
                         << profile.describeEstimate();
  }

  /// Points of the local block grown by `g` x radius on the split sides of
  /// the distributed axes.
  static double boxPoints(const KernelProfile &profile,
                          ArrayRef<int64_t> processes, ArrayRef<int64_t> local,
                          int64_t g) {
    double points = 1;
    for (unsigned axis = 0; axis < profile.rank; ++axis) {
      int64_t size = local[axis];
      if (processes[axis] > 1)
        size += g * (profile.radiusLow[axis] + profile.radiusHigh[axis]);
      points *= double(size);
    }
    return points;
  }

  /// One exchange of a halo k x radius deep: per distributed axis the
  /// network latency plus the bytes over its bandwidth.
  static double commTime(const KernelProfile &profile,
                         ArrayRef<int64_t> processes, ArrayRef<int64_t> local,
                         int64_t k, const TargetDescription &target) {
    double time = 0;
    for (unsigned axis = 0; axis < profile.rank; ++axis) {
      if (processes[axis] == 1)
        continue;
      double face = 1;
      for (unsigned other = 0; other < profile.rank; ++other)
        if (other != axis)
          face *= double(local[other]);
      double bytes = face * k *
                     (profile.radiusLow[axis] + profile.radiusHigh[axis]) *
                     profile.numHaloArrays * profile.elementBytes;
      time += target.networkLatencyUs * 1e-6 +
              bytes / (target.networkBandwidthGBps * 1e9);
    }
    return time;
  }

  void tune(IterateOp iterate, const KernelProfile &profile,
            const TargetDescription &target) {
    if (reduces(iterate)) {
      iterate.emitRemark("stencil-tune-exchange-depth: the loop reduces over "
                         "its grid, and deeper exchanges would compute the "
                         "neighbours' points too; keeping k = 1");
      return;
    }
    SmallVector<int64_t, 3> grid = processGrid(profile, ranks);
    SmallVector<int64_t, 3> local = getLocalBlock(profile, grid);
    int64_t steps = getSteps(iterate);
    SmallVector<Prediction> predictions =
        predictSingleSteps(profile, target, grid, local, steps);
    if (predictions.empty()) {
      iterate.emitRemark("stencil-tune-exchange-depth: the blocks of ")
          << ranks.getValue()
          << " ranks are thinner than the stencil; keeping k = 1";
      return;
    }
    const Prediction *best = getFastest(predictions);
    ScheduleAttr schedule = iterate.getScheduleAttr();
    setSchedule(iterate, profile, schedule ? schedule.getTimeBlock() : 1,
                best->depth);
    std::string process = formatShape(grid, AxisOrder::OutermostFirst);
    iterate.emitRemark() << llvm::formatv(
                                "exchange depth k = {0} on '{1}' for {2} ranks "
                                "(process grid {3}, {4} steps)",
                                best->depth, target.name, ranks, process, steps)
                                .str()
                         << formatPredictions(predictions)
                         << profile.describeEstimate();
  }

  /// Seed 001's model for single steps with k = 1 .. max-depth, as far as
  /// the halo fits the blocks of `local` points.
  SmallVector<Prediction> predictSingleSteps(const KernelProfile &profile,
                                             const TargetDescription &target,
                                             ArrayRef<int64_t> grid,
                                             ArrayRef<int64_t> local,
                                             int64_t steps) {
    double perPoint = getPointSeconds(profile, target, 1);
    double launch = target.launchOverheadUs * 1e-6;
    SmallVector<Prediction> predictions;
    for (int64_t k = 1; k <= maxDepth; ++k) {
      // The interior needs no halo for k steps: shrink by k x radius.
      double inner = 1;
      bool fits = true;
      for (unsigned axis = 0; axis < profile.rank; ++axis) {
        int64_t size = local[axis];
        if (grid[axis] > 1)
          size -= k * (profile.radiusLow[axis] + profile.radiusHigh[axis]);
        fits &= size > 0;
        inner *= double(std::max<int64_t>(size, 0));
      }
      if (!fits)
        break;
      double tInner = k * (inner * perPoint + launch);
      // Step s (0-based) updates the block grown by (k - 1 - s) x radius.
      double tBoundary = 0;
      for (int64_t s = 0; s < k; ++s)
        tBoundary +=
            (boxPoints(profile, grid, local, k - 1 - s) - inner) * perPoint +
            launch;
      double tComm = commTime(profile, grid, local, k, target);
      double block = std::max(tInner, tComm) + tBoundary;
      predictions.push_back(
          {k, tInner, tComm, tBoundary,
           double(llvm::divideCeil(steps, k)) * block / double(steps)});
    }
    return predictions;
  }

  static std::string formatPredictions(ArrayRef<Prediction> predictions) {
    std::string table;
    for (const Prediction &p : predictions)
      table += llvm::formatv("; k = {0}: {1:F1} us/step (inner {2:F1}, comm "
                             "{3:F1}, boundary {4:F1} us per block)",
                             p.depth, p.perStep * 1e6, p.inner * 1e6,
                             p.comm * 1e6, p.boundary * 1e6)
                   .str();
    return table;
  }
};
} // namespace

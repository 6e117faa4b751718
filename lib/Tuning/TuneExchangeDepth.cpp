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
          // One rank exchanges nothing: k does not matter.
          if (!profile.decomposition || ranks == 1)
            return;
          tune(iterate, profile, target);
        });
    if (failed(result))
      signalPassFailure();
  }

  void tune(IterateOp iterate, const KernelProfile &profile,
            const TargetDescription &target) {
    bool reduces = false;
    iterate.walk(
        [&](ApplyOp apply) { reduces |= apply.getNumReductions() > 0; });
    if (reduces) {
      iterate.emitRemark("stencil-tune-exchange-depth: the loop reduces over "
                         "its grid, and deeper exchanges would compute the "
                         "neighbours' points too; keeping k = 1");
      return;
    }
    SmallVector<int64_t, 3> grid = processGrid(profile, ranks);
    SmallVector<int64_t, 3> local;
    for (unsigned axis = 0; axis < profile.rank; ++axis)
      local.push_back(llvm::divideCeil(profile.extent[axis], grid[axis]));
    double peak =
        (profile.isDouble ? target.peakGflopsF64 : target.peakGflopsF32) * 1e9;
    double bandwidth = target.bandwidthGBps * 1e9;
    double perPoint =
        std::max(double(profile.opsPerPoint) / peak,
                 double(profile.numArrays * profile.elementBytes) / bandwidth);
    double launch = target.launchOverheadUs * 1e-6;
    int64_t steps = 1000;
    if (auto func = iterate->getParentOfType<FunctionOpInterface>())
      if (IntegerAttr attr =
              StencilDialect::MaxStepsAttrHelper(&getContext()).getAttr(func))
        steps = std::max<int64_t>(1, attr.getInt());

    // Points of a box that is the local block grown by `g` x radius on the
    // split sides of the distributed axes.
    auto boxPoints = [&](int64_t g) {
      double points = 1;
      for (unsigned axis = 0; axis < profile.rank; ++axis) {
        int64_t size = local[axis];
        if (grid[axis] > 1)
          size += g * (profile.radiusLow[axis] + profile.radiusHigh[axis]);
        points *= double(size);
      }
      return points;
    };
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
        tBoundary += (boxPoints(k - 1 - s) - inner) * perPoint + launch;
      double tComm = 0;
      for (unsigned axis = 0; axis < profile.rank; ++axis) {
        if (grid[axis] == 1)
          continue;
        double face = 1;
        for (unsigned other = 0; other < profile.rank; ++other)
          if (other != axis)
            face *= double(local[other]);
        double bytes = face * k *
                       (profile.radiusLow[axis] + profile.radiusHigh[axis]) *
                       profile.numHaloArrays * profile.elementBytes;
        tComm += target.networkLatencyUs * 1e-6 +
                 bytes / (target.networkBandwidthGBps * 1e9);
      }
      double block = std::max(tInner, tComm) + tBoundary;
      predictions.push_back(
          {k, tInner, tComm, tBoundary,
           double(llvm::divideCeil(steps, k)) * block / double(steps)});
    }
    if (predictions.empty()) {
      iterate.emitRemark("stencil-tune-exchange-depth: the blocks of ")
          << ranks.getValue()
          << " ranks are thinner than the stencil; keeping k = 1";
      return;
    }
    const Prediction *best = &predictions.front();
    for (const Prediction &p : predictions)
      if (p.perStep < best->perStep)
        best = &p;
    ScheduleAttr schedule = iterate.getScheduleAttr();
    SmallVector<int64_t, 3> wg = schedule
                                     ? SmallVector<int64_t, 3>(schedule.getWg())
                                     : SmallVector<int64_t, 3>(profile.rank, 1);
    iterate.setScheduleAttr(ScheduleAttr::get(
        &getContext(), wg, schedule ? schedule.getTile() : ArrayRef<int64_t>(),
        schedule ? schedule.getTimeBlock() : 1, best->depth,
        schedule && schedule.getStreamingStores()));
    std::string table;
    for (const Prediction &p : predictions)
      table += llvm::formatv("; k = {0}: {1:F1} us/step (inner {2:F1}, comm "
                             "{3:F1}, boundary {4:F1} us per block)",
                             p.depth, p.perStep * 1e6, p.inner * 1e6,
                             p.comm * 1e6, p.boundary * 1e6)
                   .str();
    std::string process = formatShape(grid, AxisOrder::OutermostFirst);
    iterate.emitRemark() << llvm::formatv(
                                "exchange depth k = {0} on '{1}' for {2} ranks "
                                "(process grid {3}, {4} steps)",
                                best->depth, target.name, ranks, process, steps)
                                .str()
                         << table << profile.describeEstimate();
  }
};
} // namespace

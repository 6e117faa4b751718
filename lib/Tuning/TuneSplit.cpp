//===- TuneSplit.cpp - Seed 002's multi-device split and local sizes ------===//
//
// §4.2: two devices with PE counts few <= many get shares by the ratio
// r = PE_few / (PE_few + PE_many) and the kernel's intensity class: for
// r <= 0.4 the weaker one gets r x S of the work items, S = 0.1, 0.3, 0.5
// for big, middle, small kernels (the shares measured at 2 : 3, applied as
// in the paper's worked example: 2 : 5, middle, 1000 items -> 86 / 914);
// for r > 0.4 both get half. More devices are chained pairwise from the
// weakest. §4.3: a device's local work size along x is the first divisor of
// its part at or above its PEs per compute unit; in 2-D the pair of
// divisors whose product is a multiple of the warp, fits the maximum work
// group, has the largest x (the contiguous direction) and then the largest
// product.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Support/Shape.h"
#include "Stencil/Tuning/KernelProfile.h"
#include "Stencil/Tuning/Passes.h"
#include "Stencil/Tuning/TargetDescription.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <numeric>

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILTUNESPLIT
#include "Stencil/Tuning/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {

double classShare(StringRef intensity) {
  if (intensity == "big")
    return 0.1;
  if (intensity == "middle")
    return 0.3;
  return 0.5;
}

/// Work items per device, in device order.
SmallVector<int64_t> splitWork(ArrayRef<int64_t> processingElements,
                               StringRef intensity, int64_t items) {
  unsigned n = processingElements.size();
  SmallVector<unsigned> order(n);
  std::iota(order.begin(), order.end(), 0);
  // Weakest first; equal devices keep their order.
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return std::make_pair(processingElements[a], a) <
           std::make_pair(processingElements[b], b);
  });
  // Chain the pairwise ratios from the weakest device: weight[i+1] /
  // weight[i] = share_many / share_few of that pair.
  SmallVector<double> weight(n, 1.0);
  for (unsigned i = 0; i + 1 < n; ++i) {
    double few = processingElements[order[i]];
    double many = processingElements[order[i + 1]];
    double ratio = few / (few + many);
    double shareFew = ratio <= 0.4 ? ratio * classShare(intensity) : 0.5;
    weight[i + 1] = weight[i] * (1 - shareFew) / shareFew;
  }
  double total = std::accumulate(weight.begin(), weight.end(), 0.0);
  SmallVector<int64_t> counts(n, 0);
  int64_t assigned = 0;
  // Round each share to the nearest integer; the strongest device takes
  // the rest.
  for (unsigned i = 0; i + 1 < n; ++i) {
    counts[order[i]] = std::llround(items * weight[i] / total);
    assigned += counts[order[i]];
  }
  counts[order[n - 1]] = items - assigned;
  return counts;
}

SmallVector<int64_t> divisors(int64_t value) {
  SmallVector<int64_t> result;
  for (int64_t d = 1; d <= value; ++d)
    if (value % d == 0)
      result.push_back(d);
  return result;
}

/// Seed 002 §4.3; sizes in the seed's order (x first).
SmallVector<int64_t> localWorkSize(ArrayRef<int64_t> global,
                                   const TargetDescription &target) {
  if (global.size() == 1) {
    for (int64_t d : divisors(global[0]))
      if (d >= target.lanesPerUnit)
        return {d};
    return {global[0]};
  }
  SmallVector<int64_t> best;
  for (int64_t dx : divisors(global[0]))
    for (int64_t dy : divisors(global[1])) {
      int64_t product = dx * dy;
      if (product > target.maxWorkGroupSize || product % target.simdWidth != 0)
        continue;
      if (best.empty() || dx > best[0] ||
          (dx == best[0] && product > best[0] * best[1]))
        best = {dx, dy};
    }
  if (best.empty()) {
    int64_t dx = 1;
    for (int64_t d : divisors(global[0]))
      if (d <= target.maxWorkGroupSize)
        dx = d;
    return {dx, 1};
  }
  return best;
}

struct StencilTuneSplitPass
    : public stencil::impl::StencilTuneSplitBase<StencilTuneSplitPass> {
  using StencilTuneSplitBase::StencilTuneSplitBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!intensity.empty() && intensity != "big" && intensity != "middle" &&
        intensity != "small") {
      module.emitError("stencil-tune-split: intensity must be big, middle "
                       "or small, got '")
          << intensity << "'";
      return signalPassFailure();
    }
    FailureOr<SmallVector<TargetDescription>> targets =
        readAttachedTargets(module);
    if (failed(targets))
      return signalPassFailure();
    if (targets->size() < 2) {
      module.emitError("stencil-tune-split needs at least two attached "
                       "devices, got ")
          << targets->size();
      return signalPassFailure();
    }
    LogicalResult result = forEachProfiledTimeLoop(
        module, [&](IterateOp iterate, const KernelProfile &profile) {
          // The class follows the kernel's balance against the weakest
          // device's: compute-bound is big, within 4x of the machine balance
          // middle, otherwise small.
          std::string kind = intensity;
          if (kind.empty()) {
            double system = targets->front().getSystemBF(profile.isDouble);
            double algorithm = profile.getAlgorithmBF();
            kind = algorithm < system       ? "big"
                   : algorithm < 4 * system ? "middle"
                                            : "small";
          }
          SmallVector<int64_t> pes;
          for (const TargetDescription &target : *targets)
            pes.push_back(target.getProcessingElements());
          SmallVector<int64_t> counts =
              splitWork(pes, kind, profile.extent.front());
          Builder builder(&getContext());
          SmallVector<Attribute> localSizes;
          std::string text;
          for (auto [index, target] : llvm::enumerate(*targets)) {
            // Each device's part: its rows of the outermost axis, the rest
            // whole; local sizes over the two innermost axes (x first, as
            // the seed counts them), 1 along a third.
            SmallVector<int64_t, 3> part(profile.extent);
            part.front() = counts[index];
            SmallVector<int64_t> global;
            global.push_back(part.back());
            if (profile.rank >= 2)
              global.push_back(part[profile.rank - 2]);
            SmallVector<int64_t> seedLocal =
                counts[index] > 0 ? localWorkSize(global, target)
                                  : SmallVector<int64_t>(global.size(), 1);
            // In the IR, outermost axis first.
            SmallVector<int64_t, 3> local(profile.rank, 1);
            for (auto [d, size] : llvm::enumerate(seedLocal))
              local[profile.rank - 1 - d] = size;
            localSizes.push_back(builder.getDenseI64ArrayAttr(local));
            text +=
                llvm::formatv("; {0} ({1} PEs): {2} of {3} points along the "
                              "outermost axis, local size {4}",
                              target.name, pes[index], counts[index],
                              profile.extent.front(),
                              formatShape(local, AxisOrder::InnermostFirst))
                    .str();
          }
          StencilDialect::DeviceSplitAttrHelper(&getContext())
              .setAttr(iterate, builder.getDenseI64ArrayAttr(counts));
          StencilDialect::LocalSizesAttrHelper(&getContext())
              .setAttr(iterate, builder.getArrayAttr(localSizes));
          iterate.emitRemark()
              << "split over " << targets->size() << " devices for a " << kind
              << " kernel" << text << profile.describeEstimate();
        });
    if (failed(result))
      signalPassFailure();
  }
};

} // namespace

//===- KernelProfile.cpp - Static figures of a time loop ------------------===//

#include "Stencil/Tuning/KernelProfile.h"

#include "Stencil/Dialect/Stencil/Analysis/AccessExtents.h"
#include "Stencil/Dialect/Stencil/Utils/CopySection.h"
#include "Stencil/Dialect/Stencil/Utils/SweepChain.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::stencil;

/// Operations on floating-point values, as seed 000 counts operators:
/// arithmetic, min/max and math functions; conversions are free.
static int64_t countOps(ApplyOp apply) {
  int64_t count = 0;
  apply.getBodyBlock()->walk([&](Operation *op) {
    if (llvm::isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
                  arith::NegFOp, arith::MinNumFOp, arith::MaxNumFOp,
                  arith::MinimumFOp, arith::MaximumFOp>(op) ||
        op->getDialect()->getNamespace() == "math")
      ++count;
  });
  return count;
}

FailureOr<KernelProfile> mlir::stencil::profileTimeLoop(IterateOp iterate) {
  KernelProfile profile;
  int64_t mostOps = -1;
  iterate.getBody().walk([&](ApplyOp apply) {
    int64_t ops = countOps(apply);
    if (ops > mostOps) {
      mostOps = ops;
      profile.kernel = apply;
    }
  });
  if (!profile.kernel)
    return iterate.emitError("time loop holds no stencil.apply to tune");
  GridOp grid = profile.kernel.getGridOp();
  if (!grid)
    return iterate.emitError(
        "tuning needs the grid of the time loop's kernel to be a "
        "stencil.grid");
  profile.rank = grid.getRank();
  AccessExtentAnalysis reads(profile.kernel);
  Extent extent = reads.getReadExtent(profile.kernel);
  // A sweep chain's time blocks grow by the farthest reach of any sweep.
  profile.isCopyForm = matchCopySection(iterate).has_value();
  if (!profile.isCopyForm)
    if (std::optional<SweepChain> chain =
            matchSweepChain(iterate, &profile.whyNotChain,
                            /*exchangesAreIdentity=*/true)) {
      profile.isSweepChain = true;
      profile.chainExchanges =
          !iterate.getBodyBlock()->getOps<ExchangeOp>().empty();
      profile.chainFields = chain->stages.front().carried.size();
      profile.levelsPerStep = chain->stages.size();
      for (const SweepChain::Stage &stage : chain->stages)
        extent.unite(getReadExtent(stage.apply));
    }
  for (unsigned axis = 0; axis < profile.rank; ++axis) {
    profile.radiusLow.push_back(extent.getLowHalo(axis));
    profile.radiusHigh.push_back(extent.getHighHalo(axis));
  }
  // A bound known at run time only (`i < imax-1`): the grid is at most what
  // the fields hold once the stencil's reach is taken off.
  FieldType fieldType = profile.kernel.getFirstFieldType();
  for (unsigned axis = 0; axis < profile.rank; ++axis) {
    int64_t lower = grid.getStaticLower()[axis];
    int64_t upper = grid.getStaticUpper()[axis];
    int64_t size = fieldType.getShape()[axis];
    bool dynamic = ShapedType::isDynamic(lower) || ShapedType::isDynamic(upper);
    if (dynamic && ShapedType::isDynamic(size)) {
      // Arrays of run-time extents (C99 `double A[n][n]`): tune for a grid
      // far larger than the caches, about 2^24 points in all, where tiles
      // and not the grid's edges decide.
      static const int64_t assumed[] = {int64_t(1) << 24, 4096, 256};
      profile.extentAssumed = true;
      profile.extent.push_back(assumed[std::min(profile.rank, 3u) - 1]);
      continue;
    }
    if (ShapedType::isDynamic(lower))
      lower = profile.radiusLow[axis];
    if (ShapedType::isDynamic(upper))
      upper = size - profile.radiusHigh[axis];
    profile.extentEstimated |= dynamic;
    profile.extent.push_back(std::max<int64_t>(upper - lower, 1));
  }
  profile.numHaloArrays = llvm::count_if(
      profile.kernel.getBodyBlock()->getArguments(), [&](BlockArgument arg) {
        std::optional<Extent> argExtent = reads.getExtent(arg);
        return argExtent && argExtent->getRank() == profile.rank &&
               !argExtent->isCentre();
      });
  // Arrays streamed per sweep: lower-rank fields (coefficient tables) hold
  // a line or a plane of the grid and stay cached.
  llvm::SmallPtrSet<Value, 16> fields;
  for (Value value : profile.kernel.getInputs())
    if (auto field = llvm::dyn_cast<FieldType>(value.getType());
        field && field.getShape().size() == profile.rank) {
      fields.insert(value);
      profile.decomposition = field.getDecomposition();
    }
  for (Value value : profile.kernel.getOutputs())
    fields.insert(value);
  profile.numArrays = fields.size();
  profile.numOutputs = profile.kernel.getOutputs().size();
  profile.opsPerPoint = std::max<int64_t>(1, mostOps);
  Type elementType = profile.kernel.getFirstFieldType().getElementType();
  profile.isDouble = elementType.isF64();
  profile.elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  // A sweep computes something: an apply that only copies fields at the
  // point (a copy section) is not one.
  iterate.getBodyBlock()->walk([&](ApplyOp apply) {
    bool copies = llvm::all_of(
        apply.getBodyBlock()->without_terminator(), [](Operation &op) {
          auto access = llvm::dyn_cast<AccessOp>(op);
          return access && llvm::all_of(access.getOffset(), [](int64_t offset) {
                   return offset == 0;
                 });
        });
    // An apply that returns a scalar input as it is (a boundary row set to
    // a value) computes that value: a sweep too.
    copies &= llvm::all_of(
        apply.getBodyBlock()->getTerminator()->getOperands(),
        [](Value value) { return value.getDefiningOp<AccessOp>() != nullptr; });
    if (!copies)
      ++profile.numSweeps;
  });
  auto yield = llvm::cast<YieldOp>(iterate.getBodyBlock()->getTerminator());
  for (BlockArgument argument : iterate.getBodyBlock()->getArguments()) {
    if (llvm::isa<FieldType>(argument.getType()) || argument.use_empty())
      continue;
    Value next = yield.getValues()[argument.getArgNumber()];
    profile.carriesStepValue |= !next.getDefiningOp<ApplyOp>();
  }
  profile.carriesScalars = llvm::any_of(
      iterate.getBodyBlock()->getArguments(), [](BlockArgument argument) {
        return !llvm::isa<FieldType>(argument.getType()) &&
               !argument.use_empty();
      });
  return profile;
}

std::string KernelProfile::describeEstimate() const {
  if (!extentEstimated && !extentAssumed)
    return "";
  std::string text =
      extentAssumed
          ? "; the grid's bounds and the fields' extents are known at run "
            "time only, the grid assumed to be ["
          : "; the grid's bounds are known at run time only, its extents "
            "estimated from the fields' as [";
  llvm::interleave(
      extent, [&](int64_t size) { text += std::to_string(size); },
      [&] { text += ", "; });
  return text + "]";
}

LogicalResult mlir::stencil::forEachProfiledTimeLoop(
    Operation *root, function_ref<void(IterateOp, const KernelProfile &)> fn) {
  WalkResult result = root->walk([&](IterateOp iterate) -> WalkResult {
    FailureOr<KernelProfile> profile = profileTimeLoop(iterate);
    if (failed(profile))
      return WalkResult::interrupt();
    fn(iterate, *profile);
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

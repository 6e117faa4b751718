//===- KernelProfile.cpp - Static figures of a time loop ------------------===//

#include "Stencil/Tuning/KernelProfile.h"

#include "Stencil/Dialect/Stencil/Analysis/AccessExtents.h"

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
  if (!grid || !grid.hasStaticBounds())
    return iterate.emitError(
        "tuning needs the grid of the time loop's kernel to be static");
  profile.rank = grid.getRank();
  for (unsigned axis = 0; axis < profile.rank; ++axis)
    profile.extent.push_back(grid.getStaticUpper()[axis] -
                             grid.getStaticLower()[axis]);
  AccessExtentAnalysis reads(profile.kernel);
  Extent extent = reads.getReadExtent(profile.kernel);
  for (unsigned axis = 0; axis < profile.rank; ++axis) {
    profile.radiusLow.push_back(extent.getLowHalo(axis));
    profile.radiusHigh.push_back(extent.getHighHalo(axis));
  }
  profile.numHaloArrays = llvm::count_if(
      profile.kernel.getBodyBlock()->getArguments(), [&](BlockArgument arg) {
        std::optional<Extent> argExtent = reads.getExtent(arg);
        return argExtent && !argExtent->isCentre();
      });
  llvm::SmallPtrSet<Value, 16> fields;
  for (Value value : profile.kernel.getInputs())
    if (auto field = llvm::dyn_cast<FieldType>(value.getType())) {
      fields.insert(value);
      profile.decomposition = field.getDecomposition();
    }
  for (Value value : profile.kernel.getOutputs())
    fields.insert(value);
  profile.numArrays = fields.size();
  profile.numOutputs = profile.kernel.getOutputs().size();
  profile.opsPerPoint = std::max<int64_t>(1, mostOps);
  auto elementType =
      llvm::cast<FieldType>(profile.kernel.getOutputs()[0].getType())
          .getElementType();
  profile.isDouble = elementType.isF64();
  profile.elementBytes = profile.isDouble ? 8 : 4;
  profile.carriesScalars = llvm::any_of(
      iterate.getBodyBlock()->getArguments(), [](BlockArgument argument) {
        return !llvm::isa<FieldType>(argument.getType()) &&
               !argument.use_empty();
      });
  return profile;
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

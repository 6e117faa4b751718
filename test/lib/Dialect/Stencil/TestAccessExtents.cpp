//===- TestAccessExtents.cpp - Print the access extent analysis -----------===//
//
// Emits one remark per accessed field: on a domain op for each input it
// reads, and on the op that defines (or whose region binds) each field value
// read by domain ops, so lit tests can check the analysis with
// -verify-diagnostics.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/Stencil/Analysis/AccessExtents.h"
#include "Stencil/Dialect/Stencil/IR/StencilOps.h"

#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::stencil;

namespace {
/// `extent [lo, hi] x ..., halo [low, high] x ...`: the offsets and the cells
/// needed beyond the grid on each side.
std::string describe(const Extent &extent) {
  std::string text = "extent " + extent.str() + ", halo ";
  for (unsigned axis = 0; axis < extent.getRank(); ++axis) {
    if (axis)
      text += " x ";
    text += "[" + std::to_string(extent.getLowHalo(axis)) + ", " +
            std::to_string(extent.getHighHalo(axis)) + "]";
  }
  return text;
}

struct TestAccessExtentsPass
    : PassWrapper<TestAccessExtentsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAccessExtentsPass)

  StringRef getArgument() const final { return "test-stencil-access-extents"; }
  StringRef getDescription() const final {
    return "Print the access extent (halo) of every field as remarks";
  }

  void runOnOperation() override {
    auto &analysis = getAnalysis<AccessExtentAnalysis>();
    getOperation()->walk([&](Operation *op) {
      if (auto domainOp = llvm::dyn_cast<DomainOpInterface>(op)) {
        for (BlockArgument argument : op->getRegion(0).getArguments())
          if (std::optional<Extent> extent = analysis.getExtent(argument))
            op->emitRemark() << "input #" << argument.getArgNumber() << " "
                             << describe(*extent);
      }
      // Field values produced or bound by this op and read by domain ops.
      for (OpResult result : op->getResults())
        if (std::optional<Extent> extent = analysis.getExtent(result))
          op->emitRemark() << "result #" << result.getResultNumber()
                           << " is read with " << describe(*extent);
      if (llvm::isa<DomainOpInterface>(op))
        return;
      for (Region &region : op->getRegions())
        for (BlockArgument argument : region.getArguments())
          if (std::optional<Extent> extent = analysis.getExtent(argument))
            op->emitRemark() << "block argument #" << argument.getArgNumber()
                             << " is read with " << describe(*extent);
    });
    markAllAnalysesPreserved();
  }
};
} // namespace

namespace mlir::stencil::test {
void registerTestAccessExtentsPass() {
  PassRegistration<TestAccessExtentsPass>();
}
} // namespace mlir::stencil::test

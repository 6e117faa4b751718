//===- TestControlFlow.cpp - Print region-branch edges of time loops ------===//
//
// Emits, as remarks on each op implementing RegionBranchOpInterface (a
// stencil.iterate), where control goes from the op and from its
// terminators and which values flow along each edge, through the interface
// only, so lit tests see what upstream analyses see.
//
//===----------------------------------------------------------------------===//

#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {

/// The name of a value as the remark prints it: the op (or argument) and
/// its position.
std::string describe(Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto argument = llvm::dyn_cast<BlockArgument>(value))
    os << "body argument " << argument.getArgNumber();
  else
    os << value.getDefiningOp()->getName() << " result "
       << llvm::cast<OpResult>(value).getResultNumber();
  return text;
}

struct TestStencilControlFlowPass
    : PassWrapper<TestStencilControlFlowPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestStencilControlFlowPass)

  StringRef getArgument() const final { return "test-stencil-control-flow"; }
  StringRef getDescription() const final {
    return "Print the region successors of region-branch ops as remarks";
  }

  void runOnOperation() override {
    getOperation()->walk([](RegionBranchOpInterface op) {
      auto print = [&](StringRef from, RegionBranchPoint point) {
        SmallVector<RegionSuccessor> successors;
        op.getSuccessorRegions(point, successors);
        for (const RegionSuccessor &successor : successors) {
          InFlightDiagnostic remark = op.emitRemark()
                                      << "from " << from << " to "
                                      << (successor.isParent() ? "the results"
                                                               : "the body")
                                      << ":";
          for (auto [index, input] :
               llvm::enumerate(successor.getSuccessorInputs())) {
            SmallVector<Value> values;
            op.getPredecessorValues(successor, index, values);
            remark << (index ? "; " : " ") << describe(input) << " <- "
                   << llvm::join(llvm::map_range(values, describe), ", ");
          }
        }
      };
      print("entry", RegionBranchPoint::parent());
      for (Region &region : op->getRegions())
        for (Block &block : region)
          if (auto terminator = llvm::dyn_cast<RegionBranchTerminatorOpInterface>(
                  block.getTerminator()))
            print("the terminator", RegionBranchPoint(terminator));
    });
  }
};

} // namespace

namespace mlir::stencil::test {
void registerTestControlFlowPass() {
  PassRegistration<TestStencilControlFlowPass>();
}
} // namespace mlir::stencil::test

//===- TestPasses.cpp - Register the test passes --------------------------===//

namespace mlir::stencil::test {
void registerTestAccessExtentsPass();
void registerTestControlFlowPass();

void registerTestPasses() {
  registerTestAccessExtentsPass();
  registerTestControlFlowPass();
}
} // namespace mlir::stencil::test

//===- TestPasses.cpp - Register the test passes --------------------------===//

namespace mlir::stencil::test {
void registerTestAccessExtentsPass();

void registerTestPasses() { registerTestAccessExtentsPass(); }
} // namespace mlir::stencil::test

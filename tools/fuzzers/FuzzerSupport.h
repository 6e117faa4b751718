//===- FuzzerSupport.h - What the stencil fuzz targets share ----*- C++ -*-===//
//
// A fuzz target tells the input's errors (diagnostics, failure: fine) from
// the compiler's (a crash, an assertion, IR a pass leaves invalid: a bug,
// which must stop the fuzzer with a report). docs/Fuzzing.md.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_TOOLS_FUZZERS_FUZZERSUPPORT_H
#define STENCIL_TOOLS_FUZZERS_FUZZERSUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include <functional>
#include <memory>

namespace stencil_fuzz {

/// A context with every dialect the stencil tools know, single-threaded
/// (fuzzing runs one input at a time), whose diagnostics are dropped unless
/// STENCIL_FUZZ_DIAGNOSTICS is set.
std::unique_ptr<mlir::MLIRContext> createQuietContext();

using PipelineBuilder = std::function<void(mlir::OpPassManager &)>;

/// Runs the passes `build` adds on `module`. A pass that fails with a
/// diagnostic is the input's fault: failure is returned. A pass that leaves
/// IR the verifier rejects is a bug and aborts, naming the pass.
mlir::LogicalResult runPipeline(mlir::ModuleOp module,
                                const PipelineBuilder &build);

/// runPipeline on a copy of `module`, which stays as it is.
void runPipelineOnCopy(mlir::ModuleOp module, const PipelineBuilder &build);

/// Fixes the host's bandwidths, as lit does, unless the environment already
/// does: measuring them (HostMeasurement.cpp) in an instrumented fuzz build
/// takes tens of seconds, past libFuzzer's timeout, and would leave the
/// instrumented code's figures in the user's host.json for every later
/// compile. It also keeps the host's schedules independent of the machine.
void fixHostBandwidth();

/// A copy of `module` through `stencil-to-cpu`.
void lowerForCPU(mlir::ModuleOp module);

/// A copy of `module` through `stencil-to-gpu{target=vulkan}`, SPIR-V
/// serialization included.
void lowerForVulkan(mlir::ModuleOp module);

} // namespace stencil_fuzz

#endif // STENCIL_TOOLS_FUZZERS_FUZZERSUPPORT_H

//===- StencilScheduleFuzzer.cpp - Fuzz --schedule and target files -------===//
//
// Input: a `--schedule` string on the first line, a target description
// (targets/*.json) after it. The description is attached to 1-D, 2-D and
// 3-D regions, the tuning passes choose for it, the schedule's keys replace
// their choice as stencilcc does, and the region is lowered by the backend
// of the description's kind (stencil-to-cpu, or stencil-to-gpu for Vulkan).
// Rejected strings and descriptions are fine; a crash, or IR a pass leaves
// invalid, is a bug.
//
//===----------------------------------------------------------------------===//

#include "FuzzerSupport.h"

#include "Stencil/Driver/Schedule.h"
#include "Stencil/Tuning/Passes.h"
#include "Stencil/Tuning/TargetDescription.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include <cstdint>

using namespace mlir;

/// One region per rank, small enough that work groups can exceed them.
static const char *const regions[] = {
    R"mlir(
!field = !stencil.field<64xf32>
func.func @heat1d(%A: memref<64xf32>, %B: memref<64xf32>, %c: f32,
                  %steps: index) {
  %a0 = stencil.load %A : memref<64xf32> -> !field
  %b0 = stencil.load %B : memref<64xf32> -> !field
  %grid = stencil.grid [2] to [62] : !stencil.grid<1>
  %a, %b = stencil.iterate %steps iter_args(%ak = %a0, %bk = %b0)
      : !field, !field {
    %b1 = stencil.apply on %grid ins(%x = %ak : !field, %w = %c : f32)
        outs(%bk : !field) {
      %l = stencil.access %x[-2] : !field
      %r = stencil.access %x[1] : !field
      %s = arith.addf %l, %r : f32
      %v = arith.mulf %w, %s : f32
      stencil.return %v : f32
    }
    %a1 = stencil.apply on %grid ins(%y = %b1 : !field) outs(%ak : !field) {
      %v = stencil.access %y[0] : !field
      stencil.return %v : f32
    }
    stencil.yield %a1, %b1 : !field, !field
  }
  stencil.store %a to %A : !field to memref<64xf32>
  stencil.store %b to %B : !field to memref<64xf32>
  return
}
)mlir",
    R"mlir(
!field = !stencil.field<48x40xf64>
func.func @heat2d(%A: memref<48x40xf64>, %B: memref<48x40xf64>,
                  %steps: index) {
  %a0 = stencil.load %A : memref<48x40xf64> -> !field
  %b0 = stencil.load %B : memref<48x40xf64> -> !field
  %grid = stencil.grid [1, 1] to [47, 39] : !stencil.grid<2>
  %a, %b = stencil.iterate %steps iter_args(%src = %a0, %dst = %b0)
      : !field, !field {
    %new = stencil.apply on %grid ins(%x = %src : !field) outs(%dst : !field) {
      %n = stencil.access %x[-1, 0] : !field
      %s = stencil.access %x[1, 0] : !field
      %w = stencil.access %x[0, -1] : !field
      %e = stencil.access %x[0, 1] : !field
      %ns = arith.addf %n, %s : f64
      %we = arith.addf %w, %e : f64
      %v = arith.addf %ns, %we : f64
      stencil.return %v : f64
    }
    stencil.yield %new, %src : !field, !field
  }
  stencil.store %a to %A : !field to memref<48x40xf64>
  stencil.store %b to %B : !field to memref<48x40xf64>
  return
}
)mlir",
    R"mlir(
!field = !stencil.field<16x20x24xf32>
func.func @heat3d(%A: memref<16x20x24xf32>, %B: memref<16x20x24xf32>,
                  %steps: index) {
  %a0 = stencil.load %A : memref<16x20x24xf32> -> !field
  %b0 = stencil.load %B : memref<16x20x24xf32> -> !field
  %grid = stencil.grid [1, 1, 1] to [15, 19, 23] : !stencil.grid<3>
  %a, %b = stencil.iterate %steps iter_args(%src = %a0, %dst = %b0)
      : !field, !field {
    %new = stencil.apply on %grid ins(%x = %src : !field) outs(%dst : !field) {
      %c = stencil.access %x[0, 0, 0] : !field
      %z = stencil.access %x[-1, 0, 0] : !field
      %y = stencil.access %x[0, 1, 0] : !field
      %x1 = stencil.access %x[0, 0, -1] : !field
      %s0 = arith.addf %z, %y : f32
      %s1 = arith.addf %s0, %x1 : f32
      %v = arith.subf %s1, %c : f32
      stencil.return %v : f32
    }
    stencil.yield %new, %src : !field, !field
  }
  stencil.store %a to %A : !field to memref<16x20x24xf32>
  stencil.store %b to %B : !field to memref<16x20x24xf32>
  return
}
)mlir",
};

extern "C" int LLVMFuzzerInitialize(int *, char ***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto [scheduleText, json] =
      StringRef(reinterpret_cast<const char *>(data), size).split('\n');
  stencil::ScheduleOverrides overrides;
  std::string message;
  if (!scheduleText.empty() &&
      failed(stencil::parseScheduleOverrides(scheduleText, overrides, message)))
    return 0;

  std::unique_ptr<MLIRContext> context = stencil_fuzz::createQuietContext();
  context->loadDialect<DLTIDialect>();
  Location where = UnknownLoc::get(context.get());
  FailureOr<stencil::TargetDescription> target =
      stencil::parseTargetDescription(json, "fuzz.json",
                                      [&] { return emitError(where); });
  if (failed(target))
    return 0;

  for (const char *region : regions) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(region, context.get());
    if (!module)
      std::abort();
    stencil::attachTargets(*module, {*target});
    if (failed(stencil_fuzz::runPipeline(*module, [](OpPassManager &pm) {
          pm.addPass(stencil::createStencilTuneWorkGroup());
          pm.addPass(stencil::createStencilTuneExchangeDepth());
        })))
      continue;
    SmallVector<stencil::RegionSchedule> chosen;
    if (failed(stencil::applyScheduleOverrides(
            *module, overrides, /*acrossRanks=*/false, chosen, message)))
      continue;
    if (target->kind == "gpu")
      stencil_fuzz::lowerForVulkan(*module);
    else
      stencil_fuzz::lowerForCPU(*module);
  }
  return 0;
}

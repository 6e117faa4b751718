//===- Passes.h - Conversions out of the stencil dialect --------*- C++ -*-===//

#ifndef STENCIL_CONVERSION_PASSES_H
#define STENCIL_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::stencil {

#define GEN_PASS_DECL
#include "Stencil/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stencil/Conversion/Passes.h.inc"

/// Both pipelines' `allow-contraction`.
inline constexpr const char *kAllowContractionHelp =
    "Let floating-point multiplies and adds fuse (-ffp-contract=fast): "
    "stencil-allow-contraction right after the lowering, so that the "
    "operations it creates, a reduction's accumulation among them, get it "
    "too";

/// Options of the `stencil-to-cpu` pipeline.
struct StencilToCPUPipelineOptions
    : public PassPipelineOptions<StencilToCPUPipelineOptions> {
  Option<bool> openmp{*this, "openmp",
                      llvm::cl::desc("Run tiles in parallel with OpenMP"),
                      llvm::cl::init(true)};
  Option<int64_t> prefetchDistance{
      *this, "prefetch-distance",
      llvm::cl::desc("Software prefetch distance in bytes of the sweeps "
                     "without time blocking (convert-stencil-to-loops); 0 "
                     "turns it off"),
      llvm::cl::init(8192)};
  Option<bool> allowContraction{*this, "allow-contraction",
                                llvm::cl::desc(kAllowContractionHelp),
                                llvm::cl::init(false)};
};

/// stencil dialect -> LLVM dialect for the host CPU: loops, OpenMP, and the
/// bare-pointer calling convention the pragma-C driver calls.
void buildStencilToCPUPipeline(OpPassManager &pm,
                               const StencilToCPUPipelineOptions &options);

/// Options of the `stencil-to-gpu` pipeline.
struct StencilToGPUPipelineOptions
    : public PassPipelineOptions<StencilToGPUPipelineOptions> {
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Device code: cuda (NVVM -> PTX/cubin), rocm (ROCDL -> "
                     "AMD code object) or vulkan (SPIR-V)"),
      llvm::cl::init("cuda")};
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("GPU architecture: sm_80, sm_90, gfx90a, gfx942, ...; "
                     "empty takes sm_80 for cuda and gfx90a for rocm"),
      llvm::cl::init("")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What gpu-module-to-binary embeds: bin (cubin, code "
                     "object, SPIR-V), isa (PTX or AMD assembly) or llvm; "
                     "empty takes bin, or isa for cuda without ptxas in the "
                     "toolkit"),
      llvm::cl::init("")};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit (for ptxas) or ROCm directory (with "
                     "amdgcn/bitcode and llvm/bin/ld.lld)"),
      llvm::cl::init("")};
  ListOption<int64_t> defaultWorkGroup{
      *this, "default-wg",
      llvm::cl::desc("Work group of applies without a schedule (see "
                     "convert-stencil-to-gpu)")};
  Option<int64_t> workgroupMemoryLimit{
      *this, "workgroup-memory-limit",
      llvm::cl::desc("Bytes of workgroup memory per kernel; 0: from the "
                     "device"),
      llvm::cl::init(0)};
  Option<bool> allowContraction{*this, "allow-contraction",
                                llvm::cl::desc(kAllowContractionHelp),
                                llvm::cl::init(false)};
};

/// stencil dialect -> host code in the LLVM dialect that calls the GPU
/// runtime (`mgpu*`, runtime/gpu) and one `gpu.binary` per kernel module,
/// with the bare-pointer calling convention of the pragma-C driver.
/// Emits an error and returns failure for an unknown target.
LogicalResult
buildStencilToGPUPipeline(OpPassManager &pm,
                          const StencilToGPUPipelineOptions &options);

/// Registers the conversion passes and the named pipelines.
void registerConversionPassesAndPipelines();

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_PASSES_H

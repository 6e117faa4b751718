//===- Pipelines.cpp - Named pipelines out of the stencil dialect ---------===//

#include "Stencil/Conversion/Passes.h"
#include "Stencil/Dialect/GPU/Transforms/Passes.h"
#include "Stencil/Dialect/Stencil/Transforms/Passes.h"

#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;

/// Memrefs, scalars, control flow and functions to the LLVM dialect, with
/// the bare pointers the C caller passes (docs/PragmaC.md); shared by the
/// host code of every pipeline. Heap buffers come from
/// `_mlir_memref_to_llvm_alloc` and `_free` (runtime/common), which end the
/// program with a message when memory runs out instead of handing a null
/// pointer to the first store.
static void addHostCodeToLLVM(OpPassManager &pm) {
  pm.addPass(memref::createExpandStridedMetadataPass());
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
}

void stencil::buildStencilToCPUPipeline(
    OpPassManager &pm, const StencilToCPUPipelineOptions &options) {
  // Built from the passes' create functions so that tools need not register
  // passes globally; `stencil-opt --stencil-to-cpu --dump-pass-pipeline`
  // shows it as an mlir-opt command line.
  ConvertStencilToLoopsOptions loops;
  loops.prefetchDistance = options.prefetchDistance;
  pm.addPass(createConvertStencilToLoops(loops));
  if (options.allowContraction)
    pm.addPass(createStencilAllowContraction());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (options.openmp) {
    pm.addPass(createConvertSCFToOpenMPPass());
    // Inlines the memref.alloca_scope that convert-scf-to-openmp wraps loop
    // bodies in (we allocate nothing there); convert-scf-to-cf would
    // otherwise leave that op with several blocks, which it does not allow.
    pm.addPass(createCanonicalizerPass());
  }
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // The rows of streaming-store sweeps are vectors already.
  pm.addPass(createConvertVectorToLLVMPass());
  addHostCodeToLLVM(pm);
  // After convert-func-to-llvm: run before it, convert-openmp-to-llvm also
  // converts function signatures, with full memref descriptors instead of
  // the bare pointers the C caller passes.
  if (options.openmp)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

/// The host half after the kernels are binaries: LLVM dialect calling the
/// GPU runtime, bare pointers for the C caller and for the kernels.
static void addGPUHostLowering(OpPassManager &pm, bool intersperseSizes) {
  // One stream per function: every gpu op is ordered after the previous
  // one, and the host waits once, at the end of the function.
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  GpuToLLVMConversionPassOptions gpuOptions;
  gpuOptions.hostBarePtrCallConv = true;
  gpuOptions.kernelBarePtrCallConv = true;
  // The Vulkan runtime binds buffers by size; see runtime/gpu.
  gpuOptions.kernelIntersperseSizeCallConv = intersperseSizes;
  pm.addPass(createGpuToLLVMConversionPass(gpuOptions));
  addHostCodeToLLVM(pm);
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

LogicalResult
stencil::buildStencilToGPUPipeline(OpPassManager &pm,
                                   const StencilToGPUPipelineOptions &options) {
  std::string target = options.target;
  if (target != "cuda" && target != "rocm" && target != "vulkan")
    return failure();
  ConvertStencilToGPUOptions lowering;
  lowering.defaultWorkGroup.assign(options.defaultWorkGroup.begin(),
                                   options.defaultWorkGroup.end());
  lowering.workgroupMemoryLimit = options.workgroupMemoryLimit;
  pm.addPass(createConvertStencilToGPU(lowering));
  if (options.allowContraction)
    pm.addPass(createStencilAllowContraction());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Canonicalization hoists the kernels' constants out of the launches;
  // sink them back so that kernels take buffers only.
  pm.addNestedPass<func::FuncOp>(createGpuLaunchSinkIndexComputationsPass());
  // Kernels take bare pointers: buffers of run-time shape come as a pointer
  // and their sizes, or, on SPIR-V, which takes buffers only, as a 1-D
  // runtime array and a buffer of their sizes.
  StencilStaticLaunchOperandsOptions launchOperands;
  launchOperands.convention =
      target == "vulkan" ? "flat-buffer" : "bare-pointer";
  pm.addNestedPass<func::FuncOp>(
      createStencilStaticLaunchOperands(launchOperands));
  pm.addPass(createGpuKernelOutliningPass());
  // One binary per program; on Vulkan more where kernels with workgroup
  // memory would together pass the largest one's (the pass says why).
  StencilMergeKernelModulesOptions merge;
  merge.separateWorkgroupMemory = target == "vulkan";
  pm.addPass(createStencilMergeKernelModules(merge));

  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = options.toolkit;
  std::string format = options.format;
  std::string chip = options.chip;
  binary.compilationTarget = format.empty() ? "bin" : format;
  // Kernels to the LLVM dialect of NVVM or ROCDL.
  auto lowerKernels = [&](std::unique_ptr<Pass> gpuToLLVM) {
    OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
    kernels.addPass(createSCFToControlFlowPass());
    kernels.addPass(std::move(gpuToLLVM));
    kernels.addPass(createCanonicalizerPass());
    kernels.addPass(createReconcileUnrealizedCastsPass());
  };
  if (target == "cuda") {
    GpuNVVMAttachTargetOptions attach;
    attach.chip = chip.empty() ? "sm_80" : chip;
    attach.optLevel = 3;
    pm.addPass(createGpuNVVMAttachTarget(attach));
    ConvertGpuOpsToNVVMOpsOptions nvvm;
    nvvm.useBarePtrCallConv = true;
    pm.addNestedPass<gpu::GPUModuleOp>(createStencilNVVMCMath());
    lowerKernels(createConvertGpuOpsToNVVMOps(nvvm));
    // Without ptxas, embed PTX; the driver compiles it when it loads.
    std::string toolkit = options.toolkit;
    SmallString<128> ptxas(toolkit);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    if (format.empty() &&
        (toolkit.empty() || !llvm::sys::fs::can_execute(ptxas)))
      binary.compilationTarget = "isa";
  } else if (target == "rocm") {
    GpuROCDLAttachTargetOptions attach;
    attach.chip = chip.empty() ? "gfx90a" : chip;
    attach.optLevel = 3;
    pm.addPass(createGpuROCDLAttachTarget(attach));
    ConvertGpuOpsToROCDLOpsOptions rocdl;
    rocdl.chipset = attach.chip;
    rocdl.useBarePtrCallConv = true;
    rocdl.runtime = gpu::amd::Runtime::HIP;
    lowerKernels(createConvertGpuOpsToROCDLOps(rocdl));
  } else {
    pm.addNestedPass<gpu::GPUModuleOp>(createStencilPrepareSPIRVKernels());
    GpuSPIRVAttachTargetOptions attach;
    attach.spirvVersion = "v1.0";
    // Float64 and Int64 are allowed, not required: spirv-update-vce keeps
    // the capabilities each module uses, and the Vulkan runtime checks them
    // against the device's features when it loads the module.
    attach.spirvCapabilities.push_back("Shader");
    attach.spirvCapabilities.push_back("Float64");
    attach.spirvCapabilities.push_back("Int64");
    attach.spirvExtensions.push_back("SPV_KHR_storage_buffer_storage_class");
    attach.clientApi = "Vulkan";
    pm.addPass(createGpuSPIRVAttachTarget(attach));
    pm.addNestedPass<gpu::GPUModuleOp>(createStencilConvertKernelMathToSPIRV());
    pm.addPass(createConvertGPUToSPIRVPass(/*mapMemorySpace=*/true));
    pm.addPass(createStencilNestSPIRVModules());
    OpPassManager &spirvModules =
        pm.nest<gpu::GPUModuleOp>().nest<spirv::ModuleOp>();
    spirvModules.addPass(spirv::createSPIRVLowerABIAttributesPass());
    spirvModules.addPass(spirv::createSPIRVUpdateVCEPass());
    spirvModules.addPass(createStencilSPIRVNoContraction());
  }
  pm.addPass(createGpuModuleToBinaryPass(binary));
  if (target == "vulkan")
    pm.addPass(createStencilStaticLaunchBuffers());
  addGPUHostLowering(pm, /*intersperseSizes=*/target == "vulkan");
  return success();
}

void stencil::registerConversionPassesAndPipelines() {
  registerStencilConversionPasses();
  PassPipelineRegistration<StencilToCPUPipelineOptions>(
      "stencil-to-cpu",
      "Lower stencil functions to LLVM for the host CPU (loops + OpenMP, "
      "bare-pointer calling convention)",
      buildStencilToCPUPipeline);
  registerPassPipeline(
      "stencil-to-gpu",
      "Lower stencil functions to GPU kernels (NVVM, ROCDL or SPIR-V, "
      "embedded as gpu.binary) and host code in the LLVM dialect that calls "
      "the GPU runtime",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        StencilToGPUPipelineOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        if (failed(buildStencilToGPUPipeline(pm, options)))
          return errorHandler("stencil-to-gpu: unknown target '" +
                              options.target +
                              "'; expected cuda, rocm or vulkan");
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> handler) {
        handler(StencilToGPUPipelineOptions());
      });
}

//===- Passes.td - Passes on upstream's GPU dialect ---------*- tablegen -*-===//
//
// What our GPU pipeline (stencil-to-gpu) needs between upstream's passes and
// upstream does not provide: one kernel module per program, and kernels in
// the form convert-gpu-to-spirv and gpu-module-to-binary accept.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_GPU_TRANSFORMS_PASSES_TD
#define STENCIL_DIALECT_GPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def StencilPrepareSPIRVKernels
    : Pass<"stencil-prepare-spirv-kernels", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Put kernels in the form convert-gpu-to-spirv accepts";
  let description = [{
    Two gaps between the kernels `gpu-kernel-outlining` produces and what
    `convert-gpu-to-spirv` converts:
    - A compute shader declares its work-group size, so every kernel needs
      `spirv.entry_point_abi`; it is set from the `known_block_size` that
      outlining records (a kernel without one is rejected: its launches
      would have to agree with a size nobody chose).
    - Workgroup attributions are not converted; each becomes a
      `memref.alloc` in the `Workgroup` storage class at the kernel's entry,
      which the conversion turns into a workgroup variable.
  }];
  let dependentDialects = [
    "::mlir::memref::MemRefDialect", "::mlir::spirv::SPIRVDialect"
  ];
}

def StencilStaticLaunchOperands
    : Pass<"stencil-static-launch-operands", "::mlir::func::FuncOp"> {
  let summary = "Pass memrefs of run-time shape into launches as a bare "
                "pointer and their sizes";
  let description = [{
    Kernels take memrefs by bare pointer (`kernel-bare-ptr-calling-convention`),
    which MLIR defines for static shapes only. A `gpu.launch` body that uses
    a memref of run-time shape (a field whose extents the C program gives at
    run time, `double A[n][n]`) gets instead, from outside, a 0-d view of
    its first element and its sizes, and rebuilds the row-major memref with
    `memref.reinterpret_cast`. Run before `gpu-kernel-outlining`.

    SPIR-V kernels bind each buffer by its static size, so with
    `dynamic-shapes=false` (the Vulkan target) such a launch is an error
    instead.
  }];
  let options = [
    Option<"dynamicShapes", "dynamic-shapes", "bool", /*default=*/"true",
           "Rewrite launches that use memrefs of run-time shape (false: "
           "report them)">
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def StencilNestSPIRVModules : Pass<"stencil-nest-spirv-modules", "ModuleOp"> {
  let summary = "Move each spirv.module into the gpu.module it came from";
  let description = [{
    `convert-gpu-to-spirv` leaves the `spirv.module @__spv__NAME` beside
    `gpu.module @NAME`; `gpu-module-to-binary` serializes a SPIR-V target's
    module from inside the `gpu.module`. This pass moves it there. The
    `gpu.func`s stay until `gpu-module-to-binary` replaces the module, so
    that the host's `gpu.launch_func` ops still verify against them.
  }];
}

def StencilMergeKernelModules
    : Pass<"stencil-merge-kernel-modules", "ModuleOp"> {
  let summary = "Put all kernels in one gpu.module";
  let description = [{
    `gpu-kernel-outlining` gives every kernel a `gpu.module` of its own. This
    pass moves them all into the first one, renaming each kernel after the
    module it came from (unique names) and updating the `gpu.launch_func`
    ops. One module means one binary: one load at program start, one PTX or
    code object file for `stencilcc --emit=device`.
  }];
}

#endif // STENCIL_DIALECT_GPU_TRANSFORMS_PASSES_TD

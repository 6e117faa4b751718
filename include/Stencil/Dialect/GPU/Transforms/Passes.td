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

    SPIR-V kernels take storage buffers only, and a buffer of run-time
    length is a 1-D runtime array. With `convention=flat-buffer` (the Vulkan
    target) the launch gets a 1-D view of the memref's elements instead,
    and its run-time sizes in a device buffer of `i32` (allocated on entry
    to the function, filled before the launch); loads, stores and dims
    inside become row-major accesses of the view. 1-D memrefs are left as
    they are. `stencil-static-launch-buffers` then gives the launch a
    static stand-in for `gpu-to-llvm`.
  }];
  let options = [
    Option<"convention", "convention", "std::string",
           /*default=*/"\"bare-pointer\"",
           "How kernels get memrefs of run-time shape: bare-pointer (a 0-d "
           "view and the sizes as arguments) or flat-buffer (a 1-D view and "
           "a device buffer of the sizes)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def StencilStaticLaunchBuffers
    : Pass<"stencil-static-launch-buffers", "::mlir::ModuleOp"> {
  let summary = "Give launches of kernel binaries static stand-ins for "
                "1-D buffers of run-time length";
  let description = [{
    `gpu-to-llvm` with `intersperse-sizes-for-kernels` (the Vulkan runtime
    binds each buffer by pointer and size) accepts memrefs of static shape
    only. After `gpu-module-to-binary`, when no `gpu.func` signature is left
    to match, each `memref<?xT>` operand of a `gpu.launch_func` becomes a
    `memref<0xT>` view of the same pointer; the Vulkan runtime binds every
    buffer from its pointer to the end of its allocation, so the kernel's
    runtime array sees all of it.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def StencilConvertKernelMathToSPIRV
    : Pass<"stencil-convert-kernel-math-to-spirv", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Convert the kernels' math ops for the module's SPIR-V target";
  let description = [{
    `convert-gpu-to-spirv` (MLIR 22) converts arith, memref, scf and gpu
    ops but not math (`sqrt`, `fabs`, `exp` of C); upstream's
    `convert-math-to-spirv` reads the default target environment, which has
    no `Float64`, and so leaves `f64` math alone. This pass converts the
    math ops of a `gpu.module` with the environment its SPIR-V target
    (`spirv-attach-target`) declares. Run between `spirv-attach-target` and
    `convert-gpu-to-spirv`.

    What the target cannot compute is reported at the op, naming it and
    the target, instead of the conversion's "failed to legalize":
    GLSL.std.450 defines `Exp`, `Log`, `Pow` and the trigonometric
    functions for 16- and 32-bit floats only, so these on `f64` are errors,
    as is any math op without a SPIR-V lowering.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

def StencilSPIRVNoContraction
    : Pass<"stencil-spirv-no-contraction", "::mlir::spirv::ModuleOp"> {
  let summary = "Keep C's floating-point evaluation order in SPIR-V kernels";
  let description = [{
    Marks every floating-point add, subtract, multiply, divide, remainder
    and negation `NoContraction`. Without it a Vulkan driver may fuse a
    multiply and an add into one rounding and reassociate
    (Mesa turns `(a + 1.0f) - 1.0f` into `a`), so a kernel would not compute
    what the C program computes. The decoration forbids both (SPIR-V
    specification, `NoContraction`).
  }];
}

def StencilNVVMCMath : Pass<"stencil-nvvm-c-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower f32 sqrt in NVVM kernels as C computes it";
  let description = [{
    `convert-gpu-to-nvvm` lowers `math.sqrt` to libdevice's `__nv_sqrtf`,
    which picks precise or approximate code through
    `__nvvm_reflect("__CUDA_PREC_SQRT")`. LLVM 22's NVVMReflect answers 0
    there unless given `-nvvm-reflect-add` on its command line (it does not
    read clang's `nvvm-reflect-prec-sqrt` module flag), so `sqrtf` became
    `sqrt.approx.f32`, not C's correctly rounded square root. This pass
    rewrites `math.sqrt` on `f32` to a call of `llvm.nvvm.sqrt.rn.f`
    (`sqrt.rn.f32`); `llvm.intr.sqrt` would not do, as the conversion
    turns it back into the libdevice call. `f64` (`__nv_sqrt` is
    `sqrt.rn.f64`) and `fabs` are exact already. Run before
    `convert-gpu-to-nvvm`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
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

    With `separate-workgroup-memory` (SPIR-V) the kernels go into as few
    modules as keep each module's workgroup memory, summed over its
    kernels, within the largest kernel's. SPIR-V 1.0 declares workgroup
    variables at module scope and no entry point lists them, so Vulkan's
    validation layer checks a module's sum against each kernel's limit, and
    an NVIDIA H200 (driver 580) lost the device at the first launch from a
    module of 49408 bytes whose largest kernel declared 49152, the limit.
  }];
  let options = [
    Option<"separateWorkgroupMemory", "separate-workgroup-memory", "bool",
           /*default=*/"false",
           "Keep each module's summed workgroup memory within the largest "
           "kernel's">,
  ];
}

#endif // STENCIL_DIALECT_GPU_TRANSFORMS_PASSES_TD

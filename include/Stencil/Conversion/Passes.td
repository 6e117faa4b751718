//===- Passes.td - Conversions out of the stencil dialect --*- tablegen -*-===//

#ifndef STENCIL_CONVERSION_PASSES_TD
#define STENCIL_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertStencilToLoops : Pass<"convert-stencil-to-loops", "ModuleOp"> {
  let summary = "Lower stencil functions to tiled parallel loops on memrefs";
  let description = [{
    The CPU lowering. Fields become memrefs: a `stencil.load` works in place
    on its memref (it is copied first when the function touches the memref
    in other ways), an apply writes into the buffer of its `outs` field, the
    time loop becomes an `scf.for` whose iteration arguments are the
    buffers (a swapping yield rotates them), `stencil.exchange` is the
    identity on one rank, and a `stencil.store` copies only when the buffer
    differs from the target at run time.

    Each apply becomes an `scf.parallel` over tiles of the grid — the
    schedule's `tile` (or `wg`), or `default-tile` — with `scf.for` loops
    over the points of a tile; the innermost loop runs along contiguous
    memory so LLVM can vectorize it. With the schedule's
    `streaming_stores`, sweeps without time blocking emit that loop as
    vectors themselves: whole cache lines of the first output written with
    aligned non-temporal stores, masked vectors for the partial lines at
    both ends (a body that is not element-wise keeps the scalar loop, with
    a warning). `convert-scf-to-openmp` turns the parallel loops into
    OpenMP work-sharing loops.

    A time loop whose schedule has `time_block` T > 1 runs in blocks of T
    steps: overlapped tiles on 1-D grids, pipelined row sweeps with ring
    buffers between the steps on 2-D and 3-D grids. The rows of an
    element-wise body there are vectors of one cache line that load each
    vector of a ring row once and shift the accesses along the row out of
    the vectors they keep from one vector to the next; the partial vectors
    at the row ends are masked (scalar points when the body divides
    integers).

    An apply that writes a buffer it also reads at an offset, or whose
    output field is still needed after it, would need a fresh buffer; the
    pass reports it instead of producing wrong code.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"
  ];
  let options = [
    ListOption<"defaultTile", "default-tile", "int64_t",
      "Tile (points per parallel iteration, outermost axis first) for applies "
      "without a schedule; 0 means the whole extent of the axis. Missing "
      "entries count from the innermost axis: the default tiles 3-D grids "
      "as [1, 8, whole], 2-D as [8, whole], 1-D as [16384].">,
    Option<"prefetchDistance", "prefetch-distance", "int64_t",
      /*default=*/"8192",
      "Software prefetch distance in bytes for sweeps of 2-D and 3-D grids "
      "without time blocking: before each row of a tile, the rows this many "
      "bytes ahead in the tile's row order are prefetched, at the leading "
      "offset of every buffer read and for writing in every buffer written "
      "(not with streaming stores, which bypass the cache; one request per "
      "cache line). 0 turns it off.">
  ];
}

def ConvertStencilToGPU : Pass<"convert-stencil-to-gpu", "ModuleOp"> {
  let summary = "Lower stencil functions to GPU kernels on device buffers";
  let description = [{
    The GPU lowering, on the same buffer assignment as
    `convert-stencil-to-loops`: each `stencil.load` copies its memref into
    a `gpu.alloc` buffer once, each `stencil.store` copies back once, and
    the time loop stays on the host as an `scf.for` whose steps launch
    kernels on device buffers (the copy form as a pointer swap). Host and
    device exchange data at region entry and exit only.

    Every apply becomes a `gpu.launch` with one work item per grid point
    (seed 000 §3.1): work groups of the schedule's `wg` (else
    `default-wg`), the innermost axis along x, and a guard for the partial
    groups of grids that the work group does not divide. A copy-form time
    loop with `time_block` T > 1 becomes one kernel per T steps (seed 000
    Fig. 3): each group loads its tile (the schedule's `tile`, else `wg`)
    plus a halo of T x radius into workgroup memory, computes the T steps on
    a region that shrinks by the radius each step with a barrier between
    them, and writes its tile; the work items loop over the tile, so the
    tile may exceed the work group.

    Scalar inputs reach kernels through one-element device buffers, so
    kernels take buffers only (the Vulkan runtime binds buffers only).
    Memrefs must have static shapes and grids static bounds. Work groups
    above the attached device's `max_work_group_size` and time blocks whose
    workgroup memory exceeds the limit are rejected before any code is
    generated. Run `gpu-kernel-outlining` next.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
  let options = [
    ListOption<"defaultWorkGroup", "default-wg", "int64_t",
      "Work group (outermost axis first) for applies without a schedule; "
      "missing entries count from the innermost axis. Default: 256 work "
      "items, [256], [8, 32] or [1, 8, 32].">,
    Option<"workgroupMemoryLimit", "workgroup-memory-limit", "int64_t",
      /*default=*/"0",
      "Bytes of workgroup memory a kernel may use; 0 takes the attached "
      "device's onchip_bytes, or 48 KiB without a device.">,
  ];
}

#endif // STENCIL_CONVERSION_PASSES_TD

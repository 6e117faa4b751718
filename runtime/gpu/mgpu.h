/*===- mgpu.h - The GPU runtime interface of lowered host code ------------===*
 *
 * Upstream MLIR's gpu-to-llvm lowers gpu.alloc, gpu.memcpy, gpu.launch_func
 * and the async tokens of the host code to calls of these functions, and
 * the LLVM translation of gpu.binary loads each embedded kernel module with
 * mgpuModuleLoad (or mgpuModuleLoadJIT for PTX) in a global constructor.
 * stencil-mlir implements them in cuda_hip_runtime.c (the CUDA driver API,
 * or HIP with STENCIL_GPU_HIP) and vulkan_runtime.c (Vulkan compute).
 * The signatures follow what gpu-to-llvm in MLIR 22 emits; the pipeline
 * uses bare pointers for kernel arguments, so `params[i]` points at a
 * device pointer or a scalar (Vulkan: at a pointer and then its size).
 *
 *===----------------------------------------------------------------------===*/

#ifndef STENCIL_RUNTIME_GPU_MGPU_H
#define STENCIL_RUNTIME_GPU_MGPU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void *mgpuModuleLoad(void *data, uint64_t size);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemoryBytes, void *stream,
                      void **params, void **extra, uint64_t paramsCount);
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, int8_t isHostShared);
void mgpuMemFree(void *pointer, void *stream);
void mgpuMemcpy(void *destination, void *source, uint64_t sizeBytes,
                void *stream);
void mgpuMemset32(void *destination, uint32_t value, uint64_t count,
                  void *stream);

/* stencil-mlir's additions, called by runtime/mpi for GPU halo exchanges.
 * Copies the box [lower, upper) of the row-major 3-D array at `device`
 * (extents size[0] x size[1] x size[2], outermost first) into the
 * contiguous `host` buffer (toHost = 1: the device packs it) or back
 * (toHost = 0: the device unpacks it), ordered after every launch before
 * it; returns when the copy is done. */
void stencil_gpu_copy_box(void *device, const int64_t size[3],
                          int64_t elemBytes, const int64_t lower[3],
                          const int64_t upper[3], void *host, int toHost);

/* stencil_gpu_copy_box with the packed face in a buffer from mgpuMemAlloc
 * (pack = 1: the device packs the box into it; 0: unpacks it), for an MPI
 * library that sends from device memory; returns when the copy is done. */
void stencil_gpu_copy_box_on_device(void *device, const int64_t size[3],
                                    int64_t elemBytes, const int64_t lower[3],
                                    const int64_t upper[3], void *packed,
                                    int pack);

/* What the buffers of mgpuMemAlloc are, for runtime/mpi: "host" (host
 * memory that any MPI library reads and writes: Vulkan's mapped memory),
 * "cuda" or "hip" (device memory that a CUDA- or ROCm-aware MPI reaches),
 * or "opaque" (reached only through this runtime's copies: Vulkan's staged
 * memory). */
const char *stencil_gpu_buffers(void);

/* Defined by runtime/mpi when the program links it: the rank among the
 * ranks of this node, which picks the device (local rank mod devices). */
int64_t stencil_mpi_local_rank(void) __attribute__((weak));

#ifdef __cplusplus
}
#endif

#endif /* STENCIL_RUNTIME_GPU_MGPU_H */

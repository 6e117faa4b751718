/*===- cuda_hip_runtime.c - mgpu* over the CUDA driver API or HIP ---------===*
 *
 * The GPU runtime (mgpu.h) for NVIDIA (CUDA driver API, libcuda) and AMD
 * (HIP, libamdhip64) devices. The two APIs match call for call, so one
 * source builds both: CMake compiles it with STENCIL_GPU_HIP for HIP.
 *
 * The context is the device's primary context, retained on first use;
 * STENCIL_GPU_DEVICE=i picks device i, and without it an MPI job's ranks
 * on one node take devices round-robin by their rank on the node
 * (stencil_mpi_local_rank when runtime/mpi is linked, else OpenMPI's
 * OMPI_COMM_WORLD_LOCAL_RANK; see docs/MPI.md). Errors print "stencil-gpu
 *(cuda|hip): error: ..." and exit with status 1, including "no device" at the
 *first kernel-module load.
 *
 *===----------------------------------------------------------------------===*/

#include "mgpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef STENCIL_GPU_HIP
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>
#define BACKEND "hip"
typedef hipError_t Result;
typedef hipModule_t Module;
typedef hipFunction_t Function;
typedef hipStream_t Stream;
typedef hipEvent_t Event;
typedef hipDeviceptr_t DevicePointer;
#define SUCCESS hipSuccess
#define DEINITIALIZED hipErrorDeinitialized
#define API_INIT() hipInit(0)
#define API_DEVICE_COUNT(n) hipGetDeviceCount(n)
#define API_SET_DEVICE(d) hipSetDevice(d)
#define API_MODULE_LOAD(m, data) hipModuleLoadData(m, data)
#define API_MODULE_UNLOAD(m) hipModuleUnload(m)
#define API_GET_FUNCTION(f, m, name) hipModuleGetFunction(f, m, name)
#define API_LAUNCH hipModuleLaunchKernel
#define API_STREAM_CREATE(s) hipStreamCreateWithFlags(s, hipStreamNonBlocking)
#define API_STREAM_DESTROY hipStreamDestroy
#define API_STREAM_SYNC hipStreamSynchronize
#define API_STREAM_WAIT(s, e) hipStreamWaitEvent(s, e, 0)
#define API_EVENT_CREATE(e) hipEventCreateWithFlags(e, hipEventDisableTiming)
#define API_EVENT_DESTROY hipEventDestroy
#define API_EVENT_SYNC hipEventSynchronize
#define API_EVENT_RECORD hipEventRecord
#define API_ALLOC(p, size) hipMalloc(p, size)
#define API_ALLOC_SHARED(p, size) hipMallocManaged(p, size, hipMemAttachGlobal)
#define API_FREE(p) hipFree(p)
#define API_MEMCPY(d, s, size, stream)                                         \
  hipMemcpyAsync(d, s, size, hipMemcpyDefault, stream)
#define API_MEMSET32(d, v, n, stream) hipMemsetD32Async(d, (int)(v), n, stream)
typedef HIP_MEMCPY3D Copy3D;
#define MEMORY_HOST hipMemoryTypeHost
#define MEMORY_DEVICE hipMemoryTypeDevice
#define API_MEMCPY3D(c) hipDrvMemcpy3D(c)
#define API_SYNCHRONIZE() hipDeviceSynchronize()
static const char *errorName(Result r) { return hipGetErrorName(r); }
#else
#include <cuda.h>
#define BACKEND "cuda"
typedef CUresult Result;
typedef CUmodule Module;
typedef CUfunction Function;
typedef CUstream Stream;
typedef CUevent Event;
typedef CUdeviceptr DevicePointer;
#define SUCCESS CUDA_SUCCESS
#define DEINITIALIZED CUDA_ERROR_DEINITIALIZED
#define API_INIT() cuInit(0)
#define API_DEVICE_COUNT(n) cuDeviceGetCount(n)
static CUcontext context;
static Result setDevice(int ordinal) {
  CUdevice device;
  Result r = cuDeviceGet(&device, ordinal);
  if (r == SUCCESS)
    r = cuDevicePrimaryCtxRetain(&context, device);
  if (r == SUCCESS)
    r = cuCtxSetCurrent(context);
  return r;
}
#define API_SET_DEVICE(d) setDevice(d)
#define API_MODULE_LOAD(m, data) cuModuleLoadData(m, data)
#define API_MODULE_UNLOAD(m) cuModuleUnload(m)
#define API_GET_FUNCTION(f, m, name) cuModuleGetFunction(f, m, name)
#define API_LAUNCH cuLaunchKernel
#define API_STREAM_CREATE(s) cuStreamCreate(s, CU_STREAM_NON_BLOCKING)
#define API_STREAM_DESTROY cuStreamDestroy
#define API_STREAM_SYNC cuStreamSynchronize
#define API_STREAM_WAIT(s, e) cuStreamWaitEvent(s, e, 0)
#define API_EVENT_CREATE(e) cuEventCreate(e, CU_EVENT_DISABLE_TIMING)
#define API_EVENT_DESTROY cuEventDestroy
#define API_EVENT_SYNC cuEventSynchronize
#define API_EVENT_RECORD cuEventRecord
#define API_ALLOC(p, size) cuMemAlloc(p, size)
#define API_ALLOC_SHARED(p, size)                                              \
  cuMemAllocManaged(p, size, CU_MEM_ATTACH_GLOBAL)
#define API_FREE(p) cuMemFree(p)
#define API_MEMCPY(d, s, size, stream)                                         \
  cuMemcpyAsync((CUdeviceptr)(d), (CUdeviceptr)(s), size, stream)
#define API_MEMSET32(d, v, n, stream)                                          \
  cuMemsetD32Async((CUdeviceptr)(d), v, n, stream)
typedef CUDA_MEMCPY3D Copy3D;
#define MEMORY_HOST CU_MEMORYTYPE_HOST
#define MEMORY_DEVICE CU_MEMORYTYPE_DEVICE
#define API_MEMCPY3D(c) cuMemcpy3D(c)
#define API_SYNCHRONIZE() cuCtxSynchronize()
static const char *errorName(Result r) {
  const char *name = NULL;
  cuGetErrorName(r, &name);
  return name ? name : "unknown error";
}
#endif

#include "loaded_modules.h"

static void check(Result result, const char *what) {
  if (result == SUCCESS)
    return;
  exitingOnError = 1;
  fprintf(stderr, "stencil-gpu (" BACKEND "): error: %s failed: %s (%d)\n",
          what, errorName(result), (int)result);
  exit(1);
}

static int ready;

/* Also at exit, where exit() must not be called again. A driver already
 * torn down (its atexit handler registered after ours) has unloaded the
 * module with its context. */
static void unloadModule(void *module) {
  Result result = API_MODULE_UNLOAD((Module)module);
  if (result == SUCCESS || result == DEINITIALIZED)
    return;
  fprintf(stderr,
          "stencil-gpu (" BACKEND "): error: unloading a kernel module "
          "failed: %s (%d)\n",
          errorName(result), (int)result);
  fflush(NULL);
  _Exit(1);
}

static void initialize(void) {
  if (ready)
    return;
  check(API_INIT(), "initialization (is a " BACKEND " device present?)");
  int count = 0;
  check(API_DEVICE_COUNT(&count), "counting devices");
  if (count == 0) {
    fprintf(stderr, "stencil-gpu (" BACKEND "): error: no device\n");
    exit(1);
  }
  const char *chosen = getenv("STENCIL_GPU_DEVICE");
  const char *localRank = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  int device = chosen ? atoi(chosen)
               : stencil_mpi_local_rank
                   ? (int)(stencil_mpi_local_rank() % count)
               : localRank ? atoi(localRank) % count
                           : 0;
  if (device < 0 || device >= count) {
    fprintf(stderr,
            "stencil-gpu (" BACKEND "): error: STENCIL_GPU_DEVICE=%d but "
            "there are %d devices\n",
            device, count);
    exit(1);
  }
  check(API_SET_DEVICE(device), "selecting the device");
  ready = 1;
}

void *mgpuModuleLoad(void *data, uint64_t size) {
  (void)size;
  initialize();
  Module module;
  check(API_MODULE_LOAD(&module, data), "loading a kernel module");
  return rememberModule(module, BACKEND);
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
#ifdef STENCIL_GPU_HIP
  (void)optLevel;
  return mgpuModuleLoad(data, 0);
#else
  initialize();
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {(void *)(intptr_t)optLevel};
  Module module;
  check(cuModuleLoadDataEx(&module, data, 1, options, values),
        "compiling PTX (JIT)");
  return rememberModule(module, BACKEND);
#endif
}

void mgpuModuleUnload(void *module) {
  /* Nothing is left after unloadModulesAtExit or a failed start; after an
   * error the modules are left to the process's end. */
  if (!exitingOnError && forgetModule(module))
    unloadModule(module);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  Function function;
  check(API_GET_FUNCTION(&function, (Module)module, name), "finding a kernel");
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemoryBytes, void *stream,
                      void **params, void **extra, uint64_t paramsCount) {
  (void)paramsCount;
  check(API_LAUNCH((Function)function, (unsigned)gridX, (unsigned)gridY,
                   (unsigned)gridZ, (unsigned)blockX, (unsigned)blockY,
                   (unsigned)blockZ, (unsigned)sharedMemoryBytes,
                   (Stream)stream, params, extra),
        "launching a kernel");
}

void *mgpuStreamCreate(void) {
  initialize();
  Stream stream;
  check(API_STREAM_CREATE(&stream), "creating a stream");
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  check(API_STREAM_DESTROY((Stream)stream), "destroying a stream");
}

void mgpuStreamSynchronize(void *stream) {
  check(API_STREAM_SYNC((Stream)stream), "waiting for a stream");
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  check(API_STREAM_WAIT((Stream)stream, (Event)event),
        "ordering a stream after an event");
}

void *mgpuEventCreate(void) {
  initialize();
  Event event;
  check(API_EVENT_CREATE(&event), "creating an event");
  return event;
}

void mgpuEventDestroy(void *event) {
  check(API_EVENT_DESTROY((Event)event), "destroying an event");
}

void mgpuEventSynchronize(void *event) {
  check(API_EVENT_SYNC((Event)event), "waiting for an event");
}

void mgpuEventRecord(void *event, void *stream) {
  check(API_EVENT_RECORD((Event)event, (Stream)stream), "recording an event");
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, int8_t isHostShared) {
  (void)stream;
  initialize();
  if (sizeBytes == 0)
    return NULL;
  DevicePointer pointer;
  if (isHostShared)
    check(API_ALLOC_SHARED(&pointer, sizeBytes), "allocating shared memory");
  else
    check(API_ALLOC(&pointer, sizeBytes), "allocating device memory");
  return (void *)pointer;
}

void mgpuMemFree(void *pointer, void *stream) {
  (void)stream;
  if (pointer)
    check(API_FREE((DevicePointer)pointer), "freeing device memory");
}

void mgpuMemcpy(void *destination, void *source, uint64_t sizeBytes,
                void *stream) {
  check(API_MEMCPY(destination, source, sizeBytes, (Stream)stream),
        "copying memory");
}

void mgpuMemset32(void *destination, uint32_t value, uint64_t count,
                  void *stream) {
  check(API_MEMSET32((DevicePointer)destination, value, count, (Stream)stream),
        "setting memory");
}

/* The box [lower, upper) of the array at `device` to or from the packed
 * face at `packed`, which lies in host memory or (packedOnDevice) in a
 * device buffer. */
static void copyBox(void *device, const int64_t size[3], int64_t elemBytes,
                    const int64_t lower[3], const int64_t upper[3],
                    void *packed, int packedOnDevice, int pack) {
  /* One 3-D copy: the DMA engine gathers (scatters) the face's rows. */
  Copy3D copy;
  memset(&copy, 0, sizeof copy);
  size_t run = (size_t)(upper[2] - lower[2]) * (size_t)elemBytes;
  if (run == 0 || upper[1] <= lower[1] || upper[0] <= lower[0])
    return;
  /* Everything before the copy is done (kernels run on other streams). */
  check(API_SYNCHRONIZE(), "waiting for the device before a halo copy");
  /* The array side is the box in the array, the packed side the face;
   * which is source and which destination is all `pack` changes. */
#define ARRAY_SIDE(side)                                                       \
  copy.side##MemoryType = MEMORY_DEVICE;                                       \
  copy.side##Device = (DevicePointer)device;                                   \
  copy.side##XInBytes = lower[2] * elemBytes;                                  \
  copy.side##Y = lower[1];                                                     \
  copy.side##Z = lower[0];                                                     \
  copy.side##Pitch = size[2] * elemBytes;                                      \
  copy.side##Height = size[1]
#define PACKED_SIDE(side)                                                      \
  if (packedOnDevice) {                                                        \
    copy.side##MemoryType = MEMORY_DEVICE;                                     \
    copy.side##Device = (DevicePointer)packed;                                 \
  } else {                                                                     \
    copy.side##MemoryType = MEMORY_HOST;                                       \
    copy.side##Host = packed;                                                  \
  }                                                                            \
  copy.side##Pitch = run;                                                      \
  copy.side##Height = upper[1] - lower[1]
  if (pack) {
    ARRAY_SIDE(src);
    PACKED_SIDE(dst);
  } else {
    PACKED_SIDE(src);
    ARRAY_SIDE(dst);
  }
#undef ARRAY_SIDE
#undef PACKED_SIDE
  copy.WidthInBytes = run;
  copy.Height = upper[1] - lower[1];
  copy.Depth = upper[0] - lower[0];
  check(API_MEMCPY3D(&copy), "copying a halo face");
  /* A copy from pageable memory may return before it reaches the device;
     MPI reads a face packed on the device right after. */
  check(API_SYNCHRONIZE(), "waiting for a halo copy");
}

void stencil_gpu_copy_box(void *device, const int64_t size[3],
                          int64_t elemBytes, const int64_t lower[3],
                          const int64_t upper[3], void *host, int toHost) {
  copyBox(device, size, elemBytes, lower, upper, host, 0, toHost);
}

void stencil_gpu_copy_box_on_device(void *device, const int64_t size[3],
                                    int64_t elemBytes, const int64_t lower[3],
                                    const int64_t upper[3], void *packed,
                                    int pack) {
  copyBox(device, size, elemBytes, lower, upper, packed, 1, pack);
}

/* Device memory, which only a CUDA- (ROCm-) aware MPI reaches. */
const char *stencil_gpu_buffers(void) { return BACKEND; }

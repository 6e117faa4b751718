/*===- stencil_mpi.c - MPI halo-exchange runtime of stencilcc -------------===*\
|*                                                                          *|
|* Block decomposition over a Cartesian layout of the ranks, halo exchange *|
|* (pack, MPI_Isend/MPI_Irecv, MPI_Waitall, unpack) and the gather of the  *|
|* blocks at region exit. Internally every array is 3-D: an array of rank  *|
|* r < 3 gets leading axes of extent 1, so IR axis a is internal axis      *|
|* a + 3 - r. See docs/MPI.md for the model.                                *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#include "stencil_mpi.h"

#include <mpi.h>
/* Open MPI's extensions: MPIX_Query_cuda_support, MPIX_Query_rocm_support. */
#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A rank's neighbourhood: the offsets {-1, 0, 1} along each axis; a
 * message goes to or comes from each rank but this one. */
enum {
  MAX_AXES = 3,
  MAX_DIRECTIONS = 27,
  SELF_DIRECTION = 13,
  MAX_MESSAGES = 2 * (MAX_DIRECTIONS - 1)
};

struct Message {
  void *buffer; /* host memory, or a device buffer in direct exchanges */
  int64_t lower[MAX_AXES], upper[MAX_AXES]; /* local box it packs/fills */
  int receive;
};

static struct {
  int initialized, processRank, processCount, localRank, ownsMPI, faultRank,
      hangRank;
  /* STENCIL_MPI_TIMEOUT, in seconds; 0: wait as long as MPI does. */
  double timeout;
  /* The region in progress. */
  int active, axes;
  int64_t extent[MAX_AXES], halo[MAX_AXES];
  int64_t computedLower[MAX_AXES], computedUpper[MAX_AXES];
  int distributed[MAX_AXES];
  MPI_Comm layout;
  int dims[MAX_AXES], coords[MAX_AXES];
  int below[MAX_AXES], above[MAX_AXES];
  /* The rank at each offset of the neighbourhood (directionOf), or
   * MPI_PROC_NULL beyond the layout or along an axis not distributed. */
  int neighbour[MAX_DIRECTIONS];
  int64_t lower[MAX_AXES], upper[MAX_AXES], offset[MAX_AXES];
  /* Shares of the devices in rank order (stencil_mpi_split), for the
   * outermost axis; none: near-equal blocks. */
  int64_t *shares;
  int splitCount;
  /* The exchange between _begin and _end. */
  struct {
    int active;
    /* The array is in GPU memory: faces are packed there (runtime/gpu). */
    int device;
    char *data;
    int64_t elemBytes, size[MAX_AXES], width[MAX_AXES];
    struct Message messages[MAX_MESSAGES];
    MPI_Request requests[MAX_MESSAGES];
    int count;
  } pending;
  /* Whether halo faces of GPU arrays travel between device buffers
   * (decideGpuDirect; -1 until the first exchange of GPU memory), and those
   * buffers, one per message slot, kept until the region ends. */
  int gpuDirect;
  int usedGpu;
  void *deviceFaces[MAX_MESSAGES];
  size_t deviceFaceBytes[MAX_MESSAGES];
  /* Counters of the region, printed with STENCIL_MPI_STATS=1. */
  long long exchanges, messages, bytes;
} state = {.faultRank = -1, .hangRank = -1, .gpuDirect = -1};

static void fail(const char *message) {
  fprintf(stderr, "stencil-mpi: rank %d: error: %s\n", state.processRank,
          message);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Every rank stops here; rank 0 says why. The others wait to be ended by
 * rank 0's MPI_Abort so that the message is printed once. */
static void failOnRank0(const char *message) {
  if (state.processRank == 0) {
    fprintf(stderr, "stencil-mpi: error: %s\n", message);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static void finalize(void) {
  int finalized = 0;
  fflush(stdout);
  MPI_Finalized(&finalized);
  if (state.ownsMPI && !finalized)
    MPI_Finalize();
}

/* Before main: every rank runs the whole program, so only rank 0 keeps its
 * standard output and the job prints what the serial program prints. */
__attribute__((constructor)) static void initialize(void) {
  /* Also called by stencil_mpi_local_rank, which a GPU runtime may call
     from its own constructor, before or after this one. */
  if (state.initialized)
    return;
  state.initialized = 1;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    MPI_Init(NULL, NULL);
    state.ownsMPI = 1;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &state.processRank);
  MPI_Comm_size(MPI_COMM_WORLD, &state.processCount);
  /* The rank among those of this node, for choosing a GPU: collective, so
     every rank computes it here, in the same place. */
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                      &node);
  MPI_Comm_rank(node, &state.localRank);
  MPI_Comm_free(&node);
  const char *allOutput = getenv("STENCIL_MPI_ALL_OUTPUT");
  if (state.processRank != 0 && !(allOutput && atoi(allOutput))) {
    if (!freopen("/dev/null", "w", stdout))
      fail("cannot silence the standard output of this rank");
  }
  const char *fault = getenv("STENCIL_MPI_FAULT_RANK");
  if (fault && *fault)
    state.faultRank = atoi(fault);
  const char *hang = getenv("STENCIL_MPI_HANG_RANK");
  if (hang && *hang)
    state.hangRank = atoi(hang);
  const char *timeout = getenv("STENCIL_MPI_TIMEOUT");
  if (timeout && *timeout) {
    char *end;
    state.timeout = strtod(timeout, &end);
    if (*end || !(state.timeout > 0))
      fail("STENCIL_MPI_TIMEOUT must be a positive number of seconds");
  }
  atexit(finalize);
}

/* Waits for `count` requests. With STENCIL_MPI_TIMEOUT, a rank that waits
 * longer ends the job, saying what it waited for (`what`, printed with
 * `detail`): a rank that hangs, rather than dies, would otherwise hold the
 * whole job until the batch system's limit. */
static void waitFor(int count, MPI_Request *requests, const char *what,
                    long long detail) {
  if (state.timeout <= 0) {
    MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
    return;
  }
  double start = MPI_Wtime();
  for (;;) {
    int done = 0;
    MPI_Testall(count, requests, &done, MPI_STATUSES_IGNORE);
    if (done)
      return;
    if (MPI_Wtime() - start > state.timeout)
      break;
  }
  char message[256];
  snprintf(message, sizeof message, what, detail);
  fprintf(stderr,
          "stencil-mpi: rank %d: error: waited more than %g s "
          "(STENCIL_MPI_TIMEOUT) for %s; ending the job\n",
          state.processRank, state.timeout, message);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

/* A rank that stops responding, for testing STENCIL_MPI_TIMEOUT. */
static void hangOnRequest(void) {
  if (state.processRank != state.hangRank)
    return;
  fprintf(stderr,
          "stencil-mpi: rank %d hangs on request "
          "(STENCIL_MPI_HANG_RANK)\n",
          state.processRank);
  fflush(stderr);
  for (;;)
    pause();
}

static int internalAxis(int64_t axis) {
  if (!state.active)
    fail("stencil_mpi_* called outside a distributed region");
  if (axis < 0 || axis >= state.axes)
    fail("axis out of range");
  return (int)axis + MAX_AXES - state.axes;
}

/* Block `coord` of `parts` near-equal blocks of [0, n). */
static void blockOf(int64_t n, int parts, int coord, int64_t *lower,
                    int64_t *upper) {
  int64_t base = n / parts, extra = n % parts;
  *lower = coord * base + (coord < extra ? coord : extra);
  *upper = *lower + base + (coord < extra ? 1 : 0);
}

/* Where block `coord` of a device split starts along internal axis d: the
 * computed points [computedLower, computedUpper) are shared in proportion
 * to the shares (the boundary cells outside them go to the first and last
 * blocks). */
static int64_t splitBoundary(int d, int coord) {
  if (coord == 0)
    return 0;
  if (coord == state.splitCount)
    return state.extent[d];
  int64_t total = 0, before = 0;
  for (int i = 0; i < state.splitCount; ++i) {
    total += state.shares[i];
    if (i < coord)
      before += state.shares[i];
  }
  int64_t points = state.computedUpper[d] - state.computedLower[d];
  if (points < 0)
    points = 0;
  /* Rounded to the nearest point; exact where the shares were computed
   * for this many points. */
  return state.computedLower[d] + (points * before + total / 2) / total;
}

/* The block of coordinate `coord` along internal axis d. */
static void blockAlong(int d, int coord, int64_t *lower, int64_t *upper) {
  if (state.splitCount > 0 && d == MAX_AXES - state.axes) {
    *lower = splitBoundary(d, coord);
    *upper = splitBoundary(d, coord + 1);
    return;
  }
  blockOf(state.extent[d], state.dims[d], coord, lower, upper);
}

void stencil_mpi_split(int64_t devices, int64_t index, int64_t share) {
  if (state.active)
    fail("a device split was given inside a distributed region");
  if (devices < 1 || index < 0 || index >= devices || share < 0)
    fail("stencil_mpi_split: device count, index or share out of range");
  if (state.splitCount != devices) {
    free(state.shares);
    state.shares = calloc((size_t)devices, sizeof(int64_t));
    if (!state.shares)
      fail("out of memory for a device split");
    state.splitCount = (int)devices;
  }
  state.shares[index] = share;
}

/* The offsets {-1, 0, 1} per axis of neighbourhood direction `direction`,
 * and back. */
static void offsetOf(int direction, int offset[MAX_AXES]) {
  offset[0] = direction / 9 - 1;
  offset[1] = direction / 3 % 3 - 1;
  offset[2] = direction % 3 - 1;
}

static int directionOf(const int offset[MAX_AXES]) {
  return (offset[0] + 1) * 9 + (offset[1] + 1) * 3 + (offset[2] + 1);
}

void stencil_mpi_begin(int64_t rank, int64_t n0, int64_t n1, int64_t n2,
                       int64_t distributed, int64_t h0, int64_t h1, int64_t h2,
                       int64_t gLower0, int64_t gLower1, int64_t gLower2,
                       int64_t gUpper0, int64_t gUpper1, int64_t gUpper2) {
  if (state.active)
    fail("a distributed region began inside another one");
  if (rank < 1 || rank > MAX_AXES)
    fail("arrays must have 1 to 3 axes");
  int64_t n[MAX_AXES] = {n0, n1, n2}, h[MAX_AXES] = {h0, h1, h2};
  int64_t gLower[MAX_AXES] = {gLower0, gLower1, gLower2};
  int64_t gUpper[MAX_AXES] = {gUpper0, gUpper1, gUpper2};
  state.active = 1;
  state.axes = (int)rank;
  int splitAxes = 0;
  for (int d = 0; d < MAX_AXES; ++d) {
    int axis = d - (MAX_AXES - state.axes);
    int inRange = axis >= 0;
    state.extent[d] = inRange ? n[axis] : 1;
    state.halo[d] = inRange ? h[axis] : 0;
    state.computedLower[d] = inRange ? gLower[axis] : 0;
    state.computedUpper[d] = inRange ? gUpper[axis] : 1;
    state.distributed[d] = inRange && ((distributed >> axis) & 1);
    splitAxes += state.distributed[d];
  }
  /* The ranks form a grid over the distributed axes; MPI_Dims_create gives
   * the outermost one the most ranks, which keeps blocks contiguous. */
  int splitDims[MAX_AXES] = {0, 0, 0};
  if (state.splitCount > 0) {
    /* One device per rank, along the outermost axis. */
    if (splitAxes != 1 || !state.distributed[MAX_AXES - state.axes])
      failOnRank0("a device split divides the outermost axis; distribute "
                  "only that axis");
    if (state.splitCount != state.processCount) {
      char message[256];
      snprintf(message, sizeof message,
               "the program was compiled for %d devices (--mpi-devices) but "
               "runs on %d ranks; start one rank per device",
               state.splitCount, state.processCount);
      failOnRank0(message);
    }
  }
  if (splitAxes > 0)
    MPI_Dims_create(state.processCount, splitAxes, splitDims);
  int next = 0, periods[MAX_AXES] = {0, 0, 0};
  for (int d = 0; d < MAX_AXES; ++d)
    state.dims[d] = state.distributed[d] ? splitDims[next++] : 1;
  if (splitAxes == 0)
    state.dims[MAX_AXES - 1] = state.processCount; /* all ranks redundant */
  /* MPI_Cart_create is collective: a rank that never arrives would hold
   * the others in it, beyond the reach of STENCIL_MPI_TIMEOUT. */
  if (state.timeout > 0) {
    MPI_Request arrived;
    MPI_Ibarrier(MPI_COMM_WORLD, &arrived);
    waitFor(1, &arrived, "every rank to begin the distributed region", 0);
  }
  MPI_Cart_create(MPI_COMM_WORLD, MAX_AXES, state.dims, periods, 0,
                  &state.layout);
  MPI_Cart_coords(state.layout, state.processRank, MAX_AXES, state.coords);
  for (int d = 0; d < MAX_AXES; ++d) {
    MPI_Cart_shift(state.layout, d, 1, &state.below[d], &state.above[d]);
    if (!state.distributed[d]) {
      state.below[d] = state.above[d] = MPI_PROC_NULL;
      state.lower[d] = 0;
      state.upper[d] = state.extent[d];
      state.offset[d] = 0;
      continue;
    }
    /* The thinnest block is n / parts cells (a split's smallest share):
     * it must hold the halo its neighbours read from it. */
    int64_t thinnest = state.extent[d] / state.dims[d];
    if (state.splitCount > 0 && d == MAX_AXES - state.axes) {
      int thinRank = 0;
      for (int c = 0; c < state.dims[d]; ++c) {
        int64_t lo, hi;
        blockAlong(d, c, &lo, &hi);
        if (c == 0 || hi - lo < thinnest) {
          thinnest = hi - lo;
          thinRank = c;
        }
      }
      if (thinnest < state.halo[d] || thinnest < 1) {
        char message[256];
        snprintf(message, sizeof message,
                 "the device split gives rank %d %lld of the %lld cells "
                 "along axis 0, fewer than the halo width %lld; leave its "
                 "device out of --mpi-devices or use a larger grid",
                 thinRank, (long long)thinnest, (long long)state.extent[d],
                 (long long)(state.halo[d] > 1 ? state.halo[d] : 1));
        failOnRank0(message);
      }
    }
    if (thinnest < state.halo[d] || thinnest < 1) {
      char message[256];
      snprintf(message, sizeof message,
               "%d ranks along axis %d split its %lld cells into blocks of "
               "%lld, fewer than the halo width %lld; use fewer ranks or a "
               "larger grid",
               state.dims[d], d - (MAX_AXES - state.axes),
               (long long)state.extent[d], (long long)thinnest,
               (long long)(state.halo[d] > 1 ? state.halo[d] : 1));
      failOnRank0(message);
    }
    blockAlong(d, state.coords[d], &state.lower[d], &state.upper[d]);
    int64_t first = state.lower[d] - state.halo[d];
    state.offset[d] = first > 0 ? first : 0;
  }
  for (int direction = 0; direction < MAX_DIRECTIONS; ++direction) {
    int offset[MAX_AXES], coords[MAX_AXES], inside = 1;
    offsetOf(direction, offset);
    for (int d = 0; d < MAX_AXES; ++d) {
      coords[d] = state.coords[d] + offset[d];
      inside &= coords[d] >= 0 && coords[d] < state.dims[d] &&
                (offset[d] == 0 || state.distributed[d]);
    }
    state.neighbour[direction] = MPI_PROC_NULL;
    if (inside && direction != SELF_DIRECTION)
      MPI_Cart_rank(state.layout, coords, &state.neighbour[direction]);
  }
  state.exchanges = state.messages = state.bytes = 0;
}

int64_t stencil_mpi_block_lower(int64_t axis) {
  return state.lower[internalAxis(axis)];
}

int64_t stencil_mpi_block_upper(int64_t axis) {
  return state.upper[internalAxis(axis)];
}

int64_t stencil_mpi_local_offset(int64_t axis) {
  return state.offset[internalAxis(axis)];
}

int64_t stencil_mpi_local_extent(int64_t axis, int64_t n) {
  int d = internalAxis(axis);
  if (!state.distributed[d])
    return n;
  int64_t end = state.upper[d] + state.halo[d];
  return (end < n ? end : n) - state.offset[d];
}

int64_t stencil_mpi_ring(int64_t axis, int64_t side) {
  int d = internalAxis(axis);
  if ((side ? state.above[d] : state.below[d]) == MPI_PROC_NULL)
    return 0;
  int64_t cells = side ? state.computedUpper[d] - state.upper[d]
                       : state.lower[d] - state.computedLower[d];
  if (cells > state.halo[d])
    cells = state.halo[d];
  return cells > 0 ? cells : 0;
}

int64_t stencil_mpi_has_neighbor(int64_t axis, int64_t side) {
  int d = internalAxis(axis);
  return (side ? state.above[d] : state.below[d]) != MPI_PROC_NULL;
}

/* Copies the box [lower, upper) of a 3-D array of extents `size` into the
 * contiguous `buffer` (pack) or back (unpack), one innermost run at a
 * time. */
static void copyBox(char *array, const int64_t size[MAX_AXES],
                    int64_t elemBytes, const int64_t lower[MAX_AXES],
                    const int64_t upper[MAX_AXES], char *buffer, int pack) {
  size_t run = (size_t)(upper[2] - lower[2]) * elemBytes;
  for (int64_t i = lower[0]; i < upper[0]; ++i)
    for (int64_t j = lower[1]; j < upper[1]; ++j) {
      char *cells =
          array + ((i * size[1] + j) * size[2] + lower[2]) * elemBytes;
      if (pack)
        memcpy(buffer, cells, run);
      else
        memcpy(cells, buffer, run);
      buffer += run;
    }
}

/* Defined by the GPU runtime (runtime/gpu/mgpu.h) that a program of a GPU
 * target links. */
extern void stencil_gpu_copy_box(void *device, const int64_t size[3],
                                 int64_t elemBytes, const int64_t lower[3],
                                 const int64_t upper[3], void *host, int toHost)
    __attribute__((weak));
extern void stencil_gpu_copy_box_on_device(void *device, const int64_t size[3],
                                           int64_t elemBytes,
                                           const int64_t lower[3],
                                           const int64_t upper[3], void *packed,
                                           int pack) __attribute__((weak));
extern const char *stencil_gpu_buffers(void) __attribute__((weak));
extern void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, int8_t isHostShared)
    __attribute__((weak));
extern void mgpuMemFree(void *pointer, void *stream) __attribute__((weak));

/* Whether this MPI library sends from and receives into device memory of
 * kind `buffers` ("cuda", "hip"): CUDA- and ROCm-aware builds of Open MPI
 * and MPICH say so at run time. */
static int mpiReachesDeviceMemory(const char *buffers) {
  int cuda = strcmp(buffers, "cuda") == 0, hip = strcmp(buffers, "hip") == 0;
  (void)cuda, (void)hip;
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
  if (cuda)
    return MPIX_Query_cuda_support();
#endif
#if defined(OMPI_HAVE_MPI_EXT_ROCM) && OMPI_HAVE_MPI_EXT_ROCM
  if (hip)
    return MPIX_Query_rocm_support();
#endif
#if defined(MPIX_GPU_SUPPORT_CUDA) && defined(MPIX_GPU_SUPPORT_HIP)
  int supported = 0;
  if ((cuda || hip) && MPIX_GPU_query_support(cuda ? MPIX_GPU_SUPPORT_CUDA
                                                   : MPIX_GPU_SUPPORT_HIP,
                                              &supported) == MPI_SUCCESS)
    return supported;
#endif
  return 0;
}

/* Whether the faces of GPU arrays go to MPI from device buffers: where
 * the GPU runtime's buffers are host memory (Vulkan's mapped memory), or
 * the MPI library reaches the device's memory (GPU-aware MPI). Otherwise
 * they are copied to host memory first. STENCIL_MPI_GPU_DIRECT=0|1
 * overrides (1: trust that the MPI library is GPU-aware though it does not
 * say so). */
static int decideGpuDirect(void) {
  if (!stencil_gpu_buffers || !stencil_gpu_copy_box_on_device ||
      !mgpuMemAlloc || !mgpuMemFree)
    return 0;
  const char *buffers = stencil_gpu_buffers();
  int opaque = strcmp(buffers, "opaque") == 0;
  const char *setting = getenv("STENCIL_MPI_GPU_DIRECT");
  if (setting && *setting) {
    if (strcmp(setting, "0") == 0)
      return 0;
    if (strcmp(setting, "1") != 0)
      fail("STENCIL_MPI_GPU_DIRECT must be 0 or 1");
    if (opaque)
      fail("STENCIL_MPI_GPU_DIRECT=1, but the GPU runtime's buffers are "
           "device memory that only its own copies reach (Vulkan's staged "
           "memory); unset it, or use STENCIL_GPU_MEMORY=mapped");
    return 1;
  }
  if (strcmp(buffers, "host") == 0)
    return 1;
  return !opaque && mpiReachesDeviceMemory(buffers);
}

/* The device buffer of message slot `slot`, at least `bytes` long. */
static void *getDeviceFace(int slot, size_t bytes) {
  if (state.deviceFaces[slot] && state.deviceFaceBytes[slot] >= bytes)
    return state.deviceFaces[slot];
  if (state.deviceFaces[slot])
    mgpuMemFree(state.deviceFaces[slot], NULL);
  state.deviceFaces[slot] = mgpuMemAlloc(bytes ? bytes : 1, NULL, 0);
  state.deviceFaceBytes[slot] = bytes;
  return state.deviceFaces[slot];
}

static void freeDeviceFaces(void) {
  for (int slot = 0; slot < MAX_MESSAGES; ++slot) {
    if (state.deviceFaces[slot])
      mgpuMemFree(state.deviceFaces[slot], NULL);
    state.deviceFaces[slot] = NULL;
    state.deviceFaceBytes[slot] = 0;
  }
}

/* Whether the pending exchange's messages use device buffers. */
static int pendingIsDirect(void) {
  return state.pending.device && state.gpuDirect;
}

/* copyBox for the pending exchange's array, on the host or the GPU. */
static void copyPendingBox(const struct Message *m, int pack) {
  if (!state.pending.device) {
    copyBox(state.pending.data, state.pending.size, state.pending.elemBytes,
            m->lower, m->upper, m->buffer, pack);
    return;
  }
  if (!stencil_gpu_copy_box)
    fail("a halo exchange of GPU memory in a program without a GPU runtime");
  if (pendingIsDirect())
    stencil_gpu_copy_box_on_device(state.pending.data, state.pending.size,
                                   state.pending.elemBytes, m->lower, m->upper,
                                   m->buffer, pack);
  else
    stencil_gpu_copy_box(state.pending.data, state.pending.size,
                         state.pending.elemBytes, m->lower, m->upper, m->buffer,
                         pack);
}

static size_t boxBytes(const int64_t lower[MAX_AXES],
                       const int64_t upper[MAX_AXES], int64_t elemBytes) {
  size_t cells = 1;
  for (int d = 0; d < MAX_AXES; ++d)
    cells *= (size_t)(upper[d] > lower[d] ? upper[d] - lower[d] : 0);
  return cells * elemBytes;
}

/* The rank the pending exchange trades with in direction `direction`:
 * the neighbour there, unless the exchange has no width along an axis the
 * direction crosses; else MPI_PROC_NULL. */
static int getPendingNeighbour(int direction) {
  int offset[MAX_AXES];
  offsetOf(direction, offset);
  for (int d = 0; d < MAX_AXES; ++d)
    if (offset[d] != 0 && state.pending.width[d] == 0)
      return MPI_PROC_NULL;
  return state.neighbour[direction];
}

/* Posts every message of the pending exchange at once: to and from each
 * neighbour of the layout, faces and also the edges and corners of the
 * halo (diagonal neighbours), so that all axes are in flight together and
 * the corner cells that diagonal reads, deep halos and time blocks need
 * arrive directly. */
static void postMessages(void) {
  state.pending.count = 0;
  for (int direction = 0; direction < MAX_DIRECTIONS; ++direction) {
    int neighbour = getPendingNeighbour(direction);
    if (neighbour == MPI_PROC_NULL)
      continue;
    int offset[MAX_AXES];
    offsetOf(direction, offset);
    for (int receive = 0; receive < 2; ++receive) {
      struct Message *m = &state.pending.messages[state.pending.count];
      m->receive = receive;
      /* Along an offset axis: send our first (last) w cells, receive the w
       * cells before (after) our block; along the others, our block. */
      int travel[MAX_AXES];
      for (int d = 0; d < MAX_AXES; ++d) {
        int64_t w = state.pending.width[d];
        int64_t ownLower = state.lower[d] - state.offset[d];
        int64_t ownUpper = state.upper[d] - state.offset[d];
        if (offset[d] == 0) {
          m->lower[d] = ownLower;
          m->upper[d] = ownUpper;
        } else if (offset[d] < 0) {
          m->lower[d] = receive ? ownLower - w : ownLower;
          m->upper[d] = receive ? ownLower : ownLower + w;
        } else {
          m->lower[d] = receive ? ownUpper : ownUpper - w;
          m->upper[d] = receive ? ownUpper + w : ownUpper;
        }
        travel[d] = receive ? -offset[d] : offset[d];
      }
      size_t bytes = boxBytes(m->lower, m->upper, state.pending.elemBytes);
      if (bytes > INT_MAX)
        fail("a halo message exceeds 2 GiB");
      m->buffer = pendingIsDirect() ? getDeviceFace(state.pending.count, bytes)
                                    : malloc(bytes ? bytes : 1);
      if (!m->buffer)
        fail("out of memory for a halo message");
      /* The tag names the direction the data travels. */
      int tag = 100 + directionOf(travel);
      MPI_Request *request = &state.pending.requests[state.pending.count];
      if (receive) {
        MPI_Irecv(m->buffer, (int)bytes, MPI_BYTE, neighbour, tag, state.layout,
                  request);
      } else {
        copyPendingBox(m, 1);
        MPI_Isend(m->buffer, (int)bytes, MPI_BYTE, neighbour, tag, state.layout,
                  request);
        state.messages += 1;
        state.bytes += (long long)bytes;
      }
      ++state.pending.count;
    }
  }
}

/* Waits for the pending exchange's messages, then unpacks what arrived. */
static void completeMessages(void) {
  /* "halo exchange %lld with ranks 2, 4 and 5" */
  char what[256];
  int used = snprintf(what, sizeof what, "halo exchange %%lld with rank");
  int listed = 0, count = 0;
  for (int direction = 0; direction < MAX_DIRECTIONS; ++direction)
    count += getPendingNeighbour(direction) != MPI_PROC_NULL;
  for (int direction = 0; direction < MAX_DIRECTIONS; ++direction) {
    int neighbour = getPendingNeighbour(direction);
    if (neighbour == MPI_PROC_NULL || used >= (int)sizeof what - 16)
      continue;
    const char *separator = listed == 0           ? (count > 1 ? "s " : " ")
                            : listed + 1 == count ? " and "
                                                  : ", ";
    used +=
        snprintf(what + used, sizeof what - used, "%s%d", separator, neighbour);
    ++listed;
  }
  waitFor(state.pending.count, state.pending.requests, what, state.exchanges);
  for (int i = 0; i < state.pending.count; ++i) {
    struct Message *m = &state.pending.messages[i];
    if (m->receive)
      copyPendingBox(m, 0);
    if (!pendingIsDirect())
      free(m->buffer);
  }
  state.pending.count = 0;
}

static void beginExchange(int device, int64_t data, int64_t elemBytes,
                          int64_t s0, int64_t s1, int64_t s2, int64_t w0,
                          int64_t w1, int64_t w2) {
  if (!state.active)
    fail("halo exchange outside a distributed region");
  if (state.pending.active)
    fail("a halo exchange began before the previous one ended");
  if (state.processRank == state.faultRank) {
    fprintf(stderr,
            "stencil-mpi: rank %d aborts on request "
            "(STENCIL_MPI_FAULT_RANK)\n",
            state.processRank);
    abort();
  }
  hangOnRequest();
  int64_t s[MAX_AXES] = {s0, s1, s2}, w[MAX_AXES] = {w0, w1, w2};
  state.pending.active = 1;
  state.pending.device = device;
  if (device && state.gpuDirect < 0)
    state.gpuDirect = decideGpuDirect();
  state.usedGpu |= device;
  state.pending.data = (char *)(intptr_t)data;
  state.pending.elemBytes = elemBytes;
  for (int d = 0; d < MAX_AXES; ++d) {
    int axis = d - (MAX_AXES - state.axes);
    state.pending.size[d] = axis >= 0 ? s[axis] : 1;
    state.pending.width[d] = axis >= 0 ? w[axis] : 0;
    if (state.pending.width[d] > state.halo[d])
      fail("an exchange is wider than the halo its region declared");
  }
  ++state.exchanges;
  /* Every axis travels while the caller computes. */
  postMessages();
}

void stencil_mpi_exchange_end(void) {
  if (!state.pending.active)
    fail("a halo exchange ended that did not begin");
  completeMessages();
  state.pending.active = 0;
}

void stencil_mpi_exchange_begin(int64_t data, int64_t elemBytes, int64_t s0,
                                int64_t s1, int64_t s2, int64_t w0, int64_t w1,
                                int64_t w2) {
  beginExchange(0, data, elemBytes, s0, s1, s2, w0, w1, w2);
}

void stencil_mpi_exchange(int64_t data, int64_t elemBytes, int64_t s0,
                          int64_t s1, int64_t s2, int64_t w0, int64_t w1,
                          int64_t w2) {
  beginExchange(0, data, elemBytes, s0, s1, s2, w0, w1, w2);
  stencil_mpi_exchange_end();
}

void stencil_mpi_exchange_begin_device(int64_t data, int64_t elemBytes,
                                       int64_t s0, int64_t s1, int64_t s2,
                                       int64_t w0, int64_t w1, int64_t w2) {
  beginExchange(1, data, elemBytes, s0, s1, s2, w0, w1, w2);
}

void stencil_mpi_exchange_device(int64_t data, int64_t elemBytes, int64_t s0,
                                 int64_t s1, int64_t s2, int64_t w0, int64_t w1,
                                 int64_t w2) {
  beginExchange(1, data, elemBytes, s0, s1, s2, w0, w1, w2);
  stencil_mpi_exchange_end();
}

/* The global box that rank `process` owns. */
static void ownedBox(int process, int64_t lower[MAX_AXES],
                     int64_t upper[MAX_AXES]) {
  int coords[MAX_AXES];
  MPI_Cart_coords(state.layout, process, MAX_AXES, coords);
  for (int d = 0; d < MAX_AXES; ++d) {
    if (state.distributed[d]) {
      blockAlong(d, coords[d], &lower[d], &upper[d]);
    } else {
      lower[d] = 0;
      upper[d] = state.extent[d];
    }
  }
}

/* Internal 3-D extents of an array whose IR extents are e0, e1, e2. */
static void toInternal(const int64_t e[MAX_AXES], int64_t out[MAX_AXES]) {
  for (int d = 0; d < MAX_AXES; ++d) {
    int axis = d - (MAX_AXES - state.axes);
    out[d] = axis >= 0 ? e[axis] : 1;
  }
}

/* The global and local extents of a scatter or gather, as the runtime
 * stores them; only inside a distributed region. */
static void getTransferSizes(const char *what, int64_t n0, int64_t n1,
                             int64_t n2, int64_t l0, int64_t l1, int64_t l2,
                             int64_t globalSize[MAX_AXES],
                             int64_t localSize[MAX_AXES]) {
  if (!state.active)
    fail(what);
  int64_t n[MAX_AXES] = {n0, n1, n2}, l[MAX_AXES] = {l0, l1, l2};
  toInternal(n, globalSize);
  toInternal(l, localSize);
}

void stencil_mpi_scatter(int64_t global, int64_t local, int64_t elemBytes,
                         int64_t n0, int64_t n1, int64_t n2, int64_t l0,
                         int64_t l1, int64_t l2) {
  int64_t globalSize[MAX_AXES], localSize[MAX_AXES];
  getTransferSizes("scatter outside a distributed region", n0, n1, n2, l0, l1,
                   l2, globalSize, localSize);
  /* The local buffer is the box [offset, offset + local extent) of the
   * global array, stored contiguously: exactly what copyBox packs. */
  int64_t lower[MAX_AXES], upper[MAX_AXES];
  for (int d = 0; d < MAX_AXES; ++d) {
    lower[d] = state.offset[d];
    upper[d] = state.offset[d] + localSize[d];
  }
  copyBox((char *)(intptr_t)global, globalSize, elemBytes, lower, upper,
          (char *)(intptr_t)local, 1);
}

void stencil_mpi_gather(int64_t global, int64_t local, int64_t elemBytes,
                        int64_t n0, int64_t n1, int64_t n2, int64_t l0,
                        int64_t l1, int64_t l2) {
  int64_t globalSize[MAX_AXES], localSize[MAX_AXES];
  getTransferSizes("gather outside a distributed region", n0, n1, n2, l0, l1,
                   l2, globalSize, localSize);
  const char *mode = getenv("STENCIL_MPI_GATHER");
  int rootOnly = mode && strcmp(mode, "root") == 0;
  int *counts = malloc(sizeof(int) * state.processCount);
  int *displacements = malloc(sizeof(int) * state.processCount);
  size_t total = 0;
  for (int p = 0; p < state.processCount; ++p) {
    int64_t lower[MAX_AXES], upper[MAX_AXES];
    ownedBox(p, lower, upper);
    size_t bytes = boxBytes(lower, upper, elemBytes);
    if (total + bytes > INT_MAX)
      fail("the gathered array exceeds 2 GiB; use STENCIL_MPI_GATHER=root "
           "or fewer cells");
    counts[p] = (int)bytes;
    displacements[p] = (int)total;
    total += bytes;
  }
  int64_t lower[MAX_AXES], upper[MAX_AXES];
  ownedBox(state.processRank, lower, upper);
  for (int d = 0; d < MAX_AXES; ++d) {
    lower[d] -= state.offset[d];
    upper[d] -= state.offset[d];
  }
  char *sendBuffer = malloc(counts[state.processRank] + 1);
  char *receiveBuffer = malloc(total + 1);
  if (!counts || !displacements || !sendBuffer || !receiveBuffer)
    fail("out of memory for the gather");
  copyBox((char *)(intptr_t)local, localSize, elemBytes, lower, upper,
          sendBuffer, 1);
  MPI_Request request;
  if (rootOnly)
    MPI_Igatherv(sendBuffer, counts[state.processRank], MPI_BYTE, receiveBuffer,
                 counts, displacements, MPI_BYTE, 0, state.layout, &request);
  else
    MPI_Iallgatherv(sendBuffer, counts[state.processRank], MPI_BYTE,
                    receiveBuffer, counts, displacements, MPI_BYTE,
                    state.layout, &request);
  waitFor(1, &request, "the gather of the blocks at the end of the region", 0);
  if (!rootOnly || state.processRank == 0)
    for (int p = 0; p < state.processCount; ++p) {
      ownedBox(p, lower, upper);
      copyBox((char *)(intptr_t)global, globalSize, elemBytes, lower, upper,
              receiveBuffer + displacements[p], 0);
    }
  free(sendBuffer);
  free(receiveBuffer);
  free(counts);
  free(displacements);
}

void stencil_mpi_clear(int64_t local, int64_t elemBytes, int64_t l0, int64_t l1,
                       int64_t l2) {
  memset((void *)(intptr_t)local, 0, (size_t)(elemBytes * l0 * l1 * l2));
}

/* Reports a failed MPI-IO call on `path` and ends the job. */
static void checkFileCall(int code, const char *what, const char *path) {
  if (code == MPI_SUCCESS)
    return;
  char reason[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, reason, &length);
  char message[1024];
  snprintf(message, sizeof message, "cannot write '%s' (%s): %s", path, what,
           reason);
  fail(message);
}

void stencil_mpi_write_raw(int64_t local, int64_t elemBytes, int64_t l0,
                           int64_t l1, int64_t l2, int64_t path) {
  if (!state.active)
    fail("write_raw outside a distributed region");
  const char *name = (const char *)(intptr_t)path;
  /* A conditional write whose condition does not hold (on every rank: the
   * ranks run one program on the same arguments). */
  if (!name)
    return;
  int64_t l[MAX_AXES] = {l0, l1, l2}, localSize[MAX_AXES];
  toInternal(l, localSize);
  /* The file holds the global array in C order; this rank's block goes to
   * its box there, taken from its box in the local buffer. */
  int64_t lower[MAX_AXES], upper[MAX_AXES];
  ownedBox(state.processRank, lower, upper);
  int global[MAX_AXES], local3[MAX_AXES], box[MAX_AXES], inFile[MAX_AXES],
      inLocal[MAX_AXES];
  for (int d = 0; d < MAX_AXES; ++d) {
    if (state.extent[d] > INT_MAX)
      fail("an axis of the written array exceeds 2^31 cells");
    global[d] = (int)state.extent[d];
    local3[d] = (int)localSize[d];
    box[d] = (int)(upper[d] - lower[d]);
    inFile[d] = (int)lower[d];
    inLocal[d] = (int)(lower[d] - state.offset[d]);
  }
  /* One write of one derived type: MPI counts its bytes in an int. */
  int64_t blockBytes = elemBytes;
  int anyDistributed = 0;
  for (int d = 0; d < MAX_AXES; ++d) {
    blockBytes *= box[d];
    anyDistributed |= state.distributed[d];
  }
  if (blockBytes > INT_MAX)
    fail("a rank's block of the written array exceeds 2 GiB, more than one "
         "MPI-IO write takes; use more ranks");
  /* Without a distributed axis every rank holds all of it: rank 0 writes. */
  int count = anyDistributed || state.processRank == 0 ? 1 : 0;
  MPI_Datatype element, fileType, memoryType;
  MPI_Type_contiguous((int)elemBytes, MPI_BYTE, &element);
  MPI_Type_create_subarray(MAX_AXES, global, box, inFile, MPI_ORDER_C, element,
                           &fileType);
  MPI_Type_create_subarray(MAX_AXES, local3, box, inLocal, MPI_ORDER_C, element,
                           &memoryType);
  MPI_Type_commit(&element);
  MPI_Type_commit(&fileType);
  MPI_Type_commit(&memoryType);
  MPI_File file;
  checkFileCall(MPI_File_open(state.layout, name,
                              MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                              &file),
                "open", name);
  checkFileCall(
      MPI_File_set_view(file, 0, element, fileType, "native", MPI_INFO_NULL),
      "view", name);
  checkFileCall(MPI_File_write_all(file, (void *)(intptr_t)local, count,
                                   memoryType, MPI_STATUS_IGNORE),
                "write", name);
  /* A longer file that was there is cut to the array, as fopen's "wb"
   * would leave it; a device (/dev/null) has no size to cut. Setting the
   * size is collective: rank 0 decides for all. */
  MPI_Offset size = 0, total = elemBytes;
  for (int d = 0; d < MAX_AXES; ++d)
    total *= global[d];
  checkFileCall(MPI_File_get_size(file, &size), "size", name);
  int cut = size > total;
  MPI_Bcast(&cut, 1, MPI_INT, 0, state.layout);
  if (cut)
    checkFileCall(MPI_File_set_size(file, total), "truncate", name);
  checkFileCall(MPI_File_close(&file), "close", name);
  MPI_Type_free(&memoryType);
  MPI_Type_free(&fileType);
  MPI_Type_free(&element);
}

void stencil_mpi_allreduce(int64_t data, int64_t type, int64_t kind) {
  static const MPI_Datatype types[] = {MPI_FLOAT, MPI_DOUBLE, MPI_INT32_T,
                                       MPI_INT64_T};
  /* MPI_MIN and MPI_MAX on floats are fmin and fmax for numbers; a NaN in
   * one rank's part is as unspecified there as in the reduction itself. */
  static const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX};
  if (type < 0 || type > 3 || kind < 0 || kind > 3)
    fail("stencil_mpi_allreduce: type or kind out of range");
  MPI_Request request;
  MPI_Iallreduce(MPI_IN_PLACE, (void *)(intptr_t)data, 1, types[type],
                 ops[kind], MPI_COMM_WORLD, &request);
  waitFor(1, &request, "a reduction across the ranks", state.exchanges);
}

void stencil_mpi_end(void) {
  if (!state.active)
    fail("a distributed region ended that did not begin");
  const char *stats = getenv("STENCIL_MPI_STATS");
  if (stats && atoi(stats)) {
    long long mine[2] = {state.messages, state.bytes}, sum[2] = {0, 0};
    MPI_Reduce(mine, sum, 2, MPI_LONG_LONG, MPI_SUM, 0, state.layout);
    if (state.processRank == 0) {
      /* Layout and halo along the region's own axes, outermost first. */
      char layout[64] = "", halo[96] = "";
      for (int d = MAX_AXES - state.axes; d < MAX_AXES; ++d) {
        int first = d == MAX_AXES - state.axes;
        size_t used = strlen(layout), usedHalo = strlen(halo);
        snprintf(layout + used, sizeof layout - used, "%s%d", first ? "" : "x",
                 state.dims[d]);
        snprintf(halo + usedHalo, sizeof halo - usedHalo, "%s%lld",
                 first ? "" : ",", (long long)state.halo[d]);
      }
      /* A device split: each rank's rows of the outermost axis. */
      char split[256] = "";
      for (int c = 0; c < state.splitCount; ++c) {
        int64_t lo, hi;
        size_t used = strlen(split);
        blockAlong(MAX_AXES - state.axes, c, &lo, &hi);
        snprintf(split + used, sizeof split - used, "%s%lld",
                 c == 0 ? " split " : ",", (long long)(hi - lo));
      }
      /* How rank 0 handed GPU faces to MPI. */
      const char *faces = !state.usedGpu    ? ""
                          : state.gpuDirect ? " gpu-faces direct"
                                            : " gpu-faces via-host";
      fprintf(stderr,
              "stencil-mpi: ranks %d layout %s halo [%s] exchanges %lld "
              "messages %lld bytes %lld%s%s\n",
              state.processCount, layout, halo, state.exchanges, sum[0], sum[1],
              split, faces);
      fflush(stderr);
    }
  }
  MPI_Comm_free(&state.layout);
  freeDeviceFaces();
  state.usedGpu = 0;
  state.active = 0;
  /* A region gives its split again each time it begins. */
  free(state.shares);
  state.shares = NULL;
  state.splitCount = 0;
}

int64_t stencil_mpi_local_rank(void) {
  initialize();
  return state.localRank;
}

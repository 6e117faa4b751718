/*===- vulkan_runtime.c - mgpu* over Vulkan compute -----------------------===*
 *
 * The GPU runtime (mgpu.h) for SPIR-V kernels on any Vulkan device, e.g.
 * Mesa's lavapipe on a CPU. Upstream MLIR dropped its Vulkan runner, so
 * this one is ours.
 *
 * - Memory: every allocation is a storage buffer. Where the device's memory
 *   is the host's (lavapipe, integrated GPUs) it is host-visible, coherent
 *   and mapped for its lifetime, and the "device pointer" the host code
 *   holds is the mapping ("mapped" memory). On a discrete GPU buffers are
 *   device-local and the host code holds an address reserved for the
 *   buffer and never mapped; copies go through a host-visible staging
 *   buffer ("staged" memory). STENCIL_GPU_MEMORY=mapped|staged overrides
 *   the choice. Kernel arguments (bare pointer, size) are found
 *   in the allocation table and bound as storage buffers 0, 1, ... of
 *   descriptor set 0, which is where convert-gpu-to-spirv places kernel
 *   argument i.
 * - Execution: launches are recorded into one command buffer, each after a
 *   memory barrier, and submitted when the host needs the results (copy,
 *   free, stream synchronization) or the batch is long; small host-to-
 *   device copies join the batch (vkCmdUpdateBuffer). One queue serves
 *   every stream, so streams and events are trivial.
 * - Buffers of run-time length: every kernel argument is bound from its
 *   pointer to the end of its allocation, whatever size the launch gives.
 * - MPI: stencil_gpu_copy_box packs and unpacks halo faces with transfer
 *   commands through a staging buffer, stencil_gpu_copy_box_on_device into
 *   a buffer of this runtime that MPI reads (mapped memory); an MPI rank
 *   takes device `local rank mod devices` (stencil_mpi_local_rank).
 *
 * - Features: the device is created with shaderFloat64 and shaderInt64
 *   where it has them; a module that declares the SPIR-V capability
 *   Float64 or Int64 (double, long) on a device without the feature is an
 *   error when it is loaded, naming both.
 *
 * - Timing: with STENCIL_GPU_TIMING=1 the runtime prints at exit how long
 *   the device ran the submitted batches (timestamp queries, where the queue
 *   has them) and how long the host waited on their fences, with the bytes
 *   copied each way.
 *
 * Errors print "stencil-gpu (vulkan): error: ..." and exit with status 1.
 * STENCIL_GPU_DEVICE=i picks the i-th physical device; STENCIL_GPU_VERBOSE=1
 * names the device chosen and its kind of memory.
 *
 *===----------------------------------------------------------------------===*/

#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS, clock_gettime */

#include "mgpu.h"

#include <vulkan/vulkan.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* Launches per submitted batch, and descriptor sets per pool. */
enum { kMaxBatch = 1024, kSetsPerPool = 256, kBindingsPerSet = 32 };

/* `address` is what the host code holds for the buffer: its mapping, or in
 * staged memory an address range reserved for it (never readable), so that
 * pointers into buffers are distinct from every host pointer. */
typedef struct {
  char *address;
  char *mapped;       /* the host mapping, or NULL for device-local memory */
  uint64_t size;      /* rounded up to words */
  uint64_t requested; /* what mgpuMemAlloc was asked for */
  VkBuffer buffer;
  VkDeviceMemory memory;
} Allocation;

typedef struct Function Function;
typedef struct {
  VkShaderModule shader;
  Function *functions;
} Module;

struct Function {
  Module *module;
  Function *next;
  char *name;
  uint32_t bindings;
  VkDescriptorSetLayout setLayout;
  VkPipelineLayout pipelineLayout;
  VkPipeline pipeline;
};

static struct {
  int ready;
  VkInstance instance;
  VkPhysicalDevice physical;
  char deviceName[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
  VkPhysicalDeviceFeatures features;
  VkPhysicalDeviceMemoryProperties memoryProperties;
  uint32_t maxStorageBufferRange;
  VkDevice device;
  VkQueue queue;
  uint32_t family;
  VkCommandPool commandPool;
  VkCommandBuffer commands;
  VkFence fence;
  int recording;
  uint32_t recorded;
  int staged; /* buffers in device-local memory, copied via staging */
  Allocation staging;
  int stagingBusy; /* the open batch reads or writes `staging` */
  uint64_t stagingLimit;
  /* STENCIL_GPU_TIMING: timestamps around each batch, and totals. */
  int timing;
  VkQueryPool timestamps;
  double timestampNanoseconds;
  uint64_t timestampMask;
  double deviceSeconds, fenceSeconds;
  uint64_t batches, launches, bytesToDevice, bytesToHost;
  VkDescriptorPool *pools;
  uint32_t poolCount, currentPool;
  Allocation *allocations;
  size_t allocationCount, allocationCapacity;
} vk;

static int streamToken, eventToken;

#include "loaded_modules.h"

static void fail(const char *format, ...) {
  vk.timing = 0;      /* the error is the last line */
  exitingOnError = 1; /* nor unload pipelines of a device that failed */
  va_list args;
  va_start(args, format);
  fprintf(stderr, "stencil-gpu (vulkan): error: ");
  vfprintf(stderr, format, args);
  fprintf(stderr, "\n");
  va_end(args);
  exit(1);
}

static void check(VkResult result, const char *what) {
  if (result != VK_SUCCESS)
    fail("%s failed (VkResult %d)", what, (int)result);
}

/* Whether buffers live in device-local memory that the host does not map.
 * On CPUs and integrated GPUs the device's memory is the host's, and mapping
 * it costs nothing; on a discrete GPU a mapping is a window over PCIe,
 * slow to read and to compute on, so data moves in bulk transfers. */
static int chooseStagedMemory(VkPhysicalDeviceType type) {
  const char *mode = getenv("STENCIL_GPU_MEMORY");
  if (mode && *mode) {
    if (strcmp(mode, "staged") == 0)
      return 1;
    if (strcmp(mode, "mapped") == 0)
      return 0;
    fail("STENCIL_GPU_MEMORY=%s; expected 'mapped' or 'staged'", mode);
  }
  return type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ||
         type == VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU;
}

/* The largest copy that goes through the staging buffer at once; larger
 * ones go in pieces. STENCIL_GPU_STAGING_BYTES sets it (tests lower it to
 * take the piecewise path with small arrays). */
static uint64_t stagingLimit(void) {
  const char *text = getenv("STENCIL_GPU_STAGING_BYTES");
  if (!text || !*text)
    return UINT64_C(64) << 20;
  char *end;
  unsigned long long bytes = strtoull(text, &end, 10);
  if (*end || bytes == 0 || text[0] < '0' || text[0] > '9')
    fail("STENCIL_GPU_STAGING_BYTES=%s; expected a positive byte count", text);
  return bytes;
}

static double secondsNow(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

static void reportTiming(void) {
  if (!vk.timing)
    return;
  fprintf(stderr,
          "stencil-gpu (vulkan): %llu batches, %llu launches; device time ",
          (unsigned long long)vk.batches, (unsigned long long)vk.launches);
  if (vk.timestamps)
    fprintf(stderr, "%.6f s", vk.deviceSeconds);
  else
    fprintf(stderr, "unknown (the queue has no timestamps)");
  fprintf(stderr,
          ", host waited %.6f s on fences; %llu bytes to the device, %llu "
          "to the host (%s memory)\n",
          vk.fenceSeconds, (unsigned long long)vk.bytesToDevice,
          (unsigned long long)vk.bytesToHost, vk.staged ? "staged" : "mapped");
}

static void initialize(void) {
  if (vk.ready)
    return;
  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "stencil-mlir";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo instanceInfo = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instanceInfo.pApplicationInfo = &app;
  VkResult result = vkCreateInstance(&instanceInfo, NULL, &vk.instance);
  if (result != VK_SUCCESS)
    fail("no Vulkan instance (VkResult %d); install a Vulkan driver, e.g. "
         "mesa-vulkan-drivers for lavapipe",
         (int)result);

  uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(vk.instance, &count, NULL),
        "vkEnumeratePhysicalDevices");
  if (count == 0)
    fail("no Vulkan device; install a Vulkan driver, e.g. "
         "mesa-vulkan-drivers for lavapipe");
  VkPhysicalDevice *devices = calloc(count, sizeof(VkPhysicalDevice));
  check(vkEnumeratePhysicalDevices(vk.instance, &count, devices),
        "vkEnumeratePhysicalDevices");
  /* One device per rank of an MPI job on this node, round-robin. */
  const char *chosen = getenv("STENCIL_GPU_DEVICE");
  uint32_t index = chosen ? (uint32_t)atoi(chosen)
                   : stencil_mpi_local_rank
                       ? (uint32_t)(stencil_mpi_local_rank() % count)
                       : 0;
  if (index >= count)
    fail("STENCIL_GPU_DEVICE=%u but there are %u Vulkan devices", index, count);
  vk.physical = devices[index];
  free(devices);

  uint32_t familyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(vk.physical, &familyCount, NULL);
  VkQueueFamilyProperties *families =
      calloc(familyCount, sizeof(VkQueueFamilyProperties));
  vkGetPhysicalDeviceQueueFamilyProperties(vk.physical, &familyCount, families);
  vk.family = familyCount;
  uint32_t timestampBits = 0;
  for (uint32_t i = 0; i < familyCount; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      vk.family = i;
      timestampBits = families[i].timestampValidBits;
      break;
    }
  free(families);
  if (vk.family == familyCount)
    fail("Vulkan device %u has no compute queue", index);

  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(vk.physical, &properties);
  memcpy(vk.deviceName, properties.deviceName, sizeof(vk.deviceName));
  vk.maxStorageBufferRange = properties.limits.maxStorageBufferRange;
  vkGetPhysicalDeviceFeatures(vk.physical, &vk.features);
  vkGetPhysicalDeviceMemoryProperties(vk.physical, &vk.memoryProperties);
  vk.staged = chooseStagedMemory(properties.deviceType);
  vk.stagingLimit = stagingLimit();
  if (getenv("STENCIL_GPU_VERBOSE"))
    fprintf(stderr, "stencil-gpu (vulkan): device %u: %s (%s memory)\n", index,
            vk.deviceName, vk.staged ? "staged" : "mapped");

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo = {
      VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queueInfo.queueFamilyIndex = vk.family;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  VkDeviceCreateInfo deviceInfo = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  VkPhysicalDeviceFeatures enabled = {0};
  enabled.shaderFloat64 = vk.features.shaderFloat64;
  enabled.shaderInt64 = vk.features.shaderInt64;
  deviceInfo.pEnabledFeatures = &enabled;
  check(vkCreateDevice(vk.physical, &deviceInfo, NULL, &vk.device),
        "vkCreateDevice");
  vkGetDeviceQueue(vk.device, vk.family, 0, &vk.queue);

  VkCommandPoolCreateInfo poolInfo = {
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  poolInfo.queueFamilyIndex = vk.family;
  check(vkCreateCommandPool(vk.device, &poolInfo, NULL, &vk.commandPool),
        "vkCreateCommandPool");
  VkCommandBufferAllocateInfo commandInfo = {
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  commandInfo.commandPool = vk.commandPool;
  commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  commandInfo.commandBufferCount = 1;
  check(vkAllocateCommandBuffers(vk.device, &commandInfo, &vk.commands),
        "vkAllocateCommandBuffers");
  VkFenceCreateInfo fenceInfo = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  check(vkCreateFence(vk.device, &fenceInfo, NULL, &vk.fence), "vkCreateFence");
  const char *timing = getenv("STENCIL_GPU_TIMING");
  if (timing && *timing && strcmp(timing, "0") != 0) {
    vk.timing = 1;
    if (timestampBits > 0) {
      VkQueryPoolCreateInfo queryInfo = {
          VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      queryInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
      queryInfo.queryCount = 2;
      check(vkCreateQueryPool(vk.device, &queryInfo, NULL, &vk.timestamps),
            "vkCreateQueryPool");
      vk.timestampNanoseconds = properties.limits.timestampPeriod;
      vk.timestampMask =
          timestampBits >= 64 ? UINT64_MAX : (UINT64_C(1) << timestampBits) - 1;
    }
    atexit(reportTiming);
  }
  vk.ready = 1;
}

/* Records that the commands after it wait for `srcStages` and see what
 * they wrote. */
static void recordBarrier(VkPipelineStageFlags srcStages,
                          VkAccessFlags srcAccess,
                          VkPipelineStageFlags dstStages,
                          VkAccessFlags dstAccess) {
  VkMemoryBarrier barrier = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = srcAccess;
  barrier.dstAccessMask = dstAccess;
  vkCmdPipelineBarrier(vk.commands, srcStages, dstStages, 0, 1, &barrier, 0,
                       NULL, 0, NULL);
}

/* Runs the recorded launches and copies, and waits for them. */
static void flush(void) {
  if (!vk.ready || !vk.recording)
    return;
  /* The host reads what the launches and copies wrote. */
  recordBarrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                    VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  if (vk.timestamps)
    vkCmdWriteTimestamp(vk.commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                        vk.timestamps, 1);
  check(vkEndCommandBuffer(vk.commands), "vkEndCommandBuffer");
  VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &vk.commands;
  check(vkQueueSubmit(vk.queue, 1, &submit, vk.fence), "vkQueueSubmit");
  double submitted = vk.timing ? secondsNow() : 0;
  check(vkWaitForFences(vk.device, 1, &vk.fence, VK_TRUE, UINT64_MAX),
        "vkWaitForFences");
  check(vkResetFences(vk.device, 1, &vk.fence), "vkResetFences");
  if (vk.timing) {
    vk.fenceSeconds += secondsNow() - submitted;
    ++vk.batches;
  }
  if (vk.timestamps) {
    uint64_t ticks[2];
    check(vkGetQueryPoolResults(vk.device, vk.timestamps, 0, 2, sizeof ticks,
                                ticks, sizeof ticks[0],
                                VK_QUERY_RESULT_64_BIT |
                                    VK_QUERY_RESULT_WAIT_BIT),
          "vkGetQueryPoolResults");
    uint64_t elapsed = (ticks[1] - ticks[0]) & vk.timestampMask;
    vk.deviceSeconds += 1e-9 * vk.timestampNanoseconds * (double)elapsed;
  }
  check(vkResetCommandBuffer(vk.commands, 0), "vkResetCommandBuffer");
  for (uint32_t i = 0; i < vk.poolCount; ++i)
    check(vkResetDescriptorPool(vk.device, vk.pools[i], 0),
          "vkResetDescriptorPool");
  vk.currentPool = 0;
  vk.recording = 0;
  vk.recorded = 0;
  vk.stagingBusy = 0;
}

static VkDescriptorPool createDescriptorPool(void) {
  VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                               kSetsPerPool * kBindingsPerSet};
  VkDescriptorPoolCreateInfo info = {
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  info.maxSets = kSetsPerPool;
  info.poolSizeCount = 1;
  info.pPoolSizes = &size;
  VkDescriptorPool pool;
  check(vkCreateDescriptorPool(vk.device, &info, NULL, &pool),
        "vkCreateDescriptorPool");
  return pool;
}

static VkDescriptorSet allocateSet(VkDescriptorSetLayout layout) {
  for (;;) {
    if (vk.currentPool == vk.poolCount) {
      vk.pools = realloc(vk.pools, (vk.poolCount + 1) * sizeof(*vk.pools));
      vk.pools[vk.poolCount++] = createDescriptorPool();
    }
    VkDescriptorSetAllocateInfo info = {
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    info.descriptorPool = vk.pools[vk.currentPool];
    info.descriptorSetCount = 1;
    info.pSetLayouts = &layout;
    VkDescriptorSet set;
    VkResult result = vkAllocateDescriptorSets(vk.device, &info, &set);
    if (result == VK_SUCCESS)
      return set;
    if (result != VK_ERROR_OUT_OF_POOL_MEMORY &&
        result != VK_ERROR_FRAGMENTED_POOL)
      check(result, "vkAllocateDescriptorSets");
    ++vk.currentPool;
  }
}

/* The allocation that contains `pointer`, or NULL. */
static Allocation *findAllocation(const void *pointer) {
  const char *p = pointer;
  for (size_t i = 0; i < vk.allocationCount; ++i) {
    Allocation *a = &vk.allocations[i];
    if (p >= a->address && p < a->address + a->size)
      return a;
  }
  return NULL;
}

/* The first memory type among `allowed` with the flags `required` and
 * `preferred`, else the first with `required`. */
static uint32_t findMemoryType(uint32_t allowed, VkMemoryPropertyFlags required,
                               VkMemoryPropertyFlags preferred,
                               const char *what) {
  uint32_t fallback = UINT32_MAX;
  for (uint32_t i = 0; i < vk.memoryProperties.memoryTypeCount; ++i) {
    VkMemoryPropertyFlags flags =
        vk.memoryProperties.memoryTypes[i].propertyFlags;
    if (!(allowed & (1u << i)) || (flags & required) != required)
      continue;
    if ((flags & preferred) == preferred)
      return i;
    if (fallback == UINT32_MAX)
      fallback = i;
  }
  if (fallback == UINT32_MAX)
    fail("the Vulkan device has no %s memory for storage buffers", what);
  return fallback;
}

enum BufferKind { kDeviceBuffer, kStagingBuffer };

/* A buffer of `sizeBytes` (rounded up to words): a kernel's storage buffer,
 * mapped unless memory is staged, or a mapped staging buffer. */
static Allocation createBuffer(uint64_t sizeBytes, enum BufferKind kind) {
  uint64_t size = sizeBytes < 4 ? 4 : (sizeBytes + 3) & ~(uint64_t)3;
  Allocation a = {NULL, NULL, size, sizeBytes, VK_NULL_HANDLE, VK_NULL_HANDLE};
  VkBufferCreateInfo bufferInfo = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bufferInfo.size = size;
  bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                     VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(vkCreateBuffer(vk.device, &bufferInfo, NULL, &a.buffer),
        "vkCreateBuffer");
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(vk.device, a.buffer, &requirements);
  const VkMemoryPropertyFlags hostVisible =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int mapped = kind == kStagingBuffer || !vk.staged;
  uint32_t type =
      kind == kStagingBuffer
          /* The host reads staged results back: cached memory reads fast. */
          ? findMemoryType(requirements.memoryTypeBits, hostVisible,
                           VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                           "host-visible coherent")
          : mapped ? findMemoryType(requirements.memoryTypeBits, hostVisible,
                                    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                                    "host-visible coherent")
                   : findMemoryType(requirements.memoryTypeBits, 0,
                                    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "any");
  VkMemoryAllocateInfo memoryInfo = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  memoryInfo.allocationSize = requirements.size;
  memoryInfo.memoryTypeIndex = type;
  VkResult result = vkAllocateMemory(vk.device, &memoryInfo, NULL, &a.memory);
  if (result != VK_SUCCESS)
    fail("cannot allocate %llu bytes of %s memory (VkResult %d)",
         (unsigned long long)size,
         kind == kStagingBuffer ? "staging" : "device", (int)result);
  check(vkBindBufferMemory(vk.device, a.buffer, a.memory, 0),
        "vkBindBufferMemory");
  if (mapped) {
    void *host;
    check(vkMapMemory(vk.device, a.memory, 0, VK_WHOLE_SIZE, 0, &host),
          "vkMapMemory");
    a.mapped = a.address = host;
  } else {
    void *reserved = mmap(NULL, size, PROT_NONE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (reserved == MAP_FAILED)
      fail("cannot reserve %llu bytes of address space for a device buffer",
           (unsigned long long)size);
    a.address = reserved;
  }
  return a;
}

static void destroyBuffer(Allocation *a) {
  if (a->mapped)
    vkUnmapMemory(vk.device, a->memory);
  else
    munmap(a->address, a->size);
  vkDestroyBuffer(vk.device, a->buffer, NULL);
  vkFreeMemory(vk.device, a->memory, NULL);
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, int8_t isHostShared) {
  (void)stream;
  (void)isHostShared;
  initialize();
  Allocation a = createBuffer(sizeBytes, kDeviceBuffer);
  if (vk.allocationCount == vk.allocationCapacity) {
    vk.allocationCapacity =
        vk.allocationCapacity ? 2 * vk.allocationCapacity : 16;
    vk.allocations =
        realloc(vk.allocations, vk.allocationCapacity * sizeof(Allocation));
  }
  vk.allocations[vk.allocationCount++] = a;
  return a.address;
}

void mgpuMemFree(void *pointer, void *stream) {
  (void)stream;
  if (!pointer)
    return;
  flush();
  Allocation *a = findAllocation(pointer);
  if (!a || a->address != pointer)
    fail("mgpuMemFree of %p, which mgpuMemAlloc did not return", pointer);
  destroyBuffer(a);
  *a = vk.allocations[--vk.allocationCount];
}

/* Starts recording commands if no batch is open. */
static void beginRecording(void) {
  if (vk.recording)
    return;
  VkCommandBufferBeginInfo begin = {
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  check(vkBeginCommandBuffer(vk.commands, &begin), "vkBeginCommandBuffer");
  if (vk.timestamps) {
    vkCmdResetQueryPool(vk.commands, vk.timestamps, 0, 2);
    vkCmdWriteTimestamp(vk.commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                        vk.timestamps, 0);
  }
  vk.recording = 1;
}

/* The mapped staging buffer, at least `bytes` long, free for the host to
 * fill: a batch that still uses it runs first. */
static Allocation *getStaging(uint64_t bytes) {
  if (vk.stagingBusy)
    flush();
  if (vk.staging.buffer && vk.staging.size >= bytes)
    return &vk.staging;
  if (vk.staging.buffer)
    destroyBuffer(&vk.staging);
  vk.staging = createBuffer(bytes, kStagingBuffer);
  return &vk.staging;
}

/* Records a barrier after which transfers may overwrite or read what the
 * launches and copies before them used. */
static void recordBarrierBeforeTransfer(void) {
  recordBarrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                    VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
}

/* The byte offset of `pointer` in `a`, after checking that `bytes` from
 * there lie inside it. */
static VkDeviceSize offsetIn(const Allocation *a, const void *pointer,
                             uint64_t bytes, const char *what) {
  uint64_t offset = (uint64_t)((const char *)pointer - a->address);
  if (offset > a->requested || bytes > a->requested - offset)
    fail("%s of %llu bytes at %p runs past its buffer of %llu bytes", what,
         (unsigned long long)bytes, pointer, (unsigned long long)a->requested);
  return (VkDeviceSize)offset;
}

/* Records a small host-to-device copy into `a` into the batch, behind the
 * launches recorded before it (vkCmdUpdateBuffer keeps the bytes in the
 * command buffer). Returns 0 when the copy does not qualify. */
static int recordUpdate(Allocation *a, void *destination, const void *source,
                        uint64_t size) {
  enum { kMaxUpdateBytes = 65536 };
  /* Mapped memory takes a memcpy when no batch is open. */
  if ((!vk.recording && !vk.staged) || size > kMaxUpdateBytes ||
      size % 4 != 0 || (uint64_t)((char *)destination - a->address) % 4 != 0)
    return 0;
  beginRecording();
  /* The launches and transfers before it may still use the old bytes. */
  recordBarrierBeforeTransfer();
  vkCmdUpdateBuffer(vk.commands, a->buffer,
                    (VkDeviceSize)((char *)destination - a->address), size,
                    source);
  vk.bytesToDevice += size;
  return 1;
}

/* Staged memory: host bytes into a device buffer, through the staging
 * buffer in pieces of at most stagingLimit bytes. The last piece stays in
 * the open batch. */
static void upload(Allocation *a, VkDeviceSize offset, const char *source,
                   uint64_t bytes) {
  for (uint64_t done = 0; done < bytes;) {
    uint64_t piece =
        bytes - done < vk.stagingLimit ? bytes - done : vk.stagingLimit;
    Allocation *staging = getStaging(piece);
    memcpy(staging->mapped, source + done, piece);
    beginRecording();
    recordBarrierBeforeTransfer();
    VkBufferCopy region = {0, offset + done, piece};
    vkCmdCopyBuffer(vk.commands, staging->buffer, a->buffer, 1, &region);
    vk.stagingBusy = 1;
    done += piece;
  }
  vk.bytesToDevice += bytes;
}

/* Staged memory: device bytes to the host, after the launches before. */
static void download(Allocation *a, VkDeviceSize offset, char *destination,
                     uint64_t bytes) {
  for (uint64_t done = 0; done < bytes;) {
    uint64_t piece =
        bytes - done < vk.stagingLimit ? bytes - done : vk.stagingLimit;
    Allocation *staging = getStaging(piece);
    beginRecording();
    recordBarrierBeforeTransfer();
    VkBufferCopy region = {offset + done, 0, piece};
    vkCmdCopyBuffer(vk.commands, a->buffer, staging->buffer, 1, &region);
    flush();
    memcpy(destination + done, staging->mapped, piece);
    done += piece;
  }
  vk.bytesToHost += bytes;
}

void mgpuMemcpy(void *destination, void *source, uint64_t sizeBytes,
                void *stream) {
  (void)stream;
  if (sizeBytes == 0)
    return;
  Allocation *to = findAllocation(destination);
  Allocation *from = findAllocation(source);
  if (to)
    offsetIn(to, destination, sizeBytes, "a copy");
  if (from)
    offsetIn(from, source, sizeBytes, "a copy");
  /* Scalars and shapes the next launches read join the batch instead of
     ending it: per-step values would otherwise submit once per step. */
  if (to && !from && recordUpdate(to, destination, source, sizeBytes))
    return;
  if (!vk.staged || (!to && !from)) {
    /* Mapped memory: a copy is a memcpy once the launches that use it are
       done. */
    flush();
    memcpy(destination, source, sizeBytes);
    vk.bytesToDevice += to && !from ? sizeBytes : 0;
    vk.bytesToHost += from && !to ? sizeBytes : 0;
    return;
  }
  if (to && from) {
    if (to == from && (char *)destination < (char *)source + sizeBytes &&
        (char *)source < (char *)destination + sizeBytes)
      fail("a copy of %llu bytes between overlapping parts of one buffer",
           (unsigned long long)sizeBytes);
    VkBufferCopy region = {(VkDeviceSize)((char *)source - from->address),
                           (VkDeviceSize)((char *)destination - to->address),
                           sizeBytes};
    beginRecording();
    recordBarrierBeforeTransfer();
    vkCmdCopyBuffer(vk.commands, from->buffer, to->buffer, 1, &region);
    return;
  }
  if (to)
    upload(to, (VkDeviceSize)((char *)destination - to->address), source,
           sizeBytes);
  else
    download(from, (VkDeviceSize)((char *)source - from->address), destination,
             sizeBytes);
}

void mgpuMemset32(void *destination, uint32_t value, uint64_t count,
                  void *stream) {
  (void)stream;
  Allocation *a = findAllocation(destination);
  if (!vk.staged || !a) {
    flush();
    uint32_t *words = destination;
    for (uint64_t i = 0; i < count; ++i)
      words[i] = value;
    return;
  }
  if (count > a->requested / 4)
    fail("a fill of %llu words at %p runs past its buffer of %llu bytes",
         (unsigned long long)count, destination,
         (unsigned long long)a->requested);
  VkDeviceSize offset = offsetIn(a, destination, 4 * count, "a fill");
  if (count == 0)
    return;
  if (offset % 4 != 0)
    fail("a fill of 32-bit words at %p, which is not 4-byte aligned",
         destination);
  beginRecording();
  recordBarrierBeforeTransfer();
  vkCmdFillBuffer(vk.commands, a->buffer, offset, 4 * count, value);
}

/* Fails when the module declares a capability whose device feature is
 * missing: the pipeline would fail to build with a less helpful message,
 * or not at all and compute garbage. */
static void checkCapabilities(const uint32_t *words, uint64_t count) {
  enum { kOpCapability = 17, kFloat64 = 10, kInt64 = 11, kHeaderWords = 5 };
  for (uint64_t at = kHeaderWords; at < count;) {
    uint32_t wordCount = words[at] >> 16, opcode = words[at] & 0xffff;
    if (wordCount == 0)
      break;
    if (opcode == kOpCapability && wordCount == 2) {
      uint32_t capability = words[at + 1];
      if (capability == kFloat64 && !vk.features.shaderFloat64)
        fail("the kernels compute in double precision (SPIR-V capability "
             "Float64) but Vulkan device '%s' lacks the shaderFloat64 "
             "feature; use float, or another device (STENCIL_GPU_DEVICE)",
             vk.deviceName);
      if (capability == kInt64 && !vk.features.shaderInt64)
        fail("the kernels use 64-bit integers (SPIR-V capability Int64) but "
             "Vulkan device '%s' lacks the shaderInt64 feature; use int, or "
             "another device (STENCIL_GPU_DEVICE)",
             vk.deviceName);
    }
    at += wordCount;
  }
}

/* Destroys the module's pipelines, then the module. */
static void unloadModule(void *opaque) {
  Module *module = opaque;
  flush();
  for (Function *f = module->functions; f;) {
    Function *next = f->next;
    if (f->pipeline) {
      vkDestroyPipeline(vk.device, f->pipeline, NULL);
      vkDestroyPipelineLayout(vk.device, f->pipelineLayout, NULL);
      vkDestroyDescriptorSetLayout(vk.device, f->setLayout, NULL);
    }
    free(f->name);
    free(f);
    f = next;
  }
  vkDestroyShaderModule(vk.device, module->shader, NULL);
  free(module);
}

void *mgpuModuleLoad(void *data, uint64_t size) {
  initialize();
  if (size % 4 != 0)
    fail("a SPIR-V module of %llu bytes (not a multiple of 4)",
         (unsigned long long)size);
  checkCapabilities(data, size / 4);
  Module *module = calloc(1, sizeof(Module));
  VkShaderModuleCreateInfo info = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = size;
  info.pCode = data;
  check(vkCreateShaderModule(vk.device, &info, NULL, &module->shader),
        "vkCreateShaderModule");
  return rememberModule(module, "vulkan");
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  (void)data;
  (void)optLevel;
  fail("the Vulkan runtime loads SPIR-V binaries only, not PTX for JIT");
  return NULL;
}

void mgpuModuleUnload(void *opaque) {
  /* Nothing is left after unloadModulesAtExit or a failed start; after an
   * error the modules are left to the process's end. */
  if (!exitingOnError && forgetModule(opaque))
    unloadModule(opaque);
}

void *mgpuModuleGetFunction(void *opaque, const char *name) {
  Module *module = opaque;
  for (Function *f = module->functions; f; f = f->next)
    if (strcmp(f->name, name) == 0)
      return f;
  Function *f = calloc(1, sizeof(Function));
  f->module = module;
  f->name = strdup(name);
  f->next = module->functions;
  module->functions = f;
  return f;
}

/* The pipeline needs the number of bindings, which only a launch tells. */
static void createPipeline(Function *f, uint32_t bindings) {
  if (bindings > kBindingsPerSet)
    fail("kernel '%s' takes %u buffers; this runtime binds at most %d", f->name,
         bindings, kBindingsPerSet);
  VkDescriptorSetLayoutBinding layoutBindings[kBindingsPerSet];
  for (uint32_t i = 0; i < bindings; ++i) {
    VkDescriptorSetLayoutBinding b = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                      VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    layoutBindings[i] = b;
  }
  VkDescriptorSetLayoutCreateInfo setInfo = {
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  setInfo.bindingCount = bindings;
  setInfo.pBindings = layoutBindings;
  check(vkCreateDescriptorSetLayout(vk.device, &setInfo, NULL, &f->setLayout),
        "vkCreateDescriptorSetLayout");
  VkPipelineLayoutCreateInfo layoutInfo = {
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &f->setLayout;
  check(
      vkCreatePipelineLayout(vk.device, &layoutInfo, NULL, &f->pipelineLayout),
      "vkCreatePipelineLayout");
  VkComputePipelineCreateInfo pipelineInfo = {
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipelineInfo.stage.sType =
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = f->module->shader;
  pipelineInfo.stage.pName = f->name;
  pipelineInfo.layout = f->pipelineLayout;
  check(vkCreateComputePipelines(vk.device, VK_NULL_HANDLE, 1, &pipelineInfo,
                                 NULL, &f->pipeline),
        "vkCreateComputePipelines");
  f->bindings = bindings;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemoryBytes, void *stream,
                      void **params, void **extra, uint64_t paramsCount) {
  (void)blockX, (void)blockY, (void)blockZ, (void)stream, (void)extra;
  Function *f = function;
  if (sharedMemoryBytes != 0)
    fail("kernel '%s' asks for dynamic workgroup memory, which SPIR-V "
         "kernels declare statically",
         f->name);
  /* gpu-to-llvm with intersperse-sizes-for-kernels: (pointer, size) pairs. */
  if (paramsCount % 2 != 0)
    fail("kernel '%s' got %llu parameters; expected (buffer, size) pairs",
         f->name, (unsigned long long)paramsCount);
  uint32_t bindings = (uint32_t)(paramsCount / 2);
  if (!f->pipeline)
    createPipeline(f, bindings);
  else if (f->bindings != bindings)
    fail("kernel '%s' launched with %u buffers, earlier with %u", f->name,
         bindings, f->bindings);

  VkDescriptorSet set = allocateSet(f->setLayout);
  VkDescriptorBufferInfo infos[kBindingsPerSet];
  VkWriteDescriptorSet writes[kBindingsPerSet];
  for (uint32_t i = 0; i < bindings; ++i) {
    char *pointer = *(char **)params[2 * i];
    uint64_t size = *(uint64_t *)params[2 * i + 1];
    Allocation *a = findAllocation(pointer);
    if (!a || pointer + size > a->address + a->size)
      fail("argument %u of kernel '%s' (%p, %llu bytes) is not in memory "
           "from mgpuMemAlloc",
           i, f->name, (void *)pointer, (unsigned long long)size);
    /* Bound to the end of its allocation: a buffer of run-time extent
       comes with the size of a static stand-in (docs/GPU.md). */
    VkDeviceSize offset = (VkDeviceSize)(pointer - a->address);
    if (a->size - offset > vk.maxStorageBufferRange)
      fail("argument %u of kernel '%s' spans %llu bytes, above the device's "
           "maxStorageBufferRange of %u",
           i, f->name, (unsigned long long)(a->size - offset),
           vk.maxStorageBufferRange);
    VkDescriptorBufferInfo info = {a->buffer, offset, VK_WHOLE_SIZE};
    infos[i] = info;
    VkWriteDescriptorSet write = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = set;
    write.dstBinding = i;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &infos[i];
    writes[i] = write;
  }
  vkUpdateDescriptorSets(vk.device, bindings, writes, 0, NULL);

  beginRecording();
  /* Each launch reads what the launches and copies before it wrote. */
  recordBarrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                    VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  vkCmdBindPipeline(vk.commands, VK_PIPELINE_BIND_POINT_COMPUTE, f->pipeline);
  vkCmdBindDescriptorSets(vk.commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                          f->pipelineLayout, 0, 1, &set, 0, NULL);
  vkCmdDispatch(vk.commands, (uint32_t)gridX, (uint32_t)gridY, (uint32_t)gridZ);
  ++vk.launches;
  if (++vk.recorded == kMaxBatch)
    flush();
}

void *mgpuStreamCreate(void) {
  initialize();
  return &streamToken;
}

void mgpuStreamDestroy(void *stream) { (void)stream; }

void mgpuStreamSynchronize(void *stream) {
  (void)stream;
  flush();
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  (void)stream;
  (void)event;
}

void *mgpuEventCreate(void) { return &eventToken; }

void mgpuEventDestroy(void *event) { (void)event; }

void mgpuEventSynchronize(void *event) {
  (void)event;
  flush();
}

void mgpuEventRecord(void *event, void *stream) {
  (void)event;
  (void)stream;
}

/* The bytes of the box [lower, upper) of `elemBytes` elements; 0 when it
 * is empty. */
static uint64_t boxBytes(const int64_t lower[3], const int64_t upper[3],
                         int64_t elemBytes) {
  uint64_t bytes = (uint64_t)elemBytes;
  for (int d = 0; d < 3; ++d) {
    if (upper[d] <= lower[d])
      return 0;
    bytes *= (uint64_t)(upper[d] - lower[d]);
  }
  return bytes;
}

/* The allocation that holds the array at `device` for a halo copy. */
static Allocation *findArray(void *device) {
  Allocation *a = findAllocation(device);
  if (!a)
    fail("a halo copy of %p, which mgpuMemAlloc did not return", device);
  return a;
}

/* Records, after the launches before it, the copy of the box [lower,
 * upper) of the array at `device` (in `a`) into (pack) or out of the face
 * packed at byte `packedBase` of `packedBuffer`. */
static void recordBoxCopy(Allocation *a, void *device, const int64_t size[3],
                          int64_t elemBytes, const int64_t lower[3],
                          const int64_t upper[3], VkBuffer packedBuffer,
                          VkDeviceSize packedBase, int pack) {
  int64_t extent[3];
  for (int d = 0; d < 3; ++d)
    extent[d] = upper[d] - lower[d];
  /* The face as runs of contiguous elements, one transfer region each:
   * rows that span the whole innermost axis are contiguous, and so are
   * planes that span the whole middle axis too. */
  int wholeRows = extent[2] == size[2];
  int wholePlanes = wholeRows && extent[1] == size[1];
  int64_t rows = wholePlanes ? 1
                 : wholeRows ? extent[0]
                             : extent[0] * extent[1];
  uint64_t run = (uint64_t)(extent[0] * extent[1] * extent[2] / rows) *
                 (uint64_t)elemBytes;
  VkBufferCopy *regions = malloc(sizeof(VkBufferCopy) * rows);
  if (!regions)
    fail("out of memory for a halo copy");
  VkDeviceSize base = (VkDeviceSize)((char *)device - a->address);
  /* The box's last element must lie in the array's buffer. */
  uint64_t last =
      (uint64_t)((((upper[0] - 1) * size[1] + upper[1] - 1) * size[2] +
                  upper[2]) *
                 elemBytes);
  if (base + last > a->requested)
    fail("a halo box of %p reaches byte %llu of its buffer of %llu bytes",
         device, (unsigned long long)(base + last),
         (unsigned long long)a->requested);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t i = lower[0] + (wholePlanes ? 0 : wholeRows ? r : r / extent[1]);
    int64_t j = lower[1] + (wholeRows ? 0 : r % extent[1]);
    VkDeviceSize at =
        base +
        (VkDeviceSize)(((i * size[1] + j) * size[2] + lower[2]) * elemBytes);
    VkDeviceSize packed = packedBase + (VkDeviceSize)r * run;
    VkBufferCopy region = {pack ? at : packed, pack ? packed : at, run};
    regions[r] = region;
  }
  beginRecording();
  /* After the launches before it: they wrote (pack) or read (unpack) the
     array. */
  recordBarrierBeforeTransfer();
  if (pack)
    vkCmdCopyBuffer(vk.commands, a->buffer, packedBuffer, (uint32_t)rows,
                    regions);
  else
    vkCmdCopyBuffer(vk.commands, packedBuffer, a->buffer, (uint32_t)rows,
                    regions);
  free(regions);
}

void stencil_gpu_copy_box(void *device, const int64_t size[3],
                          int64_t elemBytes, const int64_t lower[3],
                          const int64_t upper[3], void *host, int toHost) {
  Allocation *a = findArray(device);
  uint64_t bytes = boxBytes(lower, upper, elemBytes);
  if (bytes == 0)
    return;
  /* The face goes through the staging buffer in both kinds of memory: one
     transfer gathers or scatters every run. */
  Allocation *staging = getStaging(bytes);
  if (!toHost)
    memcpy(staging->mapped, host, bytes);
  recordBoxCopy(a, device, size, elemBytes, lower, upper, staging->buffer, 0,
                toHost);
  if (toHost) {
    flush();
    memcpy(host, staging->mapped, bytes);
    vk.bytesToHost += bytes;
  } else {
    /* `host` is free again; the unpack runs with the next launches. */
    vk.stagingBusy = 1;
    vk.bytesToDevice += bytes;
  }
}

void stencil_gpu_copy_box_on_device(void *device, const int64_t size[3],
                                    int64_t elemBytes, const int64_t lower[3],
                                    const int64_t upper[3], void *packed,
                                    int pack) {
  Allocation *a = findArray(device);
  uint64_t bytes = boxBytes(lower, upper, elemBytes);
  if (bytes == 0)
    return;
  Allocation *face = findAllocation(packed);
  if (!face)
    fail("a halo face at %p, which mgpuMemAlloc did not return", packed);
  VkDeviceSize base = offsetIn(face, packed, bytes, "a halo face");
  recordBoxCopy(a, device, size, elemBytes, lower, upper, face->buffer, base,
                pack);
  /* MPI reads the face (pack) or writes the buffer again at the next
     exchange (unpack) once this returns. */
  flush();
}

const char *stencil_gpu_buffers(void) {
  initialize();
  return vk.staged ? "opaque" : "host";
}

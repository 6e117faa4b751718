//===- HostMeasurement.cpp - The host's speeds, measured and kept --------===//
//
// Bandwidths cannot be read from the system, and the tuning models' choices
// follow them: a STREAM-style copy (c[i] = a[i], one thread per core, best
// of several repetitions, 8 bytes read and 8 written per element:
// bench/stream_copy.c's figure) measures the memory's over arrays far
// larger than the last-level cache, and the last-level cache's over arrays
// that fill a quarter of it, in a fraction of a second. Where the system
// does not say how large the last-level cache is (a virtual machine that
// hides sysfs's cache list and CPUID's cache leaves), the same copy over
// growing arrays finds the size at which its bandwidth falls to the
// memory's. Nor does the system give the clock the vector units run at
// (/proc/cpuinfo's is the base clock; cores run above it, and below it
// under wide vectors on some), so independent fused multiply-adds of the
// widest vectors the CPU has, one thread per core, measure the FP peak.
// The cache directory keeps the result per machine (host.json, keyed by
// the CPU model and core count); the first few compiles probe again and
// keep the fastest figures, and every later compile reads them.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Support/CacheDirectory.h"
#include "Stencil/Tuning/TargetDescription.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#if __has_include(<unistd.h>)
#include <unistd.h>
#endif

// The FP peak's probe needs the vector units' own instructions, chosen when
// it runs: the compilers' target attributes and CPU tests do that on x86.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define STENCIL_HAS_FMA_PROBE 1
#include <immintrin.h>
#endif

using namespace mlir;
using namespace mlir::stencil;

// The copy measures the machine, not a sanitizer or fuzzing build's
// instrumentation: coverage counters that both threads bump in one cache
// line made it several hundred times slower (0.09 GB/s), past libFuzzer's
// timeout and into host.json. Not inlined: coverage instrumentation runs
// after inlining and would reach the loop in its caller.
#if defined(__clang__)
#define STENCIL_NOT_INSTRUMENTED                                               \
  __attribute__((noinline, no_sanitize("address", "undefined", "coverage")))
#elif defined(__GNUC__)
#define STENCIL_NOT_INSTRUMENTED                                               \
  __attribute__((noinline, no_sanitize("address", "undefined")))
#else
#define STENCIL_NOT_INSTRUMENTED
#endif

namespace {

/// Seconds from the moment `threads` threads all wait to start until the
/// last one has run `body(thread)`: the cores then run at the clock they
/// keep with all of them busy, starting the threads does not count, and
/// threads that share a core make the figure read low, never high.
template <typename Body> double timeTeam(unsigned threads, Body body) {
  std::atomic<unsigned> waiting{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> team;
  for (unsigned t = 0; t < threads; ++t)
    team.emplace_back([&, t] {
      waiting.fetch_add(1, std::memory_order_release);
      while (!go.load(std::memory_order_acquire))
        std::this_thread::yield();
      body(t);
    });
  while (waiting.load(std::memory_order_acquire) < threads)
    std::this_thread::yield();
  auto start = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release);
  for (std::thread &thread : team)
    thread.join();
  std::chrono::duration<double> seconds =
      std::chrono::steady_clock::now() - start;
  return seconds.count();
}

/// The first touch of a[begin, end) and c[begin, end).
STENCIL_NOT_INSTRUMENTED void fillPart(double *a, double *c, size_t begin,
                                       size_t end) {
  for (size_t i = begin; i < end; ++i) {
    a[i] = 1.0 + double(i);
    c[i] = 0.0;
  }
}

/// `passes` copies of a[begin, end) to c: `+ 0.0` keeps the loop a loop,
/// where a compiler may turn a plain copy into memcpy, whose non-temporal
/// stores would measure something else.
STENCIL_NOT_INSTRUMENTED void copyPart(const double *a, double *c, size_t begin,
                                       size_t end, int passes) {
  for (int pass = 0; pass < passes; ++pass)
    for (size_t i = begin; i < end; ++i)
      c[i] = a[i] + 0.0;
}

/// Two arrays of at least `bytes` each that `threads` threads copy, one
/// part each.
class CopyProbe {
public:
  CopyProbe(unsigned threads, size_t bytes)
      : threads(threads),
        elements(std::max<size_t>(bytes / sizeof(double), threads)),
        source(new double[elements]), target(new double[elements]) {
    // Each thread touches its own part first, so its pages are local to it
    // (and, for the cache's figure, its lines are in the cache).
    onParts(elements, [&](size_t begin, size_t end) {
      fillPart(source.get(), target.get(), begin, end);
    });
  }

  /// The best bandwidth so far in GB/s after `repetitions` more timed
  /// runs of `passes` copies each (several passes per run, so that a run
  /// lasts well beyond the threads' start, which timeTeam leaves out, and
  /// their joining, which it does not).
  double measure(int repetitions, int passes) {
    for (int rep = 0; rep < repetitions; ++rep)
      best = std::max(best, run(passes, elements));
    return best;
  }

  /// The bandwidth in GB/s of one timed run of `passes` copies of the
  /// arrays' first `count` elements.
  double run(int passes, size_t count) {
    count = std::min(count, elements);
    double seconds = onParts(count, [&](size_t begin, size_t end) {
      copyPart(source.get(), target.get(), begin, end, passes);
    });
    return 16.0 * double(count) * passes / seconds * 1e-9;
  }

private:
  /// `body(begin, end)` on [0, count) in one part per thread, timed by
  /// timeTeam.
  template <typename Body> double onParts(size_t count, Body body) {
    size_t chunk = (count + threads - 1) / threads;
    return timeTeam(threads, [&](unsigned t) {
      size_t begin = std::min(count, t * chunk);
      body(begin, std::min(count, begin + chunk));
    });
  }

  unsigned threads;
  size_t elements;
  std::unique_ptr<double[]> source, target;
  double best = 0;
};

/// Independent chains of fused multiply-adds a core runs at once: more than
/// any x86 core's FMA latency (4-5 cycles) times its FMA ports (2), so that
/// the ports, not the latency, bound them.
constexpr int kFmaChains = 12;

#ifdef STENCIL_HAS_FMA_PROBE
template <size_t N> float sumLanes(const float (&lanes)[N]) {
  float total = 0;
  for (float lane : lanes)
    total += lane;
  return total;
}

/// `iterations` x kFmaChains FMAs on 512-bit vectors; x * 0.5 + 1 tends to
/// 2, no denormal on the way, and the sum keeps every chain live.
__attribute__((target("avx512f"))) STENCIL_NOT_INSTRUMENTED float
runFmaChains512(int64_t iterations) {
  __m512 chains[kFmaChains];
  for (int k = 0; k < kFmaChains; ++k)
    chains[k] = _mm512_set1_ps(float(k));
  __m512 half = _mm512_set1_ps(0.5f), one = _mm512_set1_ps(1.0f);
  for (int64_t i = 0; i < iterations; ++i)
    for (__m512 &chain : chains)
      chain = _mm512_fmadd_ps(chain, half, one);
  __m512 sum = chains[0];
  for (int k = 1; k < kFmaChains; ++k)
    sum = _mm512_add_ps(sum, chains[k]);
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, sum);
  return sumLanes(lanes);
}

/// The same on 256-bit vectors.
__attribute__((target("avx2,fma"))) STENCIL_NOT_INSTRUMENTED float
runFmaChains256(int64_t iterations) {
  __m256 chains[kFmaChains];
  for (int k = 0; k < kFmaChains; ++k)
    chains[k] = _mm256_set1_ps(float(k));
  __m256 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
  for (int64_t i = 0; i < iterations; ++i)
    for (__m256 &chain : chains)
      chain = _mm256_fmadd_ps(chain, half, one);
  __m256 sum = chains[0];
  for (int k = 1; k < kFmaChains; ++k)
    sum = _mm256_add_ps(sum, chains[k]);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, sum);
  return sumLanes(lanes);
}
#endif

/// The f32 GFLOP/s of `cores` threads (one a core, as for the copy), each
/// running chains of FMAs on the widest vectors the CPU has (AVX-512, else
/// AVX2 with FMA), the best of several runs; 0 where there are none or no
/// probe for them (other architectures: the target then derives the peak
/// from the clock).
/// A run is timed from the moment every thread is waiting to start until
/// the last one ends, so the cores run at the clock they keep with all of
/// them busy, and threads that share a core (a parallel build beside the
/// probe, a narrower CPU set) read low, never high: host.json keeps the
/// fastest figure.
double measurePeakGflopsF32(unsigned cores) {
  float (*run)(int64_t) = nullptr;
  int lanes = 0;
#ifdef STENCIL_HAS_FMA_PROBE
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    run = runFmaChains512;
    lanes = 16;
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    run = runFmaChains256;
    lanes = 8;
  }
#endif
  if (!run)
    return 0;
  // About 4 ms a run at two 512-bit FMAs a cycle and 3 GHz.
  constexpr int64_t kIterations = int64_t(1) << 21;
  double flops = 2.0 * lanes * kFmaChains * double(kIterations) * cores;
  double best = 0;
  for (int rep = 0; rep < 6; ++rep) {
    double seconds = timeTeam(cores, [&](unsigned) {
      volatile float keep = run(kIterations);
      (void)keep;
    });
    best = std::max(best, flops / seconds * 1e-9);
  }
  return best;
}

/// The machine's physical memory in bytes; 0 where the system does not say.
int64_t getPhysicalMemoryBytes() {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  long pages = sysconf(_SC_PHYS_PAGES), pageBytes = sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageBytes > 0)
    return int64_t(pages) * int64_t(pageBytes);
#endif
  return 0;
}

std::optional<double> getPositiveVariable(const char *name) {
  std::optional<std::string> value = llvm::sys::Process::GetEnv(name);
  double parsed;
  if (value && !llvm::StringRef(*value).getAsDouble(parsed) && parsed > 0)
    return parsed;
  return std::nullopt;
}

/// An estimate of the bytes the last-level cache holds for a copy by
/// `threads` threads with `l2Bytes` of private L2 each: the copy's
/// bandwidth over the first 2 x L2 x threads bytes (out of the private
/// caches; at least 1 MiB) of two arrays of 128 MiB, then over twice as
/// many, and so on, measured in turns; the largest part whose bandwidth,
/// from the fastest part on, stays at or above the midpoint of the fastest
/// part's and the whole arrays' (the memory's) is what the cache holds
/// (the smallest parts may be slower: a copy of a few hundred microseconds
/// still pays for joining its threads). 0 when no part stands out by a
/// quarter (no cache above L2 to speak of, or too noisy to tell), or when
/// the private caches leave fewer than two parts to compare (2 x L2 x
/// threads above 64 MiB: the machines with that much L2 list their caches).
/// Under a least-recently-used cache, the part just above the cache misses
/// on every line, so the estimate is a lower bound within a factor of two,
/// the safe side for the rules that use it (streaming stores start sooner;
/// rereads count as memory's); other replacement policies or a noisy
/// reading may also give twice the cache.
int64_t findCacheCapacity(unsigned threads, int64_t l2Bytes) {
  size_t first = size_t(std::max<int64_t>(2 * l2Bytes * threads, 1 << 20));
  size_t last = size_t(128) << 20;
  std::vector<size_t> sizes;
  for (size_t bytes = first; bytes <= last; bytes *= 2)
    sizes.push_back(bytes);
  if (sizes.size() < 2)
    return 0;
  // One pair of arrays, of which each size copies a part: 256 MiB at most.
  CopyProbe probe(threads, sizes.back());
  std::vector<double> gbps(sizes.size());
  for (int round = 0; round < 6; ++round)
    for (size_t i = 0; i < sizes.size(); ++i)
      for (int rep = 0; rep < 2; ++rep)
        gbps[i] = std::max(
            gbps[i], probe.run(int(std::max<size_t>(1, (size_t(64) << 20) /
                                                           (2 * sizes[i]))),
                               sizes[i] / sizeof(double)));
  size_t fastest = std::max_element(gbps.begin(), gbps.end()) - gbps.begin();
  double memory = gbps.back();
  if (gbps[fastest] < 1.25 * memory)
    return 0;
  double midpoint = 0.5 * (gbps[fastest] + memory);
  int64_t capacity = 0;
  for (size_t i = fastest; i + 1 < sizes.size() && gbps[i] >= midpoint; ++i)
    capacity = int64_t(2 * sizes[i]);
  return capacity;
}

} // namespace

static HostMeasurement measureOrRead(llvm::StringRef cpuModel, unsigned cores,
                                     int64_t l2Bytes, int64_t llcBytes);

HostMeasurement mlir::stencil::getHostMeasurement(llvm::StringRef cpuModel,
                                                  unsigned cores,
                                                  int64_t l2Bytes,
                                                  int64_t llcBytes) {
  // The variables fix the model's inputs (lit does, so that schedules do
  // not depend on the machine): the memory's alone leaves the cache's
  // unknown; the cache's alone replaces the measured one, and so does the
  // core's cache's (STENCIL_HOST_ONCHIP_BANDWIDTH_GBPS).
  // STENCIL_HOST_PEAK_GFLOPS_F32 states the FP peak. Where the memory's
  // variable is set no probe runs, and without it the target derives the
  // peak from the clock.
  std::optional<double> cache =
      getPositiveVariable("STENCIL_HOST_LLC_BANDWIDTH_GBPS");
  std::optional<double> onchip =
      getPositiveVariable("STENCIL_HOST_ONCHIP_BANDWIDTH_GBPS");
  std::optional<double> peak =
      getPositiveVariable("STENCIL_HOST_PEAK_GFLOPS_F32");
  if (std::optional<double> memory =
          getPositiveVariable("STENCIL_HOST_BANDWIDTH_GBPS"))
    return {*memory, cache.value_or(0), onchip.value_or(0),
            0,       peak.value_or(0),  "STENCIL_HOST_BANDWIDTH_GBPS"};
  HostMeasurement result = measureOrRead(cpuModel, cores, l2Bytes, llcBytes);
  if (cache)
    result.llcGbps = *cache;
  if (onchip)
    result.onchipGbps = *onchip;
  if (peak)
    result.peakGflopsF32 = *peak;
  return result;
}

/// A probe reads low, never high, when other processes share the cores
/// (a parallel build around the first compile) or the memory (neighbours
/// on a shared machine, which this VM's bimodal figures are). So the
/// first compiles on a machine each probe, and host.json keeps the
/// fastest memory figure and FP peak (the cache's: below): until
/// kFullProbes probes had the cores (their threads had at least
/// kMinCoreShare of the cores' time), at most kMaxProbes.
static constexpr double kMinCoreShare = 0.8;
static constexpr int64_t kFullProbes = 3;
static constexpr int64_t kMaxProbes = 5;
/// host.json's layout; a file of another version is measured anew (6: the
/// FP peak; 7: the copy within L2).
static constexpr int64_t kVersion = 7;

namespace {
/// What host.json keeps: the fastest memory figure, a last-level cache
/// figure with the cache size it was measured at, the fastest copy within
/// L2 (0 where L2's size is not known), the fastest FP peak (0
/// where not measured), the share of the cores' time the fastest memory
/// probe's threads had, how many probes were taken, and how many of them
/// had the cores.
struct KeptMeasurement {
  double gbps, llcGbps;
  int64_t llcBytes;
  double onchipGbps;
  double peakGflopsF32;
  double coreShare;
  int64_t probes, fullProbes;
};
} // namespace

static std::optional<KeptMeasurement>
readKept(llvm::StringRef path, llvm::StringRef cpuModel, unsigned cores) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path);
  if (!file)
    return std::nullopt;
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*file)->getBuffer());
  if (!json) {
    llvm::consumeError(json.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *object = json->getAsObject();
  if (!object)
    return std::nullopt;
  std::optional<double> memory = object->getNumber("bandwidth_gbps");
  std::optional<double> cache = object->getNumber("llc_bandwidth_gbps");
  std::optional<int64_t> capacity = object->getInteger("llc_bytes_measured");
  std::optional<double> onchip = object->getNumber("onchip_bandwidth_gbps");
  std::optional<double> peak = object->getNumber("peak_gflops_f32");
  std::optional<double> share = object->getNumber("core_share");
  std::optional<int64_t> probes = object->getInteger("probes");
  std::optional<int64_t> fullProbes = object->getInteger("probes_with_cores");
  if (object->getInteger("version") != kVersion || !memory || *memory <= 0 ||
      !cache || *cache < 0 || !capacity || *capacity < 0 || !onchip ||
      *onchip < 0 || !peak || *peak < 0 || !share || *share < 0 || !probes ||
      *probes < 1 || !fullProbes || *fullProbes < 0 || *fullProbes > *probes ||
      object->getString("cpu") != cpuModel ||
      object->getInteger("cores") != int64_t(cores))
    return std::nullopt;
  return KeptMeasurement{*memory, *cache, *capacity, *onchip,
                         *peak,   *share, *probes,   *fullProbes};
}

static HostMeasurement measureOrRead(llvm::StringRef cpuModel, unsigned cores,
                                     int64_t l2Bytes, int64_t llcBytes) {
  std::string path = getCachePath("host.json");
  std::optional<KeptMeasurement> kept;
  if (!path.empty())
    kept = readKept(path, cpuModel, cores);
  if (kept && (kept->fullProbes >= kFullProbes || kept->probes >= kMaxProbes))
    return {kept->gbps,     kept->llcGbps,       kept->onchipGbps,
            kept->llcBytes, kept->peakGflopsF32, "measured, kept in " + path};
  llvm::sys::TimePoint<> wallBefore, wallAfter;
  std::chrono::nanoseconds userBefore, systemBefore, userAfter, systemAfter;
  llvm::sys::Process::GetTimeUsage(wallBefore, userBefore, systemBefore);
  // The cache's size where the system does not give it.
  int64_t measuredCapacity = 0;
  if (llcBytes <= 0)
    llcBytes = measuredCapacity = findCacheCapacity(cores, l2Bytes);
  // Arrays far larger than the last-level cache for the memory's figure:
  // four times it each (STREAM's rule), at least 64 MiB. At most an eighth
  // of the physical memory (a VM here reports a 480 MiB L3, and twice 8 x
  // that took 6 s a probe to fill and copy), but never below twice the
  // cache, where the cache holds at most a quarter of the pair. For the
  // cache's, two that stay in it (at most a quarter of it each) and give
  // each thread at least four times its private L2 where the cache allows
  // (an eighth of it each otherwise). Both are measured in turns, so that
  // a neighbour's burst on a shared machine meets both, and their ratio,
  // which the model uses, is steadier than either.
  int64_t memoryBytes = std::max<int64_t>(int64_t(64) << 20, 4 * llcBytes);
  if (int64_t physical = getPhysicalMemoryBytes())
    memoryBytes = std::max(
        {int64_t(64) << 20, 2 * llcBytes, std::min(memoryBytes, physical / 8)});
  CopyProbe memory(cores, size_t(memoryBytes));
  std::optional<CopyProbe> cache;
  int cachePasses = 1;
  if (llcBytes > 0) {
    int64_t bytes = std::min<int64_t>(
        llcBytes / 4, std::max<int64_t>(llcBytes / 8, 2 * l2Bytes * cores));
    cache.emplace(cores, size_t(bytes));
    cachePasses = int(std::max<int64_t>(1, (int64_t(32) << 20) / (2 * bytes)));
  }
  // Within each core's L2, for what a time block reads again there: two
  // arrays of an eighth of it each per thread, so that the pair takes a
  // quarter (half where two hardware threads share the core:
  // `hardware_concurrency` counts those) and the rest holds the stack and
  // the code. 32 MiB a thread per run, so that starting the threads does
  // not count on any number of cores.
  std::optional<CopyProbe> onchip;
  int onchipPasses = 1;
  if (l2Bytes > 0) {
    int64_t part = std::max<int64_t>(l2Bytes / 8, 4096);
    onchip.emplace(cores, size_t(part) * cores);
    onchipPasses = int(std::max<int64_t>(1, (int64_t(32) << 20) / (2 * part)));
  }
  double measured = 0, cached = 0, onchipGbps = 0;
  for (int round = 0; round < 4; ++round) {
    measured = memory.measure(2, 1);
    if (cache)
      cached = cache->measure(5, cachePasses);
    if (onchip)
      onchipGbps = onchip->measure(5, onchipPasses);
  }
  double peak = measurePeakGflopsF32(cores);
  llvm::sys::Process::GetTimeUsage(wallAfter, userAfter, systemAfter);
  std::chrono::duration<double> wall = wallAfter - wallBefore;
  std::chrono::duration<double> busy =
      (userAfter - userBefore) + (systemAfter - systemBefore);
  double coreShare =
      wall.count() > 0 ? busy.count() / (wall.count() * cores) : 1.0;
  bool hadCores = coreShare >= kMinCoreShare;
  KeptMeasurement now{measured,
                      cached,
                      measuredCapacity,
                      onchipGbps,
                      peak,
                      coreShare,
                      /*probes=*/1,
                      /*fullProbes=*/hadCores};
  std::string source =
      llvm::formatv("probed now with {0:P0} of the cores", coreShare);
  if (kept) {
    now.probes += kept->probes;
    now.fullProbes += kept->fullProbes;
    // The memory's figure only reads low: the fastest.
    if (kept->gbps > now.gbps) {
      now.gbps = kept->gbps;
      now.coreShare = kept->coreShare;
      source += ", an earlier probe faster";
    }
    // So do the peak's and the copy's within L2.
    now.peakGflopsF32 = std::max(now.peakGflopsF32, kept->peakGflopsF32);
    now.onchipGbps = std::max(now.onchipGbps, kept->onchipGbps);
    // The cache's figure goes with the size its copy was sized by. A size
    // found is better than none (a noisy probe may find none), the smaller
    // of two is the safe side (findCacheCapacity: it may read twice the
    // cache; heat3d-2sweep's 25 MiB fields took cached stores with a
    // 32 MiB reading and ran 30% slower than with streaming ones), and of
    // two figures for one size the faster.
    bool keepCache = kept->llcBytes == now.llcBytes
                         ? kept->llcGbps > now.llcGbps
                         : now.llcBytes == 0 || (kept->llcBytes > 0 &&
                                                 kept->llcBytes < now.llcBytes);
    if (keepCache) {
      now.llcGbps = kept->llcGbps;
      now.llcBytes = kept->llcBytes;
    }
  }
  HostMeasurement result{now.gbps,     now.llcGbps,       now.onchipGbps,
                         now.llcBytes, now.peakGflopsF32, source};
  if (path.empty())
    return result;
  // Written whole, then renamed: a compile running beside this one reads
  // the old file or the new one.
  llvm::SmallString<128> directory(path);
  llvm::sys::path::remove_filename(directory);
  if (llvm::sys::fs::create_directories(directory))
    return result;
  std::string temporary =
      path + ".tmp" + std::to_string(llvm::sys::Process::getProcessId());
  {
    std::error_code error;
    llvm::raw_fd_ostream os(temporary, error);
    if (error)
      return result;
    os << llvm::formatv(
        "{0:2}\n",
        llvm::json::Value(llvm::json::Object{
            {"version", kVersion},
            {"cpu", cpuModel},
            {"cores", int64_t(cores)},
            {"bandwidth_gbps", now.gbps},
            {"llc_bandwidth_gbps", now.llcGbps},
            {"llc_bytes_measured", now.llcBytes},
            {"onchip_bandwidth_gbps", now.onchipGbps},
            {"peak_gflops_f32", now.peakGflopsF32},
            {"core_share", now.coreShare},
            {"probes", now.probes},
            {"probes_with_cores", now.fullProbes},
            {"method", "STREAM copy, one thread per core, arrays beyond "
                       "and within the LLC and each core's L2; the LLC's "
                       "size measured where the system does not give it "
                       "(else 0); FMAs of the widest vectors, one thread "
                       "per core (0: no probe for this CPU)"}}));
  }
  if (!llvm::sys::fs::rename(temporary, path))
    result.source += ", kept in " + path;
  else
    llvm::sys::fs::remove(temporary);
  return result;
}

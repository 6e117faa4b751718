//===- HostBandwidth.cpp - The host's memory bandwidth, measured once -----===//
//
// Memory bandwidth cannot be read from the system, and the tuning models'
// choices follow it: a STREAM-style copy (c[i] = a[i] over arrays far
// larger than the last-level cache, one thread per core, best of several
// repetitions, 8 bytes read and 8 written per element: bench/stream_copy.c's
// figure) measures it in a fraction of a second, and the cache directory
// keeps the result per machine (host.json, keyed by the CPU model and core
// count) so that every later compile reads it.
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
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

using namespace mlir;
using namespace mlir::stencil;

namespace {

/// The copy bandwidth in GB/s with `threads` threads over two arrays of at
/// least 64 MiB and 8 times the last-level cache each.
double measureCopyBandwidth(unsigned threads, int64_t llcBytes) {
  size_t bytes = std::max<int64_t>(int64_t(64) << 20, 8 * llcBytes);
  size_t elements = bytes / sizeof(double);
  std::unique_ptr<double[]> a(new double[elements]);
  std::unique_ptr<double[]> c(new double[elements]);
  // Each thread touches its own part first, so its pages are local to it.
  auto inParallel = [&](auto body) {
    std::vector<std::thread> team;
    size_t chunk = (elements + threads - 1) / threads;
    for (unsigned t = 0; t < threads; ++t) {
      size_t begin = std::min(elements, t * chunk);
      size_t end = std::min(elements, begin + chunk);
      team.emplace_back([=] { body(begin, end); });
    }
    for (std::thread &thread : team)
      thread.join();
  };
  double *source = a.get(), *target = c.get();
  inParallel([=](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      source[i] = 1.0 + double(i);
      target[i] = 0.0;
    }
  });
  double best = 1e30;
  for (int rep = 0; rep < 5; ++rep) {
    auto start = std::chrono::steady_clock::now();
    // `+ 0.0` keeps the loop a loop: a compiler may turn a plain copy into
    // memcpy, whose non-temporal stores would measure something else.
    inParallel([=](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i)
        target[i] = source[i] + 0.0;
    });
    std::chrono::duration<double> seconds =
        std::chrono::steady_clock::now() - start;
    best = std::min(best, seconds.count());
  }
  return 16.0 * double(elements) / best * 1e-9;
}

} // namespace

HostBandwidth mlir::stencil::getHostBandwidth(llvm::StringRef cpuModel,
                                              unsigned cores,
                                              int64_t llcBytes) {
  if (std::optional<std::string> value =
          llvm::sys::Process::GetEnv("STENCIL_HOST_BANDWIDTH_GBPS")) {
    double parsed;
    if (!llvm::StringRef(*value).getAsDouble(parsed) && parsed > 0)
      return {parsed, "STENCIL_HOST_BANDWIDTH_GBPS"};
  }
  std::string path = getCachePath("host.json");
  if (!path.empty())
    if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
            llvm::MemoryBuffer::getFile(path)) {
      llvm::Expected<llvm::json::Value> json =
          llvm::json::parse((*file)->getBuffer());
      const llvm::json::Object *object = json ? json->getAsObject() : nullptr;
      if (!json)
        llvm::consumeError(json.takeError());
      std::optional<double> cached =
          object ? object->getNumber("bandwidth_gbps") : std::nullopt;
      if (object && cached && *cached > 0 &&
          object->getString("cpu") == cpuModel &&
          object->getInteger("cores") == int64_t(cores))
        return {*cached, "measured once, kept in " + path};
    }
  double measured = measureCopyBandwidth(cores, llcBytes);
  HostBandwidth result{measured, "measured now"};
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
    os << llvm::formatv("{0:2}\n",
                        llvm::json::Value(llvm::json::Object{
                            {"version", 1},
                            {"cpu", cpuModel},
                            {"cores", int64_t(cores)},
                            {"bandwidth_gbps", measured},
                            {"method", "STREAM copy, one thread per core"}}));
  }
  if (!llvm::sys::fs::rename(temporary, path))
    result.source = "measured now, kept in " + path;
  else
    llvm::sys::fs::remove(temporary);
  return result;
}

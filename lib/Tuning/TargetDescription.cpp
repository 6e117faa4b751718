//===- TargetDescription.cpp - Device descriptions, JSON and DLTI ---------===//

#include "Stencil/Tuning/TargetDescription.h"
#include "Stencil/Support/InstallPaths.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <cstdlib>
#include <fstream>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#ifndef STENCIL_INSTALLED_TARGETS_DIR
#define STENCIL_INSTALLED_TARGETS_DIR ""
#endif

using namespace mlir;
using namespace mlir::stencil;

namespace {

/// Every field, once: the JSON keys are the DLTI keys.
struct StringField {
  const char *key;
  std::string TargetDescription::*member;
};
struct RealField {
  const char *key;
  double TargetDescription::*member;
};
struct IntField {
  const char *key;
  int64_t TargetDescription::*member;
};

const StringField stringFields[] = {
    {"name", &TargetDescription::name},
    {"description", &TargetDescription::description},
    {"kind", &TargetDescription::kind},
};
const RealField realFields[] = {
    {"peak_gflops_f32", &TargetDescription::peakGflopsF32},
    {"peak_gflops_f64", &TargetDescription::peakGflopsF64},
    {"bandwidth_gbps", &TargetDescription::bandwidthGBps},
    {"network_latency_us", &TargetDescription::networkLatencyUs},
    {"network_bandwidth_gbps", &TargetDescription::networkBandwidthGBps},
    {"launch_overhead_us", &TargetDescription::launchOverheadUs},
};
const IntField intFields[] = {
    {"onchip_bytes", &TargetDescription::onchipBytes},
    {"l2_bytes", &TargetDescription::l2Bytes},
    {"min_work_groups", &TargetDescription::minWorkGroups},
    {"max_work_group_size", &TargetDescription::maxWorkGroupSize},
    {"simd_width", &TargetDescription::simdWidth},
    {"compute_units", &TargetDescription::computeUnits},
    {"lanes_per_unit", &TargetDescription::lanesPerUnit},
};

/// Fields a description may leave out (0 then).
const IntField optionalIntFields[] = {
    {"l1_bytes", &TargetDescription::l1Bytes},
    {"llc_bytes", &TargetDescription::llcBytes},
};
const RealField optionalRealFields[] = {
    {"llc_bandwidth_gbps", &TargetDescription::llcBandwidthGBps},
    {"onchip_bandwidth_gbps", &TargetDescription::onchipBandwidthGBps},
};

/// A number field's value: a float or an integer attribute.
std::optional<double> getNumber(Attribute value) {
  if (auto real = llvm::dyn_cast_or_null<FloatAttr>(value))
    return real.getValueAsDouble();
  if (auto integer = llvm::dyn_cast_or_null<IntegerAttr>(value))
    return double(integer.getInt());
  return std::nullopt;
}

/// Checks the values the passes divide by or compare with.
LogicalResult validate(const TargetDescription &target,
                       function_ref<InFlightDiagnostic()> emitError,
                       StringRef where) {
  if (target.kind != "gpu" && target.kind != "manycore" && target.kind != "cpu")
    return emitError() << where << ": field 'kind' must be \"gpu\", "
                       << "\"manycore\" or \"cpu\", got \"" << target.kind
                       << "\"";
  for (const RealField &field : realFields)
    if (!(target.*field.member > 0))
      return emitError() << where << ": field '" << field.key
                         << "' must be positive";
  for (const IntField &field : intFields)
    if (target.*field.member < 1)
      return emitError() << where << ": field '" << field.key
                         << "' must be positive";
  for (const IntField &field : optionalIntFields)
    if (target.*field.member < 0)
      return emitError() << where << ": field '" << field.key
                         << "' must be positive";
  for (const RealField &field : optionalRealFields)
    if (!(target.*field.member >= 0))
      return emitError() << where << ": field '" << field.key
                         << "' must not be negative";
  return success();
}

FailureOr<TargetDescription>
parseJson(StringRef path, function_ref<InFlightDiagnostic()> emitError) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return emitError() << "cannot read target description '" << path
                       << "': " << buffer.getError().message();
  return parseTargetDescription((*buffer)->getBuffer(), path, emitError);
}

/// Reads one `key : value` line of a /proc or /sys file.
std::string readFirstLine(const std::string &path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

/// Cache sizes of the host; 0 where not known.
struct HostCaches {
  int64_t l1DataBytes = 0;
  /// The second level, private per core on the CPUs we tune for.
  int64_t l2Bytes = 0;
  /// The highest level listed (L3, or L2 where there is none).
  int64_t lastLevelBytes = 0;
};

/// Caches as Linux lists them for cpu0.
HostCaches readSysfsCaches() {
  HostCaches caches;
  int lastLevel = 0;
  for (int index = 0; index < 8; ++index) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" +
                      std::to_string(index) + "/";
    std::string level = readFirstLine(dir + "level");
    std::string size = readFirstLine(dir + "size");
    if (level.empty() || size.empty())
      continue;
    StringRef sizeText = StringRef(size).trim();
    int64_t multiplier = 1;
    if (sizeText.consume_back("K"))
      multiplier = 1024;
    else if (sizeText.consume_back("M"))
      multiplier = 1024 * 1024;
    int64_t bytes;
    int levelNumber;
    if (sizeText.getAsInteger(10, bytes) ||
        StringRef(level).trim().getAsInteger(10, levelNumber))
      continue;
    bytes *= multiplier;
    if (levelNumber == 2)
      caches.l2Bytes = bytes;
    if (levelNumber == 1 &&
        StringRef(readFirstLine(dir + "type")).trim() == "Data")
      caches.l1DataBytes = bytes;
    if (levelNumber >= lastLevel) {
      lastLevel = levelNumber;
      caches.lastLevelBytes = bytes;
    }
  }
  return caches;
}

/// Caches as the x86 processor reports them, for machines whose sysfs
/// lists none (virtual machines may hide it). The deterministic cache
/// leaves (Intel's 4, AMD's 0x8000001D) describe every level; where a
/// hypervisor leaves them empty, AMD's older leaves still give the L1 data
/// cache and the L2 per core. Their L3 figure is the whole package's,
/// shared by cores this process does not have (a 2-core virtual machine
/// reports its 16-die package's 508 MiB, where the copy bandwidth falls to
/// the memory's beyond 32 MiB), so it is not taken: the host's bandwidth
/// probe measures the last level's size instead (HostMeasurement.cpp).
HostCaches readCpuidCaches() {
  HostCaches caches;
#if defined(__x86_64__) || defined(__i386__)
  unsigned eax, ebx, ecx, edx;
  auto readDeterministic = [&](unsigned leaf) {
    int lastLevel = 0;
    for (unsigned subleaf = 0; subleaf < 16; ++subleaf) {
      __cpuid_count(leaf, subleaf, eax, ebx, ecx, edx);
      unsigned type = eax & 0x1f; // 1 data, 2 instruction, 3 unified
      if (type == 0)
        break;
      int level = (eax >> 5) & 0x7;
      int64_t ways = ((ebx >> 22) & 0x3ff) + 1;
      int64_t partitions = ((ebx >> 12) & 0x3ff) + 1;
      int64_t lineBytes = (ebx & 0xfff) + 1;
      int64_t sets = int64_t(ecx) + 1;
      int64_t bytes = ways * partitions * lineBytes * sets;
      if (level == 1 && type == 1)
        caches.l1DataBytes = bytes;
      if (level == 2 && type != 2)
        caches.l2Bytes = bytes;
      if (type != 2 && level >= lastLevel) {
        lastLevel = level;
        caches.lastLevelBytes = bytes;
      }
    }
  };
  unsigned maxBasic = __get_cpuid_max(0, nullptr);
  unsigned maxExtended = __get_cpuid_max(0x80000000, nullptr);
  if (maxBasic >= 4)
    readDeterministic(4);
  // AMD's leaf is defined where CPUID 0x80000001 sets TopologyExtensions.
  bool topologyExtensions = false;
  if (maxExtended >= 0x80000001) {
    __cpuid(0x80000001, eax, ebx, ecx, edx);
    topologyExtensions = ecx & (1u << 22);
  }
  if (!caches.l2Bytes && topologyExtensions && maxExtended >= 0x8000001d)
    readDeterministic(0x8000001d);
  if (!caches.l2Bytes && maxExtended >= 0x80000006) {
    caches = HostCaches();
    __cpuid(0x80000005, eax, ebx, ecx, edx);
    caches.l1DataBytes = int64_t(ecx >> 24) * 1024;
    __cpuid(0x80000006, eax, ebx, ecx, edx);
    caches.l2Bytes = int64_t(ecx >> 16) * 1024;
  }
#endif
  return caches;
}

} // namespace

FailureOr<TargetDescription> mlir::stencil::parseTargetDescription(
    StringRef text, StringRef path,
    function_ref<InFlightDiagnostic()> emitError) {
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json)
    return emitError() << "target description '" << path
                       << "' is not valid JSON: "
                       << llvm::toString(json.takeError());
  const llvm::json::Object *object = json->getAsObject();
  if (!object)
    return emitError() << "target description '" << path
                       << "' must be a JSON object";
  TargetDescription target;
  for (const StringField &field : stringFields) {
    std::optional<StringRef> value = object->getString(field.key);
    if (!value)
      return emitError() << "target description '" << path
                         << "': missing string field '" << field.key << "'";
    target.*field.member = value->str();
  }
  for (const RealField &field : realFields) {
    std::optional<double> value = object->getNumber(field.key);
    if (!value)
      return emitError() << "target description '" << path
                         << "': missing number field '" << field.key << "'";
    target.*field.member = *value;
  }
  for (const IntField &field : intFields) {
    std::optional<int64_t> value = object->getInteger(field.key);
    if (!value)
      return emitError() << "target description '" << path
                         << "': missing integer field '" << field.key << "'";
    target.*field.member = *value;
  }
  for (const IntField &field : optionalIntFields) {
    const llvm::json::Value *value = object->get(field.key);
    if (!value)
      continue;
    std::optional<int64_t> integer = value->getAsInteger();
    if (!integer || *integer < 1)
      return emitError() << "target description '" << path << "': field '"
                         << field.key << "' must be a positive integer";
    target.*field.member = *integer;
  }
  for (const RealField &field : optionalRealFields) {
    const llvm::json::Value *value = object->get(field.key);
    if (!value)
      continue;
    std::optional<double> number = value->getAsNumber();
    if (!number || !(*number > 0))
      return emitError() << "target description '" << path << "': field '"
                         << field.key << "' must be a positive number";
    target.*field.member = *number;
  }
  if (failed(validate(target, emitError,
                      "target description '" + path.str() + "'")))
    return failure();
  return target;
}

std::string mlir::stencil::getDeviceID(unsigned index) {
  return "stencil.device" + std::to_string(index);
}

namespace {
/// What /proc/cpuinfo says of the first CPU: the widest vectors in f32
/// lanes (AVX-512: 16, AVX2: 8, else 4), the clock, the model's name.
struct CpuInfo {
  int64_t lanes = 4;
  double mhz = 2500;
  std::string model;
};
} // namespace

static CpuInfo readCpuInfo() {
  CpuInfo info;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    StringRef text(line);
    if (text.starts_with("flags")) {
      if (text.contains(" avx512f"))
        info.lanes = std::max<int64_t>(info.lanes, 16);
      else if (text.contains(" avx2"))
        info.lanes = std::max<int64_t>(info.lanes, 8);
    } else if (text.starts_with("cpu MHz")) {
      double value;
      if (!text.split(':').second.trim().getAsDouble(value) && value > 0)
        info.mhz = value;
    } else if (text.starts_with("model name") && info.model.empty()) {
      info.model = text.split(':').second.trim().str();
    }
  }
  return info;
}

int64_t mlir::stencil::detectHostSimdWidth() { return readCpuInfo().lanes; }

static TargetDescription detectHostTargetNow() {
  TargetDescription host;
  host.name = "host";
  host.kind = "cpu";
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  host.computeUnits = cores;

  CpuInfo cpu = readCpuInfo();
  host.description = cpu.model;
  host.simdWidth = cpu.lanes;
  host.lanesPerUnit = cpu.lanes;
  // Two FMA units per core, two flops per FMA, at the clock: where the
  // probe below measures no peak.
  host.peakGflopsF32 = cores * cpu.lanes * 2.0 * 2.0 * cpu.mhz * 1e-3;

  // Caches: the L2 (private per core) is what one tile may use, the L1 data
  // cache what a 1-D time block's tile may; L2 totals are informational.
  // Each level sysfs does not list comes from CPUID where it can.
  HostCaches caches = readSysfsCaches();
  if (!caches.l1DataBytes || !caches.l2Bytes || !caches.lastLevelBytes) {
    HostCaches reported = readCpuidCaches();
    for (int64_t HostCaches::*level :
         {&HostCaches::l1DataBytes, &HostCaches::l2Bytes,
          &HostCaches::lastLevelBytes})
      if (!(caches.*level))
        caches.*level = reported.*level;
  }
  host.onchipBytes = caches.l2Bytes ? caches.l2Bytes : 256 * 1024;
  host.l2Bytes = host.onchipBytes * cores;
  host.l1Bytes = caches.l1DataBytes;
  host.llcBytes = caches.lastLevelBytes;
  // STENCIL_HOST_LLC_BYTES states the last level where neither gives it
  // and the bandwidths are pinned (no probe then measures it), or
  // overrides what they give.
  if (std::optional<std::string> text =
          llvm::sys::Process::GetEnv("STENCIL_HOST_LLC_BYTES")) {
    int64_t bytes;
    if (!StringRef(*text).trim().getAsInteger(10, bytes) && bytes > 0)
      host.llcBytes = bytes;
  }

  // Memory bandwidth cannot be read from the system, nor the clock that
  // vector code runs at: measured by the first compiles on a machine and
  // kept (HostMeasurement.cpp).
  HostMeasurement measured = getHostMeasurement(
      host.description, cores, host.onchipBytes, host.llcBytes);
  host.bandwidthGBps = measured.gbps;
  host.llcBandwidthGBps = measured.llcGbps;
  host.onchipBandwidthGBps = measured.onchipGbps;
  if (!host.llcBytes)
    host.llcBytes = measured.llcBytes;
  if (measured.peakGflopsF32 > 0)
    host.peakGflopsF32 = measured.peakGflopsF32;
  // The same FMAs on half as many lanes.
  host.peakGflopsF64 = host.peakGflopsF32 / 2;
  // The growth's floor: with 4 groups or more a core, any number of them
  // divides among the cores nearly evenly. Fewer, larger groups are then
  // priced with the busiest core's share (TuneWorkGroup.cpp,
  // mergeWorkGroups).
  host.minWorkGroups = 4 * cores;
  host.maxWorkGroupSize = int64_t(1) << 30;
  host.networkLatencyUs = 1.5;
  host.networkBandwidthGBps = 10.0;
  host.launchOverheadUs = 2.0;
  if (host.description.empty())
    host.description = "host CPU";
  return host;
}

TargetDescription mlir::stencil::detectHostTarget() {
  // Once per process: the first compiles on a machine measure it, seconds
  // each, and a compile may name the host more than once
  // (--mpi-devices=host,host, targets=host,host).
  static const TargetDescription host = detectHostTargetNow();
  return host;
}

FailureOr<TargetDescription> mlir::stencil::loadTargetDescription(
    StringRef nameOrPath, ArrayRef<std::string> searchDirs,
    function_ref<InFlightDiagnostic()> emitError) {
  if (nameOrPath == "host")
    return detectHostTarget();
  if (nameOrPath.ends_with(".json"))
    return parseJson(nameOrPath, emitError);
  SmallVector<std::string> dirs(searchDirs.begin(), searchDirs.end());
  if (const char *env = std::getenv("STENCIL_TARGETS_DIR"))
    dirs.push_back(env);
  if (*STENCIL_INSTALLED_TARGETS_DIR)
    dirs.push_back(resolveInstallPath(STENCIL_INSTALLED_TARGETS_DIR));
  std::vector<std::string> known;
  for (const std::string &dir : dirs) {
    SmallString<256> path(dir);
    llvm::sys::path::append(path, nameOrPath + ".json");
    if (llvm::sys::fs::exists(path))
      return parseJson(path, emitError);
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
         it.increment(ec))
      if (StringRef(it->path()).ends_with(".json"))
        known.push_back(llvm::sys::path::stem(it->path()).str());
  }
  llvm::sort(known);
  known.erase(std::unique(known.begin(), known.end()), known.end());
  return emitError() << "unknown target '" << nameOrPath
                     << "'; known targets: host" << (known.empty() ? "" : ", ")
                     << llvm::join(known, ", ")
                     << ", or a path to a .json description";
}

void mlir::stencil::attachTargets(ModuleOp module,
                                  ArrayRef<TargetDescription> targets) {
  MLIRContext *context = module.getContext();
  Builder builder(context);
  SmallVector<DataLayoutEntryInterface> devices;
  for (auto [index, target] : llvm::enumerate(targets)) {
    SmallVector<DataLayoutEntryInterface> entries;
    auto add = [&](StringRef key, Attribute value) {
      entries.push_back(
          DataLayoutEntryAttr::get(builder.getStringAttr(key), value));
    };
    for (const StringField &field : stringFields)
      add(field.key, builder.getStringAttr(target.*field.member));
    for (const RealField &field : realFields)
      add(field.key, builder.getF64FloatAttr(target.*field.member));
    for (const IntField &field : intFields)
      add(field.key, builder.getI64IntegerAttr(target.*field.member));
    for (const IntField &field : optionalIntFields)
      if (target.*field.member > 0)
        add(field.key, builder.getI64IntegerAttr(target.*field.member));
    for (const RealField &field : optionalRealFields)
      if (target.*field.member > 0)
        add(field.key, builder.getF64FloatAttr(target.*field.member));
    devices.push_back(
        DataLayoutEntryAttr::get(builder.getStringAttr(getDeviceID(index)),
                                 TargetDeviceSpecAttr::get(context, entries)));
  }
  module->setAttr(DLTIDialect::kTargetSystemDescAttrName,
                  TargetSystemSpecAttr::get(context, devices));
}

FailureOr<SmallVector<TargetDescription>>
mlir::stencil::readAttachedTargets(ModuleOp module) {
  SmallVector<TargetDescription> targets;
  auto system = module->getAttrOfType<TargetSystemSpecAttr>(
      DLTIDialect::kTargetSystemDescAttrName);
  if (!system)
    return targets;
  for (unsigned index = 0;; ++index) {
    std::string id = getDeviceID(index);
    std::optional<TargetDeviceSpecInterface> device =
        system.getDeviceSpecForDeviceID(
            StringAttr::get(module.getContext(), id));
    if (!device)
      break;
    TargetDescription target;
    auto lookup = [&](StringRef key) -> Attribute {
      DataLayoutEntryInterface entry = device->getSpecForIdentifier(
          StringAttr::get(module.getContext(), key));
      return entry ? entry.getValue() : Attribute();
    };
    auto missing = [&](StringRef key, StringRef type) {
      return module.emitError() << "target device '" << id << "' needs field '"
                                << key << "' (" << type << ")";
    };
    for (const StringField &field : stringFields) {
      auto value = llvm::dyn_cast_or_null<StringAttr>(lookup(field.key));
      if (!value)
        return missing(field.key, "a string");
      target.*field.member = value.str();
    }
    for (const RealField &field : realFields) {
      std::optional<double> number = getNumber(lookup(field.key));
      if (!number)
        return missing(field.key, "a number");
      target.*field.member = *number;
    }
    for (const IntField &field : intFields) {
      auto value = llvm::dyn_cast_or_null<IntegerAttr>(lookup(field.key));
      if (!value)
        return missing(field.key, "an integer");
      target.*field.member = value.getInt();
    }
    for (const IntField &field : optionalIntFields) {
      Attribute value = lookup(field.key);
      if (!value)
        continue;
      auto integer = llvm::dyn_cast<IntegerAttr>(value);
      if (!integer)
        return missing(field.key, "an integer");
      target.*field.member = integer.getInt();
    }
    for (const RealField &field : optionalRealFields) {
      Attribute value = lookup(field.key);
      if (!value)
        continue;
      std::optional<double> number = getNumber(value);
      if (!number)
        return missing(field.key, "a number");
      target.*field.member = *number;
    }
    if (failed(validate(
            target, [&] { return module.emitError(); },
            "target device '" + id + "'")))
      return failure();
    targets.push_back(std::move(target));
  }
  return targets;
}

FailureOr<TargetDescription>
mlir::stencil::getTuningTarget(ModuleOp module, unsigned index,
                               StringRef passName) {
  FailureOr<SmallVector<TargetDescription>> targets =
      readAttachedTargets(module);
  if (failed(targets))
    return failure();
  if (index >= targets->size())
    return module.emitError()
           << passName
           << " needs a target: run stencil-attach-target first (device "
           << index << " is not attached)";
  return (*targets)[index];
}

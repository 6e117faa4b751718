//===- TargetDescription.h - What the tuning passes know of a device -*- C++
//-*-===//
//
// A device description (targets/*.json, or the detected host), its encoding
// as DLTI on the module (`dlti.target_system_spec`), and its decoding by the
// tuning passes, which read only IR.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_TUNING_TARGETDESCRIPTION_H
#define STENCIL_TUNING_TARGETDESCRIPTION_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <algorithm>
#include <string>
#include <vector>

namespace mlir::stencil {

struct TargetDescription {
  std::string name;
  std::string description;
  /// "gpu", "manycore" or "cpu": selects the growth rules.
  std::string kind;
  double peakGflopsF32 = 0;
  double peakGflopsF64 = 0;
  double bandwidthGBps = 0;
  int64_t onchipBytes = 0;
  int64_t l2Bytes = 0;
  /// First-level data cache per core; optional ("l1_bytes"), 0 when not
  /// given. The CPU rules keep 1-D time-block tiles in it.
  int64_t l1Bytes = 0;
  /// Last-level cache, shared by all cores; optional ("llc_bytes"), 0 when
  /// not given. CPU sweeps whose fields exceed it use streaming stores.
  int64_t llcBytes = 0;
  /// Copy bandwidth of the last-level cache, all cores together; optional
  /// ("llc_bandwidth_gbps"), 0 when not known. The CPU cost model charges
  /// data that a time block reads again from that cache at this rate.
  double llcBandwidthGBps = 0;
  /// Copy bandwidth within each core's on-chip memory (a CPU's L2), all
  /// cores together; optional ("onchip_bandwidth_gbps"), 0 when not known.
  /// The CPU cost model charges what a time block reads again from that
  /// cache at this rate (where not known, at a rate derived from the clock
  /// the peak implies: TuneWorkGroup.cpp).
  double onchipBandwidthGBps = 0;
  int64_t minWorkGroups = 0;
  int64_t maxWorkGroupSize = 0;
  int64_t simdWidth = 0;
  int64_t computeUnits = 0;
  int64_t lanesPerUnit = 0;
  double networkLatencyUs = 0;
  double networkBandwidthGBps = 0;
  double launchOverheadUs = 0;

  /// Bytes per flop the machine delivers (seed 000 "system B/F").
  double getSystemBF(bool isDouble) const {
    return bandwidthGBps / (isDouble ? peakGflopsF64 : peakGflopsF32);
  }
  /// Static shared memory a CUDA kernel may declare; the GPU lowering uses
  /// no dynamic shared memory, so no kernel of any target exceeds it.
  static constexpr int64_t kStaticSharedMemoryBytes = 48 * 1024;
  /// Workgroup memory one GPU kernel may declare: onchip_bytes, at most
  /// kStaticSharedMemoryBytes. The tuner sizes time-block tiles by it and
  /// the lowering rejects tiles above it.
  int64_t getKernelWorkgroupBytes() const {
    return onchipBytes > 0 ? std::min(onchipBytes, kStaticSharedMemoryBytes)
                           : kStaticSharedMemoryBytes;
  }
  /// Processing elements: compute units x lanes (seed 002).
  int64_t getProcessingElements() const { return computeUnits * lanesPerUnit; }
};

/// The DLTI device ID under which the module carries the i-th device.
std::string getDeviceID(unsigned index);

/// Reads `targets/NAME.json` (searched in `searchDirs`, then the source and
/// install trees), a path to a .json file, or detects "host". Errors name
/// the file and the missing or mistyped field.
FailureOr<TargetDescription>
loadTargetDescription(StringRef nameOrPath, ArrayRef<std::string> searchDirs,
                      function_ref<InFlightDiagnostic()> emitError);

/// Parses a description's JSON text; `path` names it in errors.
FailureOr<TargetDescription>
parseTargetDescription(StringRef text, StringRef path,
                       function_ref<InFlightDiagnostic()> emitError);

/// The CPU this runs on: cores, SIMD width, caches from sysfs (else from
/// CPUID, else the last level measured); bandwidths and the FP peak from
/// getHostMeasurement (docs/Tuning.md). Detected once per process.
TargetDescription detectHostTarget();

/// The host's SIMD width in f32 lanes, as detectHostTarget gives it, without
/// the measurements (which the first compiles on a machine take seconds
/// for).
int64_t detectHostSimdWidth();

/// The host's memory, last-level cache and L2 bandwidths, its FP peak, and
/// where the figures come from.
struct HostMeasurement {
  double gbps = 0;
  /// 0 when not known.
  double llcGbps = 0;
  /// The copy's bandwidth within each core's L2; 0 when not known.
  double onchipGbps = 0;
  /// The last-level cache's size as the copy measured it (or host.json
  /// keeps it), where the system did not give it when measured; 0 when not
  /// measured or not found.
  int64_t llcBytes = 0;
  /// f32 GFLOP/s of all cores' FMAs on the widest vectors; 0 when not
  /// measured (the target then derives it from the clock).
  double peakGflopsF32 = 0;
  std::string source;
};
/// STENCIL_HOST_BANDWIDTH_GBPS (and STENCIL_HOST_LLC_BANDWIDTH_GBPS and
/// STENCIL_HOST_ONCHIP_BANDWIDTH_GBPS, else unknown;
/// STENCIL_HOST_PEAK_GFLOPS_F32, else not measured) when set; else
/// the figures of the STREAM copy and the FMA probe kept for this machine
/// (a CPU `cpuModel` with `cores` cores, `l2Bytes` of L2 each and a
/// last-level cache of `llcBytes`) in the cache directory (host.json) once
/// enough probes were taken; else measured now (from a fraction of a second
/// to a few, with the last-level cache's size: 2.5 s for 480 MiB), the
/// fastest figure so far kept.
/// STENCIL_HOST_LLC_BANDWIDTH_GBPS, STENCIL_HOST_ONCHIP_BANDWIDTH_GBPS and
/// STENCIL_HOST_PEAK_GFLOPS_F32 alone replace the caches' figures and the
/// peak. With
/// `llcBytes` 0 (not known), the measurement also finds the cache's size.
HostMeasurement getHostMeasurement(StringRef cpuModel, unsigned cores,
                                   int64_t l2Bytes, int64_t llcBytes);

/// Places the devices on `module` as `dlti.target_system_spec`, device i
/// under getDeviceID(i).
void attachTargets(ModuleOp module, ArrayRef<TargetDescription> targets);

/// The devices the module carries, in ID order; an error names the device
/// and field when one is missing or mistyped. Empty when none is attached.
FailureOr<SmallVector<TargetDescription>> readAttachedTargets(ModuleOp module);

/// Device `index` of the module for the pass `passName`; an error says to
/// run stencil-attach-target when it is not attached.
FailureOr<TargetDescription> getTuningTarget(ModuleOp module, unsigned index,
                                             StringRef passName);

} // namespace mlir::stencil

#endif // STENCIL_TUNING_TARGETDESCRIPTION_H

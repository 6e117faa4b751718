//===- Autotune.h - Seed 000's empirical search, as a feature ---*- C++ -*-===//
//
// `stencilcc --autotune[=SECONDS]`: candidates around the static tuner's
// schedule are compiled, run and timed, region by region, within a time
// budget; the fastest is compiled in and stored in a cache that later
// compiles read with `--schedule=cache`. bench/autotune.sh, the yardstick
// the static tuner is judged by, runs the same search with a larger budget.
//
// The driver owns compiling; this file owns what to try, in which order, how
// to time it fairly, and what is remembered.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DRIVER_AUTOTUNE_H
#define STENCIL_DRIVER_AUTOTUNE_H

#include "Stencil/Driver/Schedule.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::stencil {

/// A hash of each region's stencil IR (the function the importer made,
/// before any schedule is attached), keyed by region name: what the cache
/// knows a region by, so that edits elsewhere in the C file keep its entry
/// and edits to the region drop it.
llvm::StringMap<std::string> hashRegions(ModuleOp module);

/// What the cache calls the machine a schedule was measured on: the
/// target, the device description and, for this CPU, its model and the
/// thread count OpenMP will use; `/contract` after it for regions compiled
/// with contraction (-ffp-contract=fast).
std::string getAutotuneDeviceKey(StringRef target, StringRef device,
                                 bool contracted = false);

/// The candidate schedules of one search stage around `base`, best guesses
/// first, without `base` itself. `maxWorkGroupSize` bounds GPU work groups
/// (0: no bound).
SmallVector<RegionSchedule> proposeTimeBlocks(const RegionSchedule &base);
SmallVector<RegionSchedule> proposeWorkGroups(const RegionSchedule &base,
                                              int64_t maxWorkGroupSize);

/// Wraps each function named in `regions` so that its time is summed by
/// runtime/common/stencil_profile.c and written where STENCIL_PROFILE
/// says at exit.
void instrumentRegionTiming(llvm::Module &module,
                            ArrayRef<std::string> regions);

/// One candidate of one region, as measured.
struct CandidateTiming {
  RegionSchedule schedule;
  /// Seconds spent in the region per run of the program.
  SmallVector<double> seconds;
  /// Why it has no time: it did not build, or the program failed.
  std::string failure;

  double getMedian() const;
  /// (max - min) / median of the runs; 0 with one run.
  double getSpread() const;
};

/// The search's result for one region.
struct RegionTuning {
  RegionSchedule tuned;
  /// Every candidate tried, the static choice first.
  std::vector<CandidateTiming> candidates;
  /// Index of the fastest candidate; 0 (the static choice) when nothing
  /// was faster or the region never ran.
  size_t best = 0;
  bool ran = false;
};

struct AutotuneOptions {
  /// Seconds the search may take, compiles and runs together.
  double budgetSeconds = 60;
  /// Arguments each run of the program gets.
  std::vector<std::string> runArgs;
  /// Runs per candidate (the median of them is compared).
  unsigned runsPerCandidate = 5;
  /// Whether to draw a progress bar on stderr.
  bool progress = false;
  /// Whether schedules may use streaming stores (CPU targets).
  bool cpu = true;
  /// The bound on GPU work-group sizes; 0 for CPUs.
  int64_t maxWorkGroupSize = 0;
};

/// Builds the program with one schedule per region (in the order of
/// `regions`) at `path`, with the regions timed (instrumentRegionTiming);
/// returns false with `failure` saying why not.
using AutotuneBuildFn = function_ref<bool(
    ArrayRef<RegionSchedule> schedules, StringRef path, std::string &failure)>;

/// Seed 000's search around each region's static schedule: first the
/// time-block depth, then the work-group shape at the best depth, then
/// (CPU, single sweeps) streaming stores; each stage's candidates and its
/// incumbent are run in turn, round after round, so drift on a shared
/// machine hits them alike, and compared by their medians. The regions are
/// searched together: one executable carries the k-th candidate of every
/// region. Candidates are tried as the budget allows. Fails, with
/// `message`, only when the static schedule itself cannot be built or run.
LogicalResult autotune(ArrayRef<RegionSchedule> regions, AutotuneBuildFn build,
                       StringRef workDir, const AutotuneOptions &options,
                       SmallVectorImpl<RegionTuning> &results,
                       std::string &message);

/// The table `stencilcc --autotune -v` prints for one region.
void printAutotuneTable(raw_ostream &os, const RegionTuning &tuning);

/// `schedules.json` in the user's cache directory ($STENCIL_CACHE_DIR, else
/// $XDG_CACHE_HOME/stencil-mlir, else ~/.cache/stencil-mlir).
class ScheduleCache {
public:
  struct Entry {
    std::string region;
    std::string hash;
    std::string device;
    RegionSchedule schedule;
    double seconds = 0;
    double staticSeconds = 0;
    std::string runArgs;
  };

  /// The default location; empty when no cache directory can be named.
  static std::string getDefaultPath();

  /// Reads `path` (a missing file is an empty cache); fails with `message`
  /// when it is not a cache this version wrote.
  LogicalResult load(StringRef path, std::string &message);
  /// Writes the cache to where it was loaded from, atomically.
  LogicalResult save(std::string &message) const;

  const Entry *lookup(StringRef hash, StringRef device) const;
  /// Adds `entry`, replacing the one with the same hash and device.
  void store(Entry entry);

  StringRef getPath() const { return path; }

private:
  std::string path;
  std::vector<Entry> entries;
};

} // namespace mlir::stencil

#endif // STENCIL_DRIVER_AUTOTUNE_H

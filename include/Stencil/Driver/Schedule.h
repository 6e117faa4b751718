//===- Schedule.h - The schedules a user gives on the command line -*- C++
//-*-===//
//
// `--schedule=wg=32x8x1,t=2,k=3,nt=1`: keys that replace the tuning passes'
// choice for every region of a module. Shared by stencilcc and the schedule
// fuzzer, so that what the fuzzer reaches is what users reach.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DRIVER_SCHEDULE_H
#define STENCIL_DRIVER_SCHEDULE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace mlir::stencil {

/// What `--schedule` gives; unset keys keep the tuned value.
struct ScheduleOverrides {
  /// Work-group or tile shape in the seed's order (x, y, z: innermost
  /// first).
  std::optional<SmallVector<int64_t, 3>> workGroup;
  std::optional<int64_t> timeBlock;
  std::optional<int64_t> exchangeDepth;
  /// nt=: streaming (non-temporal) stores in the CPU's single sweeps.
  std::optional<bool> streamingStores;

  bool empty() const {
    return !workGroup && !timeBlock && !exchangeDepth && !streamingStores;
  }
};

/// Parses `wg=WxHxD,t=T,k=K,nt=0|1` (any subset of the keys) into
/// `overrides`. On failure, `message` says what is wrong, naming the key.
LogicalResult parseScheduleOverrides(StringRef text,
                                     ScheduleOverrides &overrides,
                                     std::string &message);

/// The schedule each region of `module` runs, as stencilcc prints it.
struct RegionSchedule {
  std::string region;
  /// Seed order, innermost first.
  SmallVector<int64_t, 3> workGroup;
  int64_t timeBlock;
  int64_t exchangeDepth;
  bool streamingStores;
  /// The grid's extent in seed order; INT64_MAX along axes known only at
  /// run time.
  SmallVector<int64_t, 3> extent;
  /// Whether the region's lowering honours a time block above 1
  /// (KernelProfile::canBlockInTime).
  bool timeBlockable = true;
  /// Whether its fields are distributed (`#pragma stencil distribute`).
  bool distributed = false;

  /// The schedule as `--schedule` keys: `wg=2046x256,t=16,nt=0`.
  std::string getKeys() const;
  /// The keys that make a region run this schedule.
  ScheduleOverrides getOverrides() const;
};

/// The schedule each region of `module` has, in module order.
SmallVector<RegionSchedule> getRegionSchedules(ModuleOp module);

/// Replaces the tuned schedule of every region's time loop with the keys
/// `overrides` gives. With `acrossRanks` (stencilcc --mpi), in a region
/// whose fields are distributed a time block reads T x radius cells of halo: a
/// `t` given without `k` sets k = t, a `k` given without `t` caps the tuned T
/// at k. Fails with a message when a work group does not fit the region's rank
/// or grid, or when a given `k` is less than T there; otherwise appends each
/// region's schedule to `chosen`.
LogicalResult applyScheduleOverrides(ModuleOp module,
                                     const ScheduleOverrides &overrides,
                                     bool acrossRanks,
                                     SmallVectorImpl<RegionSchedule> &chosen,
                                     std::string &message);

/// The same with keys chosen per region (`overridesFor` returns null for a
/// region that keeps its tuned schedule): the autotuner's candidates and
/// the schedules `--schedule=cache` finds.
LogicalResult applyScheduleOverrides(
    ModuleOp module,
    function_ref<const ScheduleOverrides *(StringRef region)> overridesFor,
    bool acrossRanks, SmallVectorImpl<RegionSchedule> &chosen,
    std::string &message);

/// The same with the keys of each region named in `overrides`; the others
/// keep their tuned schedule.
LogicalResult applyScheduleOverrides(
    ModuleOp module, const llvm::StringMap<ScheduleOverrides> &overrides,
    bool acrossRanks, SmallVectorImpl<RegionSchedule> &chosen,
    std::string &message);

} // namespace mlir::stencil

#endif // STENCIL_DRIVER_SCHEDULE_H

//===- Schedule.cpp - The schedules a user gives on the command line ------===//

#include "Stencil/Driver/Schedule.h"

#include "Stencil/Dialect/Stencil/IR/StencilOps.h"
#include "Stencil/Tuning/KernelProfile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;
using namespace mlir::stencil;

static LogicalResult fail(std::string &message, const Twine &text) {
  message = text.str();
  return failure();
}

LogicalResult mlir::stencil::parseScheduleOverrides(
    StringRef text, ScheduleOverrides &overrides, std::string &message) {
  SmallVector<StringRef> entries;
  text.split(entries, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (entries.empty())
    return fail(message, "--schedule needs key=value entries (wg, t, k, nt)");
  for (StringRef entry : entries) {
    auto [key, value] = entry.split('=');
    if (key == "wg") {
      SmallVector<StringRef> sizes;
      value.split(sizes, 'x');
      SmallVector<int64_t, 3> wg;
      for (StringRef size : sizes) {
        int64_t parsed;
        if (size.getAsInteger(10, parsed) || parsed < 1)
          return fail(message,
                      "--schedule wg=" + value +
                          ": sizes must be positive integers like 32x8x1");
        wg.push_back(parsed);
      }
      if (wg.empty() || wg.size() > 3)
        return fail(message, "--schedule wg=" + value + ": 1 to 3 sizes");
      overrides.workGroup = wg;
      continue;
    }
    if (key == "nt") {
      if (value != "0" && value != "1")
        return fail(message, "--schedule nt=" + value +
                                 ": expected 1 (streaming stores) or 0");
      overrides.streamingStores = value == "1";
      continue;
    }
    int64_t parsed;
    if ((key == "t" || key == "k") && value.getAsInteger(10, parsed))
      return fail(message,
                  "--schedule " + key + "=" + value + ": expected an integer");
    if (key == "t") {
      if (parsed < 1)
        return fail(message, "--schedule t=" + value +
                                 ": the time-block depth must be at least 1");
      overrides.timeBlock = parsed;
    } else if (key == "k") {
      if (parsed < 1)
        return fail(message, "--schedule k=" + value +
                                 ": the exchange depth must be at least 1");
      overrides.exchangeDepth = parsed;
    } else {
      return fail(message, "--schedule: unknown key '" + key +
                               "'; expected wg, t, k or nt");
    }
  }
  return success();
}

/// The region's calc grid: that of the first apply of its time loop (nests
/// before the loop have grids of their own), else its first stencil.grid.
static GridOp getRegionGrid(func::FuncOp func) {
  GridOp grid;
  func.walk([&](IterateOp iterate) {
    for (auto apply : iterate.getBodyBlock()->getOps<ApplyOp>())
      if (!grid)
        grid = apply.getGridOp();
  });
  func.walk([&](GridOp op) {
    if (!grid)
      grid = op;
  });
  return grid;
}

/// Whether the time loop's fields are distributed across ranks.
static bool isDistributed(IterateOp iterate) {
  for (auto apply : iterate.getBodyBlock()->getOps<ApplyOp>())
    if (FieldType type = apply.getFirstFieldType())
      return type.isDistributed();
  return false;
}

std::string RegionSchedule::getKeys() const {
  std::string keys = "wg=";
  llvm::raw_string_ostream os(keys);
  llvm::interleave(workGroup, os, "x");
  os << ",t=" << timeBlock << ",nt=" << (streamingStores ? 1 : 0);
  return keys;
}

ScheduleOverrides RegionSchedule::getOverrides() const {
  ScheduleOverrides overrides;
  overrides.workGroup = workGroup;
  overrides.timeBlock = timeBlock;
  overrides.streamingStores = streamingStores;
  return overrides;
}

/// A region of `module`: its calc grid and time loop, or nulls.
static std::pair<GridOp, IterateOp> getScheduledRegion(func::FuncOp func) {
  GridOp grid = getRegionGrid(func);
  IterateOp iterate;
  func.walk([&](IterateOp op) { iterate = op; });
  if (!grid || !iterate || !iterate.getScheduleAttr())
    return {};
  return {grid, iterate};
}

/// The grid's extent in IR order (outermost first); INT64_MAX where known
/// only at run time.
static SmallVector<int64_t, 3> getExtent(GridOp grid) {
  SmallVector<int64_t, 3> extent;
  for (unsigned axis = 0; axis < grid.getRank(); ++axis)
    extent.push_back(grid.getStaticExtent(axis).value_or(
        std::numeric_limits<int64_t>::max()));
  return extent;
}

/// The schedule region `func` (its grid and time loop) has now.
static RegionSchedule describeRegion(func::FuncOp func, GridOp grid,
                                     IterateOp iterate) {
  ScheduleAttr schedule = iterate.getScheduleAttr();
  FailureOr<KernelProfile> profile = profileTimeLoop(iterate);
  return {func.getName().str(),
          SmallVector<int64_t, 3>(llvm::reverse(schedule.getWg())),
          schedule.getTimeBlock(),
          schedule.getExchangeDepth(),
          schedule.getStreamingStores(),
          SmallVector<int64_t, 3>(llvm::reverse(getExtent(grid))),
          succeeded(profile) && profile->canBlockInTime(),
          isDistributed(iterate)};
}

SmallVector<RegionSchedule> mlir::stencil::getRegionSchedules(ModuleOp module) {
  SmallVector<RegionSchedule> schedules;
  for (auto func : module.getOps<func::FuncOp>()) {
    auto [grid, iterate] = getScheduledRegion(func);
    if (grid)
      schedules.push_back(describeRegion(func, grid, iterate));
  }
  return schedules;
}

LogicalResult mlir::stencil::applyScheduleOverrides(
    ModuleOp module, const ScheduleOverrides &overrides, bool acrossRanks,
    SmallVectorImpl<RegionSchedule> &chosen, std::string &message) {
  return applyScheduleOverrides(
      module, [&](StringRef) { return &overrides; }, acrossRanks, chosen,
      message);
}

LogicalResult mlir::stencil::applyScheduleOverrides(
    ModuleOp module, const llvm::StringMap<ScheduleOverrides> &overrides,
    bool acrossRanks, SmallVectorImpl<RegionSchedule> &chosen,
    std::string &message) {
  return applyScheduleOverrides(
      module,
      [&](StringRef region) -> const ScheduleOverrides * {
        auto found = overrides.find(region);
        return found == overrides.end() ? nullptr : &found->second;
      },
      acrossRanks, chosen, message);
}

LogicalResult mlir::stencil::applyScheduleOverrides(
    ModuleOp module,
    function_ref<const ScheduleOverrides *(StringRef region)> overridesFor,
    bool acrossRanks, SmallVectorImpl<RegionSchedule> &chosen,
    std::string &message) {
  const ScheduleOverrides none;
  for (auto func : module.getOps<func::FuncOp>()) {
    auto [grid, iterate] = getScheduledRegion(func);
    if (!grid)
      continue;
    const ScheduleOverrides *given = overridesFor(func.getName());
    const ScheduleOverrides &overrides = given ? *given : none;
    unsigned rank = grid.getRank();
    // Extents known only at run time are not checked here: the program
    // checks its bounds on entry.
    SmallVector<int64_t, 3> extent = getExtent(grid);
    ScheduleAttr tuned = iterate.getScheduleAttr();
    // IR order is outermost first; the seed's (W, H, D) innermost first.
    SmallVector<int64_t, 3> wg(tuned.getWg());
    if (overrides.workGroup) {
      if (overrides.workGroup->size() != rank)
        return fail(message, "--schedule wg has " +
                                 Twine(overrides.workGroup->size()) +
                                 " sizes but region '" + func.getName() +
                                 "' is " + Twine(rank) + "-D");
      wg.assign(overrides.workGroup->rbegin(), overrides.workGroup->rend());
      for (unsigned axis = 0; axis < rank; ++axis)
        if (wg[axis] > extent[axis])
          return fail(message,
                      "--schedule wg: " + Twine(wg[axis]) + " points along " +
                          Twine("xyz"[rank - 1 - axis]) +
                          " exceed the grid of region '" + func.getName() +
                          "', which has " + Twine(extent[axis]));
    }
    // Without --mpi a distributed region runs as one process: its
    // exchanges are the identity and k has no effect.
    bool distributed = acrossRanks && isDistributed(iterate);
    int64_t timeBlock = overrides.timeBlock.value_or(tuned.getTimeBlock());
    int64_t exchangeDepth =
        overrides.exchangeDepth.value_or(tuned.getExchangeDepth());
    // The tuned k goes with the tuned T (stencil-tune-exchange-depth chose
    // them together); a T given alone gets halos as deep as its blocks.
    if (distributed && overrides.timeBlock && !overrides.exchangeDepth)
      exchangeDepth = timeBlock;
    if (distributed && timeBlock > exchangeDepth) {
      // A depth given alone bounds the tuned blocks.
      if (!overrides.timeBlock)
        timeBlock = exchangeDepth;
      else
        return fail(message, "--schedule: t=" + Twine(timeBlock) +
                                 " needs an exchange depth k of at least " +
                                 Twine(timeBlock) + " in region '" +
                                 func.getName() +
                                 "', whose fields are distributed (a time "
                                 "block reads T x radius cells of halo); "
                                 "k=" +
                                 Twine(exchangeDepth) + " given");
    }
    bool streamingStores =
        overrides.streamingStores.value_or(tuned.getStreamingStores());
    iterate.setScheduleAttr(ScheduleAttr::get(
        module.getContext(), wg, timeBlock, exchangeDepth, streamingStores));
    chosen.push_back(describeRegion(func, grid, iterate));
  }
  return success();
}

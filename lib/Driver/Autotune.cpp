//===- Autotune.cpp - Seed 000's empirical search, as a feature -----------===//

#include "Stencil/Driver/Autotune.h"

#include "Stencil/Dialect/Stencil/IR/StencilOps.h"
#include "Stencil/Support/CacheDirectory.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Host.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <thread>

extern char **environ;

using namespace mlir;
using namespace mlir::stencil;

llvm::StringMap<std::string> mlir::stencil::hashRegions(ModuleOp module) {
  llvm::StringMap<std::string> hashes;
  for (auto func : module.getOps<func::FuncOp>()) {
    bool hasTimeLoop = false;
    func.walk([&](IterateOp) { hasTimeLoop = true; });
    if (!hasTimeLoop)
      continue;
    // Printed without locations, so moving the region in its file keeps
    // the hash.
    std::string text;
    llvm::raw_string_ostream os(text);
    func.print(os);
    hashes[func.getName()] =
        llvm::utohexstr(llvm::xxh3_64bits(text), /*LowerCase=*/true,
                        /*Width=*/16);
  }
  return hashes;
}

std::string mlir::stencil::getAutotuneDeviceKey(StringRef target,
                                                StringRef device,
                                                bool contracted) {
  // Contracted regions compute, and may run, differently.
  std::string suffix = contracted ? "/contract" : "";
  std::string key = (target + "/" + device).str();
  if (target != "cpu" || device != "host")
    return key + suffix;
  // The best tile depends on the core count the program runs with.
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("OMP_NUM_THREADS")) {
    unsigned given;
    if (!StringRef(*env).split(',').first.trim().getAsInteger(10, given) &&
        given > 0)
      threads = given;
  }
  return key + "/" + llvm::sys::getHostCPUName().str() + "/" +
         std::to_string(threads) + "t" + suffix;
}

//===----------------------------------------------------------------------===//
// Candidates
//===----------------------------------------------------------------------===//

/// Appends `value` unless it is there already or equals `skip`.
static void addUnique(SmallVectorImpl<int64_t> &values, int64_t value,
                      int64_t skip) {
  if (value != skip && !llvm::is_contained(values, value))
    values.push_back(value);
}

SmallVector<RegionSchedule>
mlir::stencil::proposeTimeBlocks(const RegionSchedule &base) {
  if (!base.timeBlockable)
    return {};
  int64_t t = base.timeBlock;
  // Beyond 32 steps per block the halo work outgrows what reuse saves on
  // every grid bench/ measures; a static choice above it is still searched
  // around.
  int64_t maxDepth = std::max<int64_t>(32, std::min<int64_t>(2 * t, 64));
  SmallVector<int64_t> depths;
  // No blocking, the neighbours of the static depth, then a ladder by
  // distance from it on a log scale.
  for (int64_t depth : {int64_t(1), t - 1, t + 1, t / 2, 2 * t, t - 2, t + 2})
    if (depth >= 1 && depth <= maxDepth)
      addUnique(depths, depth, t);
  SmallVector<int64_t> ladder = {2, 3, 4, 6, 8, 12, 16, 24, 32};
  llvm::sort(ladder, [&](int64_t a, int64_t b) {
    return std::make_pair(std::abs(std::log2(double(a) / t)), a) <
           std::make_pair(std::abs(std::log2(double(b) / t)), b);
  });
  for (int64_t depth : ladder)
    if (depth <= maxDepth)
      addUnique(depths, depth, t);

  SmallVector<RegionSchedule> candidates;
  for (int64_t depth : depths) {
    RegionSchedule candidate = base;
    candidate.timeBlock = depth;
    candidates.push_back(candidate);
  }
  return candidates;
}

SmallVector<RegionSchedule>
mlir::stencil::proposeWorkGroups(const RegionSchedule &base,
                                 int64_t maxWorkGroupSize) {
  constexpr int64_t dynamic = std::numeric_limits<int64_t>::max();
  SmallVector<SmallVector<int64_t, 3>> shapes;
  auto add = [&](SmallVector<int64_t, 3> shape) {
    if (shape == base.workGroup || llvm::is_contained(shapes, shape))
      return;
    int64_t items = 1;
    for (unsigned axis = 0; axis < shape.size(); ++axis) {
      if (shape[axis] < 1 || shape[axis] > base.extent[axis])
        return;
      items *= shape[axis];
    }
    if (maxWorkGroupSize > 0 && items > maxWorkGroupSize)
      return;
    shapes.push_back(std::move(shape));
  };
  // Twice and half the static size along each axis, innermost first.
  for (unsigned axis = 0; axis < base.workGroup.size(); ++axis) {
    SmallVector<int64_t, 3> twice = base.workGroup, half = base.workGroup;
    twice[axis] *= 2;
    half[axis] /= 2;
    add(twice);
    add(half);
  }
  // Whole rows, and in 3-D whole planes, where the grid is known.
  SmallVector<int64_t, 3> shape = base.workGroup;
  for (unsigned axis = 0; axis + 1 < base.workGroup.size(); ++axis) {
    if (base.extent[axis] == dynamic)
      break;
    shape[axis] = base.extent[axis];
    add(shape);
  }

  SmallVector<RegionSchedule> candidates;
  for (SmallVector<int64_t, 3> &wg : shapes) {
    RegionSchedule candidate = base;
    candidate.workGroup = wg;
    candidates.push_back(candidate);
  }
  return candidates;
}

//===----------------------------------------------------------------------===//
// Timing the regions
//===----------------------------------------------------------------------===//

void mlir::stencil::instrumentRegionTiming(llvm::Module &module,
                                           ArrayRef<std::string> regions) {
  if (regions.empty())
    return;
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *f64 = llvm::Type::getDoubleTy(context);
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  llvm::Type *ptr = llvm::PointerType::getUnqual(context);
  llvm::FunctionCallee begin = module.getOrInsertFunction(
      "stencil_profile_begin", llvm::FunctionType::get(f64, false));
  llvm::FunctionCallee end = module.getOrInsertFunction(
      "stencil_profile_end",
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {i32, ptr, f64},
                              false));
  for (auto [index, name] : llvm::enumerate(regions)) {
    llvm::Function *region = module.getFunction(name);
    if (!region || region->isDeclaration())
      continue;
    // The host calls `name`: it becomes the timer around the region.
    region->setName(name + ".timed");
    region->setLinkage(llvm::GlobalValue::InternalLinkage);
    llvm::Function *timer = llvm::Function::Create(
        region->getFunctionType(), llvm::GlobalValue::ExternalLinkage, name,
        module);
    timer->setAttributes(region->getAttributes());
    llvm::IRBuilder<> builder(
        llvm::BasicBlock::Create(context, "entry", timer));
    llvm::Value *start = builder.CreateCall(begin);
    SmallVector<llvm::Value *> args(llvm::make_pointer_range(timer->args()));
    llvm::CallInst *call = builder.CreateCall(region, args);
    builder.CreateCall(end, {builder.getInt32(index),
                             builder.CreateGlobalString(name), start});
    if (call->getType()->isVoidTy())
      builder.CreateRetVoid();
    else
      builder.CreateRet(call);
  }
}

double CandidateTiming::getMedian() const {
  if (seconds.empty())
    return std::numeric_limits<double>::infinity();
  SmallVector<double> sorted(seconds);
  llvm::sort(sorted);
  size_t middle = sorted.size() / 2;
  return sorted.size() % 2 ? sorted[middle]
                           : 0.5 * (sorted[middle - 1] + sorted[middle]);
}

double CandidateTiming::getSpread() const {
  if (seconds.size() < 2)
    return 0;
  auto [min, max] = std::minmax_element(seconds.begin(), seconds.end());
  return (*max - *min) / getMedian();
}

//===----------------------------------------------------------------------===//
// The search
//===----------------------------------------------------------------------===//

namespace {

/// One program built for the search: the candidate of each region it
/// carries (indices into RegionTuning::candidates).
struct Executable {
  std::string path;
  SmallVector<size_t> picks;
  bool failed = false;
};

/// The search's state, shared by its stages.
class Search {
public:
  Search(ArrayRef<RegionSchedule> regions, AutotuneBuildFn build,
         StringRef workDir, const AutotuneOptions &options,
         SmallVectorImpl<RegionTuning> &results)
      : regions(regions), build(build), workDir(workDir), options(options),
        results(results), start(std::chrono::steady_clock::now()) {}

  LogicalResult run(std::string &message);

private:
  enum class Stage { TimeBlocks, WorkGroups, StreamingStores };

  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }
  bool fits(double seconds) const {
    return elapsed() + seconds <= options.budgetSeconds;
  }
  size_t findOrAdd(size_t region, const RegionSchedule &schedule);
  Executable *getExecutable(ArrayRef<size_t> picks, std::string &failure);
  bool runExecutable(Executable &executable, std::string &failure);
  /// Runs one stage, building what fits before `stageEnd` (seconds from
  /// the start).
  void runStage(Stage stage, double stageEnd);
  void drawProgress(StringRef what);
  /// Runs each program of `programs` not failed or dropped once; false
  /// when the budget ran out.
  bool runRound(ArrayRef<Executable *> programs, unsigned round,
                const llvm::SmallPtrSetImpl<Executable *> &dropped);
  /// Runs a batch of programs, the incumbents' first, in rounds.
  void runRounds(ArrayRef<Executable *> batch, double stageEnd);
  /// Records that a run of `executable` failed.
  void markFailed(Executable &executable, StringRef failure);
  /// Makes each region's fastest candidate its incumbent.
  void chooseIncumbents();
  /// Spends the budget left on more runs of the closest contenders.
  void refine();

  ArrayRef<RegionSchedule> regions;
  AutotuneBuildFn build;
  std::string workDir;
  const AutotuneOptions &options;
  SmallVectorImpl<RegionTuning> &results;
  std::chrono::steady_clock::time_point start;
  /// The built programs, by their picks.
  std::map<SmallVector<size_t>, Executable> executables;
  /// The current best candidate of each region.
  SmallVector<size_t> incumbent;
  /// Estimates from what was measured: one build, one run.
  double buildSeconds = 0, runSeconds = 0;
  unsigned builds = 0, runs = 0;
};

} // namespace

size_t Search::findOrAdd(size_t region, const RegionSchedule &schedule) {
  std::vector<CandidateTiming> &candidates = results[region].candidates;
  std::string keys = schedule.getKeys();
  for (auto [index, candidate] : llvm::enumerate(candidates))
    if (candidate.schedule.getKeys() == keys)
      return index;
  candidates.push_back({schedule, {}, {}});
  return candidates.size() - 1;
}

Executable *Search::getExecutable(ArrayRef<size_t> picks,
                                  std::string &failure) {
  SmallVector<size_t> key(picks);
  auto found = executables.find(key);
  if (found != executables.end())
    return found->second.failed ? nullptr : &found->second;
  SmallVector<RegionSchedule> schedules;
  for (auto [region, pick] : llvm::enumerate(picks))
    schedules.push_back(results[region].candidates[pick].schedule);
  SmallString<128> path(workDir);
  llvm::sys::path::append(path, "candidate" + std::to_string(builds));
  drawProgress("building");
  ++builds;
  auto buildStart = std::chrono::steady_clock::now();
  Executable &executable = executables[key];
  executable.path = std::string(path);
  executable.picks = key;
  failure.clear();
  executable.failed = !build(schedules, path, failure);
  buildSeconds = std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - buildStart)
                     .count();
  return executable.failed ? nullptr : &executable;
}

bool Search::runExecutable(Executable &executable, std::string &failure) {
  SmallString<128> profile(workDir), errors(workDir);
  llvm::sys::path::append(profile, "profile.txt");
  llvm::sys::path::append(errors, "stderr.txt");
  llvm::sys::fs::remove(profile);
  std::vector<std::string> environment;
  for (char **entry = environ; *entry; ++entry)
    if (!StringRef(*entry).starts_with("STENCIL_PROFILE="))
      environment.push_back(*entry);
  environment.push_back("STENCIL_PROFILE=" + std::string(profile));
  SmallVector<StringRef> env(environment.begin(), environment.end());
  SmallVector<StringRef> argv = {executable.path};
  for (const std::string &arg : options.runArgs)
    argv.push_back(arg);
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(""),
                                          StringRef(errors)};
  // The first run may take the budget; later ones, ten times the slowest
  // run so far (a candidate that slow is not worth waiting for) within
  // what is left of the budget.
  double left = std::max(0.0, options.budgetSeconds - elapsed());
  unsigned wait = runs == 0 ? unsigned(std::max(60.0, options.budgetSeconds))
                            : unsigned(std::ceil(std::min(
                                  std::max(30.0, 10 * runSeconds), left + 10)));
  drawProgress("running");
  auto runStart = std::chrono::steady_clock::now();
  std::string error;
  int status = llvm::sys::ExecuteAndWait(executable.path, argv, env, redirects,
                                         wait, 0, &error);
  double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart)
          .count();
  ++runs;
  if (status != 0) {
    std::string firstLine;
    if (auto text = llvm::MemoryBuffer::getFile(errors))
      firstLine = (*text)->getBuffer().split('\n').first.str();
    // -2 is a crash or the time limit; the limit leaves no message. -1
    // includes exit status 127, which is also how the loader says a shared
    // library (libcuda.so.1 without a driver) is missing: stderr says which.
    bool timedOut = status == -2 && wall + 0.5 >= wait;
    failure = timedOut     ? "ran longer than " + std::to_string(wait) + " s"
              : status < 0 ? "did not finish: " + error
                           : "exited with status " + std::to_string(status);
    if (!timedOut && !firstLine.empty())
      failure += ": " + firstLine;
    return false;
  }
  runSeconds = std::max(runSeconds, wall);
  // No file: no region ran (or the program left through _exit, which
  // skips the runtime's exit handler).
  auto text = llvm::MemoryBuffer::getFile(profile);
  if (!text)
    return true;
  llvm::StringMap<double> seconds;
  SmallVector<StringRef> lines;
  (*text)->getBuffer().split(lines, '\n', -1, false);
  for (StringRef line : lines) {
    SmallVector<StringRef, 3> fields;
    line.split(fields, ' ');
    double value;
    if (fields.size() == 3 && !fields[1].getAsDouble(value))
      seconds[fields[0]] = value;
  }
  for (auto [region, pick] : llvm::enumerate(executable.picks)) {
    auto found = seconds.find(regions[region].region);
    if (found == seconds.end())
      continue;
    results[region].candidates[pick].seconds.push_back(found->second);
    results[region].ran = true;
  }
  return true;
}

void Search::markFailed(Executable &executable, StringRef failure) {
  // Any failed run disqualifies every schedule the program carries: a
  // schedule that crashes now and then must not be compiled in.
  executable.failed = true;
  for (auto [region, pick] : llvm::enumerate(executable.picks))
    results[region].candidates[pick].failure = failure.str();
}

void Search::chooseIncumbents() {
  // A candidate is compared on as many runs as the incumbent had, up to
  // three, so that one lucky run does not win. Failed candidates are out;
  // the static schedule is the fallback.
  for (size_t region = 0; region < regions.size(); ++region) {
    std::vector<CandidateTiming> &candidates = results[region].candidates;
    if (!candidates[incumbent[region]].failure.empty())
      incumbent[region] = 0;
    size_t needed =
        std::min<size_t>(3, candidates[incumbent[region]].seconds.size());
    for (auto [index, candidate] : llvm::enumerate(candidates))
      if (candidate.failure.empty() && candidate.seconds.size() >= needed &&
          candidate.getMedian() < candidates[incumbent[region]].getMedian())
        incumbent[region] = index;
  }
}

void Search::refine() {
  // The programs carrying the static schedules or a candidate within 10%
  // of its region's best, which noise could reorder.
  SmallVector<Executable *> contenders;
  for (auto &[picks, executable] : executables) {
    if (executable.failed)
      continue;
    bool contender = llvm::all_of(picks, [](size_t pick) { return pick == 0; });
    for (auto [region, pick] : llvm::enumerate(picks)) {
      const std::vector<CandidateTiming> &candidates =
          results[region].candidates;
      contender |= !candidates[pick].seconds.empty() &&
                   candidates[pick].getMedian() <=
                       1.1 * candidates[incumbent[region]].getMedian();
    }
    if (contender)
      contenders.push_back(&executable);
  }
  if (contenders.size() < 2)
    return;
  // More rounds while the budget lasts, up to three times the usual runs.
  llvm::SmallPtrSet<Executable *, 1> none;
  for (unsigned round = 0; round < 2 * options.runsPerCandidate; ++round)
    if (!runRound(contenders, round, none))
      return;
}

bool Search::runRound(ArrayRef<Executable *> programs, unsigned round,
                      const llvm::SmallPtrSetImpl<Executable *> &dropped) {
  // Each program once, the order rotated by the round, so that the
  // machine's drift is shared out.
  for (size_t i = 0; i < programs.size(); ++i) {
    Executable *executable = programs[(i + round) % programs.size()];
    if (executable->failed || dropped.contains(executable))
      continue;
    if (!fits(runSeconds))
      return false;
    std::string failure;
    if (!runExecutable(*executable, failure))
      markFailed(*executable, failure);
  }
  return true;
}

void Search::drawProgress(StringRef what) {
  if (!options.progress)
    return;
  constexpr int width = 30;
  double fraction = std::min(1.0, elapsed() / options.budgetSeconds);
  int filled = int(fraction * width);
  llvm::errs() << "\rstencilcc: autotune [" << std::string(filled, '#')
               << std::string(width - filled, '.') << "] "
               << llvm::format("%3.0f", fraction * 100) << "% "
               << llvm::format("%.0f/%.0f s", elapsed(), options.budgetSeconds)
               << ", " << builds << " built, " << runs << " runs, " << what
               << "   ";
}

void Search::runStage(Stage stage, double stageEnd) {
  // Each region's proposals around its incumbent, not yet tried.
  SmallVector<SmallVector<size_t>> lists(regions.size());
  size_t width = 0;
  for (size_t region = 0; region < regions.size(); ++region) {
    if (!results[region].ran)
      continue;
    const RegionSchedule &base =
        results[region].candidates[incumbent[region]].schedule;
    SmallVector<RegionSchedule> proposals;
    if (stage == Stage::TimeBlocks)
      proposals = proposeTimeBlocks(base);
    else if (stage == Stage::WorkGroups)
      proposals = proposeWorkGroups(base, options.maxWorkGroupSize);
    else if (base.timeBlock == 1) {
      // Streaming stores change only the sweeps outside time blocks.
      RegionSchedule toggled = base;
      toggled.streamingStores = !base.streamingStores;
      proposals.push_back(toggled);
    }
    for (const RegionSchedule &proposal : proposals) {
      size_t index = findOrAdd(region, proposal);
      const CandidateTiming &candidate = results[region].candidates[index];
      if (candidate.seconds.empty() && candidate.failure.empty())
        lists[region].push_back(index);
    }
    width = std::max(width, lists[region].size());
  }
  if (width == 0)
    return;

  // Batches of programs: the incumbents' first, then ones carrying each
  // region's k-th proposal, as many as the stage's share of the budget
  // can build and run three times; each batch is run in rounds before the
  // next is built, so that time freed by dropping slow candidates goes to
  // building more.
  unsigned rounds = std::min(3u, options.runsPerCandidate);
  size_t k = 0;
  while (k < width && elapsed() < stageEnd) {
    SmallVector<Executable *> batch;
    std::string failure;
    if (Executable *incumbents = getExecutable(incumbent, failure))
      batch.push_back(incumbents);
    for (; k < width; ++k) {
      if (!fits(buildSeconds + runSeconds) ||
          (batch.size() > 1 &&
           elapsed() + buildSeconds + (batch.size() + 1) * rounds * runSeconds >
               stageEnd))
        break;
      SmallVector<size_t> picks(incumbent);
      for (size_t region = 0; region < regions.size(); ++region)
        if (k < lists[region].size())
          picks[region] = lists[region][k];
      Executable *executable = getExecutable(picks, failure);
      if (!executable) {
        for (auto [region, pick] : llvm::enumerate(picks))
          if (pick != incumbent[region])
            results[region].candidates[pick].failure =
                "does not build: " + failure;
        continue;
      }
      batch.push_back(executable);
    }
    if (batch.size() < 2)
      return;
    runRounds(batch, stageEnd);
  }
}

void Search::runRounds(ArrayRef<Executable *> batch, double stageEnd) {
  // Three rounds whatever the stage's share, the rest as it allows.
  llvm::SmallPtrSet<Executable *, 16> dropped;
  for (unsigned round = 0; round < options.runsPerCandidate; ++round) {
    if ((round >= 3 && elapsed() > stageEnd) ||
        !runRound(batch, round, dropped))
      return;
    // After two rounds, a program slower by 30% for every region it
    // carries is dropped, so the budget goes to the contenders.
    if (round != 1)
      continue;
    SmallVector<double> bestMedian(regions.size(),
                                   std::numeric_limits<double>::infinity());
    for (Executable *executable : batch)
      for (auto [region, pick] : llvm::enumerate(executable->picks))
        bestMedian[region] = std::min(
            bestMedian[region], results[region].candidates[pick].getMedian());
    for (Executable *executable : batch) {
      // Judged by the candidates it carries: a region's incumbent in it
      // (where that region has fewer proposals) does not keep it.
      bool contender = executable == batch.front();
      for (auto [region, pick] : llvm::enumerate(executable->picks))
        contender |= pick != incumbent[region] &&
                     results[region].candidates[pick].getMedian() <=
                         1.3 * bestMedian[region];
      if (!contender)
        dropped.insert(executable);
    }
  }
}

LogicalResult Search::run(std::string &message) {
  // The bar's line is erased however the search ends.
  llvm::scope_exit clearProgress([&] {
    if (options.progress)
      llvm::errs() << "\r\x1b[K";
  });
  for (const RegionSchedule &region : regions) {
    RegionTuning &tuning = results.emplace_back();
    tuning.tuned = region;
    tuning.candidates.push_back({region, {}, {}});
  }
  incumbent.assign(regions.size(), 0);
  std::string why;
  Executable *tuned = getExecutable(incumbent, why);
  if (!tuned) {
    message = "the program does not build with its static schedule: " + why;
    return mlir::failure();
  }
  if (!runExecutable(*tuned, why)) {
    message = "the program " + why;
    return mlir::failure();
  }

  // Each stage may use this share of the time left; what it leaves goes
  // to the next.
  std::pair<Stage, double> stages[] = {{Stage::TimeBlocks, 0.5},
                                       {Stage::WorkGroups, 0.85},
                                       {Stage::StreamingStores, 1.0}};
  for (auto [stage, share] : stages) {
    if (stage == Stage::StreamingStores && !options.cpu)
      continue;
    runStage(stage, elapsed() + share * (options.budgetSeconds - elapsed()));
    chooseIncumbents();
  }
  refine();
  chooseIncumbents();
  for (size_t region = 0; region < regions.size(); ++region)
    results[region].best = incumbent[region];
  return success();
}

LogicalResult mlir::stencil::autotune(ArrayRef<RegionSchedule> regions,
                                      AutotuneBuildFn build, StringRef workDir,
                                      const AutotuneOptions &options,
                                      SmallVectorImpl<RegionTuning> &results,
                                      std::string &message) {
  return Search(regions, build, workDir, options, results).run(message);
}

void mlir::stencil::printAutotuneTable(raw_ostream &os,
                                       const RegionTuning &tuning) {
  const std::vector<CandidateTiming> &candidates = tuning.candidates;
  double reference = candidates.front().getMedian();
  os << "stencilcc: autotune: region '" << tuning.tuned.region << "'\n";
  os << llvm::format("  %-32s %12s %8s %5s %9s\n", "schedule", "median ms",
                     "spread", "runs", "speed-up");
  // Fastest first; candidates without a time last, in the order tried.
  SmallVector<size_t> order =
      llvm::to_vector(llvm::seq<size_t>(0, candidates.size()));
  llvm::sort(order, [&](size_t a, size_t b) {
    return std::make_pair(candidates[a].getMedian(), a) <
           std::make_pair(candidates[b].getMedian(), b);
  });
  for (size_t index : order) {
    const CandidateTiming &candidate = candidates[index];
    std::string name = candidate.schedule.getKeys();
    StringRef tag = index == tuning.best && index == 0 ? "[static, best]"
                    : index == tuning.best             ? "[best]"
                    : index == 0                       ? "[static]"
                                                       : "";
    if (candidate.seconds.empty()) {
      os << llvm::format("  %-32s %12s %8s %5d %9s", name.c_str(), "-", "-", 0,
                         "-");
      os << "  "
         << (candidate.failure.empty() ? "not run (budget)"
                                       : StringRef(candidate.failure))
         << "\n";
      continue;
    }
    os << llvm::format("  %-32s %12.3f %7.1f%% %5zu %8.3fx", name.c_str(),
                       candidate.getMedian() * 1e3, candidate.getSpread() * 100,
                       candidate.seconds.size(),
                       reference / candidate.getMedian());
    if (!tag.empty())
      os << "  " << tag;
    if (!candidate.failure.empty())
      os << "  failed: " << candidate.failure;
    os << "\n";
  }
}

//===----------------------------------------------------------------------===//
// The cache
//===----------------------------------------------------------------------===//

std::string ScheduleCache::getDefaultPath() {
  return getCachePath("schedules.json");
}

/// Reads one entry; false when a field is missing or of the wrong kind.
static bool readEntry(const llvm::json::Object &object,
                      ScheduleCache::Entry &entry) {
  auto string = [&](StringRef key, std::string &into) {
    std::optional<StringRef> value = object.getString(key);
    if (value)
      into = value->str();
    return value.has_value();
  };
  const llvm::json::Array *wg = object.getArray("wg");
  std::optional<int64_t> timeBlock = object.getInteger("time_block");
  std::optional<bool> streaming = object.getBoolean("streaming_stores");
  if (!string("region", entry.region) || !string("hash", entry.hash) ||
      !string("device", entry.device) || !wg || wg->empty() || wg->size() > 3 ||
      !timeBlock || *timeBlock < 1 || !streaming)
    return false;
  for (const llvm::json::Value &size : *wg) {
    std::optional<int64_t> value = size.getAsInteger();
    if (!value || *value < 1)
      return false;
    entry.schedule.workGroup.push_back(*value);
  }
  entry.schedule.region = entry.region;
  entry.schedule.timeBlock = *timeBlock;
  entry.schedule.exchangeDepth = 1;
  entry.schedule.streamingStores = *streaming;
  entry.seconds = object.getNumber("seconds").value_or(0);
  entry.staticSeconds = object.getNumber("static_seconds").value_or(0);
  string("run_args", entry.runArgs);
  return true;
}

LogicalResult ScheduleCache::load(StringRef cachePath, std::string &message) {
  path = cachePath.str();
  entries.clear();
  if (!llvm::sys::fs::exists(path))
    return success();
  auto text = llvm::MemoryBuffer::getFile(path);
  if (!text) {
    message = "cannot read '" + path + "': " + text.getError().message();
    return failure();
  }
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse((*text)->getBuffer());
  if (!parsed) {
    message = "'" + path + "' is not JSON (" +
              llvm::toString(parsed.takeError()) +
              "); remove it to start a new schedule cache";
    return failure();
  }
  const llvm::json::Object *root = parsed->getAsObject();
  const llvm::json::Array *list = root ? root->getArray("schedules") : nullptr;
  if (!root || root->getInteger("version") != 1 || !list) {
    message = "'" + path +
              "' is not a version-1 schedule cache (an object with "
              "\"version\": 1 and \"schedules\"); remove it to start a new "
              "one";
    return failure();
  }
  std::vector<Entry> read;
  for (auto [index, value] : llvm::enumerate(*list)) {
    Entry entry;
    const llvm::json::Object *object = value.getAsObject();
    if (!object || !readEntry(*object, entry)) {
      message = "'" + path + "': schedule " + std::to_string(index) +
                " lacks region, hash, device, wg, time_block or "
                "streaming_stores; remove the file to start a new cache";
      return failure();
    }
    read.push_back(std::move(entry));
  }
  entries = std::move(read);
  return success();
}

LogicalResult ScheduleCache::save(std::string &message) const {
  llvm::json::Array list;
  for (const Entry &entry : entries) {
    llvm::json::Array wg;
    for (int64_t size : entry.schedule.workGroup)
      wg.push_back(size);
    list.push_back(
        llvm::json::Object{{"region", entry.region},
                           {"hash", entry.hash},
                           {"device", entry.device},
                           {"wg", std::move(wg)},
                           {"time_block", entry.schedule.timeBlock},
                           {"streaming_stores", entry.schedule.streamingStores},
                           {"seconds", entry.seconds},
                           {"static_seconds", entry.staticSeconds},
                           {"run_args", entry.runArgs}});
  }
  llvm::json::Value root =
      llvm::json::Object{{"version", 1}, {"schedules", std::move(list)}};

  StringRef dir = llvm::sys::path::parent_path(path);
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    message = "cannot create '" + dir.str() + "': " + ec.message();
    return failure();
  }
  // Written beside it and renamed, so that a compile reading it meanwhile
  // sees the old cache or the new one, never half of one.
  SmallString<128> temp;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueFile(path + ".%%%%%%", fd, temp)) {
    message = "cannot write beside '" + path + "': " + ec.message();
    return failure();
  }
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << llvm::formatv("{0:2}", root) << "\n";
  os.close();
  if (os.has_error()) {
    message =
        "cannot write '" + temp.str().str() + "': " + os.error().message();
    os.clear_error();
    llvm::sys::fs::remove(temp);
    return failure();
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    message = "cannot write '" + path + "': " + ec.message();
    return failure();
  }
  return success();
}

const ScheduleCache::Entry *ScheduleCache::lookup(StringRef hash,
                                                  StringRef device) const {
  for (const Entry &entry : entries)
    if (entry.hash == hash && entry.device == device)
      return &entry;
  return nullptr;
}

void ScheduleCache::store(Entry entry) {
  for (Entry &existing : entries)
    if (existing.hash == entry.hash && existing.device == entry.device) {
      existing = std::move(entry);
      return;
    }
  entries.push_back(std::move(entry));
}

//===- TuneWorkGroup.cpp - Seed 000's static work-group/time-block rules --===//
//
// The parameter vector (W, H, D, T) — work-group sizes along x (innermost),
// y, z and the time-block depth — grows from (1, 1, 1, 1), one direction at
// a time in an order that depends on the device kind, while three
// conditions hold (seed 000 §3.2):
//   (a) the tile, the work group plus the halo that grows with T (Fig. 3),
//       fits the on-chip memory one work group may use;
//   (b) the algorithm's B/F stays at or above the system's, i.e. the loop
//       stays memory-bound, and the extra step still lowers the predicted
//       time per useful point and step (the paper's "redundant computation
//       grows sharply"; checked when T grows);
//   (c) at least the device's minimum number of work groups remain
//       (checked when the work group grows).
// On CPUs the tile then trades rows for steps, and merges work groups
// along the outer axes, below that minimum, where the model prices the
// whole machine (the busiest core's share of the groups counted) lower.
// A candidate that fails takes its direction out of the evolution vector;
// the search ends when no direction is left. docs/Tuning.md gives the
// reading of the paper behind each rule.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Support/PipelinedRows.h"
#include "Stencil/Tuning/KernelProfile.h"
#include "Stencil/Tuning/Passes.h"
#include "Stencil/Tuning/TargetDescription.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILTUNEWORKGROUP
#include "Stencil/Tuning/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {

enum Direction { X = 0, Y = 1, Z = 2, T = 3 };
/// The least relative saving per point and step that one more step of a
/// time block must bring.
constexpr double kMinTimeBlockGain = 0.001;
/// The deepest time block considered: beyond it the model's gains are far
/// below its precision on every grid bench/ measures.
constexpr int64_t kMaxTimeBlock = 256;
/// The most fields a sweep streams at the last-level cache's rate
/// (`streamsAtLastLevelRate`): every seed program but Himeno (14) streams
/// two; none between was measured, and four is as many as the host
/// lowering prefetches in software (`kMaxPrefetchedStreams`, Prefetch.cpp,
/// where many streams measured slower for a like reason).
constexpr int64_t kMaxLastLevelStreams = 4;
/// Bytes a core copies within its own cache (L2) per cycle, where the
/// description does not give the rate: the host probe's copy on the 2-core
/// AVX-512 Xeon VM, 177-202 GB/s at 3.6-3.8 GHz (two cores), 24-27 bytes a
/// cycle, with the probe's loop of 16-byte vectors; the model charges the
/// rows a time block reads again there at this rate (getRereads).
constexpr double kOnchipBytesPerCycle = 24.0;
/// Where a time block's later steps read the fields nobody writes again.
enum class RereadLevel { None, Onchip, LastLevel, Memory };
/// What a pipelined block's later steps pay to read the read-only fields
/// again: per step, indexed by the steps of halo left (the last step
/// first), the memory bytes a byte costs; where the misses go; and the
/// share the last step (whose window is the largest) misses.
struct RereadWeights {
  SmallVector<double> weights;
  RereadLevel level = RereadLevel::None;
  double missed = 0.0;
};
/// Where a pipelined block's rings live: in the core's own cache (the
/// tile budget), or beyond it in the last-level cache, whose traffic the
/// cost then charges; a tile that fits neither is not a candidate.
enum class RingLevel { Onchip, LastLevel, None };
const char *const directionNames[] = {"x", "y", "z", "t"};

/// (W, H, D, T); sizes indexed x, y, z (x innermost).
struct ParameterVector {
  int64_t size[3] = {1, 1, 1};
  int64_t timeBlock = 1;
};

class WorkGroupTuner {
public:
  WorkGroupTuner(const KernelProfile &profile, const TargetDescription &target,
                 bool acrossRanks)
      : profile(profile), target(target), acrossRanks(acrossRanks),
        systemBF(target.getSystemBF(profile.isDouble)) {
    // Axis d of the seed (x, y, z) is axis rank-1-d of the IR.
    for (unsigned d = 0; d < 3; ++d) {
      bool present = d < profile.rank;
      unsigned axis = profile.rank - 1 - d;
      extent[d] = present ? profile.extent[axis] : 1;
      radius[d] =
          present ? profile.radiusLow[axis] + profile.radiusHigh[axis] : 0;
    }
  }

  ParameterVector run();
  /// The time block in steps: T, or for a sweep chain the whole steps in
  /// T levels.
  int64_t getTimeBlockSteps() const {
    return std::max<int64_t>(1, current.timeBlock / profile.levelsPerStep);
  }
  /// One line per direction: how far it grew and why it stopped; where the
  /// later steps of a block read the read-only fields.
  std::string explain() const;
  double getAlgorithmBF(const ParameterVector &pv) const;
  /// Whether CPU sweeps without time blocking should write with streaming
  /// (non-temporal) stores, and why.
  bool useStreamingStores(std::string &why) const;
  /// Roofline time per useful point and step, in units of 1/bandwidth.
  double getCostPerPointStep(const ParameterVector &pv) const;

private:
  /// The next candidate and the direction it grows, or nothing when the
  /// evolution vector is empty.
  std::optional<std::pair<Direction, ParameterVector>>
  propose(const ParameterVector &pv);
  /// Why a candidate is not acceptable. `byCost`: the model prices it
  /// above the schedule it grew from, which a larger tile may change.
  struct Rejection {
    Rejection(std::string reason, bool byCost = false)
        : reason(std::move(reason)), byCost(byCost) {}
    std::string reason;
    bool byCost;
  };
  /// Why `candidate`, grown along `direction` from `grownFrom` (`current`
  /// if not given), is not acceptable, if it is not; fewer work groups
  /// than `minWorkGroups` (the target's if not given) are not.
  std::optional<Rejection>
  reject(const ParameterVector &candidate, Direction direction,
         std::optional<int64_t> minWorkGroups = std::nullopt,
         const ParameterVector *grownFrom = nullptr) const;
  /// How much longer than an even share of the work the busiest core
  /// computes: 1 where the work groups divide evenly among the cores.
  double getLoadImbalance(const ParameterVector &pv) const;
  /// The cost per point and step of the whole machine: a tile's, times the
  /// busiest core's share on a CPU.
  double getMachineCost(const ParameterVector &pv) const {
    return getCostPerPointStep(pv) * getLoadImbalance(pv);
  }
  /// After the growth: trade half of an axis for deeper time blocks, or
  /// twice for shallower ones, where the model says it pays; then grow the
  /// other axes as far as the work groups the trade freed allow.
  void tradeRowsForSteps();
  /// The tile a trade along `traded` leads to: y and z (not the traded
  /// axis) doubled in turn as far as the growth's rules allow, each step
  /// judged against the tile it grew from. Where `stopReasons` is given
  /// (indexed by direction), it records why each axis that grew stopped.
  ParameterVector
  growAfterTrade(ParameterVector pv, Direction traded,
                 MutableArrayRef<std::string> stopReasons = {}) const;
  /// Last on CPUs: grow the outer axes past the growth's floor on work
  /// groups, each step twice or the rest of the axis, while the whole
  /// machine's cost falls.
  void mergeWorkGroups();

  int64_t volume(const ParameterVector &pv, int64_t haloSteps) const {
    int64_t points = 1;
    for (unsigned d = 0; d < 3; ++d)
      points *= pv.size[d] + radius[d] * haloSteps;
    return points;
  }
  /// Whether the device overlaps memory traffic with computation well
  /// enough that the slower of the two bounds a sweep (the roofline the
  /// seed's B/F rule assumes). On CPUs the measured times of time blocks
  /// follow the sum instead: they keep paying after the B/F rule calls the
  /// loop compute-bound.
  bool overlapsMemory() const { return target.kind != "cpu"; }
  /// Whether the cost of `pv` is the slower of its memory traffic and its
  /// computation rather than their sum: where the device overlaps them,
  /// and for a plain sweep (T = 1) of a 2-D or 3-D grid on a CPU, whose
  /// rows stream through the hardware prefetchers while the core computes.
  /// A pipelined block computes most of its levels from the cache, between
  /// the first level's reads and the last level's writes, so there the two
  /// add. heat3d-2sweep (f64, 15 operations a point) on a 73 GB/s host:
  /// its sweep ran 2.9-3.0 G points/s, memory-bound, and the block of T = 2
  /// that the sum preferred 2.27 (docs/Tuning.md, "A plain sweep
  /// overlaps").
  bool overlapsMemory(const ParameterVector &pv) const {
    return overlapsMemory() ||
           (target.kind == "cpu" && profile.rank >= 2 && pv.timeBlock == 1);
  }
  /// Whether the backend runs time blocks as pipelined rows (the CPU
  /// backend on 2-D and 3-D grids, PipelinedTimeBlock.cpp) rather than as
  /// overlapped tiles held whole on chip.
  bool isPipelined(const ParameterVector &pv) const {
    return target.kind == "cpu" && profile.rank >= 2 && pv.timeBlock > 1;
  }
  /// 1-D CPU tiles compute their time blocks in two private buffers that
  /// every step sweeps; measured, they run fastest when those stay in L1
  /// (docs/Tuning.md). The tile is one OpenMP task with or without time
  /// blocks, so the bound holds for T = 1 as well.
  bool usesL1() const {
    return target.kind == "cpu" && profile.rank == 1 && target.l1Bytes > 0;
  }
  int64_t getOnchipBudget() const {
    if (usesL1())
      return target.l1Bytes;
    return target.kind == "gpu" ? target.getKernelWorkgroupBytes()
                                : target.onchipBytes;
  }
  /// What a tile may hold of the on-chip budget. Pipelined rings share the
  /// core's cache with the rows streamed in and out and the lines the
  /// hardware prefetchers bring, so they get three fifths of it: on a 1 MiB
  /// L2, heat2d's rings of 22 levels ran 6% slower on 2046-point rows (73%
  /// of L2) than on 1023-point rows (37%), and jacobi-2d's 999-point rows
  /// 5% slower at 22 levels (70%) than at 16 (50%); but jacobi-2d ran 7%
  /// faster at 18 levels (56%) than at 14 (44%), and heat3d 6-8% faster on
  /// (254, 32, 128, T = 4) (52%) than on (254, 16, 128, 5) (42%), both of
  /// which half of L2 refused (docs/Tuning.md).
  int64_t getTileBudget(const ParameterVector &pv) const {
    if (isPipelined(pv))
      return getOnchipBudget() * 3 / 5;
    return getOnchipBudget();
  }
  int64_t tileBytes(const ParameterVector &pv) const {
    if (!isPipelined(pv))
      return volume(pv, pv.timeBlock) * profile.getTileFields() *
             profile.elementBytes;
    // On chip: per step before the last, the rows the next step reads (the
    // radius and the rows of a wave), for each field read off-centre; as
    // many rows of each such field the first step reads; and the wave's
    // rows of the fields read at the point only or written, which stream
    // through (the rows of the read-only fields that later steps read again
    // are getRereads' part). A row is the tile's extent along the inner
    // axes plus halo.
    unsigned rowAxis = profile.rank - 1;
    int64_t wave = getPipelinedRowsPerWave(profile.rank);
    int64_t rows = radius[rowAxis] + wave;
    // Where the rows are pieces of the grid's, the first level asks for
    // the sources' rows of the next two waves ahead (PipelinedRows.h). The
    // budget's other two fifths were fitted where those were the rows of a
    // carried field or two; the read-only fields, which no ring holds, may
    // be many, and their rows ahead are counted: Himeno's twelve on
    // 255 x 32 rows take 0.9 MiB. (255, 16, 127, 3), which that leaves,
    // ran 26.2 GFLOP/s against 24.4 for (255, 32, 127, 3), 9 alternated
    // runs on two cores of 2 MiB L2 each.
    int64_t ahead = 0;
    if (!spansInnerAxes(pv))
      ahead = profile.getNumCentreOnlyInputs() *
              getPipelinedRowsAhead(/*isWrite=*/false);
    return getRowPoints(pv) *
           (profile.numHaloArrays * pv.timeBlock * rows +
            (profile.numArrays - profile.numHaloArrays) * wave + ahead) *
           profile.elementBytes;
  }
  /// Whether a tile spans the grid along every axis but the outermost:
  /// its rows are then whole rows of the grid, end to end in memory.
  bool spansInnerAxes(const ParameterVector &pv) const {
    for (unsigned d = 0; d + 1 < profile.rank; ++d)
      if (pv.size[d] < extent[d])
        return false;
    return true;
  }
  /// What the later steps of a pipelined block pay to read again the rows
  /// of the read-only fields the first step read, one weight per step as
  /// `tileTraffic` indexes them (by the steps of halo left: the last step
  /// first).
  ///
  /// Step s computes the row (s - 1) x radiusHigh rows behind the first
  /// step's (PipelinedTimeBlock.cpp). Between the first step's read of a
  /// row and step s's, the core touches the tile (`tileBytes`: rings,
  /// streamed rows, rows asked for ahead) and that many more rows of every
  /// read-only field: the step's window. Of a window larger than its
  /// cache, the core's cache is taken to hold the share of its size over
  /// the window's, as a cache that keeps a random part of what passed
  /// through it would; the rest comes from the last-level cache at its
  /// rate, where every core's window fits in it, else from memory. What
  /// the core's cache holds costs its own rate (getOnchipBandwidth).
  ///
  /// Himeno M on (255, 16, 127) with 2 MiB of L2 a core: the last step's
  /// window is 1.5 MiB at T = 3, 2.05 at T = 4, 2.6 at T = 5 and 3.3 at
  /// T = 6, which ran 31.2, 32.0, 30.3 and 26.5 GFLOP/s (60 steps, two
  /// cores). Before 2026-12-07 a block's rereads all counted at the rate
  /// of the last step's, each row lagging by the stencil's extent (low +
  /// high radius) rather than its high radius, and a window beyond three
  /// fifths of L2 missed whole: every reread from T = 2 on came from the
  /// L3, and the tuner took T = 3. With misses alone priced, rows that
  /// stay on chip are free, and thin tiles won: (255, 8, 127, 5), which ran
  /// 27.4 GFLOP/s against 32.2 for (255, 16, 127, 4) (20 steps); each
  /// reread moves Himeno's 48 bytes a point, which L2 does not deliver for
  /// free.
  RereadWeights getRereads(const ParameterVector &pv) const {
    RereadWeights rereads;
    int64_t readOnly = profile.getNumCentreOnlyInputs();
    if (!isPipelined(pv) || readOnly == 0)
      return rereads;
    int64_t lag = profile.radiusHigh[0];
    int64_t rowBytes = getRowPoints(pv) * readOnly * profile.elementBytes;
    int64_t tile = tileBytes(pv);
    // The rereads keep the last-level cache's rate however many fields
    // there are (unlike a sweep's fields, getFieldWeight): they follow rows
    // the first step has just brought in.
    bool lastLevel = fitsLastLevel(tile + (pv.timeBlock - 1) * lag * rowBytes);
    double missWeight = lastLevel ? getLastLevelWeight() : 1.0;
    // A hit never costs more than a miss (an L2 figure that read low).
    double hitWeight = std::min(getOnchipWeight(), missWeight);
    double cache = double(getOnchipBudget());
    for (int64_t stepsLeft = 0; stepsLeft + 1 < pv.timeBlock; ++stepsLeft) {
      int64_t behind = (pv.timeBlock - 1 - stepsLeft) * lag;
      double window = double(tile + behind * rowBytes);
      double missed = window <= cache ? 0.0 : 1.0 - cache / window;
      rereads.weights.push_back(missed * missWeight +
                                (1.0 - missed) * hitWeight);
      rereads.missed = std::max(rereads.missed, missed);
    }
    rereads.level = rereads.missed == 0.0 ? RereadLevel::Onchip
                    : lastLevel           ? RereadLevel::LastLevel
                                          : RereadLevel::Memory;
    return rereads;
  }
  /// The copy bandwidth within the cores' own caches, all cores together:
  /// the description's, else kOnchipBytesPerCycle a core at the clock its
  /// f32 peak implies (lanes x two FMA units x two flops a cycle).
  double getOnchipBandwidth() const {
    if (target.onchipBandwidthGBps > 0)
      return target.onchipBandwidthGBps;
    int64_t lanes = std::max<int64_t>(target.simdWidth, 1);
    double clockGHz = target.peakGflopsF32 / (double(getCores()) * lanes * 4.0);
    return double(getCores()) * clockGHz * kOnchipBytesPerCycle;
  }
  /// What a byte moved within a core's own cache costs, in memory bytes:
  /// at most one (a probe that read the cache slower than memory read low).
  double getOnchipWeight() const {
    double onchip = getOnchipBandwidth();
    return onchip > 0 ? std::min(1.0, target.bandwidthGBps / onchip) : 1.0;
  }
  /// Whether the last-level cache is known and faster than memory: whether
  /// rereads and rings may count at its rate.
  bool hasLastLevelTier() const {
    return target.kind == "cpu" && target.llcBytes > 0 &&
           target.llcBandwidthGBps > target.bandwidthGBps;
  }
  /// The cores (compute units) the tiles are divided among, at least one.
  int64_t getCores() const { return std::max<int64_t>(target.computeUnits, 1); }
  /// Whether every core's `bytes` fit in half of the last-level cache
  /// (shared by the cores; the other half holds what streams through it),
  /// where that cache is known and faster than memory.
  bool fitsLastLevel(int64_t bytes) const {
    return hasLastLevelTier() && bytes * getCores() <= target.llcBytes / 2;
  }
  /// Whether every field fits in the last-level cache beside every core's
  /// on-chip memory.
  bool fieldsFitLastLevel() const {
    return hasLastLevelTier() &&
           getSweepBytes() + getCores() * target.onchipBytes <= target.llcBytes;
  }
  /// Whether a sweep streams few enough fields for the last-level cache to
  /// feed them at the rate the copy probe measured with two streams a
  /// core. Many streams are bound by the core's outstanding misses, not by
  /// the cache: on the 2-core VM with a 480 MiB L3 (probe: 39 GB/s in it,
  /// 27 beyond), heat1d's and heat2d's sweeps (2 fields) read and wrote 39-50
  /// GB/s from it, while 13 streams laid out as Himeno's tiles moved
  /// 26-27.5, the memory's rate (docs/Tuning.md).
  bool streamsAtLastLevelRate() const {
    return profile.numArrays <= kMaxLastLevelStreams;
  }
  /// What a byte of the fields costs, in memory bytes: the last-level
  /// cache's rate where every field fits in it beside every core's on-chip
  /// memory and a sweep streams few enough of them, else memory's.
  /// heat3d-2sweep 120^3 (f64, 25 MiB) on a 32 MiB L3: charged as memory,
  /// its sweep looked slower than blocks of T = 2, which ran 20% slower.
  double getFieldWeight() const {
    return fieldsFitLastLevel() && streamsAtLastLevelRate()
               ? getLastLevelWeight()
               : 1.0;
  }
  /// The bytes of every field a sweep touches.
  int64_t getSweepBytes() const {
    int64_t fieldBytes = profile.elementBytes;
    for (int64_t size : profile.extent)
      fieldBytes *= size;
    return profile.numArrays * fieldBytes;
  }
  /// What a byte moved between the last-level cache and a core costs, in
  /// memory bytes.
  double getLastLevelWeight() const {
    return target.bandwidthGBps / target.llcBandwidthGBps;
  }
  /// Where a pipelined tile's rings live. Beyond the core's cache they may
  /// still fit the last-level cache: on a 512 KiB L2 with a 32 MiB L3,
  /// Himeno's rings fit no tile whose halo leaves T = 2 worth its
  /// redundant work, and (255, 64, 127, T = 4), its rings in the L3, ran
  /// 20.7 GFLOP/s against 14.5 for the plain sweep the L2 budget had left
  /// (docs/Tuning.md, "Rings in the last-level cache").
  RingLevel getRingLevel(const ParameterVector &pv) const {
    if (!isPipelined(pv) || tileBytes(pv) <= getTileBudget(pv))
      return RingLevel::Onchip;
    return getLevelBytes(pv) <= getTileBudget(pv) &&
                   fitsLastLevel(tileBytes(pv))
               ? RingLevel::LastLevel
               : RingLevel::None;
  }
  /// Why a pipelined tile's rings, too large for the core's cache, cannot
  /// take the last-level cache either; empty where that cache is unknown
  /// or no faster than memory.
  std::string whyNotLastLevel(const ParameterVector &pv) const {
    if (!hasLastLevelTier())
      return "";
    if (getLevelBytes(pv) > getTileBudget(pv))
      return llvm::formatv(", and one level's ring rows ({0} bytes) would "
                           "exceed that too, so the rings cannot take the "
                           "last-level cache",
                           getLevelBytes(pv))
          .str();
    return llvm::formatv(", and every core's tile together would exceed "
                         "half of the {0} bytes of last-level cache",
                         target.llcBytes)
        .str();
  }
  /// The ring rows one level reads and writes in a wave: the radius and the
  /// wave's rows it reads of the level before, and the wave's rows it
  /// writes, of each carried field. Where the rings take the last-level
  /// cache, these must still fit the core's own: the next level reads the
  /// rows just written and each row three times, so the last-level cache
  /// sees each ring point about once written and once read (what the cost
  /// charges). The streamed rows and the rows asked for ahead are not
  /// counted: they pass through once. (A first version without this bound,
  /// and without the growth's rule in `reject`, gave heat3d 256^3 on a
  /// 512 KiB L2 planes of (254, 254) at T = 6, which ran 2.93 G points/s
  /// against 3.23 for the on-chip (254, 16, 254, 3).)
  int64_t getLevelBytes(const ParameterVector &pv) const {
    unsigned rowAxis = profile.rank - 1;
    int64_t wave = getPipelinedRowsPerWave(profile.rank);
    return getRowPoints(pv) * profile.numHaloArrays *
           (radius[rowAxis] + 2 * wave) * profile.elementBytes;
  }
  /// The memory bytes one ring byte moved costs: nothing on chip, the
  /// last-level cache's rate beyond it.
  double getRingWeight(const ParameterVector &pv) const {
    if (getRingLevel(pv) != RingLevel::LastLevel)
      return 0.0;
    // Each ring point is written there once and read back once
    // (getLevelBytes).
    return getLastLevelWeight() * 2.0;
  }
  /// A pipelined tile's row: its extent along the inner axes plus halo.
  int64_t getRowPoints(const ParameterVector &pv) const {
    int64_t rowPoints = 1;
    for (unsigned d = 0; d + 1 < profile.rank; ++d)
      rowPoints *= pv.size[d] + radius[d] * pv.timeBlock;
    return rowPoints;
  }
  int64_t workGroups(const ParameterVector &pv) const {
    int64_t groups = 1;
    for (unsigned d = 0; d < 3; ++d)
      groups *= llvm::divideCeil(extent[d], pv.size[d]);
    return groups;
  }
  /// The smallest enabled spatial axis among `axes`, earlier axes first on
  /// ties.
  std::optional<Direction> smallest(ArrayRef<Direction> axes,
                                    const ParameterVector &pv) const {
    std::optional<Direction> best;
    for (Direction d : axes)
      if (enabled[d] && (!best || pv.size[d] < pv.size[*best]))
        best = d;
    return best;
  }
  void disable(Direction d, std::string reason) {
    enabled[d] = false;
    stopped[d] = std::move(reason);
  }

  const KernelProfile &profile;
  const TargetDescription &target;
  /// Distributed fields will be split across ranks.
  bool acrossRanks;
  double systemBF;
  int64_t extent[3];
  int64_t radius[3];
  bool enabled[4] = {true, true, true, true};
  /// Whether the loop may be blocked in time at all.
  bool timeBlockable = true;
  /// T did not pay off for the current work group; try again once the work
  /// group has grown (its halo is then relatively smaller).
  bool timePostponed = false;
  std::string postponedReason;
  std::string stopped[4];
  /// The axis a trade halved or doubled, and the trade's reason, which a
  /// later merge along that axis keeps in front of its own.
  std::optional<Direction> tradedAxis;
  std::string tradeReason;
  ParameterVector current;
};

/// Bytes one tile moves for T steps, in memory-equivalent bytes, and the
/// operations it performs, redundant ones included. The fields that are
/// neither carried nor written are read again by every step after the
/// first, each byte costing `rereadWeights` memory bytes (one per step but
/// the first, indexed as `pointsPerStep`; empty where nothing is read
/// again), the first reads and the last writes `fieldWeight` (pipelined
/// rows keep only the carried fields between steps). Each step but the
/// last (all but `pointsPerStep`'s first: it is indexed by the steps of
/// halo left, the last step's 0) writes its carried fields' points to the
/// rings and the next step reads them back, each byte costing `ringWeight`
/// (0 where the rings stay in the core's cache).
static std::pair<double, double>
tileTraffic(const KernelProfile &profile, double opsPerPoint,
            int64_t pointsLoaded, int64_t pointsCore,
            ArrayRef<int64_t> pointsPerStep, double fieldWeight,
            ArrayRef<double> rereadWeights, double ringWeight) {
  double bytes =
      fieldWeight * profile.elementBytes *
      (double(profile.numHaloArrays) * pointsLoaded +
       double(profile.numArrays - profile.numHaloArrays) * pointsCore);
  double ops = 0;
  for (int64_t points : pointsPerStep)
    ops += opsPerPoint * points;
  assert((rereadWeights.empty() ||
          rereadWeights.size() + 1 == pointsPerStep.size()) &&
         "one reread weight for each step but the first");
  int64_t readOnly = profile.getNumCentreOnlyInputs();
  // zip stops at the shorter range: the first step reads, it does not
  // reread.
  for (auto [points, weight] : llvm::zip(pointsPerStep, rereadWeights))
    bytes += weight * double(profile.elementBytes) * double(readOnly) *
             double(points);
  if (ringWeight > 0)
    for (int64_t points : pointsPerStep.drop_front())
      bytes += ringWeight * double(profile.elementBytes) *
               double(profile.numHaloArrays) * double(points);
  return {bytes, ops};
}

double WorkGroupTuner::getCostPerPointStep(const ParameterVector &pv) const {
  SmallVector<int64_t> perStep;
  for (int64_t step = 0; step < pv.timeBlock; ++step)
    perStep.push_back(volume(pv, step));
  auto [bytes, ops] =
      tileTraffic(profile, double(profile.opsPerPoint),
                  pv.timeBlock == 1 ? volume(pv, 0) : volume(pv, pv.timeBlock),
                  volume(pv, 0), perStep, getFieldWeight(),
                  getRereads(pv).weights, getRingWeight(pv));
  if (pv.timeBlock == 1)
    bytes = getFieldWeight() *
            double(profile.numArrays * profile.elementBytes) * volume(pv, 0);
  // A 1-D CPU tile with T > 1 is computed in private buffers: its box is
  // stored twice when loaded and its points copied out (docs/Tuning.md);
  // count each such move as one operation. Pipelined rows copy nothing.
  if (pv.timeBlock > 1 && target.kind == "cpu" && !isPipelined(pv))
    ops += double(profile.numHaloArrays) *
           (2.0 * volume(pv, pv.timeBlock) + 2.0 * volume(pv, 0));
  // Time in units of 1 / B. A GPU hides memory behind other warps'
  // computation: max(bytes / B, ops / F). A CPU core computing a time
  // block mostly streams and computes in turn, so the two add
  // (docs/Tuning.md, "additive CPU cost"); its plain sweeps of 2-D and 3-D
  // grids overlap them (overlapsMemory).
  double time = overlapsMemory(pv) ? std::max(bytes, ops * systemBF)
                                   : bytes + ops * systemBF;
  return time / (double(pv.timeBlock) * double(volume(pv, 0)));
}

double WorkGroupTuner::getAlgorithmBF(const ParameterVector &pv) const {
  // Eq. (1) for one sweep. With T > 1 a tile loads its halo-grown box once
  // for the fields read off-centre and computes T steps on a region that
  // shrinks by the radius each step (redundant computation included).
  int64_t bytesPerPoint = profile.numArrays * profile.elementBytes;
  if (pv.timeBlock == 1)
    return double(bytesPerPoint) / double(profile.opsPerPoint);
  SmallVector<int64_t> perStep;
  for (int64_t step = 0; step < pv.timeBlock; ++step)
    perStep.push_back(volume(pv, step));
  auto [bytes, ops] =
      tileTraffic(profile, double(profile.opsPerPoint),
                  volume(pv, pv.timeBlock), volume(pv, 0), perStep,
                  getFieldWeight(), getRereads(pv).weights, getRingWeight(pv));
  return bytes / ops;
}

double WorkGroupTuner::getLoadImbalance(const ParameterVector &pv) const {
  int64_t cores = getCores();
  if (target.kind != "cpu" || cores == 1)
    return 1.0;
  // The parallel loop over the tiles runs outermost axis first (z, y, x),
  // and OpenMP's static schedule gives each core a contiguous run of
  // groups / cores of them, the first groups % cores one more. A group's
  // work is its points at each of the block's steps, halo included; the
  // last group along an axis may be shorter. Many groups per core even out
  // whatever their sizes: not counted past a few thousand, which keeps
  // the tuner's time.
  int64_t groups = workGroups(pv);
  if (groups > 4096)
    return 1.0;
  int64_t along[3], lastExtent[3];
  for (unsigned d = 0; d < 3; ++d) {
    along[d] = llvm::divideCeil(extent[d], pv.size[d]);
    lastExtent[d] = extent[d] - (along[d] - 1) * pv.size[d];
  }
  auto work = [&](int64_t index) {
    // index = (iz x along[Y] + iy) x along[X] + ix.
    int64_t position[3] = {index % along[X], index / along[X] % along[Y],
                           index / (along[X] * along[Y])};
    double points = 0;
    for (int64_t step = 0; step < pv.timeBlock; ++step) {
      double volume = 1;
      for (unsigned d = 0; d < 3; ++d) {
        int64_t size = position[d] == along[d] - 1 ? lastExtent[d] : pv.size[d];
        volume *= double(size + radius[d] * step);
      }
      points += volume;
    }
    return points;
  };
  double total = 0, busiest = 0;
  int64_t next = 0;
  for (int64_t core = 0; core < cores; ++core) {
    int64_t count = groups / cores + (core < groups % cores ? 1 : 0);
    double share = 0;
    for (int64_t i = 0; i < count; ++i)
      share += work(next++);
    total += share;
    busiest = std::max(busiest, share);
  }
  return total > 0 ? busiest * double(cores) / total : 1.0;
}

std::optional<std::pair<Direction, ParameterVector>>
WorkGroupTuner::propose(const ParameterVector &pv) {
  auto grow = [&](Direction d, int64_t to) {
    ParameterVector next = pv;
    if (d == T)
      next.timeBlock = to;
    else
      next.size[d] = to;
    return std::make_pair(d, next);
  };
  // Time blocking only while the loop is memory-bound (§3.2, §3.3).
  auto timeStep =
      [&]() -> std::optional<std::pair<Direction, ParameterVector>> {
    if (!enabled[T] || timePostponed)
      return std::nullopt;
    if (pv.timeBlock >= kMaxTimeBlock) {
      disable(T, llvm::formatv("T = {0} is the deepest block the tuner "
                               "considers",
                               kMaxTimeBlock)
                     .str());
      return std::nullopt;
    }
    double bf = getAlgorithmBF(pv);
    if (bf > systemBF || !overlapsMemory())
      return grow(T, pv.timeBlock + 1);
    disable(T, llvm::formatv("B/F_alg {0:F2} is not above B/F_sys {1:F2}", bf,
                             systemBF)
                   .str());
    return std::nullopt;
  };
  const std::string &kind = target.kind;
  // x first, to the warp / vector width, or the largest power of two the
  // grid holds when that is narrower.
  if (enabled[X] && pv.size[X] < target.simdWidth && kind != "cpu") {
    int64_t width = std::min<int64_t>(target.simdWidth,
                                      llvm::bit_floor(uint64_t(extent[X])));
    if (width > pv.size[X])
      return grow(X, width);
  }
  if (kind == "cpu") {
    // CPU: a tile is one task of one core; long rows along x feed the
    // vector units and the prefetchers, so x grows first as far as it may.
    // The last step may take the whole row, which is rarely a power of two.
    if (enabled[X]) {
      int64_t next =
          pv.size[X] < target.simdWidth ? target.simdWidth : 2 * pv.size[X];
      if (next > extent[X] && pv.size[X] < extent[X])
        next = extent[X];
      return grow(X, next);
    }
    if (auto step = timeStep())
      return step;
    if (std::optional<Direction> d = smallest({Y, Z}, pv))
      return grow(*d, 2 * pv.size[*d]);
    return std::nullopt;
  }
  if (auto step = timeStep())
    return step;
  if (kind == "manycore") {
    // Xeon Phi: more vector work along x, then y and z.
    if (enabled[X])
      return grow(X, 2 * pv.size[X]);
    if (std::optional<Direction> d = smallest({Y, Z}, pv))
      return grow(*d, 2 * pv.size[*d]);
    return std::nullopt;
  }
  // GPU: keep the work group compact (the halo grows with its surface):
  // grow the smallest axis, x before y before z on ties.
  if (std::optional<Direction> d = smallest({X, Y, Z}, pv))
    return grow(*d, 2 * pv.size[*d]);
  return std::nullopt;
}

std::optional<WorkGroupTuner::Rejection>
WorkGroupTuner::reject(const ParameterVector &pv, Direction direction,
                       std::optional<int64_t> minWorkGroups,
                       const ParameterVector *grownFrom) const {
  if (direction != T && pv.size[direction] > extent[direction])
    return llvm::formatv("{0} would exceed the grid's {1} points",
                         pv.size[direction], extent[direction])
        .str();
  int64_t groupSize = pv.size[X] * pv.size[Y] * pv.size[Z];
  if (groupSize > target.maxWorkGroupSize)
    return llvm::formatv("a work group of {0} would exceed the device "
                         "maximum {1}",
                         groupSize, target.maxWorkGroupSize)
        .str();
  // While T waits for a larger tile (it did not pay on this one), a CPU's
  // plain sweep of a 2-D or 3-D grid whose block could keep its rings in
  // the last-level cache grows for that block: the rows of a block of 2
  // must fit, not the box of the sweep, which streams through the cache.
  // Himeno on a 512 KiB L2: the sweep's box stopped y and z at 4, where a
  // block costs more than the sweep, and T stayed 1. Without such a cache
  // the seed's rule (a) bounds the sweep's tile as before (heat3d-2sweep
  // at 73.5 GB/s: blocks it would then reach ran slower than its sweep).
  ParameterVector asBlock = pv;
  if (direction != T && timePostponed && enabled[T] && pv.timeBlock == 1 &&
      target.kind == "cpu" && profile.rank >= 2 && hasLastLevelTier())
    asBlock.timeBlock = 2;
  const ParameterVector &held = isPipelined(asBlock) ? asBlock : pv;
  if (isPipelined(held) ? getRingLevel(held) == RingLevel::None
                        : tileBytes(held) > getTileBudget(held))
    return llvm::formatv("the tile of {0} bytes{1} would exceed the {2} "
                         "bytes {3}{4}",
                         tileBytes(held),
                         held.timeBlock != pv.timeBlock ? " (as a block of 2)"
                                                        : "",
                         getTileBudget(held),
                         usesL1()            ? "of L1 data cache"
                         : isPipelined(held) ? "the rings may take of on-chip "
                                               "memory (three fifths)"
                                             : "of on-chip memory",
                         isPipelined(held) ? whyNotLastLevel(held) : "")
        .str();
  // A larger tile whose rings are in the last-level cache, or whose
  // rereads miss L2 more: only where that traffic costs less than the halo
  // it saves. With its rings and rereads on chip a larger tile costs no
  // more traffic per point; beyond, it may cost several times more, and
  // the growth takes no step back: a tile grown into the last-level cache
  // would keep the shallower blocks its smaller rings had paid for.
  const ParameterVector &from = grownFrom ? *grownFrom : current;
  bool ringsBeyond = getRingLevel(pv) == RingLevel::LastLevel;
  // (Misses compare at one depth only: a trade's shallower tile is judged
  // by its cost alone.)
  auto missesMore = [&] {
    return pv.timeBlock == from.timeBlock &&
           getRereads(pv).missed > getRereads(from).missed;
  };
  if (direction != T && (ringsBeyond || missesMore()) &&
      getMachineCost(pv) >= getMachineCost(from))
    return llvm::formatv("its {0} and not cost less ({1:F2} vs {2:F2} per "
                         "point and step, the busiest core's share counted)",
                         ringsBeyond ? "rings would take the last-level cache"
                                     : "later steps would miss more of their "
                                       "rereads in on-chip memory",
                         getMachineCost(pv), getMachineCost(from))
        .str();
  if (direction == T && overlapsMemory() && getAlgorithmBF(pv) < systemBF)
    return llvm::formatv("B/F_alg would drop to {0:F2}, below B/F_sys {1:F2} "
                         "(compute-bound)",
                         getAlgorithmBF(pv), systemBF)
        .str();
  if (direction == T) {
    ParameterVector previous = pv;
    --previous.timeBlock;
    double cost = getCostPerPointStep(pv);
    double previousCost = getCostPerPointStep(previous);
    if (cost >= previousCost) {
      // From a plain sweep, which overlaps, to a block, which adds: the
      // step costs more for the block's computation, not its halo.
      bool fromSweep = overlapsMemory(previous) && !overlapsMemory(pv);
      std::string reason =
          fromSweep
              ? llvm::formatv("a time block would compute most of its "
                              "levels between its streams and cost more than "
                              "the sweep, which computes while it streams "
                              "({0:F2} vs {1:F2} per point and step)",
                              cost, previousCost)
                    .str()
              : llvm::formatv("the halo and redundant work of one more step "
                              "would cost more than it saves ({0:F2} vs "
                              "{1:F2} per point and step)",
                              cost, previousCost)
                    .str();
      return Rejection(std::move(reason), /*byCost=*/true);
    }
    // Where the cost flattens out (1-D tiles, whose halo is two points),
    // deeper blocks gain less than the model's precision and lengthen the
    // steps that run unblocked or in a shallower last block.
    if (cost > (1.0 - kMinTimeBlockGain) * previousCost)
      return Rejection(
          llvm::formatv("the halo and redundant work of one more step "
                        "would save less than {0:F1}% ({1:F3} vs {2:F3} per "
                        "point and step)",
                        100 * kMinTimeBlockGain, cost, previousCost)
              .str(),
          /*byCost=*/true);
  }
  int64_t floor = minWorkGroups.value_or(target.minWorkGroups);
  if (direction != T && workGroups(pv) < floor)
    return llvm::formatv("only {0} work groups would remain, fewer than {1}",
                         workGroups(pv), floor)
        .str();
  return std::nullopt;
}

ParameterVector WorkGroupTuner::run() {
  for (unsigned d = profile.rank; d < 3; ++d)
    disable(Direction(d), "the grid has no such axis");
  // The lowerings block the calc/copy form and sweep chains
  // (BufferPlan.cpp). A chain's T counts levels here, one per sweep: the
  // model is that of T sweeps of its kernel.
  timeBlockable = profile.canBlockInTime();
  if (!profile.isCopyForm && !profile.isSweepChain && profile.numSweeps > 1)
    disable(T, llvm::formatv("the time step runs {0} sweeps in order{1}{2}; "
                             "time blocks are implemented for one sweep and "
                             "a copy per step (seed 000 Fig. 4) and for "
                             "chains of sweeps, each reading the one before",
                             profile.numSweeps,
                             profile.whyNotChain.empty() ? "" : ", and ",
                             profile.whyNotChain)
                   .str());
  else if (profile.carriesStepValue)
    disable(T, "the loop carries the step variable, which a body reads as a "
               "value; time blocks are not combined with it yet");
  else if (profile.carriesScalars)
    disable(T, "the loop carries a value from step to step (a reduction "
               "that accumulates across steps), which a time block would "
               "compute for its last step only");
  else if (!profile.isCopyForm && !profile.isSweepChain)
    disable(T, "the time step is not one sweep followed by a copy back into "
               "its sources (seed 000 Fig. 4), the form time blocks are "
               "implemented for");
  else if (profile.isSweepChain && acrossRanks &&
           (profile.decomposition || profile.chainExchanges)) {
    timeBlockable = false;
    disable(T, "the fields are distributed, and the halo exchanges between "
               "the sweeps of a chain are not combined with time blocks yet");
  }
  // Each accepted step doubles a size or adds a step, so this terminates;
  // the bound is a guard only.
  for (int iteration = 0; iteration < 1024; ++iteration) {
    auto proposal = propose(current);
    if (!proposal)
      break;
    auto [direction, candidate] = *proposal;
    std::optional<Rejection> why = reject(candidate, direction);
    if (why && direction == T && why->byCost) {
      timePostponed = true;
      postponedReason = why->reason;
      continue;
    }
    if (why) {
      disable(direction, why->reason);
      continue;
    }
    current = candidate;
    if (direction != T)
      timePostponed = false;
  }
  if (enabled[T] && timePostponed)
    disable(T, postponedReason);
  if (timeBlockable)
    tradeRowsForSteps();
  mergeWorkGroups();
  return current;
}

ParameterVector
WorkGroupTuner::growAfterTrade(ParameterVector pv, Direction traded,
                               MutableArrayRef<std::string> stopReasons) const {
  for (Direction d : {Y, Z}) {
    if (d == traded || d >= profile.rank)
      continue;
    bool grew = false;
    for (;;) {
      ParameterVector grown = pv;
      grown.size[d] *= 2;
      std::optional<Rejection> why =
          reject(grown, d, /*minWorkGroups=*/std::nullopt, &pv);
      if (why) {
        if (grew && !stopReasons.empty())
          stopReasons[d] = "grown after the trade, then " + why->reason;
        break;
      }
      pv = grown;
      grew = true;
    }
  }
  return pv;
}

void WorkGroupTuner::tradeRowsForSteps() {
  // The growth takes each axis as far as it may while T does not pay on
  // a thin tile, and the rings' budget may then refuse the step that would
  // pay on the grown one; or it deepens T on a thin tile until the budget
  // refuses to double the tile. A tile of half or twice the rows along one
  // axis, with deeper or shallower blocks, may cost less per point and step
  // by the same model: take the best such trade. A ring's row spans the
  // inner axes: on 2-D grids x alone, which is then traded too (heat2d on
  // a 1 MiB L2: (2046, 256, 15) -> (1023, 256, 27)); on 3-D grids y or z
  // rather than x, whose long rows feed the vector units and the
  // prefetchers (heat3d at 254 x 16 x 128, T = 5, took 12% less time than
  // at 127 x 16 x 128). Himeno on 896 KiB of L2: (255, 16, 64, 2) ->
  // (255, 8, 64, 3); heat3d at 52 GB/s on 1 MiB of L2: (254, 16, 128, 6)
  // -> (254, 16, 254, 4), y then grown to 32 (seed-programs.test, X3WIDE).
  if (target.kind != "cpu")
    return;
  // A trade is judged by the tile it leads to: a narrower tile's other
  // axes grow on after it (below), and that tile is what it costs. heat2d
  // 2048^2 on a 2 MiB L2 with its fields in the L3: (2046, 256, 36) ->
  // (1023, 256, T) costs more at every T, (1023, 512, 41) less, and
  // (1023, 2046, 41) ran 14.6 G points/s against 13.1 for the (2046, 1024,
  // 36) that judging the thin tile had kept.
  ParameterVector best = current;
  double bestCost = getMachineCost(current);
  std::optional<Direction> traded;
  auto consider = [&](const ParameterVector &candidate, Direction d) {
    double cost = getMachineCost(growAfterTrade(candidate, d));
    if (cost < (1.0 - kMinTimeBlockGain) * bestCost) {
      best = candidate;
      bestCost = cost;
      traded = d;
    }
  };
  for (Direction d : {X, Y, Z}) {
    if (d >= profile.rank || (d == X && profile.rank != 2))
      continue;
    // Half the rows: deeper blocks, as long as each step still pays.
    ParameterVector narrower = current;
    narrower.size[d] /= 2;
    double previousCost = std::numeric_limits<double>::infinity();
    for (narrower.timeBlock = current.timeBlock + 1;
         narrower.size[d] > 0 && narrower.timeBlock <= kMaxTimeBlock;
         ++narrower.timeBlock) {
      if (getRingLevel(narrower) == RingLevel::None)
        break;
      double cost = getCostPerPointStep(narrower);
      if (cost > (1.0 - kMinTimeBlockGain) * previousCost)
        break;
      previousCost = cost;
      consider(narrower, d);
    }
    // Twice the rows (or the rest of the axis): the shallower blocks that
    // the growth's rules accept, pipelined.
    ParameterVector wider = current;
    wider.size[d] = std::min(2 * current.size[d], extent[d]);
    if (wider.size[d] == current.size[d])
      continue;
    for (wider.timeBlock = current.timeBlock - 1; wider.timeBlock >= 2;
         --wider.timeBlock)
      if (!reject(wider, d))
        consider(wider, d);
  }
  if (!traded)
    return;
  // A narrower tile leaves more work groups, a shallower block smaller
  // rings: the other axes may grow on where those stopped them (heat2d
  // 2048^2: (1023, 256) after halving x from 2046, y = 512 ran 5% faster
  // on 7 fresh alternated runs); a ring's rows, along the inner axes, do
  // not grow with the outermost axis.
  ParameterVector grown = growAfterTrade(best, *traded, stopped);
  std::string where;
  if (!llvm::equal(grown.size, best.size))
    where = llvm::formatv(" (on ({0}, {1}, {2}), as the other axes grow "
                          "after it)",
                          grown.size[X], grown.size[Y], grown.size[Z])
                .str();
  tradedAxis = traded;
  tradeReason =
      llvm::formatv("{0} from {1}: with T = {2} instead of {3} the model "
                    "costs {4:F2} instead of {5:F2} per point and step{6}",
                    best.size[*traded] < current.size[*traded] ? "halved"
                                                               : "doubled",
                    current.size[*traded], best.timeBlock, current.timeBlock,
                    bestCost, getMachineCost(current), where)
          .str();
  stopped[*traded] = tradeReason;
  current = grown;
  // The depth stays the trade's: on a grown tile the model's gain from
  // each further step is a fraction of a percent, below its precision
  // (heat2d on (1023, 512): T = 24 and 27 ran 12.1 and 12.0 G points/s,
  // the model's T = 33 11.5).
  ParameterVector deeper = current;
  ++deeper.timeBlock;
  if (std::optional<Rejection> why = reject(deeper, T))
    stopped[T] = why->reason;
  else
    stopped[T] = llvm::formatv("the trade's depth, kept as the tile grew "
                               "after it (one more step would save {0:F1}%)",
                               100 * (1 - getCostPerPointStep(deeper) /
                                              getCostPerPointStep(current)))
                     .str();
}

void WorkGroupTuner::mergeWorkGroups() {
  // The growth keeps 4 groups per core, whose count splits evenly among
  // the cores; but each group of a time block recomputes its halo, and a
  // pipelined band along the outermost axis also fills and drains its
  // levels at its two ends. Fewer, longer bands pay where that saving
  // outweighs the busiest core's extra share (two cores, one band a core
  // against bands of 512: jacobi-2d 2000^2 4% faster, heat2d 2048^2 6%;
  // heat3d-2sweep 120^3 in 4 groups against 8, 10%; docs/Tuning.md). A
  // plain sweep costs the same per point on any tile, so merging never
  // pays for it.
  // Across ranks each rank holds a block of the grid this pass does not
  // see (docs/MPI.md): groups merged on the whole grid could leave a
  // rank's cores without one, so the floor stays.
  if (target.kind != "cpu" || (acrossRanks && profile.decomposition))
    return;
  int64_t cores = getCores();
  for (;;) {
    double currentCost = getMachineCost(current);
    std::optional<Direction> merged;
    ParameterVector best = current;
    double bestCost = (1.0 - kMinTimeBlockGain) * currentCost;
    for (Direction d : {Y, Z}) {
      if (d >= profile.rank || current.size[d] >= extent[d])
        continue;
      ParameterVector candidate = current;
      candidate.size[d] = std::min(2 * current.size[d], extent[d]);
      if (reject(candidate, d, /*minWorkGroups=*/cores))
        continue;
      double cost = getMachineCost(candidate);
      if (cost < bestCost) {
        best = candidate;
        bestCost = cost;
        merged = d;
      }
    }
    if (!merged)
      return;
    stopped[*merged] =
        (tradedAxis == merged ? tradeReason + ", then " : std::string()) +
        llvm::formatv("merged from {0}: {1} work groups, the busiest core "
                      "{2:F1}% above an even share, cost {3:F2} instead of "
                      "{4:F2} per point and step",
                      current.size[*merged], workGroups(best),
                      100 * (getLoadImbalance(best) - 1), bestCost, currentCost)
            .str();
    current = best;
  }
}

std::string WorkGroupTuner::explain() const {
  std::string text;
  for (unsigned d = 0; d < 4; ++d) {
    std::string value =
        std::to_string(d == T ? current.timeBlock : current.size[d]);
    // A chain's T counts its sweeps.
    if (d == T && profile.isSweepChain && timeBlockable)
      value = current.timeBlock < profile.levelsPerStep
                  ? llvm::formatv("{0} sweep{1}, less than a step of {2}",
                                  current.timeBlock,
                                  current.timeBlock == 1 ? "" : "s",
                                  profile.levelsPerStep)
                        .str()
                  : llvm::formatv("{0} sweeps ({1} step{2} of {3})",
                                  current.timeBlock, getTimeBlockSteps(),
                                  getTimeBlockSteps() == 1 ? "" : "s",
                                  profile.levelsPerStep)
                        .str();
    text += llvm::formatv("; {0} = {1}: {2}", directionNames[d], value,
                          stopped[d].empty() ? "not limited" : stopped[d])
                .str();
  }
  if (fieldsFitLastLevel()) {
    text += llvm::formatv("; the fields ({0:F1} MiB) fit in the last-level "
                          "cache",
                          getSweepBytes() / 1048576.0)
                .str();
    text += streamsAtLastLevelRate()
                ? llvm::formatv(" with each core's on-chip memory to spare: "
                                "their bytes count at its {0:F0} GB/s",
                                target.llcBandwidthGBps)
                      .str()
                : llvm::formatv(", but a sweep streams {0} of them, more "
                                "than {1} a core takes at its rate: their "
                                "bytes count as memory's",
                                profile.numArrays, kMaxLastLevelStreams)
                      .str();
  }
  if (getRingLevel(current) == RingLevel::LastLevel)
    text += llvm::formatv("; the tile ({0} bytes a core) takes the "
                          "last-level cache ({1:F0} GB/s), one level's ring "
                          "rows ({2} bytes) on chip",
                          tileBytes(current), target.llcBandwidthGBps,
                          getLevelBytes(current))
                .str();
  RereadWeights rereads = getRereads(current);
  switch (rereads.level) {
  case RereadLevel::None:
    break;
  case RereadLevel::Onchip:
    text += llvm::formatv("; later steps re-read the read-only fields from "
                          "on-chip memory ({0:F0} GB/s)",
                          getOnchipBandwidth())
                .str();
    break;
  case RereadLevel::LastLevel:
  case RereadLevel::Memory:
    text += llvm::formatv(
                "; later steps re-read the read-only fields from on-chip "
                "memory ({0:F0} GB/s), the last step {1:F1}% of them from {2}",
                getOnchipBandwidth(), rereads.missed * 100.0,
                rereads.level == RereadLevel::Memory
                    ? std::string("memory")
                    : llvm::formatv("the last-level cache ({0:F0} GB/s)",
                                    target.llcBandwidthGBps)
                          .str())
                .str();
    break;
  }
  return text;
}

bool WorkGroupTuner::useStreamingStores(std::string &why) const {
  if (target.kind == "gpu")
    return false;
  if (ApplyOp kernel = profile.kernel; kernel.getNumReductions() > 0) {
    why = "no streaming stores: the kernel reduces, which streamed rows do "
          "not do yet";
    return false;
  }
  if (target.llcBytes <= 0) {
    why = "no streaming stores: the last-level cache size is not known";
    return false;
  }
  // A sweep over fields larger than the last-level cache finds none of its
  // destination there, so the read for ownership of each written line is
  // pure traffic; smaller fields stay cached from one step to the next.
  int64_t sweepBytes = getSweepBytes();
  bool streaming = sweepBytes > target.llcBytes;
  why = llvm::formatv("{0} stores: the {1} fields of a sweep ({2:F1} MiB) {3} "
                      "the {4:F1} MiB last-level cache",
                      streaming ? "streaming" : "cached", profile.numArrays,
                      sweepBytes / 1048576.0, streaming ? "exceed" : "fit in",
                      target.llcBytes / 1048576.0)
            .str();
  return streaming;
}

struct StencilTuneWorkGroupPass
    : public stencil::impl::StencilTuneWorkGroupBase<StencilTuneWorkGroupPass> {
  using StencilTuneWorkGroupBase::StencilTuneWorkGroupBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<TargetDescription> found =
        getTuningTarget(module, device, "stencil-tune-workgroup");
    if (failed(found))
      return signalPassFailure();
    const TargetDescription &target = *found;
    LogicalResult result = forEachProfiledTimeLoop(
        module, [&](IterateOp iterate, const KernelProfile &profile) {
          WorkGroupTuner tuner(profile, target, acrossRanks);
          ParameterVector pv = tuner.run();
          SmallVector<int64_t, 3> wg;
          for (unsigned axis = 0; axis < profile.rank; ++axis)
            wg.push_back(pv.size[profile.rank - 1 - axis]);
          int64_t exchangeDepth =
              iterate.getScheduleAttr()
                  ? iterate.getScheduleAttr().getExchangeDepth()
                  : 1;
          std::string streamingWhy;
          bool streaming = tuner.useStreamingStores(streamingWhy);
          int64_t timeBlock = tuner.getTimeBlockSteps();
          iterate.setScheduleAttr(ScheduleAttr::get(
              &getContext(), wg, timeBlock, exchangeDepth, streaming));
          iterate.emitRemark()
              << llvm::formatv(
                     "tuned for '{0}' ({1}): (W, H, D, T) = ({2}, {3}, "
                     "{4}, {5}); B/F_alg {6:F2} (T = 1: {7:F2}), "
                     "B/F_sys {8:F2}",
                     target.name, target.kind, pv.size[X], pv.size[Y],
                     pv.size[Z], timeBlock, tuner.getAlgorithmBF(pv),
                     profile.getAlgorithmBF(),
                     target.getSystemBF(profile.isDouble))
                     .str()
              << tuner.explain()
              << (streamingWhy.empty() ? "" : "; " + streamingWhy)
              << profile.describeEstimate();
        });
    if (failed(result))
      signalPassFailure();
  }
};

} // namespace

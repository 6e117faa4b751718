//===- Lowering.h - Shared lowering of stencil functions --------*- C++ -*-===//
//
// The buffer assignment and loop structure shared by the CPU lowering
// (convert-stencil-to-loops) and the GPU lowering (convert-stencil-to-gpu):
// both assign one buffer per field and differ in where buffers live and
// how the points of a box are visited.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOLOOPS_LOWERING_H
#define STENCIL_LIB_CONVERSION_STENCILTOLOOPS_LOWERING_H

#include "Stencil/Dialect/Stencil/IR/StencilOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::stencil::lowering {

struct Options {
  /// Host loops: the tile of applies without a schedule (0: whole axis).
  SmallVector<int64_t, 3> defaultTile;
  /// Host loops: how far ahead, in bytes along a tile's rows, sweeps of 2-D
  /// and 3-D grids prefetch their rows (0: no software prefetch).
  int64_t prefetchDistance = 0;
  /// GPU: buffers live in device memory, points are work items.
  bool device = false;
  /// GPU: the work group of applies without a schedule, outermost first,
  /// counted from the innermost axis.
  SmallVector<int64_t, 3> defaultWorkGroup;
  /// GPU: the workgroup memory a time-blocked kernel may use, in bytes.
  int64_t workgroupMemoryLimit = 0;
};

/// Lowers the stencil ops of `func`; errors are reported on the ops.
LogicalResult lowerFunction(func::FuncOp func, const Options &options);

/// Reads field input `input` of an apply at `indices` (global coordinates),
/// the point plus the access's `offset`.
using LoadFn =
    function_ref<Value(OpBuilder &, Location, unsigned input,
                       ValueRange indices, ArrayRef<int64_t> offset)>;
/// Writes the value an apply returns for output `output` at the point.
using StoreFn =
    function_ref<void(OpBuilder &, Location, unsigned output, Value value)>;
/// The value of scalar input `input` of an apply, inside the point loop.
using ScalarFn = function_ref<Value(OpBuilder &, Location, unsigned input)>;
/// Emits body op `op` (neither an access nor the return) with the values
/// `mapping` gives for its operands, and maps its results.
using CloneFn = function_ref<void(OpBuilder &, Operation &op, IRMapping &)>;

/// Emits the body of `apply` for the grid point `point`: accesses become
/// `load` at point + offset, the returned values go to `store`, every other
/// op goes to `clone` (default: cloned as it is); scalar inputs come from
/// `scalar`, or are used as they are.
void emitPoint(OpBuilder &builder, Location loc, ApplyOp apply,
               ValueRange point, LoadFn load, StoreFn store,
               ScalarFn scalar = nullptr, CloneFn clone = nullptr);

/// The radius per axis and side of the accesses of `calc` to the inputs
/// that `carriedInput` marks (>= 0): the halo a time block needs.
void getCarriedRadius(ApplyOp calc, ArrayRef<int> carriedInput,
                      SmallVectorImpl<int64_t> &low,
                      SmallVectorImpl<int64_t> &high);

/// The body of a device kernel at one point of a box.
using PointFn = function_ref<void(OpBuilder &, Location, ValueRange point)>;

/// A `gpu.launch` with one work item per point of the box [lower, upper)
/// (static bounds), work groups of `workGroup` (outermost axis first, the
/// innermost axis on x), and a guard for the partial groups at the end.
void emitDeviceBox(OpBuilder &builder, Location loc,
                   ArrayRef<int64_t> workGroup, ArrayRef<int64_t> lower,
                   ArrayRef<int64_t> upper, PointFn body);

/// What a time-blocked kernel computes: `calc` over `timeBlock` steps of
/// the copy-form loop, on the static grid [lower, upper).
struct TimeBlock {
  ApplyOp calc;
  /// Per calc input: the carried pair it reads, or -1.
  ArrayRef<int> carriedInput;
  /// Per calc output: the carried pair it writes.
  ArrayRef<unsigned> outputPair;
  /// Per pair: the buffer holding the source, and the destination buffer.
  ValueRange sources, destinations;
  int64_t timeBlock;
  ArrayRef<int64_t> lower, upper;
};

/// Where a step of a time block reads carried pair `pair` at `at` (the
/// point plus `offset`), and where it writes its value of pair `pair` at the
/// point.
using CarriedLoadFn =
    function_ref<Value(OpBuilder &, Location, unsigned pair, ValueRange at,
                       ArrayRef<int64_t> offset)>;
using CarriedStoreFn =
    function_ref<void(OpBuilder &, Location, unsigned pair, Value value)>;

/// emitPoint for one step of `block`: inputs that are not carried are read
/// through `uncarriedLoad` (default: a scalar load of `inputBuffer`),
/// carried ones through `load`, and each output goes to `store` of the pair
/// it writes; `scalar` and `clone` are emitPoint's.
void emitTimeBlockPoint(OpBuilder &builder, Location loc,
                        const TimeBlock &block, ValueRange point,
                        function_ref<Value(unsigned input)> inputBuffer,
                        CarriedLoadFn load, CarriedStoreFn store,
                        ScalarFn scalar = nullptr, CloneFn clone = nullptr,
                        LoadFn uncarriedLoad = nullptr);

/// The bytes of workgroup memory `emitDeviceTimeBlock` uses for `tile`.
int64_t getTimeBlockWorkgroupBytes(const TimeBlock &block,
                                   ArrayRef<int64_t> tile);

/// One kernel for `block.timeBlock` steps (seed 000 Fig. 3): each work
/// group loads its `tile` plus a halo of timeBlock x radius into workgroup
/// memory, computes the steps on a region that shrinks by the radius each
/// step with a barrier between steps, and writes its tile. Inputs that are
/// not carried are read from `inputBuffer`, scalars from `scalar`.
void emitDeviceTimeBlock(OpBuilder &builder, Location loc,
                         const TimeBlock &block, ArrayRef<int64_t> workGroup,
                         ArrayRef<int64_t> tile,
                         function_ref<Value(unsigned input)> inputBuffer,
                         ScalarFn scalar);

/// The index arithmetic of one overlapped tile of a time block (seed 000
/// Fig. 3), shared by the host's 1-D tiles and the device's work groups
/// (OverlappedTile.cpp).
class OverlappedTile {
public:
  /// The tile of `tile` points starting at `origin`; `arraySizes` bound
  /// what it loads.
  OverlappedTile(OpBuilder &builder, Location loc, const TimeBlock &block,
                 ArrayRef<int64_t> tile, ValueRange origin,
                 ValueRange arraySizes);
  /// The shape of a tile's private buffers: the tile plus T x radius
  /// around.
  static SmallVector<int64_t, 3> getShape(const TimeBlock &block,
                                          ArrayRef<int64_t> tile);
  /// The tile's own points: [origin, end), within the grid.
  ValueRange getOrigin() const { return origin; }
  ValueRange getEnd() const { return end; }
  /// What the tile loads: its points and T x radius around, within the
  /// arrays.
  ValueRange getLoadLow() const { return loadLow; }
  ValueRange getLoadHigh() const { return loadHigh; }
  /// The box step `step` (from 0) computes: the tile grown by (T - 1 -
  /// step) x radius, within the grid.
  void getStepBox(OpBuilder &builder, int64_t step,
                  SmallVectorImpl<Value> &from,
                  SmallVectorImpl<Value> &to) const;
  /// `global` as an index into the private buffers.
  SmallVector<Value, 3> toLocal(OpBuilder &builder, Location loc,
                                ValueRange global) const;

private:
  Location loc;
  int64_t timeBlock;
  SmallVector<int64_t, 3> radiusLow, radiusHigh;
  SmallVector<Value, 3> lower, upper, origin, end, base, loadLow, loadHigh;
};

/// One block of `block.timeBlock` steps on the host as overlapped tiles
/// with private buffers (the CPU scheme for 1-D grids). Inputs that are not
/// carried are read from `inputBuffer`.
void emitOverlappedTimeBlock(OpBuilder &builder, Location loc,
                             const TimeBlock &block, ArrayRef<int64_t> tile,
                             function_ref<Value(unsigned input)> inputBuffer);

/// A block of `depth` steps (2 <= depth <= block.timeBlock, known at run
/// time) on the host for grids of two or more axes, as one pipelined sweep
/// over the rows of each `tile` with ring buffers between the steps
/// (PipelinedTimeBlock.cpp). Inputs that are not carried are read from
/// `inputBuffer`.
void emitPipelinedTimeBlock(OpBuilder &builder, Location loc,
                            const TimeBlock &block, Value depth,
                            ArrayRef<int64_t> tile,
                            function_ref<Value(unsigned input)> inputBuffer);

/// The cache line that software prefetches and ring padding work in.
constexpr int64_t kLineBytes = 64;

/// Elements of `type` per cache line (at least 1).
int64_t getElementsPerLine(MemRefType type);

/// Prefetches the points `fixed` x [from, to) of `buffer` (`fixed` indexes
/// the leading axes, the box the others), one request per cache line along
/// the innermost axis (Prefetch.cpp).
void prefetchBox(OpBuilder &builder, Location loc, Value buffer,
                 ValueRange fixed, ValueRange from, ValueRange to,
                 bool isWrite);

/// Software prefetches for a host sweep of an apply over tiles of a 2-D or
/// 3-D grid (Prefetch.cpp): before each row of a tile, the rows the sweep
/// reaches `distanceBytes` later (counted along the tile's row order) are
/// requested for every buffer the apply reads, at its leading offsets, and
/// for writing in every buffer it writes (unless `prefetchOutputs` is false:
/// streaming stores write past the cache). Does nothing for 1-D grids, whose
/// single stream the hardware follows, or when `distanceBytes` is 0.
class RowPrefetcher {
public:
  RowPrefetcher(Location loc, ApplyOp apply, ValueRange inputBuffers,
                ValueRange outputBuffers, int64_t distanceBytes,
                bool prefetchOutputs = true);
  /// Starts the tile [tileLower, tileUpper): emits, at `builder`, how many
  /// rows ahead its prefetches reach.
  void beginTile(OpBuilder &builder, ValueRange tileLower,
                 ValueRange tileUpper);
  /// The prefetches before row `row` (the indices of all axes but the
  /// innermost) of the current tile.
  void emitRow(OpBuilder &builder, ValueRange row);

private:
  struct Stream {
    Value buffer;
    /// Per axis, the largest offset the apply accesses the buffer at.
    SmallVector<int64_t, 3> lead;
    bool isWrite;
  };
  Location loc;
  SmallVector<Stream> streams;
  /// The distance in elements; 0 when nothing is prefetched.
  int64_t distanceElements = 0;
  /// The current tile, and the rows its prefetches reach ahead.
  SmallVector<Value, 3> tileLower, tileUpper;
  Value rowsAhead;
};

/// Whether the rows of a host sweep of `apply` can be emitted as vectors by
/// RowVectorizer (VectorRows.cpp): every buffer is a memref contiguous
/// along its rows and every op computed from accesses is element-wise on
/// scalars. On failure, `reason` says what is missing.
LogicalResult checkVectorRows(ApplyOp apply, ArrayRef<Value> inputBuffers,
                              ArrayRef<Value> outputBuffers,
                              std::string &reason);

/// The points `row` x [from, to) of a row (`row` indexes the axes but the
/// innermost), one at a time through `point`, in an `scf.for` whose step is
/// `one` (an index constant 1, created here when null).
void emitScalarRow(OpBuilder &builder, Location loc, ValueRange row, Value from,
                   Value to, PointFn point, Value one = nullptr);

/// Whether the body of `apply` may run on lanes that hold no point (masked
/// off): false when it divides integers, which traps on what such lanes
/// hold.
bool canMaskLanes(ApplyOp apply);

/// The body of an apply, which checkVectorRows admitted, on a vector of
/// `lanes` consecutive points of a row, through emitPoint: values computed
/// from accesses become vectors, the others stay scalars (LICM hoists them)
/// and are broadcast, once, where a vector op uses them. One per vector of
/// points emitted: it caches the broadcasts.
class RowVectorizer {
public:
  explicit RowVectorizer(int64_t lanes) : lanes(lanes) {}
  VectorType getVectorType(Type element) const;
  /// Counts `vector` among the row's vectors, and returns it.
  Value add(Value vector) {
    vectors.insert(vector);
    return vector;
  }
  /// `value` as a vector: itself, or a broadcast of the scalar.
  Value asVector(OpBuilder &builder, Location loc, Value value);
  /// The `lanes` elements of `buffer` from `at` on; with `mask`, only the
  /// lanes it enables (the others read nothing and are zero).
  Value load(OpBuilder &builder, Location loc, Value buffer, ValueRange at,
             Value mask = nullptr);
  /// Stores `value` as a vector at `at`: with `mask`, the lanes it enables;
  /// or, `nontemporal`, to a whole aligned line past the cache.
  void store(OpBuilder &builder, Location loc, Value value, Value buffer,
             ValueRange at, Value mask = nullptr, bool nontemporal = false);
  /// emitPoint's CloneFn: `op` on vectors when one of its operands is one,
  /// else cloned as it is.
  void widen(OpBuilder &builder, Operation &op, IRMapping &mapping);

private:
  int64_t lanes;
  llvm::DenseSet<Value> vectors;
  DenseMap<Value, Value> splats;
};

/// What a streamed row may assume about the cells of its first output that
/// lie outside the grid (the ring): they equal `source`'s, because the time
/// loop's swap keeps the two rings alike (lowerCopySectionAsSwap). The grid
/// spans [gridLower, gridUpper) along the innermost axis; for grids of two
/// or more axes, [rowGridLower, rowGridUpper) along the next one, where the
/// current tile spans [rowTileLower, rowTileUpper).
struct StreamingRing {
  Value source;
  Value gridLower, gridUpper;
  Value rowGridLower, rowGridUpper, rowTileLower, rowTileUpper;
};

/// The points `row` x [from, to) of `apply`, the innermost axis a cache line
/// of points at a time, the first output written with aligned non-temporal
/// stores (StreamingRows.cpp). The partial lines at both ends are masked
/// vectors stored through the cache, or scalar points (`scalarPoint`) where
/// masked-off lanes could trap. With `ring`, an end line whose cells are
/// all points of the tile (in this row or the next to it) or ring cells is
/// stored whole and non-temporally instead, the ring cells copied from
/// `ring->source`: a cached store there reads the line from memory first,
/// and the stores behind it wait.
void emitStreamingRow(OpBuilder &builder, Location loc, ApplyOp apply,
                      ValueRange row, Value from, Value to,
                      ArrayRef<Value> inputBuffers,
                      ArrayRef<Value> outputBuffers, PointFn scalarPoint,
                      const StreamingRing *ring = nullptr);

/// Orders the non-temporal stores issued so far before what follows (at the
/// end of a parallel tile).
void emitStreamingFence(OpBuilder &builder, Location loc);

/// Calls `emit` on 2 x rank boxes that partition the box [outerLower,
/// outerUpper) minus the box [innerLower, innerUpper) inside it: along each
/// axis in turn, the slab below and the slab above the inner box, spanning
/// the inner box along the axes before it and the outer box after it.
void forEachRingSlab(
    OpBuilder &builder, ValueRange outerLower, ValueRange outerUpper,
    ValueRange innerLower, ValueRange innerUpper,
    function_ref<void(OpBuilder &, ValueRange, ValueRange)> emit);

} // namespace mlir::stencil::lowering

#endif // STENCIL_LIB_CONVERSION_STENCILTOLOOPS_LOWERING_H

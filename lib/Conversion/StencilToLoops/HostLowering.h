//===- HostLowering.h - Host loops of the CPU lowering ----------*- C++ -*-===//
//
// What the host backend (HostBackend.cpp) emits inside its tiles, private
// to StencilToLoops: software prefetches of rows (Prefetch.cpp), rows the
// lowering vectorizes itself (VectorRows.cpp) with non-temporal stores
// (StreamingRows.cpp), and the time blocks of the copy-form loop as
// overlapped tiles on 1-D grids (OverlappedTimeBlock.cpp) and pipelined
// row sweeps on 2-D and 3-D grids (PipelinedTimeBlock.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOLOOPS_HOSTLOWERING_H
#define STENCIL_LIB_CONVERSION_STENCILTOLOOPS_HOSTLOWERING_H

#include "Stencil/Conversion/StencilCommon/TimeBlock.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::stencil::host {

/// One block of `depth` steps (at most `block.plan.timeBlock`) as
/// overlapped tiles with private buffers (the scheme for 1-D grids).
void emitOverlappedTimeBlock(OpBuilder &builder, Location loc,
                             const TimeBlock &block, Value depth);

/// A block of `depth` steps (2 <= depth <= T, known at run time) for grids
/// of two or more axes, as one pipelined sweep over the rows of each tile
/// with ring buffers between the steps. Returns the last level's
/// reductions (TimeBlock::reductions), each tile's combined in tile order.
SmallVector<Value> emitPipelinedTimeBlock(OpBuilder &builder, Location loc,
                                          const TimeBlock &block, Value depth);

/// Whether emitPipelinedTimeBlock can write a block's last step into its
/// sources too (TimeBlock::finalStore): its levels must not read the
/// sources again behind the last level's rows.
bool pipelinedBlockStoresFinalState(const TimeBlockPlan &plan);

/// How many tiles of `step` points cover [lower, upper) along an axis (none
/// where run-time bounds leave it empty).
Value getTileCount(OpBuilder &builder, Location loc, Value lower, Value upper,
                   Value step);
/// The position along an axis, from 0, of the tile that starts at
/// `tileLower` in a range from `lower` tiled by `step`.
Value getTilePosition(OpBuilder &builder, Location loc, Value tileLower,
                      Value lower, Value step);

/// The running values of an apply's reductions, one slot per tile of a
/// box [lower, upper) that a parallel loop tiles by `steps`: each tile
/// writes its own slot, and the slots are combined in tile order after the
/// loop, so that the result depends on the tiling only, not on the threads.
/// With `lineApart`, the slots lie a cache line apart, for tiles that
/// update theirs as they go.
class TilePartials {
public:
  /// Allocates the slots at `builder`, before the parallel loop.
  TilePartials(OpBuilder &builder, Location loc, ValueRange lower,
               ValueRange upper, ValueRange steps, TypeRange types,
               bool lineApart);
  /// The slot of the tile that starts at `tileLower`: its position in the
  /// box, row-major.
  Value getSlot(OpBuilder &builder, ValueRange tileLower) const;
  Value load(OpBuilder &builder, unsigned reduction, Value slot) const;
  void store(OpBuilder &builder, Value value, unsigned reduction,
             Value slot) const;
  /// After the loop: each reduction's slots combined in tile order from
  /// the identity.
  SmallVector<Value> combine(OpBuilder &builder,
                             ArrayRef<ReductionKind> kinds) const;
  /// Frees the slots.
  void free(OpBuilder &builder) const;

private:
  SmallVector<Value, 2> getIndices(OpBuilder &builder, Value slot) const;

  Location loc;
  SmallVector<Value, 3> lower, steps, tilesAlong;
  Value tileCount;
  SmallVector<Value> buffers;
  bool lineApart;
};

/// Copies the box [lower, upper) of `source` into the same points of
/// `target`, shifted by `sourceShift` and `targetShift` where given (the
/// point minus the shift): in a parallel loop when the box is large or of
/// run-time size, in one thread otherwise.
void copyBox(OpBuilder &builder, Location loc, Value source, Value target,
             ValueRange lower, ValueRange upper, ValueRange sourceShift = {},
             ValueRange targetShift = {});

/// The bits in which the cells of `a` and `b` differ anywhere on the row
/// `row` (indices but the innermost) from `from` to `to`, or-ed: zero
/// where they are equal in every bit (-0.0 and NaNs included).
Value getRowDifferingBits(OpBuilder &builder, Location loc, Value a, Value b,
                          ValueRange row, Value from, Value to);
/// Sets the i8 cell `flag` to 1 where the integer `bits` is not zero;
/// atomically, as threads may compare at once.
void flagIfNonZero(OpBuilder &builder, Location loc, Value bits, Value flag);

/// The cache line that software prefetches and ring padding work in.
constexpr int64_t kLineBytes = 64;

/// Bytes of one element of `type` (at least 1).
int64_t getElementBytes(MemRefType type);

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
/// streaming stores write past the cache), all streams' lines of a row in
/// one loop. Does nothing for 1-D grids, whose single stream the hardware
/// follows, for sweeps of more than four streams (the hardware prefetchers
/// do better there), or when `distanceBytes` is 0.
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
  /// lanes it enables (the others read nothing and are zero). With
  /// `access`, a read of a field that does not vary along the row (a
  /// lower-rank field without the innermost axis) is one scalar.
  Value load(OpBuilder &builder, Location loc, Value buffer, ValueRange at,
             Value mask = nullptr, AccessOp access = nullptr);
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

} // namespace mlir::stencil::host

#endif // STENCIL_LIB_CONVERSION_STENCILTOLOOPS_HOSTLOWERING_H

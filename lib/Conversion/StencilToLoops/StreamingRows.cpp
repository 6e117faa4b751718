//===- StreamingRows.cpp - vector rows with non-temporal stores -----------===//
//
// A cached store first reads the line it writes (the read for ownership), so
// a sweep whose fields do not fit in the last-level cache moves three lines
// per line written where two would do. Non-temporal stores of whole, aligned
// lines skip that read. LLVM's loop vectorizer does not vectorize scalar
// stores that carry a non-temporal hint, so the rows are emitted here as
// vectors of one cache line: the partial line up to the first line boundary
// of the first output, then whole lines (`vector.load` of every access, the
// body's element-wise ops on vectors, an aligned `vector.store
// {nontemporal}`), then the partial line to the end of the row. The partial
// lines are masked stores through the cache, except where the line's other
// cells are ring cells whose values are known (StreamingRing): then the
// line is stored whole too.
//
//===----------------------------------------------------------------------===//

#include "HostLowering.h"

#include "Stencil/Dialect/Stencil/Analysis/AccessExtents.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::host;

/// `index` as a linear element offset into `buffer` (identity layout).
static Value getLinearOffset(OpBuilder &builder, Location loc, Value buffer,
                             ValueRange index) {
  Value offset = index.front();
  for (unsigned axis = 1; axis < index.size(); ++axis) {
    Value size = memref::DimOp::create(builder, loc, buffer, axis);
    offset = arith::AddIOp::create(
        builder, loc, arith::MulIOp::create(builder, loc, offset, size),
        index[axis]);
  }
  return offset;
}

/// The body of `apply` on the `lanes` points starting at `point`: all of
/// them, the first output stored non-temporally to a line boundary, or,
/// with `mask`, the lanes it enables, all outputs stored through the cache.
/// With a mask and `ringSource`, the first output's line is stored whole
/// and non-temporally, its masked-off lanes taken from `ringSource`.
static void emitVectorPoints(OpBuilder &builder, ApplyOp apply,
                             ValueRange point, int64_t lanes, Value mask,
                             ArrayRef<Value> inputBuffers,
                             ArrayRef<Value> outputBuffers,
                             Value ringSource = nullptr) {
  RowVectorizer vectorizer(lanes);
  emitPoint(
      builder, apply.getLoc(), apply, point,
      [&](OpBuilder &b, Location l, unsigned input, ValueRange at,
          AccessOp access) {
        return vectorizer.load(b, l, inputBuffers[input], at, mask, access);
      },
      [&](OpBuilder &b, Location l, unsigned output, Value value) {
        // Only the first output's lines are aligned (the row starts at its
        // line boundary); the others store through the cache.
        if (mask && ringSource && output == 0) {
          Value computed = vectorizer.asVector(b, l, value);
          Value ringCells = vector::LoadOp::create(
              b, l, llvm::cast<VectorType>(computed.getType()), ringSource,
              point);
          vector::StoreOp::create(
              b, l, arith::SelectOp::create(b, l, mask, computed, ringCells),
              outputBuffers[output], point, /*nontemporal=*/true,
              llvm::MaybeAlign(kLineBytes));
          return;
        }
        vectorizer.store(b, l, value, outputBuffers[output], point, mask,
                         /*nontemporal=*/!mask && output == 0);
      },
      /*scalar=*/nullptr,
      [&](OpBuilder &b, Operation &op, IRMapping &mapping) {
        vectorizer.widen(b, op, mapping);
      });
}

/// The whole lines [from, to) of a row, `lanes` points each, stored
/// non-temporally.
static void emitLineLoop(OpBuilder &builder, Location loc, ApplyOp apply,
                         ValueRange row, Value from, Value to, int64_t lanes,
                         ArrayRef<Value> inputBuffers,
                         ArrayRef<Value> outputBuffers) {
  scf::ForOp::create(
      builder, loc, from, to,
      arith::ConstantIndexOp::create(builder, loc, lanes), ValueRange(),
      [&](OpBuilder &b, Location l, Value column, ValueRange) {
        SmallVector<Value, 3> point(row);
        point.push_back(column);
        emitVectorPoints(b, apply, point, lanes,
                         /*mask=*/Value(), inputBuffers, outputBuffers);
        scf::YieldOp::create(b, l);
      });
}

/// The masked loads of a line start at its first lane's point plus the
/// access's offset; that address must lie inside its buffer, even for a
/// masked-off lane. Per buffer `apply` reads, how far below a point the
/// reads reach in linear order (the buffers that reach back only); none
/// when a buffer read has a dynamic shape.
static std::optional<SmallVector<std::pair<Value, int64_t>>>
getReadReaches(ApplyOp apply, ArrayRef<Value> inputBuffers) {
  SmallVector<std::pair<Value, int64_t>> reaches;
  Block *body = apply.getBodyBlock();
  // A whole end line holds lanes of the neighbouring row, which emitPoint
  // gives this row's coordinates: right for fields of the grid's rank (the
  // linear offset is the same), wrong for a coordinate or a lower-rank
  // field's entry.
  if (llvm::any_of(body->getOperations(), [](Operation &op) {
        auto access = llvm::dyn_cast<AccessOp>(op);
        return llvm::isa<IndexOp>(op) || (access && access.getAlong());
      }))
    return std::nullopt;
  AccessExtentAnalysis reads(apply);
  for (auto [index, buffer] : llvm::enumerate(inputBuffers)) {
    auto type =
        llvm::dyn_cast_or_null<MemRefType>(buffer ? buffer.getType() : Type());
    if (!type)
      continue;
    if (!type.hasStaticShape())
      return std::nullopt;
    std::optional<Extent> extent = reads.getExtent(body->getArgument(index));
    int64_t stride = 1, reach = 0;
    for (int axis = type.getRank() - 1; axis >= 0; --axis) {
      if (extent)
        reach += extent->getLowHalo(axis) * stride;
      stride *= type.getDimSize(axis);
    }
    if (reach > 0)
      reaches.push_back({buffer, reach});
  }
  return reaches;
}

namespace {
/// Which cells of a line around a row of a streamed tile are its points
/// and which are ring cells (StreamingRing), for storing the line whole.
/// A line starts at a column of the row: before 0 it begins in the previous
/// row, and it may end in the next one.
class RingLines {
public:
  struct Line {
    /// Whether the line may be stored whole.
    Value whole;
    /// Its lanes that hold points of the tile.
    Value computed;
    /// Whether it holds points of the next row, and that row is the tile's.
    Value nextRowsHead;
  };

  /// `reaches`: per buffer read, how far below a point its reads reach in
  /// linear order (getReadReaches).
  RingLines(OpBuilder &builder, Location loc, const StreamingRing &ring,
            ValueRange row, Value from, Value to, int64_t lanes,
            SmallVector<std::pair<Value, int64_t>> reaches, Value output)
      : loc(loc), ring(ring), row(row), from(from), to(to), lanes(lanes),
        reaches(std::move(reaches)) {
    unsigned rank = row.size() + 1;
    rowSize = memref::DimOp::create(builder, loc, output, rank - 1);
    if (rank >= 2)
      rows = memref::DimOp::create(builder, loc, output, rank - 2);
  }

  Line classify(OpBuilder &builder, Value start) const {
    auto indexType = builder.getIndexType();
    auto vectorType = VectorType::get({lanes}, indexType);
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, value);
    };
    auto splat = [&](Value value) -> Value {
      return vector::BroadcastOp::create(
          builder, loc, VectorType::get({lanes}, value.getType()), value);
    };
    auto cmp = [&](arith::CmpIPredicate predicate, Value lhs, Value rhs) {
      return arith::CmpIOp::create(builder, loc, predicate, lhs, rhs)
          .getResult();
    };
    auto both = [&](Value lhs, Value rhs) -> Value {
      return arith::AndIOp::create(builder, loc, lhs, rhs);
    };
    auto either = [&](Value lhs, Value rhs) -> Value {
      return arith::OrIOp::create(builder, loc, lhs, rhs);
    };
    auto select = [&](Value condition, Value lhs, Value rhs) -> Value {
      return arith::SelectOp::create(builder, loc, condition, lhs, rhs);
    };
    auto within = [&](Value value, Value lower, Value upper) {
      Value atLeast = cmp(arith::CmpIPredicate::sge, value, lower);
      Value below = cmp(arith::CmpIPredicate::slt, value, upper);
      return both(atLeast, below);
    };
    using P = arith::CmpIPredicate;
    Value lineEnd = arith::AddIOp::create(builder, loc, start, constant(lanes));
    // The line spans at most the rows next to this one, and those exist
    // (in the same plane: the previous row of a plane's first row is the
    // last of another plane).
    Value whole = cmp(P::sge, rowSize, constant(lanes));
    Value previousRow, nextRow;
    if (rows) {
      previousRow =
          arith::SubIOp::create(builder, loc, row.back(), constant(1));
      nextRow = arith::AddIOp::create(builder, loc, row.back(), constant(1));
      Value startsInRow = cmp(P::sge, start, constant(0));
      Value hasPreviousRow = cmp(P::sge, previousRow, constant(0));
      whole = both(whole, either(startsInRow, hasPreviousRow));
      Value endsInRow = cmp(P::sle, lineEnd, rowSize);
      Value hasNextRow = cmp(P::slt, nextRow, rows);
      whole = both(whole, either(endsInRow, hasNextRow));
    } else {
      Value startsInRow = cmp(P::sge, start, constant(0));
      Value endsInRow = cmp(P::sle, lineEnd, rowSize);
      whole = both(whole, both(startsInRow, endsInRow));
    }
    // Every read of the line stays inside its buffer.
    SmallVector<Value, 3> first(row);
    first.push_back(start);
    for (auto [buffer, reach] : reaches) {
      Value offset = getLinearOffset(builder, loc, buffer, first);
      whole = both(whole, cmp(P::sge, offset, constant(reach)));
    }

    // Per lane: its column in its own row, and whether that row is one of
    // the grid's and of the tile's.
    Value steps = vector::StepOp::create(builder, loc, vectorType);
    Value columns = arith::AddIOp::create(builder, loc, steps, splat(start));
    Value back = cmp(P::slt, columns, splat(constant(0)));
    Value on = cmp(P::sge, columns, splat(rowSize));
    Value inPreviousRow =
        arith::AddIOp::create(builder, loc, columns, splat(rowSize));
    Value inNextRow =
        arith::SubIOp::create(builder, loc, columns, splat(rowSize));
    Value column = select(back, inPreviousRow, select(on, inNextRow, columns));
    Value yes = splat(arith::ConstantIntOp::create(builder, loc, 1, 1));
    Value gridRow = yes, tileRow = yes;
    Value nextRowsHead = arith::ConstantIntOp::create(builder, loc, 0, 1);
    if (rows) {
      auto laneRow = [&](Value previous, Value next) {
        Value previousLanes = splat(previous);
        Value nextLanes = splat(next);
        return select(back, previousLanes, select(on, nextLanes, yes));
      };
      Value previousInGrid =
          within(previousRow, ring.rowGridLower, ring.rowGridUpper);
      Value nextInGrid = within(nextRow, ring.rowGridLower, ring.rowGridUpper);
      gridRow = laneRow(previousInGrid, nextInGrid);
      Value nextInTile = within(nextRow, ring.rowTileLower, ring.rowTileUpper);
      Value previousInTile =
          within(previousRow, ring.rowTileLower, ring.rowTileUpper);
      tileRow = laneRow(previousInTile, nextInTile);
      Value nextRowsFrom = arith::AddIOp::create(builder, loc, rowSize, from);
      nextRowsHead = both(nextInTile, cmp(P::sgt, lineEnd, nextRowsFrom));
    }
    Value fromLanes = splat(from);
    Value toLanes = splat(to);
    Value computed = both(tileRow, within(column, fromLanes, toLanes));
    Value gridLowerLanes = splat(ring.gridLower);
    Value gridUpperLanes = splat(ring.gridUpper);
    Value gridCell =
        both(gridRow, within(column, gridLowerLanes, gridUpperLanes));
    Value ringCell = arith::XOrIOp::create(builder, loc, gridCell, yes);
    Value allowed = either(computed, ringCell);
    Value allAllowed = vector::ReductionOp::create(
        builder, loc, vector::CombiningKind::AND, allowed);
    whole = both(whole, allAllowed);
    return {whole, computed, nextRowsHead};
  }

private:
  Location loc;
  const StreamingRing &ring;
  ValueRange row;
  Value from, to;
  int64_t lanes;
  /// The output's row length, and its number of rows (grids of 2 or more
  /// axes).
  Value rowSize, rows;
  SmallVector<std::pair<Value, int64_t>> reaches;
};
} // namespace

void host::emitStreamingRow(OpBuilder &builder, Location loc, ApplyOp apply,
                            ValueRange row, Value from, Value to,
                            ArrayRef<Value> inputBuffers,
                            ArrayRef<Value> outputBuffers, PointFn scalarPoint,
                            const StreamingRing *ring) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Value output = outputBuffers.front();
  auto type = llvm::cast<MemRefType>(output.getType());
  int64_t elementBytes = getElementBytes(type);
  int64_t lanes = getElementsPerLine(type);
  // Points before the first line boundary of the output row: the distance
  // of its first byte to the next multiple of kLineBytes, in elements.
  SmallVector<Value, 3> first(row);
  first.push_back(from);
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, output);
  Value firstOffset = getLinearOffset(builder, loc, output, first);
  Value firstBytes =
      arith::MulIOp::create(builder, loc, firstOffset, constant(elementBytes));
  Value address = arith::AddIOp::create(builder, loc, base, firstBytes);
  Value line = constant(kLineBytes);
  Value intoLine = arith::RemUIOp::create(builder, loc, address, line);
  Value toLineEnd = arith::SubIOp::create(builder, loc, line, intoLine);
  Value headBytes = arith::RemUIOp::create(builder, loc, toLineEnd, line);
  Value length = arith::SubIOp::create(builder, loc, to, from);
  Value alignedHead =
      arith::DivUIOp::create(builder, loc, headBytes, constant(elementBytes));
  Value head = arith::MinSIOp::create(builder, loc, alignedHead, length);
  Value bodyFrom = arith::AddIOp::create(builder, loc, from, head);
  Value afterHead = arith::SubIOp::create(builder, loc, to, bodyFrom);
  Value lines =
      arith::DivUIOp::create(builder, loc, afterHead, constant(lanes));
  Value linePoints =
      arith::MulIOp::create(builder, loc, lines, constant(lanes));
  Value bodyTo = arith::AddIOp::create(builder, loc, bodyFrom, linePoints);

  // The partial lines at both ends: one masked vector each (an empty mask
  // touches no memory), or scalar points where masked-off lanes could trap.
  bool masked = canMaskLanes(apply);
  auto partialLine = [&](Value lower, Value upper) {
    if (masked) {
      SmallVector<Value, 3> point(row);
      point.push_back(lower);
      Value count = arith::SubIOp::create(builder, loc, upper, lower);
      Value mask = vector::CreateMaskOp::create(
          builder, loc, VectorType::get({lanes}, builder.getI1Type()), count);
      emitVectorPoints(builder, apply, point, lanes, mask, inputBuffers,
                       outputBuffers);
      return;
    }
    emitScalarRow(builder, loc, row, lower, upper, scalarPoint);
  };
  std::optional<SmallVector<std::pair<Value, int64_t>>> reaches;
  if (ring && masked)
    reaches = getReadReaches(apply, inputBuffers);
  if (!reaches) {
    partialLine(from, bodyFrom);
    emitLineLoop(builder, loc, apply, row, bodyFrom, bodyTo, lanes,
                 inputBuffers, outputBuffers);
    partialLine(bodyTo, to);
    return;
  }
  // With the ring's values known, an end line is stored whole where every
  // cell of it is either a point of this tile (computed, also in the
  // neighbouring rows) or a ring cell (copied from the source). Nobody else
  // writes such a line; where a line holds another tile's points, its
  // masked store stays. The body runs on the lanes of ring cells too (on
  // the zeros their masked loads give), hence `masked`. The reads must
  // have static shapes, for how far back they reach.
  RingLines ringLines(builder, loc, *ring, row, from, to, lanes,
                      std::move(*reaches), output);
  auto endLine = [&](Value start, Value cond, Value lower, Value upper,
                     bool isTail) {
    RingLines::Line line = ringLines.classify(builder, start);
    auto choice = scf::IfOp::create(
        builder, loc, arith::AndIOp::create(builder, loc, cond, line.whole),
        /*withElseRegion=*/true);
    OpBuilder whole = choice.getThenBodyBuilder();
    if (isTail) {
      // A tail line that reaches into the next row of the tile is that
      // row's head line, which it stores whole as well: leave it to it.
      auto own = scf::IfOp::create(
          whole, loc,
          arith::XOrIOp::create(whole, loc, line.nextRowsHead,
                                arith::ConstantIntOp::create(whole, loc, 1, 1)),
          /*withElseRegion=*/false);
      whole = own.getThenBodyBuilder();
    }
    SmallVector<Value, 3> point(row);
    point.push_back(start);
    emitVectorPoints(whole, apply, point, lanes, line.computed, inputBuffers,
                     outputBuffers, ring->source);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(choice.elseBlock()->getTerminator());
    partialLine(lower, upper);
  };
  // The head line starts `lanes - alignedHead` points before `from`, when
  // `from` is not at a line boundary; the tail line at `bodyTo`.
  Value headEnd = arith::AddIOp::create(builder, loc, from, alignedHead);
  Value headStart =
      arith::SubIOp::create(builder, loc, headEnd, constant(lanes));
  endLine(headStart,
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt,
                                alignedHead, constant(0)),
          from, bodyFrom, /*isTail=*/false);
  emitLineLoop(builder, loc, apply, row, bodyFrom, bodyTo, lanes, inputBuffers,
               outputBuffers);
  endLine(bodyTo,
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt, bodyTo,
                                to),
          bodyTo, to, /*isTail=*/true);
}

void host::emitStreamingFence(OpBuilder &builder, Location loc) {
  // Non-temporal stores are weakly ordered even on x86, and LLVM's release
  // fences do not order them; a locked read-modify-write does (x86) or
  // releases them (elsewhere). It goes to a counter of its own, as an
  // atomic memref op, because an llvm.fence declares no memory effects and
  // would keep the canonicalizer from inlining the alloca scopes that
  // convert-scf-to-openmp wraps loop bodies in.
  auto module = builder.getBlock()->getParentOp()->getParentOfType<ModuleOp>();
  constexpr StringLiteral name = "stencil_streaming_fence";
  auto type = MemRefType::get({}, builder.getI32Type());
  if (!module.lookupSymbol(name)) {
    OpBuilder atModule = OpBuilder::atBlockBegin(module.getBody());
    memref::GlobalOp::create(
        atModule, loc, name, atModule.getStringAttr("private"), type,
        DenseElementsAttr::get(RankedTensorType::get({}, builder.getI32Type()),
                               builder.getI32IntegerAttr(0).getValue()),
        /*constant=*/false, /*alignment=*/nullptr);
  }
  Value counter = memref::GetGlobalOp::create(builder, loc, type, name);
  memref::AtomicRMWOp::create(
      builder, loc, arith::AtomicRMWKind::addi,
      arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), 0),
      counter, ValueRange());
}

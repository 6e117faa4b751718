//===- Prefetch.cpp - software prefetches of host sweeps ------------------===//
//
// The hardware prefetchers follow a stream only within a 4 KiB page and lose
// it at short pieces a row apart. A sweep over a tile of a 2-D or 3-D grid
// reads its newest source rows and writes its destination rows in exactly
// such pieces, so the host loops request them some rows ahead themselves,
// one prefetch per cache line.
//
//===----------------------------------------------------------------------===//

#include "HostLowering.h"

#include "Stencil/Dialect/Stencil/Analysis/AccessExtents.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::host;

/// The most streams a sweep prefetches in software; more go without.
static constexpr size_t kMaxPrefetchedStreams = 4;

int64_t host::getElementBytes(MemRefType type) {
  return std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
}

int64_t host::getElementsPerLine(MemRefType type) {
  return std::max<int64_t>(1, kLineBytes / getElementBytes(type));
}

void host::prefetchBox(OpBuilder &builder, Location loc, Value buffer,
                       ValueRange fixed, ValueRange from, ValueRange to,
                       bool isWrite) {
  auto type = llvm::cast<MemRefType>(buffer.getType());
  SmallVector<Value> steps;
  for (unsigned axis = 0, count = from.size(); axis < count; ++axis)
    steps.push_back(arith::ConstantIndexOp::create(
        builder, loc, axis + 1 == count ? getElementsPerLine(type) : 1));
  scf::buildLoopNest(builder, loc, from, to, steps,
                     [&](OpBuilder &b, Location l, ValueRange trailing) {
                       SmallVector<Value> point(fixed);
                       llvm::append_range(point, trailing);
                       memref::PrefetchOp::create(b, l, buffer, point, isWrite,
                                                  /*localityHint=*/3,
                                                  /*isDataCache=*/true);
                     });
}

RowPrefetcher::RowPrefetcher(Location loc, ApplyOp apply,
                             ValueRange inputBuffers, ValueRange outputBuffers,
                             int64_t distanceBytes, bool prefetchOutputs)
    : loc(loc) {
  unsigned rank = apply.getRank();
  if (distanceBytes <= 0 || rank < 2)
    return;
  // Per buffer, the farthest offset any access reaches along each axis: the
  // rows a point reads for the first time. Outputs are written at the point.
  auto addStream = [&](Value buffer, ArrayRef<int64_t> lead, bool isWrite) {
    for (Stream &stream : streams) {
      if (stream.buffer != buffer)
        continue;
      for (auto [have, offset] : llvm::zip(stream.lead, lead))
        have = std::max(have, offset);
      stream.isWrite |= isWrite;
      return;
    }
    streams.push_back({buffer, SmallVector<int64_t, 3>(lead), isWrite});
  };
  Block *body = apply.getBodyBlock();
  AccessExtentAnalysis reads(apply);
  for (auto [index, buffer] : llvm::enumerate(inputBuffers)) {
    if (!buffer || !llvm::isa<MemRefType>(buffer.getType()))
      continue;
    std::optional<Extent> extent = reads.getExtent(body->getArgument(index));
    // A lower-rank field (a coefficient table) is small and stays cached.
    if (!extent || extent->getRank() != rank)
      continue;
    SmallVector<int64_t, 3> lead;
    for (unsigned axis = 0; axis < rank; ++axis)
      lead.push_back(extent->getHighHalo(axis));
    addStream(buffer, lead, /*isWrite=*/false);
  }
  if (prefetchOutputs)
    for (Value buffer : outputBuffers)
      addStream(buffer, SmallVector<int64_t, 3>(rank, 0), /*isWrite=*/true);
  // With many streams the software requests do more harm than good: measured
  // on Himeno (14 streams) every distance from 512 B to 8 KiB cost 25-40%
  // against none, while heat3d (2 streams) gains 30%. A row's worth of
  // requests per stream fills the core's line fill buffers (10-16), and the
  // loads queue behind them; the hardware prefetchers, which follow up to
  // 32 streams, keep up with long rows by themselves.
  if (streams.empty() || streams.size() > kMaxPrefetchedStreams)
    return;
  // Rows ahead: the distance over the bytes of the widest element's row.
  int64_t elementBytes = 1;
  for (const Stream &stream : streams)
    elementBytes = std::max(
        elementBytes,
        getElementBytes(llvm::cast<MemRefType>(stream.buffer.getType())));
  distanceElements = (distanceBytes + elementBytes - 1) / elementBytes;
}

void RowPrefetcher::beginTile(OpBuilder &builder, ValueRange lower,
                              ValueRange upper) {
  if (distanceElements == 0)
    return;
  tileLower.assign(lower.begin(), lower.end());
  tileUpper.assign(upper.begin(), upper.end());
  // distance / row length rows ahead in the tile's order (rows of the same
  // plane, then the next plane), at least one.
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value rowLength =
      arith::SubIOp::create(builder, loc, upper.back(), lower.back());
  Value distance =
      arith::ConstantIndexOp::create(builder, loc, distanceElements);
  Value nonEmptyRow = arith::MaxSIOp::create(builder, loc, rowLength, one);
  Value rows = arith::CeilDivSIOp::create(builder, loc, distance, nonEmptyRow);
  rowsAhead = arith::MaxSIOp::create(builder, loc, rows, one);
}

void RowPrefetcher::emitRow(OpBuilder &builder, ValueRange row) {
  if (distanceElements == 0)
    return;
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  unsigned rank = tileLower.size();
  unsigned rowAxis = rank - 2;
  Value one = constant(1);
  SmallVector<Value, 3> ahead(row);
  ahead[rowAxis] = arith::AddIOp::create(builder, loc, row[rowAxis], rowsAhead);
  if (rowAxis > 0) {
    // Past the tile's last row: as many rows into the next plane.
    Value past = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                       ahead[rowAxis], tileUpper[rowAxis]);
    Value wrapped = arith::AddIOp::create(
        builder, loc,
        arith::SubIOp::create(builder, loc, ahead[rowAxis], tileUpper[rowAxis]),
        tileLower[rowAxis]);
    ahead[rowAxis] =
        arith::SelectOp::create(builder, loc, past, wrapped, ahead[rowAxis]);
    ahead[rowAxis - 1] = arith::SelectOp::create(
        builder, loc, past,
        arith::AddIOp::create(builder, loc, ahead[rowAxis - 1], one),
        ahead[rowAxis - 1]);
  }
  // The streams' leading rows there, kept inside the arrays.
  SmallVector<SmallVector<Value, 3>> rowStarts;
  for (const Stream &stream : streams) {
    SmallVector<Value, 3> &at = rowStarts.emplace_back();
    for (unsigned axis = 0; axis + 1 < rank; ++axis) {
      Value index = ahead[axis];
      if (stream.lead[axis] > 0)
        index = arith::AddIOp::create(builder, loc, index,
                                      constant(stream.lead[axis]));
      Value last = arith::SubIOp::create(
          builder, loc,
          memref::DimOp::create(builder, loc, stream.buffer, axis), one);
      at.push_back(arith::MinSIOp::create(builder, loc, index, last));
    }
  }
  // One loop over the row's cache lines per element size, every stream's
  // line in its body: a loop per stream (13 for Himeno) costs a loop exit
  // each and is not unrolled when the row length is known at run time only.
  SmallVector<bool> emitted(streams.size(), false);
  for (unsigned first = 0, count = streams.size(); first < count; ++first) {
    if (emitted[first])
      continue;
    auto firstType = llvm::cast<MemRefType>(streams[first].buffer.getType());
    int64_t perLine = getElementsPerLine(firstType);
    auto line = scf::ForOp::create(builder, loc, tileLower.back(),
                                   tileUpper.back(), constant(perLine));
    OpBuilder body = OpBuilder::atBlockBegin(line.getBody());
    Value x = line.getInductionVar();
    for (unsigned index = first; index < count; ++index) {
      const Stream &stream = streams[index];
      if (emitted[index] || getElementsPerLine(llvm::cast<MemRefType>(
                                stream.buffer.getType())) != perLine)
        continue;
      emitted[index] = true;
      SmallVector<Value, 3> point(rowStarts[index]);
      point.push_back(x);
      memref::PrefetchOp::create(body, loc, stream.buffer, point,
                                 stream.isWrite, /*localityHint=*/3,
                                 /*isDataCache=*/true);
    }
  }
}

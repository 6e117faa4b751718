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

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::lowering;

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
          ArrayRef<int64_t>) {
        return vectorizer.load(b, l, inputBuffers[input], at, mask);
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

void lowering::emitStreamingRow(OpBuilder &builder, Location loc, ApplyOp apply,
                                ValueRange row, Value from, Value to,
                                ArrayRef<Value> inputBuffers,
                                ArrayRef<Value> outputBuffers,
                                PointFn scalarPoint,
                                const StreamingRing *ring) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Value output = outputBuffers.front();
  auto type = llvm::cast<MemRefType>(output.getType());
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  int64_t lanes = std::max<int64_t>(1, kLineBytes / elementBytes);
  // Points before the first line boundary of the output row: the distance
  // of its first byte to the next multiple of kLineBytes, in elements.
  SmallVector<Value, 3> first(row);
  first.push_back(from);
  Value address = arith::AddIOp::create(
      builder, loc,
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, output),
      arith::MulIOp::create(builder, loc,
                            getLinearOffset(builder, loc, output, first),
                            constant(elementBytes)));
  Value line = constant(kLineBytes);
  Value headBytes = arith::RemUIOp::create(
      builder, loc,
      arith::SubIOp::create(
          builder, loc, line,
          arith::RemUIOp::create(builder, loc, address, line)),
      line);
  Value length = arith::SubIOp::create(builder, loc, to, from);
  Value alignedHead =
      arith::DivUIOp::create(builder, loc, headBytes, constant(elementBytes));
  Value head = arith::MinSIOp::create(builder, loc, alignedHead, length);
  Value bodyFrom = arith::AddIOp::create(builder, loc, from, head);
  Value lines = arith::DivUIOp::create(
      builder, loc, arith::SubIOp::create(builder, loc, to, bodyFrom),
      constant(lanes));
  Value bodyTo = arith::AddIOp::create(
      builder, loc, bodyFrom,
      arith::MulIOp::create(builder, loc, lines, constant(lanes)));

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
  // An end line stored whole: lanes [first, last) computed, the others
  // copied from the ring's source.
  auto maskType = VectorType::get({lanes}, builder.getI1Type());
  auto wholeLine = [&](OpBuilder &b, Value lineStart, Value first, Value last) {
    auto prefix = [&](Value count) -> Value {
      return vector::CreateMaskOp::create(b, loc, maskType, count);
    };
    Value allLanes = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(maskType, true));
    Value mask = arith::AndIOp::create(
        b, loc, prefix(last),
        arith::XOrIOp::create(b, loc, prefix(first), allLanes));
    SmallVector<Value, 3> point(row);
    point.push_back(lineStart);
    emitVectorPoints(b, apply, point, lanes, mask, inputBuffers, outputBuffers,
                     ring->source);
  };
  // Either `whole` when `useWhole` holds, or the partial line
  // [lower, upper).
  auto endLine = [&](Value useWhole, function_ref<void(OpBuilder &)> whole,
                     Value lower, Value upper) {
    auto choice = scf::IfOp::create(builder, loc, useWhole,
                                    /*withElseRegion=*/true);
    OpBuilder thenBuilder = choice.getThenBodyBuilder();
    whole(thenBuilder);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(choice.elseBlock()->getTerminator());
    partialLine(lower, upper);
  };
  auto cmp = [&](arith::CmpIPredicate predicate, Value lhs, Value rhs) {
    return arith::CmpIOp::create(builder, loc, predicate, lhs, rhs);
  };
  auto both = [&](Value lhs, Value rhs) -> Value {
    return arith::AndIOp::create(builder, loc, lhs, rhs);
  };
  // A whole end line runs the body on its masked-off lanes too (on the
  // zeros their loads give), so the body must allow that.
  bool ringEnds = ring && masked;
  Value rowSize, touchesUpper;
  if (ringEnds) {
    rowSize = memref::DimOp::create(builder, loc, output, row.size());
    touchesUpper = cmp(arith::CmpIPredicate::eq, to, ring->gridUpper);
    // The line holding `from`, when `from` is not at a line boundary: its
    // cells before `from` must be the ring's, inside the row; so must those
    // from `to` on if the row ends in it.
    Value lineEnd = arith::AddIOp::create(builder, loc, from, alignedHead);
    Value lineStart =
        arith::SubIOp::create(builder, loc, lineEnd, constant(lanes));
    Value rightCovered = arith::OrIOp::create(
        builder, loc, cmp(arith::CmpIPredicate::sle, lineEnd, to),
        both(touchesUpper, cmp(arith::CmpIPredicate::sle, lineEnd, rowSize)));
    Value useWhole =
        both(both(cmp(arith::CmpIPredicate::sgt, alignedHead, constant(0)),
                  cmp(arith::CmpIPredicate::eq, from, ring->gridLower)),
             both(cmp(arith::CmpIPredicate::sge, lineStart, constant(0)),
                  rightCovered));
    endLine(
        useWhole,
        [&](OpBuilder &b) {
          Value last = arith::MinSIOp::create(b, loc, to, lineEnd);
          wholeLine(b, lineStart,
                    arith::SubIOp::create(b, loc, from, lineStart),
                    arith::SubIOp::create(b, loc, last, lineStart));
        },
        from, bodyFrom);
  } else {
    partialLine(from, bodyFrom);
  }
  scf::ForOp::create(
      builder, loc, bodyFrom, bodyTo, constant(lanes), ValueRange(),
      [&](OpBuilder &b, Location l, Value column, ValueRange) {
        SmallVector<Value, 3> point(row);
        point.push_back(column);
        emitVectorPoints(b, apply, point, lanes,
                         /*mask=*/Value(), inputBuffers, outputBuffers);
        scf::YieldOp::create(b, l);
      });
  if (!ringEnds) {
    partialLine(bodyTo, to);
    return;
  }
  // The line after the last whole one, when the row ends at the grid's
  // upper bound inside it and the line lies inside the row.
  Value tailEnd = arith::AddIOp::create(builder, loc, bodyTo, constant(lanes));
  Value useWhole =
      both(both(touchesUpper, cmp(arith::CmpIPredicate::slt, bodyTo, to)),
           cmp(arith::CmpIPredicate::sle, tailEnd, rowSize));
  endLine(
      useWhole,
      [&](OpBuilder &b) {
        wholeLine(b, bodyTo, arith::ConstantIndexOp::create(b, loc, 0),
                  arith::SubIOp::create(b, loc, to, bodyTo));
      },
      bodyTo, to);
}

void lowering::emitStreamingFence(OpBuilder &builder, Location loc) {
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

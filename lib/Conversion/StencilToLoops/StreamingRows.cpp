//===- StreamingRows.cpp - vector rows with non-temporal stores -----------===//
//
// A cached store first reads the line it writes (the read for ownership), so
// a sweep whose fields do not fit in the last-level cache moves three lines
// per line written where two would do. Non-temporal stores of whole, aligned
// lines skip that read. LLVM's loop vectorizer does not vectorize scalar
// stores that carry a non-temporal hint, so the rows are emitted here as
// vectors of one cache line: scalar points up to the first line boundary of
// the first output, then whole lines (`vector.load` of every access, the
// body's element-wise ops on vectors, an aligned `vector.store
// {nontemporal}`), then scalar points to the end of the row.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::lowering;

/// Scalars a vector of them can hold: integers of whole bytes and floats.
static bool isVectorElement(Type type) {
  if (auto integer = llvm::dyn_cast<IntegerType>(type))
    return integer.getWidth() % 8 == 0;
  return llvm::isa<FloatType, IndexType>(type);
}

/// Buffers whose innermost axis is contiguous, of an element of 1, 2, 4 or
/// 8 bytes (so that whole vectors fill whole cache lines).
static bool isRowContiguous(Value buffer) {
  auto type = llvm::dyn_cast_if_present<MemRefType>(buffer.getType());
  if (!type || !type.getLayout().isIdentity() ||
      !llvm::isa<IntegerType, FloatType>(type.getElementType()))
    return false;
  unsigned bits = type.getElementTypeBitWidth();
  return bits >= 8 && bits <= 64 && llvm::isPowerOf2_32(bits);
}

/// Body values that differ between the points of a row: those computed
/// from accesses, by operands or inside regions.
static llvm::DenseSet<Value> getVaryingValues(ApplyOp apply) {
  llvm::DenseSet<Value> varying;
  for (Operation &op : *apply.getBodyBlock()) {
    bool usesVarying =
        op.walk([&](Operation *nested) {
            return llvm::any_of(nested->getOperands(),
                                [&](Value v) { return varying.contains(v); })
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          }).wasInterrupted();
    if (llvm::isa<AccessOp>(op) || usesVarying)
      varying.insert(op.result_begin(), op.result_end());
  }
  return varying;
}

LogicalResult lowering::checkStreamingRows(ApplyOp apply,
                                           ArrayRef<Value> inputBuffers,
                                           ArrayRef<Value> outputBuffers,
                                           std::string &reason) {
  for (Value buffer : outputBuffers)
    if (!isRowContiguous(buffer)) {
      reason = "an output buffer is not a contiguous memref of 1-, 2-, 4- or "
               "8-byte scalars";
      return failure();
    }
  Block *body = apply.getBodyBlock();
  llvm::DenseSet<Value> varying = getVaryingValues(apply);
  for (Operation &op : *body) {
    if (auto access = llvm::dyn_cast<AccessOp>(op)) {
      auto argument = llvm::cast<BlockArgument>(access.getField());
      if (!isRowContiguous(inputBuffers[argument.getArgNumber()])) {
        reason = "an input buffer is not a contiguous memref of 1-, 2-, 4- or "
                 "8-byte scalars";
        return failure();
      }
      continue;
    }
    if (llvm::isa<ReturnOp>(op) || llvm::none_of(op.getResults(), [&](Value v) {
          return varying.contains(v);
        }))
      continue;
    // Varying values are computed lane by lane: only element-wise ops on
    // scalars widen to vectors.
    if (!op.hasTrait<OpTrait::Elementwise>() || op.getNumRegions() != 0 ||
        !llvm::all_of(op.getResultTypes(), isVectorElement) ||
        !llvm::all_of(op.getOperandTypes(), isVectorElement)) {
      reason = "'" + op.getName().getStringRef().str() +
               "' in its body is not an element-wise op on scalars";
      return failure();
    }
  }
  return success();
}

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

/// Integer division traps on the zeros that masked-off lanes load.
static bool hasIntegerDivision(ApplyOp apply) {
  return llvm::any_of(*apply.getBodyBlock(), [](Operation &op) {
    return llvm::isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp,
                     arith::RemUIOp, arith::CeilDivSIOp, arith::CeilDivUIOp,
                     arith::FloorDivSIOp>(op);
  });
}

/// The body of `apply` on the `lanes` points starting at `point`: all of
/// them, the first output stored non-temporally to a line boundary, or,
/// with `mask`, the lanes it enables, all outputs stored through the cache.
/// emitPoint walks the body; values computed from accesses become vectors,
/// the others stay scalars (LICM hoists them) and are broadcast, once, where
/// a vector op uses them.
static void emitVectorPoints(OpBuilder &builder, ApplyOp apply,
                             ValueRange point, int64_t lanes, Value mask,
                             ArrayRef<Value> inputBuffers,
                             ArrayRef<Value> outputBuffers) {
  auto vectorOf = [&](Type type) { return VectorType::get({lanes}, type); };
  llvm::DenseSet<Value> vectors;
  DenseMap<Value, Value> splats;
  auto asVector = [&](OpBuilder &b, Location l, Value value) -> Value {
    if (vectors.contains(value))
      return value;
    Value &splat = splats[value];
    if (!splat)
      splat =
          vector::BroadcastOp::create(b, l, vectorOf(value.getType()), value);
    return splat;
  };
  auto load = [&](OpBuilder &b, Location l, unsigned input,
                  ValueRange at) -> Value {
    Value buffer = inputBuffers[input];
    VectorType type =
        vectorOf(llvm::cast<MemRefType>(buffer.getType()).getElementType());
    Value loaded;
    if (mask) {
      // Masked-off lanes read nothing, so they never fault past the row.
      Value zeros = arith::ConstantOp::create(b, l, type, b.getZeroAttr(type));
      loaded =
          vector::MaskedLoadOp::create(b, l, type, buffer, at, mask, zeros);
    } else {
      loaded = vector::LoadOp::create(b, l, type, buffer, at);
    }
    vectors.insert(loaded);
    return loaded;
  };
  auto store = [&](OpBuilder &b, Location l, unsigned output, Value value) {
    Value vector = asVector(b, l, value);
    if (mask) {
      vector::MaskedStoreOp::create(b, l, outputBuffers[output], point, mask,
                                    vector);
      return;
    }
    // Only the first output's lines are aligned (the row starts at its line
    // boundary); the others store through the cache.
    bool streaming = output == 0;
    vector::StoreOp::create(
        b, l, vector, outputBuffers[output], point, /*nontemporal=*/streaming,
        streaming ? llvm::MaybeAlign(kLineBytes) : llvm::MaybeAlign());
  };
  auto widen = [&](OpBuilder &b, Operation &op, IRMapping &mapping) {
    if (llvm::none_of(op.getOperands(), [&](Value operand) {
          return vectors.contains(mapping.lookupOrDefault(operand));
        })) {
      b.clone(op, mapping);
      return;
    }
    // checkStreamingRows admitted only element-wise ops on scalars here.
    OperationState state(op.getLoc(), op.getName());
    for (Value operand : op.getOperands())
      state.addOperands(
          asVector(b, op.getLoc(), mapping.lookupOrDefault(operand)));
    for (Type type : op.getResultTypes())
      state.addTypes(vectorOf(type));
    state.addAttributes(op.getAttrs());
    Operation *widened = b.create(state);
    for (auto [result, vector] :
         llvm::zip(op.getResults(), widened->getResults())) {
      mapping.map(result, vector);
      vectors.insert(vector);
    }
  };
  emitPoint(builder, apply.getLoc(), apply, point, load, store,
            /*scalar=*/nullptr, widen);
}

void lowering::emitStreamingRow(OpBuilder &builder, Location loc, ApplyOp apply,
                                ValueRange row, Value from, Value to,
                                ArrayRef<Value> inputBuffers,
                                ArrayRef<Value> outputBuffers,
                                PointFn scalarPoint) {
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
  Value head = arith::MinSIOp::create(
      builder, loc,
      arith::DivUIOp::create(builder, loc, headBytes, constant(elementBytes)),
      length);
  Value bodyFrom = arith::AddIOp::create(builder, loc, from, head);
  Value lines = arith::DivUIOp::create(
      builder, loc, arith::SubIOp::create(builder, loc, to, bodyFrom),
      constant(lanes));
  Value bodyTo = arith::AddIOp::create(
      builder, loc, bodyFrom,
      arith::MulIOp::create(builder, loc, lines, constant(lanes)));

  // The partial lines at both ends: one masked vector each (an empty mask
  // touches no memory), or scalar points where masked-off lanes could trap.
  bool masked = !hasIntegerDivision(apply);
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
    scf::ForOp::create(builder, loc, lower, upper, constant(1), ValueRange(),
                       [&](OpBuilder &b, Location l, Value column, ValueRange) {
                         SmallVector<Value, 3> point(row);
                         point.push_back(column);
                         scalarPoint(b, l, point);
                         scf::YieldOp::create(b, l);
                       });
  };
  partialLine(from, bodyFrom);
  scf::ForOp::create(
      builder, loc, bodyFrom, bodyTo, constant(lanes), ValueRange(),
      [&](OpBuilder &b, Location l, Value column, ValueRange) {
        SmallVector<Value, 3> point(row);
        point.push_back(column);
        emitVectorPoints(b, apply, point, lanes,
                         /*mask=*/Value(), inputBuffers, outputBuffers);
        scf::YieldOp::create(b, l);
      });
  partialLine(bodyTo, to);
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

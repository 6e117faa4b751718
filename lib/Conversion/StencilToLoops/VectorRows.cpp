//===- VectorRows.cpp - an apply's body on vectors of a row ---------------===//
//
// What the rows that the lowering emits as vectors itself share: the
// streaming rows (StreamingRows.cpp), whose non-temporal stores LLVM's loop
// vectorizer leaves scalar, and the ring rows of the pipelined time blocks
// (PipelinedTimeBlock.cpp), which reuse the vectors of a row in registers
// where the vectorizer would load each offset again, unaligned.
//
//===----------------------------------------------------------------------===//

#include "HostLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/DenseSet.h"

#include <numeric>

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::host;

/// Scalars a vector of them can hold: integers of whole bytes, truth
/// values (comparisons, masks; never loaded or stored) and floats.
static bool isVectorElement(Type type) {
  if (auto integer = llvm::dyn_cast<IntegerType>(type))
    return integer.getWidth() % 8 == 0 || integer.getWidth() == 1;
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

/// Whether `access` reads a field that varies along the row: one of the
/// grid's rank, or a lower-rank field with the innermost axis.
static bool isAlongRow(AccessOp access) {
  unsigned innermost = access->getParentOfType<ApplyOp>().getRank() - 1;
  return llvm::is_contained(access.getGridAxes(), innermost);
}

/// Body values that differ between the points of a row: those computed
/// from accesses to fields that vary along it or from the coordinate along
/// it, by operands or inside regions.
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
    auto index = llvm::dyn_cast<IndexOp>(op);
    auto access = llvm::dyn_cast<AccessOp>(op);
    bool alongRow =
        (index && uint64_t(index.getAxis()) + 1 == apply.getRank()) ||
        (access && isAlongRow(access));
    if (alongRow || usesVarying)
      varying.insert(op.result_begin(), op.result_end());
  }
  return varying;
}

LogicalResult host::checkVectorRows(ApplyOp apply, ArrayRef<Value> inputBuffers,
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
    // A vector of coordinates along the row (RowVectorizer::widen); the
    // outer axes' coordinates are the row's.
    if (llvm::isa<IndexOp>(op))
      continue;
    if (auto access = llvm::dyn_cast<AccessOp>(op)) {
      auto argument = llvm::cast<BlockArgument>(access.getField());
      SmallVector<int64_t, 3> axes = access.getGridAxes();
      if (isAlongRow(access) && axes.back() + 1 != apply.getRank()) {
        reason = "it reads a lower-rank field across the row (the field's "
                 "last axis is not the grid's innermost)";
        return failure();
      }
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

void host::emitScalarRow(OpBuilder &builder, Location loc, ValueRange row,
                         Value from, Value to, PointFn point, Value one) {
  if (!one)
    one = arith::ConstantIndexOp::create(builder, loc, 1);
  scf::ForOp::create(builder, loc, from, to, one, ValueRange(),
                     [&](OpBuilder &b, Location l, Value column, ValueRange) {
                       SmallVector<Value, 3> at(row);
                       at.push_back(column);
                       point(b, l, at);
                       scf::YieldOp::create(b, l);
                     });
}

bool host::canMaskLanes(ApplyOp apply) {
  // Integer division traps on the zeros that masked-off lanes load.
  return llvm::none_of(*apply.getBodyBlock(), [](Operation &op) {
    return llvm::isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp,
                     arith::RemUIOp, arith::CeilDivSIOp, arith::CeilDivUIOp,
                     arith::FloorDivSIOp>(op);
  });
}

VectorType RowVectorizer::getVectorType(Type element) const {
  return VectorType::get({lanes}, element);
}

Value RowVectorizer::asVector(OpBuilder &builder, Location loc, Value value) {
  if (vectors.contains(value))
    return value;
  Value &splat = splats[value];
  if (!splat)
    splat = vector::BroadcastOp::create(builder, loc,
                                        getVectorType(value.getType()), value);
  return splat;
}

Value RowVectorizer::load(OpBuilder &builder, Location loc, Value buffer,
                          ValueRange at, Value mask, AccessOp access) {
  // checkVectorRows admitted lower-rank reads whose last axis is the row's
  // (a vector, as below) or that lack it (the same value in every lane).
  if (access && !isAlongRow(access))
    return memref::LoadOp::create(builder, loc, buffer, at);
  VectorType type =
      getVectorType(llvm::cast<MemRefType>(buffer.getType()).getElementType());
  if (!mask)
    return add(vector::LoadOp::create(builder, loc, type, buffer, at));
  // Masked-off lanes read nothing, so they never fault past the row.
  Value zeros =
      arith::ConstantOp::create(builder, loc, type, builder.getZeroAttr(type));
  return add(vector::MaskedLoadOp::create(builder, loc, type, buffer, at, mask,
                                          zeros));
}

void RowVectorizer::store(OpBuilder &builder, Location loc, Value value,
                          Value buffer, ValueRange at, Value mask,
                          bool nontemporal) {
  Value vector = asVector(builder, loc, value);
  if (mask) {
    vector::MaskedStoreOp::create(builder, loc, buffer, at, mask, vector);
    return;
  }
  vector::StoreOp::create(builder, loc, vector, buffer, at, nontemporal,
                          nontemporal ? llvm::MaybeAlign(kLineBytes)
                                      : llvm::MaybeAlign());
}

void RowVectorizer::widen(OpBuilder &builder, Operation &op,
                          IRMapping &mapping) {
  // emitPoint mapped the coordinate to the row's first point; along the row
  // each lane adds its own position.
  if (auto index = llvm::dyn_cast<IndexOp>(op)) {
    if (uint64_t(index.getAxis()) + 1 !=
        llvm::cast<ApplyOp>(op.getParentOp()).getRank())
      return;
    Location loc = op.getLoc();
    VectorType type = getVectorType(builder.getIndexType());
    SmallVector<int64_t> positions(lanes);
    std::iota(positions.begin(), positions.end(), 0);
    Value offsets = arith::ConstantOp::create(
        builder, loc, type, builder.getIndexVectorAttr(positions));
    Value start = asVector(builder, loc, mapping.lookup(index.getResult()));
    mapping.map(index.getResult(),
                add(arith::AddIOp::create(builder, loc, start, offsets)));
    return;
  }
  if (llvm::none_of(op.getOperands(), [&](Value operand) {
        return vectors.contains(mapping.lookupOrDefault(operand));
      })) {
    builder.clone(op, mapping);
    return;
  }
  // checkVectorRows admitted only element-wise ops on scalars here.
  OperationState state(op.getLoc(), op.getName());
  for (Value operand : op.getOperands())
    state.addOperands(
        asVector(builder, op.getLoc(), mapping.lookupOrDefault(operand)));
  for (Type type : op.getResultTypes())
    state.addTypes(getVectorType(type));
  state.addAttributes(op.getAttrs());
  Operation *widened = builder.create(state);
  for (auto [result, vector] :
       llvm::zip(op.getResults(), widened->getResults())) {
    mapping.map(result, vector);
    add(vector);
  }
}

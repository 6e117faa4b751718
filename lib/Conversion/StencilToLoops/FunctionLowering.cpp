//===- FunctionLowering.cpp - stencil functions to loops or kernels -------===//
//
// Assigns a buffer (memref) to every field value and rewrites the stencil
// ops into loops over those buffers:
//
// - `stencil.load %m` works in place on %m (a second load of the same memref
//   gets a copy);
// - `stencil.apply` writes into the buffer of its `outs` field, as an
//   `scf.parallel` over tiles with `scf.for` loops inside a tile;
// - `stencil.iterate` becomes an `scf.for` carrying the buffers; a yield that
//   exchanges fields rotates them (the pointer swap);
// - `stencil.exchange` is the identity on one rank; in a function that
//   `stencil-distribute` marked, a halo exchange through runtime/mpi (in
//   the time loop overlapped with the interior points, and every k steps
//   with a deep halo);
// - `stencil.store` copies only when the buffer is not already the target.
//
// Writing in place is what makes this fast, and it is valid only when the
// overwritten field value is dead. The pass checks that and reports the
// cases that would need a fresh buffer instead of miscompiling them.
//
// For the GPU (Options::device) the same structure holds with buffers in
// device memory: a load copies its memref to the device once, a store
// copies back once, and every box of points is a kernel launch
// (DeviceKernels.cpp), so no host<->device copy happens inside the loop.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "Stencil/Conversion/MPIRuntime.h"
#include "Stencil/Dialect/Stencil/IR/StencilOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::lowering;

void lowering::emitPoint(OpBuilder &builder, Location loc, ApplyOp apply,
                         ValueRange point, LoadFn load, StoreFn store,
                         ScalarFn scalar, CloneFn clone) {
  Block *body = apply.getBodyBlock();
  IRMapping mapping;
  for (auto [index, input] : llvm::enumerate(apply.getInputs()))
    if (!llvm::isa<FieldType>(input.getType()))
      mapping.map(body->getArgument(index),
                  scalar ? scalar(builder, loc, index) : input);
  // point + offset, once per (axis, offset).
  DenseMap<std::pair<unsigned, int64_t>, Value> shifted;
  auto index = [&](unsigned axis, int64_t offset) -> Value {
    if (offset == 0)
      return point[axis];
    Value &slot = shifted[{axis, offset}];
    if (!slot)
      slot = arith::AddIOp::create(
          builder, loc, point[axis],
          arith::ConstantIndexOp::create(builder, loc, offset));
    return slot;
  };
  for (Operation &op : *body) {
    if (auto access = llvm::dyn_cast<AccessOp>(op)) {
      auto argument = llvm::cast<BlockArgument>(access.getField());
      SmallVector<Value, 3> indices;
      for (auto [axis, offset] : llvm::enumerate(access.getOffset()))
        indices.push_back(index(axis, offset));
      mapping.map(access.getResult(),
                  load(builder, access.getLoc(), argument.getArgNumber(),
                       indices, access.getOffset()));
      continue;
    }
    if (auto ret = llvm::dyn_cast<ReturnOp>(op)) {
      for (auto [output, value] : llvm::enumerate(ret.getValues()))
        store(builder, ret.getLoc(), output, mapping.lookupOrDefault(value));
      continue;
    }
    if (clone)
      clone(builder, op, mapping);
    else
      builder.clone(op, mapping);
  }
}

void lowering::emitTimeBlockPoint(
    OpBuilder &builder, Location loc, const TimeBlock &block, ValueRange point,
    function_ref<Value(unsigned input)> inputBuffer, CarriedLoadFn load,
    CarriedStoreFn store, ScalarFn scalar, CloneFn clone,
    LoadFn uncarriedLoad) {
  emitPoint(
      builder, loc, block.calc, point,
      [&](OpBuilder &b, Location l, unsigned input, ValueRange at,
          ArrayRef<int64_t> offset) -> Value {
        int pair = block.carriedInput[input];
        if (pair >= 0)
          return load(b, l, pair, at, offset);
        if (uncarriedLoad)
          return uncarriedLoad(b, l, input, at, offset);
        return memref::LoadOp::create(b, l, inputBuffer(input), at);
      },
      [&](OpBuilder &b, Location l, unsigned output, Value value) {
        store(b, l, block.outputPair[output], value);
      },
      scalar, clone);
}

void lowering::getCarriedRadius(ApplyOp calc, ArrayRef<int> carriedInput,
                                SmallVectorImpl<int64_t> &low,
                                SmallVectorImpl<int64_t> &high) {
  low.assign(calc.getRank(), 0);
  high.assign(calc.getRank(), 0);
  calc.getBodyBlock()->walk([&](AccessOp access) {
    auto argument = llvm::cast<BlockArgument>(access.getField());
    if (carriedInput[argument.getArgNumber()] < 0)
      return;
    for (auto [axis, offset] : llvm::enumerate(access.getOffset())) {
      low[axis] = std::max(low[axis], -offset);
      high[axis] = std::max(high[axis], offset);
    }
  });
}

void lowering::forEachRingSlab(
    OpBuilder &builder, ValueRange outerLower, ValueRange outerUpper,
    ValueRange innerLower, ValueRange innerUpper,
    function_ref<void(OpBuilder &, ValueRange, ValueRange)> emit) {
  unsigned rank = outerLower.size();
  for (unsigned axis = 0; axis < rank; ++axis) {
    for (bool high : {false, true}) {
      SmallVector<Value> from, to;
      for (unsigned other = 0; other < rank; ++other) {
        if (other < axis) {
          from.push_back(innerLower[other]);
          to.push_back(innerUpper[other]);
        } else if (other > axis) {
          from.push_back(outerLower[other]);
          to.push_back(outerUpper[other]);
        } else {
          from.push_back(high ? innerUpper[axis] : outerLower[axis]);
          to.push_back(high ? outerUpper[axis] : innerLower[axis]);
        }
      }
      emit(builder, from, to);
    }
  }
}

namespace {

/// The default shape for a grid of `rank` axes (`shapes` holds the 1-, 2-
/// and 3-D ones, outermost first), with the user's `option` replacing
/// entries counted from the innermost axis.
SmallVector<int64_t, 3> getDefaultShape(unsigned rank,
                                        ArrayRef<std::array<int64_t, 3>> shapes,
                                        ArrayRef<int64_t> option) {
  ArrayRef<int64_t> chosen = shapes[std::min(rank, 3u) - 1];
  SmallVector<int64_t, 3> shape(chosen.take_front(std::min(rank, 3u)));
  for (unsigned i = 0; i < option.size() && i < rank; ++i)
    shape[rank - 1 - i] = option[option.size() - 1 - i];
  return shape;
}

/// The tile for an apply without a schedule: long contiguous rows for the
/// vectorizer, several rows per task for OpenMP. 0 stands for the whole
/// extent of the axis.
SmallVector<int64_t, 3> getDefaultTile(unsigned rank,
                                       ArrayRef<int64_t> option) {
  return getDefaultShape(rank, {{16384}, {8, 0}, {1, 8, 0}}, option);
}

/// A new, uninitialized memref with the shape of `like`.
Value allocateLike(OpBuilder &builder, Location loc, Value like) {
  auto type = llvm::cast<MemRefType>(like.getType());
  SmallVector<Value> dynamicSizes;
  for (unsigned axis = 0; axis < type.getRank(); ++axis)
    if (type.isDynamicDim(axis))
      dynamicSizes.push_back(memref::DimOp::create(builder, loc, like, axis));
  return memref::AllocOp::create(builder, loc, type, dynamicSizes);
}

/// A new memref with the shape of `source` holding a copy of it.
Value allocateCopy(OpBuilder &builder, Location loc, Value source) {
  Value copy = allocateLike(builder, loc, source);
  memref::CopyOp::create(builder, loc, source, copy);
  return copy;
}

/// The bounds of `grid` as index values, outermost axis first.
void getGridBounds(OpBuilder &builder, Location loc, GridOp grid,
                   SmallVectorImpl<Value> &lower,
                   SmallVectorImpl<Value> &upper) {
  auto collect = [&](ArrayRef<int64_t> statics, OperandRange dynamics,
                     SmallVectorImpl<Value> &out) {
    auto dynamic = dynamics.begin();
    for (int64_t bound : statics)
      out.push_back(ShapedType::isDynamic(bound)
                        ? *dynamic++
                        : arith::ConstantIndexOp::create(builder, loc, bound)
                              .getResult());
  };
  collect(grid.getStaticLower(), grid.getDynamicLower(), lower);
  collect(grid.getStaticUpper(), grid.getDynamicUpper(), upper);
}

/// `point - shift` per axis (`point` itself when `shift` is empty).
SmallVector<Value> shiftPoint(OpBuilder &builder, Location loc,
                              ValueRange point, ValueRange shift) {
  if (shift.empty())
    return SmallVector<Value>(point);
  SmallVector<Value> shifted;
  for (auto [index, by] : llvm::zip_equal(point, shift))
    shifted.push_back(arith::SubIOp::create(builder, loc, index, by));
  return shifted;
}

/// Points of the innermost axis per parallel iteration of a 1-D box.
static constexpr int64_t kParallelRowChunk = 16384;

/// Calls `body` at every point of the box [lower, upper): in a parallel
/// loop when `parallel`, in a serial nest otherwise.
void emitBoxLoop(OpBuilder &builder, Location loc, ValueRange lower,
                 ValueRange upper, bool parallel,
                 function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  SmallVector<Value> ones(lower.size(), one);
  if (!parallel) {
    scf::buildLoopNest(builder, loc, lower, upper, ones, body);
    return;
  }
  // Parallel over the outer axes (or chunks of a 1-D box), with the
  // innermost axis a serial loop of its own: convert-scf-to-openmp
  // collapses a parallel nest into one loop whose indices are recovered by
  // division, which LLVM does not vectorize.
  unsigned rank = lower.size();
  SmallVector<Value> outerLower(lower.drop_back()),
      outerUpper(upper.drop_back()), steps(ones.begin(), ones.end() - 1);
  Value chunk;
  if (rank == 1) {
    chunk = arith::ConstantIndexOp::create(builder, loc, kParallelRowChunk);
    outerLower.push_back(lower.back());
    outerUpper.push_back(upper.back());
    steps.push_back(chunk);
  }
  scf::ParallelOp::create(
      builder, loc, outerLower, outerUpper, steps,
      [&](OpBuilder &b, Location l, ValueRange outer) {
        Value from = lower.back(), to = upper.back();
        SmallVector<Value, 3> row(outer);
        if (rank == 1) {
          from = outer.front();
          to = arith::MinSIOp::create(
              b, l, arith::AddIOp::create(b, l, from, chunk), upper.back());
          row.clear();
        }
        emitScalarRow(b, l, row, from, to, body, one);
      });
}

/// Copies element p of `source` to `target` for every p in the box [lower,
/// upper), reading source[p - sourceShift] and writing target[p -
/// targetShift] (no shift when empty); in parallel when `parallel`.
void copyBox(OpBuilder &builder, Location loc, Value source, Value target,
             ValueRange lower, ValueRange upper, bool parallel,
             ValueRange sourceShift = {}, ValueRange targetShift = {}) {
  emitBoxLoop(builder, loc, lower, upper, parallel,
              [&](OpBuilder &nested, Location nestedLoc, ValueRange point) {
                Value value = memref::LoadOp::create(
                    nested, nestedLoc, source,
                    shiftPoint(nested, nestedLoc, point, sourceShift));
                memref::StoreOp::create(
                    nested, nestedLoc, value, target,
                    shiftPoint(nested, nestedLoc, point, targetShift));
              });
}

/// Calls `copySlab` on the slabs that make up the cells of `source` outside
/// the box [lower, upper): the ring of boundary and halo cells. Static
/// extents are constants, so slabs of static memrefs have constant bounds.
void forEachRingSlabOf(
    OpBuilder &builder, Location loc, Value source, ValueRange lower,
    ValueRange upper,
    function_ref<void(OpBuilder &, ValueRange, ValueRange)> copySlab) {
  auto type = llvm::cast<MemRefType>(source.getType());
  SmallVector<Value> zeros(type.getRank(),
                           arith::ConstantIndexOp::create(builder, loc, 0));
  SmallVector<Value> sizes;
  for (unsigned axis = 0; axis < type.getRank(); ++axis)
    sizes.push_back(
        type.isDynamicDim(axis)
            ? memref::DimOp::create(builder, loc, source, axis).getResult()
            : arith::ConstantIndexOp::create(builder, loc,
                                             type.getDimSize(axis))
                  .getResult());
  forEachRingSlab(builder, zeros, sizes, lower, upper, copySlab);
}

/// Calls the MPI runtime's exchange function `name` on `buffer`.
void emitExchangeCall(OpBuilder &builder, Location loc, ModuleOp module,
                      StringRef name, Value buffer, ArrayRef<int64_t> widths) {
  auto type = llvm::cast<MemRefType>(buffer.getType());
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  SmallVector<Value> sizes, widthValues;
  for (unsigned axis = 0; axis < type.getRank(); ++axis) {
    sizes.push_back(memref::DimOp::create(builder, loc, buffer, axis));
    widthValues.push_back(constant(widths[axis]));
  }
  SmallVector<Value> args = {
      getBufferAddress(builder, loc, buffer),
      constant(type.getElementType().getIntOrFloatBitWidth() / 8)};
  llvm::append_range(args, padToThreeAxes(builder, loc, sizes, 1));
  llvm::append_range(args, padToThreeAxes(builder, loc, widthValues, 0));
  callMPIRuntime(builder, loc, module, name, args);
}

/// Runs `then` under `condition`, or unconditionally when it is null.
void runIf(OpBuilder &builder, Location loc, Value condition,
           function_ref<void(OpBuilder &)> then) {
  if (!condition)
    return then(builder);
  auto ifOp = scf::IfOp::create(builder, loc, condition);
  OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
  then(thenBuilder);
}

/// Runs `then` when the two memrefs are different buffers at run time.
void ifDifferent(OpBuilder &builder, Location loc, Value a, Value b,
                 Value extraCondition, function_ref<void(OpBuilder &)> then) {
  Value pa = memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, a);
  Value pb = memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, b);
  Value differ =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, pa, pb);
  if (extraCondition)
    differ = arith::AndIOp::create(builder, loc, differ, extraCondition);
  auto ifOp = scf::IfOp::create(builder, loc, differ);
  OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
  then(thenBuilder);
}

/// The copy form of seed 000 Fig. 4 inside a time loop: a calc apply that
/// writes destinations, then an apply that copies each destination into a
/// source at the loop point on the same grid, and a yield of the copies at
/// the sources' positions and the calc results at the destinations'.
struct CopySection {
  /// Halo exchanges of sources the calc reads (distributed functions).
  SmallVector<ExchangeOp> exchanges;
  ApplyOp calc;
  ApplyOp copy;
  /// (source iter_arg index, destination iter_arg index) per copied pair.
  SmallVector<std::pair<unsigned, unsigned>> pairs;
};

std::optional<CopySection> matchCopySection(IterateOp iterate) {
  Block *body = iterate.getBodyBlock();
  auto argIndex = [&](Value value) -> std::optional<unsigned> {
    auto argument = llvm::dyn_cast<BlockArgument>(value);
    if (!argument || argument.getOwner() != body)
      return std::nullopt;
    return argument.getArgNumber();
  };
  // Exchanges of iter_args first, each read by the calc only.
  SmallVector<ExchangeOp> exchanges;
  auto it = body->begin();
  for (; it != body->end(); ++it) {
    auto exchange = llvm::dyn_cast<ExchangeOp>(*it);
    if (!exchange)
      break;
    if (!argIndex(exchange.getField()))
      return std::nullopt;
    exchanges.push_back(exchange);
  }
  if (std::distance(it, body->end()) != 3)
    return std::nullopt;
  auto calc = llvm::dyn_cast<ApplyOp>(*it);
  auto copy = llvm::dyn_cast<ApplyOp>(*std::next(it));
  auto yield = llvm::cast<YieldOp>(body->getTerminator());
  if (!calc || !copy || calc.getGrid() != copy.getGrid())
    return std::nullopt;
  for (ExchangeOp exchange : exchanges)
    for (Operation *user : exchange.getResult().getUsers())
      if (user != calc)
        return std::nullopt;
  CopySection section{exchanges, calc, copy, {}};
  // The field an input stands for, seen through its exchange.
  auto throughExchange = [](Value value) -> Value {
    if (auto exchange = value.getDefiningOp<ExchangeOp>())
      return exchange.getField();
    return value;
  };
  // The calc writes destinations; it must not read them (in the swapped
  // loop their buffers hold older values than the C program's).
  SmallVector<unsigned> destinations;
  for (Value output : calc.getOutputs()) {
    std::optional<unsigned> index = argIndex(output);
    if (!index)
      return std::nullopt;
    destinations.push_back(*index);
  }
  for (Value input : calc.getInputs())
    if (std::optional<unsigned> index = argIndex(throughExchange(input)))
      if (llvm::is_contained(destinations, *index))
        return std::nullopt;
  // The copy: output k = source iter_arg, input k = a calc result, body =
  // access at the point of argument k, returned in order.
  Block *copyBody = copy.getBodyBlock();
  auto ret = llvm::cast<ReturnOp>(copyBody->getTerminator());
  if (copy.getInputs().size() != copy.getOutputs().size() ||
      copyBody->getOperations().size() != copy.getOutputs().size() + 1)
    return std::nullopt;
  for (auto [k, output] : llvm::enumerate(copy.getOutputs())) {
    std::optional<unsigned> source = argIndex(output);
    auto result = llvm::dyn_cast<OpResult>(copy.getInputs()[k]);
    auto access = ret.getValues()[k].getDefiningOp<AccessOp>();
    if (!source || llvm::is_contained(destinations, *source) || !result ||
        result.getOwner() != calc || !access ||
        access.getField() != copyBody->getArgument(k) ||
        llvm::any_of(access.getOffset(), [](int64_t o) { return o != 0; }))
      return std::nullopt;
    unsigned destination = destinations[result.getResultNumber()];
    // The yield: the copy at the source's position, the calc result at the
    // destination's.
    if (yield.getValues()[*source] != copy.getResult(k) ||
        yield.getValues()[destination] != result)
      return std::nullopt;
    section.pairs.push_back({*source, destination});
  }
  // Every destination is copied back exactly once; nothing else is carried.
  if (section.pairs.size() != destinations.size() ||
      2 * section.pairs.size() != iterate.getInits().size())
    return std::nullopt;
  return section;
}

class FunctionLowering {
public:
  FunctionLowering(func::FuncOp func, const Options &options)
      : func(func), options(options), device(options.device) {}

  LogicalResult run() {
    distributed = func->hasAttr(kDistributedFunctionAttr);
    if (device && failed(checkDeviceSupport()))
      return failure();
    // On one rank a halo exchange is the identity: drop them first, so the
    // time loop keeps the forms the fast paths recognise.
    if (!distributed)
      func.walk([](ExchangeOp exchange) {
        exchange.getResult().replaceAllUsesWith(exchange.getField());
        exchange.erase();
      });
    if (failed(lowerBlock(func.getBody().front())))
      return failure();
    // Stencil values are used only by stencil ops: drop every reference
    // first, then erase, in any order.
    for (Operation *op : toErase)
      op->dropAllReferences();
    for (Operation *op : llvm::reverse(toErase))
      op->erase();
    // Device buffers live until the function returns, after its stores.
    if (device)
      func.walk([&](func::ReturnOp ret) {
        OpBuilder atReturn(ret);
        for (Value buffer : deviceBuffers)
          gpu::DeallocOp::create(atReturn, ret.getLoc(), Type(), {}, buffer);
      });
    return success();
  }

private:
  LogicalResult lowerBlock(Block &block);
  LogicalResult lowerLoad(LoadOp load);
  LogicalResult lowerApply(ApplyOp apply);
  void lowerApplyOnHost(OpBuilder &builder, ApplyOp apply,
                        ScheduleAttr schedule, ValueRange lower,
                        ValueRange upper, ArrayRef<Value> outputBuffers,
                        PointFn emitApplyPoint);
  LogicalResult lowerIterate(IterateOp iterate);
  LogicalResult lowerCopySectionAsSwap(IterateOp iterate,
                                       const CopySection &section);
  FailureOr<scf::YieldOp> lowerYield(YieldOp yield, scf::ForOp forOp);
  LogicalResult lowerStore(StoreOp store);
  LogicalResult lowerExchange(ExchangeOp exchange);
  LogicalResult checkOverwrite(ApplyOp apply, Value output);
  void planDistributedSteps(OpBuilder &builder, IterateOp iterate,
                            const CopySection &section, scf::ForOp &forOp);

  // Buffers and copies, in host or device memory.
  LogicalResult checkDeviceSupport();
  /// A buffer of the elements of `like` for the box [from, to).
  Value allocateBox(OpBuilder &builder, Location loc, Value like,
                    ValueRange from, ValueRange to);
  void freeBuffer(OpBuilder &builder, Location loc, Value buffer);
  /// copyBox in host or device memory; on the host in parallel when the box
  /// is large or of unknown size.
  void copyBoxOf(OpBuilder &builder, Location loc, Value source, Value target,
                 ValueRange lower, ValueRange upper,
                 ValueRange sourceShift = {}, ValueRange targetShift = {});
  void copyRingOf(OpBuilder &builder, Location loc, Value source, Value target,
                  ValueRange lower, ValueRange upper);
  /// One compact buffer per slab of the ring of `buffer` outside [lower,
  /// upper): saving touches no more memory than the ring itself.
  SmallVector<Value> allocateRing(OpBuilder &builder, Location loc,
                                  Value buffer, ValueRange lower,
                                  ValueRange upper);
  /// Copies the ring of `buffer` into the slabs of allocateRing, or back
  /// when `restore`.
  void copyRingSlabs(OpBuilder &builder, Location loc, ArrayRef<Value> slabs,
                     Value buffer, ValueRange lower, ValueRange upper,
                     bool restore);
  /// Whether the rings of `a` and `b` outside [lower, upper) differ in any
  /// bit (host only).
  Value ringsDiffer(OpBuilder &builder, Location loc, Value a, Value b,
                    ValueRange lower, ValueRange upper);
  /// A device buffer holding the scalar `value`, copied once where it is
  /// defined, so that kernels take buffers only (what the Vulkan runtime
  /// binds).
  Value getDeviceScalar(Value value);
  /// Loads the scalar `value` from its device buffer, inside a kernel.
  Value loadDeviceScalar(OpBuilder &builder, Location loc, Value value) {
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    return memref::LoadOp::create(builder, loc, getDeviceScalar(value), zero);
  }
  /// The work group of an apply on the device.
  SmallVector<int64_t, 3> getWorkGroup(ScheduleAttr schedule, unsigned rank);

  void setBuffer(Value field, Value buffer) {
    buffers[field] = buffer;
    fieldsOfBuffer[buffer].push_back(field);
  }

  func::FuncOp func;
  const Options &options;
  /// GPU: buffers in device memory, boxes as kernels.
  bool device;
  DenseMap<Value, Value> buffers;
  DenseMap<Value, SmallVector<Value>> fieldsOfBuffer;
  llvm::DenseSet<Value> loadedMemRefs;
  SmallVector<Operation *> toErase;
  llvm::DenseSet<Operation *> loweredStores;
  /// Device buffers to free at the returns.
  SmallVector<Value> deviceBuffers;
  DenseMap<Value, Value> deviceScalars;
  /// The schedule of the time loop being lowered, for its applies.
  ScheduleAttr loopSchedule;
  /// Whether `stencil-distribute` made this function one rank's part.
  bool distributed = false;
  /// Emits the points of an apply given its grid bounds and a function
  /// that emits the points of any box; unset, the grid is emitted as one
  /// box. The distributed time loop splits it (overlap, deep halo).
  using BoxEmitter = function_ref<void(OpBuilder &, ValueRange, ValueRange)>;
  std::function<void(OpBuilder &, ValueRange, ValueRange, BoxEmitter)>
      applyPlan;
  /// Per destination buffer of the swap loop being lowered, the source
  /// whose cells outside the grid (its ring) are kept equal to its own.
  DenseMap<Value, Value> ringSources;
};

LogicalResult FunctionLowering::checkDeviceSupport() {
  if (distributed)
    return func.emitOpError(
        "is distributed across MPI ranks; the GPU lowering runs one rank "
        "per device only without --mpi for now");
  WalkResult result = func.walk([&](Operation *op) -> WalkResult {
    if (auto load = llvm::dyn_cast<LoadOp>(op)) {
      auto type = llvm::cast<MemRefType>(load.getMemref().getType());
      if (!type.hasStaticShape() || !type.getLayout().isIdentity())
        return load.emitOpError("reads ")
               << type
               << "; the GPU lowering needs memrefs of static shape and "
                  "identity layout (kernels take bare pointers)";
    }
    if (auto grid = llvm::dyn_cast<GridOp>(op))
      if (!grid.hasStaticBounds())
        return grid.emitOpError(
            "has dynamic bounds; the GPU lowering needs static grids");
    if (auto apply = llvm::dyn_cast<ApplyOp>(op))
      for (Value input : apply.getInputs())
        if (!llvm::isa<FieldType>(input.getType()) &&
            !input.getType().isIntOrFloat())
          return apply.emitOpError("has a scalar input of type ")
                 << input.getType()
                 << "; kernels take integer or float scalars only";
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

Value FunctionLowering::allocateBox(OpBuilder &builder, Location loc,
                                    Value like, ValueRange from,
                                    ValueRange to) {
  auto likeType = llvm::cast<MemRefType>(like.getType());
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicSizes;
  for (auto [low, high] : llvm::zip_equal(from, to)) {
    std::optional<int64_t> lowValue = getConstantIntValue(low);
    std::optional<int64_t> highValue = getConstantIntValue(high);
    if (lowValue && highValue) {
      shape.push_back(std::max<int64_t>(*highValue - *lowValue, 0));
      continue;
    }
    shape.push_back(ShapedType::kDynamic);
    dynamicSizes.push_back(arith::SubIOp::create(builder, loc, high, low));
  }
  auto type = MemRefType::get(shape, likeType.getElementType());
  if (!device)
    return memref::AllocOp::create(builder, loc, type, dynamicSizes);
  // Device boxes are static (checkDeviceSupport).
  return gpu::AllocOp::create(builder, loc, type, Type(), {}, {}, {})
      .getMemref();
}

void FunctionLowering::freeBuffer(OpBuilder &builder, Location loc,
                                  Value buffer) {
  if (device)
    gpu::DeallocOp::create(builder, loc, Type(), {}, buffer);
  else
    memref::DeallocOp::create(builder, loc, buffer);
}

/// The constant values of `values` (device boxes have static bounds).
static SmallVector<int64_t, 3> getConstants(ValueRange values) {
  SmallVector<int64_t, 3> constants;
  for (Value value : values)
    constants.push_back(*getConstantIntValue(value));
  return constants;
}

/// Boxes with fewer elements than this are copied by one thread.
static constexpr int64_t kParallelCopyElements = 1 << 15;

/// Whether the box [lower, upper) is worth a parallel loop on the host:
/// large, or of a size known only at run time.
static bool isLargeBox(ValueRange lower, ValueRange upper) {
  int64_t elements = 1;
  for (auto [low, high] : llvm::zip_equal(lower, upper)) {
    std::optional<int64_t> lowValue = getConstantIntValue(low);
    std::optional<int64_t> highValue = getConstantIntValue(high);
    if (!lowValue || !highValue)
      return true;
    elements *= *highValue - *lowValue;
  }
  return elements >= kParallelCopyElements;
}

void FunctionLowering::copyBoxOf(OpBuilder &builder, Location loc, Value source,
                                 Value target, ValueRange lower,
                                 ValueRange upper, ValueRange sourceShift,
                                 ValueRange targetShift) {
  if (!device) {
    return copyBox(builder, loc, source, target, lower, upper,
                   /*parallel=*/isLargeBox(lower, upper), sourceShift,
                   targetShift);
  }
  SmallVector<int64_t, 3> sourceBy = getConstants(sourceShift);
  SmallVector<int64_t, 3> targetBy = getConstants(targetShift);
  emitDeviceBox(
      builder, loc, getWorkGroup({}, lower.size()), getConstants(lower),
      getConstants(upper), [&](OpBuilder &b, Location l, ValueRange point) {
        auto shifted = [&](ArrayRef<int64_t> by) {
          SmallVector<Value> indices;
          for (auto [axis, index] : llvm::enumerate(point))
            indices.push_back(by.empty() ? index
                                         : arith::SubIOp::create(
                                               b, l, index,
                                               arith::ConstantIndexOp::create(
                                                   b, l, by[axis])));
          return indices;
        };
        Value value = memref::LoadOp::create(b, l, source, shifted(sourceBy));
        memref::StoreOp::create(b, l, value, target, shifted(targetBy));
      });
}

void FunctionLowering::copyRingOf(OpBuilder &builder, Location loc,
                                  Value source, Value target, ValueRange lower,
                                  ValueRange upper) {
  forEachRingSlabOf(builder, loc, source, lower, upper,
                    [&](OpBuilder &b, ValueRange from, ValueRange to) {
                      copyBoxOf(b, loc, source, target, from, to);
                    });
}

SmallVector<Value> FunctionLowering::allocateRing(OpBuilder &builder,
                                                  Location loc, Value buffer,
                                                  ValueRange lower,
                                                  ValueRange upper) {
  SmallVector<Value> slabs;
  forEachRingSlabOf(builder, loc, buffer, lower, upper,
                    [&](OpBuilder &b, ValueRange from, ValueRange to) {
                      slabs.push_back(allocateBox(b, loc, buffer, from, to));
                    });
  return slabs;
}

void FunctionLowering::copyRingSlabs(OpBuilder &builder, Location loc,
                                     ArrayRef<Value> slabs, Value buffer,
                                     ValueRange lower, ValueRange upper,
                                     bool restore) {
  const Value *slab = slabs.begin();
  forEachRingSlabOf(builder, loc, buffer, lower, upper,
                    [&](OpBuilder &b, ValueRange from, ValueRange to) {
                      if (restore)
                        copyBoxOf(b, loc, *slab++, buffer, from, to,
                                  /*sourceShift=*/from);
                      else
                        copyBoxOf(b, loc, buffer, *slab++, from, to,
                                  /*sourceShift=*/{}, /*targetShift=*/from);
                    });
}

Value FunctionLowering::ringsDiffer(OpBuilder &builder, Location loc, Value a,
                                    Value b, ValueRange lower,
                                    ValueRange upper) {
  // A flag set by whichever point differs; an atomic store, as the large
  // slabs are compared in parallel.
  auto flagType = MemRefType::get({}, builder.getI8Type());
  Value flag = memref::AllocaOp::create(builder, loc, flagType);
  auto i8 = [&](OpBuilder &ob, int64_t value) -> Value {
    return arith::ConstantIntOp::create(ob, loc, ob.getI8Type(), value);
  };
  memref::StoreOp::create(builder, loc, i8(builder, 0), flag, ValueRange{});
  Type element = llvm::cast<MemRefType>(a.getType()).getElementType();
  Type bits = builder.getIntegerType(element.getIntOrFloatBitWidth());
  forEachRingSlabOf(
      builder, loc, a, lower, upper,
      [&](OpBuilder &sb, ValueRange from, ValueRange to) {
        auto body = [&](OpBuilder &nb, Location nl, ValueRange point) {
          auto asBits = [&](Value buffer) -> Value {
            Value v = memref::LoadOp::create(nb, nl, buffer, point);
            return element == bits
                       ? v
                       : arith::BitcastOp::create(nb, nl, bits, v).getResult();
          };
          Value bitsOfA = asBits(a);
          Value bitsOfB = asBits(b);
          Value differs = arith::CmpIOp::create(
              nb, nl, arith::CmpIPredicate::ne, bitsOfA, bitsOfB);
          auto ifOp = scf::IfOp::create(nb, nl, differs);
          OpBuilder then = ifOp.getThenBodyBuilder();
          memref::AtomicRMWOp::create(then, nl, arith::AtomicRMWKind::assign,
                                      i8(then, 1), flag, ValueRange{});
        };
        emitBoxLoop(sb, loc, from, to, isLargeBox(from, to), body);
      });
  Value set = memref::LoadOp::create(builder, loc, flag, ValueRange{});
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, set,
                               i8(builder, 0));
}

Value FunctionLowering::getDeviceScalar(Value value) {
  Value &buffer = deviceScalars[value];
  if (buffer)
    return buffer;
  OpBuilder builder(value.getContext());
  if (Operation *definition = value.getDefiningOp())
    builder.setInsertionPointAfter(definition);
  else
    builder.setInsertionPointToStart(value.getParentBlock());
  Location loc = value.getLoc();
  auto type = MemRefType::get({1}, value.getType());
  Value host = memref::AllocaOp::create(builder, loc, type);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  memref::StoreOp::create(builder, loc, value, host, zero);
  buffer =
      gpu::AllocOp::create(builder, loc, type, Type(), {}, {}, {}).getMemref();
  gpu::MemcpyOp::create(builder, loc, Type(), {}, buffer, host);
  deviceBuffers.push_back(buffer);
  return buffer;
}

SmallVector<int64_t, 3> FunctionLowering::getWorkGroup(ScheduleAttr schedule,
                                                       unsigned rank) {
  if (schedule && schedule.getWg().size() == rank)
    return SmallVector<int64_t, 3>(schedule.getWg());
  // 256 work items, the innermost axis along x for coalesced accesses.
  return getDefaultShape(rank, {{256}, {8, 32}, {1, 8, 32}},
                         options.defaultWorkGroup);
}

LogicalResult FunctionLowering::lowerBlock(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .Case<LoadOp>([&](LoadOp load) { return lowerLoad(load); })
            .Case<ApplyOp>([&](ApplyOp apply) { return lowerApply(apply); })
            .Case<IterateOp>(
                [&](IterateOp iterate) { return lowerIterate(iterate); })
            .Case<StoreOp>([&](StoreOp store) { return lowerStore(store); })
            .Case<ExchangeOp>(
                [&](ExchangeOp exchange) { return lowerExchange(exchange); })
            // Yields are lowered with their loop (lowerIterate).
            .Case<YieldOp>([&](YieldOp) { return success(); })
            .Case<GridOp>([&](GridOp grid) {
              toErase.push_back(grid);
              return success();
            })
            .Default([&](Operation *other) -> LogicalResult {
              if (llvm::isa<StencilDialect>(other->getDialect()))
                return other->emitOpError(
                    "is not supported by convert-stencil-to-loops here");
              return success();
            });
    if (failed(result))
      return failure();
  }
  return success();
}

LogicalResult FunctionLowering::lowerLoad(LoadOp load) {
  Value memref = load.getMemref();
  toErase.push_back(load);
  if (device) {
    // Every field from a memref gets its own device copy, made once.
    OpBuilder builder(load);
    Value buffer = gpu::AllocOp::create(builder, load.getLoc(),
                                        memref.getType(), Type(), {}, {}, {})
                       .getMemref();
    gpu::MemcpyOp::create(builder, load.getLoc(), Type(), {}, buffer, memref);
    deviceBuffers.push_back(buffer);
    setBuffer(load.getResult(), buffer);
    return success();
  }
  if (loadedMemRefs.insert(memref).second) {
    setBuffer(load.getResult(), memref);
    return success();
  }
  // A second field from the same memref must not see the first one's
  // in-place updates: give it its own copy.
  OpBuilder builder(load);
  Value copy = allocateCopy(builder, load.getLoc(), memref);
  setBuffer(load.getResult(), copy);
  // Free it when the function returns.
  func.walk([&](func::ReturnOp ret) {
    OpBuilder atReturn(ret);
    memref::DeallocOp::create(atReturn, ret.getLoc(), copy);
  });
  return success();
}

/// Whether `user` runs after `op` within one execution of `op`'s block.
static bool isAfter(Operation *user, Operation *op) {
  Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*user);
  return ancestor && ancestor != op && op->isBeforeInBlock(ancestor);
}

LogicalResult FunctionLowering::checkOverwrite(ApplyOp apply, Value output) {
  Value buffer = buffers.lookup(output);
  // The output's buffer is overwritten on the grid: every field living in
  // it must be dead from here on.
  for (Value field : fieldsOfBuffer.lookup(buffer))
    for (Operation *user : field.getUsers())
      if (isAfter(user, apply)) {
        InFlightDiagnostic diag =
            apply.emitOpError("overwrites the buffer of a field that is "
                              "still used afterwards; this lowering needs "
                              "the output to be dead after the apply");
        diag.attachNote(user->getLoc()) << "later use here";
        return failure();
      }
  // In a loop, writing into a field defined outside the loop destroys the
  // value the next iteration reads again.
  auto loop = apply->getParentOfType<scf::ForOp>();
  if (loop && !loop.getRegion().isAncestor(buffer.getParentRegion()))
    return apply.emitOpError(
        "writes a field defined outside the enclosing time loop; carry it "
        "through the loop's iter_args instead");
  return success();
}

LogicalResult FunctionLowering::lowerApply(ApplyOp apply) {
  GridOp grid = apply.getGridOp();
  if (!grid)
    return apply.emitOpError("needs its grid from a stencil.grid op");
  Location loc = apply.getLoc();
  unsigned rank = apply.getRank();
  Block *body = apply.getBodyBlock();

  SmallVector<Value> outputBuffers;
  for (Value output : apply.getOutputs()) {
    Value buffer = buffers.lookup(output);
    if (!buffer)
      return apply.emitOpError("output has no buffer");
    if (llvm::is_contained(outputBuffers, buffer))
      return apply.emitOpError("writes two outputs into one buffer");
    if (failed(checkOverwrite(apply, output)))
      return failure();
    outputBuffers.push_back(buffer);
  }
  // Reading a point that another work item already overwrote is a race:
  // inputs sharing an output's buffer may be read only at the centre.
  for (auto [index, input] : llvm::enumerate(apply.getInputs())) {
    Value buffer = buffers.lookup(input);
    if (!buffer || !llvm::is_contained(outputBuffers, buffer))
      continue;
    for (Operation *user : body->getArgument(index).getUsers()) {
      auto access = llvm::dyn_cast<FieldAccessOpInterface>(user);
      if (access && llvm::any_of(access.getAccessOffset(),
                                 [](int64_t o) { return o != 0; }))
        return access->emitOpError(
            "reads, at an offset, the buffer its apply writes; this "
            "lowering cannot give the apply a separate output buffer yet");
    }
  }

  OpBuilder builder(apply);
  SmallVector<Value> lower, upper;
  getGridBounds(builder, loc, grid, lower, upper);

  // The apply's own schedule, else that of the time loop being lowered
  // around it (the body has moved into an scf.for by now).
  ScheduleAttr schedule =
      apply.getScheduleAttr() ? apply.getScheduleAttr() : loopSchedule;
  // The apply at one point: reads and writes its buffers; on the device,
  // scalars come from their device copies.
  auto scalarOnDevice = [&](OpBuilder &b, Location l, unsigned input) {
    return loadDeviceScalar(b, l, apply.getInputs()[input]);
  };
  auto emitApplyPoint = [&](OpBuilder &b, Location l, ValueRange point) {
    emitPoint(
        b, l, apply, point,
        [&](OpBuilder &lb, Location ll, unsigned input, ValueRange at,
            ArrayRef<int64_t>) {
          return memref::LoadOp::create(
              lb, ll, buffers.lookup(apply.getInputs()[input]), at);
        },
        [&](OpBuilder &sb, Location sl, unsigned output, Value value) {
          memref::StoreOp::create(sb, sl, value, outputBuffers[output], point);
        },
        device ? ScalarFn(scalarOnDevice) : ScalarFn());
  };
  if (device) {
    SmallVector<int64_t, 3> staticLower, staticUpper;
    for (auto [from, to] : llvm::zip(lower, upper)) {
      staticLower.push_back(*getConstantIntValue(from));
      staticUpper.push_back(*getConstantIntValue(to));
    }
    emitDeviceBox(builder, loc, getWorkGroup(schedule, rank), staticLower,
                  staticUpper, emitApplyPoint);
  } else {
    lowerApplyOnHost(builder, apply, schedule, lower, upper, outputBuffers,
                     emitApplyPoint);
  }
  for (auto [result, buffer] : llvm::zip(apply.getResults(), outputBuffers))
    setBuffer(result, buffer);
  toErase.push_back(apply);
  return success();
}

/// The points of the apply as tiled scf.parallel loops, over the grid or
/// over the boxes the time loop's plan asks for.
void FunctionLowering::lowerApplyOnHost(OpBuilder &builder, ApplyOp apply,
                                        ScheduleAttr schedule, ValueRange lower,
                                        ValueRange upper,
                                        ArrayRef<Value> outputBuffers,
                                        PointFn emitApplyPoint) {
  Location loc = apply.getLoc();
  unsigned rank = apply.getRank();
  SmallVector<int64_t, 3> tile =
      schedule ? SmallVector<int64_t, 3>(schedule.getTileOrWorkGroup())
               : getDefaultTile(rank, options.defaultTile);
  SmallVector<Value> inputBuffers;
  for (Value input : apply.getInputs())
    inputBuffers.push_back(buffers.lookup(input));
  // Streaming stores where the schedule asks for them and the body allows.
  bool streaming = schedule && schedule.getStreamingStores();
  std::string reason;
  if (streaming &&
      failed(checkVectorRows(apply, inputBuffers, outputBuffers, reason))) {
    apply.emitWarning("streaming_stores ignored: ") << reason;
    streaming = false;
  }
  RowPrefetcher prefetcher(loc, apply, inputBuffers, outputBuffers,
                           options.prefetchDistance,
                           /*prefetchOutputs=*/!streaming);
  // The points of the box [boxLower, boxUpper) as parallel tiles.
  auto emitBox = [&](OpBuilder &b, ValueRange boxLower, ValueRange boxUpper) {
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(b, loc, value);
    };
    SmallVector<Value> steps;
    for (unsigned axis = 0; axis < rank; ++axis) {
      if (tile[axis] > 0) {
        steps.push_back(constant(tile[axis]));
        continue;
      }
      // The whole extent, at least 1 so that an empty box is a valid loop.
      Value extent =
          arith::SubIOp::create(b, loc, boxUpper[axis], boxLower[axis]);
      steps.push_back(arith::MaxSIOp::create(b, loc, extent, constant(1)));
    }
    auto parallel = scf::ParallelOp::create(b, loc, boxLower, boxUpper, steps);
    OpBuilder inTile = OpBuilder::atBlockBegin(parallel.getBody());
    SmallVector<Value> tileUpper;
    for (unsigned axis = 0; axis < rank; ++axis) {
      Value end = arith::AddIOp::create(
          inTile, loc, parallel.getInductionVars()[axis], steps[axis]);
      tileUpper.push_back(
          arith::MinSIOp::create(inTile, loc, end, boxUpper[axis]));
    }
    SmallVector<Value> ones(rank,
                            arith::ConstantIndexOp::create(inTile, loc, 1));
    SmallVector<Value> tileLower(parallel.getInductionVars());
    prefetcher.beginTile(inTile, tileLower, tileUpper);
    // The rows, a prefetch ahead, and the points of a row.
    scf::buildLoopNest(
        inTile, loc, ArrayRef(tileLower).drop_back(),
        ArrayRef(tileUpper).drop_back(), ArrayRef(ones).drop_back(),
        [&](OpBuilder &nested, Location nestedLoc, ValueRange row) {
          prefetcher.emitRow(nested, row);
          if (streaming) {
            StreamingRing ring{ringSources.lookup(outputBuffers.front()),
                               lower.back(), upper.back()};
            if (rank >= 2) {
              ring.rowGridLower = lower[rank - 2];
              ring.rowGridUpper = upper[rank - 2];
              ring.rowTileLower = tileLower[rank - 2];
              ring.rowTileUpper = tileUpper[rank - 2];
            }
            emitStreamingRow(nested, nestedLoc, apply, row, tileLower.back(),
                             tileUpper.back(), inputBuffers, outputBuffers,
                             emitApplyPoint, ring.source ? &ring : nullptr);
            return;
          }
          emitScalarRow(nested, nestedLoc, row, tileLower.back(),
                        tileUpper.back(), emitApplyPoint, ones.back());
        });
    if (streaming)
      emitStreamingFence(inTile, loc);
  };
  if (applyPlan)
    applyPlan(builder, lower, upper, emitBox);
  else
    emitBox(builder, lower, upper);
}

LogicalResult FunctionLowering::lowerIterate(IterateOp iterate) {
  if (std::optional<CopySection> section = matchCopySection(iterate))
    return lowerCopySectionAsSwap(iterate, *section);
  Location loc = iterate.getLoc();
  if (iterate.getScheduleAttr() && iterate.getScheduleAttr().getTimeBlock() > 1)
    iterate.emitWarning("time_block ")
        << iterate.getScheduleAttr().getTimeBlock()
        << " is implemented for the calc/copy form of the time loop only; "
           "running one step per sweep";
  SmallVector<Value> initBuffers;
  for (Value init : iterate.getInits()) {
    Value buffer = buffers.lookup(init);
    if (!buffer)
      return iterate.emitOpError("iter_arg has no buffer");
    if (llvm::is_contained(initBuffers, buffer))
      return iterate.emitOpError(
          "carries two fields in one buffer; this lowering needs distinct "
          "buffers");
    initBuffers.push_back(buffer);
  }
  OpBuilder builder(iterate);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  // A negative step count runs no step, as in C.
  Value steps = arith::MaxSIOp::create(builder, loc, iterate.getSteps(), zero);
  auto forOp = scf::ForOp::create(builder, loc, zero, steps, one, initBuffers);
  Block *forBody = forOp.getBody();
  if (!forBody->empty())
    forBody->getTerminator()->erase();
  forBody->getOperations().splice(forBody->end(),
                                  iterate.getBodyBlock()->getOperations());
  for (auto [argument, buffer] : llvm::zip(
           iterate.getBodyBlock()->getArguments(), forOp.getRegionIterArgs()))
    setBuffer(argument, buffer);
  toErase.push_back(iterate);

  ScheduleAttr outerSchedule = loopSchedule;
  if (iterate.getScheduleAttr())
    loopSchedule = iterate.getScheduleAttr();
  LogicalResult lowered = lowerBlock(*forBody);
  loopSchedule = outerSchedule;
  if (failed(lowered))
    return failure();
  auto yield = llvm::cast<YieldOp>(forBody->getTerminator());
  FailureOr<scf::YieldOp> forYield = lowerYield(yield, forOp);
  if (failed(forYield))
    return failure();
  // A loop that yields its buffers in place (the copy form of seed 000
  // Fig. 4) ends with its results in the init buffers: no copy is needed
  // after it. A rotating loop's result buffers are known only at run time.
  bool inPlace =
      llvm::equal(forYield->getOperands(), forOp.getRegionIterArgs());
  for (auto [index, result] : llvm::enumerate(iterate.getResults()))
    setBuffer(result, inPlace ? initBuffers[index] : forOp.getResult(index));
  return success();
}

/// The copy form lowered as a pointer swap, so each step moves half the
/// data. Swapping is valid when a destination's boundary ring equals its
/// source's, so before the loop each destination's ring is saved and given
/// the source's; after it both arrays get the last interior (the C program
/// ends with source == destination on the grid) and the destination its own
/// ring back. Zero steps leave both arrays as they were.
LogicalResult
FunctionLowering::lowerCopySectionAsSwap(IterateOp iterate,
                                         const CopySection &section) {
  Location loc = iterate.getLoc();
  SmallVector<Value> sources, destinations;
  for (auto [source, destination] : section.pairs) {
    sources.push_back(buffers.lookup(iterate.getInits()[source]));
    destinations.push_back(buffers.lookup(iterate.getInits()[destination]));
  }
  SmallVector<Value> all(sources);
  llvm::append_range(all, destinations);
  for (auto [i, buffer] : llvm::enumerate(all))
    if (!buffer || llvm::is_contained(ArrayRef(all).take_front(i), buffer))
      return iterate.emitOpError(
          "carries two fields in one buffer; this lowering needs distinct "
          "buffers");

  OpBuilder builder(iterate);
  SmallVector<Value> lower, upper;
  ApplyOp calc = section.calc;
  getGridBounds(builder, loc, calc.getGridOp(), lower, upper);
  // Rings usually agree already (C programs set both arrays' boundaries
  // alike): then the host skips saving, aligning and restoring them, a
  // strided pass over every row each.
  SmallVector<SmallVector<Value>> savedRings;
  SmallVector<Value> ringDiffers;
  for (unsigned k = 0; k < sources.size(); ++k) {
    Value source = sources[k], destination = destinations[k];
    savedRings.push_back(allocateRing(builder, loc, destination, lower, upper));
    Value differ =
        device ? Value()
               : ringsDiffer(builder, loc, source, destination, lower, upper);
    ringDiffers.push_back(differ);
    runIf(builder, loc, differ, [&](OpBuilder &b) {
      copyRingSlabs(b, loc, savedRings.back(), destination, lower, upper,
                    /*restore=*/false);
      copyRingOf(b, loc, source, destination, lower, upper);
    });
  }

  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value steps = arith::MaxSIOp::create(builder, loc, iterate.getSteps(), zero);
  unsigned count = section.pairs.size();
  Block *body = iterate.getBodyBlock();

  // Temporal blocking: whole blocks of time_block steps first, as
  // overlapped tiles; the remaining steps one at a time below.
  ScheduleAttr schedule =
      iterate.getScheduleAttr() ? iterate.getScheduleAttr() : loopSchedule;
  GridOp grid = calc.getGridOp();
  int64_t timeBlock = schedule ? schedule.getTimeBlock() : 1;
  Value singleSteps = steps;
  SmallVector<Value> loopInits(all);
  if (timeBlock > 1 && !section.exchanges.empty()) {
    iterate.emitWarning("time_block ")
        << timeBlock
        << " is not combined with halo exchanges yet; use exchange_depth "
           "for communication-avoiding steps. Running one step per sweep";
    timeBlock = 1;
  }
  if (timeBlock > 1 && !grid.hasStaticBounds()) {
    iterate.emitWarning("time_block ")
        << timeBlock << " needs static grid bounds; running one step per sweep";
    timeBlock = 1;
  }
  if (timeBlock > 1) {
    SmallVector<int> carriedInput;
    for (Value input : calc.getInputs()) {
      auto argument = llvm::dyn_cast<BlockArgument>(input);
      int pair = -1;
      for (auto [k, p] : llvm::enumerate(section.pairs))
        if (argument && argument.getOwner() == body &&
            argument.getArgNumber() == p.first)
          pair = k;
      carriedInput.push_back(pair);
    }
    SmallVector<unsigned> outputPair;
    for (Value output : calc.getOutputs())
      for (auto [k, p] : llvm::enumerate(section.pairs))
        if (llvm::cast<BlockArgument>(output).getArgNumber() == p.second)
          outputPair.push_back(k);
    SmallVector<int64_t, 3> tile(schedule.getTileOrWorkGroup());
    for (unsigned axis = 0; axis < tile.size(); ++axis)
      tile[axis] = std::min(tile[axis], grid.getStaticUpper()[axis] -
                                            grid.getStaticLower()[axis]);
    Value blockSize = arith::ConstantIndexOp::create(builder, loc, timeBlock);
    Value blocks = arith::DivSIOp::create(builder, loc, steps, blockSize);
    singleSteps = arith::SubIOp::create(
        builder, loc, steps,
        arith::MulIOp::create(builder, loc, blocks, blockSize));
    // Pipelined blocks take their depth at run time: the remaining steps,
    // if more than one, run as one shallower block.
    bool pipelined = !device && calc.getRank() >= 2;
    if (pipelined) {
      Value two = arith::ConstantIndexOp::create(builder, loc, 2);
      Value deepRemainder = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::sge, singleSteps, two);
      blocks = arith::AddIOp::create(
          builder, loc, blocks,
          arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(),
                                       deepRemainder));
      singleSteps = arith::SelectOp::create(builder, loc, deepRemainder, zero,
                                            singleSteps);
    }
    auto blockLoop = scf::ForOp::create(builder, loc, zero, blocks, one, all);
    Block *blockBody = blockLoop.getBody();
    if (!blockBody->empty())
      blockBody->getTerminator()->erase();
    OpBuilder inBlock = OpBuilder::atBlockEnd(blockBody);
    ValueRange iterArgs = blockLoop.getRegionIterArgs();
    TimeBlock block{calc,
                    carriedInput,
                    outputPair,
                    iterArgs.take_front(count),
                    iterArgs.drop_front(count),
                    timeBlock,
                    grid.getStaticLower(),
                    grid.getStaticUpper()};
    auto inputBuffer = [&](unsigned input) {
      return buffers.lookup(calc.getInputs()[input]);
    };
    if (device) {
      int64_t bytes = getTimeBlockWorkgroupBytes(block, tile);
      if (options.workgroupMemoryLimit > 0 &&
          bytes > options.workgroupMemoryLimit)
        return iterate.emitOpError("time_block ")
               << timeBlock << " with tile "
               << llvm::join(
                      llvm::map_range(
                          tile, [](int64_t v) { return std::to_string(v); }),
                      "x")
               << " needs " << bytes
               << " bytes of workgroup memory, above the device limit of "
               << options.workgroupMemoryLimit
               << " bytes; use a smaller tile or time_block";
      emitDeviceTimeBlock(
          inBlock, loc, block, getWorkGroup(schedule, calc.getRank()), tile,
          inputBuffer, [&](OpBuilder &vb, Location vl, unsigned input) {
            return loadDeviceScalar(vb, vl, calc.getInputs()[input]);
          });
    } else if (pipelined) {
      Value done = arith::MulIOp::create(
          inBlock, loc, blockLoop.getInductionVar(), blockSize);
      Value depth = arith::MinSIOp::create(
          inBlock, loc, blockSize,
          arith::SubIOp::create(inBlock, loc, steps, done));
      emitPipelinedTimeBlock(inBlock, loc, block, depth, tile, inputBuffer);
    } else {
      emitOverlappedTimeBlock(inBlock, loc, block, tile, inputBuffer);
    }
    SmallVector<Value> swappedBlock(iterArgs.drop_front(count));
    llvm::append_range(swappedBlock, iterArgs.take_front(count));
    scf::YieldOp::create(inBlock, loc, swappedBlock);
    loopInits.assign(blockLoop.getResults().begin(),
                     blockLoop.getResults().end());
  }

  scf::ForOp forOp;
  if (!section.exchanges.empty())
    planDistributedSteps(builder, iterate, section, forOp);
  forOp = scf::ForOp::create(builder, loc, zero, singleSteps, one, loopInits);
  Block *forBody = forOp.getBody();
  if (!forBody->empty())
    forBody->getTerminator()->erase();
  for (auto [k, pair] : llvm::enumerate(section.pairs)) {
    setBuffer(body->getArgument(pair.first), forOp.getRegionIterArgs()[k]);
    setBuffer(body->getArgument(pair.second),
              forOp.getRegionIterArgs()[count + k]);
  }
  forBody->getOperations().splice(forBody->end(), body->getOperations(),
                                  Block::iterator(calc));
  for (ExchangeOp exchange : section.exchanges)
    setBuffer(exchange.getResult(), buffers.lookup(exchange.getField()));
  toErase.push_back(iterate);
  toErase.push_back(section.copy);
  toErase.push_back(body->getTerminator());

  ScheduleAttr outerSchedule = loopSchedule;
  if (iterate.getScheduleAttr())
    loopSchedule = iterate.getScheduleAttr();
  // The rings were aligned above and no sweep writes them, so each step's
  // destination ring equals its source's. Not so for a distributed loop,
  // whose exchanges refresh the sources' halos only.
  if (section.exchanges.empty())
    for (unsigned k = 0; k < count; ++k)
      ringSources[forOp.getRegionIterArgs()[count + k]] =
          forOp.getRegionIterArgs()[k];
  LogicalResult lowered = lowerApply(calc);
  ringSources.clear();
  loopSchedule = outerSchedule;
  applyPlan = nullptr;
  if (failed(lowered))
    return failure();
  // Swap: the new values become the sources of the next step.
  OpBuilder atEnd = OpBuilder::atBlockEnd(forBody);
  SmallVector<Value> swapped(forOp.getRegionIterArgs().drop_front(count));
  llvm::append_range(swapped, forOp.getRegionIterArgs().take_front(count));
  scf::YieldOp::create(atEnd, loc, swapped);

  builder.setInsertionPointAfter(forOp);
  Value ranSteps = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::sgt, steps, zero);
  for (unsigned k = 0; k < count; ++k) {
    Value latest = forOp.getResult(k);
    ifDifferent(builder, loc, latest, sources[k], {}, [&](OpBuilder &b) {
      copyBoxOf(b, loc, latest, sources[k], lower, upper);
    });
    ifDifferent(builder, loc, latest, destinations[k], ranSteps,
                [&](OpBuilder &b) {
                  copyBoxOf(b, loc, latest, destinations[k], lower, upper);
                });
    runIf(builder, loc, ringDiffers[k], [&](OpBuilder &b) {
      copyRingSlabs(b, loc, savedRings[k], destinations[k], lower, upper,
                    /*restore=*/true);
    });
    for (Value slab : savedRings[k])
      freeBuffer(builder, loc, slab);
  }
  for (auto [k, pair] : llvm::enumerate(section.pairs)) {
    setBuffer(iterate.getResult(pair.first), sources[k]);
    setBuffer(iterate.getResult(pair.second), destinations[k]);
  }
  return success();
}

LogicalResult FunctionLowering::lowerExchange(ExchangeOp exchange) {
  Value buffer = buffers.lookup(exchange.getField());
  if (!buffer)
    return exchange.emitOpError("field has no buffer");
  OpBuilder builder(exchange);
  emitExchangeCall(builder, exchange.getLoc(),
                   func->getParentOfType<ModuleOp>(), "stencil_mpi_exchange",
                   buffer, exchange.getWidths());
  setBuffer(exchange.getResult(), buffer);
  toErase.push_back(exchange);
  return success();
}

/// The steps of a distributed time loop in the copy form (seed 001 and
/// seed 003): at an exchange step the halo travels while the interior
/// points — those that read no halo cell — are computed, then the rest.
/// With exchange depth k the exchange happens every k steps, k x radius
/// deep, and step j after it also computes the ring of (k - 1 - j) x
/// radius cells of the neighbours' points that the next steps read.
/// Emitted before `forOp` exists: the plan reads its induction variable
/// when the calc is lowered into it.
void FunctionLowering::planDistributedSteps(OpBuilder &builder,
                                            IterateOp iterate,
                                            const CopySection &section,
                                            scf::ForOp &forOp) {
  Location loc = iterate.getLoc();
  ModuleOp module = func->getParentOfType<ModuleOp>();
  ApplyOp calc = section.calc;
  unsigned rank = calc.getRank();
  SmallVector<int64_t, 3> radius = calc.getRadius();
  ScheduleAttr schedule =
      iterate.getScheduleAttr() ? iterate.getScheduleAttr() : loopSchedule;
  int64_t depth = schedule ? schedule.getExchangeDepth() : 1;
  auto fieldType = llvm::cast<FieldType>(iterate.getInits()[0].getType());
  DecompositionAttr decomposition = fieldType.getDecomposition();
  // A deep halo needs exchanges as deep; stencil-distribute makes them so.
  for (ExchangeOp exchange : section.exchanges)
    for (unsigned axis = 0; axis < rank; ++axis)
      if (depth > 1 && decomposition.isDistributed(axis) &&
          exchange.getWidths()[axis] < depth * radius[axis]) {
        exchange.emitWarning("width ")
            << exchange.getWidths()[axis] << " along axis " << axis
            << " is less than exchange_depth " << depth << " x radius "
            << radius[axis] << "; exchanging every step instead";
        depth = 1;
      }

  SmallVector<Value> ringLow, ringHigh, neighbourLow, neighbourHigh;
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  for (unsigned axis = 0; axis < rank; ++axis) {
    if (!decomposition || !decomposition.isDistributed(axis)) {
      ringLow.push_back(zero);
      ringHigh.push_back(zero);
      neighbourLow.push_back(zero);
      neighbourHigh.push_back(zero);
      continue;
    }
    auto query = [&](StringRef name, int64_t side) {
      return callMPIRuntime(
          builder, loc, module, name,
          {arith::ConstantIndexOp::create(builder, loc, axis),
           arith::ConstantIndexOp::create(builder, loc, side)},
          /*returnsIndex=*/true);
    };
    ringLow.push_back(query("stencil_mpi_ring", 0));
    ringHigh.push_back(query("stencil_mpi_ring", 1));
    neighbourLow.push_back(query("stencil_mpi_has_neighbor", 0));
    neighbourHigh.push_back(query("stencil_mpi_has_neighbor", 1));
  }

  SmallVector<ExchangeOp> exchanges = section.exchanges;
  applyPlan = [this, loc, rank, radius, depth, ringLow, ringHigh, neighbourLow,
               neighbourHigh, exchanges, module,
               &forOp](OpBuilder &b, ValueRange lower, ValueRange upper,
                       BoxEmitter emitBox) mutable {
    auto constant = [&](OpBuilder &ob, int64_t value) -> Value {
      return arith::ConstantIndexOp::create(ob, loc, value);
    };
    // The grid grown by `steps` x radius into the neighbours' points.
    auto grow = [&](OpBuilder &ob, Value steps, SmallVector<Value> &from,
                    SmallVector<Value> &to) {
      for (unsigned axis = 0; axis < rank; ++axis) {
        Value amount =
            arith::MulIOp::create(ob, loc, steps, constant(ob, radius[axis]));
        from.push_back(arith::SubIOp::create(
            ob, loc, lower[axis],
            arith::MinSIOp::create(ob, loc, amount, ringLow[axis])));
        to.push_back(arith::AddIOp::create(
            ob, loc, upper[axis],
            arith::MinSIOp::create(ob, loc, amount, ringHigh[axis])));
      }
    };
    auto exchangeStep = [&](OpBuilder &ob, ValueRange from, ValueRange to) {
      for (ExchangeOp exchange : ArrayRef(exchanges).drop_back())
        emitExchangeCall(ob, loc, module, "stencil_mpi_exchange",
                         buffers.lookup(exchange.getField()),
                         exchange.getWidths());
      emitExchangeCall(ob, loc, module, "stencil_mpi_exchange_begin",
                       buffers.lookup(exchanges.back().getField()),
                       exchanges.back().getWidths());
      // Points at least a radius away from every neighbour read no halo.
      SmallVector<Value> innerLower, innerUpper;
      for (unsigned axis = 0; axis < rank; ++axis) {
        Value r = constant(ob, radius[axis]);
        Value lo = arith::AddIOp::create(
            ob, loc, lower[axis],
            arith::MulIOp::create(ob, loc, neighbourLow[axis], r));
        Value hi = arith::SubIOp::create(
            ob, loc, upper[axis],
            arith::MulIOp::create(ob, loc, neighbourHigh[axis], r));
        lo = arith::MinSIOp::create(ob, loc, lo, upper[axis]);
        hi = arith::MaxSIOp::create(ob, loc, hi, lo);
        innerLower.push_back(lo);
        innerUpper.push_back(hi);
      }
      emitBox(ob, innerLower, innerUpper);
      callMPIRuntime(ob, loc, module, "stencil_mpi_exchange_end", {});
      forEachRingSlab(ob, from, to, innerLower, innerUpper, emitBox);
    };
    if (depth == 1) {
      exchangeStep(b, lower, upper);
      return;
    }
    Value phase = arith::RemSIOp::create(b, loc, forOp.getInductionVar(),
                                         constant(b, depth));
    Value exchangeNow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              phase, constant(b, 0));
    auto ifOp = scf::IfOp::create(b, loc, exchangeNow, /*withElse=*/true);
    {
      OpBuilder then = ifOp.getThenBodyBuilder();
      SmallVector<Value> from, to;
      grow(then, constant(then, depth - 1), from, to);
      exchangeStep(then, from, to);
    }
    OpBuilder otherwise = ifOp.getElseBodyBuilder();
    Value remaining = arith::SubIOp::create(
        otherwise, loc, constant(otherwise, depth - 1), phase);
    SmallVector<Value> from, to;
    grow(otherwise, remaining, from, to);
    emitBox(otherwise, from, to);
  };
}

FailureOr<scf::YieldOp> FunctionLowering::lowerYield(YieldOp yield,
                                                     scf::ForOp forOp) {
  SmallVector<Value> yielded;
  for (Value value : yield.getValues()) {
    Value buffer = buffers.lookup(value);
    // The next step writes in place: its buffers must stay distinct, as a
    // permutation of the loop's own.
    if (!buffer || !llvm::is_contained(forOp.getRegionIterArgs(), buffer) ||
        llvm::is_contained(yielded, buffer))
      return yield.emitOpError(
          "must yield the loop's buffers in some order (each field an "
          "iter_arg or computed in place of one), once each");
    yielded.push_back(buffer);
  }
  OpBuilder builder(yield);
  auto forYield = scf::YieldOp::create(builder, yield.getLoc(), yielded);
  toErase.push_back(yield);
  return forYield;
}

LogicalResult FunctionLowering::lowerStore(StoreOp store) {
  toErase.push_back(store);
  if (loweredStores.contains(store))
    return success();
  Value buffer = buffers.lookup(store.getField());
  if (buffer == store.getMemref())
    return success();
  if (device) {
    // Device buffers never alias the host memrefs: copy back directly.
    OpBuilder builder(store);
    gpu::MemcpyOp::create(builder, store.getLoc(), Type(), {},
                          store.getMemref(), buffer);
    return success();
  }

  // Stores after a swapping loop may exchange the contents of several
  // memrefs; copy through temporaries so no store reads what another one
  // already overwrote. Group the stores of this block whose fields exist
  // already.
  SmallVector<StoreOp> group;
  for (Operation *op = store; op; op = op->getNextNode())
    if (auto other = llvm::dyn_cast<StoreOp>(op))
      if (!loweredStores.contains(other) &&
          buffers.lookup(other.getField()) != other.getMemref() &&
          (!other.getField().getDefiningOp() ||
           other.getField().getDefiningOp()->getBlock() != store->getBlock() ||
           other.getField().getDefiningOp()->isBeforeInBlock(store)))
        group.push_back(other);

  OpBuilder builder(store);
  Location loc = store.getLoc();
  if (group.size() == 1) {
    // Copy unless the loop left the result in the target already.
    Value source =
        memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, buffer);
    Value target = memref::ExtractAlignedPointerAsIndexOp::create(
        builder, loc, store.getMemref());
    Value differ = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                         source, target);
    auto ifOp = scf::IfOp::create(builder, loc, differ);
    OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
    memref::CopyOp::create(thenBuilder, loc, buffer, store.getMemref());
    loweredStores.insert(store);
    return success();
  }
  SmallVector<Value> temporaries;
  for (StoreOp member : group) {
    temporaries.push_back(
        allocateCopy(builder, loc, buffers.lookup(member.getField())));
  }
  for (auto [member, temporary] : llvm::zip(group, temporaries)) {
    memref::CopyOp::create(builder, loc, temporary, member.getMemref());
    memref::DeallocOp::create(builder, loc, temporary);
    loweredStores.insert(member);
  }
  return success();
}

} // namespace

LogicalResult lowering::lowerFunction(func::FuncOp func,
                                      const Options &options) {
  return FunctionLowering(func, options).run();
}

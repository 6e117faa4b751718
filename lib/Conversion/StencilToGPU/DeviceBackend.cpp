//===- DeviceBackend.cpp - Buffers and kernels in device memory -----------===//
//
// The device backend of the lowering: every load copies its memref into a
// `gpu.alloc` buffer once, every store copies back once, and every box of
// points is a kernel launch (DeviceKernels.cpp), so no host<->device copy
// happens inside the time loop, which stays on the host. Scalars reach
// kernels through one-element device buffers, so kernels take buffers only
// (what the Vulkan runtime binds).
//
//===----------------------------------------------------------------------===//

#include "DeviceKernels.h"

#include "Stencil/Conversion/StencilToGPU/StencilToGPU.h"
#include "Stencil/Support/Shape.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::device;

namespace {

class DeviceBackend : public LoweringBackend {
public:
  explicit DeviceBackend(const DeviceLoweringOptions &options)
      : options(options) {}

  StringRef getPassName() const override { return "convert-stencil-to-gpu"; }
  BufferPlanOptions getPlanOptions() const override {
    // Device buffers never alias the host memrefs.
    return {/*loadsAliasMemRefs=*/false};
  }
  LogicalResult checkFunction(func::FuncOp func,
                              const BufferPlan &plan) override;

  Value allocateLike(OpBuilder &builder, Location loc, Value like) override {
    SmallVector<Value> dynamicSizes =
        decomposeMixedValues(memref::getMixedSizes(builder, loc, like)).second;
    return gpu::AllocOp::create(builder, loc, like.getType(), Type(), {},
                                dynamicSizes, {})
        .getMemref();
  }
  /// Boxes of run-time extent are made like the field, so that kernels of
  /// static fields take static buffers (bare pointers, SPIR-V bindings).
  bool allocatesDynamicBoxes() const override { return false; }
  BoxBuffer allocateBox(OpBuilder &builder, Location loc, Value like,
                        ValueRange from, ValueRange to) override {
    SmallVector<int64_t, 3> lower = getConstantBounds(from);
    SmallVector<int64_t, 3> upper = getConstantBounds(to);
    assert(llvm::none_of(llvm::concat<int64_t>(lower, upper),
                         ShapedType::isDynamic) &&
           "the core allocates boxes of run-time extent like the field");
    SmallVector<int64_t> shape;
    for (auto [low, high] : llvm::zip_equal(lower, upper))
      shape.push_back(std::max<int64_t>(high - low, 0));
    auto type = MemRefType::get(
        shape, llvm::cast<MemRefType>(like.getType()).getElementType());
    Value buffer = gpu::AllocOp::create(builder, loc, type, Type(), {}, {}, {})
                       .getMemref();
    return {buffer, SmallVector<Value, 3>(from)};
  }
  void freeBuffer(OpBuilder &builder, Location loc, Value buffer) override {
    gpu::DeallocOp::create(builder, loc, Type(), {}, buffer);
  }
  void copyBox(OpBuilder &builder, Location loc, Value source, Value target,
               ValueRange lower, ValueRange upper, ValueRange sourceShift,
               ValueRange targetShift) override;
  Value ringsDiffer(OpBuilder &, Location, Value, Value, ValueRange, ValueRange,
                    RingCells) override {
    // Comparing would cost a kernel and a copy to the host; save and restore
    // the rings unconditionally.
    return {};
  }
  bool buffersMayAliasMemRefs() const override { return false; }
  void copyFromMemRef(OpBuilder &builder, Location loc, Value memref,
                      Value buffer) override {
    gpu::MemcpyOp::create(builder, loc, Type(), {}, buffer, memref);
  }
  void copyToMemRef(OpBuilder &builder, Location loc, Value buffer,
                    Value memref) override {
    gpu::MemcpyOp::create(builder, loc, Type(), {}, memref, buffer);
  }

  /// The scalar `value`, loaded from its device buffer inside a kernel.
  Value loadScalar(OpBuilder &builder, Location loc, Value value) override {
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value loaded =
        memref::LoadOp::create(builder, loc, getDeviceScalar(value), zero);
    if (loaded.getType() == value.getType())
      return loaded;
    return arith::TruncIOp::create(builder, loc, value.getType(), loaded);
  }
  /// The host `index` value `value` inside a kernel: a constant, or read as
  /// a 32-bit integer from a device buffer (grid bounds fit; SPIR-V's index
  /// is 32 bits wide).
  Value getKernelIndex(OpBuilder &builder, Location loc, Value value) {
    if (std::optional<int64_t> constant = getConstantIntValue(value))
      return arith::ConstantIndexOp::create(builder, loc, *constant);
    Value &narrow = narrowIndices[value];
    if (!narrow) {
      OpBuilder atDefinition(value.getContext());
      if (Operation *definition = value.getDefiningOp())
        atDefinition.setInsertionPointAfter(definition);
      else
        atDefinition.setInsertionPointToStart(value.getParentBlock());
      narrow = arith::IndexCastOp::create(atDefinition, value.getLoc(),
                                          atDefinition.getI32Type(), value);
    }
    Value loaded = loadScalar(builder, loc, narrow);
    return arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                      loaded);
  }
  SmallVector<Value> emitApply(OpBuilder &builder, const ApplyLowering &apply,
                               BoxPartition partition) override;
  /// The apply's points in the box [lower, upper): one launch, and per
  /// reduction the box's contributions combined.
  SmallVector<Value> emitBox(OpBuilder &builder, const ApplyLowering &apply,
                             ValueRange lower, ValueRange upper);
  bool runsShallowTimeBlocks(const TimeBlockPlan &) const override {
    return false;
  }
  SmallVector<Value> emitTimeBlock(OpBuilder &builder, Location loc,
                                   const TimeBlock &block,
                                   Value depth) override {
    // Blocks skip the reductions (no reducesInTimeBlocks): a reducing
    // loop's last step runs alone.
    const TimeBlockPlan &plan = block.plan;
    ApplyOp first = plan.stages.front().calc;
    emitDeviceTimeBlock(
        builder, loc, block, getWorkGroup(block.schedule, first.getRank()),
        [&](OpBuilder &b, Location l, Value host) {
          return getKernelIndex(b, l, host);
        },
        [&](OpBuilder &b, Location l, unsigned stage, unsigned input) {
          ApplyOp calc = plan.stages[stage].calc;
          return loadScalar(b, l, calc.getInputs()[input]);
        });
    return {};
  }

  void finishFunction(func::FuncOp func) override {
    // Scalar buffers live until the function returns.
    func.walk([&](func::ReturnOp ret) {
      OpBuilder atReturn(ret);
      for (Value buffer : scalarBuffers)
        freeBuffer(atReturn, ret.getLoc(), buffer);
    });
    scalarBuffers.clear();
    deviceScalars.clear();
    narrowIndices.clear();
  }

private:
  /// The work group of an apply on the device.
  SmallVector<int64_t, 3> getWorkGroup(ScheduleAttr schedule, unsigned rank);
  /// A device buffer holding the scalar `value`, copied once where it is
  /// defined.
  Value getDeviceScalar(Value value);

  DeviceLoweringOptions options;
  DenseMap<Value, Value> deviceScalars;
  /// Per host index value read by kernels, its i32 copy on the host.
  DenseMap<Value, Value> narrowIndices;
  SmallVector<Value> scalarBuffers;
};

} // namespace

LogicalResult DeviceBackend::checkFunction(func::FuncOp func,
                                           const BufferPlan &plan) {
  WalkResult result = func.walk([&](Operation *op) -> WalkResult {
    if (auto load = llvm::dyn_cast<LoadOp>(op)) {
      auto type = llvm::cast<MemRefType>(load.getMemref().getType());
      // Run-time extents are fine: stencil-static-launch-operands passes
      // such buffers to kernels as a pointer and their sizes.
      if (!type.getLayout().isIdentity())
        return load.emitOpError("reads ")
               << type
               << "; the GPU lowering needs row-major memrefs (identity "
                  "layout)";
    }
    if (auto apply = llvm::dyn_cast<ApplyOp>(op))
      for (Value input : apply.getInputs())
        if (!llvm::isa<FieldType>(input.getType()) &&
            !input.getType().isIntOrFloat())
          return apply.emitOpError("has a scalar input of type ")
                 << input.getType()
                 << "; kernels take integer or float scalars only";
    // A work group the device cannot launch.
    ScheduleAttr schedule;
    if (auto apply = llvm::dyn_cast<ApplyOp>(op))
      schedule = apply.getScheduleAttr();
    if (auto iterate = llvm::dyn_cast<IterateOp>(op))
      schedule = iterate.getScheduleAttr();
    if (schedule && options.maxWorkGroupSize > 0) {
      int64_t items = 1;
      for (int64_t size : schedule.getWg())
        items *= size;
      if (items > options.maxWorkGroupSize)
        return op->emitOpError("work group ")
               << formatShape(schedule.getWg(), AxisOrder::OutermostFirst)
               << " has " << items << " work items, above the maximum of "
               << options.maxWorkGroupSize
               << " (max_work_group_size) of device '" << options.deviceName
               << "'";
    }
    // A time block whose tile and halo do not fit in workgroup memory.
    if (auto iterate = llvm::dyn_cast<IterateOp>(op)) {
      const TimeBlockPlan &blocks = plan.getTimeLoop(iterate).blocks;
      if (blocks.timeBlock > 1 && options.workgroupMemoryLimit > 0) {
        int64_t bytes = getTimeBlockWorkgroupBytes(blocks);
        if (bytes > options.workgroupMemoryLimit)
          return iterate.emitOpError("time_block ")
                 << blocks.timeBlock << " with tile "
                 << formatShape(blocks.tile, AxisOrder::OutermostFirst)
                 << " needs " << bytes
                 << " bytes of workgroup memory, above the device limit of "
                 << options.workgroupMemoryLimit
                 << " bytes; use a smaller tile or time_block";
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

SmallVector<int64_t, 3> DeviceBackend::getWorkGroup(ScheduleAttr schedule,
                                                    unsigned rank) {
  if (schedule && schedule.getWg().size() == rank)
    return SmallVector<int64_t, 3>(schedule.getWg());
  // 256 work items, the innermost axis along x for coalesced accesses, with
  // the user's default replacing entries counted from the innermost axis.
  static const std::array<int64_t, 3> shapes[] = {{256}, {8, 32}, {1, 8, 32}};
  ArrayRef<int64_t> chosen = shapes[std::min(rank, 3u) - 1];
  SmallVector<int64_t, 3> shape(chosen.take_front(std::min(rank, 3u)));
  ArrayRef<int64_t> option = options.defaultWorkGroup;
  for (unsigned i = 0; i < option.size() && i < rank; ++i)
    shape[rank - 1 - i] = option[option.size() - 1 - i];
  return shape;
}

Value DeviceBackend::getDeviceScalar(Value value) {
  Value &buffer = deviceScalars[value];
  if (buffer)
    return buffer;
  // The buffers are made once, on entry to the function; the value is
  // copied in where it is defined, which for a value the time loop carries
  // (the C program's step variable) is once per step.
  Location loc = value.getLoc();
  Region *body =
      &value.getParentRegion()->getParentOfType<func::FuncOp>().getBody();
  OpBuilder atEntry = OpBuilder::atBlockBegin(&body->front());
  // Integers narrower than 32 bits travel as i32: SPIR-V without the 8- and
  // 16-bit storage capabilities reads a storage buffer in 32-bit words, and
  // a word read from a 1- or 2-byte buffer is out of bounds. Kernels
  // truncate back, so zero extension keeps the bits of any C type.
  Type elementType = value.getType();
  if (auto integer = llvm::dyn_cast<IntegerType>(elementType);
      integer && integer.getWidth() < 32)
    elementType = atEntry.getI32Type();
  auto type = MemRefType::get({1}, elementType);
  Value host = memref::AllocaOp::create(atEntry, loc, type);
  buffer =
      gpu::AllocOp::create(atEntry, loc, type, Type(), {}, {}, {}).getMemref();
  OpBuilder builder = atEntry;
  if (Operation *definition = value.getDefiningOp())
    builder.setInsertionPointAfter(definition);
  else if (value.getParentBlock() != &body->front())
    builder.setInsertionPointToStart(value.getParentBlock());
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value stored = value;
  if (elementType != value.getType())
    stored = arith::ExtUIOp::create(builder, loc, elementType, value);
  memref::StoreOp::create(builder, loc, stored, host, zero);
  gpu::MemcpyOp::create(builder, loc, Type(), {}, buffer, host);
  scalarBuffers.push_back(buffer);
  return buffer;
}

void DeviceBackend::copyBox(OpBuilder &builder, Location loc, Value source,
                            Value target, ValueRange lower, ValueRange upper,
                            ValueRange sourceShift, ValueRange targetShift) {
  auto index = [&](OpBuilder &b, Location l, Value host) {
    return getKernelIndex(b, l, host);
  };
  emitDeviceBox(
      builder, loc, getWorkGroup({}, lower.size()), lower, upper, index,
      [&](OpBuilder &b, Location l, ValueRange point) {
        auto shifted = [&](ValueRange by) {
          SmallVector<Value> indices;
          for (auto [axis, coordinate] : llvm::enumerate(point)) {
            if (by.empty()) {
              indices.push_back(coordinate);
              continue;
            }
            Value shift = index(b, l, by[axis]);
            indices.push_back(arith::SubIOp::create(b, l, coordinate, shift));
          }
          return indices;
        };
        Value value =
            memref::LoadOp::create(b, l, source, shifted(sourceShift));
        memref::StoreOp::create(b, l, value, target, shifted(targetShift));
      });
}

SmallVector<Value> DeviceBackend::emitApply(OpBuilder &builder,
                                            const ApplyLowering &apply,
                                            BoxPartition partition) {
  if (!partition)
    return emitBox(builder, apply, apply.lower, apply.upper);
  // A distributed step's boxes (the interior while the halo travels, then
  // the slabs around it), each a launch. The reductions' cells are made on
  // entry to the function: an alloca in the time loop would grow the stack
  // every step.
  ApplyOp op = apply.apply;
  auto func = op->getParentOfType<func::FuncOp>();
  OpBuilder atEntry = OpBuilder::atBlockBegin(&func.getBody().front());
  ReductionAccumulators accumulators(atEntry, builder, op.getLoc(),
                                     apply.reductions, op.getReduceInits());
  partition(builder, apply.lower, apply.upper,
            [&](OpBuilder &b, ValueRange lower, ValueRange upper) {
              accumulators.combine(b, emitBox(b, apply, lower, upper));
            });
  return accumulators.load(builder);
}

SmallVector<Value> DeviceBackend::emitBox(OpBuilder &builder,
                                          const ApplyLowering &apply,
                                          ValueRange lower, ValueRange upper) {
  ApplyOp op = apply.apply;
  Location loc = op.getLoc();
  SmallVector<int64_t, 3> workGroup =
      getWorkGroup(apply.schedule, op.getRank());
  auto index = [&](OpBuilder &b, Location l, Value host) {
    return getKernelIndex(b, l, host);
  };
  ArrayRef<ReductionKind> kinds = apply.reductions;
  if (kinds.empty()) {
    emitDeviceBox(builder, loc, workGroup, lower, upper, index,
                  [&](OpBuilder &b, Location l, ValueRange point) {
                    apply.emitPoint(b, l, point, *this);
                  });
    return {};
  }

  // Each work group's partial goes to a device buffer; the host combines
  // the partials in group order (the second pass), so the result depends
  // on the work group only.
  // With run-time bounds in fields of run-time extents the count is known
  // on the host only.
  FieldType fieldType = op.getFirstFieldType();
  std::optional<int64_t> maxGroups =
      getMaxGroupCount(workGroup, lower, upper, fieldType.getShape());
  SmallVector<Value> partialSizes;
  // A box empty at run time still gets one partial: no zero-size buffers.
  if (!maxGroups)
    partialSizes.push_back(device::buildGroupCount(
        builder, loc, workGroup, lower, upper, /*minExtent=*/1));
  SmallVector<Value> devicePartials;
  for (Value init : op.getReduceInits()) {
    auto type = MemRefType::get(
        {maxGroups ? std::max<int64_t>(*maxGroups, 1) : ShapedType::kDynamic},
        init.getType());
    devicePartials.push_back(
        gpu::AllocOp::create(builder, loc, type, Type(), {}, partialSizes, {})
            .getMemref());
  }
  Value groups = emitDeviceReducingBox(
      builder, loc, workGroup, lower, upper, index, kinds, devicePartials,
      [&](OpBuilder &b, Location l, ValueRange point) {
        SmallVector<Value> contributions(kinds.size());
        apply.emitPoint(b, l, point, *this,
                        [&](OpBuilder &, Location, unsigned reduction,
                            Value value) { contributions[reduction] = value; });
        return contributions;
      });
  SmallVector<Value> reduced;
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  for (auto [reduction, partials] : llvm::enumerate(devicePartials)) {
    ReductionKind kind = kinds[reduction];
    auto type = llvm::cast<MemRefType>(partials.getType());
    Value host = memref::AllocOp::create(builder, loc, type, partialSizes);
    gpu::MemcpyOp::create(builder, loc, Type(), {}, host, partials);
    Value identity =
        createReductionIdentity(builder, loc, kind, type.getElementType());
    auto groupLoop = scf::ForOp::create(
        builder, loc, zero, groups, one, ValueRange{identity},
        [&](OpBuilder &b, Location l, Value group, ValueRange running) {
          Value partial = memref::LoadOp::create(b, l, host, group);
          scf::YieldOp::create(
              b, l,
              createReductionCombine(b, l, kind, running.front(), partial));
        });
    reduced.push_back(groupLoop.getResult(0));
    memref::DeallocOp::create(builder, loc, host);
    freeBuffer(builder, loc, partials);
  }
  return reduced;
}

std::unique_ptr<LoweringBackend> mlir::stencil::createDeviceLoweringBackend(
    const DeviceLoweringOptions &options) {
  return std::make_unique<DeviceBackend>(options);
}

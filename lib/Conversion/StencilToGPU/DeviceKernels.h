//===- DeviceKernels.h - Boxes of points as GPU kernels ---------*- C++ -*-===//
//
// The kernels of the device backend (DeviceBackend.cpp), private to
// StencilToGPU: a `gpu.launch` with one work item per point of a box, and
// the time-blocked kernel that keeps a tile and its halo in workgroup
// memory.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOGPU_DEVICEKERNELS_H
#define STENCIL_LIB_CONVERSION_STENCILTOGPU_DEVICEKERNELS_H

#include "Stencil/Conversion/StencilCommon/TimeBlock.h"

namespace mlir::stencil::device {

/// A host `index` value inside a kernel: a constant is rebuilt there, any
/// other value read from device memory (kernels take buffers only).
using KernelIndexFn =
    function_ref<Value(OpBuilder &, Location, Value hostIndex)>;

/// A `gpu.launch` with one work item per point of the box [lower, upper)
/// (host `index` values: constants, or known at run time only, when a box
/// found empty launches nothing), work groups of `workGroup` (outermost
/// axis first, the innermost axis on x), and a guard for the items past the
/// box's end.
void emitDeviceBox(OpBuilder &builder, Location loc,
                   ArrayRef<int64_t> workGroup, ValueRange lower,
                   ValueRange upper, KernelIndexFn index, PointFn body);

/// The most work groups emitDeviceBox launches for [lower, upper) in a
/// field of `fieldShape`: exact for constant bounds; none when a run-time
/// bound lies in a field of run-time extent along the same axis.
std::optional<int64_t> getMaxGroupCount(ArrayRef<int64_t> workGroup,
                                        ValueRange lower, ValueRange upper,
                                        ArrayRef<int64_t> fieldShape);

/// The number of work groups of `workGroup` items that cover [lower,
/// upper), built on the host; an extent below `minExtent` counts as
/// `minExtent`.
Value buildGroupCount(OpBuilder &builder, Location loc,
                      ArrayRef<int64_t> workGroup, ValueRange lower,
                      ValueRange upper, int64_t minExtent);

/// A point's contributions to the reductions of a box, one per reduction.
using ContributionFn =
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange point)>;

/// emitDeviceBox for an apply that reduces: `body` computes a point and
/// returns its contributions. Each work group combines its items'
/// contributions by `kinds` in workgroup memory, along a tree fixed by the
/// work group's shape, and work group g writes its partial to element g of
/// each of `partials` (device buffers of getMaxGroupCount elements). Returns
/// the number of groups launched, on the host.
Value emitDeviceReducingBox(OpBuilder &builder, Location loc,
                            ArrayRef<int64_t> workGroup, ValueRange lower,
                            ValueRange upper, KernelIndexFn index,
                            ArrayRef<ReductionKind> kinds,
                            ArrayRef<Value> partials, ContributionFn body);

/// The bytes of workgroup memory emitDeviceTimeBlock uses for `plan`'s
/// tile.
int64_t getTimeBlockWorkgroupBytes(const TimeBlockPlan &plan);

/// The scalar input `input` of stage `stage` of a time block, in a kernel.
using StageScalarFn =
    function_ref<Value(OpBuilder &, Location, unsigned stage, unsigned input)>;

/// One kernel for `block.plan.timeBlock` steps (seed 000 Fig. 3): each work
/// group loads its tile plus a halo of L x radius (L levels: T steps of
/// each stage) into workgroup memory, computes the levels on a region that
/// shrinks by the radius each level with a barrier between levels, and
/// writes its tile. Scalars come from `scalar`.
void emitDeviceTimeBlock(OpBuilder &builder, Location loc,
                         const TimeBlock &block, ArrayRef<int64_t> workGroup,
                         KernelIndexFn index, StageScalarFn scalar);

} // namespace mlir::stencil::device

#endif // STENCIL_LIB_CONVERSION_STENCILTOGPU_DEVICEKERNELS_H

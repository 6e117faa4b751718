//===- PointLowering.h - An apply's body at one point or box ----*- C++ -*-===//
//
// What every backend does with an apply's body: emit it for one grid point,
// its accesses turned into loads from buffers, its returned values into
// stores; and the boxes of points that make up a grid minus another box.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILCOMMON_POINTLOWERING_H
#define STENCIL_CONVERSION_STENCILCOMMON_POINTLOWERING_H

#include "Stencil/Dialect/Stencil/IR/StencilOps.h"
#include "Stencil/Dialect/Stencil/Utils/ReductionUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

namespace mlir::stencil {

/// Reads field input `input` of an apply for `access` at `indices` (global
/// coordinates, one per axis of the field): the point plus the access's
/// offset, along the grid axes the field's axes follow
/// (`access.getGridAxes()`, fewer than the grid's for a lower-rank field).
using LoadFn = function_ref<Value(OpBuilder &, Location, unsigned input,
                                  ValueRange indices, AccessOp access)>;
/// Writes the value an apply returns for output `output` at the point.
using StoreFn =
    function_ref<void(OpBuilder &, Location, unsigned output, Value value)>;
/// Takes the point's contribution `value` to reduction `reduction`.
using ReduceFn =
    function_ref<void(OpBuilder &, Location, unsigned reduction, Value value)>;
/// The value of scalar input `input` of an apply, inside the point loop.
using ScalarFn = function_ref<Value(OpBuilder &, Location, unsigned input)>;
/// Emits body op `op` (neither an access nor the return) with the values
/// `mapping` gives for its operands, and maps its results.
using CloneFn = function_ref<void(OpBuilder &, Operation &op, IRMapping &)>;
/// Emits something at one point of a box.
using PointFn = function_ref<void(OpBuilder &, Location, ValueRange point)>;
/// Emits the points of the box [lower, upper).
using BoxFn =
    function_ref<void(OpBuilder &, ValueRange lower, ValueRange upper)>;

/// Emits the body of `apply` for the grid point `point`: accesses become
/// `load` at point + offset, `stencil.index` the point's coordinate (then
/// passed to `clone`, which may map it anew), the returned values go to
/// `store`, the contributions to its reductions to `reduce` (dropped when
/// null), every other op goes to `clone` (default: cloned as it is); scalar
/// inputs come from `scalar`, or are used as they are.
void emitPoint(OpBuilder &builder, Location loc, ApplyOp apply,
               ValueRange point, LoadFn load, StoreFn store,
               ScalarFn scalar = nullptr, CloneFn clone = nullptr,
               ReduceFn reduce = nullptr);

/// Calls `emit` on 2 x rank boxes that partition the box [outerLower,
/// outerUpper) minus the box [innerLower, innerUpper) inside it: along each
/// axis in turn, the slab below and the slab above the inner box, spanning
/// the inner box along the axes before it and the outer box after it.
/// Only the slabs along the axes [firstAxis, endAxis) where given: the
/// slabs of disjoint axis ranges are disjoint, and those of all axes make
/// up the whole ring.
void forEachRingSlab(OpBuilder &builder, ValueRange outerLower,
                     ValueRange outerUpper, ValueRange innerLower,
                     ValueRange innerUpper, BoxFn emit, unsigned firstAxis = 0,
                     std::optional<unsigned> endAxis = std::nullopt);

/// Calls `emit` on the slabs that make up the cells of memref `buffer`
/// outside the box [lower, upper): its ring of boundary and halo cells.
/// Static extents are constants, so slabs of static memrefs have constant
/// bounds. `firstAxis` and `endAxis` as in forEachRingSlab.
void forEachRingSlabOf(OpBuilder &builder, Location loc, Value buffer,
                       ValueRange lower, ValueRange upper, BoxFn emit,
                       unsigned firstAxis = 0,
                       std::optional<unsigned> endAxis = std::nullopt);

/// A flag in host memory that the lowering tests once code that may find
/// something has run (rings that differ): an i8 on the stack, stored 0.
Value createClearedFlag(OpBuilder &builder, Location loc);
/// Sets `flag` (the i8 at `indices`) to 1, atomically: threads may set it
/// at once, and what the thread did before happens before another thread
/// that reads the flag set with `concurrently` does anything after.
void setFlag(OpBuilder &builder, Location loc, Value flag,
             ValueRange indices = {});
/// An i1 that holds where `flag` (the i8 at `indices`) is set. Where
/// another thread may set it meanwhile (`concurrently`), an atomic read.
Value isFlagSet(OpBuilder &builder, Location loc, Value flag,
                ValueRange indices = {}, bool concurrently = false);

/// The running values of an apply's reductions over the boxes a partition
/// hands out, which may come in branches: one memory cell each, starting
/// at the identity.
class ReductionAccumulators {
public:
  /// Cells made at `allocate`, set to the identities at `builder`.
  ReductionAccumulators(OpBuilder &allocate, OpBuilder &builder, Location loc,
                        ArrayRef<ReductionKind> kinds, ValueRange inits);
  /// Combines each reduction's cell with the box's `partials`.
  void combine(OpBuilder &builder, ValueRange partials) const;
  /// The reductions' values over all boxes so far.
  SmallVector<Value> load(OpBuilder &builder) const;

private:
  Location loc;
  SmallVector<ReductionKind> kinds;
  SmallVector<Value> cells;
};

/// The bounds of `grid` as index values, outermost axis first.
void getGridBounds(OpBuilder &builder, Location loc, GridOp grid,
                   SmallVectorImpl<Value> &lower,
                   SmallVectorImpl<Value> &upper);

/// The constant values of `values` (boxes with static bounds).
SmallVector<int64_t, 3> getConstantBounds(ValueRange values);

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_STENCILCOMMON_POINTLOWERING_H

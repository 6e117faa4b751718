//===- AccessExtents.h - Halo (access extent) analysis ----------*- C++ -*-===//
//
// For every field, the box of offsets at which stencil functions read it. The
// extent of a field is the halo it must provide around the grid: an apply on
// `[lb, ub)` reading `field` with extent `[lo, hi]` touches `[lb + lo,
// ub + hi)`. It is the one place radii and halos come from: the lowering
// sizes time blocks, prefetches and exchanges from it, the tuning passes
// take the stencil radius from it, stencil-insert-exchanges and
// stencil-distribute their exchange widths.
//
// The analysis works on interfaces only: accesses are FieldAccessOpInterface
// ops, charged to the operand that a DomainOpInterface op binds to the
// accessed region argument, and pushed back along the edges of
// RegionBranchOpInterface ops (a time loop's inits and yields).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCIL_ANALYSIS_ACCESSEXTENTS_H
#define STENCIL_DIALECT_STENCIL_ANALYSIS_ACCESSEXTENTS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::stencil {

/// The smallest box holding a set of offsets: `lower[d] <= o[d] <= upper[d]`
/// for every offset `o`, outermost axis first.
struct Extent {
  llvm::SmallVector<int64_t, 3> lower;
  llvm::SmallVector<int64_t, 3> upper;

  /// The box holding exactly `offset`.
  static Extent ofOffset(llvm::ArrayRef<int64_t> offset);
  /// Grows the box to hold `offset`; ranks must match.
  void include(llvm::ArrayRef<int64_t> offset);
  /// Grows the box to hold `other`; ranks must match.
  void unite(const Extent &other);
  unsigned getRank() const { return lower.size(); }
  /// Cells needed beyond the grid along `axis` on the low and high side (the
  /// halo widths; 0 when the accesses stay inside).
  int64_t getLowHalo(unsigned axis) const;
  int64_t getHighHalo(unsigned axis) const;

  /// Per axis, the farther of the two halos: how far a point's reads reach.
  llvm::SmallVector<int64_t, 3> getRadius() const;
  /// Whether every offset is 0 (the point itself only).
  bool isCentre() const;

  /// `[lo, hi] x [lo, hi] ...`, for diagnostics and remarks.
  std::string str() const;

  bool operator==(const Extent &other) const {
    return lower == other.lower && upper == other.upper;
  }
};

/// Prints `[lo, hi] x [lo, hi] ...`.
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Extent &extent);

class DomainOpInterface;

class AccessExtentAnalysis {
public:
  /// Analyses every access nested under `root`.
  explicit AccessExtentAnalysis(Operation *root);

  /// The extent of the accesses to `value`: a field argument of a domain op's
  /// region, or a field read (through such arguments) by domain ops. Returns
  /// std::nullopt when `value` is never accessed.
  std::optional<Extent> getExtent(Value value) const;

  /// The extents of the field arguments of `op`'s region of the grid's rank
  /// that `select` admits (every one when null), united: the halo one
  /// application of `op` reads around each point. All zero when it reads
  /// none of them. Lower-rank fields (read `along` some axes) need no halo
  /// of the grid's and are left out. `op` must lie under the analysed root.
  Extent
  getReadExtent(DomainOpInterface op,
                llvm::function_ref<bool(BlockArgument)> select = nullptr) const;

private:
  llvm::DenseMap<Value, Extent> extents;
};

/// AccessExtentAnalysis::getReadExtent of `op` analysed on its own.
Extent getReadExtent(DomainOpInterface op,
                     llvm::function_ref<bool(BlockArgument)> select = nullptr);

} // namespace mlir::stencil

#endif // STENCIL_DIALECT_STENCIL_ANALYSIS_ACCESSEXTENTS_H

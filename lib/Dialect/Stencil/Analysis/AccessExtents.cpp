//===- AccessExtents.cpp - Halo (access extent) analysis ------------------===//

#include "Stencil/Dialect/Stencil/Analysis/AccessExtents.h"
#include "Stencil/Dialect/Stencil/IR/StencilOps.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::stencil;

Extent Extent::ofOffset(ArrayRef<int64_t> offset) {
  return Extent{SmallVector<int64_t, 3>(offset),
                SmallVector<int64_t, 3>(offset)};
}

void Extent::include(ArrayRef<int64_t> offset) {
  assert(offset.size() == getRank() && "offset rank must match the extent");
  for (unsigned axis = 0; axis < getRank(); ++axis) {
    lower[axis] = std::min(lower[axis], offset[axis]);
    upper[axis] = std::max(upper[axis], offset[axis]);
  }
}

void Extent::unite(const Extent &other) {
  include(other.lower);
  include(other.upper);
}

int64_t Extent::getLowHalo(unsigned axis) const {
  return std::max<int64_t>(0, -lower[axis]);
}

int64_t Extent::getHighHalo(unsigned axis) const {
  return std::max<int64_t>(0, upper[axis]);
}

SmallVector<int64_t, 3> Extent::getRadius() const {
  SmallVector<int64_t, 3> radius;
  for (unsigned axis = 0; axis < getRank(); ++axis)
    radius.push_back(std::max(getLowHalo(axis), getHighHalo(axis)));
  return radius;
}

bool Extent::isCentre() const {
  return llvm::all_of(lower, [](int64_t o) { return o == 0; }) &&
         llvm::all_of(upper, [](int64_t o) { return o == 0; });
}

llvm::raw_ostream &mlir::stencil::operator<<(llvm::raw_ostream &os,
                                             const Extent &extent) {
  for (unsigned axis = 0; axis < extent.getRank(); ++axis) {
    if (axis)
      os << " x ";
    os << '[' << extent.lower[axis] << ", " << extent.upper[axis] << ']';
  }
  return os;
}

std::string Extent::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << *this;
  return text;
}

/// The values a field value is forwarded from: reading `value` at some offset
/// reads each of them at that offset. A domain op's region argument stands
/// for its operand; the argument of a region that a RegionBranchOpInterface
/// op enters (a time loop's body) for what enters it (the loop's init and
/// yield), and a result of such an op for what leaves through it; an exchange
/// result for its operand (the exchange is the identity on the global field);
/// a domain op's result for the field it writes, which it equals outside the
/// grid.
static SmallVector<Value, 2> getForwardedFrom(Value value) {
  SmallVector<Value, 2> sources;
  if (auto argument = llvm::dyn_cast<BlockArgument>(value)) {
    Operation *parent = argument.getOwner()->getParentOp();
    if (auto domainOp = llvm::dyn_cast<DomainOpInterface>(parent)) {
      if (Value operand = domainOp.getFieldForArgument(argument))
        sources.push_back(operand);
    } else if (auto branch = llvm::dyn_cast<RegionBranchOpInterface>(parent)) {
      Region *region = argument.getOwner()->getParent();
      branch.getPredecessorValues(
          RegionSuccessor(region, region->front().getArguments()),
          argument.getArgNumber(), sources);
    }
    return sources;
  }
  Operation *producer = value.getDefiningOp();
  if (auto domainOp = llvm::dyn_cast<DomainOpInterface>(producer)) {
    // Results after the written fields (reductions) are scalars.
    unsigned index = llvm::cast<OpResult>(value).getResultNumber();
    if (index < domainOp.getWrittenFields().size())
      sources.push_back(domainOp.getWrittenFields()[index]);
  } else if (auto exchange = llvm::dyn_cast<ExchangeOp>(producer)) {
    sources.push_back(exchange.getField());
  } else if (auto branch = llvm::dyn_cast<RegionBranchOpInterface>(producer)) {
    branch.getPredecessorValues(
        RegionSuccessor(producer, producer->getResults()),
        llvm::cast<OpResult>(value).getResultNumber(), sources);
  }
  return sources;
}

AccessExtentAnalysis::AccessExtentAnalysis(Operation *root) {
  // Seed with the accesses, then push extents back along forwarding edges
  // until nothing grows. Extents only grow and are bounded by the offsets in
  // the program, so this terminates.
  SmallVector<std::pair<Value, Extent>> worklist;
  root->walk([&](FieldAccessOpInterface access) {
    worklist.emplace_back(access.getAccessedField(),
                          Extent::ofOffset(access.getAccessOffset()));
  });
  while (!worklist.empty()) {
    auto [value, extent] = worklist.pop_back_val();
    auto [it, inserted] = extents.try_emplace(value, extent);
    if (!inserted) {
      Extent united = it->second;
      united.unite(extent);
      if (united == it->second)
        continue;
      it->second = united;
    }
    for (Value source : getForwardedFrom(value))
      worklist.emplace_back(source, it->second);
  }
}

std::optional<Extent> AccessExtentAnalysis::getExtent(Value value) const {
  auto it = extents.find(value);
  if (it == extents.end())
    return std::nullopt;
  return it->second;
}

Extent AccessExtentAnalysis::getReadExtent(
    DomainOpInterface op, function_ref<bool(BlockArgument)> select) const {
  unsigned rank = llvm::cast<GridType>(op.getGrid().getType()).getRank();
  Extent read = Extent::ofOffset(SmallVector<int64_t, 3>(rank, 0));
  for (Region &region : op->getRegions())
    for (BlockArgument argument : region.getArguments()) {
      if (!op.getFieldForArgument(argument) || (select && !select(argument)))
        continue;
      // A lower-rank field (a coefficient table) is read only, in bounds
      // wherever the grid's points are: it needs no halo of the grid's
      // fields, and on MPI ranks its offsets are its local copy's.
      auto type = llvm::dyn_cast<FieldType>(argument.getType());
      if (type && type.getShape().size() < rank)
        continue;
      if (std::optional<Extent> extent = getExtent(argument))
        read.unite(*extent);
    }
  return read;
}

Extent mlir::stencil::getReadExtent(DomainOpInterface op,
                                    function_ref<bool(BlockArgument)> select) {
  return AccessExtentAnalysis(op).getReadExtent(op, select);
}

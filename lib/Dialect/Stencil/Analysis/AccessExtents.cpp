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

AccessExtentAnalysis::AccessExtentAnalysis(Operation *root) {
  auto record = [&](Value value, const Extent &extent) {
    auto [it, inserted] = extents.try_emplace(value, extent);
    if (!inserted)
      it->second.unite(extent);
  };
  root->walk([&](FieldAccessOpInterface access) {
    Value field = access.getAccessedField();
    Extent extent = Extent::ofOffset(access.getAccessOffset());
    record(field, extent);
    // Charge the access to the operand the enclosing domain op binds to the
    // region argument, so producers outside see the halo they must provide.
    auto argument = llvm::dyn_cast<BlockArgument>(field);
    if (!argument)
      return;
    auto domainOp =
        llvm::dyn_cast<DomainOpInterface>(argument.getOwner()->getParentOp());
    if (!domainOp)
      return;
    if (Value operand = domainOp.getFieldForArgument(argument))
      record(operand, extent);
  });
}

std::optional<Extent> AccessExtentAnalysis::getExtent(Value value) const {
  auto it = extents.find(value);
  if (it == extents.end())
    return std::nullopt;
  return it->second;
}

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

/// The values a field value is forwarded from: reading `value` at some offset
/// reads each of them at that offset. A domain op's region argument stands
/// for its operand; a time loop's argument for its init and for what the
/// loop yields; a loop result for what the last step yields; an exchange
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
    } else if (auto iterate = llvm::dyn_cast<IterateOp>(parent)) {
      unsigned index = argument.getArgNumber();
      sources.push_back(iterate.getInits()[index]);
      auto yield = llvm::cast<YieldOp>(iterate.getBodyBlock()->getTerminator());
      sources.push_back(yield.getValues()[index]);
    }
    return sources;
  }
  Operation *producer = value.getDefiningOp();
  if (auto iterate = llvm::dyn_cast<IterateOp>(producer)) {
    unsigned index = llvm::cast<OpResult>(value).getResultNumber();
    auto yield = llvm::cast<YieldOp>(iterate.getBodyBlock()->getTerminator());
    sources.push_back(yield.getValues()[index]);
    sources.push_back(iterate.getInits()[index]);
  } else if (auto domainOp = llvm::dyn_cast<DomainOpInterface>(producer)) {
    unsigned index = llvm::cast<OpResult>(value).getResultNumber();
    sources.push_back(domainOp.getWrittenFields()[index]);
  } else if (auto exchange = llvm::dyn_cast<ExchangeOp>(producer)) {
    sources.push_back(exchange.getField());
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

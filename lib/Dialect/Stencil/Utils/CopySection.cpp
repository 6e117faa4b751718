//===- CopySection.cpp - The calc/copy form of a time loop ----------------===//

#include "Stencil/Dialect/Stencil/Utils/CopySection.h"

#include "Stencil/Dialect/Stencil/Analysis/AccessExtents.h"

#include <limits>

using namespace mlir;
using namespace mlir::stencil;

std::optional<CopySection> mlir::stencil::matchCopySection(IterateOp iterate) {
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
  CopySection section{exchanges, calc, copy, {}, {}};
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
  // Every destination is copied back exactly once; the other iter_args are
  // scalars the calc's reductions produce.
  unsigned numFields = llvm::count_if(iterate.getInits(), [](Value v) {
    return llvm::isa<FieldType>(v.getType());
  });
  if (section.pairs.size() != destinations.size() ||
      2 * section.pairs.size() != numFields)
    return std::nullopt;
  for (auto [index, init] : llvm::enumerate(iterate.getInits())) {
    if (llvm::isa<FieldType>(init.getType()))
      continue;
    auto result = llvm::dyn_cast<OpResult>(yield.getValues()[index]);
    if (!result || result.getOwner() != calc ||
        result.getResultNumber() < calc.getOutputs().size())
      return std::nullopt;
    section.scalars.push_back(index);
  }
  return section;
}

int64_t CopySection::getExchangedSteps() const {
  int64_t steps = std::numeric_limits<int64_t>::max();
  SmallVector<int64_t, 3> radius = getReadExtent(calc).getRadius();
  for (ExchangeOp exchange : exchanges) {
    DecompositionAttr decomposition =
        llvm::cast<FieldType>(exchange.getField().getType()).getDecomposition();
    for (auto [axis, width] : llvm::enumerate(exchange.getWidths()))
      if (decomposition && decomposition.isDistributed(axis) &&
          radius[axis] > 0)
        steps = std::min(steps, width / radius[axis]);
  }
  return steps;
}

//===- SweepChain.cpp - Time steps of several sweeps in a chain -----------===//

#include "Stencil/Dialect/Stencil/Utils/SweepChain.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::stencil;

/// Whether `a` and `b` are the same grid: one op, or two with equal bounds.
static bool isSameGrid(Value a, Value b) {
  if (a == b)
    return true;
  auto gridA = a.getDefiningOp<GridOp>(), gridB = b.getDefiningOp<GridOp>();
  return gridA && gridB && gridA.getStaticLower() == gridB.getStaticLower() &&
         gridA.getStaticUpper() == gridB.getStaticUpper() &&
         gridA.getDynamicLower() == gridB.getDynamicLower() &&
         gridA.getDynamicUpper() == gridB.getDynamicUpper();
}

std::optional<SweepChain>
mlir::stencil::matchSweepChain(IterateOp iterate, std::string *whyNot,
                               bool exchangesAreIdentity) {
  Block *body = iterate.getBodyBlock();
  auto fail = [&](const llvm::Twine &reason) -> std::optional<SweepChain> {
    if (whyNot)
      *whyNot = reason.str();
    return std::nullopt;
  };
  SweepChain chain;
  for (ApplyOp apply : body->getOps<ApplyOp>())
    chain.stages.push_back({apply, {}, {}});
  unsigned count = chain.stages.size();
  if (count < 2)
    return std::nullopt;
  if (llvm::any_of(iterate.getInits(), [](Value init) {
        return !llvm::isa<FieldType>(init.getType());
      }))
    return fail("the loop carries a scalar from step to step");
  // Blocks run before the loop body: the other ops must be able to move
  // there (SweepChain::getInvariantOps).
  for (Operation &op : body->without_terminator()) {
    if (llvm::isa<ApplyOp>(op))
      continue;
    if (llvm::isa<ExchangeOp>(op)) {
      if (exchangesAreIdentity)
        continue;
      return fail("the sweeps exchange halos across ranks, which time blocks "
                  "of a chain do not combine with yet");
    }
    bool invariant = isMemoryEffectFree(&op) && op.getNumRegions() == 0 &&
                     llvm::all_of(op.getOperands(), [&](Value operand) {
                       Operation *owner = operand.getDefiningOp();
                       return operand.getParentBlock() != body ||
                              (owner && !llvm::isa<ApplyOp>(owner));
                     });
    if (!invariant)
      return fail(llvm::formatv("the step computes '{0}' from values that "
                                "change from step to step",
                                op.getName().getStringRef()));
    chain.invariantOps.push_back(&op);
  }
  auto yield = llvm::cast<YieldOp>(body->getTerminator());
  auto argIndex = [&](Value value) -> std::optional<unsigned> {
    auto argument = llvm::dyn_cast<BlockArgument>(value);
    if (!argument || argument.getOwner() != body)
      return std::nullopt;
    return argument.getArgNumber();
  };
  // Which stage writes each iter_arg, in place.
  SmallVector<int> writer(body->getNumArguments(), -1);
  for (auto [k, stage] : llvm::enumerate(chain.stages)) {
    ApplyOp apply = stage.apply;
    if (apply.getNumReductions() > 0)
      return fail(llvm::formatv("sweep {0} reduces", k + 1));
    if (!isSameGrid(apply.getGrid(), chain.stages.front().apply.getGrid()))
      return fail(
          llvm::formatv("sweep {0} runs over a grid of its own", k + 1));
    for (auto [index, output] : llvm::enumerate(apply.getOutputs())) {
      std::optional<unsigned> position = argIndex(output);
      if (!position || writer[*position] >= 0 ||
          yield.getValues()[*position] != apply.getFieldResults()[index])
        return fail(llvm::formatv(
            "sweep {0} writes a field that is not carried in place", k + 1));
      writer[*position] = k;
      stage.carried.push_back(*position);
    }
  }
  // Iter_args no stage writes are yielded unchanged.
  for (auto [position, by] : llvm::enumerate(writer))
    if (by < 0 && yield.getValues()[position] != body->getArgument(position))
      return fail(llvm::formatv("iter_arg #{0} is yielded changed by no sweep",
                                position));
  unsigned slots = chain.stages.front().carried.size();
  for (const SweepChain::Stage &stage : chain.stages)
    if (stage.carried.size() != slots)
      return fail("the sweeps write different numbers of fields");
  for (auto [k, stage] : llvm::enumerate(chain.stages)) {
    const SweepChain::Stage &previous = chain.stages[(k + count - 1) % count];
    for (auto [output, position] : llvm::enumerate(stage.carried))
      if (body->getArgument(position).getType() !=
          body->getArgument(previous.carried[output]).getType())
        return fail(
            "the sweeps write fields of different types in the same order");
    for (Value input : stage.apply.getInputs()) {
      if (auto exchange = input.getDefiningOp<ExchangeOp>())
        input = exchange.getField();
      int read = -1;
      if (auto result = llvm::dyn_cast<OpResult>(input)) {
        Operation *owner = result.getOwner();
        if (owner->getBlock() == body && llvm::isa<ApplyOp>(owner)) {
          if (owner != previous.apply || k == 0)
            return fail(llvm::formatv(
                "sweep {0} reads a field an earlier sweep than the one "
                "before it wrote",
                k + 1));
          read = result.getResultNumber();
        }
      } else if (std::optional<unsigned> position = argIndex(input);
                 position && writer[*position] >= 0) {
        // An iter_arg written in the loop: sweep 1 reads the last sweep's
        // fields as the step before left them.
        if (k != 0 || writer[*position] != static_cast<int>(count - 1))
          return fail(llvm::formatv(
              "sweep {0} reads a field as the step before left it, which "
              "only the first sweep may, and only the last sweep's",
              k + 1));
        read =
            llvm::find(previous.carried, *position) - previous.carried.begin();
      }
      stage.previousOutput.push_back(read);
    }
  }
  return chain;
}

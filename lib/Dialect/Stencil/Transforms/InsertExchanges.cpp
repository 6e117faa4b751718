//===- InsertExchanges.cpp - Halo exchanges before off-centre reads -------===//
//
// `stencil-insert-exchanges`: every distributed field that an apply reads at
// an offset along a distributed axis must have its halo refreshed first.
// The pass puts one `stencil.exchange` after the field's definition, with
// the widths the applies need (their largest offsets along distributed
// axes), or widens the exchange the field already comes from. The importer
// emits these exchanges itself; the pass makes hand-written IR and other
// front ends distributable too, and is idempotent.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/Stencil/Analysis/AccessExtents.h"
#include "Stencil/Dialect/Stencil/IR/StencilOps.h"
#include "Stencil/Dialect/Stencil/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILINSERTEXCHANGES
#include "Stencil/Dialect/Stencil/Transforms/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {

struct StencilInsertExchangesPass
    : public stencil::impl::StencilInsertExchangesBase<
          StencilInsertExchangesPass> {
  void runOnOperation() override {
    // The widths each distributed field value needs, over all its readers.
    llvm::MapVector<Value, SmallVector<int64_t, 3>> needed;
    AccessExtentAnalysis reads(getOperation());
    getOperation()->walk([&](ApplyOp apply) {
      Block *body = apply.getBodyBlock();
      for (auto [index, input] : llvm::enumerate(apply.getInputs())) {
        auto type = llvm::dyn_cast<FieldType>(input.getType());
        std::optional<Extent> extent =
            reads.getExtent(body->getArgument(index));
        if (!type || !type.isDistributed() || !extent)
          continue;
        SmallVector<int64_t, 3> widths(type.getShape().size(), 0);
        for (auto [axis, radius] : llvm::enumerate(extent->getRadius()))
          if (type.getDecomposition().isDistributed(axis))
            widths[axis] = radius;
        if (llvm::all_of(widths, [](int64_t w) { return w == 0; }))
          continue;
        auto &entry = needed[input];
        if (entry.empty())
          entry.assign(widths.size(), 0);
        for (auto [have, want] : llvm::zip(entry, widths))
          have = std::max(have, want);
      }
    });
    for (auto &[field, widths] : needed) {
      // Already exchanged: make the exchange wide enough.
      if (auto exchange = field.getDefiningOp<ExchangeOp>()) {
        SmallVector<int64_t, 3> merged(exchange.getWidths());
        for (auto [have, want] : llvm::zip(merged, widths))
          have = std::max(have, want);
        exchange.setWidths(merged);
        continue;
      }
      OpBuilder builder(field.getContext());
      if (Operation *definition = field.getDefiningOp())
        builder.setInsertionPointAfter(definition);
      else
        builder.setInsertionPointToStart(
            llvm::cast<BlockArgument>(field).getOwner());
      auto exchange = ExchangeOp::create(builder, field.getLoc(), field,
                                         builder.getDenseI64ArrayAttr(widths));
      // Only the applies read the halo; other users keep the field.
      field.replaceUsesWithIf(exchange.getResult(), [&](OpOperand &use) {
        return llvm::isa<ApplyOp>(use.getOwner()) && use.getOwner() != exchange;
      });
    }
  }
};

} // namespace

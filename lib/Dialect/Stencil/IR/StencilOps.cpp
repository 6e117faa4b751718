//===- StencilOps.cpp - Stencil dialect operations ------------------------===//

#include "Stencil/Dialect/Stencil/IR/StencilOps.h"
#include "StencilAsmUtils.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::stencil;

#include "Stencil/Dialect/Stencil/IR/StencilInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// The custom<Offset> directive: `[i, j, k]`.
static ParseResult parseOffset(OpAsmParser &parser, DenseI64ArrayAttr &attr) {
  SmallVector<int64_t> values;
  if (asm_utils::parseIntegerList(parser, values))
    return failure();
  attr = parser.getBuilder().getDenseI64ArrayAttr(values);
  return success();
}

static void printOffset(OpAsmPrinter &printer, Operation *,
                        DenseI64ArrayAttr attr) {
  asm_utils::printIntegerList(printer, attr.asArrayRef());
}

/// Names a field for diagnostics: "1-D", "2-D", "3-D".
static std::string rankName(unsigned rank) {
  return std::to_string(rank) + "-D";
}

//===----------------------------------------------------------------------===//
// GridOp
//===----------------------------------------------------------------------===//

void GridOp::build(OpBuilder &builder, OperationState &state,
                   ArrayRef<int64_t> lower, ArrayRef<int64_t> upper) {
  build(builder, state, GridType::get(builder.getContext(), lower.size()),
        ValueRange(), ValueRange(), builder.getDenseI64ArrayAttr(lower),
        builder.getDenseI64ArrayAttr(upper));
}

void GridOp::build(OpBuilder &builder, OperationState &state,
                   ArrayRef<OpFoldResult> lower, ArrayRef<OpFoldResult> upper) {
  SmallVector<Value> dynamicLower, dynamicUpper;
  SmallVector<int64_t> staticLower, staticUpper;
  dispatchIndexOpFoldResults(lower, dynamicLower, staticLower);
  dispatchIndexOpFoldResults(upper, dynamicUpper, staticUpper);
  build(builder, state, GridType::get(builder.getContext(), lower.size()),
        dynamicLower, dynamicUpper, builder.getDenseI64ArrayAttr(staticLower),
        builder.getDenseI64ArrayAttr(staticUpper));
}

bool GridOp::hasStaticBounds() {
  return getDynamicLower().empty() && getDynamicUpper().empty();
}

std::optional<int64_t> GridOp::getStaticExtent(unsigned axis) {
  int64_t lower = getStaticLower()[axis];
  int64_t upper = getStaticUpper()[axis];
  if (ShapedType::isDynamic(lower) || ShapedType::isDynamic(upper))
    return std::nullopt;
  return upper - lower;
}

LogicalResult GridOp::verify() {
  unsigned rank = getType().getRank();
  if (getStaticLower().size() != rank || getStaticUpper().size() != rank)
    return emitOpError() << "has " << getStaticLower().size() << " lower and "
                         << getStaticUpper().size()
                         << " upper bounds but the grid type has rank " << rank;
  if (failed(verifyListOfOperandsOrIntegers(
          *this, "lower bound", rank, getStaticLower(), getDynamicLower())) ||
      failed(verifyListOfOperandsOrIntegers(
          *this, "upper bound", rank, getStaticUpper(), getDynamicUpper())))
    return failure();
  for (unsigned axis = 0; axis < rank; ++axis) {
    int64_t lb = getStaticLower()[axis], ub = getStaticUpper()[axis];
    if (!ShapedType::isDynamic(lb) && lb < 0)
      return emitOpError() << "lower bound " << lb << " along axis " << axis
                           << " is negative; grid indices address field "
                              "storage, which starts at 0";
    if (!ShapedType::isDynamic(lb) && !ShapedType::isDynamic(ub) && lb > ub)
      return emitOpError() << "lower bound " << lb << " exceeds upper bound "
                           << ub << " along axis " << axis;
  }
  return success();
}

namespace {
/// Turns bounds given by constant `index` values into static bounds, so that
/// verifiers and tuning passes see them.
struct FoldConstantGridBounds : OpRewritePattern<GridOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GridOp op,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    auto fold = [&](ArrayRef<int64_t> statics, OperandRange dynamics,
                    SmallVectorImpl<int64_t> &newStatics,
                    SmallVectorImpl<Value> &newDynamics) {
      auto dynamic = dynamics.begin();
      for (int64_t bound : statics) {
        if (!ShapedType::isDynamic(bound)) {
          newStatics.push_back(bound);
          continue;
        }
        Value value = *dynamic++;
        if (std::optional<int64_t> constant = getConstantIntValue(value)) {
          newStatics.push_back(*constant);
          changed = true;
        } else {
          newStatics.push_back(ShapedType::kDynamic);
          newDynamics.push_back(value);
        }
      }
    };
    SmallVector<int64_t> lower, upper;
    SmallVector<Value> dynLower, dynUpper;
    fold(op.getStaticLower(), op.getDynamicLower(), lower, dynLower);
    fold(op.getStaticUpper(), op.getDynamicUpper(), upper, dynUpper);
    if (!changed)
      return failure();
    rewriter.replaceOpWithNewOp<GridOp>(op, op.getType(), dynLower, dynUpper,
                                        rewriter.getDenseI64ArrayAttr(lower),
                                        rewriter.getDenseI64ArrayAttr(upper));
    return success();
  }
};
} // namespace

void GridOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<FoldConstantGridBounds>(context);
}

//===----------------------------------------------------------------------===//
// ApplyOp
//===----------------------------------------------------------------------===//

void ApplyOp::build(OpBuilder &builder, OperationState &state, Value grid,
                    ValueRange inputs, ValueRange outputs,
                    ScheduleAttr schedule) {
  build(builder, state, grid, inputs, outputs, ValueRange(), {}, schedule);
}

void ApplyOp::build(OpBuilder &builder, OperationState &state, Value grid,
                    ValueRange inputs, ValueRange outputs,
                    ValueRange reduceInits, ArrayRef<ReductionKind> kinds,
                    ScheduleAttr schedule) {
  assert(reduceInits.size() == kinds.size() && "one kind per reduction");
  state.addOperands(grid);
  state.addOperands(inputs);
  state.addOperands(outputs);
  state.addOperands(reduceInits);
  Properties &properties = state.getOrAddProperties<Properties>();
  properties.operandSegmentSizes = {1, static_cast<int32_t>(inputs.size()),
                                    static_cast<int32_t>(outputs.size()),
                                    static_cast<int32_t>(reduceInits.size())};
  if (schedule)
    properties.schedule = schedule;
  if (!kinds.empty()) {
    SmallVector<Attribute> kindAttrs;
    for (ReductionKind kind : kinds)
      kindAttrs.push_back(ReductionKindAttr::get(builder.getContext(), kind));
    properties.reductions = builder.getArrayAttr(kindAttrs);
  }
  state.addTypes(outputs.getTypes());
  state.addTypes(reduceInits.getTypes());
  asm_utils::addRegionWithArgumentsFor(state, inputs);
}

FieldType ApplyOp::getFirstFieldType() {
  for (Value value : llvm::concat<Value>(getOutputs(), getInputs()))
    if (auto type = llvm::dyn_cast<FieldType>(value.getType()))
      if (type.getShape().size() == getRank())
        return type;
  return {};
}

SmallVector<ReductionKind> ApplyOp::getReductionKinds() {
  SmallVector<ReductionKind> kinds;
  if (ArrayAttr reductions = getReductionsAttr())
    for (Attribute kind : reductions)
      kinds.push_back(llvm::cast<ReductionKindAttr>(kind).getValue());
  return kinds;
}

// Format:
//   stencil.apply on %grid ins(%arg = %operand : type, ...)
//       outs(%operand : type, ...) [reduce(kind %init : type, ...)]
//       attributes {...} { body }
ParseResult ApplyOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand grid;
  SmallVector<OpAsmParser::Argument> arguments;
  SmallVector<OpAsmParser::UnresolvedOperand> inputs, outputs;
  SmallVector<Type> inputTypes, outputTypes;

  if (parser.parseKeyword("on") || parser.parseOperand(grid) ||
      parser.parseKeyword("ins"))
    return failure();
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Paren, [&]() -> ParseResult {
            OpAsmParser::Argument argument;
            OpAsmParser::UnresolvedOperand operand;
            if (parser.parseArgument(argument) || parser.parseEqual() ||
                parser.parseOperand(operand) ||
                parser.parseColonType(argument.type))
              return failure();
            arguments.push_back(argument);
            inputs.push_back(operand);
            inputTypes.push_back(argument.type);
            return success();
          }))
    return failure();

  SMLoc outsLoc = parser.getCurrentLocation();
  if (parser.parseKeyword("outs") ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Paren, [&]() -> ParseResult {
            OpAsmParser::UnresolvedOperand operand;
            Type type;
            if (parser.parseOperand(operand) || parser.parseColonType(type))
              return failure();
            outputs.push_back(operand);
            outputTypes.push_back(type);
            return success();
          }))
    return failure();
  // The grid's rank is the rank of the fields the apply writes, or, when it
  // only reduces, of the first it reads.
  FieldType firstField;
  if (!outputs.empty()) {
    firstField = llvm::dyn_cast<FieldType>(outputTypes.front());
    if (!firstField)
      return parser.emitError(outsLoc, "outs must be stencil fields, got ")
             << outputTypes.front();
  } else {
    for (Type type : inputTypes)
      if ((firstField = llvm::dyn_cast<FieldType>(type)))
        break;
  }

  // reduce(add %init : f32, ...)
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  SmallVector<Type> initTypes;
  SmallVector<Attribute> kinds;
  SMLoc reduceLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("reduce")) &&
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Paren, [&]() -> ParseResult {
            StringRef keyword;
            SMLoc kindLoc = parser.getCurrentLocation();
            OpAsmParser::UnresolvedOperand init;
            Type type;
            if (parser.parseKeyword(&keyword))
              return failure();
            std::optional<ReductionKind> kind = symbolizeReductionKind(keyword);
            if (!kind)
              return parser.emitError(kindLoc, "unknown reduction '")
                     << keyword << "'; expected add, mul, min or max";
            if (parser.parseOperand(init) || parser.parseColonType(type))
              return failure();
            kinds.push_back(ReductionKindAttr::get(parser.getContext(), *kind));
            inits.push_back(init);
            initTypes.push_back(type);
            return success();
          }))
    return failure();

  if (!firstField)
    return parser.emitError(outsLoc, "stencil.apply must write at least one "
                                     "field, or reduce and read one");
  if (outputs.empty() && inits.empty())
    return parser.emitError(outsLoc,
                            "stencil.apply must write at least one field or "
                            "reduce");
  // A rank mismatch is reported by operand resolution.
  Type gridType =
      GridType::get(parser.getContext(), firstField.getShape().size());
  if (parser.resolveOperand(grid, gridType, result.operands) ||
      parser.resolveOperands(inputs, inputTypes, parser.getNameLoc(),
                             result.operands) ||
      parser.resolveOperands(outputs, outputTypes, outsLoc, result.operands) ||
      parser.resolveOperands(inits, initTypes, reduceLoc, result.operands))
    return failure();
  result.addAttribute(ApplyOp::getOperandSegmentSizesAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(
                          {1, static_cast<int32_t>(inputs.size()),
                           static_cast<int32_t>(outputs.size()),
                           static_cast<int32_t>(inits.size())}));
  if (!kinds.empty())
    result.addAttribute(ApplyOp::getReductionsAttrName(result.name),
                        parser.getBuilder().getArrayAttr(kinds));
  result.addTypes(outputTypes);
  result.addTypes(initTypes);

  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  return parser.parseRegion(*body, arguments);
}

void ApplyOp::print(OpAsmPrinter &p) {
  p << " on " << getGrid() << " ins(";
  llvm::interleaveComma(llvm::zip(getBodyBlock()->getArguments(), getInputs()),
                        p, [&](auto pair) {
                          auto [argument, input] = pair;
                          p << argument << " = " << input << " : "
                            << input.getType();
                        });
  p << ") outs(";
  llvm::interleaveComma(getOutputs(), p, [&](Value output) {
    p << output << " : " << output.getType();
  });
  p << ')';
  if (getNumReductions() > 0) {
    p << " reduce(";
    llvm::interleaveComma(llvm::zip(getReductionKinds(), getReduceInits()), p,
                          [&](auto pair) {
                            auto [kind, init] = pair;
                            p << stringifyReductionKind(kind) << ' ' << init
                              << " : " << init.getType();
                          });
    p << ')';
  }
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getOperandSegmentSizesAttrName(), getReductionsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

/// Checks that a schedule fits a grid of `rank` axes.
static LogicalResult verifyScheduleRank(Operation *op, ScheduleAttr schedule,
                                        unsigned rank) {
  if (schedule && schedule.getRank() != rank)
    return op->emitOpError() << "schedule 'wg' has " << schedule.getRank()
                             << " axes but the grid is " << rankName(rank);
  return success();
}

LogicalResult ApplyOp::verify() {
  unsigned rank = getRank();
  if (getOutputs().empty() && getReduceInits().empty())
    return emitOpError("must write at least one field or reduce");
  if (!getFirstFieldType())
    return emitOpError("writes no field and reads none of the grid's rank; "
                       "an apply that only reduces reads at least one such "
                       "field");
  unsigned numReductions = getNumReductions();
  size_t numKinds = getReductionsAttr() ? getReductionsAttr().size() : 0;
  if (numKinds != numReductions)
    return emitOpError() << "has " << numReductions << " reduction inits but "
                         << numKinds << " reduction kinds";
  if (getResults().size() != getOutputs().size() + numReductions)
    return emitOpError() << "has " << getResults().size() << " results but "
                         << getOutputs().size() << " outputs and "
                         << numReductions << " reductions";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getFieldResults(), getOutputs()))) {
    auto [result, output] = pair;
    if (result.getType() != output.getType())
      return emitOpError() << "result #" << index << " has type "
                           << result.getType() << " but output #" << index
                           << " has type " << output.getType();
  }
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getReductionResults(), getReduceInits()))) {
    auto [result, init] = pair;
    if (result.getType() != init.getType())
      return emitOpError() << "reduction #" << index << " has type "
                           << result.getType() << " but its init has type "
                           << init.getType();
  }

  // Inputs may have fewer axes than the grid (read `along` some of its
  // axes); outputs are written at every point, so they have its rank.
  auto checkRank = [&](Value value, StringRef what, size_t index,
                       bool mayBeLower = false) -> LogicalResult {
    auto field = llvm::dyn_cast<FieldType>(value.getType());
    if (!field || field.getShape().size() == rank ||
        (mayBeLower && field.getShape().size() < rank))
      return success();
    return emitOpError() << what << " #" << index << " is "
                         << rankName(field.getShape().size())
                         << " but the grid is " << rankName(rank);
  };
  for (auto [index, input] : llvm::enumerate(getInputs()))
    if (failed(checkRank(input, "input", index, /*mayBeLower=*/true)))
      return failure();
  for (auto [index, output] : llvm::enumerate(getOutputs()))
    if (failed(checkRank(output, "output", index)))
      return failure();

  if (failed(verifyScheduleRank(*this, getScheduleAttr(), rank)))
    return failure();
  if (getScheduleAttr() && getScheduleAttr().getTimeBlock() != 1)
    return emitOpError() << "schedule 'time_block' "
                         << getScheduleAttr().getTimeBlock()
                         << " needs a time loop: set it on the enclosing "
                            "stencil.iterate";

  Block *block = getBodyBlock();
  if (block->getNumArguments() != getInputs().size())
    return emitOpError() << "body has " << block->getNumArguments()
                         << " arguments but there are " << getInputs().size()
                         << " inputs";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(block->getArguments(), getInputs()))) {
    auto [argument, input] = pair;
    if (argument.getType() != input.getType())
      return emitOpError() << "body argument #" << index << " has type "
                           << argument.getType() << " but input #" << index
                           << " has type " << input.getType();
  }

  // The grid must lie inside every output: the apply writes all its points.
  if (GridOp grid = getGridOp()) {
    for (auto [index, output] : llvm::enumerate(getOutputs())) {
      ArrayRef<int64_t> shape =
          llvm::cast<FieldType>(output.getType()).getShape();
      for (unsigned axis = 0; axis < rank; ++axis) {
        int64_t ub = grid.getStaticUpper()[axis];
        if (!ShapedType::isDynamic(ub) && !ShapedType::isDynamic(shape[axis]) &&
            ub > shape[axis])
          return emitOpError() << "grid upper bound " << ub << " along axis "
                               << axis << " exceeds the size " << shape[axis]
                               << " of output #" << index;
      }
    }
  }
  return success();
}

/// Checks that an access with `offset` from every point of `grid` stays in a
/// field of `shape`. Dynamic bounds and sizes are checked at run time by the
/// lowering, not here.
static LogicalResult verifyAccessInBounds(FieldAccessOpInterface access,
                                          GridOp grid,
                                          ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> offset = access.getAccessOffset();
  SmallVector<int64_t, 3> gridAxes = access.getAccessAxes();
  for (unsigned axis = 0; axis < offset.size(); ++axis) {
    int64_t lb = grid.getStaticLower()[gridAxes[axis]];
    int64_t ub = grid.getStaticUpper()[gridAxes[axis]];
    int64_t o = offset[axis];
    // A lower-rank field's axis names the grid axis it follows.
    std::string where = "along axis " + std::to_string(axis);
    if (gridAxes[axis] != int64_t(axis) || gridAxes.size() != grid.getRank())
      where += " (the grid's axis " + std::to_string(gridAxes[axis]) + ")";
    if (!ShapedType::isDynamic(lb) && lb + o < 0)
      return access->emitOpError()
             << "offset " << o << " " << where
             << " reads outside the field: the grid starts at " << lb
             << ", which leaves a halo of " << lb;
    if (!ShapedType::isDynamic(ub) && !ShapedType::isDynamic(shape[axis]) &&
        ub + o > shape[axis]) {
      if (ub > shape[axis])
        return access->emitOpError()
               << "offset " << o << " " << where
               << " reads outside the field: the grid ends at " << ub
               << ", beyond the field's " << shape[axis] << " cells";
      return access->emitOpError()
             << "offset " << o << " " << where
             << " reads outside the field: the grid ends at " << ub << " of "
             << shape[axis] << ", which leaves a halo of " << shape[axis] - ub;
    }
  }
  return success();
}

LogicalResult ApplyOp::verifyRegions() {
  auto ret = llvm::dyn_cast<ReturnOp>(getBodyBlock()->getTerminator());
  if (!ret)
    return emitOpError("body must end with stencil.return");
  unsigned numOutputs = getOutputs().size();
  if (ret.getValues().size() != numOutputs + getNumReductions())
    return ret.emitOpError()
           << "returns " << ret.getValues().size()
           << " values but the enclosing stencil.apply writes " << numOutputs
           << " fields and reduces " << getNumReductions() << " values";
  for (auto [index, pair] : llvm::enumerate(llvm::zip(
           ret.getValues().drop_front(numOutputs), getReduceInits()))) {
    auto [value, init] = pair;
    if (value.getType() != init.getType())
      return ret.emitOpError()
             << "contribution #" << index << " has type " << value.getType()
             << " but reduction #" << index << " has type " << init.getType();
  }
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(ret.getValues(), getOutputs()))) {
    auto [value, output] = pair;
    Type elementType = llvm::cast<FieldType>(output.getType()).getElementType();
    if (value.getType() != elementType)
      return ret.emitOpError()
             << "value #" << index << " has type " << value.getType()
             << " but output #" << index << " holds " << elementType;
  }

  GridOp grid = getGridOp();
  WalkResult result = getBody().walk([&](Operation *op) -> WalkResult {
    if (op->getDialect() == getOperation()->getDialect() &&
        !llvm::isa<AccessOp, IndexOp, ReturnOp>(op))
      return op->emitOpError() << "is not allowed in a stencil.apply body",
             WalkResult::interrupt();
    auto access = llvm::dyn_cast<FieldAccessOpInterface>(op);
    if (!access || !grid)
      return WalkResult::advance();
    auto shape =
        llvm::cast<FieldType>(access.getAccessedField().getType()).getShape();
    if (failed(verifyAccessInBounds(access, grid, shape)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

GridOp ApplyOp::getGridOp() { return getGrid().getDefiningOp<GridOp>(); }

Value ApplyOp::getFieldForArgument(BlockArgument argument) {
  if (argument.getOwner() != getBodyBlock())
    return {};
  return getInputs()[argument.getArgNumber()];
}

OperandRange ApplyOp::getWrittenFields() { return getOutputs(); }

namespace {
/// Rebuilds an apply keeping the inputs marked in `keepInputs` and the
/// results (outputs, then reductions) marked in `keepResults`; dropped inputs
/// must be unused in the body.
ApplyOp rebuildApply(PatternRewriter &rewriter, ApplyOp op,
                     const llvm::BitVector &keepInputs,
                     const llvm::BitVector &keepResults) {
  unsigned numOutputs = op.getOutputs().size();
  SmallVector<Value> inputs, outputs, inits;
  SmallVector<ReductionKind> kinds;
  for (auto [index, input] : llvm::enumerate(op.getInputs()))
    if (keepInputs.test(index))
      inputs.push_back(input);
  for (auto [index, output] : llvm::enumerate(op.getOutputs()))
    if (keepResults.test(index))
      outputs.push_back(output);
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(op.getReduceInits(), op.getReductionKinds())))
    if (keepResults.test(numOutputs + index)) {
      inits.push_back(std::get<0>(pair));
      kinds.push_back(std::get<1>(pair));
    }

  auto newOp = ApplyOp::create(rewriter, op.getLoc(), op.getGrid(), inputs,
                               outputs, inits, kinds, op.getScheduleAttr());
  newOp->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  // Move the old body over; drop the arguments of removed inputs and the
  // returned values of removed results.
  rewriter.eraseBlock(newOp.getBodyBlock());
  Block *body = op.getBodyBlock();
  rewriter.inlineRegionBefore(op.getBody(), newOp.getBody(),
                              newOp.getBody().end());
  llvm::BitVector dropArgs = keepInputs;
  dropArgs.flip();
  body->eraseArguments(dropArgs);
  auto ret = llvm::cast<ReturnOp>(body->getTerminator());
  SmallVector<Value> returned;
  for (auto [index, value] : llvm::enumerate(ret.getValues()))
    if (keepResults.test(index))
      returned.push_back(value);
  rewriter.modifyOpInPlace(ret, [&] { ret->setOperands(returned); });

  SmallVector<Value> replacements(op.getNumResults(), Value());
  unsigned next = 0;
  for (unsigned index = 0; index < op.getNumResults(); ++index)
    if (keepResults.test(index))
      replacements[index] = newOp.getResult(next++);
  rewriter.replaceOp(op, replacements);
  return newOp;
}

/// Drops outputs and reductions whose results are unused (the whole apply,
/// when none is used, is removed as dead code by the canonicalizer itself).
/// An apply keeps one output: when only reductions are used, the first.
struct RemoveUnusedApplyResults : OpRewritePattern<ApplyOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ApplyOp op,
                                PatternRewriter &rewriter) const override {
    llvm::BitVector keepResults(op.getNumResults());
    for (OpResult result : op->getResults())
      if (!result.use_empty())
        keepResults.set(result.getResultNumber());
    if (keepResults.all() || keepResults.none())
      return failure();
    unsigned numOutputs = op.getOutputs().size();
    if (keepResults.find_first() >= static_cast<int>(numOutputs))
      keepResults.set(0);
    if (keepResults.all())
      return failure();
    llvm::BitVector keepInputs(op.getInputs().size(), true);
    rebuildApply(rewriter, op, keepInputs, keepResults);
    return success();
  }
};

/// Drops inputs the body never uses, and merges inputs passed twice.
struct RemoveUnusedOrDuplicateApplyInputs : OpRewritePattern<ApplyOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ApplyOp op,
                                PatternRewriter &rewriter) const override {
    Block *body = op.getBodyBlock();
    llvm::BitVector keepInputs(op.getInputs().size(), true);
    llvm::SmallDenseMap<Value, BlockArgument> firstArgument;
    bool changed = false;
    for (auto [index, input] : llvm::enumerate(op.getInputs())) {
      BlockArgument argument = body->getArgument(index);
      auto [it, inserted] = firstArgument.try_emplace(input, argument);
      if (!inserted) {
        rewriter.replaceAllUsesWith(argument, it->second);
        changed = true;
      }
      if (argument.use_empty()) {
        keepInputs.reset(index);
        changed = true;
      }
    }
    if (!changed)
      return failure();
    llvm::BitVector keepOutputs(op.getNumResults(), true);
    rebuildApply(rewriter, op, keepInputs, keepOutputs);
    return success();
  }
};
} // namespace

void ApplyOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<RemoveUnusedApplyResults, RemoveUnusedOrDuplicateApplyInputs>(
      context);
}

//===----------------------------------------------------------------------===//
// AccessOp
//===----------------------------------------------------------------------===//

LogicalResult AccessOp::verify() {
  auto field = llvm::cast<FieldType>(getField().getType());
  unsigned fieldRank = field.getShape().size();
  if (getOffset().size() != fieldRank)
    return emitOpError() << "offset has " << getOffset().size()
                         << " entries but the field is " << rankName(fieldRank);
  auto apply = (*this)->getParentOfType<ApplyOp>();
  if (!apply)
    return emitOpError("must be nested in a stencil.apply");
  auto argument = llvm::dyn_cast<BlockArgument>(getField());
  if (!argument || argument.getOwner() != apply.getBodyBlock())
    return emitOpError(
        "must read a field argument of the enclosing stencil.apply");
  unsigned gridRank = apply.getRank();
  std::optional<ArrayRef<int64_t>> along = getAlong();
  if (!along) {
    if (fieldRank != gridRank)
      return emitOpError() << "reads a " << rankName(fieldRank)
                           << " field in a " << rankName(gridRank)
                           << " grid; name the grid axes its axes run along "
                              "with 'along'";
    return success();
  }
  // Analyses read a grid-rank field's offset along the grid's own axes.
  if (fieldRank == gridRank)
    return emitOpError() << "names 'along' for a field of the grid's rank; "
                            "'along' is for fields of fewer axes";
  if (along->size() != fieldRank)
    return emitOpError() << "'along' has " << along->size()
                         << " entries but the field is " << rankName(fieldRank);
  llvm::SmallBitVector seen(gridRank);
  for (int64_t axis : *along) {
    if (axis < 0 || uint64_t(axis) >= gridRank)
      return emitOpError() << "'along' names axis " << axis << ", which the "
                           << rankName(gridRank) << " grid does not have";
    if (seen.test(axis))
      return emitOpError() << "'along' names grid axis " << axis << " twice";
    seen.set(axis);
  }
  return success();
}

SmallVector<int64_t, 3> AccessOp::getGridAxes() {
  if (std::optional<ArrayRef<int64_t>> along = getAlong())
    return SmallVector<int64_t, 3>(*along);
  return llvm::to_vector<3>(llvm::seq<int64_t>(0, getOffset().size()));
}

Value AccessOp::getAccessedField() { return getField(); }

SmallVector<int64_t, 3> AccessOp::getAccessAxes() { return getGridAxes(); }

ArrayRef<int64_t> AccessOp::getAccessOffset() { return getOffset(); }

//===----------------------------------------------------------------------===//
// IndexOp
//===----------------------------------------------------------------------===//

LogicalResult IndexOp::verify() {
  unsigned rank = llvm::cast<ApplyOp>((*this)->getParentOp()).getRank();
  if (uint64_t(getAxis()) >= rank)
    return emitOpError() << "axis " << getAxis() << " is outside the "
                         << rankName(rank) << " grid of the enclosing apply";
  return success();
}

//===----------------------------------------------------------------------===//
// IterateOp
//===----------------------------------------------------------------------===//

void IterateOp::build(OpBuilder &builder, OperationState &state, Value steps,
                      ValueRange inits, ScheduleAttr schedule) {
  state.addOperands(steps);
  state.addOperands(inits);
  if (schedule)
    state.getOrAddProperties<Properties>().schedule = schedule;
  state.addTypes(inits.getTypes());
  asm_utils::addRegionWithArgumentsFor(state, inits);
}

// Format:
//   stencil.iterate %steps iter_args(%a = %a0, ...) : type, ...
//       attributes {...} { body }
ParseResult IterateOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand steps;
  SmallVector<OpAsmParser::Argument> arguments;
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  SmallVector<Type> types;
  if (parser.parseOperand(steps) ||
      parser.resolveOperand(steps, parser.getBuilder().getIndexType(),
                            result.operands) ||
      parser.parseKeyword("iter_args") ||
      parser.parseAssignmentList(arguments, inits) || parser.parseColon())
    return failure();
  SMLoc typesLoc = parser.getCurrentLocation();
  if (parser.parseTypeList(types))
    return failure();
  if (types.size() != inits.size())
    return parser.emitError(typesLoc)
           << "expected " << inits.size() << " types, got " << types.size();
  for (auto [argument, type] : llvm::zip(arguments, types))
    argument.type = type;
  if (parser.resolveOperands(inits, types, typesLoc, result.operands))
    return failure();
  result.addTypes(types);
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return parser.parseRegion(*result.addRegion(), arguments);
}

void IterateOp::print(OpAsmPrinter &p) {
  p << ' ' << getSteps() << " iter_args(";
  llvm::interleaveComma(llvm::zip(getBodyBlock()->getArguments(), getInits()),
                        p, [&](auto pair) {
                          auto [argument, init] = pair;
                          p << argument << " = " << init;
                        });
  p << ") : ";
  llvm::interleaveComma(getInits().getTypes(), p);
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult IterateOp::verify() {
  if (llvm::none_of(getInits().getTypes(),
                    [](Type type) { return llvm::isa<FieldType>(type); }))
    return emitOpError("must carry at least one field");
  if (getResults().size() != getInits().size())
    return emitOpError() << "has " << getResults().size() << " results but "
                         << getInits().size() << " iter_args";
  Block *block = getBodyBlock();
  if (block->getNumArguments() != getInits().size())
    return emitOpError() << "body has " << block->getNumArguments()
                         << " arguments but there are " << getInits().size()
                         << " iter_args";
  for (auto [index, values] : llvm::enumerate(
           llvm::zip(getInits(), block->getArguments(), getResults()))) {
    auto [init, argument, result] = values;
    if (argument.getType() != init.getType() ||
        result.getType() != init.getType())
      return emitOpError() << "iter_arg #" << index << " has type "
                           << init.getType()
                           << " but its body argument or result does not";
  }
  return success();
}

// The yield checks its values against the loop itself: nested ops verify
// before their parent's regions, so these messages come before the generic
// ones of RegionBranchOpInterface.
LogicalResult YieldOp::verify() {
  auto iterate = llvm::cast<IterateOp>((*this)->getParentOp());
  if (getValues().size() != iterate.getInits().size())
    return emitOpError() << "yields " << getValues().size()
                         << " values but the enclosing stencil.iterate carries "
                         << iterate.getInits().size();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getValues(), iterate.getInits()))) {
    auto [value, init] = pair;
    if (value.getType() != init.getType())
      return emitOpError() << "value #" << index << " has type "
                           << value.getType() << " but iter_arg #" << index
                           << " has type " << init.getType();
  }
  return success();
}

LogicalResult IterateOp::verifyRegions() {
  if (!llvm::isa<YieldOp>(getBodyBlock()->getTerminator()))
    return emitOpError("body must end with stencil.yield");

  ScheduleAttr schedule = getScheduleAttr();
  if (!schedule)
    return success();
  WalkResult result = getBody().walk([&](ApplyOp apply) -> WalkResult {
    if (apply.getRank() == schedule.getRank())
      return WalkResult::advance();
    InFlightDiagnostic diag = emitOpError()
                              << "schedule 'wg' has " << schedule.getRank()
                              << " axes but the grid of a stencil.apply in "
                                 "its body is "
                              << rankName(apply.getRank());
    diag.attachNote(apply.getLoc()) << "the stencil.apply is here";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

void IterateOp::getSuccessorRegions(RegionBranchPoint,
                                    SmallVectorImpl<RegionSuccessor> &regions) {
  // On entry and after each step alike: the body runs (again), or the loop
  // ends, after zero steps or the last one, with what entered it last.
  regions.push_back(RegionSuccessor(&getBody(), getRegionIterArgs()));
  regions.push_back(
      RegionSuccessor(getOperation(), getOperation()->getResults()));
}

OperandRange IterateOp::getEntrySuccessorOperands(RegionSuccessor) {
  return getInits();
}

SmallVector<Region *> IterateOp::getLoopRegions() { return {&getBody()}; }

Block::BlockArgListType IterateOp::getRegionIterArgs() {
  return getBodyBlock()->getArguments();
}

std::optional<MutableArrayRef<OpOperand>> IterateOp::getYieldedValuesMutable() {
  // Interface verifiers ask before verifyRegions has seen the terminator.
  auto yield = llvm::dyn_cast<YieldOp>(getBodyBlock()->getTerminator());
  if (!yield)
    return std::nullopt;
  return yield.getValuesMutable();
}

std::optional<ResultRange> IterateOp::getLoopResults() { return getResults(); }

namespace {
/// A time loop of zero steps yields its initial fields.
struct RemoveZeroStepIterate : OpRewritePattern<IterateOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(IterateOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> steps = getConstantIntValue(op.getSteps());
    if (!steps || *steps > 0)
      return failure();
    rewriter.replaceOp(op, op.getInits());
    return success();
  }
};
} // namespace

void IterateOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<RemoveZeroStepIterate>(context);
}

//===----------------------------------------------------------------------===//
// ExchangeOp
//===----------------------------------------------------------------------===//

LogicalResult ExchangeOp::verify() {
  auto field = llvm::cast<FieldType>(getField().getType());
  DecompositionAttr decomposition = field.getDecomposition();
  if (!decomposition)
    return emitOpError("needs a distributed field, but the field type has no "
                       "#stencil.decomp");
  ArrayRef<int64_t> widths = getWidths();
  ArrayRef<int64_t> shape = field.getShape();
  if (widths.size() != shape.size())
    return emitOpError() << "widths has " << widths.size()
                         << " entries but the field is "
                         << rankName(shape.size());
  for (unsigned axis = 0; axis < widths.size(); ++axis) {
    if (widths[axis] < 0)
      return emitOpError() << "width " << widths[axis] << " along axis " << axis
                           << " is negative";
    if (widths[axis] > 0 && !decomposition.isDistributed(axis))
      return emitOpError() << "width " << widths[axis] << " along axis " << axis
                           << ", which is not distributed";
    if (!ShapedType::isDynamic(shape[axis]) && widths[axis] >= shape[axis])
      return emitOpError() << "width " << widths[axis] << " along axis " << axis
                           << " is not smaller than the field size "
                           << shape[axis];
  }
  return success();
}

OpFoldResult ExchangeOp::fold(FoldAdaptor) {
  // An exchange of width 0 everywhere moves no data.
  if (llvm::all_of(getWidths(), [](int64_t w) { return w == 0; }))
    return getField();
  return {};
}

//===----------------------------------------------------------------------===//
// LoadOp / StoreOp
//===----------------------------------------------------------------------===//

/// Checks that a memref can hold a field: same element type, same rank,
/// equal sizes where both are static.
static LogicalResult verifyFieldMemRef(Operation *op, FieldType field,
                                       MemRefType memref) {
  if (memref.getElementType() != field.getElementType())
    return op->emitOpError()
           << "memref element type " << memref.getElementType()
           << " does not match the field's " << field.getElementType();
  if (memref.getRank() != static_cast<int64_t>(field.getShape().size()))
    return op->emitOpError()
           << "memref is " << rankName(memref.getRank()) << " but the field is "
           << rankName(field.getShape().size());
  for (auto [axis, sizes] :
       llvm::enumerate(llvm::zip(memref.getShape(), field.getShape()))) {
    auto [m, f] = sizes;
    if (!ShapedType::isDynamic(m) && !ShapedType::isDynamic(f) && m != f)
      return op->emitOpError() << "memref size " << m << " along axis " << axis
                               << " does not match the field size " << f;
  }
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyFieldMemRef(*this, getType(), getMemref().getType());
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getMemrefMutable());
}

LogicalResult StoreOp::verify() {
  return verifyFieldMemRef(*this, getField().getType(), getMemref().getType());
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), &getMemrefMutable());
}

LogicalResult WriteRawOp::verify() {
  if ((*this)->getParentOfType<IterateOp>())
    return emitOpError("stands inside a stencil.iterate; write the field "
                       "before or after the time loop");
  return success();
}

void WriteRawOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // The file is outside the program's memory: a write to the default
  // resource keeps the op, and its order among other writes.
  effects.emplace_back(MemoryEffects::Read::get(), &getPathMutable());
  effects.emplace_back(MemoryEffects::Write::get());
}

#define GET_OP_CLASSES
#include "Stencil/Dialect/Stencil/IR/StencilOps.cpp.inc"

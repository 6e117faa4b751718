//===- StencilDialect.cpp - Stencil dialect, types and attributes ---------===//

#include "Stencil/Dialect/Stencil/IR/StencilDialect.h"
#include "Stencil/Dialect/Stencil/IR/StencilOps.h"
#include "StencilAsmUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::stencil;

#include "Stencil/Dialect/Stencil/IR/StencilDialect.cpp.inc"
#include "Stencil/Dialect/Stencil/IR/StencilEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Stencil/Dialect/Stencil/IR/StencilAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "Stencil/Dialect/Stencil/IR/StencilTypes.cpp.inc"

void StencilDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Stencil/Dialect/Stencil/IR/StencilAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "Stencil/Dialect/Stencil/IR/StencilTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "Stencil/Dialect/Stencil/IR/StencilOps.cpp.inc"
      >();
}

LogicalResult StencilDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  MLIRContext *context = op->getContext();
  StringAttr name = attr.getName();
  Attribute value = attr.getValue();
  auto check = [&](bool valid, StringRef what) -> LogicalResult {
    if (valid)
      return success();
    return op->emitOpError() << "attribute '" << name.getValue() << "' must be "
                             << what << ", got " << value;
  };
  bool onFunction = llvm::isa<FunctionOpInterface>(op);
  bool onTimeLoop = llvm::isa<IterateOp>(op);
  if (name == MpiAttrHelper(context).getName())
    return check(llvm::isa<UnitAttr>(value) && onFunction,
                 "a unit attribute on a function");
  if (name == MaxStepsAttrHelper(context).getName()) {
    auto steps = llvm::dyn_cast<IntegerAttr>(value);
    return check(steps && steps.getType().isInteger(64) &&
                     !steps.getValue().isNegative() && onFunction,
                 "a non-negative i64 on a function");
  }
  if (name == DeviceSplitAttrHelper(context).getName()) {
    auto split = llvm::dyn_cast<DenseI64ArrayAttr>(value);
    return check(split && onTimeLoop &&
                     llvm::all_of(split.asArrayRef(),
                                  [](int64_t points) { return points >= 0; }),
                 "an array of non-negative point counts on a "
                 "stencil.iterate");
  }
  if (name == LocalSizesAttrHelper(context).getName()) {
    auto sizes = llvm::dyn_cast<ArrayAttr>(value);
    DenseI64ArrayAttr split = DeviceSplitAttrHelper(context).getAttr(op);
    auto isLocalSize = [](Attribute entry) {
      auto local = llvm::dyn_cast<DenseI64ArrayAttr>(entry);
      return local && llvm::all_of(local.asArrayRef(),
                                   [](int64_t size) { return size > 0; });
    };
    return check(sizes && onTimeLoop && split &&
                     sizes.size() == static_cast<size_t>(split.size()) &&
                     llvm::all_of(sizes, isLocalSize),
                 "one array of positive sizes per entry of "
                 "'stencil.device_split', on a stencil.iterate");
  }
  if (name == ResidentAttrHelper(context).getName())
    return op->emitOpError() << "attribute '" << name.getValue()
                             << "' belongs on a function's memref argument";
  return op->emitOpError() << "has unknown attribute '" << name.getValue()
                           << "'; the stencil dialect defines stencil.mpi, "
                              "stencil.max_steps, stencil.device_split, "
                              "stencil.local_sizes and stencil.resident";
}

LogicalResult StencilDialect::verifyRegionArgAttribute(Operation *op,
                                                       unsigned regionIndex,
                                                       unsigned argIndex,
                                                       NamedAttribute attr) {
  StringAttr name = attr.getName();
  if (name != ResidentAttrHelper(op->getContext()).getName())
    return op->emitOpError()
           << "has unknown argument attribute '" << name.getValue()
           << "'; the stencil dialect defines stencil.resident on arguments";
  auto function = llvm::dyn_cast<FunctionOpInterface>(op);
  bool onMemRef = function && regionIndex == 0 && !function.isExternal() &&
                  llvm::isa<MemRefType>(function.getArgumentTypes()[argIndex]);
  if (!llvm::isa<UnitAttr>(attr.getValue()) || !onMemRef)
    return op->emitOpError()
           << "attribute '" << name.getValue()
           << "' must be a unit attribute on a memref argument of a "
              "function, got "
           << attr.getValue() << " on argument " << argIndex;
  return success();
}

/// Checks that a rank is one fields and grids support.
static LogicalResult verifyRank(function_ref<InFlightDiagnostic()> emitError,
                                StringRef what, size_t rank) {
  if (rank < 1 || rank > kMaxRank)
    return emitError() << what << " must have 1 to " << kMaxRank
                       << " axes, got " << rank;
  return success();
}

//===----------------------------------------------------------------------===//
// FieldType
//===----------------------------------------------------------------------===//

Type FieldType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> shape;
  Type elementType;
  DecompositionAttr decomposition;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return {};
  if (succeeded(parser.parseOptionalComma()) &&
      parser.parseAttribute(decomposition))
    return {};
  if (parser.parseGreater())
    return {};
  return FieldType::getChecked([&] { return parser.emitError(loc); },
                               parser.getContext(), shape, elementType,
                               decomposition);
}

void FieldType::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printDimensionList(getShape());
  printer << 'x' << getElementType();
  if (getDecomposition()) {
    printer << ", ";
    printer.printAttribute(getDecomposition());
  }
  printer << '>';
}

LogicalResult FieldType::verify(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<int64_t> shape, Type elementType,
                                DecompositionAttr decomposition) {
  if (failed(verifyRank(emitError, "field", shape.size())))
    return failure();
  if (!elementType.isF32() && !elementType.isF64() &&
      !elementType.isSignlessInteger(32) && !elementType.isSignlessInteger(64))
    return emitError() << "field element type must be f32, f64, i32 or i64, "
                          "got "
                       << elementType;
  for (auto [axis, size] : llvm::enumerate(shape))
    if (!ShapedType::isDynamic(size) && size <= 0)
      return emitError() << "field size along axis " << axis
                         << " must be positive, got " << size;
  if (decomposition && decomposition.getRank() != shape.size())
    return emitError() << "decomposition has " << decomposition.getRank()
                       << " axes but the field has " << shape.size();
  // Lowered code addresses bytes with 64-bit signed offsets.
  std::optional<int64_t> bytes = elementType.getIntOrFloatBitWidth() / 8;
  for (int64_t size : shape)
    if (!ShapedType::isDynamic(size) && bytes)
      bytes = llvm::checkedMul(*bytes, size);
  if (!bytes) {
    std::string sizes;
    llvm::raw_string_ostream os(sizes);
    llvm::interleave(
        shape, os,
        [&](int64_t size) {
          ShapedType::isDynamic(size) ? os << "?" : os << size;
        },
        "x");
    return emitError() << "field of " << sizes << " " << elementType
                       << " needs more than 2^63 bytes, beyond the 64-bit "
                          "offsets lowered code addresses it with";
  }
  return success();
}

FieldType FieldType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                               Type elementType) const {
  ArrayRef<int64_t> newShape = shape ? *shape : getShape();
  DecompositionAttr decomposition =
      newShape.size() == getShape().size() ? getDecomposition() : nullptr;
  return FieldType::get(getContext(), newShape, elementType, decomposition);
}

MemRefType FieldType::getMemRefType() const {
  return MemRefType::get(getShape(), getElementType());
}

//===----------------------------------------------------------------------===//
// GridType
//===----------------------------------------------------------------------===//

LogicalResult GridType::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned rank) {
  return verifyRank(emitError, "grid", rank);
}

//===----------------------------------------------------------------------===//
// DecompositionAttr
//===----------------------------------------------------------------------===//

Attribute DecompositionAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<AxisDistribution> axes;
  auto parseAxis = [&]() -> ParseResult {
    if (succeeded(parser.parseOptionalStar())) {
      axes.push_back(AxisDistribution::Replicated);
      return success();
    }
    SMLoc kwLoc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    if (keyword != "block")
      return parser.emitError(kwLoc)
             << "expected 'block' or '*' for an axis, got '" << keyword << "'";
    axes.push_back(AxisDistribution::Block);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                     parseAxis))
    return {};
  return DecompositionAttr::getChecked([&] { return parser.emitError(loc); },
                                       parser.getContext(), axes);
}

void DecompositionAttr::print(AsmPrinter &printer) const {
  printer << '<';
  llvm::interleaveComma(getAxes(), printer, [&](AxisDistribution axis) {
    printer << (axis == AxisDistribution::Block ? "block" : "*");
  });
  printer << '>';
}

LogicalResult
DecompositionAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<AxisDistribution> axes) {
  if (failed(verifyRank(emitError, "decomposition", axes.size())))
    return failure();
  if (llvm::none_of(axes, [](AxisDistribution a) {
        return a == AxisDistribution::Block;
      }))
    return emitError() << "decomposition distributes no axis; a field kept "
                          "whole on every rank has no decomposition";
  return success();
}

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

ParseResult asm_utils::parseIntegerList(AsmParser &parser,
                                        SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                        [&]() -> ParseResult {
                                          int64_t value;
                                          if (parser.parseInteger(value))
                                            return failure();
                                          values.push_back(value);
                                          return success();
                                        });
}

void asm_utils::printIntegerList(AsmPrinter &printer,
                                 ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

void asm_utils::addRegionWithArgumentsFor(OperationState &state,
                                          ValueRange values) {
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value value : values)
    block->addArgument(value.getType(), value.getLoc());
}

Attribute ScheduleAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> wg, tile;
  int64_t timeBlock = 1, exchangeDepth = 1;
  bool streamingStores = false;
  llvm::StringSet<> seen;
  auto parseEntry = [&]() -> ParseResult {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (!seen.insert(key).second)
      return parser.emitError(keyLoc)
             << "schedule key '" << key << "' given twice";
    if (key == "wg")
      return asm_utils::parseIntegerList(parser, wg);
    if (key == "tile")
      return asm_utils::parseIntegerList(parser, tile);
    if (key == "time_block")
      return parser.parseInteger(timeBlock);
    if (key == "exchange_depth")
      return parser.parseInteger(exchangeDepth);
    if (key == "streaming_stores") {
      SMLoc valueLoc = parser.getCurrentLocation();
      StringRef value;
      if (parser.parseKeyword(&value))
        return failure();
      if (value != "true" && value != "false")
        return parser.emitError(valueLoc)
               << "schedule 'streaming_stores' must be true or false";
      streamingStores = value == "true";
      return success();
    }
    return parser.emitError(keyLoc) << "unknown schedule key '" << key
                                    << "'; expected wg, tile, time_block, "
                                       "exchange_depth or streaming_stores";
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                     parseEntry))
    return {};
  if (!seen.contains("wg")) {
    parser.emitError(loc) << "schedule needs a work-group shape 'wg'";
    return {};
  }
  return ScheduleAttr::getChecked([&] { return parser.emitError(loc); },
                                  parser.getContext(), wg, tile, timeBlock,
                                  exchangeDepth, streamingStores);
}

void ScheduleAttr::print(AsmPrinter &printer) const {
  printer << "<wg = ";
  asm_utils::printIntegerList(printer, getWg());
  if (!getTile().empty()) {
    printer << ", tile = ";
    asm_utils::printIntegerList(printer, getTile());
  }
  if (getTimeBlock() != 1)
    printer << ", time_block = " << getTimeBlock();
  if (getExchangeDepth() != 1)
    printer << ", exchange_depth = " << getExchangeDepth();
  if (getStreamingStores())
    printer << ", streaming_stores = true";
  printer << '>';
}

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayRef<int64_t> wg, ArrayRef<int64_t> tile,
                                   int64_t timeBlock, int64_t exchangeDepth,
                                   bool streamingStores) {
  if (failed(verifyRank(emitError, "schedule 'wg'", wg.size())))
    return failure();
  for (auto [axis, size] : llvm::enumerate(wg))
    if (size < 1)
      return emitError() << "schedule 'wg' must be at least 1 along every "
                            "axis, got "
                         << size << " along axis " << axis;
  if (!tile.empty()) {
    if (tile.size() != wg.size())
      return emitError() << "schedule 'tile' has " << tile.size()
                         << " axes but 'wg' has " << wg.size();
    for (auto [axis, sizes] : llvm::enumerate(llvm::zip(tile, wg))) {
      auto [t, w] = sizes;
      if (t < 1 || t % w != 0)
        return emitError() << "schedule 'tile' must be a positive multiple of "
                              "'wg' along every axis, got "
                           << t << " over " << w << " along axis " << axis;
    }
  }
  if (timeBlock < 1)
    return emitError() << "schedule 'time_block' must be at least 1, got "
                       << timeBlock;
  if (exchangeDepth < 1)
    return emitError() << "schedule 'exchange_depth' must be at least 1, got "
                       << exchangeDepth;
  return success();
}

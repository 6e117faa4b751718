//===- RuntimeCalls.cpp - Calls into the host runtime ---------------------===//

#include "Stencil/Support/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

Value stencil::callRuntime(OpBuilder &builder, Location loc, ModuleOp module,
                           StringRef name, ValueRange args, bool returnsIndex) {
  Type i64 = builder.getI64Type();
  SmallVector<Value> converted;
  for (Value arg : args)
    converted.push_back(
        arg.getType().isIndex()
            ? arith::IndexCastOp::create(builder, loc, i64, arg).getResult()
            : arg);
  auto function = module.lookupSymbol<func::FuncOp>(name);
  if (!function) {
    OpBuilder atModule = OpBuilder::atBlockEnd(module.getBody());
    SmallVector<Type> inputs(args.size(), i64);
    SmallVector<Type> results;
    if (returnsIndex)
      results.push_back(i64);
    function = func::FuncOp::create(atModule, loc, name,
                                    builder.getFunctionType(inputs, results));
    function.setPrivate();
  }
  auto call = func::CallOp::create(builder, loc, function, converted);
  if (!returnsIndex)
    return {};
  return arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                    call.getResult(0));
}

Value stencil::getBufferAddress(OpBuilder &builder, Location loc,
                                Value memref) {
  return memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, memref);
}

SmallVector<Value, 3> stencil::padToThreeAxes(OpBuilder &builder, Location loc,
                                              ValueRange values, int64_t fill) {
  SmallVector<Value, 3> padded(values.begin(), values.end());
  while (padded.size() < 3)
    padded.push_back(arith::ConstantIndexOp::create(builder, loc, fill));
  return padded;
}

//===- Shape.cpp - Shapes in messages
//--------------------------------------===//

#include "Stencil/Support/Shape.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir::stencil;

std::string mlir::stencil::formatShape(llvm::ArrayRef<int64_t> shape,
                                       AxisOrder order) {
  auto text = [](int64_t size) { return std::to_string(size); };
  if (order == AxisOrder::InnermostFirst)
    return llvm::join(llvm::map_range(llvm::reverse(shape), text), "x");
  return "[" + llvm::join(llvm::map_range(shape, text), ", ") + "]";
}

//===- HostInterface.h - What the driver needs to call a region -*- C++ -*-===//
//
// The interface between the importer and the driver (docs/PragmaC.md):
// a JSON manifest describing each region, and the C file with each region
// replaced by a call to its function.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_IMPORTPRAGMAC_HOSTINTERFACE_H
#define LIB_CONVERSION_IMPORTPRAGMAC_HOSTINTERFACE_H

#include "RegionModel.h"

#include <string>

namespace mlir::stencil::pragma_c {

/// The C prototype of a region's function, e.g.
/// `void stencil_main_0(float *A, float *B, float c0, long long steps)`.
std::string getPrototype(clang::ASTContext &context,
                         const StencilRegion &region);

/// The JSON manifest of all regions of the main file.
std::string buildManifest(clang::ASTContext &context,
                          llvm::ArrayRef<StencilRegion> regions);

/// The main file with every region replaced by a block that calls the
/// region's function and leaves the loop variables as the loops would. With
/// `residentBlocks` (stencilcc --mpi), the resident arrays' definitions are
/// dropped and the calls pass null pointers for them.
std::string rewriteSource(clang::ASTContext &context,
                          llvm::ArrayRef<StencilRegion> regions,
                          bool residentBlocks);

} // namespace mlir::stencil::pragma_c

#endif // LIB_CONVERSION_IMPORTPRAGMAC_HOSTINTERFACE_H

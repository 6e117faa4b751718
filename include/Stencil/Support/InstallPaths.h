//===- InstallPaths.h - Files found relative to the tool -------*- C++ -*-===//
//
// The tools find their runtimes, target descriptions and toolkits relative
// to their own executable. A build tree and an install share one layout
// (bin/, lib/, share/stencil-mlir/), so an install works from any prefix and
// keeps working when moved; nothing points into the build tree.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_INSTALLPATHS_H
#define STENCIL_SUPPORT_INSTALLPATHS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::stencil {

/// The prefix the running code belongs to: the parent of the directory its
/// binary lies in (`P` for `P/bin/stencilcc` and for `P/lib/StencilPlugin.so`
/// loaded into another tool). Empty when the path cannot be found.
std::string getInstallPrefix();

/// `path` itself when it is empty or absolute (a system toolkit); otherwise
/// `path` under getInstallPrefix() (`lib/libstencil_mpi_runtime.a`).
std::string resolveInstallPath(llvm::StringRef path);

} // namespace mlir::stencil

#endif // STENCIL_SUPPORT_INSTALLPATHS_H

//===- CacheDirectory.h - Where the tools keep what they learn --*- C++ -*-===//
//
// Results worth keeping between runs on one machine (autotuned schedules,
// the host's measured memory bandwidth) live in one directory:
// $STENCIL_CACHE_DIR, else $XDG_CACHE_HOME/stencil-mlir, else
// ~/.cache/stencil-mlir.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_CACHEDIRECTORY_H
#define STENCIL_SUPPORT_CACHEDIRECTORY_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::stencil {

/// `fileName` in the cache directory, or empty when there is none (no
/// home directory and no STENCIL_CACHE_DIR).
std::string getCachePath(llvm::StringRef fileName);

} // namespace mlir::stencil

#endif // STENCIL_SUPPORT_CACHEDIRECTORY_H

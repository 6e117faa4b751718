//===- CacheDirectory.cpp - Where the tools keep what they learn ----------===//

#include "Stencil/Support/CacheDirectory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

std::string mlir::stencil::getCachePath(llvm::StringRef fileName) {
  llvm::SmallString<128> path;
  if (std::optional<std::string> dir =
          llvm::sys::Process::GetEnv("STENCIL_CACHE_DIR")) {
    path = *dir;
  } else if (llvm::sys::path::cache_directory(path)) {
    // $XDG_CACHE_HOME, else ~/.cache.
    llvm::sys::path::append(path, "stencil-mlir");
  } else {
    return "";
  }
  llvm::sys::path::append(path, fileName);
  return std::string(path);
}

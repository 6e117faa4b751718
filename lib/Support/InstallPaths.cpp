//===- InstallPaths.cpp - Files found relative to the tool ----------------===//

#include "Stencil/Support/InstallPaths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

using namespace llvm;

/// The shared object this code was loaded from (StencilPlugin.so in
/// mlir-opt), or empty when it is linked into the executable.
static std::string getSharedObjectPath() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&getSharedObjectPath), &info) ||
      !info.dli_fname)
    return {};
  // For code in the executable, dladdr names argv[0], which need not be a
  // path to it: /proc/self/exe is asked instead.
  StringRef name = sys::path::filename(info.dli_fname);
  if (!name.ends_with(".so") && !name.contains(".so."))
    return {};
  SmallString<256> path;
  if (sys::fs::real_path(info.dli_fname, path))
    return {};
  return std::string(path);
}

/// A plugin lies in P/lib, a tool in P/bin. For the executable this reads
/// /proc/self/exe, which names the file after symbolic links are resolved:
/// a `stencilcc` linked into /usr/local/bin still finds its own prefix.
static std::string findInstallPrefix() {
  std::string binary = getSharedObjectPath();
  if (binary.empty())
    binary = sys::fs::getMainExecutable(nullptr, nullptr);
  if (binary.empty())
    return {};
  return sys::path::parent_path(sys::path::parent_path(binary)).str();
}

std::string mlir::stencil::getInstallPrefix() {
  // The binary does not move while it runs: ask the system once.
  static const std::string prefix = findInstallPrefix();
  return prefix;
}

std::string mlir::stencil::resolveInstallPath(StringRef path) {
  if (path.empty() || sys::path::is_absolute(path))
    return path.str();
  SmallString<256> resolved(getInstallPrefix());
  sys::path::append(resolved, path);
  return std::string(resolved);
}

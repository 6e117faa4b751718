#!/usr/bin/env bash
# Checks an install of a build (docs/Install.md), as scripts/test.sh does
# after the lit suites:
#  1. `cmake --install` into a temporary prefix, then the prefix is moved:
#     the moved stencilcc compiles and runs heat2d (CPU, and Vulkan where a
#     device is present) with the build tree's checksum, and nothing it runs
#     names the build tree;
#  2. the downstream project (test/downstream) configured against the moved
#     install with find_package(StencilMLIR) builds, and its output equals
#     the installed stencil-opt's;
#  3. upstream mlir-opt loads the installed StencilPlugin.so;
#  4. `cpack -G DEB` makes a .deb listing the tools and depending on
#     Debian's LLVM/MLIR 22 packages; its stencilcc runs.
#   scripts/test-install.sh [BUILD_DIR]      (default: build-gcc)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="$(cd "$root" && pwd -P)"
build="$(cd "${1:-$root/build-gcc}" && pwd -P)"
work="$(cd "$(mktemp -d)" && pwd -P)"
trap 'rm -rf "$work"' EXIT
fail() { echo "test-install: FAIL: $*" >&2; exit 1; }
trap 'echo "test-install: FAIL: line $LINENO" >&2' ERR
step() { echo "test-install: $*"; }

cmake --install "$build" --prefix "$work/first" > "$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "cmake --install failed"; }
mv "$work/first" "$work/moved"
prefix="$work/moved"
for tool in stencilcc stencil-opt stencil-translate stencil-lsp-server \
  stencil-reduce; do
  [ -x "$prefix/bin/$tool" ] || fail "bin/$tool not installed"
  # Its run path: the prefix's lib/ and the system's LLVM, nothing else.
  if readelf -d "$prefix/bin/$tool" | grep -F -e "$build" -e "$root" > /dev/null; then
    fail "bin/$tool has a run path into the build or source tree"
  fi
done
# Nothing installed that is read at run time names the trees: the CMake
# package, the links of the ROCm toolkit, the target descriptions.
if grep -rlF -e "$build" -e "$root" "$prefix/lib/cmake" "$prefix/share" \
  > "$work/leaks"; then
  fail "installed files name the build or source tree: $(head -3 "$work/leaks")"
fi
if find "$prefix" -type l -lname "$build*" -o -type l -lname "$root*" |
  grep -q .; then
  fail "installed links point into the build or source tree"
fi

# 1. The moved compiler, against the build tree's.
cd "$work"
"$build/bin/stencilcc" -DN=256 "$root/examples/heat2d.c" -o heat2d-ref
./heat2d-ref 20 | grep checksum > ref.out
"$prefix/bin/stencilcc" -v -DN=256 "$root/examples/heat2d.c" -o heat2d-moved \
  2> moved.log
./heat2d-moved 20 | grep checksum > moved.out
cmp ref.out moved.out || fail "moved install: heat2d checksum differs"
if grep -F "$build" moved.log > leak.log; then
  fail "moved install still uses the build tree: $(head -1 leak.log)"
fi
"$prefix/bin/stencilcc" --version | grep -qxF "  installed in $prefix" ||
  fail "stencilcc --version does not name the moved prefix"
if "$prefix/bin/stencilcc" --version | grep -q vulkan &&
  ls /usr/share/vulkan/icd.d/*.json > /dev/null 2>&1; then
  "$prefix/bin/stencilcc" --target=vulkan -DN=256 "$root/examples/heat2d.c" \
    -o heat2d-vk
  ./heat2d-vk 20 | grep checksum > moved-vk.out
  cmp ref.out moved-vk.out || fail "moved install: Vulkan checksum differs"
  step "moved install runs heat2d on the CPU and on Vulkan: $(cat ref.out)"
else
  step "moved install runs heat2d on the CPU: $(cat ref.out)"
fi

# 2. A downstream project through find_package(StencilMLIR).
cmake -G Ninja -S "$root/test/downstream" -B downstream \
  -DCMAKE_PREFIX_PATH="$prefix" > downstream.log 2>&1 ||
  { cat downstream.log; fail "downstream project does not configure"; }
ninja -C downstream > downstream-build.log 2>&1 ||
  { cat downstream-build.log; fail "downstream project does not build"; }
heat2d="$root/examples/mlir/heat2d.mlir"
downstream/stencil-downstream "$heat2d" c2070 > downstream.out \
  2> downstream.err || { cat downstream.err; fail "downstream tool failed"; }
"$prefix/bin/stencil-opt" "$heat2d" --stencil-attach-target=targets=c2070 \
  --stencil-tune-workgroup > stencil-opt.out 2> stencil-opt.err ||
  { cat stencil-opt.err; fail "installed stencil-opt failed"; }
diff -B downstream.out stencil-opt.out > /dev/null ||
  fail "downstream tool and stencil-opt disagree"
grep -q "#stencil.schedule<wg = " downstream.out ||
  fail "downstream tool did not tune"
step "downstream project builds against the install and tunes heat2d"

# 3. The plugin in upstream mlir-opt; `c2070` is found relative to it.
mlir_opt=/usr/lib/llvm-22/bin/mlir-opt
if [ -x "$mlir_opt" ]; then
  "$mlir_opt" --load-dialect-plugin="$prefix/lib/StencilPlugin.so" \
    --load-pass-plugin="$prefix/lib/StencilPlugin.so" "$heat2d" \
    --pass-pipeline='builtin.module(stencil-attach-target{targets=c2070},stencil-tune-workgroup)' \
    > plugin.out 2> plugin.err ||
    { cat plugin.err; fail "mlir-opt with StencilPlugin.so failed"; }
  diff -B plugin.out stencil-opt.out > /dev/null ||
    fail "mlir-opt with the plugin and stencil-opt disagree"
  step "mlir-opt loads the installed StencilPlugin.so"
else
  step "SKIPPED: no $mlir_opt (mlir-22-tools) for the plugin"
fi

# 4. The Debian package.
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/deb" \
  > cpack.log 2>&1 || { cat cpack.log; fail "cpack -G DEB failed"; }
deb="$(ls "$work"/deb/stencil-mlir_*.deb)"
dpkg-deb -c "$deb" > deb-contents
for path in bin/stencilcc bin/stencil-opt bin/stencil-translate \
  bin/stencil-lsp-server lib/StencilPlugin.so \
  lib/cmake/StencilMLIR/StencilMLIRConfig.cmake \
  share/stencil-mlir/targets/c2070.json; do
  grep -q "\./usr/$path\$" deb-contents || fail "$(basename "$deb") lacks /usr/$path"
done
dpkg-deb -x "$deb" debroot
debroot/usr/bin/stencilcc --version | grep -q "installed in $work/debroot/usr" ||
  fail "stencilcc from the .deb does not run"
depends="$(dpkg-deb -f "$deb" Depends)"
[[ "$depends" == *libmlir-22* ]] || fail "the .deb does not depend on libmlir-22"
step "$(basename "$deb"): $(wc -l < deb-contents) entries; Depends: $depends"

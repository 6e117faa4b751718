#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs dependencies, builds
# twice — with g++ (build-gcc/, what a plain `cmake` picks on Debian) and with
# clang-22 under AddressSanitizer + UBSan with libFuzzer's coverage
# (build-asan/, our code only, to show that no input crashes) — and runs
# every lit test against each build. The g++ suite also compares the IR both
# builds emit for every example and test input (scripts/compare-builds.sh):
# it must not depend on the compiler. Then each fuzz target runs 60 s
# (scripts/fuzz.sh, docs/Fuzzing.md). The g++ build is also installed, moved,
# used by a downstream CMake project and packaged as a .deb
# (scripts/test-install.sh, docs/Install.md), counted as one test.
#   scripts/test.sh            everything
#   scripts/test.sh --no-asan  the clang-22 build without sanitizers, no fuzzing
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
asan=1
for arg in "$@"; do
  case "$arg" in
    --no-asan) asan=0 ;;
    *) echo "usage: $0 [--no-asan]" >&2; exit 2 ;;
  esac
done

"$root/scripts/install-deps.sh"
lit=/usr/lib/llvm-22/bin/lit

# Runs lit on one build (more lit arguments after it) and adds up its
# counts; returns lit's status.
run_suite() {
  local build="$1" log
  shift
  log="$(mktemp)"
  local status=0
  "$lit" -sv "$@" "$build/test" 2>&1 | tee "$log" || status=$?
  passed=$((passed + $(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | head -1 | grep . || echo 0)))
  failed=$((failed + $(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$log" | head -1 | grep . || echo 0)))
  rm -f "$log"
  return $status
}

passed=0
failed=0
status=0

gcc_build="$root/build-gcc"
clang_build="$root/build-asan"
"$root/scripts/build.sh" --compiler=gcc "$gcc_build"
if [ "$asan" = 1 ]; then
  "$root/scripts/build.sh" "$clang_build" -DSTENCIL_ENABLE_ASAN=ON \
    -DSTENCIL_ENABLE_FUZZERS=ON
else
  clang_build="$root/build"
  "$root/scripts/build.sh" "$clang_build"
fi
# LLVM's own global registries are never freed; leaks are not our concern
# here, crashes and undefined behaviour are. Manual poisoning is off: LLVM's
# inline BumpPtrAllocator code in our instrumented files poisons slabs that
# the uninstrumented libMLIR then allocates from, which ASan reports as
# use-after-poison (docs/MLIR22-Gotchas.md).
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allow_user_poisoning=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

run_suite "$gcc_build" --param "other_build=$clang_build/bin" || status=1
run_suite "$clang_build" || status=1
if "$root/scripts/test-install.sh" "$gcc_build"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  status=1
fi
if [ "$asan" = 1 ]; then
  STENCIL_FUZZ_BUILD="$clang_build" "$root/scripts/fuzz.sh" 60 || status=1
fi

echo "$passed passed, $failed failed"
exit $status

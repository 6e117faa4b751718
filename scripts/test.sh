#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs dependencies, builds, and
# runs every lit test, then the same suite once more against a build with
# AddressSanitizer + UBSan (our code only) to show that no input crashes.
#   scripts/test.sh            everything
#   scripts/test.sh --no-asan  skip the sanitizer build
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

# Runs lit on one build and prints its counts; returns lit's status.
run_suite() {
  local build="$1" log
  log="$(mktemp)"
  local status=0
  "$lit" -sv "$build/test" 2>&1 | tee "$log" || status=$?
  passed=$((passed + $(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | head -1 | grep . || echo 0)))
  failed=$((failed + $(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$log" | head -1 | grep . || echo 0)))
  rm -f "$log"
  return $status
}

passed=0
failed=0
status=0

"$root/scripts/build.sh" "$root/build"
run_suite "$root/build" || status=1

if [ "$asan" = 1 ]; then
  "$root/scripts/build.sh" "$root/build-asan" -DSTENCIL_ENABLE_ASAN=ON
  # LLVM's own global registries are never freed; leaks are not our
  # concern here, crashes and undefined behaviour are. Manual poisoning is
  # off: LLVM's inline BumpPtrAllocator code in our instrumented files
  # poisons slabs that the uninstrumented libMLIR then allocates from,
  # which ASan reports as use-after-poison (docs/MLIR22-Gotchas.md).
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allow_user_poisoning=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_suite "$root/build-asan" || status=1
fi

echo "$passed passed, $failed failed"
exit $status

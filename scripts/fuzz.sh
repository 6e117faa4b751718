#!/usr/bin/env bash
# Runs each libFuzzer target for a while (docs/Fuzzing.md).
#   scripts/fuzz.sh [SECONDS [TARGET...]]     default: 60 s, all three
# Needs a build configured with -DSTENCIL_ENABLE_FUZZERS=ON (clang-22), in
# $STENCIL_FUZZ_BUILD (default build-asan/, the one scripts/test.sh makes).
# The seed corpus is test/fuzz/corpus/<target>/ plus, gathered here, the
# examples, the lit inputs and the importer's output for the examples;
# what fuzzing adds is kept in <build>/fuzz/<target>/ between runs. An input
# that crashes, trips a sanitizer or an assertion, leaks, or runs longer
# than 10 s is saved under test/fuzz/crashes/<target>/, and the script
# fails: replay it with `<build>/bin/<target> FILE`, fix the bug, and commit
# the file, which test/fuzz/replay.test then runs in every build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(stencil-translate-fuzzer stencil-opt-fuzzer stencil-schedule-fuzzer)
fi
build="${STENCIL_FUZZ_BUILD:-$root/build-asan}"
if ! grep -q "^STENCIL_ENABLE_FUZZERS:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null; then
  echo "fuzz.sh: $build is not a fuzzing build; configure it with" >&2
  echo "  scripts/build.sh $build -DSTENCIL_ENABLE_FUZZERS=ON" >&2
  exit 2
fi
ninja -C "$build" "${targets[@]}" stencil-translate >/dev/null

# Seeds that live elsewhere in the tree, gathered into one directory per
# target (split-file sections and `// -----` chunks become one file each).
gather_seeds() {
  local target="$1" dir="$2"
  mkdir -p "$dir"
  case "$target" in
    stencil-translate-fuzzer)
      local c
      for c in "$root"/examples/*.c "$root"/test/Integration/Inputs/*.c \
        "$root"/test/Integration/physis/Inputs/*.c \
        "$root"/test/Conversion/ImportPragmaC/*.c; do
        cp "$c" "$dir/$(basename "$(dirname "$c")")-$(basename "$c")"
      done
      python3 - "$dir" "$root"/test/Conversion/ImportPragmaC/*.test <<'PY'
import os, re, sys
out = sys.argv[1]
for path in sys.argv[2:]:
    parts = re.split(r"^#--- (\S+)\n", open(path).read(), flags=re.M)
    for name, body in zip(parts[1::2], parts[2::2]):
        if name.endswith(".c"):
            open(os.path.join(out, "split-" + name), "w").write(body)
PY
      ;;
    stencil-opt-fuzzer)
      cp "$root"/examples/mlir/*.mlir "$dir"/
      for c in "$root"/examples/*.c; do
        "$build/bin/stencil-translate" --import-pragma-c "$c" -I "$root/runtime/include" \
          -o "$dir/imported-$(basename "$c" .c).mlir" 2>/dev/null || true
      done
      python3 - "$dir" $(find "$root/test" -name '*.mlir' -not -path '*/fuzz/*') <<'PY'
import os, re, sys
out = sys.argv[1]
for path in sys.argv[2:]:
    chunks = re.split(r"^// -----\s*$", open(path).read(), flags=re.M)
    stem = path.replace("/", "_")[-60:]
    for i, chunk in enumerate(chunks):
        open(os.path.join(out, f"{stem}.{i}"), "w").write(chunk)
PY
      ;;
    stencil-schedule-fuzzer)
      local schedules=("" "t=2" "wg=32x8,t=4" "wg=16x4x2" "k=3" "nt=1")
      local i=0
      for json in "$root"/targets/*.json; do
        { echo "${schedules[$((i % ${#schedules[@]}))]}"; cat "$json"; } \
          >"$dir/$(basename "$json" .json)"
        i=$((i + 1))
      done
      ;;
  esac
}

# Leaks count here (scripts/test.sh turns them off for the lit suite):
# libFuzzer checks only what one input allocates and does not free, not
# LLVM's global registries, which live until exit.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allow_user_poisoning=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
for target in "${targets[@]}"; do
  seeds="$(mktemp -d)"
  trap 'rm -rf "$seeds"' EXIT
  gather_seeds "$target" "$seeds"
  corpus="$build/fuzz/$target"
  crashes="$root/test/fuzz/crashes/$target"
  mkdir -p "$corpus" "$crashes"
  before="$(find "$crashes" -type f | wc -l)"
  echo "== $target: ${seconds} s"
  "$build/bin/$target" "$corpus" "$seeds" "$root/test/fuzz/corpus/$target" \
    -dict="$root/test/fuzz/$target.dict" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=4096 -max_len=16384 -print_final_stats=1 \
    -artifact_prefix="$crashes/" 2>&1 |
    grep -E "^(#[0-9]+[[:space:]]+(INITED|DONE)|stat::|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written|.*Assertion|stencil fuzzer:|    #[0-9] )" ||
    true
  after="$(find "$crashes" -type f | wc -l)"
  if [ "$after" -ne "$before" ]; then
    echo "fuzz.sh: $target found $((after - before)) failing input(s) in $crashes" >&2
    status=1
  fi
  rm -rf "$seeds"
  trap - EXIT
done
exit $status

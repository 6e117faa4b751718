#!/usr/bin/env bash
# Compares the IR two builds of stencil-mlir produce (e.g. one compiled by
# clang-22, one by g++): the emitted IR must not depend on the compiler that
# built the compiler. Exits 1 and shows the first lines of each difference.
#   scripts/compare-builds.sh BIN_A BIN_B [WORK_DIR]
# BIN_A and BIN_B are the bin/ directories of the two builds. The corpus:
# - stencilcc --emit=mlir and --emit=llvm of every example and importer test
#   program, on the CPU (tuned, T = 1, T = 3, streaming stores, --mpi) and
#   for Vulkan, CUDA and ROCm (host LLVM IR; device code as text);
# - every stencil-opt RUN line of the .mlir tests, on its own input.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -lt 2 ]; then
  echo "usage: $0 BIN_A BIN_B [WORK_DIR]" >&2
  exit 2
fi
bin_a=$(cd "$1" && pwd)
bin_b=$(cd "$2" && pwd)
work=${3:-$(mktemp -d)}
mkdir -p "$work/a" "$work/b"
# One bandwidth for both builds' tuning, whatever the machine measures.
export STENCIL_HOST_BANDWIDTH_GBPS=20

# Runs "$@" with the tools of both builds, output (stdout and stderr,
# temporary paths, the build's own directory and compile-time measurements
# removed) into a/NAME and
# b/NAME.
compared=0
run_both() {
  local name=$1
  shift
  for side in a b; do
    local bin=$bin_a
    [ $side = b ] && bin=$bin_b
    (cd "$work" && PATH="$bin:$PATH" "$@" 2>&1 |
      sed -e 's|/tmp/[^ "]*||g' -e "s|${bin%/bin}/||g" \
          -e 's|[A-Za-z]*TimeInMs = [0-9]*|TimeInMs|g') \
      > "$work/$side/$name" || true
  done
  compared=$((compared + 1))
}

programs=("$root"/examples/*.c "$root"/test/Integration/Inputs/*.c
          "$root"/test/Conversion/ImportPragmaC/*.c
          "$root"/test/Integration/physis/Inputs/[!.]*[!f].c)
for src in "${programs[@]}"; do
  base=$(basename "$src" .c)
  # Small sizes keep GPU code generation quick; the IR's shape is the same.
  defs=(-DN=64 -DNX=64 -DNY=32 -DNZ=32)
  run_both "$base.mlir" stencilcc --emit=mlir "${defs[@]}" "$src"
  for schedule in "" --schedule=t=1 --schedule=t=3 --schedule=t=1,nt=1; do
    run_both "$base.cpu${schedule#--schedule=}.ll" stencilcc --emit=llvm ${schedule:+"$schedule"} \
      "${defs[@]}" "$src"
  done
  run_both "$base.mpi.ll" stencilcc --emit=llvm --mpi '-DDISTRIBUTE=block,*' \
    "${defs[@]}" "$src"
  for target in vulkan cuda rocm; do
    run_both "$base.$target.ll" stencilcc --emit=llvm --target=$target \
      "${defs[@]}" "$src"
    run_both "$base.$target.t2.ll" stencilcc --emit=llvm --target=$target \
      --schedule=t=2 "${defs[@]}" "$src"
  done
  run_both "$base.cuda.ptx" stencilcc --emit=device-isa --target=cuda \
    "${defs[@]}" "$src"
done

# Every stencil-opt RUN line of the .mlir tests, up to its first pipe, run
# by bash with lit's substitutions for the test file and its directory.
while IFS= read -r test; do
  index=0
  while IFS= read -r line; do
    cmd=${line#*RUN: }
    cmd=${cmd#not }
    cmd=${cmd%%|*}
    case "$cmd" in stencil-opt*) ;; *) continue ;; esac
    cmd=${cmd//%s/$test}
    cmd=${cmd//%S/$(dirname "$test")}
    cmd=${cmd//%examples/$root/examples}
    index=$((index + 1))
    run_both "test.$(echo "${test#$root/test/}" | tr / .).$index" bash -c "$cmd 2>&1"
  done < <(grep 'RUN:' "$test")
done < <(find "$root/test" -name '*.mlir' | sort)

status=0
for file in "$work"/a/*; do
  name=$(basename "$file")
  if ! cmp -s "$file" "$work/b/$name"; then
    echo "DIFFERS: $name"
    diff "$file" "$work/b/$name" | head -8 || true
    status=1
  fi
done
echo "compare-builds: $compared outputs compared, $([ $status = 0 ] && echo identical || echo 'some differ')"
exit $status

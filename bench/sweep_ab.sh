#!/usr/bin/env bash
# A/B of heat3d's single sweep under up to four sets of stencilcc flags, in
# one process against a copy (bench/sweep_ab.c says why). For deciding
# whether a change to the CPU lowering is faster: on this shared machine,
# separate processes differ by more than the changes we look for.
#   bench/sweep_ab.sh [-r rounds] "flags of v0" ["flags of v1" ...]
# e.g. bench/sweep_ab.sh "--schedule=t=1" "--schedule=t=1,wg=254x254x127"
# Variants built from another checkout: STENCILCC=/path/to/stencilcc for
# all, or a variant's flags starting with "STENCILCC=/path/to/stencilcc "
# for that one, e.g. "STENCILCC=/tmp/old/build/bin/stencilcc --schedule=t=2".
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds=9
if [ "${1:-}" = -r ]; then
  rounds="$2"
  shift 2
fi
if [ $# -lt 1 ] || [ $# -gt 4 ]; then
  echo "usage: bench/sweep_ab.sh [-r rounds] \"stencilcc flags\"... (1 to 4 variants)" >&2
  exit 1
fi
out="$root/bench/out/sweep_ab"
mkdir -p "$out"
if [ -z "${STENCILCC:-}" ]; then
  "$root/scripts/build.sh" "$root/build" >/dev/null
  STENCILCC="$root/build/bin/stencilcc"
fi
objects=()
n=0
for flags in "$@"; do
  compiler="$STENCILCC"
  if [[ "$flags" == STENCILCC=* ]]; then
    compiler="${flags%% *}"
    compiler="${compiler#STENCILCC=}"
    flags="${flags#STENCILCC="$compiler"}"
  fi
  # Word splitting of the flags is intended: one string per variant.
  # shellcheck disable=SC2086
  "$compiler" "$root/examples/heat3d.c" $flags --emit=obj -o "$out/v$n.o"
  objcopy --redefine-sym "stencil_main_0=v$n" "$out/v$n.o"
  echo "v$n: stencilcc $flags"
  objects+=("$out/v$n.o")
  n=$((n + 1))
done
# clang's OpenMP runtime for all, as the regions use it; -fno-builtin keeps
# the copy a loop (a memcpy would stream past the cache). The regions'
# buffers come from the support runtime (_mlir_memref_to_llvm_alloc, which
# ends the program with a message when memory runs out).
clang-22 -O3 -march=native -fopenmp -fno-builtin -DNV="$n" \
  "$root/bench/sweep_ab.c" "${objects[@]}" \
  "$root/build/lib/libstencil_support_runtime.a" -o "$out/sweep_ab"
"$out/sweep_ab" "$rounds"

#!/usr/bin/env bash
# compare.sh [--rtol R | --numdiff R] [--ref REF.c] [--run CMD] PROGRAM.c "STEPS [ARGS]" [flags...] [-- stencilcc-only flags...]
# Builds PROGRAM.c with stencilcc and with plain clang -O2 (the pragmas
# ignored), runs both for STEPS steps (and further ARGS), and requires
# identical output apart from the timing lines (compare-outputs.sh, where
# --rtol and --numdiff are explained: GPU checksums within a relative error,
# reductions number by number). Prints the checksum line it compared.
# With --ref REF.c the reference is that plain-C twin of the program (a
# Physis program, which plain C cannot run), built with the same flags.
# With --run CMD the program runs under CMD (mpirun -np N).
set -euo pipefail
rtol=; numdiff=; ref=; run=
while true; do
  case $1 in
    --rtol) rtol=$2; shift 2 ;;
    --numdiff) numdiff=$2; shift 2 ;;
    --ref) ref=$2; shift 2 ;;
    --run) run=$2; shift 2 ;;
    *) break ;;
  esac
done
src=$1; steps=$2; shift 2
common=(); only=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; only=("$@"); break; fi
  common+=("$1"); shift
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
stencilcc "$src" "${common[@]}" "${only[@]}" -o "$out/stencil"
clang -O2 -w "${ref:-$src}" "${common[@]}" -o "$out/ref" -lm
$run "$out/stencil" $steps | grep -v -e '^time ' -e '/s ' > "$out/stencil.txt"
"$out/ref" $steps | grep -v -e '^time ' -e '/s ' > "$out/ref.txt"
"$(dirname "$0")/compare-outputs.sh" ${rtol:+--rtol "$rtol"} \
  ${numdiff:+--numdiff "$numdiff"} "$out/ref.txt" "$out/stencil.txt"

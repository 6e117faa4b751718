#!/usr/bin/env bash
# compare.sh [--rtol R | --numdiff R] [--ref REF.c] [--run CMD] PROGRAM.c "STEPS [ARGS]" [flags...] [-- stencilcc-only flags...]
# Builds PROGRAM.c with stencilcc and with plain clang -O2 (the pragmas
# ignored), runs both for STEPS steps (and further ARGS), and requires
# identical output apart from the timing lines. Prints the checksum line it
# compared.
# With --rtol R (GPU targets, whose compilers may contract a * b + c into
# one fused operation) checksums may differ by a relative error up to R;
# the largest one is printed before the checksum.
# With --numdiff R every number may differ (reductions, whose order of
# summation is not C's): float values by R, doubles by 1e-9, integers not
# at all (numdiff.py).
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
if [ -n "$numdiff" ]; then
  "$(dirname "$0")/numdiff.py" --rtol "$numdiff" "$out/ref.txt" \
    "$out/stencil.txt"
elif [ -z "$rtol" ]; then
  diff "$out/ref.txt" "$out/stencil.txt"
else
  diff <(grep -v checksum "$out/ref.txt") <(grep -v checksum "$out/stencil.txt")
  paste -d ' ' <(grep checksum "$out/ref.txt") <(grep checksum "$out/stencil.txt") |
    awk -v rtol="$rtol" '
      { d = $2 - $4; if (d < 0) d = -d; s = $2 < 0 ? -$2 : $2;
        e = s > 0 ? d / s : d; if (e > max) max = e }
      END { if (NR == 0) { print "no checksum line"; exit 1 }
            if (max > rtol) { printf "relative error %.3g > %s\n", max, rtol; exit 1 }
            printf "max relative error %.3g\n", max }'
fi
grep checksum "$out/stencil.txt"

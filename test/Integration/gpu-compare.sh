#!/usr/bin/env bash
# gpu-compare.sh PROGRAM.c STEPS [flags...] [-- stencilcc-only flags...]
# Like compare.sh, for a GPU --target given after `--`: the output must
# match the plain clang -O2 program's line for line apart from the timing
# lines, with checksums equal to a relative error of 1e-5 (a GPU compiler
# may contract a * b + c into one fused operation). Prints the checksum
# line of the GPU program and the largest relative error.
set -euo pipefail
src=$1; steps=$2; shift 2
common=(); only=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; only=("$@"); break; fi
  common+=("$1"); shift
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
stencilcc "$src" "${common[@]}" "${only[@]}" -o "$out/stencil"
clang -O2 -w "$src" "${common[@]}" -o "$out/ref" -lm
"$out/stencil" "$steps" | grep -v -e '^time ' -e '/s ' > "$out/stencil.txt"
"$out/ref" "$steps" | grep -v -e '^time ' -e '/s ' > "$out/ref.txt"
diff <(grep -v checksum "$out/ref.txt") <(grep -v checksum "$out/stencil.txt")
paste -d ' ' <(grep checksum "$out/ref.txt") <(grep checksum "$out/stencil.txt") |
  awk '{ d = $2 - $4; if (d < 0) d = -d; s = $2 < 0 ? -$2 : $2;
         e = s > 0 ? d / s : d; if (e > max) max = e }
       END { if (NR == 0) { print "no checksum line"; exit 1 }
             if (max > 1e-5) { printf "relative error %.3g > 1e-5\n", max; exit 1 }
             printf "max relative error %.3g\n", max }'
grep checksum "$out/stencil.txt"

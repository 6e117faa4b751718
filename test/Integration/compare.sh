#!/usr/bin/env bash
# compare.sh PROGRAM.c STEPS [flags...] [-- stencilcc-only flags...]
# Builds PROGRAM.c with stencilcc and with plain clang -O2 (the pragmas
# ignored), runs both for STEPS steps, and requires identical output apart
# from the timing lines. Prints the checksum line it compared.
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
diff "$out/ref.txt" "$out/stencil.txt"
grep checksum "$out/stencil.txt"

#!/usr/bin/env bash
# resident-compare.sh MPIRUN PROGRAM.c "ARGS" "NP..." [stencilcc flags...]
# Builds PROGRAM.c (whose region keeps resident arrays) with plain clang -O2
# (pragmas ignored) and with `stencilcc --mpi FLAGS`, runs the first once
# and the second under `MPIRUN -np N` for each N, with ARGS where @FILE1@
# and @FILE2@ stand for files each run writes (stencil_write_raw). Requires
# the standard output, apart from timing lines, and every written file to
# be identical byte for byte; prints one line per run. With MPIRUN "-",
# the stencilcc build runs as one process (flags without --mpi).
set -euo pipefail
mpirun=$1; src=$2; args=$3; nps=$4; shift 4
here=$(cd "$(dirname "$0")" && pwd)
include="$here/../../runtime/include"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# ARGS for a run writing into files with prefix $1.
runArgs() { echo "$args" | sed -e "s|@FILE1@|$1.1.raw|g" -e "s|@FILE2@|$1.2.raw|g"; }
clang -O2 -w -I"$include" "$src" -o "$out/ref" -lm
# shellcheck disable=SC2046
"$out/ref" $(runArgs "$out/ref") | grep -v -e '^time ' -e '/s ' > "$out/ref.txt"
mpi=(--mpi)
[ "$mpirun" = "-" ] && mpi=()
stencilcc "${mpi[@]}" "$src" "$@" -o "$out/stencil" 2> "$out/build.txt" || {
  cat "$out/build.txt" >&2; exit 1; }
for np in $nps; do
  launch=()
  [ "$mpirun" = "-" ] || launch=($mpirun -np "$np")
  # shellcheck disable=SC2046
  "${launch[@]}" "$out/stencil" $(runArgs "$out/run$np") \
    > "$out/run.txt" 2> "$out/err.txt" || { cat "$out/err.txt" >&2; exit 1; }
  grep -v -e '^time ' -e '/s ' "$out/run.txt" | diff "$out/ref.txt" -
  files=0
  for ref in "$out"/ref.*.raw; do
    [ -e "$ref" ] || continue
    cmp "$ref" "$out/run$np.${ref#$out/ref.}"
    files=$((files + 1))
  done
  echo "$(basename "$src") $* np=$np identical, $files files identical:" \
    "$(grep -m1 -e checksum -e '^sum' "$out/run.txt")"
done

#!/usr/bin/env bash
# mpi-compare.sh MPIRUN PROGRAM.c STEPS DISTRIBUTE K "NP..." [flags...]
#                [-- stencilcc-only flags...]
# Builds PROGRAM.c with `stencilcc --mpi -DDISTRIBUTE=... --schedule=k=K`
# (K may carry more schedule keys: 3,nt=1; a K that does not start with a
# digit is the whole schedule: t=2) and with plain clang -O2
# (pragmas ignored), runs the first under
# `MPIRUN -np N` for each N and the second serially, and requires the whole
# output to be identical apart from the timing lines: the checksums are
# printed with 10 digits, so the arrays agree bit for bit in practice.
# Prints one line per run with the runtime's exchange counters.
# With a leading --numdiff R the outputs are compared by numdiff.py (see
# compare.sh) instead of exactly.
set -euo pipefail
numdiff=
if [ "$1" = "--numdiff" ]; then numdiff=$2; shift 2; fi
mpirun=$1; src=$2; steps=$3; dist=$4; k=$5; nps=$6; shift 6
common=(); only=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; only=("$@"); break; fi
  common+=("$1"); shift
done
case $k in
  [0-9]*) schedule="k=$k" ;;
  *) schedule=$k ;;
esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
stencilcc --mpi "$src" "${common[@]}" "${only[@]}" "-DDISTRIBUTE=$dist" \
  "--schedule=$schedule" -o "$out/stencil"
clang -O2 -w "$src" "${common[@]}" -o "$out/ref" -lm
"$out/ref" $steps | grep -v -e '^time ' -e '/s ' > "$out/ref.txt"
for np in $nps; do
  STENCIL_MPI_STATS=1 $mpirun -np "$np" "$out/stencil" $steps \
    2> "$out/stats.txt" | grep -v -e '^time ' -e '/s ' > "$out/mpi.txt" || {
    cat "$out/stats.txt" >&2; exit 1; }
  if [ -n "$numdiff" ]; then
    "$(dirname "$0")/numdiff.py" --rtol "$numdiff" "$out/ref.txt" \
      "$out/mpi.txt" > /dev/null
  else
    diff "$out/ref.txt" "$out/mpi.txt"
  fi
  echo "$(basename "$src") $dist $schedule np=$np $(grep checksum "$out/mpi.txt"):" \
    "$(grep '^stencil-mpi:' "$out/stats.txt")"
done

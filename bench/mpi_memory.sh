#!/usr/bin/env bash
# Memory per rank with resident arrays (docs/MPI.md, "Resident arrays"):
# examples/scale3d.c keeps its arrays only as the ranks' blocks, so each
# rank should need about the global arrays / np plus halos. Builds it with
# `stencilcc --mpi`, runs it under mpirun for each rank count, and prints
# the largest resident set of each rank (/usr/bin/time -f %M) next to the
# np = 1 figure. A benchmark, not a test.
#
#   bench/mpi_memory.sh [-n N] [-s steps] [-p "1 2 4"] [-d decomposition]
#                       [-f hostfile]
#   defaults: N = 384 (two 216 MiB arrays), 2 steps, np 1 2 4,
#   'block,block,*'
# MPIRUN overrides the launcher (default: mpirun --oversubscribe, plus
# --allow-run-as-root as root); each rank runs OMP_NUM_THREADS=1 threads
# unless set.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n=384; steps=2; nps="1 2 4"; dist='block,block,*'; hostfile=""
while getopts "n:s:p:d:f:" opt; do
  case $opt in
    n) n=$OPTARG ;; s) steps=$OPTARG ;; p) nps=$OPTARG ;;
    d) dist=$OPTARG ;; f) hostfile=$OPTARG ;;
    *) sed -n 2,15p "$0"; exit 2 ;;
  esac
done
stencilcc="$root/build/bin/stencilcc"
[ -x "$stencilcc" ] || "$root/scripts/build.sh" > /dev/null
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
launcher=${MPIRUN:-"mpirun --oversubscribe"}
if [ -z "${MPIRUN:-}" ] && [ "$(id -u)" -eq 0 ]; then
  launcher+=" --allow-run-as-root"
fi
[ -n "$hostfile" ] && launcher+=" --hostfile $hostfile"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$stencilcc" --mpi "-DDISTRIBUTE=$dist" "$root/examples/scale3d.c" \
  --print-schedule -o "$work/scale3d" > "$work/schedule.json" 2> /dev/null
t=$(grep -o '"time_block": [0-9]*' "$work/schedule.json" | head -1 |
  grep -o '[0-9]*$')
arrays=$(awk -v n="$n" 'BEGIN { printf "%.0f", 2 * n * n * n * 4 / 1048576 }')
echo "scale3d $n^3 floats (2 arrays, $arrays MiB in all), distribute($dist)," \
  "$steps steps, T = $t"
printf '%4s  %-28s  %10s  %8s  %s\n' np "max RSS per rank (MiB)" largest \
  "vs np=1" checksum
base=""
for np in $nps; do
  # Each rank's /usr/bin/time appends its line to one file (mpirun may stop
  # forwarding a rank's stderr before time prints).
  rm -f "$work/rss.txt"
  $launcher -np "$np" /usr/bin/time -a -o "$work/rss.txt" -f '%M' \
    "$work/scale3d" "$n" "$steps" > "$work/out.txt" 2> "$work/err.txt" || {
    cat "$work/err.txt" >&2; exit 1; }
  rss=$(sort -n "$work/rss.txt")
  largest=$(echo "$rss" | tail -1)
  [ -n "$base" ] || base=$largest
  list=$(echo "$rss" | awk '{ printf "%s%.0f", (NR > 1 ? " " : ""), $1 / 1024 }')
  ratio=$(awk -v a="$largest" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
  printf '%4s  %-28s  %10.0f  %8s  %s\n' "$np" "$list" \
    "$(awk -v a="$largest" 'BEGIN { print a / 1024 }')" "$ratio" \
    "$(grep -o 'checksum.*' "$work/out.txt" | awk '{ print $2 }')"
done

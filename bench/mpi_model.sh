#!/usr/bin/env bash
# Seed 001's model at scale, without a cluster: weak scaling of the 3-D
# 7-point stencil of examples/heat3d.c, each rank holding a BLOCK^3 block
# of the global grid (distribute(block, block, block)), from 2 to 4096
# ranks on a cluster description (a target JSON: the device each rank
# runs on plus its network latency and bandwidth; default
# targets/tsubame2.json, seed 001's TSUBAME 2.0). For each rank count it
# compiles with `stencilcc --mpi --mpi-ranks=N --device=TARGET` and prints
# what the tuners chose (time block T, exchange depth k), the predicted
# time per step and the share of it spent waiting for the network (the
# exchange that the interior does not hide). A prediction, not a
# measurement; bench/mpi_depth.sh measures on the ranks at hand.
#
#   bench/mpi_model.sh [-t target] [-b block] [-m max_ranks]
#   defaults: tsubame2, 128, 4096 ranks (the model assumes the region's
#   1000 steps, its `step(t:1000)`)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target=tsubame2; block=128; maxRanks=4096
while getopts "t:b:m:" opt; do
  case $opt in
    t) target=$OPTARG ;; b) block=$OPTARG ;; m) maxRanks=$OPTARG ;;
    *) sed -n 2,17p "$0"; exit 2 ;;
  esac
done
stencilcc="$root/build/bin/stencilcc"
[ -x "$stencilcc" ] || "$root/scripts/build.sh" > /dev/null
# A name under targets/, or a description's path.
description=$target
[[ $description == *.json ]] || description="$root/targets/$target.json"
[ -f "$description" ] || { echo "mpi_model.sh: no $description" >&2; exit 2; }
kind=$(grep -o '"kind": *"[a-z]*"' "$description" | grep -o '[a-z]*"$' |
  tr -d '"')
targetFlag=()
[ "$kind" = gpu ] && targetFlag=(--target=cuda)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "weak scaling of heat3d (7-point, f32), ${block}^3 points per rank," \
  "on '$target'"
printf "%6s %-10s %-18s %4s %4s %12s %14s\n" ranks "process" "global grid" \
  T k "us/step" "network wait"
ranks=2
while [ "$ranks" -le "$maxRanks" ]; do
  # Near-equal process grid, outermost axis first (as MPI_Dims_create):
  # the global grid is the per-rank block times it.
  read -r pz py px < <(python3 - "$ranks" <<'PY'
import sys
n = int(sys.argv[1]); dims = [1, 1, 1]; f = []; p = 2
while p * p <= n:
    while n % p == 0: f.append(p); n //= p
    p += 1
if n > 1: f.append(n)
for p in sorted(f, reverse=True):
    dims[dims.index(min(dims))] *= p
print(*sorted(dims, reverse=True))
PY
)
  nz=$((block * pz + 2)); ny=$((block * py + 2)); nx=$((block * px + 2))
  "$stencilcc" --mpi --mpi-ranks="$ranks" --device="$description" \
    "${targetFlag[@]}" -v --print-schedule --emit=mlir -o "$work/out.mlir" \
    -DNX=$nx -DNY=$ny -DNZ=$nz '-DDISTRIBUTE=block,block,block' \
    "$root/examples/heat3d.c" > "$work/schedule.json" 2> "$work/remarks.txt"
  t=$(grep -o '"time_block": [0-9]*' "$work/schedule.json" | grep -o '[0-9]*$')
  k=$(grep -o '"exchange_depth": [0-9]*' "$work/schedule.json" |
    grep -o '[0-9]*$')
  line=$(grep 'exchange depth k =' "$work/remarks.txt" | head -1)
  if [ "$t" -gt 1 ]; then
    # "...not overlapped): X us/step (compute C, comm M us per block)"
    read -r perStep compute comm < <(echo "$line" |
      sed -E 's/.*not overlapped\): ([0-9.]+) us\/step \(compute ([0-9.]+), comm ([0-9.]+) us per block\).*/\1 \2 \3/')
    wait=$(awk -v c="$compute" -v m="$comm" 'BEGIN{printf "%.1f%%", 100*m/(c+m)}')
  else
    # "k = K: X us/step (inner I, comm C, boundary B us per block)"
    read -r perStep inner comm boundary < <(echo "$line" |
      sed -E "s/.*; k = $k: ([0-9.]+) us\/step \(inner ([0-9.]+), comm ([0-9.]+), boundary ([0-9.]+) us per block\).*/\1 \2 \3 \4/")
    wait=$(awk -v i="$inner" -v c="$comm" -v b="$boundary" 'BEGIN{
      exposed = c > i ? c - i : 0
      printf "%.1f%%", 100 * exposed / ((c > i ? c : i) + b) }')
  fi
  printf "%6s %-10s %-18s %4s %4s %12s %14s\n" "$ranks" "${pz}x${py}x${px}" \
    "${nz}x${ny}x${nx}" "$t" "$k" "$perStep" "$wait"
  ranks=$((ranks * 2))
done

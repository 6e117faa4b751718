#!/usr/bin/env bash
# The empirical yardstick for the static tuning (issue 5): on the host CPU,
# enumerate work-group shapes (W, H, D) in powers of two within the grid
# (plus the whole row along x) and time-block depths T, compile and run each
# candidate with stencilcc --schedule, write bench/out/autotune-PROGRAM.csv,
# and print the static choice's speed over the best found.
#   bench/autotune.sh [--quick] [program...]   (default: all four)
# --quick steps the sizes by 4x instead of 2x. Not a test: each candidate
# runs three times and keeps the best time; a full run takes long.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
factor=2
if [ "${1:-}" = "--quick" ]; then factor=4; shift; fi
programs=("$@")
[ ${#programs[@]} -eq 0 ] && programs=(heat1d heat2d heat3d himeno)
out="$root/bench/out"
mkdir -p "$out"
"$root/scripts/build.sh" "$root/build" >/dev/null
stencilcc="$root/build/bin/stencilcc"

# name: steps per run, grid extent (x y z), time blocks tried
declare -A steps=([heat1d]=64 [heat2d]=16 [heat3d]=8 [himeno]=8)
declare -A grid=([heat1d]="4194302 1 1" [heat2d]="2046 2046 1" [heat3d]="254 254 254" [himeno]="254 126 126")
declare -A blocks=([heat1d]="1 2 4 8 16" [heat2d]="1 2 4 8 16" [heat3d]="1 2 4 8" [himeno]="1 2 4")
declare -A rank=([heat1d]=1 [heat2d]=2 [heat3d]=3 [himeno]=3)

sizes() { # powers of $factor from $2 up to $1, and $1 itself
  local extent=$1 s=$2
  while [ "$s" -lt "$extent" ]; do echo "$s"; s=$((s * factor)); done
  echo "$extent"
}
speed() { # best GCells/s of three runs of $1
  local best=0
  for _ in 1 2 3; do
    local v
    v=$("$1" "$2" | awk '/GCells\/s/ {print $2} /GFLOP\/s/ {print $2 / 32}')
    best=$(awk -v a="$best" -v b="$v" 'BEGIN {print (b > a) ? b : a}')
  done
  echo "$best"
}

printf "%-8s %10s %28s %10s %28s %9s\n" program static "static (W,H,D,T)" best "best (W,H,D,T)" "static/best"
for name in "${programs[@]}"; do
  src="$root/examples/$name.c"
  read -r ex ey ez <<< "${grid[$name]}"
  csv="$out/autotune-$name.csv"
  echo "W,H,D,T,GCells/s" > "$csv"
  ys=1; zs=1
  [ "${rank[$name]}" -ge 2 ] && ys=$(sizes "$ey" 1)
  [ "${rank[$name]}" -ge 3 ] && zs=$(sizes "$ez" 1)
  for w in $(sizes "$ex" 8); do
    for h in $ys; do
      for d in $zs; do
        for t in ${blocks[$name]}; do
          case "${rank[$name]}" in
            1) wg="$w" ;; 2) wg="${w}x${h}" ;; *) wg="${w}x${h}x${d}" ;;
          esac
          "$stencilcc" "$src" --schedule="wg=$wg,t=$t" -o "$out/candidate" 2>/dev/null || continue
          echo "$w,$h,$d,$t,$(speed "$out/candidate" "${steps[$name]}")" >> "$csv"
        done
      done
    done
  done
  # The static choice, measured the same way.
  choice=$("$stencilcc" "$src" --print-schedule -o "$out/static" | sed 's/.*"wg": \[\([0-9, ]*\)\], "time_block": \([0-9]*\).*/\1 T=\2/')
  static=$(speed "$out/static" "${steps[$name]}")
  best=$(tail -n +2 "$csv" | sort -t, -k5 -g | tail -1)
  printf "%-8s %10.3f %28s %10.3f %28s %8.0f%%\n" "$name" "$static" "($choice)" \
    "$(echo "$best" | cut -d, -f5)" "($(echo "$best" | cut -d, -f1-4))" \
    "$(awk -v s="$static" -v b="$(echo "$best" | cut -d, -f5)" 'BEGIN {print 100 * s / b}')"
done
echo "GCells/s (Himeno: GFLOP/s / 32); candidates in $out/autotune-*.csv"

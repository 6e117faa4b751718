#!/usr/bin/env bash
# The empirical yardstick for the static tuner (issues 5, 23): for each
# program, `stencilcc --autotune` searches around the static schedule on
# this machine (T from 1 to 32 around the static depth, each work-group size
# doubled and halved along each axis, whole rows and planes, streaming
# stores for single sweeps), runs every candidate with bench/run.sh's step
# counts, alternating them with the static schedule round after round, and
# compares medians of 5 or more runs (lib/Driver/Autotune.cpp). Prints, per
# program, the static and the best schedule, their medians, the spread and
# static/best; the full tables go to bench/out/autotune-PROGRAM.txt.
#   bench/autotune.sh [--budget=SECONDS] [--quick] [program...]
# --budget is per program (default 600); --quick is --budget=120. Default
# programs: heat1d heat2d heat3d himeno jacobi2d heat3d-2sweep. Not a test.
# The search's cache goes to bench/out/cache, not the user's.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
budget=600
programs=()
for arg in "$@"; do
  case "$arg" in
    --quick) budget=120 ;;
    --budget=*) budget="${arg#--budget=}" ;;
    -*) echo "usage: bench/autotune.sh [--budget=SECONDS] [--quick] [program...]" >&2; exit 2 ;;
    *) programs+=("$arg") ;;
  esac
done
[ ${#programs[@]} -eq 0 ] && programs=(heat1d heat2d heat3d himeno jacobi2d heat3d-2sweep)
out="$root/bench/out"
mkdir -p "$out"
"$root/scripts/build.sh" "$root/build" >/dev/null
stencilcc="$root/build/bin/stencilcc"
# bench/run.sh's step counts.
declare -A steps=([heat1d]=200 [heat2d]=200 [heat3d]=20 [himeno]=20
                  [jacobi2d]=500 [heat3d-2sweep]=200)

printf "%-14s %-26s %10s %-26s %10s %8s %7s\n" program "static" "ms" "best" "ms" "spread" "s/b"
for name in "${programs[@]}"; do
  log="$out/autotune-$name.txt"
  STENCIL_CACHE_DIR="$out/cache" "$stencilcc" "$root/examples/$name.c" \
    --autotune="$budget" --autotune-args="${steps[$name]:-20}" -v \
    -o "$out/autotune-$name" 2> "$log"
  # Each region's table: the static and the best rows.
  awk -v name="$name" '
    /^stencilcc: autotune: region .*'"'"'$/ { region = $4 }
    /^  wg=/ && /\[static(, best)?\]/ { static = $1; sms = $2; sspread = $3 }
    /^  wg=/ && /\[(static, )?best\]/ { best = $1; bms = $2; bspread = $3 }
    /^stencilcc: autotune: region .*: / && sms != "" {
      label = name; if (regions++) label = name "/" regions
      printf "%-14s %-26s %10.3f %-26s %10.3f %8s %6.1f%%\n", label, static, sms, best, bms, sspread "/" bspread, 100 * bms / sms
      sms = ""
    }' "$log"
done
echo "median ms of the regions' time per run; spread (max-min)/median of static/best; s/b = best/static time, the static choice's speed over the best's; tables in $out/autotune-*.txt"

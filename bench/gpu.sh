#!/usr/bin/env bash
# GPU benchmark: heat2d, heat3d, Himeno and jacobi-2d through
# `stencilcc --target=TARGET`, each as a single sweep (T = 1) and with the
# tuner's schedule, against the device's copy bandwidth measured with our
# own copy kernel (bench/gpu_copy.c). Runs on lavapipe today (Vulkan on the
# CPU: figures say nothing about a GPU); ready for the day a GPU is lent.
#
#   bench/gpu.sh [--target=vulkan|cuda|rocm] [--size=small|large] [--runs=R]
#
# The kernels' rate is taken from the difference of two step counts, so
# that region entry and exit (host <-> device copies, buffer allocation)
# cancel: for each program the two counts run alternately R times (default
# 5), and the median of the R differences is printed with its spread
# (min-max). Writes bench/out/gpu.csv and, with gnuplot, bench/out/gpu.png.
# Not a test: figures on a shared machine are noisy; compare ratios within
# one run. Goals for a real GPU (issue 22): single sweep >= 90% of the copy
# bandwidth; tuned T >= 2x the single sweep in 2-D, >= 1.5x in 3-D.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target=vulkan size=small runs=5
for arg in "$@"; do
  case "$arg" in
    --target=*) target=${arg#--target=} ;;
    --size=*) size=${arg#--size=} ;;
    --runs=*) runs=${arg#--runs=} ;;
    *) echo "usage: bench/gpu.sh [--target=vulkan|cuda|rocm] [--size=small|large] [--runs=R]" >&2
       exit 2 ;;
  esac
done
out="$root/bench/out"
mkdir -p "$out"
"$root/scripts/build.sh" "$root/build" >/dev/null
stencilcc="$root/build/bin/stencilcc"

# Sizes and step counts (few, many): small suits lavapipe, large a GPU.
if [ "$size" = small ]; then
  copy_defs="-DN=1024" copy_steps="10 40"
  heat2d_defs="-DN=1024" heat3d_defs="-DNX=128 -DNY=128 -DNZ=128"
  himeno_defs="-DMIMAX=65 -DMJMAX=65 -DMKMAX=129" jacobi_defs="-DN=1000"
  few=8 many=32
else
  copy_defs="-DN=8192" copy_steps="50 250"
  heat2d_defs="-DN=8192" heat3d_defs="-DNX=512 -DNY=512 -DNZ=512"
  himeno_defs="-DMIMAX=257 -DMJMAX=257 -DMKMAX=513" jacobi_defs="-DN=8000"
  few=50 many=250
fi

# run BINARY STEPS -> "seconds cells_per_step" from the program's own
# figures (time, and GCells/s or Himeno's GFLOP/s at 34 flops per cell).
run() {
  "$1" "$2" | awk -v steps="$2" '
    /^time/ {t = $2} /^GCells\/s/ {r = $2 * 1e9} /^GFLOP\/s/ {r = $2 * 1e9 / 34}
    END {printf "%.9f %.1f\n", t, r * t / steps}'
}
# rate BINARY FEW MANY -> "median min max" GCells/s of the kernels alone.
rate() {
  local samples=()
  for _ in $(seq "$runs"); do
    read -r t1 _ < <(run "$1" "$2")
    read -r t2 cells < <(run "$1" "$3")
    samples+=("$(awk -v a="$t1" -v b="$t2" -v c="$cells" -v n=$(($3 - $2)) \
      'BEGIN {d = b - a; print (d > 0) ? c * n / d * 1e-9 : 0}')")
  done
  printf "%s\n" "${samples[@]}" | sort -g |
    awk '{v[NR] = $1} END {printf "%.4f %.4f %.4f\n", v[int((NR + 1) / 2)], v[1], v[NR]}'
}

"$stencilcc" --target="$target" $copy_defs "$root/bench/gpu_copy.c" -o "$out/gpu_copy.$target"
read -r copy_rate copy_min copy_max < <(rate "$out/gpu_copy.$target" $copy_steps)
copy_gbps=$(awk -v r="$copy_rate" 'BEGIN {print r * 8}')
printf "copy kernel (8 bytes per cell): %.3f GB/s (median of %d; %.3f-%.3f)\n" \
  "$copy_gbps" "$runs" "$(awk -v r="$copy_min" 'BEGIN {print r * 8}')" \
  "$(awk -v r="$copy_max" 'BEGIN {print r * 8}')"

# name, element bytes moved per cell by one sweep (read + write once),
# defines. jacobi2d's figures are per sweep (two per step), as its output.
programs=(
  "heat2d 8 $heat2d_defs"
  "heat3d 8 $heat3d_defs"
  "himeno 56 $himeno_defs"
  "jacobi2d 16 $jacobi_defs"
)
printf "%-9s %-6s %10s %17s %8s %8s\n" program T "GCells/s" "spread" "of copy" "vs T=1"
echo "program,schedule,gcells_median,gcells_min,gcells_max,percent_of_copy,speedup_vs_t1" > "$out/gpu.csv"
for entry in "${programs[@]}"; do
  read -r name bytes defs <<< "$entry"
  single=""
  for schedule in t=1 tuned; do
    options=()
    [ "$schedule" = t=1 ] && options=(--schedule=t=1)
    binary="$out/$name.$target.$schedule"
    "$stencilcc" --target="$target" $defs "${options[@]}" \
      "$root/examples/$name.c" -o "$binary" 2>/dev/null
    label=$schedule
    if [ "$schedule" = tuned ]; then
      label="T=$("$stencilcc" --target="$target" $defs --print-schedule \
        "$root/examples/$name.c" -o /dev/null 2>&1 |
        sed -n 's/.*"time_block": \([0-9]*\).*/\1/p' | head -1)"
    fi
    read -r med lo hi < <(rate "$binary" "$few" "$many")
    [ -z "$single" ] && single=$med
    percent=$(awk -v r="$med" -v b="$bytes" -v c="$copy_gbps" 'BEGIN {print 100 * r * b / c}')
    speedup=$(awk -v a="$med" -v s="$single" 'BEGIN {print (s > 0) ? a / s : 0}')
    printf "%-9s %-6s %10.4f %8.4f-%-8.4f %7.0f%% %7.2fx\n" "$name" "$label" \
      "$med" "$lo" "$hi" "$percent" "$speedup"
    echo "$name,$label,$med,$lo,$hi,$percent,$speedup" >> "$out/gpu.csv"
  done
done
echo "device: $target; copy bandwidth $copy_gbps GB/s by bench/gpu_copy.c; 'of copy' = GCells/s x bytes per cell / copy bandwidth"

if command -v gnuplot >/dev/null; then
  gnuplot <<GP
set terminal png size 800,450
set output "$out/gpu.png"
set datafile separator ","
set style data histograms
set style fill solid 0.8
set ylabel "percent of copy bandwidth"
set title "stencilcc --target=$target: single sweep and tuned T"
set key off
set xtics rotate by -30
plot "$out/gpu.csv" every ::1 using 6:xtic(stringcolumn(1)." ".stringcolumn(2))
GP
  echo "plot: $out/gpu.png"
fi

#!/usr/bin/env bash
# GPU benchmark: heat2d, heat3d, Himeno and jacobi-2d through
# `stencilcc --target=TARGET`, each as a single sweep (T = 1) and with the
# tuner's schedule, against the device's copy bandwidth measured with our
# own copy kernel (bench/gpu_copy.c).
#
#   bench/gpu.sh [--target=vulkan|cuda|rocm] [--device=NAME] [--size=small|large] [--runs=R]
#   bench/gpu.sh --build-only=DIR [--target=...] [--device=...] [--size=...]
#   DIR/gpu.sh --run=DIR [--runs=R]      # where the GPU is: bash, awk, coreutils
#
# --build-only writes the executables, a manifest, the libraries they need
# beyond libc (libomp, libvulkan) and a copy of this script into DIR;
# --run measures them there: for a GPU machine without the compiler (a
# lent device machine, a cluster's compute node).
#
# The kernels' rate is taken from the difference of two step counts, so
# that region entry and exit (host <-> device copies, buffer allocation)
# cancel: for each program the two counts run alternately R times (default
# 5), and the median of the R differences is printed with its spread
# (min-max). Writes gpu.csv and, with gnuplot, gpu.png into bench/out (or
# DIR). Not a test: figures on a shared machine are noisy; compare ratios
# within one run. Goals for a real GPU (issue 22): single sweep >= 90% of
# the copy bandwidth; tuned T >= 2x the single sweep in 2-D, >= 1.5x in 3-D.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target=vulkan device='' size=small runs=5 build_only='' run_only=''
for arg in "$@"; do
  case "$arg" in
    --target=*) target=${arg#--target=} ;;
    --device=*) device=${arg#--device=} ;;
    --size=*) size=${arg#--size=} ;;
    --runs=*) runs=${arg#--runs=} ;;
    --build-only=*) build_only=${arg#--build-only=} ;;
    --run=*) run_only=${arg#--run=} ;;
    *) echo "usage: bench/gpu.sh [--target=vulkan|cuda|rocm] [--device=NAME] [--size=small|large] [--runs=R] [--build-only=DIR | --run=DIR]" >&2
       exit 2 ;;
  esac
done
out="${build_only:-${run_only:-$root/bench/out}}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# Sizes and step counts (few, many): small suits lavapipe, large a GPU.
if [ "$size" = small ]; then
  copy_defs="-DN=1024" copy_steps="10 40"
  heat2d_defs="-DN=1024" heat3d_defs="-DNX=128 -DNY=128 -DNZ=128"
  himeno_defs="-DMIMAX=65 -DMJMAX=65 -DMKMAX=129" jacobi_defs="-DN=1000"
  few=8 many=32
else
  copy_defs="-DN=8192" copy_steps="50 2050"
  heat2d_defs="-DN=8192" heat3d_defs="-DNX=512 -DNY=512 -DNZ=512"
  himeno_defs="-DMIMAX=257 -DMJMAX=257 -DMKMAX=513" jacobi_defs="-DN=8000"
  few=50 many=1050
fi

# run BINARY STEPS -> "seconds cells_per_step" from the program's own
# figures (time, and GCells/s or Himeno's GFLOP/s at 34 flops per cell).
run() {
  "$1" "$2" < /dev/null | awk -v steps="$2" '
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

# name, element bytes moved per cell by one sweep (read + write once),
# defines. jacobi2d's figures are per sweep (two per step), as its output.
programs=(
  "heat2d 8 $heat2d_defs"
  "heat3d 8 $heat3d_defs"
  "himeno 56 $himeno_defs"
  "jacobi2d 16 $jacobi_defs"
)

# Writes the executables and $out/manifest, one line per executable:
# "name schedule bytes-per-cell binary few-steps many-steps", the copy first.
build() {
  "$root/scripts/build.sh" "$root/build" >/dev/null
  local stencilcc="$root/build/bin/stencilcc" flags=(--target="$target")
  [ -n "$device" ] && flags+=(--device="$device")
  # One kernel per step: a tuner free to block the copy in time (radius 0,
  # no halo) would keep it in on-chip memory for T steps.
  "$stencilcc" "${flags[@]}" --schedule=t=1 $copy_defs "$root/bench/gpu_copy.c" \
    -o "$out/gpu_copy.$target"
  echo "copy - 8 gpu_copy.$target $copy_steps" > "$out/manifest"
  local entry name bytes defs schedule options binary label
  for entry in "${programs[@]}"; do
    read -r name bytes defs <<< "$entry"
    for schedule in t=1 tuned; do
      options=()
      [ "$schedule" = t=1 ] && options=(--schedule=t=1)
      binary="$name.$target.$schedule"
      "$stencilcc" "${flags[@]}" $defs "${options[@]}" \
        "$root/examples/$name.c" -o "$out/$binary" 2>/dev/null
      label=$schedule
      if [ "$schedule" = tuned ]; then
        label="T=$("$stencilcc" "${flags[@]}" $defs --print-schedule \
          "$root/examples/$name.c" -o /dev/null 2>&1 |
          sed -n 's/.*"time_block": \([0-9]*\).*/\1/p' | head -1)"
      fi
      echo "$name $label $bytes $binary $few $many" >> "$out/manifest"
    done
  done
}

if [ -z "$run_only" ]; then
  build
  if [ -n "$build_only" ]; then
    "$root/scripts/device-check.sh" libs "$out/lib" "$out"/*."$target"*
    cp "${BASH_SOURCE[0]}" "$out/gpu.sh"
    echo "built in $out; where the GPU is: $out/gpu.sh --run=$out [--runs=R]"
    exit 0
  fi
fi
export LD_LIBRARY_PATH="$out/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

read -r _ _ _ copy_binary copy_few copy_many < "$out/manifest"
read -r copy_rate copy_min copy_max < <(rate "$out/$copy_binary" "$copy_few" "$copy_many")
copy_gbps=$(awk -v r="$copy_rate" 'BEGIN {print r * 8}')
printf "copy kernel (8 bytes per cell): %.3f GB/s (median of %d; %.3f-%.3f)\n" \
  "$copy_gbps" "$runs" "$(awk -v r="$copy_min" 'BEGIN {print r * 8}')" \
  "$(awk -v r="$copy_max" 'BEGIN {print r * 8}')"

printf "%-9s %-6s %10s %17s %8s %8s\n" program T "GCells/s" "spread" "of copy" "vs T=1"
echo "program,schedule,gcells_median,gcells_min,gcells_max,percent_of_copy,speedup_vs_t1" > "$out/gpu.csv"
single=
while read -r name label bytes binary few many; do
  [ "$name" = copy ] && continue
  read -r med lo hi < <(rate "$out/$binary" "$few" "$many")
  [ "$label" = t=1 ] && single=$med
  percent=$(awk -v r="$med" -v b="$bytes" -v c="$copy_gbps" 'BEGIN {print 100 * r * b / c}')
  speedup=$(awk -v a="$med" -v s="$single" 'BEGIN {print (s > 0) ? a / s : 0}')
  printf "%-9s %-6s %10.4f %8.4f-%-8.4f %7.0f%% %7.2fx\n" "$name" "$label" \
    "$med" "$lo" "$hi" "$percent" "$speedup"
  echo "$name,$label,$med,$lo,$hi,$percent,$speedup" >> "$out/gpu.csv"
done < "$out/manifest"
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

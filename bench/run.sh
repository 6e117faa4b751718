#!/usr/bin/env bash
# Benchmarks the seed 000 Table 5 programs side by side in one run:
#   - stencilcc (its schedule for the host CPU),
#   - the same C by gcc -O3 -march=native -fopenmp with `#pragma omp parallel
#     for` on the outer space loop of the calc and copy sections,
#   - the plain C by clang-22 with Polly (-O3 -mllvm -polly -mllvm
#     -polly-parallel -fopenmp), the polyhedral peer,
#   - a STREAM-style copy bandwidth of this machine (the roofline).
# Prints a table (GCells/s, ratio to gcc and to Polly, fraction of the
# roofline and, for rows that stencilcc blocks in time, fraction of the
# floating-point peak, measured on this CPU and printed) and, when
# gnuplot is installed, writes bench/out/bench.png. Not a test: figures on a
# shared machine are noisy; each is the best of three runs, and ratios
# should be compared within one run.
#   bench/run.sh [steps-scale]   (1 = the default step counts below)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scale="${1:-1}"
out="$root/bench/out"
mkdir -p "$out"
"$root/scripts/build.sh" "$root/build" >/dev/null
stencilcc="$root/build/bin/stencilcc"

gcc -O3 -march=native -fopenmp "$root/bench/stream_copy.c" -o "$out/stream_copy"
bw=$("$out/stream_copy" | awk '/copy_GBps/ {print $2}')

# The FP peak the tuner uses for the host (docs/Tuning.md, "Target
# descriptions"): measured by fused multiply-adds of the widest vectors,
# one thread per core, and kept in host.json; where no probe can, derived
# from /proc/cpuinfo's clock. f64 has half the lanes.
host_spec=$(echo 'module {}' |
  "$root/build/bin/stencil-opt" --stencil-attach-target=targets=host)
peak32=$(sed -n 's/.*"peak_gflops_f32" = \([0-9.e+-]*\) : f64.*/\1/p' \
  <<< "$host_spec" | awk '{printf "%.1f", $1}')
if [ -z "$peak32" ]; then
  echo "bench/run.sh: the host target gave no peak_gflops_f32" >&2
  exit 1
fi
peak64=$(awk -v p="$peak32" 'BEGIN {printf "%.1f", p / 2}')

# name, steps, the OpenMP baseline's clauses (- for none; clauses separated
# by commas, no spaces: Himeno's temporaries are private and its residual a
# reduction, as a user would write them), bytes moved per cell and step by a single sweep that reads the source and writes the
# destination once (the minimum without temporal blocking; Himeno reads 13
# arrays and writes one). The copy section the programs also run doubles the
# heat programs' traffic until it is folded into a swap.
# An optional seventh field is a --schedule for stencilcc (the row is then
# labelled with it); heat3d's single sweep (T = 1) is measured against the
# roofline as well as its tuned time blocks. heat1d and heat2d, whose time
# blocks keep their arrays in cache, run 200 steps: 50 steps of heat2d took
# stencilcc 25-35 ms, within the bursts of load of this shared machine
# (50 steps gave ratios of 2.7-3.5 where 200 gave 3.2-3.5, alternating).
# The fifth field is the flops per cell and step as the source writes them
# (loop-invariant coefficients hoisted), then f32 or f64: with the rate
# they give the fraction of the FP peak.
programs=(
  "heat1d 200 - 8 4 f32"
  "heat2d 200 private(j) 8 6 f32"
  "heat3d 20 private(j,k) 8 8 f32"
  "heat3d 20 private(j,k) 8 8 f32 t=1"
  "himeno 20 private(j,k,s0,ss),reduction(+:gosa) 56 34 f32"
  "jacobi2d 500 private(j) 16 5 f64"
  "heat3d-2sweep 200 private(j,k) 16 15 f64"
)
# jacobi2d (PolyBench's jacobi-2d, 2000^2, double) and heat3d-2sweep
# (heat-3d, 120^3, double) run two sweeps per step and report GCells/s per
# sweep; their bytes are those of one sweep.

printf "%-14s %6s %10s %10s %10s %8s %8s %9s %7s %4s %8s\n" program steps \
  "stencilcc" "gcc-omp" "polly" "vs gcc" "vs polly" "roofline" "of roof" T \
  "FP peak"
: > "$out/bench.dat"
for entry in "${programs[@]}"; do
  read -r name steps clauses bytes flops precision schedule <<< "$entry"
  steps=$(( steps * scale ))
  src="$root/examples/$name.c"
  label="$name" options=()
  if [ -n "$schedule" ]; then
    label="$name,$schedule" options=(--schedule="$schedule")
  fi
  # One binary per row (heat3d has two), kept for reruns by hand.
  binary="$out/${label//[^A-Za-z0-9_.-]/_}.stencilcc"
  time_block=$("$stencilcc" "$src" "${options[@]}" --print-schedule \
    -o "$binary" | grep -o '"time_block": [0-9]*' | head -1 | grep -o '[0-9]*$')
  # The baseline: the calc and copy sections' outer loops in parallel.
  clause=""
  [ "$clauses" != "-" ] && clause=" $clauses"
  sed -e "s/^#pragma stencil calc/#pragma omp parallel for$clause/" \
      -e "s/^#pragma stencil copy/#pragma omp parallel for$clause/" \
      -e "/^#pragma stencil/d" "$src" > "$out/$name.omp.c"
  gcc -O3 -march=native -fopenmp -w "$out/$name.omp.c" -o "$out/$name.gcc" -lm
  sed -e "/^#pragma stencil/d" "$src" > "$out/$name.plain.c"
  clang -O3 -march=native -mllvm -polly -mllvm -polly-parallel -fopenmp -w \
    "$out/$name.plain.c" -o "$out/$name.polly" -lm
  # Best of three runs each, alternating the two programs, so that a burst
  # of load on the shared machine hits both alike.
  ours=0 theirs=0 polly=0
  best() { awk -v a="$1" -v b="$2" 'BEGIN {print (b > a) ? b : a}'; }
  rate() { "$1" "$steps" | awk '/GCells\/s|GFLOP\/s/ {print $2}'; }
  for _ in 1 2 3; do
    ours=$(best "$ours" "$(rate "$binary")")
    theirs=$(best "$theirs" "$(rate "$out/$name.gcc")")
    polly=$(best "$polly" "$(rate "$out/$name.polly")")
  done
  if [ "$name" = himeno ]; then
    # GFLOP/s (34 flops per cell) -> GCells/s
    ours=$(awk -v g="$ours" 'BEGIN {print g / 34}')
    theirs=$(awk -v g="$theirs" 'BEGIN {print g / 34}')
    polly=$(awk -v g="$polly" 'BEGIN {print g / 34}')
  fi
  roof=$(awk -v b="$bw" -v n="$bytes" 'BEGIN {print b / n}')
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN {print a / b}'; }
  # Time blocks compute from cache: the FP peak is their ceiling.
  of_peak=-
  if [ "${time_block:-1}" -gt 1 ]; then
    peak=$peak32
    [ "$precision" = f64 ] && peak=$peak64
    of_peak=$(awk -v c="$ours" -v f="$flops" -v p="$peak" \
      'BEGIN {printf "%.1f%%", 100 * c * f / p}')
  fi
  printf "%-14s %6d %10.3f %10.3f %10.3f %7.2fx %7.2fx %9.3f %6.0f%% %4s %8s\n" \
    "$label" "$steps" "$ours" "$theirs" "$polly" "$(ratio "$ours" "$theirs")" \
    "$(ratio "$ours" "$polly")" "$roof" \
    "$(awk -v a="$ours" -v r="$roof" 'BEGIN {print 100 * a / r}')" \
    "${time_block:-1}" "$of_peak"
  echo "$label $ours $theirs $roof" >> "$out/bench.dat"
done
# The single sweep of heat3d by itself: the region's fixed cost per call
# (aligning and restoring the boundary rings, and the final copy that leaves
# both arrays as the C program does) cancels in the difference of two step
# counts.
"$stencilcc" "$root/examples/heat3d.c" --schedule=t=1 -o "$out/heat3d-sweep"
# Five runs each, alternating the two step counts and the copy so that a
# burst of load hits all alike: the difference of two times is noisier than
# either. The roofline here is the best copy bandwidth of the whole run.
few=$((20 * scale)) many=$((60 * scale))
region_time() { "$out/heat3d-sweep" "$1" | awk '/^time/ {print $2}'; }
least() { awk -v a="$1" -v b="$2" 'BEGIN {print (b < a) ? b : a}'; }
short=1e30 long=1e30 sweep_bw="$bw"
for _ in 1 2 3 4 5; do
  short=$(least "$short" "$(region_time "$few")")
  long=$(least "$long" "$(region_time "$many")")
  copy=$("$out/stream_copy" | awk '/copy_GBps/ {print $2}')
  sweep_bw=$(awk -v a="$sweep_bw" -v b="$copy" 'BEGIN {print (b > a) ? b : a}')
done
sweep=$(awk -v s="$short" -v l="$long" -v n=$((many - few)) \
  'BEGIN {print 254 * 254 * 254 * n / (l - s) * 1e-9}')
roof=$(awk -v b="$sweep_bw" 'BEGIN {print b / 8}')
printf "heat3d T = 1, one sweep (steps %d minus %d): %.3f GCells/s, %.0f%% of the roofline %.3f (copy %.2f GB/s, the best of this run)\n" \
  "$many" "$few" "$sweep" "$(awk -v a="$sweep" -v r="$roof" 'BEGIN {print 100 * a / r}')" "$roof" "$sweep_bw"
# The same sweep in one process, interleaved with the copy (sweep_ab.sh):
# no page placement differs between the two, so this is the steadier ratio.
"$root/bench/sweep_ab.sh" -r 9 "--schedule=t=1" |
  awk '/^v0: median/ {sub(/^v0: /, ""); print "heat3d T = 1, one sweep in one process with the copy: " $0}'
echo "copy bandwidth: $bw GB/s (STREAM copy, OpenMP, $(nproc) cores); GCells/s columns; roofline = bandwidth / bytes per cell and step"
echo "FP peak: $peak32 GFLOP/s f32, $peak64 f64 (the host target's: measured by FMAs on $(nproc) cores where it can, else from the clock); FP peak column = GCells/s x flops per cell / peak, for rows blocked in time (T > 1)"

# The plot needs gnuplot (Debian gnuplot-nox); install it like the other
# dependencies when we may.
if ! command -v gnuplot >/dev/null && [ "$(id -u)" -eq 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    gnuplot-nox >/dev/null 2>&1 || true
fi
if command -v gnuplot >/dev/null; then
  gnuplot <<GP
set terminal png size 800,450
set output "$out/bench.png"
set style data histograms
set style fill solid 0.8
set ylabel "GCells/s"
set title "stencilcc vs gcc -O3 -fopenmp (bars) and the copy-bandwidth roofline"
plot "$out/bench.dat" using 2:xtic(1) title "stencilcc", '' using 3 title "gcc -O3 -fopenmp", '' using 4 title "roofline (1 sweep)"
GP
  echo "plot: $out/bench.png"
else
  echo "(install gnuplot for a plot: apt-get install gnuplot-nox)"
fi

#!/usr/bin/env bash
# Seed 001's question on this machine or a cluster: does the exchange depth
# k that the model picks measure best? And are time blocks on each rank
# (seed 000 Fig. 3, a halo T x radius deep exchanged before each block)
# faster than single steps? Builds the example with `stencilcc --mpi` as
# single steps with k = 1..KMAX (--schedule=t=1,k=K), as time blocks of
# T = 2..KMAX (--schedule=t=T, so k = T), and as tuned (T and k chosen
# together); runs them under mpirun, alternating, REPEAT times each, and
# prints the median time per step, its spread (min-max) and the model's
# prediction (the remarks of stencil-tune-exchange-depth). A benchmark,
# not a test.
#
#   bench/mpi_depth.sh [-p example] [-n ranks] [-d decomposition] [-s steps]
#                      [-k kmax] [-r repeat] [-f hostfile] [-D macro=value]...
#   defaults: heat2d, 4 ranks, 'block,*', 200 steps, kmax 4, repeat 5, N=2048
# On a cluster pass -f hosts (handed to mpirun --hostfile). With more ranks
# than cores the absolute times mean little; the ranking is the point.
# MPIRUN overrides the launcher (default: mpirun --oversubscribe, plus
# --allow-run-as-root as root); each rank runs OMP_NUM_THREADS=1 threads
# unless set.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prog=heat2d; ranks=4; dist='block,*'; steps=200; kmax=4; repeat=5
hostfile=""
macros=()
while getopts "p:n:d:s:k:r:f:D:" opt; do
  case $opt in
    p) prog=$OPTARG ;; n) ranks=$OPTARG ;; d) dist=$OPTARG ;;
    s) steps=$OPTARG ;; k) kmax=$OPTARG ;; r) repeat=$OPTARG ;;
    f) hostfile=$OPTARG ;; D) macros+=("-D$OPTARG") ;;
    *) sed -n 2,21p "$0"; exit 2 ;;
  esac
done
stencilcc="$root/build/bin/stencilcc"
[ -x "$stencilcc" ] || "$root/scripts/build.sh" > /dev/null
launcher=${MPIRUN:-"mpirun --oversubscribe"}
if [ -z "${MPIRUN:-}" ] && [ "$(id -u)" -eq 0 ]; then
  launcher+=" --allow-run-as-root"
fi
[ -n "$hostfile" ] && launcher+=" --hostfile $hostfile"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src="$root/examples/$prog.c"

# The model's table, for this rank count, and the tuned build.
"$stencilcc" --mpi --mpi-ranks="$ranks" -v "${macros[@]}" \
  "-DDISTRIBUTE=$dist" "$src" --print-schedule -o "$work/tuned" \
  > "$work/schedule.json" 2> "$work/remarks.txt"
model_k=$(grep -o 'exchange depth k = [0-9]*' "$work/remarks.txt" | head -1 |
  grep -o '[0-9]*$')
tuned_t=$(grep -o '"time_block": [0-9]*' "$work/schedule.json" | head -1 |
  grep -o '[0-9]*$')
echo "$prog, $ranks ranks, distribute($dist), $steps steps, $repeat runs" \
  "each ${macros[*]}"
echo "model's choice: T = $tuned_t, k = $model_k (stencil-tune-exchange-depth)"

# Variants: name, schedule (empty: tuned), the model's us/step if it has one.
names=(); schedules=()
for k in $(seq 1 "$kmax"); do names+=("t=1,k=$k"); schedules+=("t=1,k=$k"); done
for t in $(seq 2 "$kmax"); do names+=("t=$t"); schedules+=("t=$t"); done
names+=("tuned t=$tuned_t,k=$model_k"); schedules+=("")
for i in "${!names[@]}"; do
  [ -z "${schedules[$i]}" ] && { cp "$work/tuned" "$work/v$i"; continue; }
  "$stencilcc" --mpi "${macros[@]}" "-DDISTRIBUTE=$dist" \
    --schedule="${schedules[$i]}" "$src" -o "$work/v$i"
done
# Alternate the variants so that drift hits them all alike.
for r in $(seq 1 "$repeat"); do
  for i in "${!names[@]}"; do
    out=$(OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} STENCIL_MPI_STATS=1 \
      $launcher -np "$ranks" "$work/v$i" "$steps" 2>&1)
    echo "$out" | awk '/^time /{print $2}' >> "$work/times$i"
    echo "$out" | grep -o 'messages [0-9]*' | awk '{print $2}' \
      > "$work/messages$i"
  done
done
printf "%-22s %12s %16s %16s %10s\n" schedule "ms/step" "spread" \
  "model us/step" messages
best_i=0; best=""
for i in "${!names[@]}"; do
  read -r median low high < <(sort -g "$work/times$i" | awk -v n="$steps" '
    { t[NR] = 1e3 * $1 / n }
    END { m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
          printf "%.4f %.4f %.4f\n", m, t[1], t[NR] }')
  model=-
  case ${names[$i]} in
    t=1,k=*) model=$(grep -o "k = ${names[$i]#t=1,k=}: [0-9.]* us/step" \
      "$work/remarks.txt" | head -1 | awk '{print $4}') ;;
    tuned*) model=$(grep -o 'not overlapped): [0-9.]* us/step' \
      "$work/remarks.txt" | head -1 | awk '{print $3}') ;;
  esac
  printf "%-22s %12s %16s %16s %10s\n" "${names[$i]}" "$median" \
    "$low-$high" "${model:--}" "$(cat "$work/messages$i")"
  if [ -z "$best" ] || awk -v a="$median" -v b="$best" 'BEGIN{exit !(a<b)}'
  then
    best=$median; best_i=$i
  fi
done
echo "measured best: ${names[$best_i]}; tuned: ${names[${#names[@]}-1]}"

#!/usr/bin/env bash
# Seed 001's question on this machine or a cluster: does the exchange depth
# k that the model picks measure best? For k = 1..KMAX, builds the example
# with `stencilcc --mpi --schedule=k=K`, runs it under mpirun, and prints the
# measured time per step next to the model's prediction (the remark of
# stencil-tune-exchange-depth). A benchmark, not a test.
#
#   bench/mpi_depth.sh [-p example] [-n ranks] [-d decomposition] [-s steps]
#                      [-k kmax] [-f hostfile] [-D macro=value]...
#   defaults: heat2d, 4 ranks, 'block,*', 200 steps, kmax 4, N=2048
# On a cluster pass -f hosts (handed to mpirun --hostfile). With more ranks
# than cores (here) the absolute times mean little; the ranking is the
# point. MPIRUN overrides the launcher (default: mpirun --oversubscribe,
# plus --allow-run-as-root as root).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prog=heat2d; ranks=4; dist='block,*'; steps=200; kmax=4; hostfile=""
macros=()
while getopts "p:n:d:s:k:f:D:" opt; do
  case $opt in
    p) prog=$OPTARG ;; n) ranks=$OPTARG ;; d) dist=$OPTARG ;;
    s) steps=$OPTARG ;; k) kmax=$OPTARG ;; f) hostfile=$OPTARG ;;
    D) macros+=("-D$OPTARG") ;;
    *) sed -n 2,15p "$0"; exit 2 ;;
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

# The model's table, for this rank count.
"$stencilcc" --mpi --mpi-ranks="$ranks" -v "${macros[@]}" \
  "-DDISTRIBUTE=$dist" "$src" -o "$work/tuned" 2> "$work/remarks.txt"
model_k=$(grep -o 'exchange depth k = [0-9]*' "$work/remarks.txt" | head -1 |
  grep -o '[0-9]*$')
echo "$prog, $ranks ranks, distribute($dist), $steps steps ${macros[*]}"
echo "model's choice: k = $model_k (stencil-tune-exchange-depth)"
printf "%3s %16s %16s %10s\n" k "measured ms/step" "model us/step" messages
best_k=0; best=""
for k in $(seq 1 "$kmax"); do
  "$stencilcc" --mpi "${macros[@]}" "-DDISTRIBUTE=$dist" \
    --schedule=k="$k" "$src" -o "$work/k$k"
  out=$(OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} STENCIL_MPI_STATS=1 \
    $launcher -np "$ranks" "$work/k$k" "$steps" 2>&1)
  seconds=$(echo "$out" | awk '/^time /{print $2}')
  messages=$(echo "$out" | grep -o 'messages [0-9]*' | awk '{print $2}')
  ms=$(awk -v s="$seconds" -v n="$steps" 'BEGIN{printf "%.4f", 1e3*s/n}')
  model=$(grep -o "k = $k: [0-9.]* us/step" "$work/remarks.txt" |
    awk '{print $4}')
  printf "%3s %16s %16s %10s\n" "$k" "$ms" "${model:--}" "$messages"
  if [ -z "$best" ] || awk -v a="$ms" -v b="$best" 'BEGIN{exit !(a<b)}'; then
    best=$ms; best_k=$k
  fi
done
echo "measured best: k = $best_k; model's k = $model_k:" \
  "$([ "$best_k" = "$model_k" ] && echo agree || echo differ)"

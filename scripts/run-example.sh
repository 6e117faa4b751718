#!/usr/bin/env bash
# The main job: compile a pragma-C example with stencilcc for the host CPU,
# print the schedule it chose, run it, and compare its speed and checksum
# with the same C compiled by plain clang -O2 (the pragmas ignored).
#   scripts/run-example.sh [NAME] [steps]   NAME: any examples/NAME.c (heat1d,
#   heat2d, heat3d, himeno, jacobi1d, jacobi2d, heat3d-2sweep, fdtd2d,
#   masked2d); the default is heat3d
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
name="${1:-heat3d}"
steps="${2:-50}"
src="$root/examples/$name.c"
[ -f "$src" ] || {
  echo "no example '$name' (choose from: $(cd "$root/examples" && ls *.c | sed 's/\.c$//' | tr '\n' ' '))" >&2
  exit 2
}

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build" >/dev/null

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "== stencilcc --print-schedule $name.c"
start=$(date +%s%N)
"$root/build/bin/stencilcc" --print-schedule "$src" -o "$work/$name"
end=$(date +%s%N)
echo "compile time: $(( (end - start) / 1000000 )) ms"
echo "== $name, $steps steps, compiled by stencilcc"
"$work/$name" "$steps"
/usr/lib/llvm-22/bin/clang -O2 -w "$src" -o "$work/$name.ref" -lm
echo "== the same C by plain clang -O2 (reference)"
"$work/$name.ref" "$steps"

#!/usr/bin/env bash
# The main job, as far as it goes today: build the tools and run the heat3d
# program of seed 000 (examples/mlir/heat3d.mlir) through stencil-opt, which
# verifies it, canonicalizes it, and prints the halo every field needs.
#
# Compiling a pragma-C program to an executable and timing it arrives with
# the CPU backend (issue "CPU backend, runtime and stencilcc"); this script
# will then run that instead.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
example="${1:-$root/examples/mlir/heat3d.mlir}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" "$root/build" >/dev/null

opt="$root/build/bin/stencil-opt"
echo "== $example: verified and canonicalized"
start=$(date +%s%N)
"$opt" "$example" -canonicalize -o /dev/null
end=$(date +%s%N)
echo "stencil-opt took $(( (end - start) / 1000000 )) ms"
echo "== halo (access extent) of every field"
"$opt" "$example" -test-stencil-access-extents -o /dev/null 2>&1 |
  sed -n 's/^\([^:]*:[0-9]*\):[0-9]*: remark: /\1: /p'

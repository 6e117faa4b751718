#!/usr/bin/env bash
# Configures and builds stencil-mlir with ninja (and ccache when present).
#   scripts/build.sh [--compiler=clang|gcc] [BUILD_DIR] [extra cmake args...]
# BUILD_DIR defaults to build/; the compiler to clang-22. --compiler=gcc
# takes Debian's default c++ (g++ 12), what a plain `cmake -S . -B build`
# picks: the project builds, and emits the same IR, with either.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
compilers=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22)
case "${1:-}" in
  --compiler=clang) shift ;;
  --compiler=gcc) compilers=(-DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++); shift ;;
  --compiler=*) echo "usage: $0 [--compiler=clang|gcc] [BUILD_DIR] [cmake args...]" >&2; exit 2 ;;
esac
build="${1:-$root/build}"
shift || true

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release "${compilers[@]}" "$@"
elif [ $# -gt 0 ]; then
  # Options given to an existing build take effect too.
  cmake "$build" "$@" >/dev/null
fi
ninja -C "$build"

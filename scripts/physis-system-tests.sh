#!/usr/bin/env bash
# Runs Physis's own system tests (naoyam/physis, tests/system_tests/
# test_cases) through stencilcc, as Physis's runner judges them: a test
# with a `*.manual.ref.c` must print exactly what that reference prints,
# one without must build and exit 0. Prints one line per test and N of M.
#
#   scripts/physis-system-tests.sh PHYSIS_CHECKOUT [BUILD_DIR] [stencilcc flags]
#
# PHYSIS_RUN prefixes each run of a compiled test (e.g. "mpirun -np 3"
# with the flag --mpi).
#
# The tests are Physis's, not ours (BSD licensed, not copied here): pass a
# checkout of https://github.com/naoyam/physis. Our own tests of the same
# forms are test/Integration/physis/.
set -u
physis=${1:?usage: $0 PHYSIS_CHECKOUT [BUILD_DIR] [stencilcc flags]}
build=${2:-build}
shift $(( $# >= 2 ? 2 : 1 ))
cases=$physis/tests/system_tests/test_cases
stencilcc=$(cd "$build" && pwd)/bin/stencilcc
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 total=0
for src in "$cases"/test_*.c; do
  name=$(basename "$src" .c)
  case $name in *.manual.ref|*.module_base) continue ;; esac
  total=$((total + 1))
  ref=$cases/$name.manual.ref.c
  [ "$name" = test_redblack-separated ] && ref=$cases/test_redblack.manual.ref.c
  more=()
  # A library of Physis functions, linked with a main program in plain C.
  if [ "$name" = test_7-pt.module ]; then
    ref=$cases/test_7-pt.manual.ref.c
    more=("$cases/test_7-pt.module_base.c")
  fi
  if ! "$stencilcc" "$@" "$src" "${more[@]}" -o "$work/$name" > "$work/$name.log" 2>&1; then
    echo "FAIL $name: $(grep -m1 -E 'error' "$work/$name.log" | sed "s|$cases/||")"
    continue
  fi
  if [ -f "$ref" ]; then
    cc -O2 -w -o "$work/$name.ref" "$ref" -lm || { echo "FAIL $name: reference does not build"; continue; }
    "$work/$name.ref" > "$work/$name.expected" 2>/dev/null
    if ! timeout 300 ${PHYSIS_RUN:-} "$work/$name" > "$work/$name.out" 2> "$work/$name.err"; then
      echo "FAIL $name: exit $? ($(head -c 200 "$work/$name.err"))"
    elif cmp -s "$work/$name.out" "$work/$name.expected"; then
      echo "PASS $name (output identical to the reference)"; pass=$((pass + 1))
    else
      echo "FAIL $name: output differs from the reference"
    fi
  elif timeout 300 ${PHYSIS_RUN:-} "$work/$name" > "$work/$name.out" 2> "$work/$name.err"; then
    echo "PASS $name (exit 0)"; pass=$((pass + 1))
  else
    echo "FAIL $name: exit status $? ($(head -c 200 "$work/$name.err"))"
  fi
done
echo "$pass of $total Physis system tests pass"

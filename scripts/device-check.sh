#!/usr/bin/env bash
# Runs the GPU comparison tests on a machine that has the GPU but not the
# compiler (a lent device machine, a cluster's compute node): build the
# executables and plain C's outputs here, run them there, compare here.
#
#   scripts/device-check.sh build DIR [--target=cuda|rocm|vulkan] [--device=NAME]
#   DIR/run.sh OUTDIR            # on the GPU machine: bash, coreutils, grep, awk
#   scripts/device-check.sh check DIR OUTDIR
#   scripts/device-check.sh libs DEST EXECUTABLE...   # their libomp, libvulkan, libmpi
#
# The cases are the compare.sh lines of the Vulkan tests
# (test/Integration/vulkan.test, vulkan-programs.test, gpu-c-semantics.test),
# retargeted, plus larger grids with the device's tuned schedule. `build` copies the shared
# libraries the executables need beyond libc (libomp, libvulkan) into
# DIR/lib; run.sh puts them on LD_LIBRARY_PATH. `check` compares each
# output with plain C's as compare.sh does (compare-outputs.sh) and exits
# non-zero if any case differs, failed to build, or failed to run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tests="$root/test/Integration"
usage() {
  sed -n 's/^#   //p' "${BASH_SOURCE[0]}" >&2
  exit 2
}
[ $# -ge 2 ] || usage
mode=$1 dir=$2
shift 2

# The cases, one per line (cases.txt: id, tolerance option or "-", the
# program's arguments, what it is; tab-separated): compare.sh's arguments with %S and %examples
# expanded and the target replaced by @TARGET@.
cases() {
  grep -h 'compare.sh' "$tests"/vulkan-programs.test "$tests"/vulkan.test \
    "$tests"/gpu-c-semantics.test | grep -e '--target=vulkan' |
    sed -e 's/^# RUN: //' -e 's/^%if vulkan %{ //' -e 's/ *%}$//' \
      -e 's/ *| *FileCheck.*//' -e 's/ 2>\/dev\/null//' \
      -e 's/^%S\/compare.sh //' -e "s|%S|$tests|g" \
      -e "s|%examples|$root/examples|g" -e 's/--target=vulkan/--target=@TARGET@/'
  # Grids of a size a GPU is for, with the device's own schedule. Himeno's
  # gosa, a float sum of 4 million terms, is 1% off in C's serial order
  # (1.6016e-3 at 20 steps; the CPU backend's partial sums give 1.58552e-3,
  # Vulkan's 1.58569e-3), hence the wider tolerance.
  cat <<EOF
--rtol 1e-5 $root/examples/heat2d.c 40 -DN=2000 -- --target=@TARGET@
--rtol 1e-5 $root/examples/heat3d.c 30 -DNX=200 -DNY=150 -DNZ=130 -- --target=@TARGET@
--numdiff 2e-2 $root/examples/himeno.c 20 -DMIMAX=129 -DMJMAX=129 -DMKMAX=257 -- --target=@TARGET@
--rtol 1e-5 $root/examples/jacobi2d.c 30 -DN=3000 -- --target=@TARGET@
--rtol 1e-5 $root/examples/heat3d-2sweep.c 12 -DNX=130 -DNY=100 -DNZ=90 -- --target=@TARGET@
EOF
}

# copy_libs DEST EXECUTABLE...: the shared libraries beyond libc that the
# executables need and a machine without the compiler may lack.
copy_libs() {
  local dest=$1 lib
  shift
  mkdir -p "$dest"
  for lib in $(ldd "$@" 2>/dev/null | awk '/=> \// {print $3}' | sort -u); do
    case $(basename "$lib") in
      libomp.so* | libvulkan.so* | libmpi*.so*) cp -L "$lib" "$dest/" ;;
    esac
  done
}

build() {
  local target=cuda device=
  for arg in "$@"; do
    case $arg in
      --target=*) target=${arg#--target=} ;;
      --device=*) device=${arg#--device=} ;;
      *) usage ;;
    esac
  done
  local stencilcc="$root/build/bin/stencilcc"
  # Only a directory this script made is emptied.
  if [ -e "$dir" ] && [ ! -e "$dir/cases.txt" ]; then
    echo "device-check.sh: $dir exists and is not a build of this script" >&2
    exit 1
  fi
  rm -rf "$dir"
  mkdir -p "$dir/lib"
  local n=0 line
  : > "$dir/cases.txt"
  while IFS= read -r line; do
    n=$((n + 1))
    local id="case$n" tol=() ref='' src steps common=() only=()
    eval "set -- ${line//@TARGET@/$target}"
    while true; do
      case $1 in
        --rtol | --numdiff) tol=("$1" "$2"); shift 2 ;;
        --ref) ref=$2; shift 2 ;;
        *) break ;;
      esac
    done
    src=$1 steps=$2
    shift 2
    while [ $# -gt 0 ]; do
      if [ "$1" = -- ]; then shift; only=("$@"); break; fi
      common+=("$1"); shift
    done
    [ -n "$device" ] && only+=(--device="$device")
    local what="${src#"$root"/} $steps ${common[*]} ${only[*]}"
    printf '%s\t%s\t%s\t%s\n' "$id" "${tol[*]:--}" "$steps" "$what" >> "$dir/cases.txt"
    if ! "$stencilcc" "$src" "${common[@]}" "${only[@]}" -o "$dir/$id" \
        2> "$dir/$id.build.txt" < /dev/null; then
      echo "$id: build failed: $what" >&2
      continue
    fi
    clang -O2 -w "${ref:-$src}" "${common[@]}" -o "$dir/$id.ref" -lm < /dev/null
    # shellcheck disable=SC2086 # steps holds the program's arguments
    "$dir/$id.ref" $steps < /dev/null | grep -v -e '^time ' -e '/s ' > "$dir/$id.ref.txt"
    rm "$dir/$id.ref"
  done < <(cases)
  copy_libs "$dir/lib" "$dir"/case*
  cat > "$dir/run.sh" <<'EOF'
#!/usr/bin/env bash
# Runs every case; writes OUTDIR/caseN.txt (output, timing lines removed)
# and OUTDIR/status.txt (caseN exit-status seconds). A case is stopped
# after $CASE_TIMEOUT seconds (default 120).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
out=${1:?usage: run.sh OUTDIR}
mkdir -p "$out"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
: > "$out/status.txt"
while IFS=$'\t' read -r id tol steps what; do
  [ -x "$here/$id" ] || continue
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  timeout "${CASE_TIMEOUT:-120}" "$here/$id" $steps > "$out/$id.raw" 2>&1 < /dev/null
  rc=$?
  end=$(date +%s.%N)
  grep -v -e '^time ' -e '/s ' "$out/$id.raw" > "$out/$id.txt"
  rm "$out/$id.raw"
  echo "$id $rc $(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.2f", b - a}')" >> "$out/status.txt"
done < "$here/cases.txt"
EOF
  chmod +x "$dir/run.sh"
  echo "$(wc -l < "$dir/cases.txt") cases for --target=$target in $dir ($(du -sh "$dir" | cut -f1))"
}

check() {
  local out=${1:?usage: device-check.sh check DIR OUTDIR}
  local id tol steps what failed=0 passed=0 rc
  if [ ! -e "$out/status.txt" ]; then
    echo "device-check.sh: no $out/status.txt: run $dir/run.sh $out first" >&2
    exit 1
  fi
  while IFS=$'\t' read -r id tol steps what; do
    rc=$(awk -v id="$id" '$1 == id {print $2}' "$out/status.txt")
    if [ ! -e "$dir/$id.ref.txt" ]; then
      echo "FAIL $id (build): $what"; failed=$((failed + 1)); continue
    fi
    if [ -z "$rc" ]; then
      echo "FAIL $id (not run): $what"; failed=$((failed + 1)); continue
    fi
    if [ "$rc" != 0 ]; then
      echo "FAIL $id (exit $rc): $what"; sed 's/^/  /' "$out/$id.txt" | tail -5
      failed=$((failed + 1)); continue
    fi
    [ "$tol" = - ] && tol=
    # shellcheck disable=SC2086 # tol is empty or an option and its value
    if result=$("$tests/compare-outputs.sh" $tol "$dir/$id.ref.txt" "$out/$id.txt" 2>&1); then
      echo "PASS $id: $what: $(echo "$result" | tr '\n' ' ')"
      passed=$((passed + 1))
    else
      echo "FAIL $id: $what"; echo "$result" | sed 's/^/  /' | head -10
      failed=$((failed + 1))
    fi
  done < "$dir/cases.txt"
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}

case $mode in
  build) build "$@" ;;
  libs) copy_libs "$dir" "$@" ;;
  check) check "$@" ;;
  *) usage ;;
esac

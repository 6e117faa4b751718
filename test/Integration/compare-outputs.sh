#!/usr/bin/env bash
# compare-outputs.sh [--rtol R | --numdiff R] REF.txt OUT.txt
# Compares a program's output with plain C's, the timing lines already
# removed (compare.sh, scripts/device-check.sh): identical by default.
# With --rtol R (GPU targets, whose compilers may contract a * b + c into
# one fused operation) checksums may differ by a relative error up to R;
# the largest one is printed before the checksum.
# With --numdiff R every number may differ (reductions, whose order of
# summation is not C's): float values by R, doubles by 1e-9, integers not
# at all (numdiff.py).
# Prints the checksum lines of OUT.txt; exits non-zero on a difference.
set -euo pipefail
rtol=; numdiff=
while true; do
  case $1 in
    --rtol) rtol=$2; shift 2 ;;
    --numdiff) numdiff=$2; shift 2 ;;
    *) break ;;
  esac
done
ref=$1 out=$2
if [ -n "$numdiff" ]; then
  "$(dirname "$0")/numdiff.py" --rtol "$numdiff" "$ref" "$out"
elif [ -z "$rtol" ]; then
  diff "$ref" "$out"
else
  diff <(grep -v checksum "$ref") <(grep -v checksum "$out")
  paste -d ' ' <(grep checksum "$ref") <(grep checksum "$out") |
    awk -v rtol="$rtol" '
      { d = $2 - $4; if (d < 0) d = -d; s = $2 < 0 ? -$2 : $2;
        e = s > 0 ? d / s : d; if (e > max) max = e }
      END { if (NR == 0) { print "no checksum line"; exit 1 }
            if (max > rtol) { printf "relative error %.3g > %s\n", max, rtol; exit 1 }
            printf "max relative error %.3g\n", max }'
fi
grep checksum "$out"

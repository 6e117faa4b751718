#!/usr/bin/env python3
"""numdiff.py --rtol R [--rtol-double D] REF OUT

Compares two program outputs line by line and word by word. Words that are
equal pass. Otherwise both must be numbers: integers (no '.', 'e' or 'inf')
must be equal; floating-point numbers may differ by a relative error up to
D when printed with 15 or more significant digits (doubles), else up to R
(floats). Prints the largest relative error; exits 1 on the first
difference beyond the tolerance, showing both lines.
"""
import argparse
import math
import re
import sys

FLOAT = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[-+]?(inf|nan)$",
                   re.IGNORECASE)


def digits(word):
    mantissa = re.split(r"[eE]", word.lstrip("+-"))[0]
    return len(mantissa.replace(".", "").lstrip("0"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rtol", type=float, required=True)
    parser.add_argument("--rtol-double", type=float, default=1e-9)
    parser.add_argument("ref")
    parser.add_argument("out")
    args = parser.parse_args()
    ref = open(args.ref).read().splitlines()
    out = open(args.out).read().splitlines()
    if len(ref) != len(out):
        print("numdiff: %d lines expected, %d found" % (len(ref), len(out)))
        return 1
    worst = 0.0
    for number, (a, b) in enumerate(zip(ref, out), 1):
        wa, wb = a.split(), b.split()
        ok = len(wa) == len(wb)
        for x, y in zip(wa, wb):
            if not ok or x == y:
                continue
            if not (FLOAT.match(x) and FLOAT.match(y)):
                ok = False
                break
            if not re.search(r"[.eEnN]", x + y):
                ok = False  # integers must be equal
                break
            fx, fy = float(x), float(y)
            scale = max(abs(fx), abs(fy))
            error = abs(fx - fy) / scale if scale > 0 else 0.0
            if math.isnan(error):
                ok = False
                break
            worst = max(worst, error)
            tolerance = args.rtol_double if digits(x) >= 15 else args.rtol
            if error > tolerance:
                ok = False
                break
        if not ok:
            print("numdiff: line %d differs beyond tolerance:" % number)
            print("  expected: " + a)
            print("  found:    " + b)
            return 1
    print("max relative error %.3g" % worst)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Checks what `stencilcc --autotune -v` reported against what it did.

  check-autotune.py [--min-timed N] LOG CACHE [PRINTED]

LOG: its stderr (the tables and summaries); CACHE: the schedules.json it
wrote; PRINTED: optionally, `--schedule=cache --print-schedule` output of a
later compile. For every region: the row marked best is at least as fast as
every row timed three times or more and as the static row; the summary names
that schedule; the cache holds it; a later compile reads it back; with
--min-timed, each region's table has at least N timed rows (the search
tried something besides the static schedule).
"""
import json
import re
import sys


def fail(message):
    sys.exit("check-autotune: " + message)


def keys_of(entry):
    wg = "x".join(str(size) for size in entry["wg"])
    nt = 1 if entry.get("streaming_stores") else 0
    return "wg=%s,t=%d,nt=%d" % (wg, entry["time_block"], nt)


args = sys.argv[1:]
min_timed = 1
if args[:1] == ["--min-timed"]:
    min_timed = int(args[1])
    args = args[2:]
log = open(args[0]).read().splitlines()
tables = {}
summaries = {}
region = None
row = re.compile(r"^  (wg=\S+)\s+([0-9.]+|-)\s+\S+\s+(\d+)\s+\S+\s*"
                 r"(\[(?:static|best|static, best)\])?")
for line in log:
    match = re.match(r"^stencilcc: autotune: region '([^']+)'$", line)
    if match:
        region = match.group(1)
        tables[region] = []
        continue
    match = re.match(r"^stencilcc: autotune: region '([^']+)': (wg=\S+)", line)
    if match:
        summaries[match.group(1)] = match.group(2)
        region = None
        continue
    match = row.match(line)
    if region and match:
        median = None if match.group(2) == "-" else float(match.group(2))
        tables[region].append((match.group(1), median, int(match.group(3)),
                               match.group(4) or ""))

if not tables:
    fail("no table in " + args[0])
cache = json.load(open(args[1]))
cached = {entry["region"]: keys_of(entry) for entry in cache["schedules"]}
printed = {}
if len(args) > 2:
    for line in open(args[2]):
        entry = json.loads(line)
        if entry["source"] != "cache":
            fail("region %s: schedule from %s, not the cache" %
                 (entry["region"], entry["source"]))
        printed[entry["region"]] = keys_of(entry)

for region, rows in tables.items():
    best = [r for r in rows if r[3] in ("[best]", "[static, best]")]
    static = [r for r in rows if r[3] in ("[static]", "[static, best]")]
    timed = [r for r in rows if r[1] is not None]
    if len(timed) < min_timed:
        fail("region %s: %d rows timed, expected at least %d" %
             (region, len(timed), min_timed))
    if len(best) != 1 or len(static) != 1:
        fail("region %s: expected one best and one static row" % region)
    best, static = best[0], static[0]
    for other in rows:
        if other[1] is not None and other[2] >= 3 and other[1] < best[1]:
            fail("region %s: %s (%.3f ms, %d runs) beats the chosen %s "
                 "(%.3f ms)" % (region, other[0], other[1], other[2],
                                best[0], best[1]))
    if best[1] > static[1]:
        fail("region %s: the chosen %s is slower than the static %s" %
             (region, best[0], static[0]))
    if summaries.get(region) != best[0]:
        fail("region %s: the summary names %s, the table %s" %
             (region, summaries.get(region), best[0]))
    if cached.get(region) != best[0]:
        fail("region %s: the cache holds %s, the table chose %s" %
             (region, cached.get(region), best[0]))
    if printed and printed.get(region) != best[0]:
        fail("region %s: --schedule=cache gave %s, the table chose %s" %
             (region, printed.get(region), best[0]))
    print("region %s: %s, %d candidates" % (region, best[0], len(rows)))

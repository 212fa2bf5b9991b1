#!/usr/bin/env python3
"""check.py TRACE < stack records: per thread, the time covered by the
root spans of TRACE (worked out here from the raw JSON, independently of
trace2spans and spans2stacks) must equal both the total_ns of the
one-frame stack records and the sum of all self_ns.  Prints one line per
thread; exits 1 on a mismatch."""
import gzip
import json
import sys
from decimal import Decimal, ROUND_HALF_UP


def ns(us):
    return int((Decimal(us) * 1000).to_integral_value(ROUND_HALF_UP))


def roots(path):
    with gzip.open(path) as f:
        trace = json.load(f, parse_float=Decimal)
    threads = {}
    for e in trace["traceEvents"]:
        if e.get("ph") != "X" or "ProfilerStep#" in e["name"]:
            continue
        s = ns(e["ts"])
        t = s + ns(e["dur"])
        if t > s:
            threads.setdefault("%s/%s" % (e["pid"], e["tid"]), []).append(
                (s, -t))
    out = {}
    for k, spans in threads.items():
        spans.sort()
        total, end = 0, None
        for s, nt in spans:
            if end is None or s >= end:
                total += -nt - s
                end = -nt
        out[k] = total
    return out


want = roots(sys.argv[1])
top, self_ = {}, {}
for line in sys.stdin:
    r = json.loads(line)
    self_[r["thread"]] = self_.get(r["thread"], 0) + r["self_ns"]
    if len(r["stack"]) == 1:
        top[r["thread"]] = top.get(r["thread"], 0) + r["total_ns"]
bad = 0
for k in sorted(set(want) | set(top)):
    ok = want.get(k) == top.get(k) == self_.get(k)
    bad += not ok
    print(k, want.get(k), top.get(k), self_.get(k), "ok" if ok else "MISMATCH")
sys.exit(1 if bad else 0)

#!/usr/bin/env python3
# compare.py: checks for the batch cases, worked out from the records
# themselves (the spans), not from the programs that are being checked.
#
#   compare.py stacks A B          A and B hold the same stack records
#   compare.py top MERGED ONE SPANS...
#                                  MERGED and ONE hold the same statistics,
#                                  and they are the time per run and name of
#                                  SPANS (count, sum, min, max, median of
#                                  end_ns - start_ns; pct of the run's total)
#   compare.py slowest SLOW SPANS...
#                                  the run with the largest total time is SLOW
#   compare.py commands            stdin: make's commands; prints one line
#                                  per command: program and rank or target
import json, re, statistics, sys
from collections import defaultdict


def load(path):
    with open(path) as fp:
        return [json.loads(l) for l in fp if l.strip()]


def same(what, a, b):
    ka = sorted(json.dumps(r, sort_keys=True) for r in a)
    kb = sorted(json.dumps(r, sort_keys=True) for r in b)
    if ka != kb:
        sys.exit("%s: %d and %d records, %d differ" % (
            what, len(ka), len(kb), len(set(ka) ^ set(kb))))
    return len(ka)


def spans_by(paths):
    g = defaultdict(list)
    for p in paths:
        for r in load(p):
            g[(r["run"], r["name"])].append(r["end_ns"] - r["start_ns"])
    return g


def top(merged, one, paths):
    m, o = load(merged), load(one)
    n = same("topn --merge and one topn", m, o)
    g = spans_by(paths)
    tot = defaultdict(int)
    for (run, _), v in g.items():
        tot[run] += sum(v)
    if len(m) != len(g):
        sys.exit("statistics: %d groups, the spans have %d" % (len(m),
                                                             len(g)))
    for r in m:
        v = sorted(g[(r["run"], r["name"])])
        want = {"count": len(v), "sum_ns": sum(v), "min_ns": v[0],
                "max_ns": v[-1], "median_ns": statistics.median(v)}
        for k, x in want.items():
            if r[k] != x:
                sys.exit("%s %s: %s %r, the spans say %r" % (
                    r["run"], r["name"], k, r[k], x))
        if abs(r["pct"] - 100 * sum(v) / tot[r["run"]]) > 1e-9:
            sys.exit("%s %s: pct %r" % (r["run"], r["name"], r["pct"]))
    runs = len(tot)
    print("statistics: %d records, %d runs, as the spans say" % (n, runs))


def slowest(slow, paths):
    tot = defaultdict(int)
    for (run, _), v in spans_by(paths).items():
        tot[run] += sum(v)
    order = sorted(tot, key=lambda r: -tot[r])
    print("slowest run: %s" % ("the planted one" if order[0] == slow else
                               order[0]))


def commands():
    out = []
    for line in sys.stdin:
        w = line.split()
        if not w or not re.match(r"[a-z0-9-]+$", w[0]):
            continue
        rank = re.findall(r"rank\d+", line)
        target = re.search(r"-o ([^\s;]+)", line)
        what = rank[0] if len(set(rank)) == 1 else \
            target.group(1) if target else "?"
        out.append("%s %s" % (w[0], what))
    for l in sorted(out):
        print("  " + l)


cmd = sys.argv[1]
if cmd == "stacks":
    print("stack records: %d, equal" % same("stacks", load(sys.argv[2]),
                                            load(sys.argv[3])))
elif cmd == "top":
    top(sys.argv[2], sys.argv[3], sys.argv[4:])
elif cmd == "slowest":
    slowest(sys.argv[2], sys.argv[3:])
elif cmd == "commands":
    commands()

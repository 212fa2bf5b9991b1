#!/usr/bin/env python3
"""check_pair.py BASE NEW DIFF: checks recdiff's output DIFF against the
two metric-eval outputs BASE and NEW, joined here independently of
recdiff.

Metric records are joined on (table_id, metric, Channel, dtype,
Kernel_Name, normalization).  For every joined key DIFF must hold one record whose
every evaluated column F has F_base = the base's value and F = the new
value, and for two numbers F_delta = F - F_base and
F_pct = 100 * (F - F_base) / |F_base| (null when a side is blank or both
are 0, "inf"/"-inf" for a zero base), compared exactly (the same IEEE
double arithmetic); keys on one side only must be "only" rows.  Prints one
summary line, and each wrong cell; exits 1 if any.
"""
import json
import math
import sys

IDENT = {"panel_id", "panel", "table_id", "table", "metric_id", "metric",
         "normalization", "Channel", "dtype", "Kernel_Name", "run",
         "Description", "label"}


def key(r):
    return (r["table_id"], r["metric"], r.get("Channel"), r.get("dtype"),
            r.get("Kernel_Name"), r.get("normalization"))


def load(path):
    out = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                out[key(r)] = r
    return out


def num(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if v in ("inf", "-inf", "nan"):
        return float(v)
    return None


def enc(x):
    """A double as the records write it."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def same(want, got):
    if isinstance(want, float) and isinstance(got, (int, float)) and \
            not isinstance(got, bool):
        return want == float(got)
    return want == got


def expect(b, n):
    """F_delta and F_pct for base value b and new value n."""
    nb, nn = num(b), num(n)
    if nb is None or nn is None:
        return None, None
    if isinstance(b, int) and isinstance(n, int) and \
            not isinstance(b, bool) and not isinstance(n, bool):
        delta = n - b
    else:
        delta = enc(nn - nb)
    if nb == 0 and nn == 0:
        pct = None
    elif nb == 0:
        pct = "nan" if math.isnan(nn) else ("inf" if nn > 0 else "-inf")
    else:
        pct = enc(100 * (nn - nb) / abs(nb))
    return delta, pct


def main():
    base, new = load(sys.argv[1]), load(sys.argv[2])
    got = {}
    for line in open(sys.argv[3]):
        r = json.loads(line)
        k = key(r)
        if k in got:
            print("duplicate record", k)
            sys.exit(1)
        got[k] = r
    bad = cells = 0
    only = {"base": 0, "new": 0}
    for k in set(base) | set(new):
        d = got.get(k)
        if d is None:
            print("no record for", k)
            bad += 1
            continue
        b, n = base.get(k), new.get(k)
        if b is None or n is None:
            side = "new" if b is None else "base"
            only[side] += 1
            if d.get("only") != side:
                print(k, "want only", side, "got", d.get("only"))
                bad += 1
            continue
        for f in set(b) | set(n):
            if f in IDENT:
                continue
            bv, nv = b.get(f), n.get(f)
            if num(bv) is None and num(nv) is None and bv == nv and \
                    bv is not None:
                want = {f: nv}
            else:
                delta, pct = expect(bv, nv)
                want = {f: nv, f + "_base": bv}
                if num(bv) is not None or bv is None:
                    if num(nv) is not None or nv is None:
                        want[f + "_delta"] = delta
                        want[f + "_pct"] = pct
            for wk, wv in want.items():
                cells += 1
                if wk not in d or not same(wv, d[wk]):
                    print(k, wk, "want", json.dumps(wv), "got",
                          json.dumps(d.get(wk, "(absent)")))
                    bad += 1
    extra = set(got) - set(base) - set(new)
    for k in extra:
        print("record for a key in neither input", k)
        bad += 1
    print("%d keys, %d cells checked, %d only in base, %d only in new, "
          "%d wrong" % (len(set(base) | set(new)), cells, only["base"],
                        only["new"], bad))
    sys.exit(1 if bad else 0)


main()

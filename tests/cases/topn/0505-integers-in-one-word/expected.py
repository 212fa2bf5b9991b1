#!/usr/bin/env python3
# expected.py: the expout of this case, independent of topn: in.nd's
# values by group, read by Python (integers exact, other numbers as
# doubles): exact sums, the mean rounded once, the median n or n.5; the
# float group f: a Kahan sum in input order, as topn(1) documents; pct:
# sum / total * 100, the total added in key order.
import json
from fractions import Fraction

groups = {}
for line in open("in.nd"):
    r = json.loads(line)
    if "k" in r and not isinstance(r["v"], str):
        groups.setdefault(r["k"], []).append(r["v"])


def fmt(v):
    r = repr(float(v))
    return r[:-2] if r.endswith('.0') else r


def stats(vals):
    if any(isinstance(x, float) for x in vals):
        s = c = 0.0
        for x in map(float, vals):
            y = x - c
            t = s + y
            c = (t - s) - y
            s = t
        o = sorted(map(float, vals))
        h = len(o) // 2
        med = o[h] if len(o) % 2 else (o[h - 1] + o[h]) / 2
        return (s, fmt(s), fmt(s / len(vals)), fmt(med), fmt(o[0]),
                fmt(o[-1]))
    s = sum(vals)
    o = sorted(vals)
    h = len(o) // 2
    m2 = 2 * o[h] if len(o) % 2 else o[h - 1] + o[h]
    med = str(m2 // 2) if m2 % 2 == 0 else '%d.5' % (m2 // 2)
    return (float(s), str(s), fmt(float(Fraction(s, len(vals)))), med,
            str(o[0]), str(o[-1]))


st = {k: stats(v) for k, v in groups.items()}
total = 0.0
for k in sorted(st):
    total += st[k][0]
for k in sorted(st, key=lambda k: -st[k][0]):
    s = st[k]
    print('{"k":"%s","count":%d,"sum":%s,"mean":%s,"median":%s,"min":%s,'
          '"max":%s,"pct":%s}' % (k, len(groups[k]), s[1], s[2], s[3], s[4],
                                  s[5], fmt(s[0] / total * 100)))

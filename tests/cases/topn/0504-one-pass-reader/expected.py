#!/usr/bin/env python3
# expected.py: the expout (and with "err", the experr) of this case,
# independent of topn: the records gen.awk writes, made again here, in
# groups by name.  Integer groups: exact sums, the mean rounded once, the
# median n or n.5; the float group (n1, which has values x.5): a Kahan
# sum in input order as topn(1) documents, the mean, the median as the
# mean of the two middle values; pct: sum / total * 100, the total added
# in key order.  Every 1000th record is malformed ("12x").
import sys
from fractions import Fraction

groups = {}
bad = []
for i in range(30000):
    v = (i * 7919) % 100003
    n = "n%d" % (i % 3)
    if i % 1000 == 999:
        line = '{"name":"%s","cat":"c","dur_ns":12x}' % n
        bad.append('topn: <stdin>:%d: expected \',\' or \'}\' at column %d'
                   % (i + 1, line.index("x") + 1))
        continue
    if i % 15 == 5 or i % 5 == 0:
        x = v
    elif i % 7 == 3:
        x = -v
    elif i % 11 == 4 and i % 3 == 1:
        x = v + 0.5
    else:
        x = v
    groups.setdefault(n, []).append(x)


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


if sys.argv[1:] == ["err"]:
    print('\n'.join(bad[:10]))
    print('topn: skipped %d bad records' % len(bad))
    sys.exit(0)
st = {k: stats(v) for k, v in groups.items()}
total = 0.0
for k in sorted(st):
    total += st[k][0]
for k in sorted(st, key=lambda k: -st[k][0]):
    s = st[k]
    print('{"name":"%s","count":%d,"sum_ns":%s,"mean_ns":%s,"median_ns":%s,'
          '"min_ns":%s,"max_ns":%s,"pct":%s}' % (k, len(groups[k]), s[1],
                                                 s[2], s[3], s[4], s[5],
                                                 fmt(s[0] / total * 100)))

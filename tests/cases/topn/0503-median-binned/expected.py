#!/usr/bin/env python3
# expected.py: the expout of this case, independent of topn: the three
# groups the awk program of cmd makes, by Python's statistics module and
# plain integer sums (pct: sum / total * 100, the total in key order).
from statistics import median
g = {
    "a": [(i * 7919) % 20000 for i in range(20000)],
    "b": [(i * 7919) % 20001 for i in range(20001)],
    "c": [5 if i % 3 else (i * 7919) % 30000 - 15000 for i in range(30000)],
}
total = 0.0
for k in sorted(g):
    total += float(sum(g[k]))


def num(x):
    return str(int(x)) if float(x).is_integer() else repr(float(x))


for k in sorted(g, key=lambda k: -sum(g[k])):
    v = g[k]
    print('{"k":"%s","count":%d,"sum":%d,"mean":%s,"median":%s,"min":%d,'
          '"max":%d,"pct":%s}' % (k, len(v), sum(v), num(sum(v) / len(v)),
                                  num(median(v)), min(v), max(v),
                                  num(float(sum(v)) / total * 100)))

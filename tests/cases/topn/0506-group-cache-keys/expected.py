#!/usr/bin/env python3
# expected.py: the expout of this case, independent of topn: the records
# of cmd's awk program (40 names of 16 bytes that end alike, in 20 runs,
# twice each), counted and summed by run and name; each run's groups by
# sum, then name, as topn(1) orders them; count and sum only.
g = {}
for rep in range(2):
    for r in range(20):
        for n in range(40):
            k = ("r%d" % r, "%08dabcdefgh" % (n * 7919))
            g.setdefault(k, []).append(n + r + rep)
for r in range(20):
    ks = [k for k in g if k[0] == "r%d" % r]
    for k in sorted(ks, key=lambda k: (-sum(g[k]), k[1])):
        print('{"run":"%s","name":"%s","count":%d,"sum_ns":%d}'
              % (k[0], k[1], len(g[k]), sum(g[k])))

#!/usr/bin/env python3
# expected.py: the expout (and with "err", the experr) of this case,
# independent of topn: the records gen.awk writes, made again here, in
# groups by name.  Integer groups: exact sums, the mean rounded once, the
# median n or n.5; the float group (n1, which has values x.5): a Kahan
# sum in input order as topn(1) documents, the mean, the median as the
# mean of the two middle values; pct: sum / total * 100, the total added
# in key order.  Every 1000th record is malformed ("12x").
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from groups import table  # noqa: E402

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


if sys.argv[1:] == ["err"]:
    print('\n'.join(bad[:10]))
    print('topn: skipped %d bad records' % len(bad))
    sys.exit(0)
table(groups, "name", "_ns")

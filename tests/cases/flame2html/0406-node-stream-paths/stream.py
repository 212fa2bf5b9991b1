# stream.py: a folded input made here (seeded) that reaches each way the
# page writes a node: chains whose names rank past 2^15 (4 digits) and
# 2^10, totals past 2^15 and 2^32 that change down a chain, climbs of 15
# levels and more, and nodes that repeat the total before them.  The
# page's node stream, decoded, must be the call tree worked out here:
# the children of a node by total, heaviest first, ties in the order
# first seen, written depth first.
import os
import random
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from tree import check_order, page_order, written_order  # noqa: E402

r = random.Random(406)
lines = []
# 34,000 heads under c, each with a chain of two names of its own below:
# their names are the rarest (one node each), so they rank last, past
# 2^15.  Some chains change total on the way down, by a little or past
# 2^15.
for i in range(34000):
    k = r.random()
    lines.append('c;x%d;z%d;y%d %d' % (i, i, i % 3, r.choice([1, 1, 2, 3])))
    if k < 0.2:
        lines.append('c;x%d %d' % (i, r.choice([1, 40000, 2**20 + 7])))
    elif k < 0.3:
        lines.append('c;x%d;z%d %d' % (i, i, r.choice([32767, 32768, 99])))
# Totals past 2^32 down one chain, and two of exactly 2^32 - 1.
lines += ['s;s1;s2;s3 4294967295', 's;s1;s2 5000000000', 's;s1 1',
          's;s1;s2;s3;s4 4294967295', 's;t1;t2 4294967296']
# Deep chains and climbs of 1 to 40 levels.
for d in (3, 14, 15, 16, 17, 40):
    lines.append(';'.join(['deep'] + ['d%d' % j for j in range(d)]) + ' 5')
    lines.append(';'.join(['deep'] + ['d%d' % j for j in range(d // 2)] +
                          ['e%d' % d]) + ' 2')
r.shuffle(lines)
# A node of total 2^32 - 1, then one of 2^32 written after it, a level
# up (names of few digits: the common ones).
lines += ['y0;y1;y2 4294967295', 'y0;y1 1', 'y0;y0 4294967296']


order = written_order(lines)
got, tab = page_order(lines)

# What the input reaches, from the tree worked out here.
climbs = max(a[0] - b[0] + 1 for a, b in zip(order, order[1:]))
print('%d nodes, %d names, totals up to 2^%d, climbs up to %d' % (
    len(order), len(tab), max(t for _, _, t in order).bit_length(), climbs))
check_order(order, got)

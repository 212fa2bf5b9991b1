# order.py: a folded input of some 6,000 lines made here (seeded), with
# wide groups (more than 24 children), ties in the totals, totals past
# 2^32 and tens of thousands of nodes, through flame2html; the page's
# node stream, decoded, must be the call tree worked out here: the
# children of a node by total, heaviest first, ties in the order first
# seen, written depth first.
import os
import random
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from tree import check_order, page_order, written_order  # noqa: E402

r = random.Random(404)
names = ['f%d' % i for i in range(300)]


def count():
    k = r.random()
    if k < 0.6:
        return 1
    if k < 0.9:
        return r.randint(2, 4)
    return r.choice([2**32 - 1, 2**32, 2**32 + 1, 3 * 2**32,
                     r.randint(2**32, 2**34)])


lines, stacks = [], []
for i in range(6000):
    if stacks and r.random() < 0.85:
        base = r.choice(stacks)
        st = base[:r.randint(0, len(base))]
    else:
        st = []
    while len(st) < r.randint(1, 14):
        st.append(r.choice(names[:12] if len(st) < 2 else names))
    stacks.append(st)
    lines.append('%s %d' % (';'.join(st), count()))
# A wide group: 40 children of one node, many of the same total, some
# before and some after its first child is made.
for i in range(40):
    lines.append('w0;wide;k%d %d' % (i, r.choice([5, 5, 5, 7, 2**32 + 5])))
    if i == 10:
        lines.append('w0;wide;k10;deep;er 1')
# A first child that ties with later children of its parent.
lines += ['t0;first 3', 't0;second 3', 't0;third 2;x 1', 't0;fourth 3']
r.shuffle(lines)


order = written_order(lines)
got, tab = page_order(lines)

wide = sum(1 for d, nm, t in order if nm == 'wide')
print('%d nodes, %d of them named wide' % (len(order), wide))
check_order(order, got)

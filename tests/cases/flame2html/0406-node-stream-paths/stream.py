# stream.py: a folded input made here (seeded) that reaches each way the
# page writes a node: chains whose names rank past 2^15 (4 digits) and
# 2^10, totals past 2^15 and 2^32 that change down a chain, climbs of 15
# levels and more, and nodes that repeat the total before them.  The
# page's node stream, decoded, must be the call tree worked out here:
# the children of a node by total, heaviest first, ties in the order
# first seen, written depth first.
import json
import os
import random
import re
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from tree import vlq  # noqa: E402

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


class Node:
    __slots__ = ('name', 'id', 'kids', 'self', 'total')

    def __init__(self, name, nid):
        self.name, self.id, self.kids, self.self = name, nid, {}, 0


root = Node('', 0)
nodes = 1
for line in lines:
    stack, c = line.rsplit(' ', 1)
    n = root
    for fr in stack.split(';'):
        if fr not in n.kids:
            n.kids[fr] = Node(fr, nodes)
            nodes += 1
        n = n.kids[fr]
    n.self += int(c)

order = []
todo = [(root, 0, False)]
while todo:			# totals, children before parents
    n, d, done = todo.pop()
    if done:
        n.total = n.self + sum(k.total for k in n.kids.values())
        continue
    todo.append((n, d, True))
    todo.extend((k, d + 1, False) for k in n.kids.values())
todo = [(root, 0)]
while todo:			# depth first, heaviest child first
    n, d = todo.pop()
    order.append((d, n.name, n.total))
    kids = sorted(n.kids.values(), key=lambda k: (-k.total, k.id))
    todo.extend((k, d + 1) for k in reversed(kids))

page = subprocess.run(['flame2html'], input='\n'.join(lines) + '\n',
                      capture_output=True, text=True, check=True).stdout
tab = json.loads(re.search(r'id="fg-names">(.*?)</script>', page).group(1))
digits = re.search(r'data-tree="0">([?-~]*)</script>', page).group(1)

got, i, depth, total = [], 0, -1, None
while i < len(digits):
    h = ord(digits[i]) - 63
    i += 1
    up = h >> 2
    if up == 15:
        x, i = vlq(digits, i)
        up += x
    nm, i = vlq(digits, i)
    if not h & 1:
        total, i = vlq(digits, i)
    depth = depth + 1 - up
    got.append((depth, tab[nm], total))

# What the input reaches, from the tree worked out here.
climbs = max(a[0] - b[0] + 1 for a, b in zip(order, order[1:]))
print('%d nodes, %d names, totals up to 2^%d, climbs up to %d' % (
    len(order), len(tab), max(t for _, _, t in order).bit_length(), climbs))
for k, (a, b) in enumerate(zip(order, got)):
    if a != b:
        print('node %d: want %s, got %s' % (k, a, b))
        sys.exit(1)
if len(order) != len(got):
    print('want %d nodes, got %d' % (len(order), len(got)))
    sys.exit(1)
print('same tree, same order')

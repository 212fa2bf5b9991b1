# order.py: a folded input of some 6,000 lines made here (seeded), with
# wide groups (more than 24 children), ties in the totals, totals past
# 2^32 and tens of thousands of nodes, through flame2html; the page's
# node stream, decoded, must be the call tree worked out here: the
# children of a node by total, heaviest first, ties in the order first
# seen, written depth first.
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

wide = sum(1 for d, nm, t in order if nm == 'wide')
print('%d nodes, %d of them named wide' % (len(order), wide))
for k, (a, b) in enumerate(zip(order, got)):
    if a != b:
        print('node %d: want %s, got %s' % (k, a, b))
        sys.exit(1)
if len(order) != len(got):
    print('want %d nodes, got %d' % (len(order), len(got)))
    sys.exit(1)
print('same tree, same order')

#!/usr/bin/env python3
"""tree.py: the merged call tree of flame2html, two ways, for the cases.

  tree.py page < page.html   the tree a page holds (docs/formats.md)
  tree.py fold FILE ...      the tree the inputs make, worked out here
  tree.py names < page.html  the page's names table: how many, then each

As a module, written_order() and page_order() give the tree in the
order the page writes it (the children of a node by total, heaviest
first, ties in the order first seen, depth first), worked out from
folded lines and decoded from a page, and check_order() compares them.

Both print one line per call path with a self weight other than 0:
tree number, the path's frames as a JSON array, the self weight, sorted.
fold reads folded lines (frames;... count) and stack records with
"stack", "self_ns" and an optional "thread": records with a thread go
under it in tree 0 and, without it, in tree 1 (all threads merged).
"""
import json
import re
import subprocess
import sys


def vlq(s, i):
    """The base-32 number at s[i] (docs/formats.md): it and where it ends."""
    v = sh = 0
    while True:
        d = ord(s[i]) - 63
        i += 1
        v |= (d & 31) << sh
        sh += 5
        if not d & 32:
            return v, i


class _Node:
    __slots__ = ('name', 'id', 'kids', 'self', 'total')

    def __init__(self, name, nid):
        self.name, self.id, self.kids, self.self = name, nid, {}, 0


def written_order(lines):
    """(depth, name, total) of each node of the folded lines' tree, in
    the order the page writes them."""
    root = _Node('', 0)
    nodes = 1
    for line in lines:
        stack, c = line.rsplit(' ', 1)
        n = root
        for fr in stack.split(';'):
            if fr not in n.kids:
                n.kids[fr] = _Node(fr, nodes)
                nodes += 1
            n = n.kids[fr]
        n.self += int(c)
    todo = [(root, 0, False)]
    while todo:         # totals, children before parents
        n, d, done = todo.pop()
        if done:
            n.total = n.self + sum(k.total for k in n.kids.values())
            continue
        todo.append((n, d, True))
        todo.extend((k, d + 1, False) for k in n.kids.values())
    order = []
    todo = [(root, 0)]
    while todo:         # depth first, heaviest child first
        n, d = todo.pop()
        order.append((d, n.name, n.total))
        kids = sorted(n.kids.values(), key=lambda k: (-k.total, k.id))
        todo.extend((k, d + 1) for k in reversed(kids))
    return order


def page_order(lines):
    """flame2html's page of the folded lines: (depth, name, total) of
    each node of tree 0 as its node stream has them, and the names
    table."""
    page = subprocess.run(['flame2html'], input='\n'.join(lines) + '\n',
                          capture_output=True, text=True, check=True).stdout
    tab = json.loads(re.search(r'id="fg-names">(.*?)</script>',
                               page).group(1))
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
    return got, tab


def check_order(order, got):
    """Exits 1 at the first node where the two differ."""
    for k, (a, b) in enumerate(zip(order, got)):
        if a != b:
            print('node %d: want %s, got %s' % (k, a, b))
            sys.exit(1)
    if len(order) != len(got):
        print('want %d nodes, got %d' % (len(order), len(got)))
        sys.exit(1)
    print('same tree, same order')


def page():
    html = sys.stdin.read()
    names = json.loads(re.search(r'id="fg-names">(.*?)</script>',
                                 html).group(1))
    meta = json.loads(re.search(r'id="fg-meta">(.*?)</script>', html).group(1))
    parts = {}
    for m in re.finditer(r'<script type="text/x-flame-nodes" class="fg-nodes" '
                         r'data-tree="(\d+)">([^<]*)</script>', html):
        parts.setdefault(int(m.group(1)), []).append(m.group(2))
    out = []
    for t in sorted(parts):
        s = "".join(parts[t])
        pos = 0

        def next_vlq():
            nonlocal pos
            v, pos = vlq(s, pos)
            return v
        stack = []          # [name, total, children's total]
        prev_total, depth = None, -1

        def pop():
            name, total, kids = stack.pop()
            if total != kids:
                path = [n for n, _, _ in stack[1:]] + ([name] if stack else [])
                out.append((t, json.dumps(path), total - kids))
            if stack:
                stack[-1][2] += total
        while pos < len(s):
            h = ord(s[pos]) - 63
            pos += 1
            up = h >> 2
            if up == 15:
                up += next_vlq()
            depth = depth + 1 - up
            name = names[next_vlq()]
            total = prev_total if h & 1 else next_vlq()
            if meta["diff"] and not h & 2:
                next_vlq()
            if meta["calls"]:
                next_vlq()
            while len(stack) > depth:
                pop()
            stack.append([name, total, 0])
            prev_total = total
        while stack:
            pop()
    return out


def fold(files):
    w = {}
    for fn in files:
        for line in open(fn, encoding="utf-8"):
            line = line.rstrip("\n")
            if not line.strip():
                continue
            if line.lstrip().startswith("{"):
                r = json.loads(line)
                trees = [(0, [r["thread"]] + r["stack"]), (1, r["stack"])] \
                    if "thread" in r else [(0, r["stack"])]
                for t, st in trees:
                    key = (t, json.dumps(st))
                    w[key] = w.get(key, 0) + r["self_ns"]
            else:
                stack, count = line.rsplit(None, 1)
                stack = stack.rstrip()
                key = (0, json.dumps(stack.split(";") if stack else []))
                w[key] = w.get(key, 0) + int(count)
    return [(t, p, v) for (t, p), v in w.items() if v != 0]


def names():
    html = sys.stdin.read()
    table = json.loads(re.search(r'id="fg-names">(.*?)</script>',
                                 html).group(1))
    print(len(table))
    for n in sorted(table):
        print(json.dumps(n))


def main():
    if sys.argv[1] == "names":
        names()
        return
    rows = page() if sys.argv[1] == "page" else fold(sys.argv[2:])
    for t, p, v in sorted(rows):
        print("%d\t%s\t%d" % (t, p, v))


if __name__ == "__main__":
    main()

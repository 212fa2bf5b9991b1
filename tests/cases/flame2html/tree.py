#!/usr/bin/env python3
"""tree.py: the merged call tree of flame2html, two ways, for the cases.

  tree.py page < page.html   the tree a page holds (docs/formats.md)
  tree.py fold FILE ...      the tree the inputs make, worked out here
  tree.py names < page.html  the page's names table: how many, then each

Both print one line per call path with a self weight other than 0:
tree number, the path's frames as a JSON array, the self weight, sorted.
fold reads folded lines (frames;... count) and stack records with
"stack", "self_ns" and an optional "thread": records with a thread go
under it in tree 0 and, without it, in tree 1 (all threads merged).
"""
import json
import re
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

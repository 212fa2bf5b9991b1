#!/usr/bin/env python3
# check.py: many per-rank products merged through --files-from give the
# records of one run over everything.  The spans are generated here from
# random call trees, so the expected stack records (self, total, calls per
# thread and path) and statistics (count, sum, mean, median, min, max, pct
# per name) are known from the trees, without spans2stacks or topn.
import json, os, random, statistics, subprocess, sys, tempfile

RANKS, REPEAT = 100, 100          # the merge list names 10,000 paths
NAMES = ["fwd", "bwd", "aten::mm", "aten::add", "allreduce", "opt;step"]
rng = random.Random(18)
stacks = {}                       # (thread, path) -> [self, total, calls]
durs = {}                         # name -> [durations]


def tree(th, path, start, budget, depth, out):
    """Spans of one call tree; returns the duration used."""
    name = rng.choice(NAMES)
    dur = rng.randint(max(1, budget // 2), max(1, budget))
    p = path + (name,)
    child, t = 0, start + rng.randint(0, 3)
    while depth < 4 and rng.random() < 0.6:
        room = start + dur - t
        if room < 4:
            break
        d = tree(th, p, t, rng.randint(1, room // 2), depth + 1, out)
        child += d
        t += d + rng.randint(0, 3)
    e = stacks.setdefault((th, p), [0, 0, 0])
    e[0] += dur - child
    e[1] += dur
    e[2] += 1
    durs.setdefault(name, []).append(dur)
    out.append((th, name, start, start + dur))
    return dur


def run(args, stdin=None):
    r = subprocess.run(args, input=stdin, capture_output=True, text=True)
    if r.returncode != 0 or r.stderr:
        sys.exit("%s: exit %d: %s" % (args[0], r.returncode, r.stderr))
    return r.stdout


def norm(r):
    """Numbers as floats: topn writes 180 where Python has 180.0."""
    return {k: float(v) if type(v) in (int, float) else v
            for k, v in r.items()}


def records(text):
    return sorted(json.dumps(norm(json.loads(l)), sort_keys=True)
                  for l in text.splitlines())


def want_stacks(times):
    out = []
    for (th, p), (s, t, c) in stacks.items():
        out.append({"thread": th, "stack": list(p), "self_ns": s * times,
                    "total_ns": t * times, "calls": c * times, "cat": "op"})
    return sorted(json.dumps(norm(r), sort_keys=True) for r in out)


def want_top():
    sums = {n: sum(v) for n, v in durs.items()}
    total = sum(sums[n] for n in sorted(sums))   # under 8 groups: in order
    out = []
    for n, v in durs.items():
        out.append({"name": n, "count": len(v), "sum_ns": sums[n],
                    "mean_ns": sums[n] / len(v),
                    "median_ns": statistics.median(v),
                    "min_ns": min(v), "max_ns": max(v),
                    "pct": sums[n] / total * 100})
    return sorted(json.dumps(norm(r), sort_keys=True) for r in out)


d = tempfile.mkdtemp(prefix="merge-many.")
nd, st, tp = [], [], []
for rank in range(RANKS):
    spans = []
    # Two threads every rank shares, one of the rank's own.
    for th in ("7/1", "7/2", "%d/%d" % (1000 + rank, 1)):
        t = 0
        for _ in range(rng.randint(1, 4)):
            t += tree(th, (), t, rng.randint(50, 5000), 1, spans) + 5
    rng.shuffle(spans)
    f = os.path.join(d, "rank%03d" % rank)
    with open(f + ".nd", "w") as fp:
        for th, name, s, e in spans:
            pid, tid = th.split("/")
            fp.write(json.dumps({"pid": int(pid), "tid": int(tid),
                                 "name": name, "cat": "op", "start_ns": s,
                                 "end_ns": e, "dur_ns": e - s}) + "\n")
    run(["spans2stacks", "-q", "-o", f + ".stacks", f + ".nd"])
    run(["topn", "--partial", "-k", "name", "-o", f + ".top", f + ".nd"])
    nd.append(f + ".nd")
    st.append(f + ".stacks")
    tp.append(f + ".top")
with open(os.path.join(d, "list"), "w") as fp:
    for _ in range(REPEAT):
        fp.write("\n".join(st) + "\n")

one = records(run(["spans2stacks", "-q"] + nd))
print("one run over %d files: %d stack records, %s" % (
    RANKS, len(one), "as the trees say" if one == want_stacks(1) else
    "WRONG"))
merged = records(run(["spans2stacks", "-m", "-q", "--files-from",
                      os.path.join(d, "list")]))
print("-m over a list of %d paths: %s" % (
    RANKS * REPEAT, "as the trees say x%d" % REPEAT
    if merged == want_stacks(REPEAT) else "WRONG"))
merged = records(run(["spans2stacks", "-m", "-q", "--files-from", "-",
                      st[0]], "\n".join(st[1:]) + "\n"))
print("-m over one file and a list on stdin: %s" % (
    "equal to the one run" if merged == one else "WRONG"))
top = records(run(["topn", "-n", "0", "-k", "name"] + nd))
print("topn over %d files: %d groups, %s" % (
    RANKS, len(top), "as the trees say" if top == want_top() else "WRONG"))
merged = records(run(["topn", "--merge", "-n", "0", "--files-from", "-"],
                     "\n".join(tp) + "\n"))
print("topn --merge over a list on stdin: %s" % (
    "as the trees say" if merged == want_top() else "WRONG"))
for f in nd + st + tp + [os.path.join(d, "list")]:
    os.remove(f)
os.rmdir(d)

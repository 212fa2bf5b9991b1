#!/usr/bin/env python3
"""compare.py [--python-events] TRACE EXPORT_STACKS < folded: checks
spans2stacks --folded against torch.profiler's export_stacks for the same
trace.

export_stacks (torch/autograd/profiler_util.py, EventList.export_stacks)
writes, for every CPU op event with a python stack and int(self time) > 0,
one line: the python frames above the op (outermost first, each with ' ',
';', tab and newline turned into '_'), a space and the op's
self_cpu_time_total in microseconds.  The op itself is not a frame: its
self time lands on the python frame that called it.  The python stack of
an op is its python_function ancestors (KinetoEvent's python_stack_); ops
with none (the autograd thread) and CUDA runtime calls (which are CPU
children of the op, so they do reduce its self time) have no line.

Newer torch versions make function events of the python_function events
too (FunctionEvent.is_python_function): each then has a line of its own,
its python ancestors with its self time (its duration minus its python
and op children).  --python-events compares with that behaviour.

EXPORT_STACKS is that file, worked out by hand for TRACE.  From the folded
stacks this takes the lines whose leaf is a cpu_op (and, with
--python-events, a python_function), keeps the python_function frames
above the leaf, and sums the self time per python stack.  The frame
categories come from TRACE itself.  Prints one line per stack with both
sums in nanoseconds; exits 1 if any differ."""
import json
import sys
from collections import defaultdict

args = sys.argv[1:]
leaves = {"cpu_op"}
if args[0] == "--python-events":
    leaves.add("python_function")
    args = args[1:]
trace, theirs_path = args
with open(trace) as f:
    cats = {e["name"]: e.get("cat") for e in json.load(f)["traceEvents"]
            if "name" in e}
tr = str.maketrans(" ;\t\n", "____")
ours = defaultdict(int)
for line in sys.stdin:
    path, n = line.rstrip("\n").rsplit(" ", 1)
    frames = path.split(";")[1:]          # the first frame is the thread
    if cats.get(frames[-1]) not in leaves:
        continue
    py = []
    for fr in frames[:-1]:
        if cats.get(fr) != "python_function":
            break
        py.append(fr.translate(tr))
    if py:
        ours[";".join(py)] += int(n)
theirs = defaultdict(int)
with open(theirs_path) as f:
    for line in f:
        path, n = line.rstrip("\n").rsplit(" ", 1)
        theirs[path] += int(n) * 1000
bad = 0
for k in sorted(set(ours) | set(theirs)):
    same = ours.get(k) == theirs.get(k)
    bad += not same
    print(k, theirs.get(k), ours.get(k), "same" if same else "DIFFERENT")
sys.exit(1 if bad else 0)

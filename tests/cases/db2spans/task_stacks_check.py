"""Checks that device tasks are drawn flat: each at depth 1 of its lane.

Reads stack records (spans2stacks' output for db2spans --tables task) on
stdin and the Ascend DBs named as arguments.  From the DBs alone, with
python's sqlite3, it works out what the stacks must be when tasks do not
call each other: one thread per device and stream ("npu:<deviceId>/
<streamId>"), one stack of one frame per task name (COMPUTE_TASK_INFO's
name by globalTaskId, else the task type, else "unknown"), calls the
number of tasks with end > start, total and self their summed durations.
Prints per lane the number of tasks and stacks and the deepest stack
written, then whether the two sets of stack records agree.
"""
import collections
import json
import sqlite3
import sys


def expected(path, want):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    names = dict(db.execute("SELECT id, value FROM STRING_IDS"))
    info = {}
    for gt, n in db.execute("SELECT globalTaskId, name FROM COMPUTE_TASK_INFO "
                            "ORDER BY rowid"):
        info.setdefault(gt, n)
    for s, e, d, st, gt, tt in db.execute(
            "SELECT startNs, endNs, deviceId, streamId, globalTaskId, "
            "taskType FROM TASK"):
        s, e = int(s), int(e)
        if e <= s:
            continue
        name = names.get(info.get(gt)) or names.get(tt) or "unknown"
        k = ("npu:%d/%d" % (d, st), name)
        w = want.setdefault(k, [0, 0])
        w[0] += 1
        w[1] += e - s


def main():
    want = {}
    for path in sys.argv[1:]:
        expected(path, want)
    got = {}
    deepest = collections.Counter()
    for line in sys.stdin:
        r = json.loads(line)
        th = r["thread"]
        deepest[th] = max(deepest[th], len(r["stack"]))
        if len(r["stack"]) != 1 or r["self_ns"] != r["total_ns"]:
            got[(th, tuple(r["stack"]))] = None
            continue
        got[(th, r["stack"][0])] = [r["calls"], r["total_ns"]]
    lanes = collections.defaultdict(lambda: [0, 0])
    for (th, _), (calls, _) in want.items():
        lanes[th][0] += calls
        lanes[th][1] += 1
    for th in sorted(lanes):
        print("%s: %d tasks, %d stacks, deepest written %d" % (
            th, lanes[th][0], lanes[th][1], deepest[th]))
    print("stacks: %d expected, %d written, %s" % (
        len(want), len(got), "equal" if want == got else "DIFFERENT"))


main()

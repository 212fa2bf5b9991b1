"""Checks db2spans --tables cann,task on Ascend DBs against the DBs themselves.

Reads the span records on stdin and the DBs named as arguments, computes
every CANN_API and TASK span from the DBs with python's sqlite3 (names
through STRING_IDS, task names through COMPUTE_TASK_INFO, lanes as
documented: a device task has "lane":"npu", pid deviceId and tid
streamId), and prints per lane and category the number of spans and
their summed durations, then whether the two multisets of spans agree.
"""
import collections
import json
import sqlite3
import sys

TYPES = {5000: "runtime", 5500: "communication", 10000: "node",
         15000: "model", 20000: "acl"}


def expected(path):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    names = dict(db.execute("SELECT id, value FROM STRING_IDS"))
    for s, e, t, g, n in db.execute(
            "SELECT startNs, endNs, type, globalTid, name FROM CANN_API"):
        yield (None, g >> 32, g & 0xFFFFFFFF, names.get(n) or "unknown",
               TYPES.get(t, str(t)), int(s), int(e))
    info = dict(db.execute("SELECT globalTaskId, name FROM COMPUTE_TASK_INFO"))
    for s, e, d, st, gt, tt in db.execute(
            "SELECT startNs, endNs, deviceId, streamId, globalTaskId, "
            "taskType FROM TASK"):
        name = names.get(info.get(gt)) or names.get(tt) or "unknown"
        yield ("npu", d, st, name, names.get(tt), int(s), int(e))


def main():
    want = collections.Counter()
    for path in sys.argv[1:]:
        want.update(expected(path))
    got = collections.Counter()
    for line in sys.stdin:
        r = json.loads(line)
        got[(r.get("lane"), r["pid"], r["tid"], r["name"], r.get("cat"),
             r["start_ns"], r["end_ns"])] += 1
    lanes = collections.defaultdict(lambda: [0, 0])
    for k, n in want.items():
        lane = ("%s:%d" % (k[0], k[1]) if k[0] else str(k[1]), k[2], k[4])
        lanes[lane][0] += n
        lanes[lane][1] += n * (k[6] - k[5])
    for k in sorted(lanes):
        print("%s %s %s: %d spans, %d ns" % (k + tuple(lanes[k])))
    print("spans: %d expected, %d written, %s" % (
        sum(want.values()), sum(got.values()),
        "equal" if want == got else "DIFFERENT"))


main()

#!/usr/bin/env python3
"""make_ranks.py: writes N synthetic Ascend ranks, one of them slow.

usage: make_ranks.py -n N [--rows R] [--slow K] [--factor F] [--seed S] DIR

DIR/rank0000.db ... are ascend_pytorch_profiler DBs made by
../shared/fixtures/ascend/make_ascend_db.py, rank i with seed S + i, so
every rank has the same ops with different durations.  Rank K (default
N / 2 + 1) is planted slow: every PYTORCH_API time is stretched by F
(default 1.5) from the rank's first start, so each of its spans lasts F
times as long and nesting is kept.  Prints the slow rank's name.
Everything is invented; nothing was measured on Ascend hardware.
"""
import argparse
import os
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "..", "..", "shared", "fixtures", "ascend")


def stretch(path, factor):
    """Times t become t0 + (t - t0) * factor, kept as 19-digit text."""
    num, den = factor.as_integer_ratio()
    c = sqlite3.connect(path)
    t0 = c.execute("SELECT MIN(CAST(startNs AS INTEGER)) FROM PYTORCH_API"
                   ).fetchone()[0]
    for col in ("startNs", "endNs"):
        c.execute("UPDATE PYTORCH_API SET %s = CAST(? + (CAST(%s AS "
                  "INTEGER) - ?) * ? / ? AS TEXT)" % (col, col),
                  (t0, t0, num, den))
    c.commit()
    c.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("-n", type=int, required=True)
    p.add_argument("--rows", type=int, default=500)
    p.add_argument("--slow", type=int, default=None)
    p.add_argument("--factor", type=float, default=1.5)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--gen", default=GEN, help="make_ascend_db.py's folder")
    p.add_argument("dir")
    a = p.parse_args()
    sys.path.insert(0, a.gen)
    import make_ascend_db
    slow = a.n // 2 + 1 if a.slow is None else a.slow
    os.makedirs(a.dir, exist_ok=True)
    width = max(4, len(str(a.n - 1)))
    for i in range(a.n):
        out = os.path.join(a.dir, "rank%0*d.db" % (width, i))
        make_ascend_db.main(["-o", out, "--rows", str(a.rows), "--seed",
                             str(a.seed + i), "--rank", str(i), "-q"])
        if i == slow:
            stretch(out, a.factor)
    print("rank%0*d" % (width, slow))


if __name__ == "__main__":
    main()

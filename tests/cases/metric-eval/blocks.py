#!/usr/bin/env python3
"""blocks.py SRC DEST BLOCK...: writes to DEST a copy of the rocprof-compute
workload SRC as `rocprof-compute profile --block BLOCK...` leaves it: the
counter columns of every other IP block are gone from pmc_perf.csv, the
accumulate files SQ_*.csv exist only when SQ is profiled, there is no
roofline.csv, and sysinfo.csv's ip_blocks lists the blocks kept.  Dispatch
columns (Dispatch_ID, Kernel_Name, timestamps, ...) and the GRBM counters
every pass collects stay.  Tests build such workloads at run time from
../shared: data from other projects is never copied into the project.
"""
import csv
import glob
import os
import re
import shutil
import sys

BLOCKS = ("SQC", "SQ", "TA", "TD", "TCP", "TCC", "SPI", "CPC", "CPF")


def block_of(col):
    """The IP block of a counter column, or None for the others."""
    for b in BLOCKS:                     # SQC before SQ
        if col.startswith(b + "_"):
            return b
    return None


def copy_csv(src, dst, keep):
    with open(src, newline="") as f:
        rows = list(csv.reader(f))
    cols = [i for i, h in enumerate(rows[0]) if keep(h)]
    with open(dst, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        for r in rows:
            w.writerow([r[i] for i in cols])


def main():
    src, dst, kept = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    os.makedirs(dst, exist_ok=True)
    copy_csv(os.path.join(src, "pmc_perf.csv"),
             os.path.join(dst, "pmc_perf.csv"),
             lambda h: block_of(h) is None or block_of(h) in kept)
    if "SQ" in kept:
        for p in glob.glob(os.path.join(src, "SQ*.csv")):
            shutil.copy(p, dst)
    with open(os.path.join(src, "sysinfo.csv"), newline="") as f:
        rows = list(csv.reader(f))
    ix = rows[0].index("ip_blocks")
    rows[1][ix] = "|".join(b for b in BLOCKS if b in kept)
    with open(os.path.join(dst, "sysinfo.csv"), "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


if __name__ == "__main__":
    main()

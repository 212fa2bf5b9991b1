#!/usr/bin/env python3
# expected.py DIR|NCU.csv.gz [UNIT]: the Top Kernels table (pmc_kernel_top.csv
# layout) of a rocprof-compute workload, worked out from the raw pmc_perf.csv with
# the rules of ../shared/notes/rocprof-compute.md section 9, independently
# of pmc2ndjson and topn.  Used to write the expout of the fixture cases.
import csv, math, os, sys
from statistics import median

d = sys.argv[1]
unit = sys.argv[2] if len(sys.argv) > 2 else "ns"
factor = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[unit]
if d.endswith(".csv.gz"):
    # Nsight Compute --page raw: skip the ==PROF== lines and the units row;
    # the duration is gpu__time_duration.sum (in ns here) without its
    # thousands separators, the kernel is "Kernel Name".
    import gzip
    lines = [l for l in gzip.open(d, "rt", newline="") if l.startswith('"')]
    rows = list(csv.DictReader(lines))[1:]
    for r in rows:
        r["Kernel_Name"] = r["Kernel Name"]
        r["Start_Timestamp"] = "0"
        r["End_Timestamp"] = r["gpu__time_duration.sum"].replace(",", "")
    key = "Kernel Name"
else:
    rows = list(csv.DictReader(open(os.path.join(d, "pmc_perf.csv"),
                                    newline="")))
    key = "Kernel_Name"

def num(s):
    return int(s) if s.lstrip("-").isdigit() else float(s)

durs = []
if "Counter_Name" in rows[0]:
    # rocpd: per dispatch, the median of the pass durations (section 4.4)
    passes = {}
    for r in rows:
        dk = (num(r["Dispatch_ID"]), r["Kernel_Name"])
        passes.setdefault(dk, []).append(
            num(r["End_Timestamp"]) - num(r["Start_Timestamp"]))
    for dk in sorted(passes):
        durs.append((dk[1], median(passes[dk])))
else:
    # a column with one float spelling is a float column (section 3.2)
    ints = all(x[c].lstrip("-").isdigit() for x in rows
               for c in ("Start_Timestamp", "End_Timestamp"))
    conv = int if ints else float
    for r in rows:
        durs.append((r["Kernel_Name"],
                     conv(r["End_Timestamp"]) - conv(r["Start_Timestamp"])))

groups = {}
for k, v in durs:
    groups.setdefault(k, []).append(v)
table = []
for k in sorted(groups):
    v = groups[k]
    s = sum(v)
    table.append([k, len(v), s / factor, s / len(v) / factor,
                  median(v) / factor])
def np_sum(a):
    # numpy's add.reduce, as pandas' Series.sum() adds the Sums: starts
    # from the identity 0 and sums pairwise (numpy loops_utils.h.src).
    def pw(a):
        if len(a) < 8:
            r = -0.0
            for x in a:
                r += x
            return r
        if len(a) <= 128:
            r = list(a[:8])
            i = 8
            while i < len(a) - len(a) % 8:
                for j in range(8):
                    r[j] += a[i + j]
                i += 8
            res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
            for x in a[i:]:
                res += x
            return res
        n2 = len(a) // 2
        n2 -= n2 % 8
        return pw(a[:n2]) + pw(a[n2:])
    return 0.0 + pw([float(x) for x in a])

total = np_sum([t[2] for t in table])
for t in table:
    t.append(t[2] / total * 100 if total != 0 else float("nan"))
table.sort(key=lambda t: -t[2])     # stable: ties keep the name order

def f(x):
    return "" if math.isnan(x) else repr(float(x))

w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow([key, "Count", "Sum(%s)" % unit, "Mean(%s)" % unit,
            "Median(%s)" % unit, "Pct"])
for t in table:
    w.writerow([t[0], t[1], f(t[2]), f(t[3]), f(t[4]), f(t[5])])

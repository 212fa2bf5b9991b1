#!/usr/bin/env python3
"""parity.py MI200_METRICS MI200_TOP MI300_METRICS MI300_TOP: checks
recdiff's records against the worked examples of rocprof-compute 3.3.0's
baseline comparison (../shared/notes/rocprof-compute-parity.md 3.10),
with the corrections of that note's section 4 where upstream is wrong.
Each line: the cell, what upstream printed, and ok or what differs.
"""
import json
import sys


def load(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def find(recs, **kv):
    hits = [r for r in recs if all(r.get(k) == v for k, v in kv.items())]
    if len(hits) != 1:
        sys.exit("want one record %s, got %d" % (kv, len(hits)))
    return hits[0]


bad = 0


def check(what, upstream, got, want):
    global bad
    ok = got == want
    bad += not ok
    print("%s (upstream %s): %s" % (what, upstream, "ok" if ok else
          "want %s got %s" % (json.dumps(want), json.dumps(got))))


def r2(x):
    return round(x, 2) if isinstance(x, (int, float)) else x


m, top, m3, top3 = (load(p) for p in sys.argv[1:5])
r = find(m, metric_id="2.1.0")
check("2.1.0 VALU FLOPs Avg", "0.0 | 7446.02", [r["Avg_base"], r2(r["Avg"])],
      [0, 7446.02])
check("2.1.0 VALU FLOPs Avg_pct, base 0 (B9)", "744602.0%", r["Avg_pct"],
      "inf")
check("2.1.0 VALU FLOPs Avg_delta", "Abs Diff 7446.02", r2(r["Avg_delta"]),
      7446.02)
r = find(m, metric_id="2.1.7")
check("2.1.7 Active CUs Avg", "70.0 | 103.0 (47.14%)",
      [r["Avg_base"], r["Avg"], r2(r["Avg_pct"])], [70, 103, 47.14])
check("2.1.7 Active CUs Avg_delta", "Abs Diff 33.00", r["Avg_delta"], 33)
check("2.1.7 Active CUs Peak", "104.0 | 104.0 (0.0%)",
      [r["Peak_base"], r["Peak"], r["Peak_pct"]], [104, 104, 0])
check("2.1.7 Peak_delta: one per field and run (B10)", "no Abs Diff",
      r.get("Peak_delta"), 0)
r = find(m, metric_id="2.1.17")
check("2.1.17 LDS Bank Conflicts/Access, blank base (B8)",
      "blank | 0.0 (0.0%)", [r["Avg_base"], r["Avg"], r["Avg_pct"]],
      [None, None, None])
r = find(m, metric_id="18.2.0")
check("18.2.0 Channel is a key (B13)", "0.00 | 0.0 (0.0%)",
      [r["Channel"], "Channel_base" in r, "Channel_pct" in r], [0, False, False])
check("18.2.0 Min (B9: unrounded)", "34.58 | 0.0 (-99.99%)",
      [r2(r["Min_base"]), r["Min"], r["Min_pct"]], [34.58, 0, -100])
r = find(m, metric_id="18.2.1")
check("18.2.1 Min (B9: unrounded)", "34.55 | 0.0 (-100.01%)",
      [r2(r["Min_base"]), r["Min"], r["Min_pct"]], [34.55, 0, -100])
vec = "vecCopy(double*, double*, double*, int, int) [clone .kd]"
r = find(top, Kernel_Name=vec)
check("Top Kernels vecCopy, matched by name (B7)",
      "row 0 against mixbench's row 0", [r.get("only"), r["count_base"],
      r["sum_ns_base"], r["pct_base"], r["count"]],
      ["base", 3, 52320, 100, None])
r = find(top, Kernel_Name="void benchmark_func<int, 256, 8u, 512u>(int, "
         "int*) [clone .kd]")
check("Top Kernels mixbench row 0", "1.0 (-66.67%) ... 7.84 (-92.16%)",
      [r.get("only"), r["count"], r["sum_ns"], r2(r["pct"]), r["count_base"]],
      ["new", 1, 3356652, 7.84, None])
r = find(m3, metric_id="2.1.1")
check("MI300X 2.1.1 VALU IOPs", "354.16 | inf (inf%)",
      [r2(r["Avg_base"]), r["Avg"], r["Avg_pct"], r["Avg_delta"]],
      [354.16, "inf", "inf", "inf"])
r = find(top3, Kernel_Name="vecCopy(double*, double*, double*, int, int) "
         "(.kd)")
check("MI300X Top Kernels Sum(ns)", "44600.00 | 0.0 (-100.0%)",
      [r["sum_ns_base"], r["sum_ns"], r["sum_ns_pct"]], [44600, 0, -100])
check("MI300X Top Kernels Pct", "100.00 | nan (nan%)",
      [r["pct_base"], r["pct"], r["pct_pct"]], [100, "nan", "nan"])
print("%d wrong" % bad)
sys.exit(1 if bad else 0)

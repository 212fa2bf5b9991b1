#!/usr/bin/env python3
# expected.py MODE DIR: what the fixture cases should print, worked out from
# the raw CSV files with Python's csv module, independently of pmc2ndjson.
#
# MODE rows: one line per record as the cases' jq projection prints it:
#   [type, Dispatch_ID, GPU_ID, dur_ns, SQ_WAVES, GRBM_GUI_ACTIVE,
#    TCC_HIT[0], SQ_LEVEL_WAVES, blocks.SQ_LEVEL_WAVES.SQ_ACCUM_PREV_HIRES,
#    blocks.SQ_LEVEL_WAVES.GRBM_GUI_ACTIVE, gpu_arch|gpu_soc|device,
#    number of keys]
# MODE times: the exact text of Start_Timestamp, End_Timestamp and dur_ns
#   of each dispatch record.
import csv, glob, os, statistics, sys
from decimal import Decimal

mode, d = sys.argv[1], sys.argv[2]

def read(p):
    return list(csv.DictReader(open(p, newline="")))

def jq(s):
    """A cell as jq -c prints the number pmc2ndjson copied (or null)."""
    if s is None or s == "":
        return "null"
    try:
        f = float(s)
    except ValueError:
        return '"%s"' % s
    return str(int(f)) if f.is_integer() else repr(f)

def diff(a, b):
    if a.lstrip("-").isdigit() and b.lstrip("-").isdigit():
        return str(int(b) - int(a))          # exact integers
    r = float(b) - float(a)
    return str(int(r)) if r.is_integer() else repr(r)

meta = []
for name in ("sysinfo", "roofline"):
    p = os.path.join(d, name + ".csv")
    if os.path.exists(p):
        for r in read(p):
            meta.append((name, r))
pmc = read(os.path.join(d, "pmc_perf.csv"))
sq = {os.path.basename(p)[:-4]: read(p)
      for p in glob.glob(os.path.join(d, "**", "SQ*.csv"), recursive=True)}

disp = []
if "Counter_Name" in pmc[0]:
    # rocpd long format: pivot per (Dispatch_ID, Kernel_Name, ...) in
    # ascending order; durations are the median over the passes.
    groups, order = {}, []
    for r in pmc:
        k = (int(r["Dispatch_ID"]), r["Kernel_Name"])
        if k not in groups:
            groups[k] = {"first": r, "ctr": {}, "dur": []}
        g = groups[k]
        g["ctr"][r["Counter_Name"]] = r["Counter_Value"]
        g["dur"].append(int(r["End_Timestamp"]) - int(r["Start_Timestamp"]))
    gpus = sorted({int(r["GPU_ID"]) for r in pmc})
    for i, k in enumerate(sorted(groups)):
        g = groups[k]
        m = statistics.median(g["dur"])
        m = str(int(m)) if float(m).is_integer() else repr(float(m))
        rec = dict((c, v) for c, v in g["first"].items()
                   if c not in ("Counter_Name", "Counter_Value"))
        rec.update(Dispatch_ID=str(i),
                   GPU_ID=str(gpus.index(int(g["first"]["GPU_ID"]))),
                   Start_Timestamp="0", End_Timestamp=m)
        rec.update(g["ctr"])
        nkeys = len(rec) + 4     # type, dur_ns, rocpd_Dispatch_ID, _GPU_ID
        disp.append((rec, m, None, nkeys))
else:
    for i, r in enumerate(pmc):
        blk = sq.get("SQ_LEVEL_WAVES", [None] * len(pmc))[i]
        nkeys = len(r) + 2 + (1 if sq else 0)
        disp.append((r, diff(r["Start_Timestamp"], r["End_Timestamp"]), blk,
                     nkeys))

if mode == "rows":
    for name, r in meta:
        tag = r.get("gpu_arch") or r.get("gpu_soc") or r.get("device")
        print('["%s",null,null,null,null,null,null,null,null,null,%s,%d]'
              % (name, jq(tag), len(r) + 1))
    for r, dur, blk, nkeys in disp:
        b = blk or {}
        print("[" + ",".join([
            '"dispatch"', jq(r["Dispatch_ID"]), jq(r["GPU_ID"]), dur,
            jq(r.get("SQ_WAVES")), jq(r.get("GRBM_GUI_ACTIVE")),
            jq(r.get("TCC_HIT[0]")), jq(r.get("SQ_LEVEL_WAVES")),
            jq(b.get("SQ_ACCUM_PREV_HIRES")), jq(b.get("GRBM_GUI_ACTIVE")),
            "null", str(nkeys)]) + "]")
else:
    for r, dur, blk, nkeys in disp:
        print('"Start_Timestamp":%s,"End_Timestamp":%s,"dur_ns":%s'
              % (r["Start_Timestamp"], r["End_Timestamp"], dur))

#!/usr/bin/env python3
"""derive.py: expected metric values for the metric-eval golden cases,
worked out independently of metric-eval.

It reads the raw workload CSVs (not pmc2ndjson output), the panel YAML
(python3-yaml), and evaluates the chosen cells with Python's own parser
(ast) and plain Python floats, following ../shared/notes/rocprof-compute.md
sections 5-8 (the rocprof-compute 3.3.0 rules).  It shares no code with
metric-eval.  Output: one JSON object per pinned metric row, with the
evaluated columns only (null = blank, "inf"/"-inf" = infinities).

usage: derive.py WORKLOAD_DIR CONFIG_ARCH_DIR [--sysinfo CSV] [-n NORM]
                 [--ids ID,ID,...] [--panels 2,7,...] [--per-panel N]
                 [--coll] [--rows I,J,...] [--kernel NAME [--tag-kernel]]

--ids, --panels and --coll select rows (their union); --rows and --kernel select
dispatches (not for rocpd workloads, whose pivot reorders nothing here).
"""
import argparse
import ast
import csv
import glob
import json
import math
import os
import re
import sys

import yaml

NAN = float("nan")
INF = float("inf")

EVAL_TITLES = set("""Value|Minimum|Maximum|Average|Median|Min|Max|Avg|Pct of Peak|Peak|Count|Mean|Pct|Std Dev|Q1|Q3|Expression|Channel|L2 Cache Hit Rate|Requests|L2 Read|L2 Write|L2 Atomic|L2-Fabric Requests|L2-Fabric Read|L2-Fabric Write and Atomic|L2-Fabric Atomic|L2 Read Req|L2 Write Req|L2 Atomic Req|L2-Fabric Read Req|L2-Fabric Write and Atomic Req|L2-Fabric Atomic Req|L2-Fabric Read Latency|L2-Fabric Write Latency|L2-Fabric Atomic Latency|L2-Fabric Read Stall (PCIe)|L2-Fabric Read Stall (Infinity Fabric\u2122)|L2-Fabric Read Stall (HBM)|L2-Fabric Write Stall (PCIe)|L2-Fabric Write Stall (Infinity Fabric\u2122)|L2-Fabric Write Stall (HBM)|L2-Fabric Write Starve""".split("|"))

DENOM = {
    "per_kernel": "1",
    "per_wave": "SQ_WAVES",
    "per_cycle": "$GRBM_GUI_ACTIVE_PER_XCD",
    "per_second": "((End_Timestamp - Start_Timestamp) / 1000000000)",
}


# ---- reading the workload (sections 3-5) ----

def num(s):
    if s is None or s == "":
        return NAN
    try:
        return float(s)
    except ValueError:
        return NAN      # a text column (Kernel_Name)


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def pivot_rocpd(head, rows):
    """Section 4.4: one row per dispatch, counters as columns."""
    ix = {h: i for i, h in enumerate(head)}
    groups = {}
    for r in rows:
        key = (int(r[ix["Dispatch_ID"]]), r[ix["Kernel_Name"]],
               r[ix["Grid_Size"]], r[ix["Workgroup_Size"]],
               r[ix["LDS_Per_Workgroup"]])
        g = groups.setdefault(key, {"first": r, "ctr": {}, "dur": []})
        g["ctr"][r[ix["Counter_Name"]]] = r[ix["Counter_Value"]]
        g["dur"].append(int(r[ix["End_Timestamp"]]) -
                        int(r[ix["Start_Timestamp"]]))
    out = []
    for key in sorted(groups):
        g = groups[key]
        row = {}
        for h in ("GPU_ID", "Grid_Size", "Workgroup_Size",
                  "LDS_Per_Workgroup", "Scratch_Per_Workitem", "Arch_VGPR",
                  "Accum_VGPR", "SGPR", "Kernel_ID"):
            row[h] = g["first"][ix[h]]
        row.update(g["ctr"])
        d = sorted(g["dur"])
        n = len(d)
        med = d[n // 2] if n % 2 else (d[n // 2 - 1] + d[n // 2]) / 2
        row["Start_Timestamp"] = "0"
        row["End_Timestamp"] = str(med)
        out.append(row)
    return out


def load_workload(wdir, sysinfo_path):
    sh, srows = read_csv(sysinfo_path or os.path.join(wdir, "sysinfo.csv"))
    sysinfo = dict(zip(sh, srows[0]))
    head, rows = read_csv(os.path.join(wdir, "pmc_perf.csv"))
    blocks = {}
    rocpd = "Counter_Name" in head
    if rocpd:
        dicts = pivot_rocpd(head, rows)
        blocks["pmc_perf"] = dicts
    else:
        blocks["pmc_perf"] = [dict(zip(head, r)) for r in rows]
        for p in sorted(glob.glob(os.path.join(wdir, "**", "SQ*.csv"),
                                  recursive=True)):
            h, r = read_csv(p)
            blocks[os.path.basename(p)[:-4]] = [dict(zip(h, x)) for x in r]
    n = min(len(b) for b in blocks.values())
    cols = {}
    for name, b in blocks.items():
        keys = b[0].keys() if b else []
        cols[name] = {k: [num(b[i][k]) for i in range(n)] for k in keys}
    return sysinfo, cols, n, rocpd


# ---- values: None (none), float (scalar), Vec ----

class Vec:
    def __init__(self, xs, masked=False):
        self.xs = list(xs)      # None elements only when masked (NA)
        self.masked = masked


def fdiv(a, b):
    if b == 0:
        if a == 0 or math.isnan(a):
            return NAN
        return math.copysign(INF, a) * math.copysign(1, b)
    return a / b


def pymod(a, b):
    if b == 0 or math.isnan(a) or math.isnan(b) or math.isinf(a):
        return NAN
    return a - math.floor(a / b) * b if not math.isinf(b) else (
        a if (a >= 0) == (b > 0) else b)


OPS = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": fdiv,
    "%": pymod,
    "!=": lambda a, b: 1.0 if not (a == b) else 0.0,
    "==": lambda a, b: 1.0 if a == b else 0.0,
    "<": lambda a, b: 1.0 if a < b else 0.0,
    ">": lambda a, b: 1.0 if a > b else 0.0,
}


def isnum(x):
    return isinstance(x, float)


def nv(x):
    """A missing counter (or a NAME[i] of one) is none."""
    return x if x is None or isinstance(x, (float, str, Vec)) else None


def binop(op, a, b):
    a, b = nv(a), nv(b)
    if a is None or b is None or isinstance(a, str) or isinstance(b, str):
        return None
    f = OPS[op]
    if isnum(a) and isnum(b):
        return f(a, b)
    n = len(a.xs) if isinstance(a, Vec) else len(b.xs)
    xa = a.xs if isinstance(a, Vec) else [a] * n
    xb = b.xs if isinstance(b, Vec) else [b] * n
    masked = (isinstance(a, Vec) and a.masked) or \
        (isinstance(b, Vec) and b.masked)
    out = [None if (p is None or q is None) else f(p, q)
           for p, q in zip(xa, xb)]
    return Vec(out, masked)


def cmpnone(op, x):
    """x != None, x == None with pandas' meaning (notes: the configs'
    "None" comparisons)."""
    x = nv(x)
    r = 1.0 if op == "!=" else 0.0
    if x is None or isinstance(x, str):
        return None
    if isnum(x):
        return r
    return Vec([r] * len(x.xs))


def where(c, x, y):
    c, x, y = nv(c), nv(x), nv(y)
    if x is None or c is None:
        return None
    if y is None:
        y = NAN
    if isnum(x) and isnum(c) and isnum(y):
        return x if c != 0 else y
    n = max(len(v.xs) for v in (x, c, y) if isinstance(v, Vec))
    ex = lambda v, i: v.xs[i] if isinstance(v, Vec) else v
    out = [ex(x, i) if (ex(c, i) != 0) else ex(y, i) for i in range(n)]
    masked = any(isinstance(v, Vec) and v.masked for v in (x, y))
    return Vec(out, masked)


def values(v):
    """Elements an aggregate uses; None if a real NaN poisons the result."""
    if v.masked:
        xs = [x for x in v.xs if x is not None]
        if any(math.isnan(x) for x in xs):
            return None
        return xs
    return [x for x in v.xs if not math.isnan(x)]


def mean(xs):
    if not xs:
        return NAN
    if any(math.isinf(x) for x in xs):
        pos = any(x == INF for x in xs)
        neg = any(x == -INF for x in xs)
        return NAN if pos and neg else (INF if pos else -INF)
    return math.fsum(xs) / len(xs)


def quantile(xs, q):
    if not xs:
        return NAN
    xs = sorted(xs)
    h = (len(xs) - 1) * q
    i = int(math.floor(h))
    t = h - i
    if t == 0 or i + 1 >= len(xs):
        return xs[i]
    lo, hi = xs[i], xs[i + 1]
    return lo + (hi - lo) * t if t < 0.5 else hi - (hi - lo) * (1 - t)


def median(xs):
    if not xs:
        return NAN
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def agg(fn, v):
    v = nv(v)
    if v is None or isinstance(v, str):
        return NAN if fn in ("AVG", "MIN", "MAX") else None
    if isnum(v):
        return NAN if fn == "STD" else v
    xs = values(v)
    if xs is None:
        return NAN
    if fn == "AVG":
        return mean(xs)
    if fn == "MIN":
        return min(xs) if xs else NAN
    if fn == "MAX":
        return max(xs) if xs else NAN
    if fn == "MEDIAN":
        return median(xs)
    if fn == "STD":
        if len(xs) < 2:
            return NAN
        m = mean(xs)
        return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    raise ValueError(fn)


def F_MAX(a, b=None):
    a, b = nv(a), nv(b)
    if b is None:
        return agg("MAX", a)
    if isnum(a) and isnum(b):
        return max(a, b)
    if a is None or b is None:
        return None

    def m(p, q):
        return p if math.isnan(p) else q if math.isnan(q) else max(p, q)
    return binop_fn(m, a, b)


def F_MIN(a, b=None):
    if b is None:
        return agg("MIN", a)
    if isnum(a) and isnum(b):
        return min(a, b)
    raise ValueError("MIN(vector, scalar)")


def binop_fn(f, a, b):
    n = len(a.xs) if isinstance(a, Vec) else len(b.xs)
    xa = a.xs if isinstance(a, Vec) else [a] * n
    xb = b.xs if isinstance(b, Vec) else [b] * n
    return Vec([f(p, q) for p, q in zip(xa, xb)])


def F_ROUND(a, n=0.0):
    a = nv(a)
    if a is None:
        return None
    if isnum(a):
        return float(round(a, int(n)))
    return Vec([x if x is None else float(round(x, int(n))) if
                math.isfinite(x) else x for x in a.xs], a.masked)


def F_TO_INT(a):
    a = nv(a)
    if a is None:
        return None
    if isnum(a):
        return float(int(a))
    for x in a.xs:
        if x is not None and not math.isnan(x) and \
                (math.isinf(x) or x != int(x)):
            return None
    return Vec([None if (x is None or math.isnan(x)) else x for x in a.xs],
               True)


FUNCS = {
    "AVG": lambda a: agg("AVG", a),
    "MEDIAN": lambda a: agg("MEDIAN", a),
    "STD": lambda a: agg("STD", a),
    "QUANTILE": lambda a, q: None if nv(a) is None else (
        a if isnum(a) else (lambda xs: NAN if xs is None else
                            quantile(xs, q))(values(a))),
    "MIN": F_MIN, "MAX": F_MAX, "ROUND": F_ROUND, "TO_INT": F_TO_INT,
    "MOD": lambda a, b: binop("%", a, b),
    "CONCAT": lambda a, b: "text",
}


class Rewrite(ast.NodeTransformer):
    """x if c else y -> __where(c, x, y); a op b -> __bin('op', a, b)."""
    SYM = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/",
           ast.Mod: "%"}
    CMP = {ast.NotEq: "!=", ast.Eq: "==", ast.Lt: "<", ast.Gt: ">"}

    def call(self, name, args):
        return ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=args,
                        keywords=[])

    def visit_IfExp(self, node):
        self.generic_visit(node)
        return self.call("__where", [node.test, node.body, node.orelse])

    def visit_BinOp(self, node):
        self.generic_visit(node)
        return self.call("__bin", [ast.Constant(self.SYM[type(node.op)]),
                                   node.left, node.right])

    def visit_Compare(self, node):
        self.generic_visit(node)
        op = self.CMP[type(node.ops[0])]
        left, right = node.left, node.comparators[0]
        none = [isinstance(x, ast.Constant) and x.value is None
                for x in (left, right)]
        if op in ("!=", "==") and any(none):
            # pandas: a column compared with None is != for every row
            # (NaN rows too), never ==; the other side is still looked up.
            other = right if none[0] else left
            if all(none):
                return ast.Constant(1.0 if op == "==" else 0.0)
            return self.call("__cmpnone", [ast.Constant(op), other])
        return self.call("__bin", [ast.Constant(op), left, right])

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        return self.call("__bin", [ast.Constant("*"), ast.Constant(-1.0),
                                   node.operand])

    def visit_Constant(self, node):
        if isinstance(node.value, (int, float)) and \
                not isinstance(node.value, bool):
            return ast.Constant(float(node.value))
        return node


class Channels:
    def __init__(self, ns, name):
        self.ns, self.name = ns, name

    def __getitem__(self, i):
        return self.ns.column("%s[%d]" % (self.name, int(i)))


class NoBlock(Exception):
    """A name was looked up in a coll_level block the workload lacks."""


class Names(dict):
    def __init__(self, ctx, block):
        super().__init__()
        self.ctx, self.block = ctx, block

    def column(self, name):
        b = self.ctx.cols.get(self.block)
        if b is None:
            raise NoBlock(self.block)
        if name not in b:
            return None
        return Vec([b[name][i] for i in self.ctx.rows])

    def __missing__(self, key):
        if key.startswith("V__"):
            return self.ctx.var(key[3:])
        if key in FUNCS:
            return FUNCS[key]
        if key == "__where":
            return where
        if key == "__bin":
            return binop
        if key == "__cmpnone":
            return cmpnone
        col = self.column(key)
        if col is not None:
            return col
        return Channels(self, key)   # NAME[i], or a missing name


class Ctx:
    INTS = ("cu_per_gpu", "se_per_gpu", "simd_per_cu", "sqc_per_gpu",
            "pipes_per_gpu", "lds_banks_per_cu", "max_waves_per_cu",
            "num_xcd", "wave_size", "total_l2_chan")
    FLOATS = ("max_sclk", "max_mclk", "cur_sclk", "cur_mclk",
              "num_hbm_channels")

    def __init__(self, sysinfo, cols, rows, rocpd):
        self.sysinfo, self.cols, self.rows, self.rocpd = \
            sysinfo, cols, rows, rocpd

    def pmc(self, name):
        b = self.cols["pmc_perf"]
        return [b[name][i] for i in self.rows] if name in b else None

    def var(self, name):
        s = self.sysinfo
        if name in self.INTS:
            return float(int(s[name]))
        if name in self.FLOATS:
            return num(s.get(name))
        xcd = float(int(s["num_xcd"]))
        if name.endswith("_PER_XCD"):
            c = self.pmc(name[:-8])
            return None if c is None else Vec([x / xcd for x in c])
        if name == "numActiveCUs":
            busy, grbm = self.pmc("SQ_BUSY_CU_CYCLES"), \
                self.pmc("GRBM_GUI_ACTIVE")
            if busy is None or grbm is None:
                return None
            a = float(round(mean([4 * b / (g / xcd) for b, g in
                                  zip(busy, grbm)]), 0))
            mw = float(int(s["max_waves_per_cu"]))
            cu = float(int(s["cu_per_gpu"]))
            return float(int(min(a / mw * 8 + min(a % mw, 8.0), cu)))
        if name == "hbmBandwidth":
            v = num(s.get("max_mclk")) / 1000 * 32 * \
                num(s.get("num_hbm_channels"))
            return None if math.isnan(v) else v
        raise KeyError("unknown variable $" + name)

    def evaluate(self, text, coll_level, norm):
        text = str(text).replace("$denom", DENOM[norm])
        block = coll_level or "pmc_perf"
        if self.rocpd:
            text = text.replace("SQ_ACCUM_PREV_HIRES", block + "_ACCUM")
            block = "pmc_perf"
        text = re.sub(r"\$(\w+)", r"V__\1", text)
        tree = Rewrite().visit(ast.parse(text.strip(), mode="eval"))
        ast.fix_missing_locations(tree)
        try:
            r = eval(compile(tree, "<cell>", "eval"), {"__builtins__": {}},
                     Names(self, block))
        except TypeError:
            return None     # arithmetic on a missing counter
        except NoBlock:
            # Only a cell that reads the absent block is blank; a Peak
            # made of sysinfo variables is still computed.
            return None
        r = nv(r)
        if r is None or isinstance(r, str) or isinstance(r, Vec):
            return None
        return None if math.isnan(r) else r


def jsonval(v):
    if v is None:
        return None
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def tables(cdir, total_l2_chan):
    for path in sorted(glob.glob(os.path.join(cdir, "*.yaml"))):
        with open(path) as f:
            pc = yaml.safe_load(f)["Panel Config"]
        for ds in pc.get("data source") or []:
            t = ds.get("metric_table")
            if not t:
                continue
            metric = t.get("metric") or {}
            rows = list(metric.items())
            if "placeholder_range" in metric:
                ph, rng = list(metric["placeholder_range"].items())[0]
                rng = total_l2_chan if rng == "$total_l2_chan" else int(rng)
                name, cells = [x for x in rows
                               if x[0] != "placeholder_range"][0]

                def sub(v, i):
                    return v.replace(ph, str(i)) if isinstance(v, str) else v
                rows = [(sub(name, i), {k: sub(v, i) for k, v in
                                        cells.items()}) for i in range(rng)]
            yield pc, t, rows


def kernel_names(wdir):
    head, rows = read_csv(os.path.join(wdir, "pmc_perf.csv"))
    k = head.index("Kernel_Name")
    return [r[k] for r in rows]


def derive(a):
    sysinfo, cols, n, rocpd = load_workload(a.workload, a.sysinfo)
    rows = list(range(n))
    if a.rows:
        rows = [int(x) for x in a.rows.split(",")]
    if a.kernel is not None:
        names = kernel_names(a.workload)
        rows = [i for i in rows if names[i] == a.kernel]
    ctx = Ctx(sysinfo, cols, rows, rocpd)
    ids = set(a.ids.split(",")) if a.ids else None
    panels = set(int(p) for p in a.panels.split(",")) if a.panels else None
    taken = {}
    for pc, t, rows in tables(a.config, int(sysinfo["total_l2_chan"])):
        tid = t["id"]
        box = t.get("cli_style") == "simple_box"
        header = t["header"]
        titles = ["Min", "Q1", "Median", "Q3", "Max"] if box else []
        titles += [v for k, v in header.items() if k != "metric" and
                   not (box and k == "expr")]
        for ri, (name, cells) in enumerate(rows):
            mid = "%d.%d.%d" % (tid // 100, tid % 100, ri)
            p = pc["id"] // 100
            by_id = ids is not None and mid in ids
            by_panel = panels is not None and p in panels and \
                taken.get(p, 0) < a.per_panel
            by_coll = a.coll and isinstance(cells, dict) and \
                cells.get("coll_level") is not None
            if not by_id and not by_panel and not by_coll:
                continue
            if by_panel:
                taken[p] = taken.get(p, 0) + 1
            cells = cells or {}
            coll = cells.get("coll_level")
            vals = []
            for k, v in cells.items():
                if k in ("coll_level", "alias"):
                    continue
                if box and k == "expr":
                    vals += ["MIN(%s)" % v, "QUANTILE(%s, 0.25)" % v,
                             "MEDIAN(%s)" % v, "QUANTILE(%s, 0.75)" % v,
                             "MAX(%s)" % v]
                else:
                    vals.append(v)
            out = {"metric_id": mid, "metric": str(name)}
            if a.tag_kernel:
                out["Kernel_Name"] = a.kernel
            for title, v in zip(titles, vals):
                if title not in EVAL_TITLES:
                    continue
                out[title] = None if v is None else \
                    jsonval(ctx.evaluate(v, coll, a.norm))
            print(json.dumps(out, ensure_ascii=False))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("workload")
    p.add_argument("config")
    p.add_argument("--sysinfo")
    p.add_argument("-n", dest="norm", default="per_kernel")
    p.add_argument("--ids")
    p.add_argument("--panels")
    p.add_argument("--per-panel", type=int, default=1000000)
    p.add_argument("--coll", action="store_true",
                   help="also every row with a coll_level")
    p.add_argument("--rows", help="row positions, as metric-eval -d")
    p.add_argument("--kernel", help="only the rows of this Kernel_Name")
    p.add_argument("--tag-kernel", action="store_true",
                   help="add the Kernel_Name key (as metric-eval --by)")
    derive(p.parse_args())


if __name__ == "__main__":
    main()

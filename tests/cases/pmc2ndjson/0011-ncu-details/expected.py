# Writes expout: the details page (one row per metric) grouped by ID with
# Python's csv module.
import csv, gzip, json, os
lines = [l for l in gzip.open(os.environ["SHARED"] + "/fixtures/gpu/ncu_details.csv.gz", "rt", newline="") if l.startswith('"')]
rows = list(csv.reader(lines))
h = rows[0]
ix = {k: i for i, k in enumerate(h)}
kern, order = {}, []
for r in rows[1:]:
    r = r + [""] * (len(h) - len(r))
    k = r[0]
    if k not in kern:
        kern[k] = {"row": r, "m": {}, "u": {}, "rules": []}; order.append(k)
    g = kern[k]
    if r[ix["Metric Name"]] == "":
        g["rules"].append(r[ix["Rule Name"]])
    else:
        g["m"][(r[ix["Section Name"]], r[ix["Metric Name"]])] = r[ix["Metric Value"]]
        g["u"][(r[ix["Section Name"]], r[ix["Metric Name"]])] = r[ix["Metric Unit"]]
def num(s):
    t = s.replace(",", ""); f = float(t)
    return str(int(f)) if f.is_integer() else repr(f)
sol = "GPU Speed Of Light Throughput"
for k in order:
    g = kern[k]
    assert g["u"][(sol, "Duration")] == "ns"
    print("[" + ",".join(['"dispatch"', k, num(g["m"][(sol, "Duration")]), json.dumps(g["row"][ix["Grid Size"]]), num(g["m"][(sol, "DRAM Frequency")]), '"ns"', str(len(g["rules"])), json.dumps(",".join(g["rules"]))]) + "]")

# Writes expout: the raw page's rows read by Python's csv module, thousands
# separators removed by hand, the units row as one "units" record.
import csv, gzip, json, os
lines = [l for l in gzip.open(os.environ["SHARED"] + "/fixtures/gpu/ncu_raw.csv.gz", "rt", newline="") if l.startswith('"')]
rows = list(csv.reader(lines))
h, units = rows[0], rows[1]
def v(s):
    t = s.replace(",", "")
    try:
        f = float(t); return str(int(f)) if f.is_integer() else repr(f)
    except ValueError:
        return "null" if s == "" else json.dumps(s)
u = dict((k, x) for k, x in zip(h, units) if x)
print(json.dumps(["units", None, None, u.get("device__attribute_l2_cache_size"), u.get("Block Size"), u.get("gpu__time_duration.sum"), len(u) + 1], separators=(",", ":")))
for r in rows[2:]:
    d = dict(zip(h, r))
    print("[" + ",".join(['"dispatch"', v(d["ID"]), v(d["gpu__time_duration.sum"]), v(d["device__attribute_l2_cache_size"]), v(d["Block Size"]), v(d["gpu__time_duration.sum"]), str(len(h) + 2)]) + "]")

# check.py gen MIXED | args | cmp MIXED OUT: the records, the -e options
# and the comparison for check.sh.  The expected values are computed here
# from the generated numbers, in Python.
import json, math, random, sys

N = 2500
EXPRS = {"S": "SUM(A)", "M": "AVG(A)", "LO": "MIN(B)", "HI": "MAX(B)",
         "MED": "MEDIAN(A)", "Q": "QUANTILE(A, 0.3)", "SD": "STD(A)",
         "D": "AVG((End_Timestamp - Start_Timestamp))",
         "Z": "SUM(GRBM_GUI_ACTIVE == 0)"}


def records(mixed):
    rng = random.Random(7)
    out = []
    for i in range(N):
        s = 1700000000000000000 + 1000 * i + rng.randrange(300)
        r = {"type": "dispatch", "Dispatch_ID": i, "Kernel_Name": "k",
             "A": rng.randrange(10 ** 6),
             "GRBM_GUI_ACTIVE": rng.choice([0, 5, 9, 12]),
             "Start_Timestamp": s, "End_Timestamp": s + rng.randrange(9999)}
        if i % 7 != 3:
            r["B"] = rng.randrange(10 ** 4) / 8 - 300
        if mixed and i == N - 2:
            r["Start_Timestamp"] = float(s)
        out.append(r)
    return out


def quantile(x, q):
    h = (len(x) - 1) * q
    i = math.floor(h)
    t = h - i
    if t == 0 or i + 1 >= len(x):
        return float(x[i])
    if t < 0.5:
        return x[i] + (x[i + 1] - x[i]) * t
    return x[i + 1] - (x[i + 1] - x[i]) * (1 - t)


def expected(mixed):
    rs = records(mixed)
    a = [r["A"] for r in rs]
    b = [r["B"] for r in rs if "B" in r]
    sa = sorted(a)
    if mixed:
        d = [float(r["End_Timestamp"]) - float(r["Start_Timestamp"])
             for r in rs]
    else:
        d = [r["End_Timestamp"] - r["Start_Timestamp"] for r in rs]
    mean = sum(a) / N
    return {"S": float(sum(a)), "M": mean, "LO": min(b), "HI": max(b),
            "MED": (sa[N // 2 - 1] + sa[N // 2]) / 2,
            "Q": quantile(sa, 0.3),
            "SD": math.sqrt(math.fsum((x - mean) ** 2 for x in a) / (N - 1)),
            "D": math.fsum(d) / N,
            "Z": float(sum(r["GRBM_GUI_ACTIVE"] == 0 for r in rs))}


if sys.argv[1] == "gen":
    for r in records(sys.argv[2] == "1"):
        print(json.dumps(r))
elif sys.argv[1] == "args":
    print(" ".join("-e %s=%s" % (k, v.replace(" ", ""))
                   for k, v in EXPRS.items()))
else:
    want = expected(sys.argv[2] == "1")
    got = {}
    for line in open(sys.argv[3]):
        r = json.loads(line)
        got[r["metric"]] = r["Value"]
    for k in EXPRS:
        v = got.get(k)
        close = v is not None and (v == want[k] or (k == "SD" and
                abs(v - want[k]) <= 1e-12 * want[k]))
        print("%s %s" % (k, "ok" if close else
                         "got %r, want %r" % (v, want[k])))
    z = int(want["Z"])
    print("GRBM_GUI_ACTIVE is 0 in %d of %d dispatches" % (z, N))

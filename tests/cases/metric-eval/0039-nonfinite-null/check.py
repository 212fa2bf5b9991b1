"""Reads the default output (argv[1]) and the --nonfinite null output
(argv[2]) of one metric-eval run: the second must be the first with each
"inf", "-inf" and "nan" cell null and nothing else changed, and every
column of it that holds a number must hold only numbers and nulls, as a
reader that types columns (DuckDB read_json, pandas) needs."""
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
nonfinite = 0
for x, y in zip(a, b):
    for k in x:
        if x[k] in ("inf", "-inf", "nan"):
            nonfinite += 1
            x[k] = None
print("records: %d and %d, %s" % (len(a), len(b), "equal but for the non-finite cells" if a == b else "DIFFERENT"))
print("non-finite cells: %d" % nonfinite)
types = {}
for r in b:
    for k, v in r.items():
        if v is not None:
            types.setdefault(k, set()).add(type(v).__name__)
mixed = sorted(k for k, t in types.items() if "float" in t | {"int" if "int" in t else ""} and t - {"int", "float"})
print("columns with numbers and other types: %s" % (", ".join(mixed) or "none"))

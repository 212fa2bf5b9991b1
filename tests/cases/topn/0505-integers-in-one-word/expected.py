#!/usr/bin/env python3
# expected.py: the expout of this case, independent of topn: in.nd's
# values by group, read by Python (integers exact, other numbers as
# doubles): exact sums, the mean rounded once, the median n or n.5; the
# float group f: a Kahan sum in input order, as topn(1) documents; pct:
# sum / total * 100, the total added in key order.
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from groups import table  # noqa: E402

groups = {}
for line in open("in.nd"):
    r = json.loads(line)
    if "k" in r and not isinstance(r["v"], str):
        groups.setdefault(r["k"], []).append(r["v"])


table(groups, "k")

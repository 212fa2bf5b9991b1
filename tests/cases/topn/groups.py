# groups.py: the table topn -n 0 writes for groups of values, worked out
# in Python for the expected.py of the cases, independent of topn.
# Integer groups: exact sums, the mean rounded once, the median n or n.5;
# a group with a float: a Kahan sum in input order as topn(1) documents,
# the mean, the median as the mean of the two middle values; pct: sum /
# total * 100, the total added in key order.
from fractions import Fraction


def fmt(v):
    r = repr(float(v))
    return r[:-2] if r.endswith('.0') else r


def stats(vals):
    if any(isinstance(x, float) for x in vals):
        s = c = 0.0
        for x in map(float, vals):
            y = x - c
            t = s + y
            c = (t - s) - y
            s = t
        o = sorted(map(float, vals))
        h = len(o) // 2
        med = o[h] if len(o) % 2 else (o[h - 1] + o[h]) / 2
        return (s, fmt(s), fmt(s / len(vals)), fmt(med), fmt(o[0]),
                fmt(o[-1]))
    s = sum(vals)
    o = sorted(vals)
    h = len(o) // 2
    m2 = 2 * o[h] if len(o) % 2 else o[h - 1] + o[h]
    med = str(m2 // 2) if m2 % 2 == 0 else '%d.5' % (m2 // 2)
    return (float(s), str(s), fmt(float(Fraction(s, len(vals)))), med,
            str(o[0]), str(o[-1]))


def table(groups, key, unit=""):
    """Prints the records of groups ({name: [values]}), the largest sum
    first; key is the -k member, unit the suffix of the statistics."""
    st = {k: stats(v) for k, v in groups.items()}
    total = 0.0
    for k in sorted(st):
        total += st[k][0]
    for k in sorted(st, key=lambda k: -st[k][0]):
        s = st[k]
        print('{"%s":"%s","count":%d,"sum%s":%s,"mean%s":%s,"median%s":%s,'
              '"min%s":%s,"max%s":%s,"pct":%s}'
              % (key, k, len(groups[k]), unit, s[1], unit, s[2], unit, s[3],
                 unit, s[4], unit, s[5], fmt(s[0] / total * 100)))

# Writes this case's expout without topn: exact integers with Python's
# ints for group w (int64 and uint64 values mixed: 65 bits), Python's
# doubles for the float group x (an integer above 2^53 becomes the
# nearest double when the group turns float), a Kahan sum as topn(1)
# documents, and the shortest round-trip form of each double.
from fractions import Fraction

w = [-5, 18446744073709551615, -9223372036854775808, 3]
x = [float(v) for v in (9007199254740993, 1.5, 9007199254740995)]


def fmt(v):
    r = repr(float(v))
    return r[:-2] if r.endswith('.0') else r


s = c = 0.0
for v in x:
    y = v - c
    t = s + y
    c = (t - s) - y
    s = t
sw, sx = sum(w), s
ws, xs = sorted(w), sorted(x)
m2 = ws[1] + ws[2]
mw = str(m2 // 2) if m2 % 2 == 0 else '%d.5' % (m2 // 2)
total = float(sw) + sx
rows = [
    '{"k":"w","count":4,"sum":%d,"mean":%s,"median":%s,"min":%d,'
    '"max":%d,"pct":%s}' % (sw, fmt(float(Fraction(sw, 4))), mw, ws[0],
                            ws[-1], fmt(float(sw) / total * 100)),
    '{"k":"x","count":3,"sum":%s,"mean":%s,"median":%s,"min":%s,'
    '"max":%s,"pct":%s}' % (fmt(sx), fmt(sx / 3), fmt(xs[1]), fmt(xs[0]),
                            fmt(xs[2]), fmt(sx / total * 100)),
]
print('\n'.join(rows))
print('{"type":"topn_partial","value":"v","keys":{"k":"w"},"values":[%s]}'
      % ','.join(str(v) for v in w))
print('{"type":"topn_partial","value":"v","keys":{"k":"x"},"float":true,'
      '"values":[%s]}' % ','.join(fmt(v) for v in x))
print('\n'.join(rows))

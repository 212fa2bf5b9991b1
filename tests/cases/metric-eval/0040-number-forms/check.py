# check.py gen|args|cmp: the input, the -e options, and the comparison
# for check.sh (Python's float() is the independent reader).
import json, struct, sys

TEXTS = ["0", "-0", "-0.0", "7", "-12", "65536.0", "53951831.0", "0.1",
         "123.456", "-987.125", "0.000001", "1.5e3", "2E-3", "1e300",
         "9007199254740992", "9007199254740993", "9007199254740993.0",
         "12345678901234567890", "1234567890123456789.5",
         "0.1234567890123456789", "3.14159265358979323846",
         "1.0000000000000000000000001", "4.35", "99999999999999999999",
         "0.30000000000000004", "1e-320", "123456789012.0625",
         # Digit runs around eight (read eight at a time) and ".0".
         "0.0", "-65536.0", "12345678", "123456789", "87654321.0",
         "123456789.0", "1234567812345678", "12345678123456789.0",
         "9007199254740992.0", "0.12345678", "0.123456789", "10.00",
         "1.0e2", "100000000.0",
         # Up to seven digits, bare or with ".0", read whole at once.
         "1", "9", "1.0", "1234567", "1234567.0", "9999999.0", "10000000",
         "1.00", "1.05", "2.0e1", "1230.05", "8.0", "5"]
names = ["A%d" % i for i in range(len(TEXTS))]
# The record twice: the first dispatch teaches metric-eval the layout,
# the second is read by the path for records of a known layout; MIN and
# MAX of the two are the value only if both readings are.
if sys.argv[1] == "gen":
    for i in range(2):
        print('{"type":"dispatch","Dispatch_ID":%d,"Kernel_Name":"k",' % i +
              ",".join('"%s":%s' % (n, t) for n, t in zip(names, TEXTS)) +
              "}")
elif sys.argv[1] == "args":
    print(" ".join("-e %s_min=MIN(%s) -e %s_max=MAX(%s)" % (n, n, n, n)
                   for n in names))
else:
    got = {}
    for line in open(sys.argv[3]):
        r = json.loads(line, parse_int=float)
        got[r["metric"]] = r["Value"]
    bad = 0
    for n, t in zip(names, TEXTS):
        want = struct.pack("<d", float(t))
        for k in (n + "_min", n + "_max"):
            v = got.get(k)
            if v is None or struct.pack("<d", float(v)) != want:
                print("%s: %s read as %r" % (k, t, v))
                bad += 1
    print("%d of %d values read exactly" % (2 * len(TEXTS) - bad,
                                           2 * len(TEXTS)))

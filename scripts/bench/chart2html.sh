#!/bin/sh
# chart2html.sh: the page of the largest rocprof-compute fixture (mixbench,
# 167 kernels) with the full gfx90a config, every kernel a choice:
#   pmc2ndjson mixbench/mi200 | metric-eval -c gfx90a --by Kernel_Name
# (or, when those programs are not built, a generated stream of the same
# shape: 900 metrics x 168 kernel choices).  Measures chart2html's rate
# and peak memory against a plain python3 page writer (json.loads each
# line, json.dumps the list into the page), the page size (target < 5 MB),
# and in headless chromium the time to interactive (< 1 s) and the time of
# a kernel switch (< 100 ms).  With FULL=1, a timeline page of 200,000
# generated dispatches too: rate, size and time to interactive.  $BIN
# and $BENCH_TMP come from bench.sh.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib/measure.sh"
BIN=${BIN:-$top/build/bin}
T=${BENCH_TMP:-/tmp}/chart2html
runs=${RUNS:-5}
mkdir -p "$T" || exit 1
W=$top/../shared/fixtures/rocprof-compute/mixbench/mi200
C=$top/../shared/reference/rocprof-compute-configs/gfx90a
in=$T/metrics.ndjson
inputs_done	# its own (FULL=1) is made when it is timed

if [ -x "$BIN/pmc2ndjson" ] && [ -x "$BIN/metric-eval" ] && [ -d "$W" ] &&
    "$BIN/pmc2ndjson" "$W" 2>/dev/null |
    "$BIN/metric-eval" -c "$C" --by Kernel_Name >"$in" 2>/dev/null; then
	what="mixbench/mi200 gfx90a --by Kernel_Name"
else
	what="generated 900 metrics x 168 kernels"
	python3 - >"$in" <<'EOF'
import json, random
rng = random.Random(1)
kernels = [None] + ["void benchmark_func<T%d, 256, 8u, %du>(T%d, T%d*) "
                    "[clone .kd]" % (k, 2 ** (k % 10), k, k) for k in range(167)]
for k in kernels:
    for p in range(18):
        for t in range(5):
            for m in range(10):
                r = {"panel_id": (p + 1) * 100, "panel": "Panel %d" % p,
                     "table_id": "%d.%d" % (p + 1, t + 1),
                     "table": "Table %d.%d" % (p + 1, t + 1),
                     "metric_id": "%d.%d.%d" % (p + 1, t + 1, m),
                     "metric": "Metric %d" % m}
                if k is not None:
                    r["Kernel_Name"] = k
                # one dispatch per kernel, as in mixbench: Min = Max = Avg
                v = rng.random() * 10 ** rng.randint(0, 6)
                r.update({"Avg": v, "Min": v, "Max": v,
                          "Unit": "Gb/s", "Peak": 1638.4,
                          "Pct of Peak": v / 16.384})
                print(json.dumps(r, separators=(",", ":")))
EOF
fi
records=$(wc -l <"$in")
insize=$(wc -c <"$in")

cat >"$T/peer.py" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
data = json.dumps(recs, separators=(",", ":"))
data = data.replace("<", "\\u003c").replace(">", "\\u003e")
with open(sys.argv[2], "w") as f:
    f.write("<!DOCTYPE html><script type=\"application/json\">" + data +
            "</" + "script>")
EOF
t=$(pair "$runs" "'$BIN/chart2html' -o '$T/page.html' '$in'" \
    "python3 '$T/peer.py' '$in' '$T/peer.html'")
page=$(wc -c <"$T/page.html")
row chart2html "$what ($records records, $((insize / 1000000)) MB)" \
    "python3 json page writer" "$t" \
    "page $(awk -v p="$page" 'BEGIN { printf "%.2f", p / 1e6 }') MB (target < 5 MB)"

if [ -d "$top/tests/browser/node_modules/playwright-core" ]; then
	r=$(node "$top/scripts/bench/chart2html-page.mjs" "$T/page.html" \
	    "$runs") ||
	    { echo "chart2html page: chromium run failed" >&2; exit 1; }
	note=$(echo "$r" | python3 -c '
import json, sys
r = json.load(sys.stdin)
sw = ("kernel switch %.1f ms median (target < 100 ms), %.1f ms worst of %d, "
    "all tables %.0f ms") % (r["switch_ms"], r["switch_max_ms"],
    r["switches"], r["all_tables_ms"]) \
    if r["switch_ms"] is not None else "no kernel selector"
print("interactive in %.0f ms (target < 1000 ms), %s" % (r["tti_ms"], sw))')
	row "chart2html page (chromium)" "$what" "-" "- - - - - -" "$note"
else
	echo "chart2html page (chromium) | skipped: playwright-core missing" \
	    "| - | - | - | - | - | - | - | - | - | -"
fi

# A timeline page: 200,000 dispatches on 8 GPUs with 19-digit timestamps
# (FULL=1 only).
[ "${FULL:-0}" = 1 ] || exit 0
cat >"$T/dispatches.py" <<'EOF2'
import random
r = random.Random(1)
t = 1751344815171234567
for i in range(200000):
    d = r.randint(1000, 50000)
    print('{"type":"dispatch","Dispatch_ID":%d,"Kernel_Name":"kernel_%d",'
          '"GPU_ID":%d,"Start_Timestamp":%d,"End_Timestamp":%d,'
          '"dur_ns":%d}' % (i, i % 50, i % 8, t, t + d, d))
    t += d // 8
EOF2
d=$(cached dispatches.ndjson "python3 '$T/dispatches.py' >\"\$out\"" \
    "$T/dispatches.py") || exit 1
t=$(pair "$runs" "'$BIN/chart2html' -o '$T/timeline.html' '$d'")
tsize=$(wc -c <"$T/timeline.html")
if [ -d "$top/tests/browser/node_modules/playwright-core" ]; then
	r=$(node "$top/scripts/bench/chart2html-page.mjs" "$T/timeline.html" \
	    "$runs")
	tti=$(echo "$r" | python3 -c 'import json, sys
print("%.0f" % json.load(sys.stdin)["tti_ms"])')
else
	tti=-
fi
row chart2html "200,000 dispatches, timeline and list" "-" "$t" \
    "page $(awk -v p="$tsize" 'BEGIN { printf "%.2f", p / 1e6 }') MB, interactive in $tti ms"

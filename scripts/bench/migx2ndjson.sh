#!/bin/sh
# migx2ndjson.sh: migx2ndjson on synthetic migraphx-driver perf reports of
# 1,000,000 and 100,000 instructions (make_perf_report.py, ROCm 7.2 layout,
# no program echo: about 150 MB and 15 MB), against what users have today:
# a plain python3 loop with a regex per perf line, writing one JSON record
# each.  Median of $RUNS runs (default 5), taking turns; peak memory must
# not grow with the input (two sizes shown).  Target: >= 400 MB/s of CPU
# time, >= 10x the Python loop.  $BIN and $BENCH_TMP come from bench.sh;
# SIZES="1000000 100000" by default.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib/measure.sh"
BIN=${BIN:-$top/build/bin}
T=${BENCH_TMP:-/tmp}/migx2ndjson
GEN=$top/../shared/fixtures/migraphx/make_perf_report.py
runs=${RUNS:-5}
mkdir -p "$T" || exit 1
if [ ! -f "$GEN" ] || ! command -v python3 >/dev/null; then
	echo "migx2ndjson | skipped: no python3 or no $GEN" \
	    "| - | - | - | - | - | - | - | - | - | -"
	exit 0
fi

cat >"$T/peer.py" <<'PY'
import json, re, sys
perf = re.compile(r'^(.*?) = (.*) -> (.*): (\S+)ms, (\S+)%$')
out = sys.stdout
for line in open(sys.argv[1], encoding='utf-8', errors='replace'):
    m = perf.match(line.rstrip('\n'))
    if m:
        out.write(json.dumps({"name": m.group(1), "op": m.group(2),
                              "shape": m.group(3), "time_ms": m.group(4),
                              "pct": m.group(5)}) + "\n")
PY

for n in ${SIZES:-1000000 100000}; do
	f=$(cached "perf-$n.txt" \
	    "python3 '$GEN' --instructions $n --no-program -o \"\$out\"" \
	    "$GEN") || { echo "migx2ndjson: generator failed" >&2; exit 1; }
	size=$(wc -c <"$f")
	t=$(pair "$runs" "'$BIN/migx2ndjson' --no-progress '$f'" \
	    "python3 '$T/peer.py' '$f'")
	note=$(echo "$t" | awk -v b="$size" '{
	    printf "%.0f MB/s of CPU; target >= 400 MB/s, ratio >= 10x",
	        b / 1e6 / ($3 > 0 ? $3 : 0.005) }')
	row migx2ndjson "perf report, $n instructions ($((size / 1000000)) MB)" \
	    "python3 regex loop" "$t" "$note"
done

#!/bin/sh
# migx2ndjson.sh: migx2ndjson on synthetic migraphx-driver perf reports of
# 1,000,000 and 100,000 instructions (make_perf_report.py, ROCm 7.2 layout,
# no program echo: about 150 MB and 15 MB), against what users have today:
# a plain python3 loop with a regex per perf line, writing one JSON record
# each.  Median of $RUNS runs (default 5), taking turns; peak memory must
# not grow with the input (two sizes shown).  The Python loop runs on the
# first size only (its rate does not change with the size: FULL=1 runs it
# on every size).  Target: >= 400 MB/s of CPU time, >= 10x the Python
# loop.  $BIN and $BENCH_TMP come from bench.sh; SIZES="1000000 100000"
# by default.
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

peer="python3 regex loop"
for n in ${SIZES:-1000000 100000}; do
	f=$(cached "perf-$n.txt" \
	    "python3 '$GEN' --instructions $n --no-program -o \"\$out\"" \
	    "$GEN") || { echo "migx2ndjson: generator failed" >&2; exit 1; }
	size=$(wc -c <"$f")
	if [ "$peer" = - ]; then
		t=$(pair "$runs" "'$BIN/migx2ndjson' --no-progress '$f'" "")
	else
		t=$(pair "$runs" "'$BIN/migx2ndjson' --no-progress '$f'" \
		    "python3 '$T/peer.py' '$f'")
	fi
	note=$(echo "$t" | awk -v b="$size" -v p="$peer" '{
	    printf "%.0f MB/s of CPU; target >= 400 MB/s%s",
	        b / 1e6 / ($3 > 0 ? $3 : 0.005),
	        p == "-" ? "" : ", ratio >= 10x" }')
	row migx2ndjson "perf report, $n instructions ($((size / 1000000)) MB)" \
	    "$peer" "$t" "$note"
	[ "${FULL:-0}" = 1 ] || peer=-
done

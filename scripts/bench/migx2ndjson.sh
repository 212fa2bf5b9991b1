#!/bin/sh
# migx2ndjson.sh: migx2ndjson on synthetic migraphx-driver perf reports of
# 1,000,000 and 100,000 instructions (make_perf_report.py, ROCm 7.2 layout,
# no program echo: about 150 MB and 15 MB), against the peers users have
# today: 'wc -l' (the floor of reading the lines) and a plain python3
# line split with a regex per perf line, writing one JSON record each.
# Rate is input MB/s, median of 3; peak memory is /usr/bin/time's maximum
# resident set, which must not grow with the input (two sizes shown).
# $BIN and $BENCH_TMP come from bench.sh; SIZES="1000000 100000" by default.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib/measure.sh"
BIN=${BIN:-$top/build/bin}
T=${BENCH_TMP:-/tmp}/migx2ndjson
GEN=$top/../shared/fixtures/migraphx/make_perf_report.py
mkdir -p "$T" || exit 1
if [ ! -f "$GEN" ] || ! command -v python3 >/dev/null; then
	echo "migx2ndjson | skipped: no python3 or no $GEN"
	exit 0
fi

cat >"$T/peer.py" <<'EOF'
import json, re, sys
perf = re.compile(r'^(.*?) = (.*) -> (.*): (\S+)ms, (\S+)%$')
out = sys.stdout
for line in open(sys.argv[1], encoding='utf-8', errors='replace'):
    m = perf.match(line.rstrip('\n'))
    if m:
        out.write(json.dumps({"name": m.group(1), "op": m.group(2),
                              "shape": m.group(3), "time_ms": m.group(4),
                              "pct": m.group(5)}) + "\n")
EOF

for n in ${SIZES:-1000000 100000}; do
	f=$T/perf-$n.txt
	if [ ! -s "$f" ]; then
		python3 "$GEN" --instructions "$n" --no-program -o "$f.tmp" &&
		    mv "$f.tmp" "$f" || { echo "migx2ndjson: generator failed"; exit 1; }
	fi
	size=$(wc -c <"$f")
	set -- $(measure 3 "$BIN/migx2ndjson" --no-progress "$f")
	sec=$1 kb=$2 cpu=$3
	set -- $(measure 3 wc -l "$f")
	wsec=$1
	set -- $(measure 3 python3 "$T/peer.py" "$f")
	psec=$1 pkb=$2
	awk -v n="$n" -v b="$size" -v s="$sec" -v kb="$kb" -v ws="$wsec" -v c="$cpu" \
	    -v ps="$psec" -v pkb="$pkb" 'BEGIN {
		mb = b / 1e6
		s = s > 0 ? s : 0.005; ws = ws > 0 ? ws : 0.005
		ps = ps > 0 ? ps : 0.005; c = c > 0 ? c : 0.005
		printf "migx2ndjson | %d-instruction perf report (7.2) | " \
		    "%.0f MB | %.0f MB/s (%.0f MB/s of CPU time), peak %.1f MB " \
		    "| wc -l %.0f MB/s | %.2fx\n", n, mb, mb / s, mb / c,
		    kb / 1024, mb / ws, ws / s
		printf "migx2ndjson | %d-instruction perf report (7.2) | " \
		    "%.0f MB | %.0f MB/s, peak %.1f MB | python3 regex %.0f " \
		    "MB/s, peak %.1f MB | %.1fx\n", n, mb, mb / s, kb / 1024,
		    mb / ps, pkb / 1024, ps / s
	}'
done

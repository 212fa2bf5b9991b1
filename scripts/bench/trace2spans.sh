#!/bin/sh
# trace2spans.sh: trace2spans on generated Kineto-style traces (100 MB and
# 1 GB by default) against python3's json.load of the same file, which is
# what users do today.  Times are the median of $RUNS runs (default 3; the
# peer runs $PEER_RUNS times, default 1, as it takes about a minute and
# several GB per gigabyte); peak memory is the largest RSS of those runs,
# so "flat in the input size" shows as the same peak on both rows.
# usage: BIN=... BENCH_TMP=... sh scripts/bench/trace2spans.sh [MB ...]
set -e
. "$(dirname "$0")/lib/measure.sh"
: "${BIN:?set BIN to the bin dir}" "${BENCH_TMP:?set BENCH_TMP}"
here=$(cd "$(dirname "$0")" && pwd)
runs=${RUNS:-3}
peer_runs=${PEER_RUNS:-1}
[ $# -gt 0 ] || set -- 100 1000

for mb in "$@"; do
	f="$BENCH_TMP/trace-${mb}mb.json"
	[ -f "$f" ] || python3 "$here/make_trace.py" --mb "$mb" -o "$f"
	size=$(wc -c <"$f")
	ours=$(measure "$runs" "$BIN/trace2spans" --no-progress "$f")
	peer=$(measure "$peer_runs" python3 -c \
	    'import json, sys; json.load(open(sys.argv[1]))' "$f")
	echo "$size $ours $peer" | awk '
	    function rate(mb, s) { return s > 0 ? mb / s : 0 }
	    {
	    mb = $1 / 1e6
	    printf "trace2spans | Kineto-style trace (make_trace.py) | %.0f MB | %.0f MB/s (CPU %.0f MB/s), peak %.1f MB | python3 json.load %.0f MB/s (CPU %.0f MB/s), peak %.0f MB | %.1fx (CPU %.1fx)\n",
	        mb, rate(mb, $2), rate(mb, $4), $3 / 1024, rate(mb, $5),
	        rate(mb, $7), $6 / 1024, $5 / $2, ($4 > 0 ? $7 / $4 : 0) }'
done

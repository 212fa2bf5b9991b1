#!/bin/sh
# spans.sh: db2spans and spans2stacks (and the whole flame-graph pipeline
# when flame2html is built) on a synthetic Ascend PyTorch profiler DB of
# $ROWS rows (default 1,000,000) made by make_ascend_db.py.  Times are the
# median of $RUNS runs (default 3), peak memory the largest RSS of those
# runs (for a pipeline: of its largest stage).  Peers: python3's sqlite3
# module writing the same records with json.dumps (db2spans), jq -c
# reading the spans (spans2stacks), and for the pipeline the reference
# MindStudio flame-graph script, which is not installed here: its time is
# the issue's stated 4 s for 1M rows, scaled by the row count.
# usage: BIN=... BENCH_TMP=... sh scripts/bench/spans.sh
set -e
. "$(dirname "$0")/lib/measure.sh"
: "${BIN:?set BIN to the bin dir}" "${BENCH_TMP:?set BENCH_TMP}"
here=$(cd "$(dirname "$0")" && pwd)
gen="$here/../../../shared/fixtures/ascend/make_ascend_db.py"
runs=${RUNS:-3}
rows=${ROWS:-1000000}
db="$BENCH_TMP/ascend-$rows.db"
sorted="$BENCH_TMP/ascend-$rows.sorted.ndjson"
plain="$BENCH_TMP/ascend-$rows.ndjson"

if [ ! -f "$db" ]; then
	if [ ! -f "$gen" ]; then
		echo "spans.sh: $gen not found: skipped" >&2
		exit 0
	fi
	python3 "$gen" -o "$db.tmp" --rows "$rows" --seed 7 --no-stack -q
	mv "$db.tmp" "$db"
fi
"$BIN/db2spans" --no-progress -s "$db" 2>/dev/null >"$sorted"
"$BIN/db2spans" --no-progress "$db" 2>/dev/null >"$plain"

# row PROGRAM INPUT "ours" "peer" PEERNAME: one table row in rows/s.
row() {
	echo "$rows $3 $4" | awk -v prog="$1" -v input="$2" -v peer="$5" '{
	    r = $1 / 1e6
	    printf "%s | %s | %.0fk rows | %.2f M rows/s (%.3f s, cpu %.3f s), peak %.1f MB | %s %.2f M rows/s (%.2f s) | %.1fx\n",
	        prog, input, $1 / 1000, r / $2, $2, $4, $3 / 1024, peer,
	        r / $5, $5, $5 / $2 }'
}

ours=$(measure "$runs" "$BIN/db2spans" --no-progress "$db")
peer=$(measure 1 python3 -c '
import json, sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
out = sys.stdout
for s, e, g, n, t in db.execute("SELECT a.startNs, a.endNs, a.globalTid, "
    "n.value, a.type FROM PYTORCH_API a LEFT JOIN STRING_IDS n "
    "ON n.id = a.name"):
	out.write(json.dumps({"pid": g >> 32, "tid": g & 0xFFFFFFFF,
	    "name": n or "unknown", "cat": t, "start_ns": int(s),
	    "end_ns": int(e)}) + "\n")
' "$db")
row db2spans "Ascend DB (make_ascend_db.py)" "$ours" "$peer" python3

ours=$(measure "$runs" "$BIN/db2spans" --no-progress -s "$db")
row "db2spans -s" "Ascend DB, sorted per thread" "$ours" "$peer" python3

jq=$(measure 1 jq -c . "$sorted")
ours=$(measure "$runs" "$BIN/spans2stacks" -s -q "$sorted")
row "spans2stacks -s" "sorted span records" "$ours" "$jq" "jq -c ."
ours=$(measure "$runs" "$BIN/spans2stacks" -q "$plain")
row spans2stacks "span records in table order" "$ours" "$jq" "jq -c ."

ref=$(echo "$rows" | awk '{ print 4 * $1 / 1e6, 0, 0 }')
ours=$(measure "$runs" sh -c '"$1/db2spans" --no-progress "$2" |
    "$1/spans2stacks" -q' sh "$BIN" "$db")
row "db2spans | spans2stacks" "Ascend DB" "$ours" "$ref" \
    "reference script (stated 4 s/1M rows)"
ours=$(measure "$runs" sh -c '"$1/db2spans" --no-progress -s "$2" |
    "$1/spans2stacks" -s -q' sh "$BIN" "$db")
row "db2spans -s | spans2stacks -s" "Ascend DB" "$ours" "$ref" \
    "reference script (stated 4 s/1M rows)"
if [ -x "$BIN/flame2html" ]; then
	ours=$(measure "$runs" sh -c '"$1/db2spans" --no-progress "$2" |
	    "$1/spans2stacks" -q | "$1/flame2html" --no-progress' sh \
	    "$BIN" "$db")
	row "db2spans | spans2stacks | flame2html" "Ascend DB" "$ours" \
	    "$ref" "reference script (stated 4 s/1M rows)"
fi

#!/bin/sh
# spans.sh: the Ascend flame-graph pipeline, db2spans x.db | spans2stacks |
# flame2html, against the reference MindStudio script (flamegraph.py in
# ../shared/reference/peers/, run here) on synthetic Ascend PyTorch
# profiler DBs from make_ascend_db.py (--deep-depth 0: the reference dies
# on the deep chain; --no-stack).  Sizes: $SPANS_ROWS (default "1000000
# 10000000"); the 1M DB is also timed with its PYTORCH_API rows in random
# order (real DBs are not sorted by thread or time).  Median of $RUNS runs
# (default 5), both programs taking turns; peak is the largest stage.
# Targets: <= 0.15x the reference's wall time, <= 0.2x its CPU time (the
# ratios >= 6.7x and >= 5x), every stage <= 64 MB.  $BIN and $BENCH_TMP
# come from bench.sh.
set -e
. "$(dirname "$0")/lib/measure.sh"
: "${BIN:?set BIN to the bin dir}" "${BENCH_TMP:?set BENCH_TMP}"
here=$(cd "$(dirname "$0")" && pwd)
gen="$here/../../../shared/fixtures/ascend/make_ascend_db.py"
ref="$here/../../../shared/reference/peers/mindstudio-flame-graph/flamegraph.py"
runs=${RUNS:-5}
T=$BENCH_TMP/spans
mkdir -p "$T/ref"
if [ ! -f "$gen" ]; then
	echo "Ascend DB -> flame HTML | skipped: $gen missing" \
	    "| - | - | - | - | - | - | - | - | - | -"
	exit 0
fi

# db ROWS: the generated DB of ROWS rows (made once, kept in $BENCH_TMP).
db() {
	cached "ascend-$1-d0.db" "python3 '$gen' -o \"\$out\" --rows $1 \
	    --seed 7 --no-stack --deep-depth 0 -q" "$gen"
}

# shuffled DB: a copy of DB with the PYTORCH_API rows in random order.
shuffled() {
	cached "$(basename "$1" .db)-shuffled.db" "cp '$1' \"\$out\" &&
	    sqlite3 \"\$out\" 'CREATE TABLE t AS SELECT * FROM PYTORCH_API
	    ORDER BY random(); DROP TABLE PYTORCH_API;
	    ALTER TABLE t RENAME TO PYTORCH_API; VACUUM;'"
}

# one ROWS DB LABEL: the pipeline and the reference on DB.
one() {
	_ours="'$BIN/db2spans' --no-progress '$2' | '$BIN/spans2stacks' -q |
	    '$BIN/flame2html' --no-progress -o '$T/page.html'"
	if [ -f "$ref" ]; then
		t=$(pair "$runs" "$_ours" "python3 '$ref' '$2' -o '$T/ref'")
		_peer="MindStudio flamegraph.py"
	else
		t=$(pair "$runs" "$_ours")
		_peer="MindStudio flamegraph.py missing ($ref)"
	fi
	row "Ascend DB -> flame HTML" "$(($1 / 1000))k PYTORCH_API rows, $3" \
	    "$_peer" "$t" \
	    "target CPU ratio >= 5x, wall ratio >= 6.7x, every stage <= 64 MB"
}

for n in ${SPANS_ROWS:-1000000 10000000}; do
	d=$(db "$n")
	one "$n" "$d" "torch_npu order"
	if [ "$n" -eq 1000000 ]; then
		one "$n" "$(shuffled "$d")" "random order"
	fi
done

#!/bin/sh
# topn.sh: topn -k name (count, sum, mean, exact median, min, max, share)
# on generated span records (1M and 10M by default, $TOPN_SIZES; about
# 2,000 names of a heavy-tailed popularity) against DuckDB: read_ndjson
# with the two columns declared, the same statistics with GROUP BY name
# and median(), written as CSV (scripts/bench/duckdb-topn.mjs; DuckDB
# comes from npm into scripts/bench/duckdb/, bench only; skipped when it
# is not there).  DuckDB uses both cores: compare CPU and wall.  Median of
# $RUNS runs (default 5), taking turns.  Target: CPU ratio >= 3x at both
# sizes; memory flat but for the values the exact median keeps.
# $BIN and $BENCH_TMP come from bench.sh.
set -e
. "$(dirname "$0")/lib/measure.sh"
: "${BIN:?set BIN to the bin dir}" "${BENCH_TMP:?set BENCH_TMP}"
here=$(cd "$(dirname "$0")" && pwd)
runs=${RUNS:-5}
duck=
if [ -d "$here/duckdb/node_modules/@duckdb/node-api" ] &&
    command -v node >/dev/null; then
	duck="node '$here/duckdb-topn.mjs'"
fi

cat >"$BENCH_TMP/topn-gen.py" <<'PY'
import random, sys
r = random.Random(1)
t = 1751344815171234567
w = sys.stdout.write
for i in range(int(sys.argv[1])):
    d = r.randint(1, 10 ** 6)
    w('{"pid":3136493,"tid":%d,"name":"aten::op_%d","cat":"cpu_op",'
      '"start_ns":%d,"end_ns":%d,"dur_ns":%d}\n'
      % (3136493 + i % 4, min(int(r.paretovariate(1.1)), 2000), t, t + d,
         d))
    t += d
PY
for n in ${TOPN_SIZES:-1000000 10000000}; do
	f=$(cached "spans-$n.ndjson" \
	    "python3 '$BENCH_TMP/topn-gen.py' $n >\"\$out\"" \
	    "$BENCH_TMP/topn-gen.py")
	mb=$(($(wc -c <"$f") / 1000000))
	ours="'$BIN/topn' --no-progress -k name -n 0 '$f'"
	if [ -n "$duck" ]; then
		t=$(pair "$runs" "$ours" "$duck '$f' '$BENCH_TMP/duck.csv'")
		row topn "$((n / 1000))k span records by name ($mb MB)" \
		    "DuckDB read_ndjson + GROUP BY" "$t" \
		    "target CPU ratio >= 3x; DuckDB runs on both cores"
	else
		t=$(pair "$runs" "$ours" "")
		row topn "$((n / 1000))k span records by name ($mb MB)" \
		    "DuckDB not installed" "$t" \
		    "npm install --prefix scripts/bench/duckdb to compare"
	fi
done

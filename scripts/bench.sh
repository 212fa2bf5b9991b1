#!/bin/sh
# bench.sh: runs every scripts/bench/*.sh with the build in $1 and prints
# one table: a row for each measurement, profpipe against a peer run in
# the same script (taking turns, median of $RUNS runs, default 5): CPU
# time (user + system), wall time, peak resident set, and the peer's time
# over ours.  Runs under nice.  Generated inputs are kept in $BENCH_TMP
# (default $O/bench); the first run spends some minutes making them.
# BENCH="spans topn" runs only those scripts.
O=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
export BIN="$top/$O/bin" BENCH_TMP="${BENCH_TMP:-$top/$O/bench}"
mkdir -p "$BENCH_TMP"
. "$top/scripts/bench/lib/measure.sh"
. "$top/scripts/syspython.sh"
syspython "$BENCH_TMP/py" || exit 1
row_header
start=$(date +%s)
for s in "$top"/scripts/bench/*.sh; do
	[ -f "$s" ] || continue
	name=$(basename "$s" .sh)
	if [ -n "${BENCH:-}" ]; then
		case " $BENCH " in *" $name "*) ;; *) continue ;; esac
	fi
	t0=$(date +%s)
	nice sh "$s" || echo "$name | failed | - | - | - | - | - | - | - | -" \
	    "| - | -"
	echo "($name: $(($(date +%s) - t0)) s)" >&2
done
echo "(all rows in $(($(date +%s) - start)) s)" >&2

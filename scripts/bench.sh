#!/bin/sh
# bench.sh: runs every scripts/bench/*.sh with the build in $1 and prints
# one table: a row for each measurement, profpipe against a peer run in
# the same script (taking turns, median of $RUNS runs, default 5): CPU
# time (user + system), wall time, peak resident set, and the peer's time
# over ours.  Runs under nice.  Generated inputs are kept in
# $BENCH_TMP/cache (default $O/bench/cache), named by a checksum of their
# generator and its parameters: the first run spends some minutes making
# them, later runs none.  BENCH="spans topn" runs only those scripts.
# What each script took (wall and CPU time) goes to stderr; the last row
# of the table is the whole.
O=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
export BIN="$top/$O/bin" BENCH_TMP="${BENCH_TMP:-$top/$O/bench}"
mkdir -p "$BENCH_TMP"
. "$top/scripts/bench/lib/measure.sh"
. "$top/scripts/syspython.sh"
syspython "$BENCH_TMP/py" || exit 1
row_header
: >"$BENCH_TMP/times"
for s in "$top"/scripts/bench/*.sh; do
	[ -f "$s" ] || continue
	name=$(basename "$s" .sh)
	if [ -n "${BENCH:-}" ]; then
		case " $BENCH " in *" $name "*) ;; *) continue ;; esac
	fi
	nice /usr/bin/time -f '%e %U %S' -o "$BENCH_TMP/time" sh "$s" ||
	    echo "$name | failed | - | - | - | - | - | - | - | - | - | -"
	tail -n 1 "$BENCH_TMP/time" | awk -v n="$name" '{
	    printf "(%s: %.0f s, %.0f s of CPU)\n", n, $1,
	    $2 + $3 }' >&2
	tail -n 1 "$BENCH_TMP/time" >>"$BENCH_TMP/times"
done
# The last row: what the table took, the making of inputs not yet made
# included.
row "make bench" "${BENCH:-all scripts}" - "$(awk '{ w += $1; c += $2 + $3 }
    END { print w, "-", c, "- - -" }' "$BENCH_TMP/times")" \
    "wall and CPU time of the scripts above (under nice)"

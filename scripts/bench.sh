#!/bin/sh
# bench.sh: runs every scripts/bench/*.sh with the build in $1 and prints
# one table: a row for each measurement, profpipe against a peer run in
# the same script (taking turns, median of $RUNS runs, default 5): CPU
# time (user + system), wall time, peak resident set, and the peer's time
# over ours.  Runs under nice.  Generated inputs are kept in
# $BENCH_TMP/cache (default $O/bench/cache), named by a checksum of their
# generator and its parameters: the first run spends some minutes making
# them (two at a time, before anything is timed), later runs none.
# BENCH="spans topn" runs only those scripts; FULL=1 adds the rows that
# no target or README figure needs (a peer on a second size, a second
# fixture, the timeline page).
# What each script took (wall and CPU time, and of it the making of
# inputs) goes to stderr; the last row of the table is the whole, with
# the part that was making inputs.
O=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
export BIN="$top/$O/bin" BENCH_TMP="${BENCH_TMP:-$top/$O/bench}"
mkdir -p "$BENCH_TMP"
. "$top/scripts/bench/lib/measure.sh"
. "$top/scripts/syspython.sh"
syspython "$BENCH_TMP/py" || exit 1
row_header
: >"$BENCH_TMP/times"
: >"$BENCH_TMP/made"
# The scripts to run, one a line; spans.sh, whose Ascend DBs take longest
# to make, first.
for s in "$top"/scripts/bench/*.sh; do
	[ -f "$s" ] || continue
	name=$(basename "$s" .sh)
	if [ -n "${BENCH:-}" ]; then
		case " $BENCH " in *" $name "*) ;; *) continue ;; esac
	fi
	echo "$s"
done | awk '/\/spans\.sh$/ { print; next } { rest[n++] = $0 }
    END { for (i = 0; i < n; i++) print rest[i] }' >"$BENCH_TMP/scripts"

# First the inputs not made yet, by the scripts run two at a time with
# BENCH_INPUTS=1 (lib/measure.sh), which makes them time nothing: no
# figure is taken meanwhile, and the second core takes half the making.
nice /usr/bin/time -f '%e %U %S' -o "$BENCH_TMP/time" \
    xargs -d '\n' -P 2 -I{} env BENCH_INPUTS=1 sh {} \
    <"$BENCH_TMP/scripts" >/dev/null || :
tail -n 1 "$BENCH_TMP/time" >"$BENCH_TMP/inputs"
awk '{ printf "(making inputs, two at a time: %.0f s, %.0f s of CPU)\n",
    $1, $2 + $3 }' "$BENCH_TMP/inputs" >&2
m_in=$(wc -l <"$BENCH_TMP/made")

while IFS= read -r s <&3; do
	name=$(basename "$s" .sh)
	m0=$(wc -l <"$BENCH_TMP/made")
	nice /usr/bin/time -f '%e %U %S' -o "$BENCH_TMP/time" sh "$s" ||
	    echo "$name | failed | - | - | - | - | - | - | - | - | - | -"
	# What the script took, and of it the making of its inputs (lines
	# that cached() in measure.sh added to $BENCH_TMP/made).
	{ tail -n 1 "$BENCH_TMP/time" && tail -n +$((m0 + 1)) \
	    "$BENCH_TMP/made"; } | awk -v n="$name" '
	    NR == 1 { w = $1; c = $2 + $3; next }
	    { mw += $1; mc += $2 + $3 }
	    END { printf "(%s: %.0f s, %.0f s of CPU", n, w, c
		if (NR > 1)
			printf "; making inputs %.0f s, %.0f s of CPU", mw, mc
		print ")" }' >&2
	tail -n 1 "$BENCH_TMP/time" >>"$BENCH_TMP/times"
done 3<"$BENCH_TMP/scripts"
# The last row: what the table took, the making of inputs not yet made
# included, and how much of it that was: the first step, and what the
# scripts made themselves (FULL=1's inputs).
row "make bench" "${BENCH:-all scripts}" - "$(cat "$BENCH_TMP/inputs" \
    "$BENCH_TMP/times" | awk '{ w += $1; c += $2 + $3 }
    END { print w, "-", c, "- - -" }')" \
    "$({ cat "$BENCH_TMP/inputs" && tail -n +$((m_in + 1)) \
    "$BENCH_TMP/made"; } | awk '{ w += $1; c += $2 + $3 } END {
	printf "wall and CPU time of the scripts above (under nice); of " \
	    "it, making inputs: %.0f s wall, %.0f s CPU", w, c }')"

#!/bin/sh
# flame2html.sh: folded stacks from ../shared/bench/make_folded.py (seed 42;
# 100,000 lines = 845k merged frames, 1,000,000 lines = 8.4M frames, depth
# up to 60) to one HTML page, against flamegraph.pl --minwidth 0 (in
# ../shared/reference/peers/, run here on the 100k input: on the 1M input
# it needs about 4 minutes and 7 GB).  async-profiler's converter is not
# installed here; its figures (21 s for the 1M input) are from
# ../shared/notes/flame-graphs.md, measured elsewhere.  Median of $RUNS
# runs (default 5), taking turns with the peer.  Then in headless chromium
# the time to first paint, a search, a zoom and the JS heap.  Targets: 1M
# lines <= 10.5x the time of 100k, <= 2 s CPU and <= 128 MB at 1M, >= 10x
# async-profiler, >= 50x flamegraph.pl.  $BIN and $BENCH_TMP come from
# bench.sh.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib/measure.sh"
BIN=${BIN:-$top/build/bin}
T=${BENCH_TMP:-/tmp}/flame2html
GEN=$top/../shared/bench/make_folded.py
FG=$top/../shared/reference/peers/FlameGraph/flamegraph.pl
runs=${RUNS:-5}
mkdir -p "$T" || exit 1

cpu100k=
for n in 100000 1000000; do
	in=$T/in_$n.folded
	if [ ! -s "$in" ]; then
		nice python3 "$GEN" -n $n --seed 42 -o "$in.tmp" &&
		    mv "$in.tmp" "$in" || { echo "flame2html: generator failed"; exit 1; }
	fi
	mb=$(($(wc -c <"$in") / 1000000))
	ours="'$BIN/flame2html' --no-progress -o '$T/page_$n.html' '$in'"
	if [ $n -eq 100000 ] && [ -x "$FG" ]; then
		t=$(pair "$runs" "$ours" "'$FG' --minwidth 0 '$in'")
		row flame2html "in_$n.folded ($mb MB)" \
		    "flamegraph.pl --minwidth 0" "$t" "target ratio >= 50x"
		cpu100k=$(echo "$t" | cut -d' ' -f3)
	else
		t=$(pair "$runs" "$ours" "")
		note=$(echo "$t" | awk -v c="$cpu100k" '{
		    printf "async-profiler 21 s (measured elsewhere) over our " \
		        "CPU: %.1fx; %.1fx the CPU of 100k (target <= 10.5x); " \
		        "target <= 2 s CPU, <= 128 MB", 21 / ($3 > 0 ? $3 : 0.005),
		        (c > 0 ? $3 / c : 0) }')
		row flame2html "in_$n.folded ($mb MB)" "-" "$t" "$note"
	fi
done

if [ -d "$top/tests/browser/node_modules/playwright-core" ]; then
	for n in 100000 1000000; do
		r=$(node "$top/scripts/bench/flame-paint.mjs" "$T/page_$n.html" 3) ||
		    { echo "flame2html page | in_$n.folded | chromium run failed"; continue; }
		note=$(echo "$r" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print("first paint %.0f ms (runs %s), search %.0f ms (%s), zoom %.0f ms, "
      "reset %.0f ms, heap %s MB" % (r["paint_ms"],
      ", ".join("%.0f" % x for x in r["runs"]), r["search_ms"],
      r["matches"], r["zoom_ms"], r["reset_ms"],
      "%.0f" % r["heap_mb"] if r["heap_mb"] is not None else "?"))')
		row "flame2html page (chromium)" "in_$n.folded" "-" \
		    "- - - - - -" "$note"
	done
else
	echo "flame2html page (chromium) | skipped: playwright-core missing" \
	    "| - | - | - | - | - | - | - | - | - | -"
fi

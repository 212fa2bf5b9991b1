#!/bin/sh
# filters.sh: the page of 'metric-eval --interactive', whose filters
# evaluate the metrics again in the browser.  Two workloads:
#   mixbench/mi200 (167 dispatches) with the full gfx90a config, targets:
#     page <= 5 MB, interactive <= 1 s, a filter change draws the tables
#     in view <= 100 ms (median of 20 random changes), all <= 500 ms;
#   a generated MI300X workload (make_pmc.py: 10,000 dispatches of 50
#     kernels on 4 GPUs, from path/MI300X_A1) with the full gfx942 config,
#     targets: page <= 25 MB, interactive <= 2 s, a change <= 200 ms.
# The peer of the page is what a server does for one filter change:
# metric-eval run again with that filter (-d over ten dispatches), the
# work rocprof-compute's GUI does per change in pandas.  $BIN and
# $BENCH_TMP come from bench.sh.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib/measure.sh"
BIN=${BIN:-$top/build/bin}
T=${BENCH_TMP:-/tmp}/filters
runs=${RUNS:-5}
mkdir -p "$T" || exit 1
F=$top/../shared/fixtures/rocprof-compute
C=$top/../shared/reference/rocprof-compute-configs
have_browser=0
[ -d "$top/tests/browser/node_modules/playwright-core" ] && have_browser=1

# bench NAME NDJSON CONFIG SIZE_TARGET_MB TTI_MS CHANGE_MS ALL_MS
bench() {
	_n=$1 _in=$2 _c=$3
	t=$(pair "$runs" "sh -c \"'$BIN/metric-eval' -c '$_c' \
--interactive '$_in' 2>/dev/null | '$BIN/chart2html' -o '$T/page.html'\"" \
	    "'$BIN/metric-eval' -c '$_c' -d 0,1,2,3,4,5,6,7,8,9 '$_in'")
	page=$(wc -c <"$T/page.html")
	row "metric-eval --interactive | chart2html" "$_n" \
	    "metric-eval -d (one change, server side)" "$t" \
	    "page $(awk -v p="$page" 'BEGIN { printf "%.2f", p / 1e6 }') MB (target <= $4 MB)"
	[ "$have_browser" = 1 ] || return 0
	r=$(node "$top/scripts/bench/filters-page.mjs" "$T/page.html" \
	    "$runs" 20) ||
	    { row "filters page (chromium)" "$_n" - "- - - - - -" \
	    "chromium run failed"; return 1; }
	note=$(echo "$r" | python3 -c '
import json, sys
r = json.load(sys.stdin)
t = lambda s: "no target" if s == "-" else "target <= %s ms" % s
print(("interactive in %.0f ms (%s), filter change %.1f ms median (%s), "
    "%.1f ms worst of %d, all tables %.0f ms median (%s)") % (r["tti_ms"],
    t(sys.argv[1]), r["change_ms"], t(sys.argv[2]), r["change_max_ms"],
    r["changes"], r["all_tables_ms"], t(sys.argv[3])))' "$5" "$6" "$7")
	row "filters page (chromium)" "$_n" "-" "- - - - - -" "$note"
}

if [ ! -x "$BIN/pmc2ndjson" ] || [ ! -x "$BIN/metric-eval" ] ||
    [ ! -d "$F/mixbench/mi200" ]; then
	echo "filters | skipped: programs or ../shared missing | - | - | - |" \
	    "- | - | - | - | - | - | -"
	exit 0
fi
big=$(cached mi300x-10k.ndjson "'$BIN/pmc2ndjson' '$F/path/MI300X_A1' |
    python3 '$top/scripts/bench/make_pmc.py' 10000 50 4 >\"\$out\"" \
    "$top/scripts/bench/make_pmc.py" "$BIN/pmc2ndjson") || exit 1
inputs_done
"$BIN/pmc2ndjson" "$F/mixbench/mi200" >"$T/mixbench.ndjson" 2>/dev/null
bench "mixbench/mi200 gfx90a (167 dispatches)" "$T/mixbench.ndjson" \
    "$C/gfx90a" 5 1000 100 500

bench "generated MI300X gfx942 (10,000 dispatches, 50 kernels)" "$big" \
    "$C/gfx942" 25 2000 200 "-"

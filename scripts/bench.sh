#!/bin/sh
# bench.sh: runs every scripts/bench/*.sh with the build in $1.  Each
# prints table rows: program, input, size, rate, peer rate and ratio.
O=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
export BIN="$top/$O/bin" BENCH_TMP="${BENCH_TMP:-$top/$O/bench}"
mkdir -p "$BENCH_TMP"
for s in "$top"/scripts/bench/*.sh; do
	[ -f "$s" ] || continue
	sh "$s" || echo "bench: $(basename "$s") failed"
done

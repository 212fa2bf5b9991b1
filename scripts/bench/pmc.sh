#!/bin/sh
# pmc.sh: pmc2ndjson | topn -k Kernel_Name on rocprof-compute workloads.
#
# The legacy mixbench fixture (167 kernels, 1013 counter columns and five
# accumulate files) is scaled to $DISPATCHES dispatches (default 1,000,000:
# about 6 GB of CSV in $BENCH_TMP) by repeating its rows with new
# Dispatch_IDs; a 10,000-dispatch copy is also timed, to show that peak
# memory does not grow with the dispatches.  The peer is python3's csv
# module computing the same table (tests/cases/topn/expected.py), on the
# small copy only (it needs minutes for the large one).  rocprof-compute is
# not installed here: the last row times the whole pipeline on the
# 3-dispatch vcopy/MI200 fixture against the 6 to 26 s of CPU that
# `rocprof-compute analyze` spends on it (the figure the issue cites).
# A third row shows the same with pmc2ndjson -c Kernel_Name (only the
# column topn needs).  Times are the median of $RUNS runs (default 3; the big one $BIG_RUNS,
# default 1); peak memory is the largest RSS of each program.
# usage: BIN=... BENCH_TMP=... sh scripts/bench/pmc.sh
set -e
: "${BIN:?set BIN to the bin dir}" "${BENCH_TMP:?set BENCH_TMP}"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
fix=$top/../shared/fixtures/rocprof-compute
runs=${RUNS:-3}
big_runs=${BIG_RUNS:-1}
big=${DISPATCHES:-1000000}
small=10000

# scale N DIR: the mixbench workload with N dispatches in DIR.
scale() {
	[ -f "$2/done-$1" ] && return 0
	mkdir -p "$2"
	rm -f "$2"/*
	for f in "$fix"/mixbench/mi200/pmc_perf.csv \
	    "$fix"/mixbench/mi200/SQ_*.csv; do
		awk -v n="$1" 'NR == 1 { print; next }
		    { sub(/^[0-9]+/, ""); row[k++] = $0 }
		    END { for (i = 0; i < n; i++) print i row[i % k] }' "$f" \
		    >"$2/$(basename "$f")"
	done
	cp "$fix"/mixbench/mi200/sysinfo.csv "$fix"/mixbench/mi200/roofline.csv \
	    "$2/"
	touch "$2/done-$1"
}

# pipeline N DIR [OPTION]: runs pmc2ndjson [OPTION] | topn N times; prints
# the medians of
# "wall_s cpu_s_pmc2ndjson cpu_s_topn" and the peaks "kb_pmc2ndjson
# kb_topn".  CPU seconds (user + sys) are what the rates use: the machine
# may be shared, and wall time then measures the neighbours.
pipeline() {
	i=0
	: >"$BENCH_TMP/pmc-times"
	while [ "$i" -lt "$1" ]; do
		s=$(date +%s.%N)
		/usr/bin/time -f '%U %S %M' -o "$BENCH_TMP/pmc-t1" \
		    "$BIN/pmc2ndjson" --no-progress $3 "$2" |
		    /usr/bin/time -f '%U %S %M' -o "$BENCH_TMP/pmc-t2" \
		    "$BIN/topn" --no-progress -k Kernel_Name -v dur_ns -n 0 \
		    >/dev/null
		e=$(date +%s.%N)
		echo "$s $e $(cat "$BENCH_TMP/pmc-t1") $(cat "$BENCH_TMP/pmc-t2")" \
		    >>"$BENCH_TMP/pmc-times"
		i=$((i + 1))
	done
	awk '{ print $2 - $1, $3 + $4, $6 + $7, $5, $8 }' \
	    "$BENCH_TMP/pmc-times" >"$BENCH_TMP/pmc-runs"
	med() { sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'; }
	echo "$(cut -d' ' -f1 "$BENCH_TMP/pmc-runs" | med)" \
	    "$(cut -d' ' -f2 "$BENCH_TMP/pmc-runs" | med)" \
	    "$(cut -d' ' -f3 "$BENCH_TMP/pmc-runs" | med)" \
	    "$(cut -d' ' -f4 "$BENCH_TMP/pmc-runs" | sort -n | tail -n 1)" \
	    "$(cut -d' ' -f5 "$BENCH_TMP/pmc-runs" | sort -n | tail -n 1)"
}

# cpu CMD...: the CPU seconds (user + sys) of one run.
cpu() {
	/usr/bin/time -f '%U %S' -o "$BENCH_TMP/pmc-tp" "$@" >/dev/null
	awk '{ print $1 + $2 }' "$BENCH_TMP/pmc-tp"
}

row() {	# label dispatches dir "wall cpu1 cpu2 kb1 kb2" [peer_cpu]
	bytes=$(wc -c "$3"/*.csv | tail -n 1 | awk '{ print $1 }')
	echo "$4 $2 $bytes ${5:-0}" | awk -v label="$1" '{
	    cpu = $2 + $3
	    peer = $8 > 0 ? sprintf("python3 csv module %.0f dispatches/s", $6 / $8) : "-"
	    ratio = $8 > 0 ? sprintf("%.0fx", $8 / cpu) : "-"
	    printf "pmc2ndjson | topn | %s, %d dispatches | %.0f MB | %.0f dispatches/s (CPU %.2f s + %.2f s, wall %.1f s), peak %.1f MB + %.1f MB | %s | %s\n",
	        label, $6, $7 / 1e6, $6 / cpu, $2, $3, $1, $4 / 1024, $5 / 1024, peer, ratio }'
}

d_small=$BENCH_TMP/pmc-$small
scale "$small" "$d_small"
ours=$(pipeline "$runs" "$d_small")
peer=$(cpu python3 "$top/tests/cases/topn/expected.py" "$d_small")
row "mixbench x $((small / 167))" "$small" "$d_small" "$ours" "$peer"

d_big=$BENCH_TMP/pmc-$big
scale "$big" "$d_big"
ours=$(pipeline "$big_runs" "$d_big")
row "mixbench x $((big / 167))" "$big" "$d_big" "$ours"
ours=$(pipeline "$big_runs" "$d_big" -cKernel_Name)
row "mixbench x $((big / 167)), pmc2ndjson -c Kernel_Name" "$big" "$d_big" \
    "$ours"

# End to end on a real 3-dispatch workload, against the cited analyze CPU
# time: 50 runs of the pipeline under one clock, CPU per run.
/usr/bin/time -f '%U %S %e' -o "$BENCH_TMP/pmc-tp" sh -c '
	for i in $(seq 50); do
		"$1/pmc2ndjson" "$2" | "$1/topn" -k Kernel_Name -n 0 --csv
	done' sh "$BIN" "$fix/vcopy/MI200" >/dev/null
awk '{ cpu = ($1 + $2) / 50; wall = $3 / 50
    printf "pmc2ndjson | topn | vcopy/MI200 end to end, 3 dispatches | 35 kB | %.1f ms CPU (%.1f ms wall) per run | rocprof-compute analyze 6-26 s CPU (cited) | %.0fx-%.0fx\n",
        cpu * 1000, wall * 1000, 6 / cpu, 26 / cpu }' "$BENCH_TMP/pmc-tp"

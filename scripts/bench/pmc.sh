#!/bin/sh
# pmc.sh: pmc2ndjson | topn -k Kernel_Name on rocprof-compute workloads.
#
# The legacy mixbench fixture (167 kernels, 1013 counter columns and five
# accumulate files) is scaled to $DISPATCHES dispatches (default 33,400,
# the fixture 200 times: about 185 MB of CSV in $BENCH_TMP) by repeating
# its rows with new Dispatch_IDs; a copy a tenth the size is also timed,
# against python3's csv module computing the same table
# (tests/cases/topn/expected.py), and to show that peak memory does not
# grow with the dispatches.  Another row
# runs pmc2ndjson -c Kernel_Name (only the column topn needs), and one
# topn alone on the records, from a file, against wc -l.  The last
# row reads the rocpd long format.  Median of $RUNS runs (default 5);
# peak is the larger stage.
# usage: BIN=... BENCH_TMP=... sh scripts/bench/pmc.sh
set -e
. "$(dirname "$0")/lib/measure.sh"
: "${BIN:?set BIN to the bin dir}" "${BENCH_TMP:?set BENCH_TMP}"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
fix=$top/../shared/fixtures/rocprof-compute
runs=${RUNS:-5}
big=${DISPATCHES:-33400}
small=$((big / 10))

# scale N: the mixbench workload with N dispatches (made once).
cat >"$BENCH_TMP/pmc-scale.sh" <<'EOF'
n=$1 w=$2 out=$3
mkdir "$out" || exit 1
for f in "$w"/pmc_perf.csv "$w"/SQ_*.csv; do
	awk -v n="$n" 'NR == 1 { print; next }
	    { sub(/^[0-9]+/, ""); row[k++] = $0 }
	    END { for (i = 0; i < n; i++) print i row[i % k] }' "$f" \
	    >"$out/$(basename "$f")" || exit 1
done
cp "$w"/sysinfo.csv "$w"/roofline.csv "$out/"
EOF
scale() {
	cached "pmc-$1" "sh '$BENCH_TMP/pmc-scale.sh' $1 \
	    '$fix/mixbench/mi200' \"\$out\"" "$BENCH_TMP/pmc-scale.sh"
}

d_small=$(scale "$small")
t=$(pair "$runs" "'$BIN/pmc2ndjson' --no-progress '$d_small' |
    '$BIN/topn' --no-progress -k Kernel_Name -v dur_ns -n 0" \
    "python3 '$top/tests/cases/topn/expected.py' '$d_small'")
row "pmc2ndjson | topn" "mixbench x $((small / 167)), $small dispatches" \
    "python3 csv module" "$t" "peak: the larger stage"

d_big=$(scale "$big")
mb=$(($(wc -c "$d_big"/*.csv | tail -n 1 | awk '{ print $1 }') / 1000000))
t=$(pair "$runs" "'$BIN/pmc2ndjson' --no-progress '$d_big' |
    '$BIN/topn' --no-progress -k Kernel_Name -v dur_ns -n 0" "")
row "pmc2ndjson | topn" "mixbench x $((big / 167)), $big dispatches ($mb MB)" \
    "-" "$t" "$(echo "$t" | awk -v n="$big" '{
	printf "%.0f dispatches per CPU-second", n / ($3 > 0 ? $3 : 0.005) }')"
t=$(pair "$runs" "'$BIN/pmc2ndjson' --no-progress -c Kernel_Name '$d_big' |
    '$BIN/topn' --no-progress -k Kernel_Name -v dur_ns -n 0" "")
row "pmc2ndjson -c Kernel_Name | topn" \
    "mixbench x $((big / 167)), $big dispatches ($mb MB)" "-" "$t" \
    "$(echo "$t" | awk -v n="$big" '{
	printf "%.0f dispatches per CPU-second", n / ($3 > 0 ? $3 : 0.005) }')"
# topn alone on those dispatch records in a file (1 GB: 1,017 members a
# record, one of them nested), against wc -l counting the same lines in
# the same turns: how close reading the records comes to reading bytes.
if [ "${BENCH_INPUTS:-0}" != 1 ]; then
	recs=$BENCH_TMP/pmc-$big.ndjson
	"$BIN/pmc2ndjson" --no-progress "$d_big" >"$recs"
	rmb=$(($(wc -c <"$recs") / 1000000))
	t=$(pair "$runs" "'$BIN/topn' --no-progress -k Kernel_Name -v dur_ns \
	    -n 0 '$recs'" "wc -l '$recs'")
	row topn "$big dispatch records of mixbench x $((big / 167)) ($rmb MB)" \
	    "wc -l" "$t" "$(echo "$t" | awk -v b="$rmb" '{
	    printf "%.0f MB/s of CPU; wc -l takes %.0f%% of our CPU time",
	    b / ($3 > 0 ? $3 : 0.005), ($3 > 0 ? 100 * $6 / $3 : 0) }')"
	rm -f "$recs"
fi

# The rocpd long format (one row per counter per dispatch, one run of
# rows per profiler pass): vcopy's MI300X rocpd CSV with each pass's
# dispatches repeated $RP times (default 200) under new Dispatch_IDs.
cat >"$BENCH_TMP/pmc-rocpd.sh" <<'EOF'
w=$2 out=$3
mkdir "$out" && cp "$w"/sysinfo.csv "$out/" || exit 1
awk -v n="$1" 'NR == 1 { print; next }
    function flush(  i, j) {
	for (i = 0; i < n; i++)
		for (j = 0; j < k; j++) {
			c = index(row[j], ",")
			r = substr(row[j], c + 1)
			d = index(r, ",")
			print substr(row[j], 1, c) (substr(r, 1, d - 1) + \
			    i * 1000) substr(r, d)
		}
	k = 0
    }
    { split($0, f, ","); if (k > 0 && f[2] + 0 < last) flush()
      last = f[2] + 0; row[k++] = $0 }
    END { flush() }' "$w"/pmc_perf.csv >"$out/pmc_perf.csv"
EOF
rp=$(cached "pmc-rocpd-${RP:-200}" "sh '$BENCH_TMP/pmc-rocpd.sh' ${RP:-200} \
    '$fix/vcopy/MI300X_A1_rocpd' \"\$out\"" "$BENCH_TMP/pmc-rocpd.sh")
inputs_done
mb=$(($(wc -c <"$rp/pmc_perf.csv") / 1000000))
nd=$(( ${RP:-200} * 3 ))
t=$(pair "$runs" "'$BIN/pmc2ndjson' --no-progress '$rp'" "")
row pmc2ndjson "rocpd long format, vcopy MI300X x ${RP:-200}, $nd dispatches ($mb MB)" \
    "-" "$t" "$(echo "$t" | awk -v b="$mb" '{
	printf "%.0f MB/s of CPU", b / ($3 > 0 ? $3 : 0.005) }')"

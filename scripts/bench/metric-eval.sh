#!/bin/sh
# metric-eval.sh: metric-eval with the full gfx942 and gfx90a panel configs.
#
# 1. A fixture workload end to end (pmc2ndjson | metric-eval, every metric
#    of the architecture), median of 5, in ms; the peer is derive.py, the
#    independent Python evaluator of the golden cases (same metrics, no
#    pandas), and the issue's figure for 'rocprof-compute analyze' on such
#    a three-dispatch workload is 6 to 26 s of CPU.
# 2. 1,000,000 generated dispatches (ME_N to change) with the full gfx942
#    config: the path/MI300X_A1 dispatches, repeated, with every non-channel
#    counter the config reads (about 8.6 kB a record; full-width records
#    with all 2432 channel columns would be 56 GB for a million).  One run;
#    dispatches/s and peak memory (/usr/bin/time's maximum resident set).
# $BIN and $BENCH_TMP come from bench.sh.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib/measure.sh"
BIN=${BIN:-$top/build/bin}
T=${BENCH_TMP:-/tmp}/metric-eval
F=$top/../shared/fixtures/rocprof-compute
C=$top/../shared/reference/rocprof-compute-configs
N=${ME_N:-1000000}
mkdir -p "$T" || exit 1
if [ ! -d "$C" ] || [ ! -x "$BIN/pmc2ndjson" ]; then
	echo "metric-eval | skipped: needs $C and pmc2ndjson"
	exit 0
fi

for w in path/MI300X_A1:gfx942 vcopy/MI200:gfx90a; do
	wl=${w%%:*} arch=${w##*:}
	rows=$("$BIN/pmc2ndjson" "$F/$wl" 2>/dev/null |
	    "$BIN/metric-eval" -c "$C/$arch" 2>/dev/null | wc -l)
	set -- $(measure 5 sh -c "'$BIN/pmc2ndjson' '$F/$wl' | '$BIN/metric-eval' -c '$C/$arch'")
	sec=$1 kb=$2 cpu=$3
	set -- $(measure 5 sh -c "python3 '$top/tests/cases/metric-eval/derive.py' '$F/$wl' '$C/$arch'")
	psec=$1 pcpu=$3
	awk -v w="$wl" -v a="$arch" -v r="$rows" -v s="$sec" -v kb="$kb" \
	    -v c="$cpu" -v ps="$psec" -v pc="$pcpu" 'BEGIN {
		s = s > 0 ? s : 0.001; c = c > 0 ? c : 0.005
		printf "pmc2ndjson | metric-eval | %s, %s, all %d metric rows " \
		    "| 3 dispatches | %.0f ms end to end (%.0f ms CPU), " \
		    "peak %.1f MB | derive.py %.0f ms (%.0f ms CPU); " \
		    "rocprof-compute 6000-26000 ms CPU | %.0fx; %.0f-%.0fx " \
		    "(CPU)\n", w, a, r, s * 1000, c * 1000, kb / 1024,
		    ps * 1000, pc * 1000, pc / c, 6 / c, 26 / c
	}'
done

# The generated workload: a block of 1000 records, repeated.
blk=$T/block-1000.ndjson
if [ ! -s "$blk" ]; then
	"$BIN/pmc2ndjson" "$F/path/MI300X_A1" 2>/dev/null >"$T/path.ndjson"
	python3 - "$C/gfx942" "$T/path.ndjson" >"$blk.tmp" <<'EOF' || exit 1
import glob, json, random, re, sys
names = set()
for p in glob.glob(sys.argv[1] + "/*.yaml"):
    names |= set(re.findall(r"(?<![$\w])([A-Za-z_]\w*)", open(p).read()))
names |= {"type", "Dispatch_ID", "Kernel_Name", "GPU_ID", "dur_ns"}
recs = [json.loads(l) for l in open(sys.argv[2])]
print(json.dumps([r for r in recs if r["type"] == "sysinfo"][0]))
disp = [r for r in recs if r["type"] == "dispatch"]
rng = random.Random(1)
for i in range(1000):
    r = {k: ({kk: vv for kk, vv in v.items() if kk in names}
             if isinstance(v, dict) else v)
         for k, v in disp[i % 3].items() if k in names or isinstance(v, dict)}
    r["Dispatch_ID"] = i
    r["Kernel_Name"] = "kernel_%d(float*, int)" % rng.randrange(8)
    print(json.dumps(r, separators=(",", ":")))
EOF
	mv "$blk.tmp" "$blk"
fi
head -n 1 "$blk" >"$T/head.ndjson"
tail -n +2 "$blk" >"$T/body.ndjson"
reps=$((N / 1000))
gen() {
	cat "$T/head.ndjson"
	i=0
	while [ $i -lt $reps ]; do cat "$T/body.ndjson"; i=$((i + 1)); done
}
bytes=$(( $(wc -c <"$T/body.ndjson") * reps ))
gen | /usr/bin/time -f '%e %M %U %S' -o "$T/time" "$BIN/metric-eval" \
    --no-progress -c "$C/gfx942" 2>/dev/null | wc -l >"$T/rows"
set -- $(cat "$T/time")
awk -v n="$((reps * 1000))" -v b="$bytes" -v s="$1" -v kb="$2" \
    -v u="$3" -v y="$4" -v r="$(cat "$T/rows")" 'BEGIN {
	s = s > 0 ? s : 0.005; c = u + y; c = c > 0 ? c : 0.005
	printf "metric-eval | %d generated MI300X dispatches, gfx942 config " \
	    "(%d metric rows) | %.0f MB | %.0f dispatches/s (%.0f MB/s; " \
	    "%.0f dispatches/s of CPU time), peak %.0f MB | - | -\n", n, r,
	    b / 1e6, n / s, b / 1e6 / s, n / c, kb / 1024
}'

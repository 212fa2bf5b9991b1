#!/bin/sh
# metric-eval.sh: metric-eval with the full gfx942 and gfx90a panel configs.
#
# 1. A fixture workload end to end (pmc2ndjson | metric-eval, every metric
#    of the architecture: path/MI300X_A1 with gfx942, and with FULL=1
#    also vcopy/MI200 with gfx90a), median of $RUNS (default 5); the peer
#    is derive.py, the independent Python evaluator of the golden cases
#    (same metrics, no pandas), and the issue's figure for
#    'rocprof-compute analyze' on such a three-dispatch workload is 6 to
#    26 s of CPU.
# 2. 1,000,000 generated dispatches (ME_N to change) with the full gfx942
#    config: the path/MI300X_A1 dispatches, repeated, with every non-channel
#    counter the config reads (about 8.6 kB a record; full-width records
#    with all 2432 channel columns would be 56 GB for a million), median of
#    $ME_RUNS runs (default $RUNS, 5): dispatches per CPU-second and peak
#    memory.  Target: >= 60,000 dispatches per CPU-second, <= 256 MB.
# $BIN and $BENCH_TMP come from bench.sh.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib/measure.sh"
BIN=${BIN:-$top/build/bin}
T=${BENCH_TMP:-/tmp}/metric-eval
F=$top/../shared/fixtures/rocprof-compute
C=$top/../shared/reference/rocprof-compute-configs
N=${ME_N:-1000000}
runs=${RUNS:-5}
me_runs=${ME_RUNS:-$runs}
mkdir -p "$T" || exit 1
if [ ! -d "$C" ] || [ ! -x "$BIN/pmc2ndjson" ]; then
	echo "metric-eval | skipped: needs $C and pmc2ndjson" \
	    "| - | - | - | - | - | - | - | - | - | -"
	exit 0
fi

ws=path/MI300X_A1:gfx942
[ "${FULL:-0}" = 1 ] && ws="$ws vcopy/MI200:gfx90a"
for w in $ws; do
	wl=${w%%:*} arch=${w##*:}
	t=$(pair "$runs" "'$BIN/pmc2ndjson' '$F/$wl' |
	    '$BIN/metric-eval' -c '$C/$arch'" \
	    "python3 '$top/tests/cases/metric-eval/derive.py' '$F/$wl' '$C/$arch'")
	row "pmc2ndjson | metric-eval" "$wl, every $arch metric, 3 dispatches" \
	    "derive.py (Python)" "$t" \
	    "rocprof-compute analyze: 6-26 s CPU (cited, measured elsewhere)"
done

# The generated workload: a block of 1000 records, repeated (the block is
# made once, from pmc2ndjson's records of path/MI300X_A1).
cat >"$T/block.py" <<'EOF'
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
blk=$(cached block-1000.ndjson "'$BIN/pmc2ndjson' '$F/path/MI300X_A1' \
    2>/dev/null >\"\$out.nd\" &&
    python3 '$T/block.py' '$C/gfx942' \"\$out.nd\" >\"\$out\"" \
    "$T/block.py" "$BIN/pmc2ndjson") || exit 1
inputs_done
head -n 1 "$blk" >"$T/head.ndjson"
tail -n +2 "$blk" >"$T/body.ndjson"
# The stream is the head, then the body $N / 1000 times: metric-eval reads
# its files in turn as one stream, so no process feeds it through a pipe.
set -- "$T/head.ndjson"
i=0
while [ $i -lt $((N / 1000)) ]; do set -- "$@" "$T/body.ndjson"; i=$((i + 1)); done
t=$(pair "$me_runs" "'$BIN/metric-eval' --no-progress -c '$C/gfx942' $*" "")
note=$(echo "$t" | awk -v n="$((N / 1000 * 1000))" '{
    printf "%.0f dispatches per CPU-second; target >= 60000, <= 256 MB",
        n / ($3 > 0 ? $3 : 0.005) }')
row metric-eval "$((N / 1000 * 1000)) generated MI300X dispatches, gfx942" \
    "-" "$t" "$note"

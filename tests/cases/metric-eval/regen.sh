#!/bin/sh
# regen.sh: writes want.ndjson and expout of the fixture value cases from
# derive.py (values worked out from the raw CSVs, independently of
# metric-eval), and their cmd lines.  Run from anywhere; review with git diff.
# Needs python3 with python3-yaml (derive.py), and jq.
here=$(cd "$(dirname "$0")" && pwd)
F=$here/../../../../shared/fixtures/rocprof-compute
C=$here/../../../../shared/reference/rocprof-compute-configs
RF=../../../../../shared/fixtures/rocprof-compute
RC=../../../../../shared/reference/rocprof-compute-configs
PANELS="--panels 2,7,10,11,16,17 --per-panel 6 --coll"

# mk CASE WORKLOAD ARCH "DERIVE ARGS" "METRIC-EVAL ARGS"
mk() {
	d=$here/$1
	mkdir -p "$d"
	python3 "$here/derive.py" "$F/$2" "$C/$3" $4 >"$d/want.ndjson" || exit 1
	printf '%s\n' "pmc2ndjson $RF/$2 | metric-eval -c $RC/$3 $5 | sh ../pin.sh want.ndjson" >"$d/cmd"
	sh "$here/expout.sh" "$d/want.ndjson" >"$d/expout"
	echo "$1: $(wc -l <"$d/want.ndjson") rows, $(wc -l <"$d/expout") cells"
}

CH32="--ids 18.1.0,18.1.1,18.2.0,18.2.17,18.2.31,18.3.0,18.3.9,18.4.3,18.5.30"
CH128="--ids 18.1.0,18.1.1,18.2.0,18.2.17,18.2.99,18.2.127,18.3.0,18.3.64,18.4.3,18.5.120"
mk 0101-mi100-gfx908 vcopy/MI100 gfx908 "$PANELS $CH32"
mk 0102-mi200-gfx90a vcopy/MI200 gfx90a "$PANELS $CH32"
mk 0103-mixbench-gfx90a mixbench/mi200 gfx90a \
    "$PANELS $CH32 --sysinfo $F/adapted/mixbench_mi200_sysinfo.csv"
mk 0104-mi300x-gfx942 vcopy/MI300X_A1 gfx942 "$PANELS $CH128"
mk 0105-path-mi300x-gfx942 path/MI300X_A1 gfx942 "$PANELS $CH128"
mk 0106-rocpd-gfx942 vcopy/MI300X_A1_rocpd gfx942 "$PANELS $CH128"
mk 0107-mi350-gfx950 vcopy/MI350 gfx950 "$PANELS $CH128"
# Normalizations: $denom and the nullable-integer NaN rule (7.6, 7.8).
mk 0111-mi200-per-wave vcopy/MI200 gfx90a "-n per_wave $PANELS $CH32" \
    "-n per_wave"
mk 0112-mi300x-per-second vcopy/MI300X_A1 gfx942 \
    "-n per_second $PANELS $CH128" "-n per_second"
mk 0113-mi350-per-cycle vcopy/MI350 gfx950 "-n per_cycle $PANELS $CH128" \
    "-n per_cycle"
mk 0114-path-per-second path/MI300X_A1 gfx942 \
    "-n per_second $PANELS $CH128" "-n per_second"
# Filters: rows by position in the order given, a kernel by rank.
mk 0121-mi200-dispatch vcopy/MI200 gfx90a "--rows 2,0 $PANELS $CH32" \
    "-d 2,0"
SI="--sysinfo $F/adapted/mixbench_mi200_sysinfo.csv"
K0="void benchmark_func<int, 256, 8u, 512u>(int, int*) [clone .kd]"
K1="void benchmark_func<HIP_vector_type<float, 2u>, 256, 8u, 512u>(HIP_vector_type<float, 2u>, HIP_vector_type<float, 2u>*) [clone .kd]"
K166="void benchmark_func<short, 256, 8u, 0u>(short, short*) [clone .kd]"
d=$here/0122-mixbench-kernel-rank
mkdir -p "$d"
# Rank 0 of the top statistics (notes 9.5): the int/512 kernel.
python3 "$here/derive.py" "$F/mixbench/mi200" "$C/gfx90a" $SI --kernel "$K0" \
    $PANELS >"$d/want.ndjson"
printf '%s\n' "pmc2ndjson $RF/mixbench/mi200 | metric-eval -c $RC/gfx90a -k 0 | sh ../pin.sh want.ndjson" >"$d/cmd"
sh "$here/expout.sh" "$d/want.ndjson" >"$d/expout"
d=$here/0123-mixbench-by-kernel
mkdir -p "$d"
# --by Kernel_Name: ranks 0 and 1 and the smallest kernel, one dispatch each.
for k in "$K0" "$K1" "$K166"; do
	python3 "$here/derive.py" "$F/mixbench/mi200" "$C/gfx90a" $SI \
	    --kernel "$k" --tag-kernel --panels 2,10,11,17 --per-panel 5
done >"$d/want.ndjson"
printf '%s\n' "pmc2ndjson $RF/mixbench/mi200 | metric-eval -c $RC/gfx90a --by Kernel_Name | sh ../pin.sh want.ndjson" >"$d/cmd"
sh "$here/expout.sh" "$d/want.ndjson" >"$d/expout"
d=$here/0124-mixbench-kernel-name
mkdir -p "$d"
python3 "$here/derive.py" "$F/mixbench/mi200" "$C/gfx90a" $SI --kernel "$K166" \
    --panels 2,7,10 --per-panel 6 >"$d/want.ndjson"
printf '%s\n' "pmc2ndjson $RF/mixbench/mi200 | metric-eval -c $RC/gfx90a -k '$K166' | sh ../pin.sh want.ndjson" >"$d/cmd"
sh "$here/expout.sh" "$d/want.ndjson" >"$d/expout"
# Comparisons with None (pandas: != None is true for every row): the one
# use in each arch's configs, 3.1 VL1 Coalesce (25 on vcopy/MI200:
# 32768*64*100 / (2097152*4)).
d=$here/0126-none-comparison
mkdir -p "$d"
for w in "vcopy/MI100 gfx908" "vcopy/MI200 gfx90a" "vcopy/MI300X_A1 gfx942" \
    "vcopy/MI350 gfx950"; do
	set -- $w
	python3 "$here/derive.py" "$F/$1" "$C/$2" --ids 3.1.26 |
	    jq -c --arg w "$1" '. + {metric_id: ($w + " " + .metric_id)}'
done >"$d/want.ndjson"
printf '%s\n' "for w in 'vcopy/MI100 gfx908' 'vcopy/MI200 gfx90a' 'vcopy/MI300X_A1 gfx942' 'vcopy/MI350 gfx950'; do set -- \$w; pmc2ndjson $RF/\$1 | metric-eval -c $RC/\$2 -b 3.1.26 | jq -c --arg w \"\$1\" '. + {metric_id: (\$w + \" \" + .metric_id)}'; done | sh ../pin.sh want.ndjson" >"$d/cmd"
sh "$here/expout.sh" "$d/want.ndjson" >"$d/expout"
# Each cell on its own: a workload profiled with only some IP blocks
# (rocprof-compute --block), made at test time by blocks.py from
# vcopy/MI200.  2.1 Wavefront Occupancy's Peak ($max_waves_per_cu *
# $cu_per_gpu = 32 * 104 = 3328) needs no counter and is still computed.
mkb() {
	d=$here/$1
	mkdir -p "$d"
	t=$(mktemp -d)
	python3 "$here/blocks.py" "$F/$2" "$t" $4
	python3 "$here/derive.py" "$t" "$C/$3" --panels 2,3,7,10,16,17 \
	    --per-panel 8 --coll >"$d/want.ndjson" || exit 1
	rm -rf "$t"
	printf '%s\n' "t=\$(mktemp -d) && python3 ../blocks.py $RF/$2 \$t $4 && pmc2ndjson \$t | metric-eval -c $RC/$3 | sh ../pin.sh want.ndjson; rm -rf \$t" >"$d/cmd"
	sh "$here/expout.sh" "$d/want.ndjson" >"$d/expout"
}
mkb 0127-block-tcc vcopy/MI200 gfx90a TCC
mkb 0128-block-sq-tcp vcopy/MI200 gfx90a "SQ TCP"
mkb 0129-block-tcc-mi300x path/MI300X_A1 gfx942 TCC
# 0.1 Top Kernels of mixbench: the old tool's own table (prev_analysis/1.csv,
# whose numbers follow the 3.3.0 rules: notes 1.1).
d=$here/0140-top-kernels-mixbench
python3 - "$F/mixbench/mi200/prev_analysis/1.csv" >"$d/want.ndjson" <<'PY'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
for i, r in enumerate(rows[1:]):
    print(json.dumps({"metric_id": "0.1.%d" % i, "metric": r[0],
        "Count": int(r[1]), "Sum(ns)": float(r[2]), "Mean(ns)": float(r[3]),
        "Median(ns)": float(r[4]), "Pct": float(r[5])}))
PY
printf '%s\n' "pmc2ndjson $RF/mixbench/mi200 | metric-eval -c $RC/gfx90a -b 0.1 | sh ../pin.sh want.ndjson" >"$d/cmd"
sh "$here/expout.sh" "$d/want.ndjson" >"$d/expout"
# 1.1 System Info and 0.2 Dispatch List, from the CSV files themselves.
d=$here/0144-system-info-dispatch-list
python3 - "$F/vcopy/MI200" >"$d/want.ndjson" <<'PY'
import csv, json, sys
def val(s):
    if s == "":
        return None
    for f in (int, float):
        try:
            return f(s)
        except ValueError:
            pass
    return s
h, r = list(csv.reader(open(sys.argv[1] + "/sysinfo.csv", newline="")))[:2]
for i, (k, v) in enumerate(zip(h, r)):
    print(json.dumps({"metric_id": "1.1.%d" % i, "metric": k, "Info": val(v)}))
rows = list(csv.reader(open(sys.argv[1] + "/pmc_perf.csv", newline="")))
ix = {k: i for i, k in enumerate(rows[0])}
for i, r in enumerate(rows[1:]):
    print(json.dumps({"metric_id": "0.2.%d" % i,
        "Dispatch_ID": val(r[ix["Dispatch_ID"]]),
        "Kernel_Name": r[ix["Kernel_Name"]], "GPU_ID": val(r[ix["GPU_ID"]])}))
PY
printf '%s\n' "pmc2ndjson $RF/vcopy/MI200 | metric-eval -c $RC/gfx90a -b 0.2 -b 1 | sh ../pin.sh want.ndjson" >"$d/cmd"
sh "$here/expout.sh" "$d/want.ndjson" >"$d/expout"
# 4.2: the FP32 ceilings are roofline.csv's device-0 columns (notes 1.4).
d=$here/0142-roofline-mixbench
python3 - "$F/mixbench/mi200/roofline.csv" >"$d/want-ceilings.ndjson" <<'PY'
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
dev = dict(zip(rows[0], rows[1]))
names = [("HBM", "HBMBw"), ("L2", "L2Bw"), ("L1", "L1Bw"), ("LDS", "LDSBw"),
         ("VALU FP32", "FP32Flops"), ("MFMA FP32", "MFMAF32Flops")]
for m, k in names:
    print(json.dumps({"metric": m, "dtype": "FP32", "Value": float(dev[k]),
        "Unit": "GB/s" if k.endswith("Bw") else "GFLOP/s"}))
PY
cat - "$d/want-points.ndjson" >"$d/want.ndjson" <<'PY'
PY
jq -c '. + {metric_id: "4.2 \(.dtype) \(.metric)"}' "$d/want-ceilings.ndjson" >>"$d/want.ndjson"
printf '%s\n' "pmc2ndjson $RF/mixbench/mi200 | metric-eval -c $RC/gfx90a -b 4 2>/dev/null | jq -c 'if .table_id == \"4.2\" then .metric_id = \"4.2 \\(.dtype) \\(.metric)\" else . end' | sh ../pin.sh want.ndjson" >"$d/cmd"
sh "$here/expout.sh" "$d/want.ndjson" >"$d/expout"

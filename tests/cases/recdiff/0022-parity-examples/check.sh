# Two workload pairs (vcopy MI200 vs mixbench MI200, path vs vcopy
# MI300X): the metrics and the kernel tables of each pair diffed with
# recdiff and checked against the differences worked out by parity.py.
t=$(mktemp -d) &&
    cp -r "$SHARED"/fixtures/rocprof-compute/mixbench/mi200/. $t/ &&
    cp "$SHARED"/fixtures/rocprof-compute/adapted/mixbench_mi200_sysinfo.csv \
    $t/sysinfo.csv &&
    pmc2ndjson "$SHARED"/fixtures/rocprof-compute/vcopy/MI200 > a.pmc &&
    pmc2ndjson $t > b.pmc 2>/dev/null &&
    pmc2ndjson "$SHARED"/fixtures/rocprof-compute/path/MI300X_A1 > c.pmc &&
    pmc2ndjson "$SHARED"/fixtures/rocprof-compute/vcopy/MI300X_A1 > d.pmc &&
    for x in a b c d; do
	metric-eval -c "$SHARED"/reference/rocprof-compute-configs $x.pmc \
	    > $x.m 2>/dev/null
	topn -k Kernel_Name -n 0 $x.pmc > $x.top
    done &&
    recdiff a.m b.m > ab.m && recdiff a.top b.top > ab.top &&
    recdiff c.m d.m > cd.m && recdiff c.top d.top > cd.top &&
    python3 ../parity.py ab.m ab.top cd.m cd.top
rm -rf $t ./*.pmc ./*.m ./*.top

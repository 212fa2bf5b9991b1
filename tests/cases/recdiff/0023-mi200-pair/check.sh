# vcopy against mixbench on MI200, metrics by kernel: recdiff's output
# checked by check_pair.py against the two inputs.
t=$(mktemp -d) &&
    cp -r "$SHARED"/fixtures/rocprof-compute/mixbench/mi200/. $t/ &&
    cp "$SHARED"/fixtures/rocprof-compute/adapted/mixbench_mi200_sysinfo.csv \
    $t/sysinfo.csv &&
    pmc2ndjson "$SHARED"/fixtures/rocprof-compute/vcopy/MI200 |
    metric-eval --by Kernel_Name -c "$SHARED"/reference/rocprof-compute-configs \
    > a.nd 2>/dev/null &&
    pmc2ndjson $t |
    metric-eval --by Kernel_Name -c "$SHARED"/reference/rocprof-compute-configs \
    > b.nd 2>/dev/null &&
    recdiff a.nd b.nd > d.nd && python3 ../check_pair.py a.nd b.nd d.nd
rm -rf $t a.nd b.nd d.nd

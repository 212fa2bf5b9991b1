# MI200 against MI300X: checked by check_pair.py, and the metrics of
# table 18.2 that only one architecture has are counted.
pmc2ndjson "$SHARED"/fixtures/rocprof-compute/vcopy/MI200 |
    metric-eval -c "$SHARED"/reference/rocprof-compute-configs \
    > a.nd 2>/dev/null &&
    pmc2ndjson "$SHARED"/fixtures/rocprof-compute/path/MI300X_A1 |
    metric-eval -c "$SHARED"/reference/rocprof-compute-configs \
    > b.nd 2>/dev/null &&
    recdiff a.nd b.nd > d.nd && python3 ../check_pair.py a.nd b.nd d.nd &&
    jq -r 'select(.table_id == "18.2") | .only // "both"' d.nd | sort |
    uniq -c
rm -f a.nd b.nd d.nd

# A MIGraphX report against a copy edited by hand (one instruction's time
# doubled, one Summary row doubled, one row removed, a lower rate): only
# the records that changed are kept, with their deltas.
migx2ndjson --label base "$SHARED"/fixtures/migraphx/synthetic_small.txt \
    > a.nd 2>/dev/null
sed -e 's/: 0.00521365ms, 1%/: 0.0104273ms, 1%/' \
    -e 's/add_relu: 0.442933ms \/ 11 = 0.0402666ms, 14%/add_relu: 0.885866ms \/ 11 = 0.0805333ms, 25%/' \
    -e '/^get_tuple_elem: /d' -e 's/^Rate: 337.784/Rate: 300/' \
    "$SHARED"/fixtures/migraphx/synthetic_small.txt |
    migx2ndjson --label new > b.nd 2>/dev/null
recdiff a.nd b.nd | jq -c 'select(.type == "totals" or .only != null or (.total_ms_delta // 0) != 0 or (.time_ms_delta // 0) != 0) | {type, only, op, name, total_ms, total_ms_base, total_ms_delta, total_ms_pct, pct, pct_base, pct_pct, time_ms, time_ms_base, time_ms_pct, rate, rate_base, rate_pct}'
rm a.nd b.nd

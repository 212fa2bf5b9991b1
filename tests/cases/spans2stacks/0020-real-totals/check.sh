# Per thread of two real Ascend DBs and the small one: the sum of self
# times and of the top frames' totals, and the calls in all.
for f in "$SHARED"/fixtures/ascend/real/msinsight_level0_rank0_ascend_pytorch_profiler_0.db \
    "$SHARED"/fixtures/ascend/real/msinsight_level0_rank1_ascend_pytorch_profiler_1.db \
    "$SHARED"/fixtures/ascend/small.db; do
	db2spans $f 2>/dev/null | spans2stacks -q |
	    jq -s -r '(group_by(.thread)[] | "\(.[0].thread) \(map(.self_ns) | add) \(map(select(.stack | length == 1).total_ns) | add)"), "calls \(map(.calls) | add)"' ||
	    exit 1
done

# For both ranks of the real Ascend DB: the page's root total equals the
# sum of the stack records' self_ns, and its thread list the sums by
# thread (heaviest first), each worked out with jq from the records.
for r in 0 1; do
	db2spans "$SHARED"/fixtures/ascend/real/msinsight_level0_rank${r}_ascend_pytorch_profiler_$r.db 2>/dev/null |
	    spans2stacks 2>/dev/null >s.ndjson
	flame2html s.ndjson >page.html
	echo "rank $r: exit $?"
	f=$(grep -o '"total":[0-9]*,"nodes":\[[0-9]*' page.html |
	    sed 's/"total":\([0-9]*\).*/\1/')
	j=$(jq -s 'map(.self_ns) | add' s.ndjson)
	t=$(jq -s 'group_by(.thread) | map(map(.self_ns) | add) | sort | reverse | map(tostring) | join(" ")' -r s.ndjson)
	m=$(grep -o '"thread_list":[^]]*]' page.html | grep -o '"total":[0-9]*' |
	    cut -d: -f2 | tr '\n' ' ' | sed 's/ $//')
	[ -n "$f" ] && [ "$f" = "$j" ] && echo "root total = sum of self_ns"
	[ -n "$t" ] && [ "$t" = "$m" ] &&
	    echo "thread totals = sums of self_ns by thread"
done
rm -f s.ndjson page.html

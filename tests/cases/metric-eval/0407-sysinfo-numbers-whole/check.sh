# A sysinfo number is read whole: "1e1" and "x" for total_l2_chan leave
# the metrics that use it blank, and so does "104x" for cu_per_gpu in an
# expression.
for v in '"1e1"' '"x"'; do
	sed "1s/\"total_l2_chan\":2/\"total_l2_chan\":$v/" \
	    ../0001-basic/in.ndjson >in.nd
	metric-eval -c ../0001-basic/cfg in.nd >out 2>err
	echo "exit $?"
	grep -v 'cells are blank' err
	jq -r 'select(.table_id=="50.2") | .metric' out | tr '\n' ' '
	echo
done
sed '1s/"cu_per_gpu":104/"cu_per_gpu":"104x"/' ../0001-basic/in.ndjson >in.nd
metric-eval -e 'X = $cu_per_gpu' -e 'Y = MAX(A) * $cu_per_gpu' in.nd >out 2>err
echo "exit $?"
cat err
jq -c '[.metric, .Value]' out
rm -f in.nd out err

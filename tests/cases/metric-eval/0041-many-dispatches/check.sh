# 2,500 dispatches, more than one chunk of the rows metric-eval evaluates
# at a time: sums, means, extremes, median, quantile, standard deviation
# and the exact 64-bit durations come out as check.py computes them from
# the same records, and so do the doubles durations once one timestamp
# is not an integer (the run's last records decide).  The dispatches
# whose GRBM_GUI_ACTIVE is 0 are counted over all of them.
for mixed in 0 1; do
	python3 check.py gen $mixed >in.nd
	metric-eval $(python3 check.py args) in.nd >out 2>err
	echo "exit $?"
	grep GRBM err
	python3 check.py cmp $mixed out
done
rm -f in.nd out err

# measure.sh: the timing helper that the scripts in scripts/bench/ source
# (it sits in lib/ so that 'make bench' does not run it as a bench).
#
# measure N CMD...: runs CMD N times under /usr/bin/time, its output
# thrown away, and prints "median_wall_s peak_kb median_cpu_s": the median
# wall time, the largest resident set of the runs, and the median CPU time
# (user + system).  On a shared machine wall time also counts waiting for
# a core; CPU time shows the work done.
measure() {
	_mn=$1
	shift
	_mt=$(mktemp) && _mall=$(mktemp) || return 1
	_mi=0
	while [ "$_mi" -lt "$_mn" ]; do
		/usr/bin/time -f '%e %M %U %S' -o "$_mt" "$@" >/dev/null 2>&1
		cat "$_mt" >>"$_mall"
		_mi=$((_mi + 1))
	done
	echo "$(awk '{ print $1 }' "$_mall" | _median)" \
	    "$(awk '$2 > m { m = $2 } END { print m }' "$_mall")" \
	    "$(awk '{ print $3 + $4 }' "$_mall" | _median)"
	rm -f "$_mt" "$_mall"
}

# _median: the median of the numbers on stdin, one a line.
_median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

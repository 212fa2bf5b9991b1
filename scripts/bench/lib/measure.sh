# measure.sh: the timing helper that the scripts in scripts/bench/ source
# (it sits in lib/ so that 'make bench' does not run it as a bench).
#
# measure N CMD...: runs CMD N times under /usr/bin/time, its output
# thrown away, and prints "median_wall_s peak_kb median_cpu_s": the median
# wall time, the largest resident set of the runs, and the median CPU time
# (user + system).  On a shared machine wall time also counts waiting for
# a core; CPU time shows the work done.  For 'sh -c "a | b"' the resident
# set is that of the largest stage (getrusage of the children) and the CPU
# time the sum of the stages.
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
	_msum "$_mall"
	rm -f "$_mt" "$_mall"
}

# pair N OURS PEER: runs the shell commands OURS and PEER in turn, N times
# each, and prints "wall kb cpu peer_wall peer_kb peer_cpu" (as measure
# does, for both).  Taking turns puts both under the same load of a
# shared machine.  An empty PEER is not run and prints "- - -".
pair() {
	_pn=$1 _po=$2 _pp=$3
	_pt=$(mktemp) && _pa=$(mktemp) && _pb=$(mktemp) || return 1
	_pi=0
	while [ "$_pi" -lt "$_pn" ]; do
		/usr/bin/time -f '%e %M %U %S' -o "$_pt" sh -c "$_po" \
		    >/dev/null 2>&1
		cat "$_pt" >>"$_pa"
		if [ -n "$_pp" ]; then
			/usr/bin/time -f '%e %M %U %S' -o "$_pt" sh -c "$_pp" \
			    >/dev/null 2>&1
			cat "$_pt" >>"$_pb"
		fi
		_pi=$((_pi + 1))
	done
	if [ -n "$_pp" ]; then
		echo "$(_msum "$_pa") $(_msum "$_pb")"
	else
		echo "$(_msum "$_pa") - - -"
	fi
	rm -f "$_pt" "$_pa" "$_pb"
}

# row WHAT INPUT PEER "wall kb cpu peer_wall peer_kb peer_cpu" [NOTE]:
# one line of the table that scripts/bench.sh heads.  The ratios are the
# peer's time over ours (CPU, then wall): above 1 means profpipe is
# faster.  NOTE says the target, a rate, or where a figure comes from.
row() {
	echo "$4" | awk -v w="$1" -v i="$2" -v p="$3" -v n="${5:-}" '
	function s(x) { return x == "-" ? "-" : sprintf("%.2f", x) }
	function mb(x) { return x == "-" ? "-" : sprintf("%.0f", x / 1024) }
	function r(a, b) {
		if (a == "-" || b == "-") return "-"
		x = a / (b > 0 ? b : 0.005)
		return sprintf(x < 0.1 ? "%.3fx" : "%.1fx", x)
	}
	{
		printf "%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s" \
		    " | %s\n", w, i, s($3), s($1), mb($2), p, s($6), s($4),
		    mb($5), r($6, $3), r($4, $1), n
	}'
}

# row_header: the table's header line (bench.sh prints it once).
row_header() {
	echo "bench | input | CPU s | wall s | peak MB | peer | peer CPU s" \
	    "| peer wall s | peer peak MB | CPU ratio | wall ratio | note"
}

# _msum FILE: "median_wall peak_kb median_cpu" of /usr/bin/time lines.
_msum() {
	echo "$(awk '{ print $1 }' "$1" | _median)" \
	    "$(awk '$2 > m { m = $2 } END { print m }' "$1")" \
	    "$(awk '{ print $3 + $4 }' "$1" | _median)"
}

# _median: the median of the numbers on stdin, one a line.
_median() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

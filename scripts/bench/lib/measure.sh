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

# pair N OURS [PEER...]: runs the shell commands OURS and each PEER in
# turn, N times each, and prints "wall kb cpu" (as measure does) for OURS,
# then for each PEER.  Taking turns puts all of them under the same load
# of a shared machine, and one OURS run serves every peer of the same
# input.  An empty PEER is not run and prints "- - -".
pair() {
	_pn=$1 _po=$2
	shift 2
	_pd=$(mktemp -d) || return 1
	_pi=0
	while [ "$_pi" -lt "$_pn" ]; do
		_ptime "$_pd/0" "$_po"
		_pk=0
		for _pp in "$@"; do
			_pk=$((_pk + 1))
			[ -z "$_pp" ] || _ptime "$_pd/$_pk" "$_pp"
		done
		_pi=$((_pi + 1))
	done
	_pr=$(_msum "$_pd/0")
	[ $# -gt 0 ] || _pr="$_pr - - -"
	_pk=0
	for _pp in "$@"; do
		_pk=$((_pk + 1))
		if [ -f "$_pd/$_pk" ]; then
			_pr="$_pr $(_msum "$_pd/$_pk")"
		else
			_pr="$_pr - - -"
		fi
	done
	echo "$_pr"
	rm -rf "$_pd"
}

# peer K "ours... peers...": the six fields of pair's output that row
# takes, for OURS and its K-th PEER.
peer() {
	echo "$2" | awk -v k="$1" '{ print $1, $2, $3, $(3 * k + 1),
	    $(3 * k + 2), $(3 * k + 3) }'
}

# _ptime FILE CMD: one run of the shell command CMD under /usr/bin/time,
# its "wall kb user sys" appended to FILE; a run that fails says so on
# stderr (its times are not those of the work).
_ptime() {
	/usr/bin/time -f '%e %M %U %S' -o "$1.t" sh -c "$2" >/dev/null 2>&1 ||
	    echo "bench: exit $? from: $2" >&2
	tail -n 1 "$1.t" >>"$1"
}

# The checkout: the directory above the running script that holds
# scripts/bench/lib/measure.sh.
_mtop=$(cd "$(dirname "$0")" && while [ ! -f scripts/bench/lib/measure.sh ] &&
    [ "$PWD" != / ]; do cd ..; done && pwd)

# _unpath: stdin with each $BENCH_TMP written "@T", then each path of the
# checkout "@".
_unpath() {
	awk -v t="$BENCH_TMP" -v c="$_mtop" '
	function sub_all(s, from, to,   i, r) {
		if (from == "")
			return s
		r = ""
		while ((i = index(s, from)) > 0) {
			r = r substr(s, 1, i - 1) to
			s = substr(s, i + length(from))
		}
		return r s
	}
	{ print sub_all(sub_all($0, t, "@T"), c, "@") }'
}

# cached NAME CMD [FILE...]: the path of an input that the shell command
# CMD writes to "$out" (a file or a directory named NAME), made once
# under nice and kept in $BENCH_TMP/cache/ by a checksum of CMD and of
# the FILEs (the generator CMD runs): a second 'make bench' makes
# nothing, a changed generator or parameter makes a new input.  What the
# making took goes to stderr, and its "wall user sys" is added to
# $BENCH_TMP/made, which bench.sh sums in its last row.  In the
# checksum, $BENCH_TMP and the checkout's path are written "@T" and "@",
# so that other checkouts sharing a cache (by a symlink) find the inputs.
cached() {
	_cn=$1 _cc=$2
	shift 2
	_ck=$({ printf '%s\n' "$_cc" | _unpath && cat "$@"; } | cksum |
	    tr ' ' -)
	_cp=$BENCH_TMP/cache/$_ck
	if [ ! -e "$_cp/$_cn" ]; then
		rm -rf "$_cp" "$_cp.tmp" && mkdir -p "$_cp.tmp" || return 1
		if ! out=$_cp.tmp/$_cn /usr/bin/time -f '%e %U %S' \
		    -o "$_cp.time" nice sh -c "$_cc" >&2; then
			echo "(making $_cn failed)" >&2
			rm -rf "$_cp.tmp" "$_cp.time"
			return 1
		fi
		mv "$_cp.tmp" "$_cp" || return 1
		tail -n 1 "$_cp.time" >>"$BENCH_TMP/made"
		tail -n 1 "$_cp.time" | awk -v n="$_cn" '{
		    printf "(made %s in %.0f s, %.0f s of CPU)\n", n, $1,
		    $2 + $3 }' >&2
		rm -f "$_cp.time"
	fi
	echo "$_cp/$_cn"
}

# row WHAT INPUT PEER "wall kb cpu peer_wall peer_kb peer_cpu" [NOTE]:
# one line of the table that scripts/bench.sh heads.  The ratios are the
# peer's time over ours (CPU, then wall): above 1 means profpipe is
# faster.  NOTE says the target, a rate, or where a figure comes from.
# A '|' in a text ("pmc2ndjson | topn") is written '\|', so that it
# does not start a column.
row() {
	echo "$4" | awk -v w="$1" -v i="$2" -v p="$3" -v n="${5:-}" '
	function e(x) { gsub(/\|/, "\\|", x); return x }
	function s(x) { return x == "-" ? "-" : sprintf("%.2f", x) }
	function mb(x) { return x == "-" ? "-" : sprintf("%.0f", x / 1024) }
	function r(a, b) {
		if (a == "-" || b == "-") return "-"
		x = a / (b > 0 ? b : 0.005)
		return sprintf(x < 0.1 ? "%.3fx" : "%.1fx", x)
	}
	{
		printf "%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s" \
		    " | %s\n", e(w), e(i), s($3), s($1), mb($2), e(p), s($6),
		    s($4), mb($5), r($6, $3), r($4, $1), e(n)
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

# With BENCH_INPUTS=1 (bench.sh's first step) a script only makes its
# inputs: pair times nothing (its figures are zeros), row prints
# nothing, and inputs_done, after the last input a script makes, ends it
# there.
inputs_done() {
	[ "${BENCH_INPUTS:-0}" != 1 ] || exit 0
}
if [ "${BENCH_INPUTS:-0}" = 1 ]; then
	pair() {
		_pr="0 0 0"
		shift 2
		for _pp in "$@"; do _pr="$_pr 0 0 0"; done
		echo "$_pr"
	}
	row() { :; }
fi

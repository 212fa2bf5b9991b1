#!/bin/sh
# run.sh: runs the libFuzzer targets built in $1/fuzz/ (make fuzz-build),
# each for $FUZZ_SECONDS (default 60), $FUZZ_JOBS (default 1) at a time.
#
#   usage: tests/fuzz/run.sh BUILD [target ...]   (default: every target)
#
# Each target starts from the seed corpus of its inputs in examples/ and
# tests/cases/ (see seeds() below) plus its own corpus kept in
# BUILD/fuzz-corpus/<target>/ from earlier runs.  A crash, a sanitizer
# report or an input running longer than 10 s is saved under
# BUILD/fuzz-crashes/<target>/ and the target starts again, until its time
# is up; a timeout that does not repeat when its input runs again alone is
# counted as slow under load instead.  Ends with one line per target
# (executions, corpus, findings) and exits 1 if any target found something.
O=${1:?usage: run.sh BUILD [target ...]}
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
secs=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
hostile=$top/../shared/fixtures/hostile
[ $# -eq 0 ] && set -- $(cd "$O/fuzz" && ls)
[ $# -eq 0 ] && { echo "run.sh: no targets in $O/fuzz" >&2; exit 1; }

# seeds TARGET: prints the seed files of TARGET, one per line.
seeds() {
	case $1 in
	nd_reader | chart2html_* | topn_stats)
		ls tests/cases/*/*/*.nd tests/cases/*/*/*.ndjson \
		    tests/cases/metric-eval/*/expout tests/cases/topn/*/expout \
		    "$hostile"/*.nd ;;
	trace2spans_*)
		ls tests/cases/trace2spans/*/*.json* examples/*.json* \
		    "$hostile"/*.json ;;
	migx2ndjson_*)
		ls tests/cases/migx2ndjson/*/*.txt examples/migraphx*.txt ;;
	pmc2ndjson_*)
		ls examples/pmc_workload/*.csv tests/cases/pmc2ndjson/*/*.csv
		find tests/cases/pmc2ndjson -name '*.csv' | head -n 200 ;;
	spans2stacks_*)
		ls tests/cases/spans2stacks/*/*.nd \
		    tests/cases/trace2spans/*/expout \
		    tests/cases/db2spans/*/expout "$hostile"/wrap*.nd ;;
	flame2html_*)
		ls tests/cases/flame2html/*/*.folded \
		    tests/cases/flame2html/*/*.nd \
		    tests/cases/spans2stacks/*/expout "$hostile"/*.folded ;;
	topn_merge)
		grep -l topn_partial tests/cases/topn/*/expout \
		    tests/cases/topn/*/*.nd "$hostile"/topn_*.nd ;;
	metric-eval_expr)
		ls tests/fuzz/seeds/expr/* ;;	# and expr_seeds below
	metric-eval_yaml)
		ls tests/cases/metric-eval/*/cfg/*.yaml \
		    "$top"/../shared/reference/rocprof-compute-configs/gfx90a/*.yaml \
		    "$hostile"/*.yaml ;;
	db2spans_*)
		ls tests/cases/db2spans/*/*.sql examples/*.sql ;;
	esac 2>/dev/null
}

# expr_seeds DIR: one file per expression of rocprof-compute's configs
# (read from ../shared, never copied into the project), as '-e' text.
expr_seeds() {
	sed -n 's/^ *\(value\|avg\|min\|max\|peak\): *\(.*[A-Za-z(].*\)$/X = \2/p' \
	    "$top"/../shared/reference/rocprof-compute-configs/gfx90a/*.yaml \
	    2>/dev/null | sort -u | head -n 400 | {
		i=0
		while IFS= read -r e; do
			i=$((i + 1))
			printf '%s' "$e" >"$1/expr$i"
		done
	}
}

# fuzz TARGET: runs TARGET until its time is up; writes $log.TARGET.sum.
fuzz() {
	t=$1 corpus=$O/fuzz-corpus/$1 crashes=$O/fuzz-crashes/$1
	mkdir -p "$corpus" "$crashes" "$O/fuzz-seeds/$1"
	seeds "$t" | while read -r f; do
		[ -f "$f" ] && cp "$f" "$O/fuzz-seeds/$t/$(echo "$f" | tr / _)"
	done
	[ "$t" = metric-eval_expr ] && expr_seeds "$O/fuzz-seeds/$t"
	end=$(($(date +%s) + secs))
	execs=0 runs=0
	while left=$((end - $(date +%s))); [ "$left" -gt 0 ]; do
		runs=$((runs + 1))
		"$O/fuzz/$t" -max_total_time="$left" -timeout=10 \
		    -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 \
		    -artifact_prefix="$crashes/" "$corpus" "$O/fuzz-seeds/$t" \
		    >"$O/fuzz-log.$t.$runs" 2>&1
		n=$(sed -n 's/^stat::number_of_executed_units: *//p' \
		    "$O/fuzz-log.$t.$runs" | tail -n 1)
		[ -z "$n" ] && n=$(sed -n 's/^#\([0-9]*\).*/\1/p' \
		    "$O/fuzz-log.$t.$runs" | tail -n 1)
		execs=$((execs + ${n:-0}))
		if grep -q -E '^==[0-9]+==|^(SUMMARY|ERROR):|fuzz harness:' \
		    "$O/fuzz-log.$t.$runs"; then
			grep -E 'fuzz harness:|^SUMMARY|Test unit written' \
			    "$O/fuzz-log.$t.$runs" | sed "s|^|$t: |"
		fi
		# An input that fails at once every time (a seed) ends it.
		[ "$runs" -ge 50 ] && break
	done
	# A timeout that does not come back when the input runs again by
	# itself (the same limit) was the machine's load, not the input: it
	# moves to BUILD/fuzz-slow/<target>/ and is counted apart.
	slow=0
	for f in "$crashes"/timeout-* "$crashes"/slow-unit-*; do
		[ -f "$f" ] || continue
		if "$O/fuzz/$t" -timeout=10 -rss_limit_mb=2048 \
		    -detect_leaks=0 "$f" >/dev/null 2>&1; then
			mkdir -p "$O/fuzz-slow/$t"
			mv "$f" "$O/fuzz-slow/$t/"
			slow=$((slow + 1))
		fi
	done
	cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' "$O/fuzz-log.$t.$runs" |
	    tail -n 1)
	found=$(ls "$crashes" | wc -l)
	echo "$t: $execs executions in $secs s ($((execs / secs)) exec/s)," \
	    "cov $cov, corpus $(ls "$corpus" | wc -l), $slow slow under load" \
	    "(did not repeat), $found crash/timeout files" >"$O/fuzz-sum.$t"
}

running=0
for t in "$@"; do
	fuzz "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait
rc=0
for t in "$@"; do
	cat "$O/fuzz-sum.$t"
	case $(cat "$O/fuzz-sum.$t") in
	*" 0 crash/timeout files") ;;
	*) rc=1 ;;
	esac
done
exit $rc

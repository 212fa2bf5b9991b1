#!/bin/sh
# hostile.sh: replays every file of a folder of hostile inputs through every
# program that reads its kind, and checks the contract for bad input: exit 0,
# or exit 1 with messages that are each one line 'prog: ...'; never a
# signal, a sanitizer or valgrind report, another exit status, or more than
# $HOSTILE_TIMEOUT seconds (default 10).  New files dropped into the folder
# are covered by their name's extension:
#
#   .nd .ndjson .json   every NDJSON reader (metric-eval, chart2html, topn,
#                       topn --merge, spans2stacks, flame2html)
#   .json               trace2spans (a file and a pipe), then spans2stacks
#   .txt                migx2ndjson, and metric-eval -e with the text (as
#                       an argument, it may also be a usage error: exit 2)
#   .yaml .yml          metric-eval -f
#   .folded             flame2html
#   .db                 db2spans (each --tables choice), then spans2stacks
#   .csv                pmc2ndjson
#   anything else       every program
#
# usage: tests/hostile.sh BINDIR [dir]   (dir: ../shared/fixtures/hostile)
# $WRAPDIR, when set, is put before BINDIR on PATH (the valgrind run).
# Ends with the line 'N passed, N failed'.

bindir=$(cd "${1:?usage: hostile.sh BINDIR [dir]}" && pwd) || exit 2
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${2:-$top/../shared/fixtures/hostile}
limit=${HOSTILE_TIMEOUT:-10}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
PATH="$bindir:$PATH"
[ -n "$WRAPDIR" ] && PATH="$WRAPDIR:$PATH"
export PATH LC_ALL=C TZ=UTC
pass=0 fail=0

# A small dispatch stream for the expression and definition inputs.
printf '%s\n' '{"type":"sysinfo","gpu_arch":"gfx90a","cu_per_gpu":104}' \
    '{"type":"dispatch","Dispatch_ID":0,"Kernel_Name":"k","A":1,"B":2}' \
    '{"type":"dispatch","Dispatch_ID":1,"Kernel_Name":"k","A":3,"B":0}' \
    >"$tmp/disp.nd"

# check NAME PROG STATUS: judges one run from $tmp/err and its status
# (2 is allowed when $usage_ok is set: the input was an argument).
check() {
	why=
	case $3 in
	0 | 1) ;;
	2) [ -n "$usage_ok" ] || why="exit status 2" ;;
	124) why="took more than ${limit} s" ;;
	*) why="exit status $3" ;;
	esac
	if [ -z "$why" ] && grep -q -E \
	    'Sanitizer|runtime error|^==[0-9]+==|^\*\*[0-9]+\*\*' "$tmp/err"
	then
		why="sanitizer or valgrind report"
	fi
	if [ -z "$why" ] && grep -v -q -e "^$2: " -e '^usage: ' "$tmp/err"; then
		why="a message that is not one line '$2: ...'"
	fi
	if [ -z "$why" ] && [ "$3" -eq 1 ] && ! [ -s "$tmp/err" ]; then
		why="exit 1 with no message"
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
		return 0
	fi
	fail=$((fail + 1))
	echo "FAIL hostile $1: $why"
	head -n 5 "$tmp/err"
	return 1
}

# run NAME PROG ARG...: runs PROG with stdin from /dev/null.
run() {
	name=$1
	shift
	timeout -k 1 "$limit" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	check "$name" "$1" $?
}

# pipe NAME FILE PROG ARG...: runs PROG with FILE on stdin.
pipe() {
	name=$1 in=$2
	shift 2
	timeout -k 1 "$limit" "$@" >"$tmp/out" 2>"$tmp/err" <"$in"
	check "$name" "$1" $?
}

# then_ NAME PROG: feeds the last run's output to PROG.
then_() {
	cp "$tmp/out" "$tmp/prev"
	pipe "$1" "$tmp/prev" "$2"
}

nd_readers() {
	run "$b: metric-eval -e" metric-eval -e 'X = AVG(a)' "$1"
	run "$b: chart2html" chart2html "$1"
	run "$b: chart2html --table" chart2html --table "$1"
	run "$b: topn" topn -k k -v v "$1"
	run "$b: topn --merge" topn --merge "$1"
	run "$b: spans2stacks" spans2stacks "$1"
	run "$b: spans2stacks -m" spans2stacks -m "$1"
	run "$b: flame2html" flame2html "$1"
}

for f in "$dir"/*; do
	[ -f "$f" ] || continue
	b=${f##*/}
	case $b in
	README* | SOURCE*) continue ;;
	*.nd | *.ndjson)
		nd_readers "$f"
		;;
	*.json)
		nd_readers "$f"
		run "$b: trace2spans" trace2spans "$f" &&
			then_ "$b: trace2spans | spans2stacks" spans2stacks &&
			then_ "$b: ... | flame2html" flame2html
		pipe "$b: trace2spans <" "$f" trace2spans
		;;
	*.txt)
		run "$b: migx2ndjson" migx2ndjson "$f"
		usage_ok=1
		run "$b: metric-eval -e" metric-eval -e "$(cat "$f")" \
		    "$tmp/disp.nd"
		usage_ok=
		;;
	*.yaml | *.yml)
		run "$b: metric-eval -f" metric-eval -f "$f" "$tmp/disp.nd"
		;;
	*.folded)
		run "$b: flame2html" flame2html "$f"
		;;
	*.db)
		for t in pytorch cann task all; do
			run "$b: db2spans --tables $t" db2spans --tables "$t" \
			    "$f" &&
				then_ "$b: db2spans --tables $t | spans2stacks" \
				    spans2stacks &&
				then_ "$b: ... | flame2html" flame2html
		done
		run "$b: db2spans" db2spans "$f"
		;;
	*.csv)
		run "$b: pmc2ndjson" pmc2ndjson "$f"
		;;
	*)
		nd_readers "$f"
		for p in trace2spans migx2ndjson db2spans pmc2ndjson; do
			run "$b: $p" "$p" "$f"
		done
		run "$b: metric-eval -f" metric-eval -f "$f" "$tmp/disp.nd"
		;;
	esac
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

#!/bin/sh
# need-shared.sh: says in one line when the reference folder ../shared
# (fixtures/ and reference/rocprof-compute-configs/, the inputs of other
# projects that profpipe reads but never copies) is not beside the clone.
#
# usage: scripts/need-shared.sh check|demo [TOP]
#
#   check   exits 1 when it is missing: most golden cases read it, so a
#           test run without it would end in many unexplained failures
#   demo    exits 0: the pages that need it are left out, the others made
#
# TOP is the top of the clone (default: this script's parent folder).

mode=${1:?usage: need-shared.sh check|demo [TOP]}
top=${2:-$(cd "$(dirname "$0")/.." && pwd)}
shared=$top/../shared
need="$shared/fixtures $shared/reference/rocprof-compute-configs"
# The demo reads only the configs (its inputs are in examples/).
[ "$mode" = demo ] && need=$shared/reference/rocprof-compute-configs
missing=
for d in $need; do
	[ -d "$d" ] || missing="$missing ${d#"$top"/}"
done
[ -z "$missing" ] && exit 0
missing=${missing# }
case $mode in
check)
	n=$(grep -li 'shared' "$top"/tests/cases/*/*/cmd \
	    "$top"/tests/cases/*/*/check.sh 2>/dev/null | wc -l)
	echo "check: $missing missing: the reference folder ../shared" \
	    "(fixtures and rocprof-compute configs, kept beside the clone," \
	    "never inside it) is read by $n golden cases and the browser" \
	    "tests; put it beside the clone and run make check again" >&2
	exit 1 ;;
demo)
	echo "demo: $missing missing: out/report.html (rocprof-compute" \
	    "metrics) needs the configs of the reference folder ../shared" \
	    "beside the clone and is left out; the other pages are written" >&2
	exit 0 ;;
*)
	echo "usage: need-shared.sh check|demo [TOP]" >&2
	exit 2 ;;
esac

#!/bin/sh
# run-cases.sh: golden pipeline cases (Miller's case-directory layout).
#
# usage: tests/run-cases.sh [-p] BINDIR [casedir ...]
#
# Each case is tests/cases/<prog>/<NNNN-slug>/ with a one-line 'cmd' run by
# sh from inside the case directory, BINDIR first on PATH, and the expected
# 'expout' (stdout), 'experr' (stderr) and 'status' (exit code).  A missing
# expout or experr means empty.  -p writes the actual results into the case
# files instead of comparing: review them with 'git diff'.  $WRAPDIR, when
# set, is put before BINDIR on PATH (used by the valgrind run).
#
# Cases reach the shared data (fixtures, reference configs: the folder
# shared/ beside the clone) through $SHARED, never a path of their own.
# It is relative to the case directory, so a message that names a
# fixture reads the same on every machine.  A case whose test is a long
# shell program keeps it in check.sh (commented, one step a line) and its
# cmd is 'sh ./check.sh'.
# Ends with the line 'N passed, N failed'.

populate=0
if [ "$1" = "-p" ]; then populate=1; shift; fi
bindir=$(cd "${1:?usage: run-cases.sh [-p] BINDIR [case ...]}" && pwd) || exit 2
shift
top=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then
	set -- "$top"/tests/cases/*/*/
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
. "$top/scripts/syspython.sh"
syspython "$tmp/py" || exit 1
path="$bindir:$PATH"
# From tests/cases/<prog>/<case>/ to the folder beside the clone.
SHARED=../../../../../shared
export SHARED
[ -n "$WRAPDIR" ] && path="$WRAPDIR:$path"

pass=0 fail=0
for c in "$@"; do
	c=${c%/}
	[ -f "$c/cmd" ] || continue
	name=${c#"$top"/tests/cases/}
	(cd "$c" && PATH="$path" LC_ALL=C TZ=UTC sh ./cmd \
	    >"$tmp/out" 2>"$tmp/err" </dev/null)
	echo $? >"$tmp/status"
	if [ $populate -eq 1 ]; then
		cp "$tmp/out" "$c/expout"
		cp "$tmp/err" "$c/experr"
		cp "$tmp/status" "$c/status"
		echo "wrote $name"
		continue
	fi
	ok=1
	for f in out err; do
		exp="$c/exp$f"
		[ -f "$exp" ] || exp=/dev/null
		if ! cmp -s "$exp" "$tmp/$f"; then
			ok=0
			echo "FAIL $name: std$f differs"
			diff -u "$exp" "$tmp/$f" | head -20
		fi
	done
	want=0
	[ -f "$c/status" ] && want=$(cat "$c/status")
	if [ "$want" != "$(cat "$tmp/status")" ]; then
		ok=0
		echo "FAIL $name: exit status $(cat "$tmp/status"), want $want"
	fi
	if [ $ok -eq 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

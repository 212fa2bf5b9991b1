#!/bin/sh
# lint-man.sh: every man page passes 'mandoc -Tlint -Wwarning' and has no
# nested quotes, each program's SYNOPSIS equals its --help usage (the idea
# of git's t0450), and its --help lists every option of the man page with
# its meaning.
# usage: tests/lint-man.sh [BINDIR]   Ends with 'N passed, N failed'.

top=$(cd "$(dirname "$0")/.." && pwd)
bindir=${1:-}
pass=0 fail=0
for m in "$top"/man/*.[17]; do
	[ -f "$m" ] || continue
	if out=$(mandoc -Tlint -Wwarning "$m" 2>&1) && [ -z "$out" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL lint $(basename "$m")"
		echo "$out"
	fi
done
# A quoted literal (.Ql, shown in single quotes) that holds a single quote
# reads as nested quotes, and so does a quoting macro (Ql, Dq, Sq) called
# on the line of another, which it then encloses: such text goes in .Li.
for m in "$top"/man/*.[17]; do
	if out=$(grep -n -E "^\.Ql .*'|(^\.| )(Ql|Dq|Sq) (.* )?(Ql|Dq|Sq) " \
	    "$m"); then
		fail=$((fail + 1))
		echo "FAIL nested quotes in $(basename "$m") (use .Li):"
		echo "$out"
	else
		pass=$((pass + 1))
	fi
done
if [ -n "$bindir" ]; then
	for b in "$bindir"/*; do
		[ -x "$b" ] || continue
		for t in check-synopsis check-help; do
			if sh "$top/tests/$t.sh" "$b"; then
				pass=$((pass + 1))
			else
				fail=$((fail + 1))
			fi
		done
	done
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

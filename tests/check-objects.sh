#!/bin/sh
# check-objects.sh: no object file of a program refers to a writable
# object defined in another file: another file of the program, or
# libcommon.
#
# This is check-layers.sh's "globals" rule read from the built objects
# instead of the text, so a macro or a declaration the text rules miss
# cannot hide a shared variable.  A writable object is a global data
# symbol outside the read-only sections (.rodata, and .data.rel.ro, where
# a const table of pointers lives), or a common symbol; a reference is an
# undefined symbol of the object.  Settings a program gives libcommon go
# through functions (prog_usage(), ndw_nonfinite_null()).
# usage: tests/check-objects.sh [build-dir]; ends with 'N passed, N failed'.
O=${1:-build}
LC_ALL=C
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0

# writable FILE...: "symbol file" for each writable global object defined.
writable() {
	for f in "$@"; do
		objdump -t "$f" | awk -v f="$(basename "$f")" '
		/file format/ { m = $1; sub(/:$/, "", m) }
		$0 ~ /\*COM\*/ { print $NF, (m != "" ? m : f); next }
		$2 ~ /^[gu]$/ && $3 == "O" && $4 !~ /^\.(rodata|data\.rel\.ro)/ {
			print $NF, (m != "" ? m : f)
		}'
	done | sort -u
}

if [ ! -f "$O/libcommon.a" ]; then
	echo "FAIL no $O/libcommon.a: build first"
	echo "0 passed, 1 failed"
	exit 1
fi
for b in "$O"/bin/*; do
	p=$(basename "$b")
	if [ -d "$O/cmd/$p" ]; then
		set -- "$O/cmd/$p"/*.o
	elif [ -f "$O/cmd/$p.o" ]; then
		set -- "$O/cmd/$p.o"
	else
		continue
	fi
	writable "$@" "$O/libcommon.a" >"$tmp/defs"
	for o in "$@"; do
		nm -u "$o" | awk '{ print $NF }' | sort -u |
		    join - "$tmp/defs" |
		    awk -v o="$(basename "$o")" '{ print o " uses " $1 \
			" (" $2 ")" }'
	done >"$tmp/uses"
	if [ -s "$tmp/uses" ]; then
		fail=$((fail + 1))
		echo "FAIL $p: a file uses another file's writable object:"
		sed 's/^/	/' "$tmp/uses"
	else
		pass=$((pass + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

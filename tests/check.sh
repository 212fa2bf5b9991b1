#!/bin/sh
# check.sh: runs every test suite against the build in $1 and ends with one
# line 'N passed, N failed' summing them all.
#
#   unit      tests/unit/test_*.c (cmocka), one binary per libcommon module,
#             and tests/unit/<prog>/test_*.c, one per program module
#   cases     tests/cases/*/*/ golden pipeline cases (tests/run-cases.sh)
#   hostile   tests/hostile.sh on ../shared/fixtures/hostile/ (when there)
#   fuzz-crashes  the same on tests/fuzz/crashes/ (what make fuzz found)
#   man       mandoc -Tlint and the SYNOPSIS = --help check
#   layers    no shared mutable globals, no file cycles (check-layers.sh)
#   objects   no object file uses another file's writable object
#             (check-objects.sh, on the built objects)
#   browser   tests/browser/*.test.mjs in headless chromium (playwright-core)
#
# NO_BROWSER=1 skips the browser suite (asan and valgrind runs);
# VALGRIND=1 runs every program and unit test under valgrind;
# BUILD_FAILED=1 (set by make when 'make -k all' failed) adds one failure,
# and the suites run on what did build.

O=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
# From here on $O is absolute (it may be given relative or absolute).
case $O in
/*) ;;
*) O=$top/$O ;;
esac
log=$(mktemp) || exit 1
wrap=
trap 'rm -f "$log" "$log.u" "$log.e"; [ -n "$wrap" ] && rm -rf "$wrap"' EXIT INT TERM
total_pass=0 total_fail=0

# add_counts SUITE: adds the 'N passed, N failed' line of $log to the total.
add_counts() {
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		echo "$1: no summary line: counted as 1 failure"
		total_fail=$((total_fail + 1))
		return
	fi
	p=${line%% passed*}
	f=${line#*passed, }
	f=${f%% failed*}
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	echo "$1: $line"
}

vg=
if [ -n "$VALGRIND" ]; then
	vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
	wrap=$(mktemp -d)
	# Readable by all: cases run some programs as another user.
	chmod 755 "$wrap"
	for b in "$O"/bin/*; do
		[ -x "$b" ] || continue
		printf '#!/bin/sh\nexec %s %s "$@"\n' "$vg" "$b" \
		    >"$wrap/$(basename "$b")"
		chmod +x "$wrap/$(basename "$b")"
	done
	# valgrind runs a program 20 to 50 times slower: the time limits of
	# the hostile replays (10 s) and of the batch cases grow with it.
	HOSTILE_TIMEOUT=${HOSTILE_TIMEOUT:-300} TIME_SCALE=${TIME_SCALE:-20}
	export HOSTILE_TIMEOUT TIME_SCALE
fi

# Unit tests: each cmocka binary.  cmocka writes '[ RUN      ]' and
# '[       OK ]' to stdout; a test that ran without its OK failed or
# crashed, and a binary that exits non-zero with no such test (a crash
# before or after the tests, a valgrind error, a timeout) is one failure.
p=0 f=0 nunit=0
for t in "$O"/tests/test_* "$O"/tests/*/test_*; do
	[ -x "$t" ] || continue
	nunit=$((nunit + 1))
	timeout 900 $vg "$t" >"$log.u" 2>"$log.e"
	rc=$?
	run=$(grep -c '^\[ RUN      \]' "$log.u")
	ok=$(grep -c '^\[       OK \]' "$log.u")
	bad=$((run - ok))
	if [ $rc -ne 0 ] && [ $bad -eq 0 ]; then
		bad=1
	fi
	p=$((p + ok))
	f=$((f + bad))
	if [ $bad -ne 0 ]; then
		echo "FAIL unit $(basename "$t") (exit status $rc)"
		grep -v -e '^\[ RUN      \]' -e '^\[       OK \]' "$log.u"
		cat "$log.e"
	fi
done
rm -f "$log.u" "$log.e"
if [ $nunit -eq 0 ]; then
	echo "FAIL unit: no test binaries in $O/tests (build first)"
	f=$((f + 1))
fi
echo "$p passed, $f failed" >"$log"
add_counts unit

WRAPDIR=$wrap sh tests/run-cases.sh "$O/bin" >"$log" 2>&1
grep -v -E '^[0-9]+ passed, [0-9]+ failed' "$log"
add_counts cases

# The hostile inputs beside the clone, when there: every program that
# reads a file's kind, exit 0 or a one-line error, never a crash.
hostile=$top/../shared/fixtures/hostile
if [ -d "$hostile" ]; then
	WRAPDIR=$wrap sh tests/hostile.sh "$O/bin" "$hostile" >"$log" 2>&1
	grep -v -E '^[0-9]+ passed, [0-9]+ failed' "$log"
	add_counts hostile
fi
# What the fuzz targets found (tests/fuzz/crashes/), the same way.
WRAPDIR=$wrap sh tests/hostile.sh "$O/bin" tests/fuzz/crashes >"$log" 2>&1
grep -v -E '^[0-9]+ passed, [0-9]+ failed' "$log"
add_counts fuzz-crashes

sh tests/lint-man.sh "$O/bin" >"$log" 2>&1
grep -v -E '^[0-9]+ passed, [0-9]+ failed' "$log"
add_counts man

sh tests/check-layers.sh >"$log" 2>&1
grep -v -E '^[0-9]+ passed, [0-9]+ failed' "$log"
add_counts layers

sh tests/check-objects.sh "$O" >"$log" 2>&1
grep -v -E '^[0-9]+ passed, [0-9]+ failed' "$log"
add_counts objects

if [ -z "$NO_BROWSER" ] && ls tests/browser/*.test.mjs >/dev/null 2>&1; then
	BIN="$O/bin" sh tests/browser/run.sh >"$log" 2>&1
	grep -v -E '^[0-9]+ passed, [0-9]+ failed' "$log"
	add_counts browser
fi

if [ -n "$BUILD_FAILED" ]; then
	echo "build: failed (see the compiler errors above): counted as 1 failure"
	total_fail=$((total_fail + 1))
fi

echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]

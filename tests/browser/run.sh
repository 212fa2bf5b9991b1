#!/bin/sh
# run.sh: runs the browser tests (tests/browser/*.test.mjs) with node's test
# runner in headless chromium; see lib.mjs.  $BIN is the bin dir of the
# programs under test (default build/bin).  Prints the runner's output and
# ends with one line 'N passed, N failed'.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
set -- tests/browser/*.test.mjs
if [ ! -f "$1" ]; then
	echo "0 passed, 0 failed"
	exit 0
fi
if [ ! -d tests/browser/node_modules/playwright-core ]; then
	echo "browser: playwright-core missing: run scripts/install-deps.sh"
	echo "0 passed, 1 failed"
	exit 1
fi
tap=$(mktemp) || exit 1
trap 'rm -f "$tap"' EXIT INT TERM
rm -rf tests/browser/failures
# A test that hangs fails after two minutes (node >= 20.11; Debian 12's
# node 18 lacks the option).
timeout=
if node --test-timeout=1000 -e '' >/dev/null 2>&1; then
	timeout=--test-timeout=120000
fi
node --test $timeout \
    --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$tap" "$@"
rc=$?
pass=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$tap" | tail -n 1)
fail=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$tap" | tail -n 1)
cancelled=$(sed -n 's/^# cancelled \([0-9]*\)$/\1/p' "$tap" | tail -n 1)
pass=${pass:-0}
fail=$((${fail:-0} + ${cancelled:-0}))
# A runner that failed without counting a failure (a crash) is one failure.
if [ $rc -ne 0 ] && [ $fail -eq 0 ]; then
	fail=1
fi
rmdir tests/browser/failures 2>/dev/null
if [ -d tests/browser/failures ]; then
	echo "screenshots of failed tests: tests/browser/failures/"
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

#!/bin/sh
# install-deps.sh: installs what profpipe needs to build and test, and does
# nothing when everything is present.  Debian 12 packages through apt-get
# (with sudo when not root); playwright-core for the browser tests through
# npm, from the committed lockfile in tests/browser/.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)

# Debian package, and a file that shows it is installed.
need="
gcc:/usr/bin/gcc
make:/usr/bin/make
pkg-config:/usr/bin/pkg-config
libsqlite3-dev:/usr/include/sqlite3.h
libjq-dev:/usr/include/jq.h
libcsv-dev:/usr/include/csv.h
libcmocka-dev:/usr/include/cmocka.h
libyaml-dev:/usr/include/yaml.h
zlib1g-dev:/usr/include/zlib.h
mandoc:/usr/bin/mandoc
valgrind:/usr/bin/valgrind
jq:/usr/bin/jq
sqlite3:/usr/bin/sqlite3
python3:/usr/bin/python3
nodejs:/usr/bin/node
npm:/usr/bin/npm
chromium:/usr/bin/chromium
"
missing=
for pf in $need; do
	pkg=${pf%%:*}
	file=${pf#*:}
	[ -e "$file" ] || missing="$missing $pkg"
done

if [ -n "$missing" ]; then
	echo "install-deps: installing Debian packages:$missing"
	sudo=
	if [ "$(id -u)" -ne 0 ]; then
		sudo=sudo
	fi
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq
	# shellcheck disable=SC2086
	$sudo apt-get install -y -qq --no-install-recommends $missing \
	    >/dev/null
fi

# playwright-core for the browser tests, pinned by package-lock.json.
if [ -f "$top/tests/browser/package-lock.json" ] &&
    [ ! -d "$top/tests/browser/node_modules/playwright-core" ]; then
	echo "install-deps: installing playwright-core (npm ci in tests/browser)"
	(cd "$top/tests/browser" && npm ci --no-audit --no-fund --silent)
fi
exit 0

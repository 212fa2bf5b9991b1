#!/bin/sh
# install-deps.sh: installs what profpipe needs to build and test, and does
# nothing (and prints nothing) when everything is present.  Debian 12
# packages through apt-get (with sudo when not root); playwright-core for
# the browser tests and DuckDB for the test of docs/formats.md's recipe
# through npm, from the committed lockfiles in tests/browser/ and
# tests/duckdb/.  It says what it installs.
#
# --clang installs only what 'make ubsan' and 'make fuzz' need: clang and
# its sanitizer and libFuzzer runtimes (not needed by 'make check').
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
time:/usr/bin/time
gzip:/bin/gzip
ca-certificates:/etc/ssl/certs/ca-certificates.crt
nodejs:/usr/bin/node
npm:/usr/bin/npm
chromium:/usr/bin/chromium
parallel:/usr/bin/parallel
openssh-server:/usr/sbin/sshd
slurm-wlm:/usr/sbin/slurmctld
munge:/usr/sbin/munged
"
if [ "$1" = "--clang" ]; then
	need="
clang-14:/usr/bin/clang-14
clang:/usr/bin/clang
libclang-rt-14-dev:/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a
"
fi
# The service units and init scripts on this machine, one a line.
list_units() {
	ls /lib/systemd/system /etc/init.d 2>/dev/null |
	    grep -v -e ':$' -e '^$' -e '@' | LC_ALL=C sort -u
}

# Disables (for the next boot) and stops the services that appeared
# since $units_before: through systemctl when systemd runs, else
# deb-systemd-helper for the unit files and update-rc.d and the init
# script for the SysV ones.
quiet_services() {
	new=$(list_units | LC_ALL=C comm -13 "$units_before" -)
	rm -f "$units_before"
	[ -n "$new" ] || return 0
	sysd=
	[ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1 &&
	    sysd=1
	done_list=
	for u in $new; do
		case $u in
		*.service|*.socket|*.timer)
			if [ -n "$sysd" ]; then
				$sudo systemctl disable --now -q "$u" \
				    >/dev/null 2>&1 || continue
			elif command -v deb-systemd-helper >/dev/null 2>&1; then
				$sudo deb-systemd-helper disable "$u" \
				    >/dev/null 2>&1 || continue
			else
				continue
			fi ;;
		*)
			[ -x "/etc/init.d/$u" ] || continue
			[ -n "$sysd" ] && continue	# systemd has its unit
			if command -v update-rc.d >/dev/null 2>&1; then
				$sudo update-rc.d "$u" disable \
				    >/dev/null 2>&1 || true
			fi
			$sudo "/etc/init.d/$u" stop >/dev/null 2>&1 || true ;;
		esac
		done_list="$done_list $u"
	done
	[ -n "$done_list" ] &&
	    echo "install-deps: disabled and stopped the services it" \
	    "added:$done_list"
	return 0
}

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
		if ! command -v sudo >/dev/null 2>&1; then
			echo "install-deps: not root and no sudo: install" \
			    "them by hand:$missing" >&2
			exit 1
		fi
		sudo=sudo
	fi
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq
	# openssh-server, munge and slurm-wlm are there for the tests of the
	# batch recipes, which start daemons of their own on high ports:
	# Debian's policy-rc.d keeps apt from starting theirs meanwhile, and
	# the services this install added are disabled and stopped after it
	# (quiet_services).  Services that were there before are left alone.
	units_before=$(mktemp)
	list_units >"$units_before"
	guard=
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' |
		    $sudo tee /usr/sbin/policy-rc.d >/dev/null
		$sudo chmod 755 /usr/sbin/policy-rc.d
		guard=/usr/sbin/policy-rc.d
	fi
	rc=0
	# shellcheck disable=SC2086
	$sudo apt-get install -y -qq --no-install-recommends $missing \
	    >/dev/null || rc=$?
	[ -n "$guard" ] && $sudo rm -f "$guard"
	quiet_services
	[ $rc -eq 0 ] || exit $rc
fi

[ "$1" = "--clang" ] && exit 0

# The npm packages of the tests, each at the version its committed
# package-lock.json pins (npm ci again when the pin moved): playwright-core
# for the browser tests, and DuckDB (@duckdb/node-api, its binary inside)
# for the test of docs/formats.md's DuckDB recipe.
npm_pinned() {
	dir=$top/$1
	lock=$dir/package-lock.json
	have=$dir/node_modules/$2/package.json
	[ -f "$lock" ] || return 0
	want=$(node -p "require('$lock').packages['node_modules/$2'].version")
	got=
	if [ -f "$have" ]; then
		got=$(node -p "require('$have').version")
	fi
	[ "$want" = "$got" ] && return 0
	echo "install-deps: installing $2 $want (npm ci in $1)"
	(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
}
npm_pinned tests/browser playwright-core
npm_pinned tests/duckdb @duckdb/node-api
exit 0

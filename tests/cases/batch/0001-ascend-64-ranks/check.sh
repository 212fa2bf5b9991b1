#!/bin/sh
# check.sh: 64 generated Ascend ranks (one planted slow) through the batch
# rules with make -j 2, and through the GNU parallel recipe of the README
# with -j 2 and with --sshlogin to an ssh server of its own on loopback.
# What the merges give is checked against one run over everything and
# against the spans themselves (../compare.py).  Everything runs in a
# scratch directory under time limits; the ssh server is stopped at the
# end.
top=$(cd ../../../.. && pwd)
# Time limits scale with TIME_SCALE (tests/check.sh sets it under valgrind).
ts=${TIME_SCALE:-1}
# The batch rules run as a user runs them, not as a sub-make of 'make
# check' (whose flags and jobserver change what make prints).
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
cmp=$top/tests/cases/batch/compare.py
# Debian's python3 (install-deps.sh), not a shim that may rehash meanwhile.
py=/usr/bin/python3
[ -x $py ] || py=python3
t=$(mktemp -d) || exit 1
sshpid='' rundir=''
cleanup() {
	if [ -n "$sshpid" ]; then
		kill "$sshpid" 2>/dev/null
		wait "$sshpid" 2>/dev/null
	fi
	[ -n "$rundir" ] && rmdir "$rundir" 2>/dev/null
	rm -rf "$t"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
cd "$t" || exit 1
slow=$($py "$top/scripts/bench/make_ranks.py" -n 64 ranks) || exit 1

echo "make -j 2:"
printf 'PROFPIPE_INPUTS := $(wildcard ranks/*.db)\ninclude %s\n' \
    "$top/scripts/batch/profpipe.mk" >Makefile
timeout $((120 * ts)) make -s -j 2 profpipe 2>make.err || { cat make.err; exit 1; }
grep -v -e "spans without a name" -e "^$" make.err
ls ranks/*.stacks ranks/*.top.ndjson | wc -l |
    sed 's/^/  per-rank products: /'
cat ranks/*.spans | spans2stacks -q >one.stacks
cat ranks/*.spans | topn -k name -n 0 >one.top
$py "$cmp" stacks all.stacks one.stacks | sed 's/^/  /'
$py "$cmp" top all.top.ndjson one.top ranks/*.spans | sed 's/^/  /'
$py "$cmp" slowest "$slow" ranks/*.spans | sed 's/^/  /'
for f in flame.html ranks.html; do
	[ -s $f ] && echo "  $f written"
done

echo "one rank changes: make redoes it and the merges"
$py "$top/../shared/fixtures/ascend/make_ascend_db.py" -q -o \
    ranks/rank0005.db --rows 500 --seed 5 --rank 5
timeout $((60 * ts)) make -j 2 profpipe 2>/dev/null | $py "$cmp" commands
cat ranks/*.spans | spans2stacks -q >one.stacks
$py "$cmp" stacks all.stacks one.stacks | sed 's/^/  /'
timeout $((60 * ts)) make -q profpipe && echo "  then nothing is left to do"

# The README's recipe, one rank a job; the products beside the inputs.
recipe='db2spans --label {/.} -o {.}.spans {} 2>/dev/null &&
    spans2stacks -q -o {.}.stacks {.}.spans &&
    topn --partial -k name -o {.}.top.ndjson {.}.spans'
merge() {
	ls "$1"/*.stacks | spans2stacks -m -q --files-from - \
	    -o "$1"/all.stacks
	ls "$1"/*.top.ndjson | topn --merge -n 0 --files-from - \
	    -o "$1"/all.top.ndjson
	$py "$cmp" stacks all.stacks "$1"/all.stacks | sed 's/^/  /'
	$py "$cmp" top all.top.ndjson "$1"/all.top.ndjson ranks/*.spans |
	    sed 's/^/  /'
}
echo "GNU parallel -j 2:"
mkdir par && cp ranks/*.db par/
ls par/*.db | timeout $((120 * ts)) parallel -j 2 --halt now,fail=1 "$recipe" ||
    echo "  parallel failed"
merge par

echo "GNU parallel --sshlogin to this machine, ranks 0 to 9:"
mkdir ssh par2 && cp ranks/rank000?.db par2/
ssh-keygen -q -t ed25519 -N '' -f ssh/host &&
    ssh-keygen -q -t ed25519 -N '' -f ssh/user &&
    cp ssh/user.pub ssh/authorized_keys || exit 1
# sshd wants its privilege separation directory; made here only if absent.
if [ ! -d /run/sshd ] && mkdir /run/sshd 2>/dev/null; then
	rundir=/run/sshd
fi
port=$((20000 + $$ % 20000))
printf '%s\n' "ListenAddress 127.0.0.1" "Port $port" \
    "HostKey $t/ssh/host" "AuthorizedKeysFile $t/ssh/authorized_keys" \
    "PidFile none" "StrictModes no" "UsePAM no" \
    "PasswordAuthentication no" "KbdInteractiveAuthentication no" \
    "PermitRootLogin prohibit-password" "MaxStartups 64" \
    "LoginGraceTime 120" >ssh/sshd_config
printf '%s\n\t%s\n' "Host loopback" "HostName 127.0.0.1" >ssh/config
printf '\t%s\n' "Port $port" "User $(id -un)" "IdentityFile $t/ssh/user" \
    "IdentitiesOnly yes" "BatchMode yes" "StrictHostKeyChecking no" \
    "UserKnownHostsFile /dev/null" "LogLevel ERROR" >>ssh/config
/usr/sbin/sshd -D -f ssh/sshd_config -E "$t/ssh/log" &
sshpid=$!
i=0
until timeout 5 ssh -F ssh/config loopback true 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 50 ]; then
		echo "  no ssh server on port $port:"
		cat ssh/log
		exit 1
	fi
	sleep 0.1
done
# On a loaded machine an ssh connection to the test server is sometimes
# reset during key exchange: such a transport failure gets one more try
# (the recipe's products are the same either way, and a real failure
# fails twice).
sshrun() {
	ls par2/*.db | timeout $((120 * ts)) parallel -j 2 -M \
	    --ssh "ssh -F $t/ssh/config" -S loopback --env PATH \
	    --workdir "$t" --halt now,fail=1 "$recipe"
}
sshrun 2>ssh/err1 || { sleep 1; sshrun; } ||
    echo "  parallel --sshlogin failed"
n=0
for f in par2/*.stacks par2/*.top.ndjson; do
	cmp -s "$f" "ranks/${f#par2/}" && n=$((n + 1))
done
echo "  $n per-rank products, the same as make's"

#!/bin/sh
# check.sh: the Slurm recipe of the README (scripts/batch/slurm-ranks.sh,
# an array of 4 tasks over 16 ranks, then one merge job) on a one-node
# Slurm cluster of its own: munged, slurmctld and slurmd started here with
# a throwaway key, a private configuration and high ports, and stopped at
# the end.  It checks each task's share of the ranks, that the merge
# equals one run over every rank's spans, and that a resubmitted array
# redoes nothing.  Every wait is bounded.
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
pids=''
cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	for p in $pids; do
		wait "$p" 2>/dev/null
	done
	rm -rf "$t"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
cd "$t" || exit 1

# The cluster: one node, this host, two CPUs.
mkdir -m 700 munge && mkdir state spool
dd if=/dev/urandom of=munge/key bs=1024 count=1 2>/dev/null
chmod 600 munge/key
munged -F -f -S "$t/munge/sock" --key-file="$t/munge/key" \
    --log-file="$t/munge/log" --pid-file="$t/munge/pid" \
    --seed-file="$t/munge/seed" 2>/dev/null &
pids="$pids $!"
port=$((30000 + $$ % 15000 * 2))
h=$(hostname)
printf '%s\n' "ClusterName=profpipe" "SlurmctldHost=$h" \
    "SlurmctldPort=$port" "SlurmdPort=$((port + 1))" \
    "AuthType=auth/munge" "AuthInfo=socket=$t/munge/sock" \
    "CredType=cred/munge" "StateSaveLocation=$t/state" \
    "SlurmdSpoolDir=$t/spool" "SlurmctldPidFile=$t/ctld.pid" \
    "SlurmdPidFile=$t/d.pid" "SlurmUser=$(id -un)" \
    "SlurmdUser=$(id -un)" "ProctrackType=proctrack/linuxproc" \
    "TaskPlugin=task/none" "JobAcctGatherType=jobacct_gather/none" \
    "SelectType=select/cons_tres" "SelectTypeParameters=CR_CPU" \
    "ReturnToService=2" "MpiDefault=none" "SchedulerType=sched/builtin" \
    "JobCompType=jobcomp/none" "AccountingStorageType=accounting_storage/none" \
    "SlurmctldLogFile=$t/ctld.log" "SlurmdLogFile=$t/d.log" \
    "NodeName=$h CPUs=2 State=UNKNOWN" \
    "PartitionName=test Nodes=ALL Default=YES MaxTime=10 State=UP" \
    >slurm.conf
export SLURM_CONF="$t/slurm.conf"
i=0
until [ -S munge/sock ]; do
	i=$((i + 1)); [ $i -gt 50 ] && { echo "munged did not start"; exit 1; }
	sleep 0.1
done
slurmctld -D -f "$SLURM_CONF" 2>/dev/null &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" 2>/dev/null &
pids="$pids $!"
i=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
	i=$((i + 1))
	if [ $i -gt 100 ]; then
		echo "no idle Slurm node:"; tail -5 ctld.log d.log; exit 1
	fi
	sleep 0.2
done

$py "$top/scripts/bench/make_ranks.py" -n 16 --slow 3 ranks >/dev/null ||
    exit 1
printf 'PROFPIPE_INPUTS := $(shell cat ranks.list)\ninclude %s\n' \
    "$top/scripts/batch/profpipe.mk" >Makefile
cp "$top/scripts/batch/slurm-ranks.sh" .
# The programs under test are on PATH here: jobs inherit it.
ls ranks/*.db >ranks.list
jid=$(sbatch --parsable --array=0-3 slurm-ranks.sh ranks.list) ||
    echo "the array was not submitted"
timeout $((120 * ts)) sbatch --wait -o merge.out \
    --dependency=afterok:$jid --wrap 'srun make profpipe' >/dev/null ||
    echo "the merge job failed"
for i in 0 1 2 3; do
	printf 'task %s: ' $i
	grep -o '^db2spans[^ ]* .* -o [^ ]*' "profpipe-ranks-${jid}_$i.out" |
	    grep -o 'rank[0-9]*\.spans' | tr '\n' ' '
	echo
done
ls ranks/*.stacks ranks/*.top.ndjson | wc -l |
    sed 's/^/per-rank products: /'
grep -c '^db2spans' merge.out | sed 's/^/ranks redone by the merge job: /'
cat ranks/*.spans | spans2stacks -q >one.stacks
$py "$cmp" stacks all.stacks one.stacks
cat ranks/*.spans | topn -k name -n 0 >one.top
$py "$cmp" top all.top.ndjson one.top ranks/*.spans
$py "$cmp" slowest rank0003 ranks/*.spans
[ -s ranks.html ] && [ -s flame.html ] && echo "ranks.html, flame.html written"

jid=$(timeout $((120 * ts)) sbatch --parsable --wait --array=0-3 slurm-ranks.sh \
    ranks.list)
cat profpipe-ranks-${jid}_*.out | grep -c '^db2spans' |
    sed 's/^/ranks redone by a second array: /'

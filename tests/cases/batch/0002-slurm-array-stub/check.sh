#!/bin/sh
# check.sh: the Slurm recipe of the README (scripts/batch/slurm-ranks.sh,
# an array of 4 tasks over 16 ranks, then one merge job) with stubs of
# sbatch and srun (bin/) that run each task here, one after the other,
# with the variables Slurm sets.  It checks the script's share of the
# ranks per task, that the merge equals one run over every rank's spans,
# and that a resubmitted array redoes nothing.  A real slurmctld, slurmd
# and munged are not started: see the README.
here=$(pwd)
top=$(cd ../../../.. && pwd)
cmp=$top/tests/cases/batch/compare.py
# Debian's python3 (install-deps.sh), not a shim that may rehash meanwhile.
py=/usr/bin/python3
[ -x $py ] || py=python3
PATH=$here/bin:$PATH
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
trap 'exit 1' INT TERM
cd "$t" || exit 1
$py "$top/scripts/bench/make_ranks.py" -n 16 --slow 3 ranks >/dev/null ||
    exit 1
printf 'PROFPIPE_INPUTS := $(shell cat ranks.list)\ninclude %s\n' \
    "$top/scripts/batch/profpipe.mk" >Makefile
cp "$top/scripts/batch/slurm-ranks.sh" .

ls ranks/*.db >ranks.list
jid=$(sbatch --parsable --array=0-3 slurm-ranks.sh ranks.list) ||
    echo "the array failed"
sbatch --dependency=afterok:$jid --wrap 'srun make profpipe' ||
    echo "the merge failed"
for i in 0 1 2 3; do
	printf 'task %s: ' $i
	grep -o '^db2spans[^ ]* .* -o [^ ]*' profpipe-ranks-4242_$i.out |
	    grep -o 'rank[0-9]*\.spans' | tr '\n' ' '
	echo
done
ls ranks/*.stacks ranks/*.top.ndjson | wc -l |
    sed 's/^/per-rank products: /'
grep -c '^db2spans' slurm-4242.out | sed 's/^/ranks redone by the merge job: /'
cat ranks/*.spans | spans2stacks -q >one.stacks
$py "$cmp" stacks all.stacks one.stacks
cat ranks/*.spans | topn -k name -n 0 >one.top
$py "$cmp" top all.top.ndjson one.top ranks/*.spans
$py "$cmp" slowest rank0003 ranks/*.spans
[ -s ranks.html ] && [ -s flame.html ] && echo "ranks.html, flame.html written"

sbatch --array=0-3 slurm-ranks.sh ranks.list
grep -h '^db2spans' profpipe-ranks-4242_*.out | wc -l |
    sed 's/^/ranks redone by a second array: /'

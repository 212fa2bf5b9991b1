#!/bin/sh
# slurm-ranks.sh: the per-rank stage of profpipe as one task of a Slurm job
# array, through the rules of profpipe.mk.  From the directory of a
# Makefile that includes profpipe.mk, on storage every node sees:
#
#	ls /shared/run42/*.db >ranks.list
#	jid=$(sbatch --parsable --array=0-63 slurm-ranks.sh ranks.list)
#	sbatch --dependency=afterok:$jid --wrap 'srun make profpipe'
#
# Task i of an array of n does the inputs on lines i+1, i+1+n, i+1+2n, ...
# of the list (n tasks for any number of ranks: a cluster's MaxArraySize is
# often 1001), with make -j of the task's CPUs (sbatch -c).  make skips the
# ranks whose products are newer than their inputs, so a resubmitted
# array only redoes what failed or changed; the last job only merges.
#
#SBATCH --job-name=profpipe-ranks
#SBATCH --ntasks=1
#SBATCH --output=profpipe-ranks-%A_%a.out
list=${1:?usage: sbatch --array=0-N slurm-ranks.sh LIST [make args]}
shift
: "${SLURM_ARRAY_TASK_ID:?not a task of a job array (sbatch --array)}"
i=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0}))
n=${SLURM_ARRAY_TASK_COUNT:-1}
inputs=$(awk -v i="$i" -v n="$n" 'NF && (NR - 1) % n == i' "$list" |
    tr '\n' ' ')
if [ -z "$inputs" ]; then
	echo "slurm-ranks.sh: task $i of $n: no input in '$list'"
	exit 0
fi
exec srun --ntasks=1 make -j "${SLURM_CPUS_PER_TASK:-1}" \
    PROFPIPE_INPUTS="$inputs" "$@" profpipe-ranks

#!/bin/sh
# batch.sh: many ranks through the batch rules (scripts/batch/profpipe.mk)
# on small generated Ascend DBs (make_ranks.py, 500 PYTORCH_API rows a
# rank, made once in $BENCH_TMP/cache):
#
#   - the per-rank stage (db2spans --label, spans2stacks, topn --partial)
#     of 64 ranks with make -j 2, against the reference MindStudio
#     flamegraph.py, one rank a job, under GNU parallel -j 2 (its per-rank
#     product is a flame graph page);
#   - the whole batch of $BATCH_RANKS ranks (default 256): make -j 2
#     profpipe from nothing, the rank stage then the merges and both
#     pages; the note gives the per-rank stage's throughput;
#   - the merge, spans2stacks -m --files-from, of a quarter of the
#     ranks, of all of them, and of all of them listed 4 times (4x the
#     inputs, the same unique stacks: the same memory), against a Python
#     dict merge of the same records on all of them once (FULL=1: on
#     every list).
#
# Median of $RUNS runs (default 5, taking turns).  $BIN and $BENCH_TMP
# come from bench.sh.
set -e
. "$(dirname "$0")/lib/measure.sh"
: "${BIN:?set BIN to the bin dir}" "${BENCH_TMP:?set BENCH_TMP}"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
ref="$top/../shared/reference/peers/mindstudio-flame-graph/flamegraph.py"
runs=${RUNS:-5}
n=${BATCH_RANKS:-256}
T=$BENCH_TMP/batch
mkdir -p "$T"
R=$(cached "ranks-$n" "python3 '$here/make_ranks.py' -n $n \"\$out\" \
    >/dev/null" "$here/make_ranks.py")
inputs_done
export PATH="$BIN:$PATH"
mb=$(du -cm "$R"/*.db | tail -n 1 | cut -f1)

# The rules over the first 64 ranks, and the peer over the same.
S=$T/sample
mkdir -p "$S/ranks" "$S/ref"
for f in "$R"/rank00[0-5]?.db "$R"/rank006[0-3].db; do
	[ -f "$S/ranks/${f##*/}" ] || cp "$f" "$S/ranks/"
done
printf 'PROFPIPE_INPUTS := $(wildcard ranks/*.db)\ninclude %s\n' \
    "$top/scripts/batch/profpipe.mk" >"$S/Makefile"
peer= what="MindStudio flamegraph.py, parallel -j 2"
if [ ! -f "$ref" ]; then
	what="MindStudio flamegraph.py missing ($ref)"
elif ! command -v parallel >/dev/null; then
	what="GNU parallel missing (for MindStudio flamegraph.py)"
else
	peer="cd '$S' && ls ranks/*.db | parallel -j 2 python3 '$ref' {} \
	    -o ref/{/.}"
fi
t=$(pair "$runs" "cd '$S' && make -s profpipe-clean >/dev/null &&
    make -s -j 2 profpipe-ranks" "$peer")
row "batch: per-rank stage" "64 ranks x 500 rows, make -j 2" "$what" "$t" \
    "ours: spans, stacks, topn partial; theirs: a page"

# The whole batch from nothing: the rank stage, then (timed apart, in
# the place of a peer) the merges and both pages.
printf 'PROFPIPE_INPUTS := $(wildcard %s/*.db)\ninclude %s\n' "$R" \
    "$top/scripts/batch/profpipe.mk" >"$T/Makefile"
a=$(pair "$runs" "cd '$T' && make -s profpipe-clean >/dev/null &&
    make -s -j 2 profpipe-ranks" "cd '$T' && make -s -j 2 profpipe")
t=$(echo "$a" | awk '{ printf "%s %s %s - - -", $1 + $4,
    ($2 > $5 ? $2 : $5), $3 + $6 }')
note=$(echo "$a $n $mb" | awk '{ printf "rank stage %.1f s: " \
    "%.0f ranks/s, %.1f MB/s of DB; merges and pages %.1f s", $1,
    $7 / $1, $8 / $1, $4 }')
row "batch: whole, make -j 2 profpipe" "$n ranks x 500 rows ($mb MB)" \
    "-" "$t" "$note"

# The merges: memory grows with the unique stacks, not with the inputs.
ls "$R"/*.stacks | head -n $((n / 4)) >"$T/list-$((n / 4))"
ls "$R"/*.stacks >"$T/list-$n"
for i in 1 2 3 4; do cat "$T/list-$n"; done >"$T/list-4x$n"
cat >"$T/merge.py" <<'PY'
import json, sys
m = {}
for p in open(sys.argv[1]).read().split():
    for line in open(p):
        r = json.loads(line)
        k = (r["thread"], tuple(r["stack"]))
        e = m.get(k)
        if e is None:
            m[k] = [r["self_ns"], r["total_ns"], r["calls"]]
        else:
            e[0] += r["self_ns"]; e[1] += r["total_ns"]; e[2] += r["calls"]
w = sys.stdout.write
for (th, st), (s, t, c) in m.items():
    w(json.dumps({"thread": th, "stack": list(st), "self_ns": s,
                  "total_ns": t, "calls": c}) + "\n")
PY
for l in $((n / 4)) "$n" "4x$n"; do
	u=$(spans2stacks -m -q --files-from "$T/list-$l" | wc -l)
	k=$(wc -l <"$T/list-$l")
	if [ "$l" = "$n" ] || [ "${FULL:-0}" = 1 ]; then
		t=$(pair "$runs" "spans2stacks -m -q --files-from '$T/list-$l'" \
		    "python3 '$T/merge.py' '$T/list-$l'")
		p="Python dict merge"
	else
		t=$(pair "$runs" "spans2stacks -m -q --files-from '$T/list-$l'" \
		    "")
		p=-
	fi
	row "batch: merge, spans2stacks -m --files-from" \
	    "$k stack files ($l ranks)" "$p" "$t" "$u unique stacks"
done

#!/bin/sh
# trace2spans.sh: trace2spans on a generated Kineto-style trace of the
# real traces' shape (make_trace.py, $TRACE_MB MB, default 90) against what
# users do today: python3's json.load of the file and a loop writing the
# same span records (pid, tid, name, cat, start_ns, end_ns, thread_name)
# with json.dumps.  Median of $RUNS runs (default 5), taking turns.
# Target: ratio >= 15x.  $BIN and $BENCH_TMP come from bench.sh.
set -e
. "$(dirname "$0")/lib/measure.sh"
: "${BIN:?set BIN to the bin dir}" "${BENCH_TMP:?set BENCH_TMP}"
here=$(cd "$(dirname "$0")" && pwd)
runs=${RUNS:-5}
mb=${TRACE_MB:-90}
f=$(cached "trace-${mb}mb.json" \
    "python3 '$here/make_trace.py' --mb $mb -o \"\$out\"" \
    "$here/make_trace.py")
inputs_done
cat >"$BENCH_TMP/trace-peer.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
names = {}
for e in ev:
    if e.get("ph") == "M" and e.get("name") == "thread_name":
        names[(e.get("pid"), e.get("tid"))] = e["args"]["name"]
out = sys.stdout
dumps = json.dumps
for e in ev:
    if e.get("ph") != "X":
        continue
    s = round(float(e["ts"]) * 1000)
    r = {"pid": e["pid"], "tid": e["tid"], "name": e["name"],
         "cat": e.get("cat"), "start_ns": s,
         "end_ns": s + round(float(e["dur"]) * 1000)}
    n = names.get((e["pid"], e["tid"]))
    if n is not None:
        r["thread_name"] = n
    out.write(dumps(r, separators=(",", ":")) + "\n")
PY
size=$(wc -c <"$f")
t=$(pair "$runs" "'$BIN/trace2spans' --no-progress '$f'" \
    "python3 '$BENCH_TMP/trace-peer.py' '$f'")
note=$(echo "$t" | awk -v b="$size" '{
    printf "%.0f MB/s of CPU; target ratio >= 15x",
        b / 1e6 / ($3 > 0 ? $3 : 0.005) }')
row trace2spans "Kineto-style trace, make_trace.py ($((size / 1000000)) MB)" \
    "python3 json.load + loop" "$t" "$note"

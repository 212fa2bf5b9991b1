#!/bin/sh
# nd.sh: the NDJSON reader and writer (libcommon nd + ndw) against jq -c .
# and wc -l on the same generated file of $ND_MB MB (default 40) of
# span-like records: 19-digit nanosecond timestamps, 64-bit integers at
# both ends of their range, names with escapes and non-ASCII text, nested
# objects and arrays.  The driver is tests/bench/ndcat.c: every line read
# with nd_read(), validated by nd_fields(), walked and written again with
# ndw (strings decoded and quoted again, numbers as text), the work of
# jq -c . done exactly.  The generator writes records in the writer's own
# form, so ndcat's output must equal its input byte for byte: that proves
# every 64-bit integer round-trips.  Times are the median of $RUNS runs
# (default 5), taking turns with the peer; peak memory is the largest RSS.
# usage: BIN=... BENCH_TMP=... sh scripts/bench/nd.sh
set -e
. "$(dirname "$0")/lib/measure.sh"
: "${BIN:?set BIN to the bin dir}" "${BENCH_TMP:?set BENCH_TMP}"
ndcat="$BIN/../tests/ndcat"
runs=${RUNS:-5}
mb=${ND_MB:-40}

if [ ! -x "$ndcat" ]; then
	echo "nd+ndw (ndcat) | skipped: $ndcat not built" \
	    "| - | - | - | - | - | - | - | - | - | -"
	exit 0
fi
cat >"$BENCH_TMP/nd-gen.py" <<'EOF'
import json, random, sys

path, mb = sys.argv[1], int(sys.argv[2])
rnd = random.Random(7)
names = ["aten::mm", "aten::linear", "aten::addmm", "aten::copy_",
    "cudaLaunchKernel", "ampere_sgemm_128x64_tn", "Memcpy HtoD",
    "main.py(375): train", "torch/nn/modules/module.py(1501): _call_impl",
    "caf\u00e9::op", "\u540d\u524d::matmul", "say \"hi\"", "tab\there",
    "C:\\path\\to", "line\nbreak", "ctl\u0001x", "\U0001f525 hot"]
cats = ["cpu_op", "kernel", "cuda_runtime", "python_function", "gpu_memcpy"]
dims = [[8, 1024], [1024, 4096], [4096], [], [1, 3, 224, 224]]
out = open(path, "w", encoding="utf-8")
size, big = 0, 0
t = 1751344815171234567
while size < mb * 1000000:
    t += rnd.randrange(1, 50000)
    dur = rnd.randrange(100, 5000000)
    rec = {"pid": 3136493, "tid": 3136493 + rnd.randrange(8),
        "name": rnd.choice(names), "cat": rnd.choice(cats),
        "start_ns": t, "end_ns": t + dur, "dur_ns": dur,
        "args": {"External id": rnd.randrange(1 << 20),
            "Input Dims": rnd.sample(dims, 2),
            "Input type": ["float", "c10::Half", ""],
            "correlation": rnd.randrange(1 << 63)},
        "stack": rnd.sample(names, 3),
        "flops": rnd.randrange(1 << 40) / 8, "ok": rnd.random() < 0.9,
        "note": None}
    big += 2 + (rec["args"]["correlation"] >= 1 << 53)
    r = rnd.random()
    if r < 0.05:
        rec["seq"] = 18446744073709551615
        big += 1
    elif r < 0.10:
        rec["seq"] = -9223372036854775808
        big += 1
    line = json.dumps(rec, ensure_ascii=False, separators=(",", ":"))
    out.write(line + "\n")
    size += len(line.encode("utf-8")) + 1
out.close()
with open(path + ".meta", "w") as m:
    m.write("%d\n" % big)
EOF
file=$(cached "nd-${mb}mb.ndjson" \
    "python3 '$BENCH_TMP/nd-gen.py' \"\$out\" $mb" "$BENCH_TMP/nd-gen.py")
inputs_done
bytes=$(wc -c <"$file")
lines=$(wc -l <"$file")
big=$(cat "$file.meta")

in="nd-${mb}mb.ndjson ($lines records, $((bytes / 1000000)) MB)"
# jq writes its output to a file (its last run's is the round trip
# below; writing 40 MB costs it about 1% more than /dev/null would).
t=$(pair "$runs" "'$ndcat' '$file'" "jq -c . '$file' >'$BENCH_TMP/nd.jq'" \
    "wc -l '$file'")
row "nd+ndw parse and write (ndcat)" "$in" "jq -c ." "$(peer 1 "$t")"
row "nd+ndw parse and write (ndcat)" "$in" "wc -l" "$(peer 2 "$t")" \
    "the floor; the same ndcat runs as the row above"
t=$(pair "$runs" "'$ndcat' -v '$file'" "jq empty '$file'")
row "nd parse and validate (ndcat -v)" "$in" "jq empty" "$t"

# Round trip: ndcat's output is its input, byte for byte.
"$ndcat" "$file" >"$BENCH_TMP/nd.out"
if cmp -s "$file" "$BENCH_TMP/nd.out"; then
	row "nd+ndw (ndcat) round trip" "$in" "-" "- - - - - -" \
	    "identical output, all $big integers above 2^53 exact"
else
	row "nd+ndw (ndcat) round trip" "$in" "-" "- - - - - -" \
	    "OUTPUT DIFFERS: $(cmp "$file" "$BENCH_TMP/nd.out" | head -n 1)"
	rm -f "$BENCH_TMP/nd.out"
	exit 1
fi
changed=$(paste -d '\001' "$file" "$BENCH_TMP/nd.jq" |
    awk -F '\001' '$1 != $2 { n++ } END { print n + 0 }')
row "jq -c . round trip" "$in" "-" "- - - - - -" \
    "$changed records changed (64-bit integers become doubles)"
rm -f "$BENCH_TMP/nd.out" "$BENCH_TMP/nd.jq"

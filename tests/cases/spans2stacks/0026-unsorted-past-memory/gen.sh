#!/bin/sh
# 1,200,000 spans on three threads, each thread a chain of parent, child
# and grandchild spans, written twice: in a scrambled order (the threads
# interleaved, more spans than spans2stacks holds in memory, so it sorts
# in runs on disk and merges them) and in order per thread (for -s).
# Both must give the same stacks.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
awk -v mode="$1" 'function out(i,  b, th) {
	th = i % 3; b = int(i / 3) * 100
	printf "{\"pid\":1,\"tid\":%d,\"name\":\"p%d\",\"start_ns\":%d,\"end_ns\":%d}\n", th, i % 5, b, b + 90
	printf "{\"pid\":1,\"tid\":%d,\"name\":\"c%d\",\"start_ns\":%d,\"end_ns\":%d}\n", th, i % 7, b + 10, b + 40
	printf "{\"pid\":1,\"tid\":%d,\"name\":\"g%d\",\"start_ns\":%d,\"end_ns\":%d}\n", th, i % 2, b + 20, b + 30
}
BEGIN {
	n = 400000
	# the scrambled order: i = j * 7919 mod n (7919 is prime to n)
	for (j = 0; j < n; j++)
		out((j * 7919) % n)
}' >"$t/scrambled"
# In order per thread, the threads in the order they first appear above
# (0, then 7919 % 3 = 2, then 1).
awk 'function out(i,  b, th) {
	th = i % 3; b = int(i / 3) * 100
	printf "{\"pid\":1,\"tid\":%d,\"name\":\"p%d\",\"start_ns\":%d,\"end_ns\":%d}\n", th, i % 5, b, b + 90
	printf "{\"pid\":1,\"tid\":%d,\"name\":\"c%d\",\"start_ns\":%d,\"end_ns\":%d}\n", th, i % 7, b + 10, b + 40
	printf "{\"pid\":1,\"tid\":%d,\"name\":\"g%d\",\"start_ns\":%d,\"end_ns\":%d}\n", th, i % 2, b + 20, b + 30
}
BEGIN {
	n = 400000
	split("0 2 1", order, " ")
	for (k = 1; k <= 3; k++)
		for (i = order[k]; i < n; i += 3)
			out(i)
}' >"$t/sorted"
. ../same-stacks.sh
same_stacks "$t/scrambled" "$t/sorted" "$t"

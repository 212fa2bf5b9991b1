#!/bin/sh
# 900,000 spans (a parent and a child a unit) whose threads shift: first
# thread A nearly alone, then B nearly alone, then A, B and a new thread
# C in turn; each third scrambled within itself.  spans2stacks holds
# fewer spans than a third in memory, so a thread's room is kept from
# run to run, given back when the thread sends little, and taken again.
# The stacks must be those of the same spans in order per thread, read
# with -s.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
awk -v sorted="$t/sorted" 'function th(i) {
	if (i < 150000)
		return i % 1000 == 0 ? "B" : "A"
	if (i < 300000)
		return i % 500 == 0 ? "A" : "B"
	return substr("ABC", i % 3 + 1, 1)
}
function out(f, i,  b, x) {
	b = i * 100; x = th(i) == "A" ? 1 : th(i) == "B" ? 2 : 3
	printf "{\"pid\":1,\"tid\":%d,\"name\":\"p%d\",\"start_ns\":%d,\"end_ns\":%d}\n", x, i % 5, b, b + 90 >f
	printf "{\"pid\":1,\"tid\":%d,\"name\":\"c%d\",\"start_ns\":%d,\"end_ns\":%d}\n", x, i % 7, b + 10, b + 40 >f
}
BEGIN {
	n = 150000
	for (k = 0; k < 3; k++)
		for (j = 0; j < n; j++) {
			# within a third: i = j * 7919 mod n (7919 is prime to n)
			i = k * n + (j * 7919) % n
			if (!(th(i) in seen)) {
				seen[th(i)] = 1
				order[++nth] = th(i)
			}
			out("/dev/stdout", i)
		}
	for (k = 1; k <= nth; k++)
		for (i = 0; i < 3 * n; i++)
			if (th(i) == order[k])
				out(sorted, i)
}' >"$t/scrambled"
. ../same-stacks.sh
same_stacks "$t/scrambled" "$t/sorted" "$t"

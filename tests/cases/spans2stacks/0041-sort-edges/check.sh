#!/bin/sh
# The order unsorted input is put in (start ascending, end descending,
# input order for full ties) at its edges: starts from -2^63 to 2^63 - 1
# (every digit of a radix sort used), negative starts, 40 spans that start
# together with ends in scrambled order, 20 full ties (nested in input
# order: each is the parent of the next), all in one thread, scrambled.
# The same spans put in that order by sort(1), which compares decimal
# digits exactly, and read with -s must give the same stacks.
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
awk 'function span(name, s, e) {
	printf "{\"pid\":1,\"tid\":1,\"name\":\"%s\",\"start_ns\":%s,\"end_ns\":%s}\n", name, s, e
}
BEGIN {
	span("min", "-9223372036854775808", "-9223372036854775000")
	span("max", "9223372036854775000", "9223372036854775807")
	for (i = 0; i < 40; i++)	# ends 1000 + (i * 17 mod 40) * 10
		span("eq" (i * 17) % 40, 5000, 5010 + ((i * 17) % 40) * 10)
	for (i = 0; i < 20; i++)
		span("tie" i, 7000, 7100)
	for (i = 0; i < 3000; i++) {	# spans at -3000000 .. 3000000, mixed
		j = (i * 1777) % 3000
		span("n" j % 7, (j - 1500) * 2000, (j - 1500) * 2000 + 1500 + (j % 3) * 400)
	}
	span("late", 5000, 5600)
}' >"$t/in"
# Key columns (start, end, line number) before each line, sorted stably.
awk '{ s = $0; sub(/.*"start_ns":/, "", s); sub(/,.*/, "", s)
	e = $0; sub(/.*"end_ns":/, "", e); sub(/}.*/, "", e)
	print s, e, NR, $0 }' "$t/in" | sort -s -k1,1n -k2,2nr -k3,3n |
    cut -d' ' -f4- >"$t/sorted"
. ../same-stacks.sh
same_stacks "$t/in" "$t/sorted" "$t"
# The full ties nest in input order: tie19 is 19 frames under tie0.
grep -c '"tie0",' "$t/a"
grep '"tie19"' "$t/a" | sed 's/.*"self_ns"/"self_ns"/'

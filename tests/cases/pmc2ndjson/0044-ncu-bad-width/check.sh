#!/bin/sh
# Rows of the wrong width in both Nsight Compute layouts are reported with
# their line and skipped; the rows around them are still written.
t=$(mktemp) || exit 1
trap 'rm -f "$t"' EXIT
# run: pmc2ndjson on stdin; its exit status, then each record's type and ID.
run() {
	pmc2ndjson >"$t"
	echo "exit $?"
	jq -c '[.type, .ID]' "$t"
}
# raw (567 fields): line 5 is the units row, line 6 (ID 0) is cut to its
# first 3 fields, line 7 (ID 1) is whole.
zcat "$SHARED"/fixtures/gpu/ncu_raw.csv.gz |
    sed -n '1,5p; 6s/^\(\("[^"]*",\)\{2\}"[^"]*"\).*/\1/p; 7p' | run
# details (20 fields, "Metric Name" the 13th; a metric row has 16, the
# last one empty): line 5 gets 6 fields in place of the empty one (21),
# line 6 keeps its first 5; lines 7 to 12 are more metrics of ID 0.
zcat "$SHARED"/fixtures/gpu/ncu_details.csv.gz |
    sed -n '1,4p; 5s/$/"a","b","c","d","e","f"/p
	6s/^\(\("[^"]*",\)\{4\}"[^"]*"\).*/\1/p; 7,12p' | run

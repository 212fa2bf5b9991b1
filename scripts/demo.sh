#!/bin/sh
# demo.sh: runs the toolkit's pipelines on the inputs in examples/ and
# writes HTML reports under out/.  usage: scripts/demo.sh [BUILDDIR]
set -e
O=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
PATH="$top/$O/bin:$PATH"
mkdir -p out
written=

# Each pipeline writes one page; its path is printed at the end.  A
# pipeline whose programs are not built is passed over.

# PyTorch profiler trace (3 steps of a transformer on an NVIDIA H200) to a
# flame graph of the CPU side and the GPU streams.
if [ -x "$O/bin/trace2spans" ] && [ -x "$O/bin/spans2stacks" ] &&
    [ -x "$O/bin/flame2html" ]; then
	trace2spans examples/torch_trace.json.gz | spans2stacks |
	    flame2html -t "PyTorch trace, H200" -o out/torch-flame.html
	written="$written out/torch-flame.html"
fi

# Ascend PyTorch profiler DB, built from hand-made SQL text: the call
# stacks of the main, task-queue and autograd threads as stack records,
# folded stacks (for flamegraph.pl or speedscope), and out/flame.html
# coloured by category (Python, framework, CANN) with a thread selector.
if [ -x "$O/bin/db2spans" ] && [ -x "$O/bin/spans2stacks" ]; then
	rm -f out/ascend_small.db
	sqlite3 out/ascend_small.db < examples/ascend_small.sql
	db2spans out/ascend_small.db | spans2stacks > out/ascend-stacks.ndjson
	db2spans -s out/ascend_small.db 2>/dev/null |
	    spans2stacks -s -q -f > out/ascend.folded
	written="$written out/ascend-stacks.ndjson out/ascend.folded"
	if [ -x "$O/bin/flame2html" ]; then
		flame2html -t "Ascend example DB: call stacks by thread" \
		    -o out/flame.html out/ascend-stacks.ndjson
		written="$written out/flame.html"
	fi
fi

# A MIGraphX perf report (synthetic, ROCm 7.2 layout, with If and Loop
# submodules) to a page of its Summary, instructions and totals.
if [ -x "$O/bin/migx2ndjson" ] && [ -x "$O/bin/chart2html" ]; then
	migx2ndjson examples/migraphx_perf_synthetic.txt |
	    chart2html --title "MIGraphX perf (synthetic)" -o out/migraphx.html
	written="$written out/migraphx.html"
fi

# A rocprof-compute workload to its metric tables (every panel of the
# architecture's configs, per kernel and per wave too).  The MIT panel
# configs are read from ../shared/reference, not copied into the project;
# the workload is the first examples/ directory with a pmc_perf.csv, else
# the MI200 fixture in ../shared.
cfgs=../shared/reference/rocprof-compute-configs
wl=
for d in examples/*/ ../shared/fixtures/rocprof-compute/vcopy/MI200/; do
	if [ -f "$d/pmc_perf.csv" ]; then wl=${d%/}; break; fi
done
if [ -x "$O/bin/pmc2ndjson" ] && [ -x "$O/bin/metric-eval" ] &&
    [ -x "$O/bin/chart2html" ] && [ -d "$cfgs" ] && [ -n "$wl" ]; then
	if { pmc2ndjson "$wl" | metric-eval -c "$cfgs" --by Kernel_Name &&
	    pmc2ndjson "$wl" | metric-eval -c "$cfgs" --by Kernel_Name \
	    -n per_wave; } 2>out/report.log >out/report.ndjson &&
	    chart2html --title "rocprof-compute metrics: $(basename "$wl")" \
	    -o out/report.html out/report.ndjson; then
		written="$written out/report.html"
	else
		echo "demo: metric report failed (see out/report.log)" >&2
	fi
fi

# A rocprof-compute workload (synthetic, MI200 layout: 42 dispatches of 6
# kernels) to its Top Kernels page: count, total, mean and median time.
if [ -x "$O/bin/pmc2ndjson" ] && [ -x "$O/bin/topn" ] &&
    [ -x "$O/bin/chart2html" ]; then
	pmc2ndjson examples/pmc_workload |
	    topn -k Kernel_Name -v dur_ns -n 10 |
	    chart2html --title "Top kernels (synthetic MI200 workload)" \
	    -o out/top.html
	written="$written out/top.html"
fi

# Two runs compared: the example workload's first 21 dispatches against
# its last 21, metric by metric (base, run, delta %), through recdiff.
if [ -x "$O/bin/pmc2ndjson" ] && [ -x "$O/bin/metric-eval" ] &&
    [ -x "$O/bin/recdiff" ] && [ -x "$O/bin/chart2html" ] &&
    [ -d "$cfgs" ]; then
	half() {
		pmc2ndjson --label "$1" --where "$2" examples/pmc_workload |
		    metric-eval -c "$cfgs"
	}
	if { half first '.type != "dispatch" or .Dispatch_ID < 21' \
	    >out/compare-a.ndjson &&
	    half last '.type != "dispatch" or .Dispatch_ID >= 21' \
	    >out/compare-b.ndjson &&
	    recdiff out/compare-a.ndjson out/compare-b.ndjson; } \
	    2>out/compare.log >out/compare.ndjson &&
	    chart2html --title "Compare runs: first against last dispatches" \
	    -o out/compare.html out/compare.ndjson; then
		written="$written out/compare.html"
	else
		echo "demo: comparison failed (see out/compare.log)" >&2
	fi
fi

echo "demo: wrote$written"

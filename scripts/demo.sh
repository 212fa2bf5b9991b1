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

# Each pipeline writes one page; its path is printed at the end.
# (pipelines are added below as the programs land)

echo "demo: wrote$written"

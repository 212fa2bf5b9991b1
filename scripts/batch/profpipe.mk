# profpipe.mk: make rules for many ranks (GNU make 4.0 or later).
#
# Name the inputs, include this file, and let make -j run the ranks in
# parallel:
#
#	PROFPIPE_INPUTS := $(wildcard ranks/*.db)
#	include /usr/local/share/profpipe/profpipe.mk
#
#	$ make -j8 flame.html ranks.html
#
# Each input X.db or X.sqlite (an Ascend PyTorch profiler DB, an Nsight
# Systems or rocpd export) or X.json, X.json.gz (a Chrome trace) gets,
# beside it, the products of its rank, labelled NAME (the file's name
# without its directory and extension: redefine profpipe_label to change
# that; it is a recipe-time function of the stem $*):
#
#	X.spans         db2spans or trace2spans --label NAME: "run":"NAME"
#	X.stacks        spans2stacks: its stack records ("NAME pid/tid")
#	X.top.ndjson    topn --partial $(PROFPIPE_TOPN): time per name
#
# and each rocprof-compute workload directory W of PROFPIPE_WORKLOADS
# gets W.metrics.ndjson (pmc2ndjson --label NAME W | metric-eval -c
# $(PROFPIPE_CONFIG)).  The merges, in the current directory:
#
#	all.stacks      spans2stacks -m of every X.stacks
#	flame.html      flame2html of all.stacks: one thread per rank and thread
#	all.top.ndjson  topn --merge -n 0 of every X.top.ndjson
#	ranks.html      chart2html of all.top.ndjson: which rank is slow, in what
#	metrics.html    chart2html of every W.metrics.ndjson
#
# 'make profpipe' makes the pages of the inputs given.  When one input
# changes, make redoes that rank's products and the merges only.  The
# merges read their inputs from a list file ($(file), not the command
# line), so 10,000 ranks do not meet the argument limit; every program
# writes its -o file whole or not at all, so a failed or interrupted rank
# leaves no half product for the next run to trust.

PROFPIPE_INPUTS ?=
PROFPIPE_WORKLOADS ?=
PROFPIPE_CONFIG ?=
PROFPIPE_TOPN ?= -k name
PROFPIPE_TITLE ?= profpipe: ranks

DB2SPANS ?= db2spans
TRACE2SPANS ?= trace2spans
SPANS2STACKS ?= spans2stacks
TOPN ?= topn
PMC2NDJSON ?= pmc2ndjson
METRIC_EVAL ?= metric-eval
FLAME2HTML ?= flame2html
CHART2HTML ?= chart2html

profpipe_label = $(notdir $*)
profpipe_stem = $(patsubst %.json.gz,%,$(patsubst %.json,%,$(patsubst \
	%.sqlite,%,$(patsubst %.db,%,$(1)))))
profpipe_ranks := $(call profpipe_stem,$(PROFPIPE_INPUTS))
profpipe_stacks := $(addsuffix .stacks,$(profpipe_ranks))
profpipe_tops := $(addsuffix .top.ndjson,$(profpipe_ranks))
profpipe_metrics := $(addsuffix .metrics.ndjson,$(patsubst %/,%,\
	$(PROFPIPE_WORKLOADS)))
# $(call profpipe_list,FILE,PATHS): FILE names PATHS, one a line.
profpipe_list = $(file >$(1))$(foreach f,$(2),$(file >>$(1),$(f)))

.PHONY: profpipe profpipe-ranks profpipe-clean
profpipe: $(if $(profpipe_ranks),flame.html ranks.html) \
	$(if $(profpipe_metrics),metrics.html)
profpipe-ranks: $(profpipe_stacks) $(profpipe_tops) $(profpipe_metrics)

# The spans stay: they are a product too, and each feeds two rules.
.SECONDARY: $(addsuffix .spans,$(profpipe_ranks))

%.spans: %.db
	$(DB2SPANS) --label '$(profpipe_label)' -o $@ $<
%.spans: %.sqlite
	$(DB2SPANS) --label '$(profpipe_label)' -o $@ $<
%.spans: %.json.gz
	$(TRACE2SPANS) --label '$(profpipe_label)' -o $@ $<
%.spans: %.json
	$(TRACE2SPANS) --label '$(profpipe_label)' -o $@ $<
%.stacks: %.spans
	$(SPANS2STACKS) -q -o $@ $<
%.top.ndjson: %.spans
	$(TOPN) --partial $(PROFPIPE_TOPN) -o $@ $<
%.metrics.ndjson: %/sysinfo.csv
	$(PMC2NDJSON) --label '$(profpipe_label)' -o $@.in $* && \
	$(METRIC_EVAL) -c '$(PROFPIPE_CONFIG)' -o $@ $@.in; \
	rc=$$?; rm -f $@.in; exit $$rc

all.stacks: $(profpipe_stacks)
	$(call profpipe_list,$@.list,$^)
	$(SPANS2STACKS) -m -q --files-from $@.list -o $@; \
	rc=$$?; rm -f $@.list; exit $$rc
flame.html: all.stacks
	$(FLAME2HTML) -t '$(PROFPIPE_TITLE)' -o $@ all.stacks
all.top.ndjson: $(profpipe_tops)
	$(call profpipe_list,$@.list,$^)
	$(TOPN) --merge -n 0 --files-from $@.list -o $@; \
	rc=$$?; rm -f $@.list; exit $$rc
ranks.html: all.top.ndjson
	$(CHART2HTML) --title '$(PROFPIPE_TITLE)' -o $@ all.top.ndjson
metrics.html: $(profpipe_metrics)
	$(CHART2HTML) --title '$(PROFPIPE_TITLE)' -o $@ $^

profpipe-clean:
	rm -f $(addsuffix .spans,$(profpipe_ranks)) $(profpipe_stacks) \
	    $(profpipe_tops) $(profpipe_metrics) all.stacks flame.html \
	    all.top.ndjson ranks.html metrics.html

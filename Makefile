# profpipe: GNU make, no configure step.  Out-of-tree build into $(O).
#
#   make            build every program into $(O)/bin
#   make check      install missing dependencies, build, run every test
#   make demo       install missing dependencies, build, write out/*.html
#   make asan       the test suite under ASan+UBSan (build-asan/)
#   make valgrind   the test suite under valgrind
#   make ubsan      the test suite built by clang with UBSan (build-ubsan/)
#   make fuzz       every input parser as a libFuzzer target (build-fuzz/),
#                   each run for FUZZ_SECONDS (default 60); FUZZ_TARGETS
#                   picks some, FUZZ_JOBS runs that many at once
#   make bench      the benchmarks in scripts/bench/
#   make install    PREFIX, BINDIR, MANDIR, DATADIR, DOCDIR, DESTDIR are
#                   honoured

O ?= build
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
DOCDIR ?= $(PREFIX)/share/doc/profpipe

CC ?= cc
CFLAGS ?= -O2 -g
WARN = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wvla -Wwrite-strings -Wformat=2
# FUZZ=1 (set by 'make fuzz'): clang with libFuzzer's coverage, and every
# program's main() renamed so that a harness in tests/fuzz/ can call it.
SAN = -fsanitize=address,undefined -fno-sanitize-recover=all
ifdef FUZZ
CC = clang
CFLAGS = -O1 -g -fno-omit-frame-pointer $(SAN)
COV = -fsanitize=fuzzer-no-link -Dmain=fuzz_prog_main -Wno-missing-prototypes
endif
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) \
	-Ilibcommon -I$(O)/gen $(CFLAGS) $(COV) -MMD -MP
SQLITE_LIBS := $(shell pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3)
YAML_LIBS := $(shell pkg-config --libs yaml-0.1 2>/dev/null || echo -lyaml)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)
# libjq 1.6 and libcsv have no .pc file in Debian 12.
LDLIBS = -Wl,--as-needed $(SQLITE_LIBS) $(YAML_LIBS) -ljq -lcsv -lz -lm

PROGS := $(sort $(basename $(notdir $(wildcard cmd/*.c))) \
	$(notdir $(patsubst %/,%,$(wildcard cmd/*/))))
BINS := $(addprefix $(O)/bin/,$(PROGS))
LIB_SRC := $(wildcard libcommon/*.c)
LIB_OBJ := $(patsubst %.c,$(O)/%.o,$(LIB_SRC))
ASSETS := $(sort $(wildcard assets/*.js assets/*.css assets/*.html))
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNITS := $(patsubst tests/unit/%.c,$(O)/tests/%,$(UNIT_SRC))
# Unit tests of a program's modules: tests/unit/<prog>/test_*.c, linked
# with the program's objects except main.o (the test has the main()).
PROG_UNIT_SRC := $(wildcard tests/unit/*/test_*.c)
PROG_UNITS := $(patsubst tests/unit/%.c,$(O)/tests/%,$(PROG_UNIT_SRC))
# Benchmark drivers of libcommon (scripts/bench/*.sh run them).
BENCH_SRC := $(wildcard tests/bench/*.c)
BENCHES := $(patsubst tests/bench/%.c,$(O)/tests/%,$(BENCH_SRC))

# libFuzzer targets: tests/fuzz/<prog>_<what>.c runs <prog> through
# tests/fuzz/harness.c; any other tests/fuzz/<name>.c is a target of
# libcommon alone.
FUZZ_SRC := $(filter-out tests/fuzz/harness.c,$(wildcard tests/fuzz/*.c))
FUZZERS := $(patsubst tests/fuzz/%.c,$(O)/fuzz/%,$(FUZZ_SRC))
fuzz_prog = $(filter $(firstword $(subst _, ,$(1))),$(PROGS))
fuzz_objs = $(if $(call fuzz_prog,$(1)),$(O)/tests/fuzz/harness.o \
	$(call prog_objs,$(call fuzz_prog,$(1))))

.PHONY: all check check-run demo asan valgrind ubsan fuzz fuzz-build bench \
	install lint-man deps fuzz-deps need-shared clean
all: $(BINS) $(UNITS) $(PROG_UNITS) $(BENCHES)

$(O)/%.o: %.c | $(O)/gen/assets.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/libcommon.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# Assets are embedded by a small generator built first (no network, no xxd).
$(O)/embed: scripts/embed.c
	@mkdir -p $(@D)
	$(CC) -O1 -o $@ $<
$(O)/gen/assets.h $(O)/gen/assets.c &: $(O)/embed $(ASSETS)
	@mkdir -p $(O)/gen
	$(O)/embed $(O)/gen/assets $(ASSETS)
$(O)/gen/assets.o: $(O)/gen/assets.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# A program is cmd/foo.c, or every .c under cmd/foo/.
prog_objs = $(patsubst %.c,$(O)/%.o,$(wildcard cmd/$(1).c cmd/$(1)/*.c))
# Objects reached through the pattern rules are kept between builds.
.SECONDARY:
.SECONDEXPANSION:
$(O)/bin/%: $$(call prog_objs,$$*) $(O)/libcommon.a $(O)/gen/assets.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(O)/libcommon.a \
		$(LDLIBS)

$(O)/tests/%: $(O)/tests/unit/%.o $(O)/libcommon.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(O)/libcommon.a $(CMOCKA_LIBS) \
		$(LDLIBS)

# The program is the directory the test sits in: $(O)/tests/<prog>/test_x.
prog_mods = $(filter-out %/main.o,$(call prog_objs,$(1)))
$(PROG_UNITS): $(O)/tests/%: $(O)/tests/unit/%.o \
    $$(call prog_mods,$$(firstword $$(subst /, ,$$*))) $(O)/libcommon.a \
    $(O)/gen/assets.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(O)/libcommon.a \
		$(CMOCKA_LIBS) $(LDLIBS)

$(BENCHES): $(O)/tests/%: $(O)/tests/bench/%.o $(O)/libcommon.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(O)/libcommon.a $(LDLIBS)

$(FUZZERS): $(O)/fuzz/%: $(O)/tests/fuzz/%.o $$(call fuzz_objs,$$*) \
    $(O)/libcommon.a $(O)/gen/assets.o
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fsanitize=fuzzer \
		-Wl,--wrap=__sanitizer_set_death_callback -o $@ \
		$(filter %.o,$^) $(O)/libcommon.a $(LDLIBS)
# The harnesses are not instrumented: their counters would be noise.
$(O)/tests/fuzz/%.o: COV =

deps:
	@sh scripts/install-deps.sh
fuzz-deps:
	@sh scripts/install-deps.sh --clang

# Without ../shared beside the clone most cases cannot run: say so first.
need-shared:
	@sh scripts/need-shared.sh check

# A build error does not stop the tests: what built is tested, and the
# failed build counts as one failure in the summary line.
check: need-shared deps
	@if $(MAKE) --no-print-directory -k all; then sh tests/check.sh $(O); \
	else BUILD_FAILED=1 sh tests/check.sh $(O); fi

check-run:
	@sh tests/check.sh $(O)

demo: deps
	@sh scripts/need-shared.sh demo
	@$(MAKE) --no-print-directory all
	@sh scripts/demo.sh $(O)

# gcc's UBSan is a runtime of its own, which ends a run with _exit() and
# no callback: abort() instead, so that -o's temporary file goes too.
ASAN_ENV = UBSAN_OPTIONS="abort_on_error=1$${UBSAN_OPTIONS:+:$$UBSAN_OPTIONS}"
asan: deps
	@if $(MAKE) --no-print-directory -k O=build-asan \
		CFLAGS="-O1 -g -fno-omit-frame-pointer $(SAN)" \
		LDFLAGS="$(SAN)" all; \
	then $(ASAN_ENV) NO_BROWSER=1 sh tests/check.sh build-asan; \
	else $(ASAN_ENV) BUILD_FAILED=1 NO_BROWSER=1 sh tests/check.sh \
		build-asan; fi

valgrind: deps
	@if $(MAKE) --no-print-directory -k all; \
	then NO_BROWSER=1 VALGRIND=1 sh tests/check.sh $(O); \
	else BUILD_FAILED=1 NO_BROWSER=1 VALGRIND=1 sh tests/check.sh $(O); fi

# clang's UBSan reports what gcc's misses (NULL + 0, qsort(NULL, 0, ...)).
UBSAN = -fsanitize=undefined -fno-sanitize-recover=all
# A case that runs make again (make install) builds the same way.
UBSAN_ENV = CC=clang CFLAGS="-O1 -g -fno-omit-frame-pointer $(UBSAN)" \
	LDFLAGS="$(UBSAN)"
ubsan: deps fuzz-deps
	@if $(MAKE) --no-print-directory -k O=build-ubsan CC=clang \
		CFLAGS="-O1 -g -fno-omit-frame-pointer $(UBSAN)" \
		LDFLAGS="$(UBSAN)" all; \
	then $(UBSAN_ENV) NO_BROWSER=1 sh tests/check.sh build-ubsan; \
	else $(UBSAN_ENV) BUILD_FAILED=1 NO_BROWSER=1 sh tests/check.sh \
		build-ubsan; fi

fuzz-build:
	@$(MAKE) --no-print-directory O=build-fuzz FUZZ=1 \
		$(patsubst tests/fuzz/%.c,build-fuzz/fuzz/%,$(FUZZ_SRC))
fuzz: deps fuzz-deps fuzz-build
	@sh tests/fuzz/run.sh build-fuzz

bench: deps
	@$(MAKE) --no-print-directory -s all
	@sh scripts/bench.sh $(O)

lint-man:
	@sh tests/lint-man.sh

install: $(BINS)
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man7
	install -m 0755 $(BINS) $(DESTDIR)$(BINDIR)/
	install -m 0644 $(wildcard man/*.1) $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 $(wildcard man/*.7) $(DESTDIR)$(MANDIR)/man7/
	mkdir -p $(DESTDIR)$(DATADIR)/profpipe
	install -m 0644 scripts/batch/profpipe.mk $(DESTDIR)$(DATADIR)/profpipe/
	install -m 0755 scripts/batch/slurm-ranks.sh \
		$(DESTDIR)$(DATADIR)/profpipe/
	mkdir -p $(DESTDIR)$(DOCDIR)
	install -m 0644 docs/formats.md docs/errors.md $(DESTDIR)$(DOCDIR)/

clean:
	rm -rf $(O) build-asan build-ubsan build-fuzz out

-include $(shell find $(O) -name '*.d' 2>/dev/null)

/*
 * sniff.h: what an input that a program cannot use looks like.
 *
 * sniff_line() names the kind of an input from its first line that is not
 * blank: its first bytes (an SQLite header, a JSON document spread over
 * several lines, CSV, folded stacks) or, for one JSON object, its keys
 * (span, stack, dispatch, MIGraphX or metric records, a Chrome trace).
 * A program that cannot use that kind says so in one line and exits 1
 * with sniff_check(), before it writes anything.  docs/errors.md lists
 * the messages.
 */
#ifndef SNIFF_H
#define SNIFF_H

#include <stddef.h>

#include "err.h"

enum sniff_kind {
	SNIFF_OTHER,		/* nothing recognised */
	SNIFF_SQLITE,		/* "SQLite format 3\0" */
	SNIFF_BINARY,		/* NUL bytes or invalid UTF-8 */
	SNIFF_TRACE,		/* a Chrome trace-event JSON document */
	SNIFF_JSON,		/* another JSON document over several lines */
	SNIFF_CSV,		/* a header line of comma-separated names */
	SNIFF_FOLDED,		/* "frame;frame count" */
	SNIFF_SPANS,		/* records with start_ns and end_ns */
	SNIFF_STACKS,		/* records with stack and self_ns */
	SNIFF_DISPATCH,		/* pmc2ndjson records */
	SNIFF_MIGX,		/* migx2ndjson records */
	SNIFF_METRICS,		/* metric-eval records */
	SNIFF_NKINDS
};

#define SNIFF_BIT(k) (1u << (k))
/* The kinds that are not NDJSON records at all. */
#define SNIFF_NOT_NDJSON (SNIFF_BIT(SNIFF_SQLITE) | SNIFF_BIT(SNIFF_BINARY) | \
    SNIFF_BIT(SNIFF_TRACE) | SNIFF_BIT(SNIFF_JSON) | SNIFF_BIT(SNIFF_CSV) | \
    SNIFF_BIT(SNIFF_FOLDED))

enum sniff_kind sniff_line(const char *line, size_t len);
/* "is an SQLite database", "holds span records (start_ns, end_ns)", ... */
const char *sniff_what(enum sniff_kind k);
/* What to do with that kind instead: "use db2spans", ... */
const char *sniff_todo(enum sniff_kind k);

/*
 * When the kind of line is in the refuse mask, prints
 * "prog: file WHAT: TODO" and exits 1.  TODO is sniff_todo() when todo is
 * NULL and for the kinds that one program reads (an SQLite database:
 * db2spans; a Chrome trace: trace2spans), else todo.
 */
void sniff_check(const char *file, const char *line, size_t len,
    unsigned refuse, const char *todo);
/*
 * sniff_check() on the first line of the file at path that is not blank
 * (named name in the message); a file that cannot be read is left to the
 * caller to report.
 */
void sniff_file(const char *path, const char *name, unsigned refuse,
    const char *todo);
NORETURN void sniff_die(const char *file, enum sniff_kind k,
    const char *todo);

#endif

/*
 * recdiff.h: what the parts of recdiff share.  kind.c tells a record's
 * kind and builds its key; diff.c writes the comparison records; main.c
 * reads the sides and runs the options.
 */
#ifndef RECDIFF_H
#define RECDIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "hmap.h"
#include "nd.h"
#include "ndw.h"
#include "strbuf.h"

/* The record kinds of docs/formats.md that recdiff compares. */
enum kind {
	K_SKIP,		/* a kind that is not compared (spans, meta, ...) */
	K_METRIC, K_STATS, K_STACK, K_SUMMARY, K_INSTR, K_TOTALS,
	K_SYSINFO, K_ROOFLINE, K_DISPATCH, K_KEYS
};

#define MAX_KEYS 16

/* A record's kind, its key and the names of its identity fields. */
struct reckey {
	enum kind kind;
	struct strbuf key;	/* canonical text: equal keys, equal text */
	struct strbuf desc;	/* the key for people: "2.1 / VALU IOPs" */
	struct nd_slice run;	/* its "run" (or "label"), raw */
	struct nd_slice thread, stack;	/* stack records */
	const char *skipped;	/* K_SKIP: what it is */
};

/* kind.c */
void kind_keys(const char *list);	/* -k */
void kind_release(void);
/*
 * Fills k for the validated record line.  Threads are keyed without
 * their run prefix; with merge set, stack records are keyed by the stack
 * alone.  Returns 0, or -1 (message in k->skipped) when the record is
 * not one of a kind the key can be made of.
 */
int kind_of(const char *line, size_t len, int merge, struct reckey *k);
/* Is this field of a record of kind k written once, not compared? */
int kind_identity(enum kind k, const char *name);
void reckey_init(struct reckey *k);
void reckey_release(struct reckey *k);
/* The pid of a stack record's thread label, without its run prefix. */
size_t thread_pid(struct nd_slice thread, struct nd_slice run,
    struct strbuf *out);

/* diff.c: writing the comparison records. */
struct diff {
	struct ndw w;
	FILE *out;
	double fail_above;	/* < 0: no threshold */
	const char **fields;	/* --fields, or NULL: every field */
	size_t nfields;
	uint64_t written, over, mismatched;
	struct strbuf offenders;	/* the first lines of the report */
	const char *first_mismatch;
};

void diff_init(struct diff *d, FILE *out);
void diff_release(struct diff *d);
/*
 * Writes the record comparing base with new (either may be NULL: a key
 * on one side only) for runs run and base_run.
 */
void diff_emit(struct diff *d, enum kind kind, const char *desc,
    const char *bline, size_t blen, const char *nline, size_t nlen,
    const char *run, const char *base_run);

#endif

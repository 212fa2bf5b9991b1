/*
 * trace2spans.h: the parts of trace2spans shared by its files: read.c
 * walks the JSON document and cuts the events out, events.c turns events
 * into spans, main.c runs the files.  main.c uses both, read.c uses
 * events.c, and events.c uses neither.
 */
#ifndef TRACE2SPANS_H
#define TRACE2SPANS_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "err.h"
#include "hmap.h"
#include "nd.h"
#include "ndw.h"
#include "opt.h"
#include "strbuf.h"
#include "zin.h"

struct t2s_opt {
	struct opt_common com;
	int absolute;
	int args;		/* -a: the whole args object */
	const char **arg_keys;	/* --args: these args as keys of their own */
	size_t narg_keys;
	const char *label;	/* --label */
	const char *run;	/* the "run" of the file being read, or NULL */
	size_t runlen;
};

/* What the events of all files added up to; printed at the end. */
struct t2s_count {
	uint64_t events, spans, instant, counter, flow, meta, other;
	uint64_t noname;
};

/* The run: options, counts and output, owned by main(). */
struct t2s {
	struct t2s_opt opt;
	struct t2s_count count;
	struct bad_input bad;
	struct jqf *where;
	FILE *out;
	struct ndw w;
	uint64_t progress_bytes;
};

/* A begin event (B or b) waiting for its end. */
struct open_span {
	int64_t start;
	char *name, *cat, *args;	/* raw JSON text, NUL-terminated */
	unsigned long line;
};

struct open_stack {
	struct open_span *v;
	size_t n, alloc;
};

/*
 * One input file.  The unread bytes are buf[start..end); line is the line
 * number at buf[start].
 */
struct trace {
	struct t2s *x;		/* the run it is part of */
	struct zin in;
	struct srcpos pos;	/* the event being handled */
	char *buf;
	size_t cap, start, end;
	unsigned long line;
	int eof, names_only, read_error;
	int have_base;
	int64_t base;
	struct hmap *names;	/* "pid\037tid" -> raw JSON thread name */
	struct hmap begins;	/* "pid\037tid" -> struct open_stack */
	struct hmap asyncs;	/* "pid\037cat\037id\037name" -> open_stack */
	size_t async_open;	/* b events waiting for their e */
	unsigned long fills;	/* reads into buf so far */
	size_t tn_at;		/* the names pass: the next "thread_name" */
	unsigned long tn_fills;	/* in buf as it was after this read */
	struct strbuf key;
};

/* A bad event of t: reported at t->pos, counted, skipped. */
#define t2s_bad(t, ...) bad_input(&(t)->x->bad, &(t)->pos, __VA_ARGS__)

/* The members of an event that trace2spans reads, in v[] order. */
enum {
	K_PH, K_NAME, K_CAT, K_PID, K_TID, K_TS, K_DUR, K_ID, K_ID2, K_ARGS,
	K_N
};

/* read.c: calls fast.c, and events.c for each event it cuts out. */
/* Walks one document; returns 0, or -1 after a message (with
 * t->names_only, the names pass: silent, thread_name events alone). */
int document(struct trace *t);

/*
 * fast.c: reads the event object at buf[0] ('{'), of which n bytes are
 * there, into v[] (K_ order), with the count of its newlines in *lines.
 * Returns its length; FAST_MORE when it goes on past n; FAST_SLOW when the general
 * path (cut(), then handle_event()) must read it.
 */
#define FAST_MORE (-1)
#define FAST_SLOW (-2)
ssize_t fast_event(const char *buf, size_t n, struct nd_slice v[],
    unsigned long *lines);

/* events.c */
void handle_event(struct trace *t, struct nd_slice ev);
/* The event whose members are v[] (K_ order), well-formed (not in the
 * names pass). */
void handle_fields(struct trace *t, const struct nd_slice v[]);
void meta_scan(struct trace *t, struct nd_slice ev);
void close_open(struct trace *t, struct hmap *h);

#endif

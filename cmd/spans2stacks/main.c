/* spans2stacks: rebuilds call stacks from spans; one record per call path. */
#define _GNU_SOURCE		/* FNM_CASEFOLD */
#include <fnmatch.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "digits.h"
#include "err.h"
#include "flist.h"
#include "jqf.h"
#include "nd.h"
#include "ofile.h"
#include "opt.h"
#include "progress.h"
#include "sniff.h"
#include "strbuf.h"
#include "xmem.h"

#include "spool.h"
#include "stacks.h"

/*
 * Spans that are the profiler's, not the program's: the step markers, and
 * Kineto's own session span ("PyTorch Profiler (0)", cat "Trace"), which
 * holds the whole trace.  The spans of Kineto's overhead lane (cat
 * "overhead", pid -1) go too; --no-default-excludes keeps them all.
 */
static const char *const default_excludes[] = { "ProfilerStep#*",
	"PyTorch Profiler (*)", NULL };

static struct {
	struct opt_common com;
	size_t max_depth;
	int default_excludes;
	const char **excludes;
	size_t *literal;	/* by exclude: its literal start's length */
	size_t nexcludes;
	const char *files_from;
	int folded;
	int merge;
	int quiet;
	int sorted;
} opt = { .com = OPT_COMMON_INIT, .max_depth = 1000, .default_excludes = 1 };
static struct jqf *where;

enum { OPT_FILES_FROM = OPT_OWN, OPT_NO_DEFAULT_EXCLUDES };

static const struct option longopts[] = {
	{ "exclude", required_argument, NULL, 'x' },
	{ "files-from", required_argument, NULL, OPT_FILES_FROM },
	{ "folded", no_argument, NULL, 'f' },
	{ "max-depth", required_argument, NULL, 'd' },
	{ "merge", no_argument, NULL, 'm' },
	{ "no-default-excludes", no_argument, NULL, OPT_NO_DEFAULT_EXCLUDES },
	{ "quiet", no_argument, NULL, 'q' },
	{ "sorted", no_argument, NULL, 's' },
	OPT__COMMON
};

#define CATC 8
#define THRC 8

/*
 * The fast path of the span reader: a record in the layout db2spans and
 * trace2spans write, {"pid":N,"tid":N,"name":S[,"cat":S],"start_ns":N,
 * "end_ns":N[,"lane":S][,"thread_name":S][,"run":S]}, with integers N of
 * at most 19 digits and strings S of printable ASCII without escapes, is
 * cut into f->v[] (as nd_fields() would give) and its times read, in one
 * pass, without the general JSON scanner.  Returns 0, or -1 for anything
 * else: that record goes to nd_fields(), which validates it and reports
 * what is wrong.  Both loops take 8 bytes at a time.
 */
struct fast {
	struct nd_slice v[9];	/* in the order of span_record's keys */
	int64_t start, end;
	uint64_t pid, tid;	/* the digits of pid and tid, */
	unsigned neg;		/* and their signs, as struct thrc has them */
};

/*
 * The starts of the last records the fast path read, '{"pid":N,"tid":N',
 * of different threads, and what they gave: a record that starts with
 * the same bytes as one, followed by ',' or '}', has the same pid and
 * tid, and is not read digit by digit again (spans of a thread come in
 * long runs, or of a few threads mixed).  tail is the last 8 bytes, to
 * tell the threads apart with one compare.
 */
#define IDSC 4

struct ids_memo {
	struct ids_ent {
		char raw[56];
		size_t len;	/* 0: none */
		uint64_t tail;
		size_t pid_len, tid_off, tid_len;
		uint64_t pid, tid;
	} e[IDSC];
	size_t next;		/* the entry to replace */
	/*
	 * The first 8 digits of the last time of 16 digits or more, and
	 * their value: epoch nanoseconds share them for 100 s.
	 */
	uint64_t hw, hv;
};

/* The state of one run: the tree and the counters the summary reports. */
struct run {
	struct tree tree;
	struct spool spool;		/* unsorted spans, put in order */
	struct bad_input bad;
	struct strbuf label, name;	/* scratch */
	struct thrc {		/* threads seen lately, by raw key */
		char key[64];
		size_t len;
		struct thread *th;
		int num;	/* no run, no lane; pid, tid integers: */
		uint64_t pid, tid;	/* their values, */
		unsigned neg;	/* 1: pid < 0, 2: tid < 0 (so "-0" apart) */
	} thrc[THRC];
	size_t nthrc, thrc_next, thrc_last;
	uint64_t filtered, records;
	uint64_t overhead;		/* spans of the profiler's overhead */
	struct ids_memo ids;		/* of the fast path */
	struct {			/* raw "cat" values seen first */
		char raw[32];
		size_t len;
		uint32_t id;
	} catc[CATC];
	size_t ncatc;
};

static const struct opt_help help[] = {
	{ "-d, --max-depth DEPTH", "cut stacks deeper than DEPTH frames "
	    "(default 1000)" },
	{ "-f, --folded", "write folded stacks ('a;b;c 12') instead of "
	    "records" },
	{ "--files-from LIST", "also read the files named in LIST, one a "
	    "line" },
	{ "-m, --merge", "read stack records and sum those of one path" },
	{ "--no-default-excludes", "keep the profiler's own spans "
	    "(ProfilerStep#, Kineto's)" },
	{ "-q, --quiet", "do not write the summary line" },
	{ "-s, --sorted", "the input is sorted per thread: stream it" },
	{ "-x, --exclude PATTERN", "also skip spans whose name matches "
	    "PATTERN" },
	{ NULL, NULL }
};

static void
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: spans2stacks [-fhmqs] [-d depth] [--files-from list] "
	    "[--no-default-excludes] "
	    "[--no-progress] [-o file] [--progress] [--strict] [--version] "
	    "[--where expr] [-x pattern] [file ...]\n");
	if (status == 0)
		opt_help(stdout, help);
	exit(status);
}

/* Appends the text of a thread id (a number as written, or a string). */
static int
add_id(struct strbuf *sb, struct nd_slice v)
{
	switch (nd_type(v)) {
	case ND_NUMBER:
		strbuf_add(sb, v.p, v.len);
		return 0;
	case ND_STRING:
		return nd_val_str(v, sb);
	default:
		return -1;
	}
}

/* Keeps a record's "run" (a string) on its thread, the first one seen. */
static void
thread_run(struct thread *th, struct nd_slice run)
{
	if (th->run != NULL || nd_type(run) != ND_STRING)
		return;
	th->run = memcpy(xmalloc(run.len), run.p, run.len);
	th->run_len = run.len;
}

/* 1 if the key of entry c is run, lane, pid, tid (lengths l[]). */
static int
thrc_eq(const struct thrc *c, const struct nd_slice id[4], const size_t l[4])
{
	size_t i, off;

	if (c->len != l[0] + l[1] + l[2] + l[3] + 3)
		return 0;
	for (i = 0, off = 0; i < 4; off += l[i++] + 1)
		if ((l[i] > 0 && memcmp(c->key + off, id[i].p, l[i]) != 0) ||
		    (i < 3 && c->key[off + l[i]] != '\0'))
			return 0;
	return 1;
}

/*
 * Remembers th under its key, in place of the oldest entry; f: the
 * record's pid and tid as numbers (NULL: not known).
 */
static void
thrc_put(struct run *r, struct thread *th, const struct nd_slice id[4],
    const size_t l[4], const struct fast *f)
{
	struct thrc *c = &r->thrc[r->thrc_next];
	size_t i, off = 0;

	if (l[0] + l[1] + l[2] + l[3] + 3 > sizeof(c->key))
		return;
	if (r->nthrc < THRC)
		r->nthrc++;
	r->thrc_last = r->thrc_next;
	r->thrc_next = (r->thrc_next + 1) % THRC;
	for (i = 0; i < 4; i++) {
		if (l[i] > 0)	/* an absent run's p is NULL */
			memcpy(c->key + off, id[i].p, l[i]);
		off += l[i];
		if (i < 3)
			c->key[off++] = '\0';
	}
	c->len = off;
	c->th = th;
	c->num = f != NULL && l[0] == 0 && l[1] == 0;
	if (c->num) {
		c->pid = f->pid;
		c->tid = f->tid;
		c->neg = f->neg;
	}
}

/*
 * The thread of a span: "pid/tid", "LANE:pid/tid" for a span on a device
 * lane (whose spans do not nest), and "RUN " before it when the span has
 * a "run".  The last few threads are found by the raw text of run, lane,
 * pid and tid, without building the label: spans of a few threads come
 * mixed in any order.  id[] is run, lane, pid, tid (run and lane:
 * strings or absent); f, when the fast path read the record, has pid and
 * tid as numbers, which find a thread without run or lane by two
 * compares.
 */
static struct thread *
span_thread(struct run *r, const struct nd_slice id[4], const struct fast *f)
{
	struct thread *th;
	size_t i, j, l[4];

	for (i = 0; i < 4; i++)
		l[i] = i > 1 || nd_type(id[i]) == ND_STRING ? id[i].len : 0;
	/* j runs from the last hit round the entries (no division). */
	for (i = 0, j = r->thrc_last; f != NULL && l[0] == 0 && l[1] == 0 &&
	    i < r->nthrc; i++, j = j + 1 < r->nthrc ? j + 1 : 0) {
		if (r->thrc[j].num && r->thrc[j].pid == f->pid &&
		    r->thrc[j].tid == f->tid && r->thrc[j].neg == f->neg) {
			r->thrc_last = j;
			return r->thrc[j].th;
		}
	}
	for (i = 0, j = r->thrc_last; i < r->nthrc;
	    i++, j = j + 1 < r->nthrc ? j + 1 : 0) {
		if (thrc_eq(&r->thrc[j], id, l)) {
			r->thrc_last = j;
			return r->thrc[j].th;
		}
	}
	strbuf_reset(&r->label);
	if (l[0] > 0) {
		if (nd_val_str(id[0], &r->label) != 0)
			return NULL;
		strbuf_addch(&r->label, ' ');
	}
	if (l[1] > 0) {
		if (nd_val_str(id[1], &r->label) != 0)
			return NULL;
		strbuf_addch(&r->label, ':');
	}
	if (add_id(&r->label, id[2]) != 0)
		return NULL;
	strbuf_addch(&r->label, '/');
	if (add_id(&r->label, id[3]) != 0)
		return NULL;
	th = tree_thread(&r->tree, r->label.buf, r->label.len);
	th->flat = l[1] > 0;
	thread_run(th, id[0]);
	thrc_put(r, th, id, l, f);
	return th;
}

/*
 * Interns a JSON string value; returns -1 if v is not a string.  plain
 * says it is known to hold no escape.
 */
static int
intern_name(struct run *r, struct nd_slice v, int plain, uint32_t *id)
{
	if (v.len < 2 || v.p[0] != '"')
		return -1;
	if (plain) {
		*id = tree_name(&r->tree, v.p + 1, v.len - 2);
		return 0;
	}
	if ((*id = tree_name_json(&r->tree, v.p + 1, v.len - 2)) != NODE_NONE)
		return 0;
	strbuf_reset(&r->name);
	if (nd_val_str(v, &r->name) != 0)
		return -1;
	*id = tree_name(&r->tree, r->name.buf, r->name.len);
	return 0;
}

/* The id + 1 of a "cat" string; the few raw texts seen first come first. */
static uint32_t
cat_id(struct run *r, struct nd_slice cat)
{
	uint32_t id;
	size_t i;

	for (i = 0; i < r->ncatc; i++)
		if (r->catc[i].len == cat.len &&
		    memcmp(r->catc[i].raw, cat.p, cat.len) == 0)
			return r->catc[i].id;
	strbuf_reset(&r->name);
	nd_val_str(cat, &r->name);
	id = tree_cat(&r->tree, r->name.buf, r->name.len) + 1;
	if (r->ncatc < CATC && cat.len <= sizeof(r->catc[0].raw)) {
		memcpy(r->catc[r->ncatc].raw, cat.p, cat.len);
		r->catc[r->ncatc].len = cat.len;
		r->catc[r->ncatc++].id = id;
	}
	return id;
}

/*
 * Whether a name matches an exclude pattern that starts with literal text
 * (before any '*', '?', '[' or '\\'): only names that start with that text
 * are decoded and matched.  A name excluded here is never interned, so
 * thousands of distinct "ProfilerStep#N" cost no memory.  The tree matches
 * the other patterns (tree_excluded).
 */
static int
pre_excluded(struct run *r, struct nd_slice v)
{
	const char *raw = v.p + 1, *pat;
	size_t i, k, n = v.len - 2;
	int decoded = 0;

	for (i = 0; i < opt.nexcludes; i++) {
		pat = opt.excludes[i];
		k = opt.literal[i];
		/* The first bytes differ in more than case: no match. */
		if (k == 0 || k > n || (raw[0] | 0x20) != (pat[0] | 0x20) ||
		    strncasecmp(raw, pat, k) != 0)
			continue;
		if (!decoded) {
			strbuf_reset(&r->name);
			if (nd_val_str(v, &r->name) != 0)
				return 0;
			decoded = 1;
		}
		if (fnmatch(pat, r->name.buf, FNM_CASEFOLD) == 0)
			return 1;
	}
	return 0;
}

/* Reads the optional "cat" and "thread_name" of a record. */
static void
span_extras(struct run *r, struct thread *th, struct nd_slice cat,
    struct nd_slice tname, uint32_t *catid)
{
	*catid = nd_type(cat) == ND_STRING ? cat_id(r, cat) : 0;
	if (th->tname == NULL && nd_type(tname) == ND_STRING) {
		strbuf_reset(&r->name);
		nd_val_str(tname, &r->name);
		tree_thread_name(&r->tree, th, r->name.buf, r->name.len);
	}
}


#define ONES 0x0101010101010101ULL
#define HIGH 0x8080808080808080ULL
/* The high bit of each byte of x that is zero (if any is: exact). */
#define ZERO_BYTES(x) (((x) - ONES) & ~(x) & HIGH)

static const char *
fast_key(const char *p, const char *e, const char *key, size_t n)
{
	if ((size_t)(e - p) < n || memcmp(p, key, n) != 0)
		return NULL;
	return p + n;
}

/* The high bit of each byte of x that is not zero (exact). */
#define NONZERO_BYTES(x) (((((x) & ~HIGH) + ~HIGH) | (x)) & HIGH)

/*
 * How many of the 8 bytes of w (in memory order: w was loaded
 * little-endian) are decimal digits before the first that is not.
 */
static unsigned
digits_in(uint64_t w)
{
	uint64_t x, nz;

	/* A digit's byte becomes 0x33, any other byte something else. */
	x = ((w & 0xF0F0F0F0F0F0F0F0ULL) | (((w + 0x0606060606060606ULL) &
	    0xF0F0F0F0F0F0F0F0ULL) >> 4)) ^ 0x3333333333333333ULL;
	nz = NONZERO_BYTES(x);
	return nz == 0 ? 8 : (unsigned)__builtin_ctzll(nz) / 8;
}

/* The value of the first k (1 to 8) digits of w. */
static uint64_t
value_of(uint64_t w, unsigned k)
{
	if (k < 8)	/* the digits to the top, '0's before them */
		w = w << (64 - 8 * k) | 0x3030303030303030ULL >> 8 * k;
	return digits_value8(w);
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const char *
fast_int(const char *p, const char *e, struct nd_slice *v, int64_t *out,
    struct ids_memo *m)
{
	static const uint64_t pow10[] = { 1, 10, 100, 1000, 10000, 100000,
		1000000, 10000000, 100000000 };
	const char *q = p, *d;
	uint64_t x = 0, w, w2;
	unsigned k = 8;
	int neg = 0;

	if (q < e && *q == '-')
		q++, neg = 1;
	if (q >= e || *q < '0' || *q > '9')
		return NULL;
	if (*q == '0' && q + 1 < e && q[1] >= '0' && q[1] <= '9')
		return NULL;
	d = q;
	if (e - q >= 16) {	/* the 16 digits of a time, in two words */
		memcpy(&w, q, 8);
		memcpy(&w2, q + 8, 8);
		if (digits_all8(w) && digits_all8(w2)) {
			if (w != m->hw) {
				m->hw = w;
				m->hv = value_of(w, 8);
			}
			x = m->hv * 100000000 + value_of(w2, 8);
			q += 16;
			/* The last three of 19 digits, byte by byte. */
			if (e - q >= 4 && is_digit(q[0]) && is_digit(q[1]) &&
			    is_digit(q[2]) && !is_digit(q[3])) {
				x = x * 1000 + (uint64_t)(q[0] - '0') * 100 +
				    (uint64_t)(q[1] - '0') * 10 +
				    (uint64_t)(q[2] - '0');
				q += 3;
				k = 0;	/* no digit follows */
			}
		}
	}
	for (; k == 8 && e - q >= 8; q += k) {
		memcpy(&w, q, 8);
		if ((k = digits_in(w)) > 0)
			x = x * pow10[k] + value_of(w, k);
	}
	if (k == 8)	/* fewer than 8 bytes left */
		for (; q < e && *q >= '0' && *q <= '9'; q++)
			x = x * 10 + (unsigned)(*q - '0');
	/* 19 digits fit in 64 bits unsigned. */
	if (q - d > 19 || q >= e || (*q != ',' && *q != '}') ||
	    x > (uint64_t)INT64_MAX + (uint64_t)neg)
		return NULL;
	*out = neg ? (int64_t)(0 - x) : (int64_t)x;
	v->p = p;
	v->len = (size_t)(q - p);
	return q;
}

/*
 * The same for pid and tid, which are kept as text: *x gets the value of
 * the digits (19 at most), for finding the thread (struct thrc).
 */
static const char *
fast_id(const char *p, const char *e, struct nd_slice *v, uint64_t *x)
{
	const char *q = p + (p < e && *p == '-'), *d = q;

	for (*x = 0; q < e && *q >= '0' && *q <= '9'; q++)
		*x = *x * 10 + (unsigned)(*q - '0');
	if (q == d || q - d > 19 || (*d == '0' && q - d > 1) || q >= e ||
	    (*q != ',' && *q != '}'))
		return NULL;
	v->p = p;
	v->len = (size_t)(q - p);
	return q;
}

static const char *
fast_str(const char *p, const char *e, struct nd_slice *v)
{
	const unsigned char *q = (const unsigned char *)p + 1;
	const unsigned char *u = (const unsigned char *)e;
	uint64_t x, m;

	if (p >= e || *p != '"')
		return NULL;
	/*
	 * A word at a time, the first byte that is not printable ASCII or
	 * is '"' or '\\' (a byte of 0x7f or above sets a high bit of x or
	 * of x + 1 per byte; a carry out of 0xff only flags bytes after
	 * it), then the last bytes one by one.
	 */
	for (; u - q >= 8; q += 8) {
		memcpy(&x, q, 8);
		m = ((x | (x + ONES)) & HIGH) |
		    ZERO_BYTES(x & 0xE0E0E0E0E0E0E0E0ULL) |
		    ZERO_BYTES(x ^ (ONES * '"')) |
		    ZERO_BYTES(x ^ (ONES * '\\'));
		if (m != 0) {
			q += __builtin_ctzll(m) / 8;
			break;
		}
	}
	if (u - q < 8)
		while (q < u && *q >= 0x20 && *q < 0x7f && *q != '"' &&
		    *q != '\\')
			q++;
	if (q >= u || *q != '"')
		return NULL;
	v->p = p;
	v->len = (size_t)((const char *)q + 1 - p);
	return (const char *)q + 1;
}

/*
 * 1 if the n bytes at a and b are equal, in words, not a memcmp() call:
 * the last word may run past n into the 8 bytes the memo's tail has
 * already matched (both hold them).
 */
static int
same_head(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	size_t o;

	for (o = 0; o < n; o += 8) {
		memcpy(&x, a + o, 8);
		memcpy(&y, b + o, 8);
		if (x != y)
			return 0;
	}
	return 1;
}

/* Reads '{"pid":N,"tid":N' at p, through the memo m; returns its end. */
static const char *
fast_ids(const char *p, const char *e, struct fast *f, struct ids_memo *m)
{
	const char *b = p;
	struct nd_slice *v = f->v;
	struct ids_ent *c;
	uint64_t tail;
	size_t i;

	for (i = 0; i < IDSC; i++) {
		c = &m->e[i];
		if (c->len == 0 || (size_t)(e - p) <= c->len)
			continue;
		memcpy(&tail, p + c->len - 8, 8);
		if (tail != c->tail || !same_head(p, c->raw, c->len - 8) ||
		    (p[c->len] != ',' && p[c->len] != '}'))
			continue;
		v[0].p = p + 7;
		v[0].len = c->pid_len;
		v[1].p = p + c->tid_off;
		v[1].len = c->tid_len;
		f->pid = c->pid;
		f->tid = c->tid;
		return p + c->len;
	}
	if ((p = fast_key(p, e, "{\"pid\":", 7)) == NULL ||
	    (p = fast_id(p, e, &v[0], &f->pid)) == NULL ||
	    (p = fast_key(p, e, ",\"tid\":", 7)) == NULL ||
	    (p = fast_id(p, e, &v[1], &f->tid)) == NULL)
		return NULL;
	if ((size_t)(p - b) > sizeof(c->raw))
		return p;
	c = &m->e[m->next];
	m->next = (m->next + 1) % IDSC;
	c->len = (size_t)(p - b);	/* 15 at least */
	memcpy(c->raw, b, c->len);
	memcpy(&c->tail, p - 8, 8);
	c->pid_len = v[0].len;
	c->tid_off = (size_t)(v[1].p - b);
	c->tid_len = v[1].len;
	c->pid = f->pid;
	c->tid = f->tid;
	return p;
}

static int
fast_fields(const char *p, size_t len, struct fast *f, struct ids_memo *m)
{
	const char *e = p + len;
	const char *q;
	struct nd_slice *v = f->v;

	/* The keys that may be absent; the others are read or it fails. */
	v[5].p = v[6].p = v[7].p = v[8].p = NULL;
	v[5].len = v[6].len = v[7].len = v[8].len = 0;
	if ((p = fast_ids(p, e, f, m)) == NULL ||
	    (p = fast_key(p, e, ",\"name\":", 8)) == NULL ||
	    (p = fast_str(p, e, &v[2])) == NULL)
		return -1;
	if ((q = fast_key(p, e, ",\"cat\":", 7)) != NULL &&
	    (p = fast_str(q, e, &v[5])) == NULL)
		return -1;
	if ((p = fast_key(p, e, ",\"start_ns\":", 12)) == NULL ||
	    (p = fast_int(p, e, &v[3], &f->start, m)) == NULL ||
	    (p = fast_key(p, e, ",\"end_ns\":", 10)) == NULL ||
	    (p = fast_int(p, e, &v[4], &f->end, m)) == NULL)
		return -1;
	if ((q = fast_key(p, e, ",\"lane\":", 8)) != NULL &&
	    (p = fast_str(q, e, &v[8])) == NULL)
		return -1;
	if ((q = fast_key(p, e, ",\"thread_name\":", 15)) != NULL &&
	    (p = fast_str(q, e, &v[6])) == NULL)
		return -1;
	if ((q = fast_key(p, e, ",\"run\":", 7)) != NULL &&
	    (p = fast_str(q, e, &v[7])) == NULL)
		return -1;
	f->neg = (*v[0].p == '-') | (*v[1].p == '-') << 1;
	return p + 1 == e && *p == '}' ? 0 : -1;
}

/*
 * The slow path: nd_fields() and the checks the fast path makes by its
 * layout.  Returns 0, or -1 after reporting the record.
 */
static int
slow_fields(struct run *r, const struct nd_reader *rd, struct fast *f)
{
	static const char *const keys[] = { "pid", "tid", "name", "start_ns",
		"end_ns", "cat", "thread_name", "run", "lane" };
	struct nd_slice *v = f->v;
	int i;

	if (nd_fields(rd->line, rd->len, keys, v, 9) < 0) {
		bad_input(&r->bad, &rd->pos, "%s", nd_error());
		return -1;
	}
	for (i = 0; i < 5; i++)
		if (v[i].p == NULL) {
			bad_input(&r->bad, &rd->pos, "missing key '%s'",
			    keys[i]);
			return -1;
		}
	if (nd_val_i64(v[3], &f->start) != 0 ||
	    nd_val_i64(v[4], &f->end) != 0) {
		bad_input(&r->bad, &rd->pos, "'%s' is not an integer",
		    nd_val_i64(v[3], &f->start) != 0 ? "start_ns" : "end_ns");
		return -1;
	}
	return 0;
}

/* One span record. */
static void
span_record(struct run *r, const struct nd_reader *rd)
{
	struct fast f;
	struct nd_slice *v = f.v;
	struct thread *th;
	struct bspan s;
	int64_t dur;
	int fast;

	if (!(fast = fast_fields(rd->line, rd->len, &f, &r->ids) == 0) &&
	    slow_fields(r, rd, &f) != 0)
		return;
	s.start = f.start;
	s.end = f.end;
	if (opt.default_excludes && (!fast || v[5].len == 10) &&
	    nd_str_eq(v[5], "overhead", 8)) {
		r->overhead++;
		return;
	}
	if (!fast && v[8].p != NULL && nd_type(v[8]) != ND_STRING) {
		bad_input(&r->bad, &rd->pos, "'lane' is not a string");
		return;
	}
	if ((th = span_thread(r, (struct nd_slice[4]){ v[7], v[8], v[0],
	    v[1] }, fast ? &f : NULL)) == NULL) {
		bad_input(&r->bad, &rd->pos, "'pid' or 'tid' is not a number "
		    "or a string");
		return;
	}
	if (!fast && nd_type(v[2]) != ND_STRING) {
		bad_input(&r->bad, &rd->pos, "'name' is not a string");
		return;
	}
	span_extras(r, th, v[5], v[6], &s.cat);
	if (s.end <= s.start) {
		r->tree.st.nonpos++;
		return;
	}
	if (__builtin_sub_overflow(s.end, s.start, &dur)) {
		bad_input(&r->bad, &rd->pos, "'end_ns' - 'start_ns' does not "
		    "fit in 64 bits");
		return;
	}
	if (pre_excluded(r, v[2]) || intern_name(r, v[2], fast, &s.name) !=
	    0 || tree_excluded(&r->tree, s.name)) {
		r->tree.st.excluded++;
		return;
	}
	if (!opt.sorted)
		spool_add(&r->spool, th, &s);
	else if (tree_span(&r->tree, th, &s, 1) != 0)
		die_at(&rd->pos, "span starts before the previous one of "
		    "thread '%s': the input is not sorted (run without -s)",
		    th->label);
}

/* Walks a stack record's frames; returns the node, or NODE_NONE if cut. */
static int
merge_path(struct run *r, struct thread *th, struct nd_slice stack,
    uint32_t *node, uint32_t *deepest)
{
	struct nd_iter it;
	struct nd_slice k, v;
	uint32_t name, n = th->root;
	size_t depth = 0;
	int isnew, cut = 0;

	if (nd_iter_init(&it, stack) != 0 || stack.p[0] != '[')
		return -1;
	while (nd_iter_next(&it, &k, &v)) {
		if (intern_name(r, v, 0, &name) != 0)
			return -1;
		if (depth++ >= opt.max_depth) {
			cut = 1;
			continue;
		}
		n = tree_child(&r->tree, n, name, &isnew);
	}
	if (depth == 0)
		return -1;
	*deepest = n;
	*node = cut ? NODE_NONE : n;
	return 0;
}

/* One stack record (--merge): its numbers are added to its path. */
static void
merge_record(struct run *r, const struct nd_reader *rd)
{
	static const char *const keys[] = { "thread", "stack", "self_ns",
		"total_ns", "calls", "cat", "thread_name", "run" };
	struct nd_slice v[8];
	struct thread *th;
	struct node *n;
	uint32_t node, deepest, cat;
	int64_t self, total, sum, child;
	uint64_t calls, ncalls;

	if (nd_fields(rd->line, rd->len, keys, v, 8) < 0) {
		bad_input(&r->bad, &rd->pos, "%s", nd_error());
		return;
	}
	strbuf_reset(&r->label);
	if (nd_type(v[0]) != ND_STRING || nd_val_str(v[0], &r->label) != 0 ||
	    nd_val_i64(v[2], &self) != 0 || nd_val_i64(v[3], &total) != 0 ||
	    nd_val_u64(v[4], &calls) != 0) {
		bad_input(&r->bad, &rd->pos, "not a stack record (needs "
		    "'thread', 'stack', 'self_ns', 'total_ns' and 'calls')");
		return;
	}
	if (self < 0 || self > total) {
		bad_input(&r->bad, &rd->pos, "'self_ns' is not between 0 and "
		    "'total_ns'");
		return;
	}
	th = tree_thread(&r->tree, r->label.buf, r->label.len);
	thread_run(th, v[7]);
	if (merge_path(r, th, v[1], &node, &deepest) != 0) {
		bad_input(&r->bad, &rd->pos, "'stack' is not a non-empty "
		    "array of strings");
		return;
	}
	span_extras(r, th, v[5], v[6], &cat);
	if (node == NODE_NONE) {
		/* Cut: the self time stays with the deepest kept frame. */
		n = &r->tree.nodes[deepest];
		if (__builtin_sub_overflow(n->child, self, &child)) {
			bad_input(&r->bad, &rd->pos, "the times of this path "
			    "pass 64 bits");
			return;
		}
		n->child = child;
		r->tree.st.used++;
		r->tree.st.cut++;
		return;
	}
	n = &r->tree.nodes[node];
	if (__builtin_sub_overflow(total, self, &child) ||
	    __builtin_add_overflow(n->total, total, &sum) ||
	    __builtin_add_overflow(n->child, child, &child) ||
	    __builtin_add_overflow(n->calls, calls, &ncalls)) {
		bad_input(&r->bad, &rd->pos, "the times of this path pass "
		    "64 bits");
		return;
	}
	r->tree.st.used++;
	n->calls = ncalls;
	n->total = sum;
	n->child = child;
	if (n->cat == 0)
		n->cat = cat;
}

static void
spans2stacks_line(struct nd_reader *rd, void *arg)
{
	struct run *r = arg;
	int m;

	r->records++;
	if ((r->records & 0xFFFF) == 0)
		progress_update(r->records, 0);
	if ((m = jqf_keep(where, rd->line, rd->len, &r->bad, &rd->pos)) <= 0)
		r->filtered += m == 0;
	else if (opt.merge)
		merge_record(r, rd);
	else
		span_record(r, rd);
}

/* Reads one input file ("-": standard input).  Returns 0 or -1. */
static int
spans2stacks_stream(struct run *r, const char *path)
{
	struct nd_loop loop = { spans2stacks_line, r, &r->bad,
		SNIFF_NOT_NDJSON | SNIFF_BIT(SNIFF_TRACE), NULL };

	if (!opt.merge)
		loop.refuse |= SNIFF_BIT(SNIFF_STACKS) |
		    SNIFF_BIT(SNIFF_DISPATCH) | SNIFF_BIT(SNIFF_MIGX) |
		    SNIFF_BIT(SNIFF_METRICS);
	return nd_each(path, &loop);
}

/* Ends one input: buffered spans are built, open stacks closed. */
static void
end_of_file(struct run *r)
{
	size_t i;

	spool_drain(&r->spool, &r->tree);
	tree_flush(&r->tree);
	for (i = 0; i < r->tree.nthr; i++) {
		r->tree.thr[i]->depth = 0;
		r->tree.thr[i]->have_last = 0;
	}
}

static void
summary(const struct run *r)
{
	const struct stats *s = &r->tree.st;
	struct strbuf sb = STRBUF_INIT;

	if (opt.merge)
		strbuf_addf(&sb, "%llu stack records read, %llu used",
		    (unsigned long long)r->records,
		    (unsigned long long)s->used);
	else
		strbuf_addf(&sb, "%llu spans read, %llu used, %llu skipped "
		    "for duration <= 0, %llu excluded by name, %llu clipped "
		    "to their parent's end (%lld ns)",
		    (unsigned long long)r->records,
		    (unsigned long long)s->used,
		    (unsigned long long)s->nonpos,
		    (unsigned long long)s->excluded,
		    (unsigned long long)s->clipped, (long long)s->clipped_ns);
	if (r->overhead > 0)
		strbuf_addf(&sb, ", %llu of the profiler's overhead left out",
		    (unsigned long long)r->overhead);
	if (where != NULL)
		strbuf_addf(&sb, ", %llu left out by --where",
		    (unsigned long long)r->filtered);
	strbuf_addf(&sb, ", %llu frames cut below depth %zu; %llu %s written",
	    (unsigned long long)s->cut, opt.max_depth,
	    (unsigned long long)s->stacks, opt.folded ? "lines" : "stacks");
	warn("%s", sb.buf);
	strbuf_release(&sb);
}

static void
add_exclude(const char *pattern)
{
	opt.excludes = xreallocarray(opt.excludes, opt.nexcludes + 2,
	    sizeof(*opt.excludes));
	opt.excludes[opt.nexcludes++] = pattern;
	opt.excludes[opt.nexcludes] = NULL;
}

static void
parse_options(int argc, char *argv[])
{
	size_t i;
	int ch;

	while ((ch = opt_next(argc, argv, "d:fm" OPT_COMMON_SHORT "qsx:",
	    longopts)) != -1)
		switch (ch) {
		case 'd':
			opt.max_depth = opt_ulong("--max-depth", optarg, 1,
			    100000000);
			break;
		case 'f':
			opt.folded = 1;
			break;
		case 'm':
			opt.merge = 1;
			break;
		case 'q':
			opt.quiet = 1;
			break;
		case 's':
			opt.sorted = 1;
			break;
		case 'x':
			add_exclude(optarg);
			break;
		case OPT_FILES_FROM:
			opt.files_from = optarg;
			break;
		case OPT_NO_DEFAULT_EXCLUDES:
			opt.default_excludes = 0;
			break;
		default:
			opt_common(ch, optarg, &opt.com, usage);
		}
	if (opt.com.where != NULL)
		where = jqf_compile(opt.com.where);
	for (i = 0; opt.default_excludes && default_excludes[i] != NULL; i++)
		add_exclude(default_excludes[i]);
	opt.literal = xreallocarray(NULL, opt.nexcludes + 1,
	    sizeof(*opt.literal));
	for (i = 0; i < opt.nexcludes; i++)
		opt.literal[i] = strcspn(opt.excludes[i], "*?[\\");
}

int
main(int argc, char *argv[])
{
	struct flist fl;
	struct ofile of;
	struct run r;
	const char *path;
	FILE *out;
	int rc = EXIT_SUCCESS;

	prog_init(argv[0]);
	prog_usage(usage);
	parse_options(argc, argv);
	argc -= optind;
	argv += optind;
	memset(&r, 0, sizeof(r));
	r.bad.max_warn = 10;
	r.bad.strict = opt.com.strict;
	strbuf_init(&r.label, 64);
	strbuf_init(&r.name, 64);
	tree_init(&r.tree, opt.excludes, opt.max_depth);
	spool_init(&r.spool);
	flist_init(&fl, argc, argv, opt.files_from);
	out = ofile_open(&of, opt.com.output);
	progress_init(opt.com.progress, opt.merge ? "stacks" : "spans");
	while ((path = flist_next(&fl)) != NULL) {
		if (spans2stacks_stream(&r, path) != 0)
			rc = EXIT_FAILURE;
		end_of_file(&r);
	}
	if (flist_release(&fl) != 0)
		rc = EXIT_FAILURE;
	progress_done();
	tree_write(&r.tree, out, opt.folded);
	if (!opt.quiet)
		summary(&r);
	if (bad_input_finish(&r.bad) != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	rc = ofile_finish(&of, rc);
	tree_release(&r.tree);
	spool_release(&r.spool);
	strbuf_release(&r.label);
	strbuf_release(&r.name);
	free(opt.excludes);
	free(opt.literal);
	if (where != NULL)
		jqf_free(where);
	return close_stdout() != 0 ? EXIT_FAILURE : rc;
}

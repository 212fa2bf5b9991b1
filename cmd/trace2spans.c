#define _GNU_SOURCE	/* memmem */
/*
 * trace2spans: writes one span record per timed event of a Chrome
 * trace-event JSON file (torch.profiler, Kineto, torch_npu, Perfetto).
 *
 * The file is one JSON document, so it is read as a stream: the top level
 * is walked token by token, each element of the traceEvents array is cut
 * out whole (by bracket counting) and only then parsed with nd_fields().
 * Memory holds one event, the open B and b events and the thread names,
 * never the whole file.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hmap.h"
#include "jqf.h"
#include "nd.h"
#include "ndw.h"
#include "ofile.h"
#include "opt.h"
#include "progress.h"
#include "strbuf.h"
#include "zin.h"

static struct {
	int absolute;
	int args;
	int progress;
	int strict;
	const char *out;
	const char *where;
} opt = { 0, 0, PROGRESS_AUTO, 0, NULL, NULL };

/* What the events of all files added up to; printed at the end. */
static struct {
	uint64_t events, spans, instant, counter, flow, meta, other;
	uint64_t noname;
} count;

static struct bad_input bad = BAD_INPUT_INIT;
static struct jqf *where;
static FILE *out;
static struct ndw w;
static uint64_t progress_bytes;

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
	struct strbuf key;
};

static void
usage(int status)
{
	FILE *fp = status == EXIT_SUCCESS ? stdout : stderr;

	fprintf(fp, "usage: %s [-ah] [--absolute] [--no-progress] "
	    "[--progress] [--strict] [--version] [-o file] [--where expr] "
	    "[file ...]\n", prog_name);
	exit(status);
}

/*
 * Converts a JSON number of microseconds (decimal text, maybe with a
 * fraction and an exponent) to integer nanoseconds, exactly: the digits are
 * shifted, never multiplied as a double.  A part below one nanosecond is
 * rounded half away from zero.  Returns 0, or -1 if v is not a number or
 * the result does not fit in 64 bits.
 */
static int
us_to_ns(struct nd_slice v, int64_t *res)
{
	const char *p = v.p, *end = v.p + v.len;
	char dig[64];
	size_t nd = 0, i;
	long point = 0, e = 0;
	int neg = 0, esign = 1, seen = 0, digits = 0;
	uint64_t x = 0;

	if (p == NULL || p == end)
		return -1;
	if (*p == '-')
		neg = 1, p++;
	for (; p < end && ((*p >= '0' && *p <= '9') || *p == '.'); p++) {
		if (*p == '.') {
			if (seen++)
				return -1;
			continue;
		}
		digits = 1;
		if (nd == 0 && *p == '0') {	/* leading zeros */
			if (seen)
				point--;
			continue;
		}
		if (nd < sizeof(dig))
			dig[nd++] = *p;
		else if (!seen)
			return -1;		/* too many integer digits */
		if (!seen)
			point++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		if (++p < end && (*p == '+' || *p == '-'))
			esign = *p++ == '-' ? -1 : 1;
		if (p == end)
			return -1;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			if ((e = e * 10 + (*p - '0')) > 100000)
				return -1;
	}
	if (p != end || !digits)
		return -1;
	/* The value is 0.dig * 10^(point + e); ns keeps point + e + 3 digits. */
	point += esign * e + 3;
	if (point > 19)
		return nd == 0 ? (*res = 0, 0) : -1;
	for (i = 0; (long)i < point; i++) {
		int d = i < nd ? dig[i] - '0' : 0;

		if (x > (UINT64_MAX - (uint64_t)d) / 10)
			return -1;
		x = x * 10 + (uint64_t)d;
	}
	if (point >= 0 && (size_t)point < nd && dig[point] >= '5')
		x++;
	if (x > (uint64_t)INT64_MAX + (uint64_t)neg)
		return -1;
	*res = neg ? (int64_t)(0 - x) : (int64_t)x;
	return 0;
}

/* Reads more input, keeping buf[start..end).  Returns the count, 0 at EOF. */
static ssize_t
fill(struct trace *t)
{
	ssize_t got;

	if (t->eof)
		return 0;
	if (t->start > 0 && t->end - t->start < t->cap / 2) {
		memmove(t->buf, t->buf + t->start, t->end - t->start);
		t->end -= t->start;
		t->start = 0;
	}
	if (t->end == t->cap) {
		t->cap *= 2;
		if ((t->buf = realloc(t->buf, t->cap)) == NULL)
			die("out of memory");
	}
	got = zin_read(&t->in, t->buf + t->end, t->cap - t->end);
	if (got < 0) {
		/* A cut-short gzip file, say: keep what came before. */
		if (!t->names_only)
			warn("cannot read '%s': %s", t->in.name,
			    zin_error(&t->in));
		t->read_error = 1;
		got = 0;
	}
	if (got == 0)
		t->eof = 1;
	t->end += (size_t)got;
	progress_bytes += (uint64_t)got;
	return got;
}

/* Skips white space; returns the next byte (not consumed) or -1 at EOF. */
static int
peek(struct trace *t)
{
	for (;;) {
		while (t->start < t->end) {
			char c = t->buf[t->start];

			if (c == '\n')
				t->line++;
			else if (c != ' ' && c != '\t' && c != '\r')
				return (unsigned char)c;
			t->start++;
		}
		if (fill(t) == 0)
			return -1;
	}
}

/* The state of cut() between refills. */
struct cutst {
	int depth, in_str, esc, scalar;
	unsigned long lines;
};

/* The bytes cut() must look at outside a string, at depth 0 and inside. */
static const unsigned char cut_top[256] = {
	['"'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1, [','] = 1,
	[' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\n'] = 1, [':'] = 1,
};
static const unsigned char cut_in[256] = {
	['"'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1, ['\n'] = 1,
};

#define CUT_MORE ((size_t)-1)

/*
 * Skips the rest of a string from p[i]; returns the index after its
 * closing quote, or n (with s->in_str still set) when it goes on.  A raw
 * newline, which JSON does not allow in a string, is left for nd_fields()
 * to report.
 */
static size_t
cut_string(const char *p, size_t i, size_t n, struct cutst *s)
{
	for (;;) {
		if (s->esc) {
			if (i >= n)
				return n;
			s->esc = 0;
			i++;
		}
		while (i < n && p[i] != '"' && p[i] != '\\')
			i++;
		if (i >= n)
			return n;
		if (p[i++] == '\\')
			s->esc = 1;
		else {
			s->in_str = 0;
			return i;
		}
	}
}

/*
 * Finds the end of the value that starts at p[0] and continues to p[n],
 * resuming at p[i].  Returns the length of the value, or CUT_MORE when it
 * goes on past n.  A stray ',', ':' or closing bracket is a value of one
 * byte (the caller reports it).
 */
static size_t
cut_scan(const char *p, size_t i, size_t n, struct cutst *s)
{
	unsigned char c;

	while (i < n) {
		if (s->in_str) {
			i = cut_string(p, i, n, s);
			if (!s->in_str && s->depth == 0)
				return i;
			continue;
		}
		if (s->depth > 0) {
			while (i < n && !cut_in[(unsigned char)p[i]])
				i++;
			if (i == n)
				break;
		}
		c = (unsigned char)p[i];
		if (!cut_top[c]) {
			s->scalar = 1;
			i++;
			continue;
		}
		switch (c) {
		case '"':
			if (s->depth == 0 && s->scalar)
				return i;
			s->in_str = 1;
			break;
		case '{': case '[':
			if (s->depth == 0 && s->scalar)
				return i;
			s->depth++;
			break;
		case '}': case ']':
			if (s->depth == 0)
				return s->scalar ? i : i + 1;
			if (--s->depth == 0)
				return i + 1;
			break;
		default:		/* , : and white space */
			if (s->depth == 0)
				return s->scalar ? i : i + 1;
			s->lines += c == '\n';
			break;
		}
		i++;
	}
	return CUT_MORE;
}

/*
 * Cuts out the value at buf[start] (white space already skipped).  With
 * keep, *v points at it inside buf, valid until the next read; without,
 * the bytes are dropped as they are scanned, so a big value costs no
 * memory.  Returns 0, or -1 when the input ends inside the value.
 */
static int
cut(struct trace *t, int keep, struct nd_slice *v)
{
	struct cutst s = { 0, 0, 0, 0, 0 };
	size_t off = 0, len;

	while ((len = cut_scan(t->buf + t->start, off, t->end - t->start,
	    &s)) == CUT_MORE) {
		off = t->end - t->start;
		if (!keep) {
			t->start = t->end;
			off = 0;
		}
		if (fill(t) == 0) {
			t->line += s.lines;
			t->start = t->end;
			return -1;
		}
	}
	v->p = t->buf + t->start;
	v->len = len;
	t->start += len;
	t->line += s.lines;
	return 0;
}

/* Consumes the byte peek() returned. */
static void
take(struct trace *t)
{
	t->start++;
}

/* Sets t->key to the raw texts of the slices, joined by '\037'. */
static void
make_key(struct trace *t, const struct nd_slice *parts, size_t n)
{
	size_t i;

	strbuf_reset(&t->key);
	for (i = 0; i < n; i++) {
		if (i > 0)
			strbuf_addch(&t->key, '\037');
		if (parts[i].p != NULL)
			strbuf_add(&t->key, parts[i].p, parts[i].len);
	}
}

static char *
dup_slice(struct nd_slice v)
{
	char *s;

	if (v.p == NULL)
		return NULL;
	if ((s = malloc(v.len + 1)) == NULL)
		die("out of memory");
	memcpy(s, v.p, v.len);
	s[v.len] = '\0';
	return s;
}

static struct nd_slice
zslice(const char *s)
{
	struct nd_slice v = { s, s != NULL ? strlen(s) : 0 };

	return v;
}

/*
 * Writes one span.  pid and tid are raw JSON values; name, cat and args
 * raw JSON or absent.
 */
static void
emit(struct trace *t, struct nd_slice pid, struct nd_slice tid,
    struct nd_slice name, struct nd_slice cat, int64_t start, int64_t end,
    struct nd_slice args)
{
	struct nd_slice thr[2] = { pid, tid };
	void **tn;

	if (t->have_base && opt.absolute) {
		start += t->base;
		end += t->base;
	}
	ndw_begin(&w);
	ndw_raw(&w, "pid", pid.p, pid.len);
	ndw_raw(&w, "tid", tid.p, tid.len);
	if (name.p != NULL)
		ndw_raw(&w, "name", name.p, name.len);
	else {
		ndw_strz(&w, "name", "unknown");
		count.noname++;
	}
	if (cat.p != NULL)
		ndw_raw(&w, "cat", cat.p, cat.len);
	ndw_i64(&w, "start_ns", start);
	ndw_i64(&w, "end_ns", end);
	make_key(t, thr, 2);
	tn = hmap_get(t->names, t->key.buf, t->key.len);
	if (tn != NULL)
		ndw_raw(&w, "thread_name", *tn, strlen(*tn));
	if (opt.args && args.p != NULL)
		ndw_raw(&w, "args", args.p, args.len);
	ndw_end(&w);
	if (where != NULL) {
		int m = jqf_match(where, w.buf.buf, w.buf.len);

		if (m < 0)
			bad_input(&bad, &t->pos, "--where: %s",
			    jqf_error(where));
		if (m <= 0)
			return;
	}
	if (ndw_emit(&w, out) != 0)
		die_errno("write error");
	count.spans++;
}

enum {
	K_PH, K_NAME, K_CAT, K_PID, K_TID, K_TS, K_DUR, K_ID, K_ID2, K_ARGS,
	K_N
};
static const char *const event_keys[K_N] = {
	"ph", "name", "cat", "pid", "tid", "ts", "dur", "id", "id2", "args"
};

/* Remembers a thread_name metadata event (the first one of a thread wins). */
static void
meta_event(struct trace *t, const struct nd_slice *v)
{
	static const char *const name_key[1] = { "name" };
	struct nd_slice thr[2] = { v[K_PID], v[K_TID] }, nm;
	void **slot;
	int isnew;

	if (!nd_str_eq(v[K_NAME], "thread_name", 11) || v[K_ARGS].p == NULL ||
	    v[K_PID].p == NULL || v[K_TID].p == NULL ||
	    nd_fields(v[K_ARGS].p, v[K_ARGS].len, name_key, &nm, 1) != 1 ||
	    nd_type(nm) != ND_STRING)
		return;
	make_key(t, thr, 2);
	slot = hmap_put2(t->names, t->key.buf, t->key.len, &isnew);
	if (isnew)
		*slot = dup_slice(nm);
}

/* A span's time: ts (and dur) converted, or a bad record. */
static int
event_time(struct trace *t, const struct nd_slice *v, int need_dur,
    int64_t *start, int64_t *end)
{
	int64_t dur = 0;

	if (v[K_TS].p == NULL || us_to_ns(v[K_TS], start) != 0) {
		bad_input(&bad, &t->pos, "%s \"ts\"", v[K_TS].p == NULL ?
		    "event without" : "bad number in");
		return -1;
	}
	if (need_dur && (v[K_DUR].p == NULL || us_to_ns(v[K_DUR], &dur) != 0)) {
		bad_input(&bad, &t->pos, "%s \"dur\"", v[K_DUR].p == NULL ?
		    "complete event without" : "bad number in");
		return -1;
	}
	if (__builtin_add_overflow(*start, dur, end)) {
		bad_input(&bad, &t->pos, "\"ts\" + \"dur\" out of range");
		return -1;
	}
	return 0;
}

static struct open_stack *
open_stack(struct hmap *h, struct strbuf *key)
{
	void **slot = hmap_put(h, key->buf, key->len);

	if (*slot == NULL && (*slot = calloc(1, sizeof(struct open_stack)))
	    == NULL)
		die("out of memory");
	return *slot;
}

static void
push_open(struct trace *t, struct open_stack *st, const struct nd_slice *v,
    int64_t start)
{
	struct open_span *o;

	if (st->n == st->alloc) {
		st->alloc = st->alloc ? st->alloc * 2 : 8;
		if ((st->v = realloc(st->v, st->alloc * sizeof(*st->v)))
		    == NULL)
			die("out of memory");
	}
	o = &st->v[st->n++];
	o->start = start;
	o->name = dup_slice(v[K_NAME]);
	o->cat = dup_slice(v[K_CAT]);
	o->args = opt.args ? dup_slice(v[K_ARGS]) : NULL;
	o->line = t->pos.line;
}

static void
free_open(struct open_span *o)
{
	free(o->name);
	free(o->cat);
	free(o->args);
}

/* B pushes onto the thread's stack; E closes the innermost open B. */
static void
sync_event(struct trace *t, const struct nd_slice *v, int begin)
{
	struct nd_slice thr[2] = { v[K_PID], v[K_TID] };
	struct open_stack *st;
	struct open_span *o;
	int64_t ts, unused;

	if (event_time(t, v, 0, &ts, &unused) != 0)
		return;
	make_key(t, thr, 2);
	st = open_stack(&t->begins, &t->key);
	if (begin) {
		push_open(t, st, v, ts);
		return;
	}
	if (st->n == 0) {
		bad_input(&bad, &t->pos, "end event without a begin event");
		return;
	}
	o = &st->v[--st->n];
	emit(t, v[K_PID], v[K_TID], zslice(o->name), zslice(o->cat),
	    o->start, ts, zslice(o->args));
	free_open(o);
}

static int
id_ok(struct nd_slice v)
{
	enum nd_type ty = nd_type(v);

	return v.p != NULL && (ty == ND_NUMBER || ty == ND_STRING);
}

/* The text of a raw JSON string or number without its quotes. */
static void
add_inner(struct strbuf *sb, struct nd_slice v)
{
	if (v.p == NULL)
		return;
	if (v.len >= 2 && v.p[0] == '"')
		strbuf_add(sb, v.p + 1, v.len - 2);
	else
		strbuf_add(sb, v.p, v.len);
}

/*
 * b/e (and the older S/F) pairs match on (pid, cat, id, name) and nest in
 * their own lane: tid "async:<cat>:<id>".
 */
static void
async_event(struct trace *t, const struct nd_slice *v, int begin)
{
	static const char *const id2_keys[2] = { "local", "global" };
	struct nd_slice id = v[K_ID], id2[2], parts[4];
	struct strbuf lane = STRBUF_INIT;
	struct open_stack *st;
	struct open_span *o;
	int64_t ts, unused;

	/* Perfetto writes "id2": {"local": ...} or {"global": ...}. */
	if (id.p == NULL && nd_type(v[K_ID2]) == ND_OBJECT &&
	    nd_fields(v[K_ID2].p, v[K_ID2].len, id2_keys, id2, 2) > 0)
		id = id2[0].p != NULL ? id2[0] : id2[1];
	if (!id_ok(id)) {
		bad_input(&bad, &t->pos, "async event without an \"id\"");
		return;
	}
	parts[0] = v[K_PID];
	parts[1] = v[K_CAT];
	parts[2] = id;
	parts[3] = v[K_NAME];
	if (event_time(t, v, 0, &ts, &unused) != 0)
		return;
	make_key(t, parts, 4);
	st = open_stack(&t->asyncs, &t->key);
	if (begin) {
		push_open(t, st, v, ts);
		return;
	}
	if (st->n == 0) {
		bad_input(&bad, &t->pos, "async end event without a begin "
		    "event");
		return;
	}
	o = &st->v[--st->n];
	strbuf_addstr(&lane, "\"async:");
	add_inner(&lane, v[K_CAT]);
	strbuf_addch(&lane, ':');
	add_inner(&lane, id);
	strbuf_addch(&lane, '"');
	emit(t, v[K_PID], zslice(lane.buf), zslice(o->name), zslice(o->cat),
	    o->start, ts, zslice(o->args));
	free_open(o);
	strbuf_release(&lane);
}

/* Reports a malformed event at the line where it went wrong. */
static void
bad_json(struct trace *t, struct nd_slice ev)
{
	const char *msg = nd_error(), *at = strstr(msg, " at column ");
	struct srcpos pos = t->pos;
	size_t col, i;

	/* cut() does not count newlines inside strings: only bad events
	 * have them, so the count is put right here. */
	t->line = t->pos.line;
	for (i = 0; i < ev.len; i++)
		t->line += ev.p[i] == '\n';
	if (at == NULL || sscanf(at, " at column %zu", &col) != 1 ||
	    col > ev.len + 1) {
		bad_input(&bad, &pos, "%s", msg);
		return;
	}
	for (i = 0; i + 1 < col; i++)
		pos.line += ev.p[i] == '\n';
	bad_input(&bad, &pos, "%.*s", (int)(at - msg), msg);
}

static void
handle_event(struct trace *t, struct nd_slice ev)
{
	struct nd_slice v[K_N];
	int64_t start, end;
	char ph;

	count.events++;
	if (nd_fields(ev.p, ev.len, event_keys, v, K_N) < 0) {
		bad_json(t, ev);
		return;
	}
	if (v[K_PH].p == NULL || v[K_PH].len != 3 || v[K_PH].p[0] != '"') {
		bad_input(&bad, &t->pos, "event without a one-letter \"ph\"");
		return;
	}
	ph = v[K_PH].p[1];
	if (strchr("XBEbeSF", ph) != NULL) {
		if (!id_ok(v[K_PID]) || !id_ok(v[K_TID])) {
			bad_input(&bad, &t->pos, "event without \"pid\" and "
			    "\"tid\"");
			return;
		}
		if ((v[K_NAME].p != NULL && nd_type(v[K_NAME]) != ND_STRING) ||
		    (v[K_CAT].p != NULL && nd_type(v[K_CAT]) != ND_STRING)) {
			bad_input(&bad, &t->pos, "\"name\" or \"cat\" is not "
			    "a string");
			return;
		}
	}
	switch (ph) {
	case 'X':
		if (event_time(t, v, 1, &start, &end) == 0)
			emit(t, v[K_PID], v[K_TID], v[K_NAME], v[K_CAT], start,
			    end, v[K_ARGS]);
		break;
	case 'B': case 'E':
		sync_event(t, v, ph == 'B');
		break;
	case 'b': case 'S': case 'e': case 'F':
		async_event(t, v, ph == 'b' || ph == 'S');
		break;
	case 'M':
		count.meta++;
		meta_event(t, v);
		break;
	case 'i': case 'I': case 'n':
		count.instant++;
		break;
	case 'C':
		count.counter++;
		break;
	case 's': case 't': case 'f':
		count.flow++;
		break;
	default:
		count.other++;
		break;
	}
}

/* A problem with the document's structure (silent in the names pass). */
static void PRINTF_LIKE(2, 3)
doc_warn(struct trace *t, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (t->names_only)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	t->pos.line = t->line;
	warn_at(&t->pos, "%s", msg);
}

/*
 * Reads the elements of the traceEvents array, whose '[' is consumed.
 * Returns 0 after the closing ']', or -1 when the input ends first.
 */
static int
events(struct trace *t)
{
	struct nd_slice ev;
	int c, need_comma = 0;

	for (;;) {
		if ((c = peek(t)) < 0)
			return -1;
		t->pos.line = t->line;
		if (c == ']') {
			take(t);
			return 0;
		}
		if (c == ',') {
			take(t);
			if (!need_comma && !t->names_only)
				bad_input(&bad, &t->pos, "unexpected ','");
			need_comma = 0;
			continue;
		}
		if (need_comma && !t->names_only)
			bad_input(&bad, &t->pos, "expected ',' between events");
		if (cut(t, 1, &ev) != 0)
			return -1;
		need_comma = 1;
		handle_event(t, ev);
		if ((count.events & 4095) == 0 && !t->names_only)
			progress_update(count.events, progress_bytes);
	}
}

/* One member of the top-level object; its key is at buf[start]. */
static int
member(struct trace *t, int *found)
{
	struct nd_slice k, v;
	int c, is_events, is_base;

	if (cut(t, 1, &k) != 0)
		return -1;
	if (nd_type(k) != ND_STRING) {
		doc_warn(t, "expected a key in the top-level object");
		return -2;
	}
	is_events = nd_str_eq(k, "traceEvents", 11);
	is_base = nd_str_eq(k, "baseTimeNanoseconds", 19);
	if ((c = peek(t)) != ':') {
		if (c >= 0)
			doc_warn(t, "expected ':' in the top-level object");
		return c < 0 ? -1 : -2;
	}
	take(t);
	if ((c = peek(t)) < 0)
		return -1;
	if (is_events && c == '[') {
		take(t);
		if (opt.absolute && !t->have_base && !t->names_only) {
			doc_warn(t, "--absolute: no \"baseTimeNanoseconds\" "
			    "before \"traceEvents\"");
			return -2;
		}
		*found = 1;
		return events(t);
	}
	if (cut(t, is_base, &v) != 0)
		return -1;
	if (is_base && nd_val_i64(v, &t->base) == 0)
		t->have_base = 1;
	return 0;
}

/*
 * Walks one document: an object with a traceEvents array, or a bare
 * array of events.  Returns 0, or -1 after a message.
 */
static int
document(struct trace *t)
{
	int c, found = 0, rc = 0;

	if ((c = peek(t)) < 0)
		return 0;		/* empty input: no events */
	take(t);
	if (c == '[') {
		found = 1;
		rc = events(t);
	} else if (c == '{') {
		while ((c = peek(t)) >= 0 && c != '}') {
			if (c == ',')
				take(t);
			else if ((rc = member(t, &found)) != 0)
				break;
		}
		if (c < 0)
			rc = -1;
		else if (c == '}')
			take(t);
	} else {
		doc_warn(t, "not a trace-event JSON document (it starts with "
		    "neither '{' nor '[')");
		return -1;
	}
	if (rc == -2)
		return -1;
	if (!found) {
		doc_warn(t, "no \"traceEvents\" array");
		return -1;
	}
	if (rc == -1 && !t->names_only) {
		t->pos.line = t->line;
		if (opt.strict)
			bad_input(&bad, &t->pos, "trace is cut off");
		warn_at(&t->pos, "trace is cut off: kept the events before "
		    "the end of the input");
	} else if (peek(t) >= 0) {
		doc_warn(t, "trailing characters after the document");
		return -1;
	}
	return 0;
}

/* Drops the B and b events still open at the end, with a count. */
static void
close_open(struct trace *t, struct hmap *h)
{
	struct hmap_ent *e;
	unsigned long n = 0, first = 0;
	size_t i;

	hmap_foreach(h, e) {
		struct open_stack *st = e->val;

		for (i = 0; i < st->n; i++) {
			if (first == 0 || st->v[i].line < first)
				first = st->v[i].line;
			free_open(&st->v[i]);
			n++;
		}
		free(st->v);
		free(st);
	}
	hmap_release(h);
	if (n > 0 && !t->names_only) {
		t->pos.line = first;
		warn_at(&t->pos, "dropped %lu begin event%s that never ended "
		    "(the first is here)", n, n == 1 ? "" : "s");
	}
}

/*
 * The thread_name event around the string at buf[start + hit], if there
 * is one: back up to the '{' that opens the object around it and read
 * that.  Returns where the search goes on, relative to start.
 */
static size_t
name_event(struct trace *t, size_t hit)
{
	const char *base = t->buf + t->start;
	struct nd_slice ev, v[K_N];
	size_t q = hit, len;
	int depth = 0;

	while (q-- > 0) {
		char c = base[q];

		if (c == '}' || c == ']')
			depth++;
		else if ((c == '{' || c == '[') && depth-- == 0)
			break;
	}
	if (q == (size_t)-1 || base[q] != '{')
		return hit + 1;
	t->start += q;
	if (cut(t, 1, &ev) != 0)
		return 0;
	len = ev.len;
	if (q + len > hit && nd_fields(ev.p, ev.len, event_keys, v, K_N) >= 0 &&
	    nd_str_eq(v[K_PH], "M", 1))
		meta_event(t, v);
	return q + len > hit ? 0 : hit - q - len + 1;
}

/*
 * The names pass over a regular file: finds each "thread_name" string
 * with memmem and reads the metadata event around it.  A window of
 * NAMES_BACK bytes before the search point is kept for backing up, so
 * memory stays flat and the pass costs little more than reading.
 */
#define NAMES_BACK 65536

static void
names_scan(struct trace *t)
{
	static const char needle[] = "\"thread_name\"";
	const size_t m = sizeof(needle) - 1;
	size_t off = 0, avail, keep;
	char *h;

	for (;;) {
		avail = t->end - t->start;
		h = off < avail ? memmem(t->buf + t->start + off, avail - off,
		    needle, m) : NULL;
		if (h != NULL) {
			off = name_event(t, (size_t)(h - t->buf - t->start));
			continue;
		}
		keep = avail < NAMES_BACK ? avail : NAMES_BACK;
		t->start = t->end - keep;
		off = keep >= m ? keep - m + 1 : 0;
		if (fill(t) == 0)
			return;
	}
}

/* Reads one file; with names_only, only its thread_name events. */
static int
trace_stream(const char *path, struct hmap *names, int names_only)
{
	struct trace t;
	int rc = EXIT_SUCCESS;

	memset(&t, 0, sizeof(t));
	if (zin_open(&t.in, path) != 0) {
		if (!names_only)
			warn_errno("cannot open '%s'", path);
		return EXIT_FAILURE;
	}
	t.pos.file = t.in.name;
	t.line = 1;
	t.names = names;
	t.names_only = names_only;
	t.cap = (size_t)1 << 20;
	if ((t.buf = malloc(t.cap)) == NULL)
		die("out of memory");
	hmap_init(&t.begins, 16);
	hmap_init(&t.asyncs, 16);
	strbuf_init(&t.key, 64);
	if (names_only)
		names_scan(&t);
	else if (document(&t) != 0 || t.read_error)
		rc = EXIT_FAILURE;
	close_open(&t, &t.begins);
	close_open(&t, &t.asyncs);
	strbuf_release(&t.key);
	free(t.buf);
	zin_close(&t.in);
	return rc;
}

/*
 * Reads one file.  Kineto writes the thread names at the end, so a
 * regular file is first read for them alone; a pipe has only the names
 * that come before the spans.
 */
static int
trace_file(const char *path)
{
	struct hmap names;
	struct hmap_ent *e;
	struct stat st;
	int rc;

	hmap_init(&names, 16);
	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
	    S_ISREG(st.st_mode))
		trace_stream(path, &names, 1);
	rc = trace_stream(path, &names, 0);
	hmap_foreach(&names, e)
		free(e->val);
	hmap_release(&names);
	return rc;
}

/* The one-line summary of what was not written as spans. */
static void
summary(void)
{
	struct strbuf sb = STRBUF_INIT;
	const struct { uint64_t n; const char *what; } parts[] = {
		{ count.instant, "instant" }, { count.counter, "counter" },
		{ count.flow, "flow" }, { count.meta, "metadata" },
		{ count.other, "other" },
	};
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].n > 0)
			strbuf_addf(&sb, "%s%llu %s", sb.len ? ", " : "",
			    (unsigned long long)parts[i].n, parts[i].what);
	if (sb.len > 0)
		warn("%llu events, %llu span%s written; skipped %s events",
		    (unsigned long long)count.events,
		    (unsigned long long)count.spans, count.spans == 1 ? "" :
		    "s", sb.buf);
	if (count.noname > 0)
		warn("%llu span%s without a name written as \"unknown\"",
		    (unsigned long long)count.noname, count.noname == 1 ? "" :
		    "s");
	strbuf_release(&sb);
}

int
main(int argc, char *argv[])
{
	enum { OPT_ABSOLUTE = 256, OPT_NO_PROGRESS, OPT_PROGRESS, OPT_STRICT,
	    OPT_VERSION, OPT_WHERE };
	static const struct option longopts[] = {
		{ "absolute", no_argument, NULL, OPT_ABSOLUTE },
		{ "args", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "output", required_argument, NULL, 'o' },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "where", required_argument, NULL, OPT_WHERE },
		{ NULL, 0, NULL, 0 }
	};
	struct ofile of;
	int ch, rc = EXIT_SUCCESS;

	prog_init(argv[0]);
	while ((ch = getopt_long(argc, argv, "aho:", longopts, NULL)) != -1)
		switch (ch) {
		case 'a': opt.args = 1; break;
		case 'h': usage(EXIT_SUCCESS); break;
		case 'o': opt.out = optarg; break;
		case OPT_ABSOLUTE: opt.absolute = 1; break;
		case OPT_NO_PROGRESS: opt.progress = PROGRESS_OFF; break;
		case OPT_PROGRESS: opt.progress = PROGRESS_ON; break;
		case OPT_STRICT: opt.strict = 1; break;
		case OPT_VERSION: opt_version(); break;
		case OPT_WHERE: opt.where = optarg; break;
		default: usage(EXIT_USAGE); break;
		}
	argc -= optind;
	argv += optind;
	bad.strict = opt.strict;
	if (opt.where != NULL)
		where = jqf_compile(opt.where);
	out = ofile_open(&of, opt.out);
	ndw_init(&w, 0);
	progress_init(opt.progress, "events");
	if (argc == 0)
		rc = trace_file("-");
	for (; argc > 0; argc--, argv++)
		if (trace_file(argv[0]) != EXIT_SUCCESS)
			rc = EXIT_FAILURE;
	progress_done();
	summary();
	if (bad_input_finish(&bad) != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	ndw_release(&w);
	if (where != NULL)
		jqf_free(where);
	if (ofile_close(&of) != 0)
		rc = EXIT_FAILURE;
	return close_stdout() != 0 ? EXIT_FAILURE : rc;
}

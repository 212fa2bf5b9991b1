#define _GNU_SOURCE	/* memmem */
/*
 * events.c: one trace event to spans: X events at once, B/E and b/e pairs
 * through stacks of open events, thread_name metadata into the names.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "jqf.h"
#include "nd.h"
#include "ndw.h"
#include "progress.h"
#include "strbuf.h"
#include "zin.h"
#include "xmem.h"

#include "trace2spans.h"

/*
 * Converts a JSON number of microseconds (decimal text, maybe with a
 * fraction and an exponent) to integer nanoseconds, exactly: the digits are
 * shifted, never multiplied as a double.  A part below one nanosecond is
 * rounded half away from zero.  A string holding such a number (as
 * torch_npu writes "ts") reads the same.  Returns 0, or -1 if v is not a
 * number or the result does not fit in 64 bits.
 */
static int
us_to_ns_slow(struct nd_slice v, int64_t *res)
{
	const char *p = v.p, *end = v.p + v.len;
	char dig[64];
	size_t nd = 0, i;
	long point = 0, e = 0;
	int neg = 0, esign = 1, seen = 0, digits = 0;
	uint64_t x = 0;

	if (p == NULL || p == end)
		return -1;
	if (*p == '"' && v.len >= 2) {	/* no escapes: digits only */
		p++;
		end--;
	}
	if (p < end && *p == '-')
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

/*
 * us_to_ns() for what Kineto writes: digits, and maybe a point and one to
 * three digits, at most 15 digits before it (so the result fits); the
 * rest goes to us_to_ns_slow().
 */
static int
us_to_ns(struct nd_slice v, int64_t *res)
{
	const char *p = v.p, *end = v.p + v.len;
	int64_t x = 0;
	int frac = 3;

	if (v.len == 0 || v.len > 19)
		return us_to_ns_slow(v, res);
	for (; p < end && *p >= '0' && *p <= '9'; p++)
		x = x * 10 + (*p - '0');
	if (p == v.p || p - v.p > 15)
		return us_to_ns_slow(v, res);
	if (p < end && *p == '.' && end - p >= 2 && end - p <= 4) {
		for (p++; p < end && *p >= '0' && *p <= '9'; p++, frac--)
			x = x * 10 + (*p - '0');
	}
	if (p != end)
		return us_to_ns_slow(v, res);
	for (; frac > 0; frac--)
		x *= 10;
	*res = x;
	return 0;
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
	s = xmalloc(v.len + 1);
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

/* --args: each named member of args that is there, under its own name. */
static void
named_args(struct t2s *x, struct nd_slice args)
{
	struct nd_slice v[32];
	size_t i, n = x->opt.narg_keys;

	if (nd_fields(args.p, args.len, x->opt.arg_keys, v, n) <= 0)
		return;
	for (i = 0; i < n; i++)
		if (v[i].p != NULL)
			ndw_raw(&x->w, x->opt.arg_keys[i], v[i].p, v[i].len);
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
	struct t2s *x = t->x;
	struct nd_slice thr[2] = { pid, tid };
	void **tn;

	if (t->have_base && x->opt.absolute &&
	    (__builtin_add_overflow(start, t->base, &start) ||
	    __builtin_add_overflow(end, t->base, &end))) {
		t2s_bad(t, "time out of range with --absolute");
		return;
	}
	ndw_begin(&x->w);
	ndw_raw(&x->w, "pid", pid.p, pid.len);
	ndw_raw(&x->w, "tid", tid.p, tid.len);
	if (name.p != NULL)
		ndw_raw(&x->w, "name", name.p, name.len);
	else {
		ndw_strz(&x->w, "name", "unknown");
		x->count.noname++;
	}
	if (cat.p != NULL)
		ndw_raw(&x->w, "cat", cat.p, cat.len);
	ndw_i64(&x->w, "start_ns", start);
	ndw_i64(&x->w, "end_ns", end);
	make_key(t, thr, 2);
	tn = hmap_get(t->names, t->key.buf, t->key.len);
	if (tn != NULL)
		ndw_raw(&x->w, "thread_name", *tn, strlen(*tn));
	if (x->opt.narg_keys > 0 && nd_type(args) == ND_OBJECT)
		named_args(x, args);
	if (x->opt.args && args.p != NULL)
		ndw_raw(&x->w, "args", args.p, args.len);
	if (x->opt.run != NULL)
		ndw_str(&x->w, "run", x->opt.run, x->opt.runlen);
	ndw_end(&x->w);
	if (jqf_keep(x->where, x->w.buf.buf, x->w.buf.len, &x->bad,
	    &t->pos) != 1)
		return;
	if (ndw_emit(&x->w, x->out) != 0)
		die_errno("write error");
	x->count.spans++;
}

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
		t2s_bad(t, "%s \"ts\"", v[K_TS].p == NULL ?
		    "event without" : "bad number in");
		return -1;
	}
	if (need_dur && (v[K_DUR].p == NULL || us_to_ns(v[K_DUR], &dur) != 0)) {
		t2s_bad(t, "%s \"dur\"", v[K_DUR].p == NULL ?
		    "complete event without" : "bad number in");
		return -1;
	}
	if (__builtin_add_overflow(*start, dur, end)) {
		t2s_bad(t, "\"ts\" + \"dur\" out of range");
		return -1;
	}
	return 0;
}

static struct open_stack *
open_stack(struct hmap *h, struct strbuf *key)
{
	void **slot = hmap_put(h, key->buf, key->len);

	if (*slot == NULL)
		*slot = xcalloc(1, sizeof(struct open_stack));
	return *slot;
}

static void
push_open(struct trace *t, struct open_stack *st, const struct nd_slice *v,
    int64_t start)
{
	struct open_span *o;

	XGROW(st->v, st->n + 1, st->alloc);
	o = &st->v[st->n++];
	o->start = start;
	o->name = dup_slice(v[K_NAME]);
	o->cat = dup_slice(v[K_CAT]);
	o->args = t->x->opt.args || t->x->opt.narg_keys > 0 ?
	    dup_slice(v[K_ARGS]) : NULL;
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
		t2s_bad(t, "end event without a begin event");
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
 * Drops the stacks of async ids that have nothing open, so that memory
 * follows the async events open at once, not all the ids ever seen.
 */
static void
compact_asyncs(struct trace *t)
{
	struct hmap fresh;
	struct hmap_ent *e;

	hmap_init(&fresh, t->async_open * 2 + 16);
	hmap_foreach(&t->asyncs, e) {
		struct open_stack *st = e->val;

		if (st->n > 0)
			*hmap_put(&fresh, e->key, e->len) = st;
		else {
			free(st->v);
			free(st);
		}
	}
	hmap_release(&t->asyncs);
	t->asyncs = fresh;
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
		t2s_bad(t, "async event without an \"id\"");
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
		t->async_open++;
		return;
	}
	if (st->n == 0) {
		t2s_bad(t, "async end event without a begin "
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
	if (--t->async_open * 4 < t->asyncs.n && t->asyncs.n > 4096)
		compact_asyncs(t);
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
		bad_input(&t->x->bad, &pos, "%s", msg);
		return;
	}
	for (i = 0; i + 1 < col; i++)
		pos.line += ev.p[i] == '\n';
	bad_input(&t->x->bad, &pos, "%.*s", (int)(at - msg), msg);
}

void
handle_event(struct trace *t, struct nd_slice ev)
{
	struct nd_slice v[K_N];

	if (t->names_only) {	/* the names pass: metadata events alone */
		if (memmem(ev.p, ev.len, "\"thread_name\"", 13) != NULL)
			meta_scan(t, ev);
		return;
	}
	if (nd_fields(ev.p, ev.len, event_keys, v, K_N) < 0) {
		t->x->count.events++;
		bad_json(t, ev);
		return;
	}
	handle_fields(t, v);
}

/* The checks every timed event must pass; 0 if it does. */
static int
timed_ok(struct trace *t, const struct nd_slice *v)
{
	if (!id_ok(v[K_PID]) || !id_ok(v[K_TID])) {
		t2s_bad(t, "event without \"pid\" and \"tid\"");
		return -1;
	}
	if ((v[K_NAME].p != NULL && nd_type(v[K_NAME]) != ND_STRING) ||
	    (v[K_CAT].p != NULL && nd_type(v[K_CAT]) != ND_STRING)) {
		t2s_bad(t, "\"name\" or \"cat\" is not a string");
		return -1;
	}
	return 0;
}

void
handle_fields(struct trace *t, const struct nd_slice *v)
{
	int64_t start, end;
	char ph;

	t->x->count.events++;
	if (v[K_PH].p == NULL || v[K_PH].len != 3 || v[K_PH].p[0] != '"') {
		t2s_bad(t, "event without a one-letter \"ph\"");
		return;
	}
	ph = v[K_PH].p[1];
	if (strchr("XBEbeSF", ph) != NULL && timed_ok(t, v) != 0)
		return;
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
		t->x->count.meta++;
		meta_event(t, v);
		break;
	case 'i': case 'I': case 'n':
		t->x->count.instant++;
		break;
	case 'C':
		t->x->count.counter++;
		break;
	case 's': case 't': case 'f':
		t->x->count.flow++;
		break;
	default:
		t->x->count.other++;
		break;
	}
}

/* Drops the B and b events still open at the end, with a count. */
void
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

/* Reads the metadata event ev if it is one (the names pass). */
void
meta_scan(struct trace *t, struct nd_slice ev)
{
	struct nd_slice v[K_N];

	if (nd_fields(ev.p, ev.len, event_keys, v, K_N) >= 0 &&
	    nd_str_eq(v[K_PH], "M", 1))
		meta_event(t, v);
}

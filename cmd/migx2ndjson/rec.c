/*
 * rec.c: the record writer of migx2ndjson: the members every record
 * starts with, and records through --where to the output.
 */
#include <limits.h>
#include <string.h>

#include "err.h"
#include "jqf.h"
#include "ndw.h"
#include "strbuf.h"

#include "migx.h"

void
rec_begin(struct migx *mx, const char *type, struct run *r, unsigned long line)
{
	size_t tn = strlen(type);	/* ours: plain */
	char *d;

	ndw_begin(&mx->w);
	d = ndw_reserve(&mx->w, tn + 64);
	LIT(d, "\"type\":\"");
	memcpy(d, type, tn);
	d += tn;
	LIT(d, "\",\"run\":");
	d = ndw_put_u64(d, (unsigned long)r->num);
	LIT(d, ",\"line\":");
	d = ndw_put_u64(d, line);
	ndw_commit(&mx->w, d);
	if (mx->opt.label != NULL)
		ndw_strz(&mx->w, "label", mx->opt.label);
}

/*
 * A number that is mostly one more than the last time (a line number, a
 * seq): its digits are kept and counted up in place.
 */
struct counter {
	unsigned long v;
	size_t len;		/* 0: not set yet */
	char txt[32];		/* the digits, txt[0..len) */
};

/*
 * Writes v at d (room for 32 bytes) and returns the end of its digits.
 * The kept digits are copied out before they are counted up, and the
 * count is done on both copies: a wide load of bytes just stored one at
 * a time would wait for those stores (a store-forwarding stall).
 */
static inline char *
put_counter(char *d, struct counter *c, unsigned long v)
{
	size_t i;

	if (c->len > 0 && c->v != ULONG_MAX && v == c->v + 1) {
		memcpy(d, c->txt, 32);
		for (i = c->len; i > 0 && c->txt[i - 1] == '9'; i--)
			c->txt[i - 1] = d[i - 1] = '0';
		if (i > 0) {
			d[i - 1] = ++c->txt[i - 1];
			c->v = v;
			return d + c->len;
		}
	}
	/* Not set, not one more, or one digit more. */
	c->len = (size_t)(ndw_put_u64(c->txt, v) - c->txt);
	c->v = v;
	memcpy(d, c->txt, 32);
	return d + c->len;
}

void
rec_begin_instr(struct migx *mx, struct run *r, int perf, unsigned long seq)
{
	static struct counter line, seqs[2];
	char *d;

	ndw_begin(&mx->w);
	d = ndw_reserve(&mx->w, 160);
	LIT(d, "\"type\":\"instruction\",\"run\":");
	if (r->num >= 0 && r->num < 10)		/* the usual: one digit */
		*d++ = (char)('0' + r->num);
	else
		d = ndw_put_u64(d, (unsigned long)r->num);
	LIT(d, ",\"line\":");
	d = put_counter(d, &line, mx->pos.line);
	if (mx->opt.label != NULL) {
		ndw_commit(&mx->w, d);
		ndw_strz(&mx->w, "label", mx->opt.label);
		d = ndw_reserve(&mx->w, 64);
	}
	if (perf)
		LIT(d, ",\"section\":\"perf\",\"seq\":");
	else
		LIT(d, ",\"section\":\"program\",\"seq\":");
	d = put_counter(d, &seqs[perf != 0], seq);
	ndw_commit(&mx->w, d);
}

void
rec_flags(struct migx *mx, unsigned flags)
{
	static const char *const names[] = { "glued", "truncated",
	    "wrapped", "fork_spacing", "indented", "nospace" };
	size_t i;

	if (flags == 0)
		return;
	ndw_arr(&mx->w, "flags");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (flags & (1u << i))
			ndw_str(&mx->w, NULL, names[i], strlen(names[i]));
	ndw_close(&mx->w);
}

void
rec_emit(struct migx *mx)
{
	mx->records++;
	if (mx->where == NULL) {
		ndw_finish(&mx->w, mx->out);
		return;
	}
	ndw_end(&mx->w);
	if (jqf_keep(mx->where, ndw_record(&mx->w), ndw_record_len(&mx->w),
	    &mx->bad, &mx->pos) == 1)
		ndw_emit(&mx->w, mx->out);
}

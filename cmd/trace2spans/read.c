#define _GNU_SOURCE	/* memmem */
/*
 * read.c: walks a trace-event JSON document as a stream: the top level
 * token by token, and each element of the traceEvents array cut out whole
 * by bracket counting, to be parsed on its own by handle_event() (in the
 * names pass, for its thread_name metadata alone).
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
#include "sniff.h"
#include "strbuf.h"
#include "zin.h"
#include "xmem.h"

#include "trace2spans.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
	XGROW(t->buf, t->end + 1, t->cap);
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
	t->fills++;
	t->x->progress_bytes += (uint64_t)got;
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

static const unsigned char cut_str[256] = { ['"'] = 1, ['\\'] = 1 };

/*
 * The inside of an array or object, from p[i], strings and all, in one
 * loop: returns the index after the bracket that closes it (depth 0), or
 * CUT_MORE with the state kept when it goes on past n.
 */
static size_t
cut_inside(const char *p, size_t i, size_t n, struct cutst *s)
{
	unsigned char c;

	for (;;) {
		while (i < n && !cut_in[(unsigned char)p[i]])
			i++;
		if (i >= n)
			return CUT_MORE;
		c = (unsigned char)p[i++];
		if (c == '"') {
			for (;;) {
				while (i < n && !cut_str[(unsigned char)p[i]])
					i++;
				if (i >= n) {
					s->in_str = 1;
					return CUT_MORE;
				}
				if (p[i++] == '"')
					break;
				if (i >= n) {	/* a backslash at the end */
					s->in_str = s->esc = 1;
					return CUT_MORE;
				}
				i++;
			}
		} else if (c == '{' || c == '[')
			s->depth++;
		else if (c == '}' || c == ']') {
			if (--s->depth == 0)
				return i;
		} else
			s->lines++;	/* '\n' */
	}
}

#ifdef __SSE2__
/* The bits of the 64 bytes in b[] that equal c. */
static inline uint64_t
eq64(const __m128i b[4], char c)
{
	__m128i k = _mm_set1_epi8(c);

	return (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b[0], k)) |
	    (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b[1], k)) <<
	    16 |
	    (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b[2], k)) <<
	    32 |
	    (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b[3], k)) <<
	    48;
}

/* Bit j set when an odd number of bits at or below j are set in q. */
static inline uint64_t
prefix_xor(uint64_t q)
{
	q ^= q << 1;
	q ^= q << 2;
	q ^= q << 4;
	q ^= q << 8;
	q ^= q << 16;
	q ^= q << 32;
	return q;
}

/* The set bits of m (a few: the loop is shorter than a table). */
static inline int
bits(uint64_t m)
{
	int n = 0;

	for (; m != 0; m &= m - 1)
		n++;
	return n;
}

/*
 * Where the bracket that closes depth 1 is among the bits of open and
 * close (in order), or -1 (with s->depth updated) when it is not there.
 */
static int
depth_zero(uint64_t open, uint64_t close, struct cutst *s)
{
	uint64_t m = open | close;
	int j, d = s->depth;

	if (bits(close) < d) {
		s->depth = d + bits(open) - bits(close);
		return -1;
	}
	for (; m != 0; m &= m - 1) {
		j = __builtin_ctzll(m);
		d += (int)(open >> j & 1) * 2 - 1;
		if (d == 0) {
			s->depth = 0;
			return j;
		}
	}
	s->depth = d;
	return -1;
}

/*
 * cut_inside()'s work 64 bytes at a time, from p[i] inside an array or
 * object, on blocks that hold no backslash: the quotes give the bytes
 * inside strings (a running XOR), and the brackets outside them the depth
 * ('{' and '[', '}' and ']' differ in the bit 0x20 alone).  Returns where
 * it stopped: after the bracket that closes depth 1 (with s->depth 0), or
 * at a block it leaves to the byte loop.
 */
static size_t
cut_blocks(const char *p, size_t i, size_t n, struct cutst *s)
{
	const __m128i x20 = _mm_set1_epi8(0x20);
	__m128i b[4], c[4];
	uint64_t in, open, close, nl;
	int j;

	for (; n - i >= 64 && !s->esc; i += 64) {
		for (j = 0; j < 4; j++) {
			b[j] = _mm_loadu_si128((const __m128i *)(p + i) + j);
			c[j] = _mm_or_si128(b[j], x20);
		}
		if (eq64(b, '\\') != 0)
			break;
		in = prefix_xor(eq64(b, '"')) ^ (s->in_str ? ~(uint64_t)0 : 0);
		open = eq64(c, '{') & ~in;
		close = eq64(c, '}') & ~in;
		nl = eq64(b, '\n') & ~in;
		if ((j = depth_zero(open, close, s)) >= 0) {
			s->lines += (unsigned long)bits(nl &
			    (((uint64_t)2 << j) - 1));
			s->in_str = 0;
			return i + (size_t)j + 1;
		}
		s->lines += (unsigned long)bits(nl);
		s->in_str = (int)(in >> 63);
	}
	return i;
}
#endif

/* cut_scan() a byte at a time, from p[i] to p[n]. */
static size_t
cut_bytes(const char *p, size_t i, size_t n, struct cutst *s)
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
			i = cut_inside(p, i, n, s);
			if (i == CUT_MORE || s->depth == 0)
				return i;
			continue;
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
 * Finds the end of the value that starts at p[0] and continues to p[n],
 * resuming at p[i].  Returns the length of the value, or CUT_MORE when it
 * goes on past n.  A stray ',', ':' or closing bracket is a value of one
 * byte (the caller reports it).
 */
static size_t
cut_scan(const char *p, size_t i, size_t n, struct cutst *s)
{
	size_t lim, r;

	while (i < n) {
		lim = n;
#ifdef __SSE2__
		if (s->depth == 0 && !s->in_str && !s->scalar &&
		    (p[i] == '{' || p[i] == '[')) {
			s->depth = 1;	/* what cut_bytes() does with it */
			i++;
			continue;
		}
		if (s->depth > 0) {
			if (!s->esc) {
				i = cut_blocks(p, i, n, s);
				if (s->depth == 0)
					return i;
			}
			if (n - i > 64)		/* a block with a backslash */
				lim = i + 64;
		}
#endif
		if ((r = cut_bytes(p, i, lim, s)) != CUT_MORE)
			return r;
		i = lim;
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

/* The largest event fast_event() is given before cut() takes over. */
#define FAST_MAX ((size_t)1 << 20)

/*
 * Reads the event object at buf[start] with fast_event(), reading more
 * while it goes on past the bytes there.  Returns 0 when it is handled,
 * -1 when cut() and handle_event() must read it (nothing is consumed).
 */
static int
fast(struct trace *t)
{
	struct nd_slice v[K_N];
	unsigned long lines;
	ssize_t len;

	while ((len = fast_event(t->buf + t->start, t->end - t->start, v,
	    &lines)) == FAST_MORE)
		if (t->end - t->start >= FAST_MAX || fill(t) == 0)
			return -1;
	if (len < 0)
		return -1;
	t->start += (size_t)len;
	t->line += lines;
	handle_fields(t, v);
	return 0;
}

/*
 * Whether the event ev may be a thread_name event (the names pass):
 * whether "thread_name" with its quotes is in it.  The text is searched
 * once for all the events up to the next place it is found, not once an
 * event.
 */
static int
names_in(struct trace *t, struct nd_slice ev)
{
	static const char needle[] = "\"thread_name\"";
	size_t at = (size_t)(ev.p - t->buf), n = sizeof(needle) - 1;
	const char *q;

	if (t->tn_fills != t->fills || t->tn_at < at) {
		q = memmem(ev.p, t->end - at, needle, n);
		t->tn_at = q != NULL ? (size_t)(q - t->buf) : t->end;
		t->tn_fills = t->fills;
	}
	return t->tn_at + n <= at + ev.len;
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
				t2s_bad(t, "unexpected ','");
			need_comma = 0;
			continue;
		}
		if (need_comma && !t->names_only)
			t2s_bad(t, "expected ',' between events");
		need_comma = 1;
		if (t->names_only) {
			if (cut(t, 1, &ev) != 0)
				return -1;
			if (names_in(t, ev))
				handle_event(t, ev);
		} else if (c != '{' || fast(t) != 0) {
			if (cut(t, 1, &ev) != 0)
				return -1;
			handle_event(t, ev);
		}
		if ((t->x->count.events & 4095) == 0 && !t->names_only)
			progress_update(t->x->count.events,
			    t->x->progress_bytes);
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
		if (t->x->opt.absolute && !t->have_base && !t->names_only) {
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
 * Refuses an input whose first line (as far as it has been read) is
 * another kind: a database, CSV, folded stacks or NDJSON records.
 */
static void
sniff_first(const struct trace *t)
{
	const char *p = t->buf + t->start, *nl;
	size_t len = t->end - t->start;

	if ((nl = memchr(p, '\n', len)) != NULL)
		len = (size_t)(nl - p);
	sniff_check(t->pos.file, p, len, SNIFF_BIT(SNIFF_SQLITE) |
	    SNIFF_BIT(SNIFF_BINARY) | SNIFF_BIT(SNIFF_CSV) |
	    SNIFF_BIT(SNIFF_FOLDED) | SNIFF_BIT(SNIFF_SPANS) |
	    SNIFF_BIT(SNIFF_STACKS) | SNIFF_BIT(SNIFF_DISPATCH) |
	    SNIFF_BIT(SNIFF_MIGX) | SNIFF_BIT(SNIFF_METRICS),
	    "trace2spans reads Chrome trace-event JSON");
}

/*
 * Walks one document: an object with a traceEvents array, or a bare
 * array of events.  Returns 0, or -1 after a message.
 */
int
document(struct trace *t)
{
	int c, found = 0, rc = 0;

	if ((c = peek(t)) < 0)
		return 0;		/* empty input: no events */
	if (c == 0xEF && t->end - t->start >= 3 &&
	    memcmp(t->buf + t->start, "\xEF\xBB\xBF", 3) == 0) {
		t->start += 3;		/* a UTF-8 byte order mark */
		if ((c = peek(t)) < 0)
			return 0;
	}
	sniff_first(t);
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
		if (t->x->opt.com.strict)
			t2s_bad(t, "trace is cut off");
		warn_at(&t->pos, "trace is cut off: kept the events before "
		    "the end of the input");
	} else if (peek(t) >= 0) {
		doc_warn(t, "trailing characters after the document");
		return -1;
	}
	return 0;
}

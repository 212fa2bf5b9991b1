/* ndw.c: the NDJSON writer. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "ndw.h"
#include "utf8.h"

static void plain_init(void);

void
ndw_init(struct ndw *w, unsigned flags)
{
	plain_init();
	strbuf_init(&w->buf, flags & NDW_BATCH ? 65536 + 4096 : 256);
	w->start = 0;
	w->flags = flags;
	w->depth = 0;
	w->need_comma = 0;
}

void
ndw_release(struct ndw *w)
{
	strbuf_release(&w->buf);
}

static const char hexdig[] = "0123456789abcdef";

static void
add_u(struct strbuf *sb, unsigned c)
{
	char e[6] = { '\\', 'u', hexdig[(c >> 12) & 15], hexdig[(c >> 8) & 15],
	    hexdig[(c >> 4) & 15], hexdig[c & 15] };

	strbuf_add(sb, e, 6);
}

/*
 * Bytes written as they are: printable ASCII other than '"' and '\\'
 * (plain[0]), and in HTML-safe mode also not '<', '>' or '&' (plain[1]).
 */
static unsigned char plain[2][256];

static void
plain_init(void)
{
	int c;

	if (plain[0]['a'])
		return;
	for (c = 0x20; c < 0x80; c++)
		plain[0][c] = plain[1][c] = c != '"' && c != '\\';
	plain[1]['<'] = plain[1]['>'] = plain[1]['&'] = 0;
}

/*
 * Does the word x hold a byte that is not plain[0]: below 0x20, 0x80 or
 * above, '"' or '\\'?  (Each test is exact about whether any byte
 * matches, which is all that is asked.)
 */
static inline uint64_t
word_special(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101u, high = ones * 0x80;
	uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');

	return (x | ((x - ones * 0x20) & ~x) | ((q - ones) & ~q) |
	    ((b - ones) & ~b)) & high;
}

/*
 * The first byte of p[0..end) that is not plain: sixteen bytes at a time
 * (SSE2: a signed compare with 0x20 also catches 0x80 and above), else
 * eight, outside HTML-safe mode (most strings have nothing to escape).
 */
static inline const unsigned char *
plain_end(const unsigned char *p, const unsigned char *end, int html)
{
	uint64_t x;

	if (!html) {
#ifdef __SSE2__
		const __m128i sp = _mm_set1_epi8(0x20), q = _mm_set1_epi8('"'),
		    bs = _mm_set1_epi8('\\');
		__m128i v;
		int m;

		for (; end - p >= 16; p += 16) {
			v = _mm_loadu_si128((const __m128i *)(const void *)p);
			m = _mm_movemask_epi8(_mm_or_si128(_mm_cmplt_epi8(v, sp),
			    _mm_or_si128(_mm_cmpeq_epi8(v, q),
			    _mm_cmpeq_epi8(v, bs))));
			if (m != 0)
				return p + __builtin_ctz((unsigned)m);
		}
#endif
		for (; end - p >= 8; p += 8) {
			memcpy(&x, p, 8);
			if (word_special(x) != 0)
				break;
		}
	}
	while (p < end && plain[html][*p])
		p++;
	return p;
}

int
ndw_plain(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	plain_init();
	return plain_end(p, p + len, 0) == p + len;
}

void
ndw_quote(struct strbuf *sb, const char *s, size_t len, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + len, *run;
	int html = (flags & NDW_HTML_SAFE) != 0;
	size_t n;
	unsigned c;

	plain_init();
	run = plain_end(p, end, html);
	if (sb->alloc - sb->len <= len + 2)
		strbuf_grow(sb, len + 2);
	if (run == end) {	/* the usual case: nothing to escape */
		char *d = sb->buf + sb->len;

		*d++ = '"';
		memcpy(d, s, len);
		d[len] = '"';
		d[len + 1] = '\0';
		sb->len += len + 2;
		return;
	}
	strbuf_addch(sb, '"');
	while (p < end) {
		run = p;
		p = plain_end(p, end, html);
		if (p > run) {
			/* The grow above left room for plain text. */
			if (sb->alloc - sb->len > (size_t)(p - run)) {
				memcpy(sb->buf + sb->len, run, (size_t)(p - run));
				sb->len += (size_t)(p - run);
				sb->buf[sb->len] = '\0';
			} else
				strbuf_add(sb, run, (size_t)(p - run));
		}
		if (p >= end)
			break;
		c = *p;
		if (c >= 0x80) {
			if ((n = utf8_len(p, (size_t)(end - p))) == 0) {
				strbuf_add(sb, "\xEF\xBF\xBD", 3);
				p++;
			} else if (html && n == 3 && p[0] == 0xE2 &&
			    p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9)) {
				add_u(sb, p[2] == 0xA8 ? 0x2028 : 0x2029);
				p += 3;
			} else {
				strbuf_add(sb, p, n);
				p += n;
			}
			continue;
		}
		switch (c) {
		case '"': strbuf_add(sb, "\\\"", 2); break;
		case '\\': strbuf_add(sb, "\\\\", 2); break;
		case '\n': strbuf_add(sb, "\\n", 2); break;
		case '\t': strbuf_add(sb, "\\t", 2); break;
		case '\r': strbuf_add(sb, "\\r", 2); break;
		case '\b': strbuf_add(sb, "\\b", 2); break;
		case '\f': strbuf_add(sb, "\\f", 2); break;
		default: add_u(sb, c); break;
		}
		p++;
	}
	strbuf_addch(sb, '"');
}

static int nonfinite_null;

void
ndw_nonfinite_null(int on)
{
	nonfinite_null = on;
}

void
ndw_fmt_f64(struct strbuf *sb, double v)
{
	char buf[40];
	int prec;

	if (nonfinite_null && !isfinite(v)) {
		strbuf_add(sb, "null", 4);
		return;
	}
	if (isnan(v)) {
		strbuf_add(sb, "\"nan\"", 5);
		return;
	}
	if (isinf(v)) {
		strbuf_addstr(sb, v > 0 ? "\"inf\"" : "\"-inf\"");
		return;
	}
	if (v == 0) {
		strbuf_addstr(sb, signbit(v) ? "-0" : "0");
		return;
	}
	/*
	 * Any decimal of up to 15 digits (DBL_DIG) survives a trip through
	 * a normal double, so %.15g already gives the shortest form when it
	 * has 15 digits or fewer.  A subnormal has fewer bits: its search
	 * starts at one digit (5e-324, not 4.94065645841247e-324).
	 */
	for (prec = fabs(v) < DBL_MIN ? 1 : 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	strbuf_addstr(sb, buf);
}

void
ndw_fmt_i64(struct strbuf *sb, int64_t v)
{
	if (v < 0) {
		strbuf_addch(sb, '-');
		ndw_fmt_u64(sb, (uint64_t)0 - (uint64_t)v);
	} else
		ndw_fmt_u64(sb, (uint64_t)v);
}

void
ndw_fmt_i128(struct strbuf *sb, ndw_int128 v)
{
	__extension__ typedef unsigned __int128 u128;
	u128 u = v < 0 ? (u128)0 - (u128)v : (u128)v;
	char tmp[40], *t = tmp + sizeof(tmp);

	if (u <= UINT64_MAX) {		/* the usual case: 64 bits */
		if (v < 0)
			strbuf_addch(sb, '-');
		ndw_fmt_u64(sb, (uint64_t)u);
		return;
	}
	do
		*--t = (char)('0' + (int)(u % 10));
	while ((u /= 10) != 0);
	if (v < 0)
		*--t = '-';
	strbuf_add(sb, t, (size_t)(tmp + sizeof(tmp) - t));
}

void
ndw_i128(struct ndw *w, const char *key, ndw_int128 v)
{
	ndw_key(w, key);
	ndw_fmt_i128(&w->buf, v);
}

void
ndw_fmt_raw(struct strbuf *sb, const char *json, size_t len, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)json;
	const char *esc;
	size_t i, start = 0;

	if (!(flags & NDW_HTML_SAFE)) {
		strbuf_add(sb, json, len);
		return;
	}
	for (i = 0; i < len; i++) {
		if (p[i] == '<')
			esc = "\\u003c";
		else if (p[i] == '>')
			esc = "\\u003e";
		else if (p[i] == '&')
			esc = "\\u0026";
		else if (p[i] == 0xe2 && i + 2 < len && p[i + 1] == 0x80 &&
		    (p[i + 2] == 0xa8 || p[i + 2] == 0xa9))
			esc = p[i + 2] == 0xa8 ? "\\u2028" : "\\u2029";
		else
			continue;
		strbuf_add(sb, json + start, i - start);
		strbuf_add(sb, esc, 6);
		if (p[i] == 0xe2)
			i += 2;
		start = i + 1;
	}
	strbuf_add(sb, json + start, len - start);
}

/*
 * Writes the separator and the key of the next member: a plain key (the
 * usual case) is copied as it is, in one step.
 */
void
ndw_member(struct ndw *w, const char *key)
{
	const unsigned char *k = (const unsigned char *)key;
	const unsigned char *tab = plain[(w->flags & NDW_HTML_SAFE) != 0];
	struct strbuf *sb = &w->buf;
	size_t n;
	char *d;

	if (key == NULL) {
		if (w->need_comma)
			strbuf_addch(sb, ',');
		w->need_comma = 1;
		return;
	}
	for (n = 0; tab[k[n]]; n++)
		;
	if (k[n] != '\0') {
		if (w->need_comma)
			strbuf_addch(sb, ',');
		ndw_quote(sb, key, strlen(key), w->flags);
		strbuf_addch(sb, ':');
		w->need_comma = 1;
		return;
	}
	if (sb->alloc - sb->len <= n + 4)
		strbuf_grow(sb, n + 4);
	d = sb->buf + sb->len;
	if (w->need_comma)
		*d++ = ',';
	*d++ = '"';
	memcpy(d, key, n);
	d += n;
	*d++ = '"';
	*d++ = ':';
	*d = '\0';
	sb->len = (size_t)(d - sb->buf);
	w->need_comma = 1;
}

void
ndw_begin(struct ndw *w)
{
	struct strbuf *sb = &w->buf;

	if (sb->alloc > w->start + 1) {	/* the usual case: in place */
		sb->buf[w->start] = '{';
		sb->buf[w->start + 1] = '\0';
		sb->len = w->start + 1;
	} else {
		strbuf_setlen(sb, w->start);
		strbuf_addch(sb, '{');
	}
	w->kinds[0] = '{';
	w->depth = 1;
	w->need_comma = 0;
}

void
ndw_end(struct ndw *w)
{
	while (w->depth > 0)
		ndw_close(w);
}

int
ndw_emit(struct ndw *w, FILE *fp)
{
	strbuf_addch(&w->buf, '\n');
	w->start = w->buf.len;
	if ((w->flags & NDW_BATCH) && w->start < 65536)
		return 0;
	return ndw_flush(w, fp);
}

int
ndw_flush(struct ndw *w, FILE *fp)
{
	size_t n = w->start;
	int rc = n > 0 && fwrite(w->buf.buf, 1, n, fp) != n ? -1 : 0;

	w->start = 0;
	strbuf_setlen(&w->buf, 0);
	return rc;
}


void
ndw_strz(struct ndw *w, const char *key, const char *s)
{
	ndw_str(w, key, s, strlen(s));
}


void
ndw_f64(struct ndw *w, const char *key, double v)
{
	ndw_key(w, key);
	ndw_fmt_f64(&w->buf, v);
}




struct strbuf *
ndw_value(struct ndw *w, const char *key)
{
	ndw_key(w, key);
	return &w->buf;
}

static void
open_container(struct ndw *w, const char *key, char open)
{
	if (w->depth >= NDW_MAX_DEPTH)
		die("ndw: nesting deeper than %d", NDW_MAX_DEPTH);
	ndw_key(w, key);
	strbuf_addch(&w->buf, open);
	w->kinds[w->depth++] = open;
	w->need_comma = 0;
}

void
ndw_obj(struct ndw *w, const char *key)
{
	open_container(w, key, '{');
}

void
ndw_arr(struct ndw *w, const char *key)
{
	open_container(w, key, '[');
}

void
ndw_close(struct ndw *w)
{
	if (w->depth <= 0)
		return;
	strbuf_addch(&w->buf, w->kinds[w->depth - 1] == '[' ? ']' : '}');
	w->depth--;
	w->need_comma = 1;
}

/*
 * ndw.h: an NDJSON writer (after git's json-writer).
 *
 * ndw is how the toolkit writes JSON: every record, and the data blocks of
 * the HTML pages, come out of these functions, so the rules below hold
 * for all of them.  A record is built in w->buf with ndw_begin(), members,
 * ndw_end(), and written with ndw_emit().  key is NULL for array elements.
 * Members with plain keys (printable ASCII, no '"' or '\\') and integers
 * take a fast path without printf: the producers write millions of
 * records through it.
 *
 * What it is not: not a parser (nd.h reads), not a validator (ndw_raw()
 * and ndw_value() trust the caller to add one valid JSON value), and not a
 * pretty printer: there is no indentation, and members come out in the
 * order they are added, with no check for repeated keys.  It does not own
 * the output stream: ndw_emit() writes one record to the caller's FILE.
 *
 * Rules (docs/formats.md): control characters, '"' and '\\' are escaped;
 * invalid UTF-8 bytes are written as U+FFFD; doubles are written in the
 * shortest form that reads back to the same value; NaN and infinities,
 * which JSON lacks, are written as the strings "nan", "inf" and "-inf".
 * With NDW_HTML_SAFE, '<', '>', '&', U+2028 and U+2029 are written as \u
 * escapes so the text can sit inside an HTML <script> element.
 */
#ifndef NDW_H
#define NDW_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "strbuf.h"

#define NDW_HTML_SAFE 1
/*
 * With NDW_BATCH, ndw_emit() keeps the records in w->buf and writes them
 * in blocks of about 64 KiB; ndw_flush() writes the rest.  The record
 * being built is then at w->buf.buf + w->start (see ndw_record()).
 */
#define NDW_BATCH 2
/*
 * With NDW_PLAIN_KEYS the caller promises that every key is plain (its
 * own literals): keys are copied without a look at their bytes, inline.
 */
#define NDW_PLAIN_KEYS 4
#define NDW_MAX_DEPTH 64

/* Integers of 128 bits: exact sums of 64-bit values (topn). */
__extension__ typedef __int128 ndw_int128;

struct ndw {
	struct strbuf buf;
	size_t start;		/* where the current record starts in buf */
	unsigned flags;
	int depth;
	int need_comma;
	char kinds[NDW_MAX_DEPTH];	/* '{' or '[' for each open level */
};

void ndw_init(struct ndw *w, unsigned flags);
void ndw_release(struct ndw *w);

void ndw_begin(struct ndw *w);			/* resets buf, opens '{' */
void ndw_end(struct ndw *w);			/* closes the top object */
int ndw_emit(struct ndw *w, FILE *fp);		/* record + '\n'; -1: error */
int ndw_flush(struct ndw *w, FILE *fp);		/* NDW_BATCH: the rest */
/* The current record (after ndw_end(): without its '\n'), for --where. */
#define ndw_record(w) ((w)->buf.buf + (w)->start)
#define ndw_record_len(w) ((w)->buf.len - (w)->start)

/* The separator and key of the next member (see ndw_key()). */
void ndw_member(struct ndw *w, const char *key);

/* ndw_member() with the NDW_PLAIN_KEYS fast path, inline. */
static inline void
ndw_key(struct ndw *w, const char *key)
{
	size_t n;
	char *d;

	if (key == NULL || !(w->flags & NDW_PLAIN_KEYS)) {
		ndw_member(w, key);
		return;
	}
	n = strlen(key);
	if (w->buf.alloc - w->buf.len <= n + 4)
		strbuf_grow(&w->buf, n + 4);
	d = w->buf.buf + w->buf.len;
	if (w->need_comma)
		*d++ = ',';
	*d++ = '"';
	memcpy(d, key, n);
	d += n;
	*d++ = '"';
	*d++ = ':';
	*d = '\0';
	w->buf.len = (size_t)(d - w->buf.buf);
	w->need_comma = 1;
}

static inline void ndw_str(struct ndw *w, const char *key, const char *s,
    size_t len);
void ndw_strz(struct ndw *w, const char *key, const char *s);
static inline void ndw_i64(struct ndw *w, const char *key, int64_t v);
static inline void ndw_u64(struct ndw *w, const char *key, uint64_t v);
void ndw_i128(struct ndw *w, const char *key, ndw_int128 v);
void ndw_f64(struct ndw *w, const char *key, double v);
static inline void ndw_bool(struct ndw *w, const char *key, int v);
static inline void ndw_null(struct ndw *w, const char *key);
/* Writes json, a valid JSON value, as it is (see ndw_fmt_raw()). */
static inline void ndw_raw(struct ndw *w, const char *key, const char *json,
    size_t len);
/*
 * Starts the member key and returns the buffer that the caller appends
 * exactly one JSON value to (for values built by another function, such
 * as a parsed shape); the next member follows it.
 */
struct strbuf *ndw_value(struct ndw *w, const char *key);
void ndw_obj(struct ndw *w, const char *key);	/* opens a nested '{' */
void ndw_arr(struct ndw *w, const char *key);	/* opens a nested '[' */
void ndw_close(struct ndw *w);			/* closes the innermost */

/* Appends s as a JSON string (with quotes) to sb under the rules above. */
void ndw_quote(struct strbuf *sb, const char *s, size_t len, unsigned flags);
/*
 * Is s plain: printable ASCII other than '"' and '\\', which ndw_quote()
 * copies as it is (outside NDW_HTML_SAFE)?  A producer that checks a whole
 * input line once can write every piece of it with ndw_str_plain().
 */
int ndw_plain(const char *s, size_t len);
/*
 * ndw_str() of a string known to be plain (ndw_plain()): no scan, and
 * always inline, so that a literal key costs no strlen().
 */
#ifdef __GNUC__
#define NDW_ALWAYS_INLINE __attribute__((always_inline))
#else
#define NDW_ALWAYS_INLINE
#endif
static inline NDW_ALWAYS_INLINE void ndw_str_plain(struct ndw *w,
    const char *key, const char *s, size_t len);
/* Appends the shortest round-trip form of v (or "nan"/"inf" quoted). */
void ndw_fmt_f64(struct strbuf *sb, double v);
/*
 * on != 0: from now on ndw_fmt_f64() writes NaN and the infinities as null
 * instead of the strings "nan", "inf" and "-inf", so that a column of
 * numbers stays numbers for readers that type columns (DuckDB, pandas):
 * --nonfinite null.  on == 0 goes back to the strings.
 */
void ndw_nonfinite_null(int on);
/* Appends v in decimal (inline: the producers' hot path). */
static inline void ndw_fmt_u64(struct strbuf *sb, uint64_t v);
void ndw_fmt_i64(struct strbuf *sb, int64_t v);
/* Appends v in decimal, every digit (-2^127 included). */
void ndw_fmt_i128(struct strbuf *sb, ndw_int128 v);
/*
 * Appends json, a valid JSON value; with NDW_HTML_SAFE, '<', '>', '&',
 * U+2028 and U+2029 (which valid JSON holds only inside strings) become
 * \u escapes.
 */
void ndw_fmt_raw(struct strbuf *sb, const char *json, size_t len,
    unsigned flags);

/* Writes v in decimal at d (room for 20 bytes) and returns its end. */
static inline char *
ndw_put_u64(char *d, uint64_t v)
{
	static const char pairs[] =
	    "00010203040506070809101112131415161718192021222324"
	    "25262728293031323334353637383940414243444546474849"
	    "50515253545556575859606162636465666768697071727374"
	    "75767778798081828384858687888990919293949596979899";
	uint64_t t = v;
	size_t n = 1;
	char *e;

	while (t >= 10000) {
		t /= 10000;
		n += 4;
	}
	n += (t >= 10) + (t >= 100) + (t >= 1000);
	e = d + n;
	while (v >= 100) {	/* two digits at a time, from the end */
		e -= 2;
		memcpy(e, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(e - 2, pairs + 2 * v, 2);
	else
		e[-1] = (char)('0' + v);
	return d + n;
}

static inline void
ndw_fmt_u64(struct strbuf *sb, uint64_t v)
{
	if (sb->alloc - sb->len <= 20)
		strbuf_grow(sb, 20);
	sb->len = (size_t)(ndw_put_u64(sb->buf + sb->len, v) - sb->buf);
	sb->buf[sb->len] = '\0';
}

/*
 * The raw path, for a producer that lays out a hot record itself:
 * ndw_reserve() makes room for n more bytes and returns where they go;
 * the producer writes whole members there (each after its ',', the first
 * of an object too unless it opened the object itself), then
 * ndw_commit() takes the bytes up to d into the record, as if they were
 * the members it added.  Nothing is checked: the bytes are valid JSON,
 * and at most n of them.
 */
static inline char *
ndw_reserve(struct ndw *w, size_t n)
{
	if (w->buf.alloc - w->buf.len <= n)
		strbuf_grow(&w->buf, n);
	return w->buf.buf + w->buf.len;
}

static inline void
ndw_commit(struct ndw *w, char *d)
{
	*d = '\0';
	w->buf.len = (size_t)(d - w->buf.buf);
	w->need_comma = 1;
}

/*
 * ndw_end() then ndw_emit(), with the usual case (only the top object
 * open) inline: the record's '}' and '\n' in one step.
 */
static inline int
ndw_finish(struct ndw *w, FILE *fp)
{
	char *d;

	if (w->depth != 1) {
		ndw_end(w);
		return ndw_emit(w, fp);
	}
	d = ndw_reserve(w, 2);
	d[0] = '}';
	d[1] = '\n';
	d[2] = '\0';
	w->buf.len += 2;
	w->depth = 0;
	w->need_comma = 1;
	w->start = w->buf.len;
	if ((w->flags & NDW_BATCH) && w->start < 65536)
		return 0;
	return ndw_flush(w, fp);
}


static inline void
ndw_i64(struct ndw *w, const char *key, int64_t v)
{
	ndw_key(w, key);
	ndw_fmt_i64(&w->buf, v);
}

static inline void
ndw_u64(struct ndw *w, const char *key, uint64_t v)
{
	ndw_key(w, key);
	ndw_fmt_u64(&w->buf, v);
}

static inline void
ndw_str(struct ndw *w, const char *key, const char *s, size_t len)
{
	ndw_key(w, key);
	ndw_quote(&w->buf, s, len, w->flags);
}

static inline NDW_ALWAYS_INLINE void
ndw_str_plain(struct ndw *w, const char *key, const char *s, size_t len)
{
	char *d;

	if (w->flags & NDW_HTML_SAFE) {
		ndw_str(w, key, s, len);
		return;
	}
	ndw_key(w, key);
	if (w->buf.alloc - w->buf.len <= len + 2)
		strbuf_grow(&w->buf, len + 2);
	d = w->buf.buf + w->buf.len;
	*d++ = '"';
	memcpy(d, s, len);
	d[len] = '"';
	d[len + 1] = '\0';
	w->buf.len += len + 2;
}

static inline void
ndw_raw(struct ndw *w, const char *key, const char *json, size_t len)
{
	ndw_key(w, key);
	if (w->flags & NDW_HTML_SAFE) {
		ndw_fmt_raw(&w->buf, json, len, w->flags);
		return;
	}
	if (w->buf.alloc - w->buf.len <= len)
		strbuf_grow(&w->buf, len);
	memcpy(w->buf.buf + w->buf.len, json, len);
	w->buf.len += len;
	w->buf.buf[w->buf.len] = '\0';
}

static inline void
ndw_bool(struct ndw *w, const char *key, int v)
{
	ndw_raw(w, key, v ? "true" : "false", v ? 4 : 5);
}

static inline void
ndw_null(struct ndw *w, const char *key)
{
	ndw_raw(w, key, "null", 4);
}

#endif

/*
 * nd.c: the NDJSON reader.  One pass over each line validates it against
 * RFC 8259 (with UTF-8 checked and surrogate escapes paired) and records
 * where the wanted keys' values are.  Nesting deeper than ND_MAX_DEPTH is
 * refused rather than recursed into.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "digits.h"
#include "nd.h"
#include "sniff.h"
#include "utf8.h"
#include "xmem.h"

#define ND_MAX_DEPTH 512

struct scan {
	const char *p, *beg, *end;
	int depth;
	int escaped;		/* the last string scanned had a backslash */
};

static char errbuf[160];

const char *
nd_error(void)
{
	return errbuf;
}

static int
fail(const struct scan *s, const char *what)
{
	snprintf(errbuf, sizeof(errbuf), "%s at column %zu", what,
	    (size_t)(s->p - s->beg) + 1);
	return -1;
}

/* 1 for bytes that end the fast path inside a string. */
static const unsigned char str_special[256] = {
	1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1, 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,
	0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0, 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
	0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0, 0,0,0,0,0,0,0,0,0,0,0,0,1,0,0,0,
	0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0, 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
	1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1, 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,
	1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1, 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,
	1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1, 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,
	1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1, 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,
};

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Reads 4 hex digits at p; returns the code unit or -1. */
static long
hex4(const char *p, const char *end)
{
	long v = 0;
	int i, h;

	if (end - p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		if ((h = hexval((unsigned char)p[i])) < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    defined(__GNUC__)
#define ND_SWAR 1	/* the first marked byte of a word is its lowest */
#endif

#ifdef __GNUC__
#define HOT inline __attribute__((always_inline))	/* the fast path's */
#else
#define HOT inline
#endif

#define ONES 0x0101010101010101ULL
#define HIGH 0x8080808080808080ULL

/*
 * The high bit of each of the 8 bytes at p that may end the fast path:
 * a quote, a backslash, a control character or a byte >= 0x80 (the
 * classic "has a zero byte" and "has a byte less than n" word tests).  A
 * borrow marks a byte only above one that is marked rightly, so the
 * lowest mark is exact.
 */
static HOT uint64_t
word_special(const unsigned char *p)
{
	uint64_t w, q, b;

	memcpy(&w, p, 8);
	q = w ^ (ONES * '"');
	b = w ^ (ONES * '\\');
	return (((q - ONES) & ~q) | ((b - ONES) & ~b) |
	    ((w - ONES * 0x20) & ~w) | w) & HIGH;
}

/* The first byte at or after p that str_special[] marks, or end. */
static HOT const unsigned char *
next_special(const unsigned char *p, const unsigned char *end)
{
	uint64_t m;
#ifdef __SSE2__
	/* 16 bytes at once; as signed bytes, >= 0x80 and < 0x20 are < 0x20. */
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	const __m128i space = _mm_set1_epi8(0x20);
	__m128i x;
	unsigned bits;

	while (end - p >= 16) {
		x = _mm_loadu_si128((const __m128i *)(const void *)p);
		bits = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash)),
		    _mm_cmplt_epi8(x, space)));
		if (bits != 0)
			return p + __builtin_ctz(bits);
		p += 16;
	}
#endif
	while (end - p >= 8) {
		if ((m = word_special(p)) != 0) {
#ifdef ND_SWAR
			return p + (__builtin_ctzll(m) >> 3);
#else
			break;
#endif
		}
		p += 8;
	}
	while (p < end && !str_special[*p])
		p++;
	return p;
}

/*
 * The first byte at or after p that is not a decimal digit, or end.  A
 * byte is marked when its value xor '0' is 10 or more: adding 0x76 to the
 * low 7 bits sets the high bit from 10 on and never carries out.
 */
static HOT const char *
skip_digits(const char *p, const char *end)
{
#ifdef __SSE2__
	/* 16 bytes at once: a digit minus '0' is at most 9 unsigned. */
	const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
	__m128i t;
	unsigned bits;

	while (end - p >= 16) {
		t = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)
		    p), zero);
		bits = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		    _mm_max_epu8(t, nine), nine)) & 0xFFFF;
		if (bits != 0)
			return p + __builtin_ctz(bits);
		p += 16;
	}
#endif
#ifdef ND_SWAR
	uint64_t w, m;

	while (end - p >= 8) {
		memcpy(&w, p, 8);
		w ^= ONES * '0';
		if ((m = (((w & ~HIGH) + ONES * 0x76) | w) & HIGH) != 0)
			return p + (__builtin_ctzll(m) >> 3);
		p += 8;
	}
#endif
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return p;
}

/*
 * The length of the escape at p (a backslash), or 0 with *why set when it
 * is not a valid one.
 */
static size_t
escape_len(const unsigned char *p, const unsigned char *end,
    const char **why)
{
	long u, u2;

	if (p + 1 >= end) {
		*why = "unterminated string";
		return 0;
	}
	switch (p[1]) {
	case '"': case '\\': case '/': case 'b': case 'f':
	case 'n': case 'r': case 't':
		return 2;
	case 'u':
		break;
	default:
		*why = "invalid escape";
		return 0;
	}
	if ((u = hex4((const char *)p + 2, (const char *)end)) < 0) {
		*why = "invalid \\u escape";
		return 0;
	}
	if (u >= 0xDC00 && u <= 0xDFFF) {
		*why = "lone low surrogate";
		return 0;
	}
	if (u < 0xD800 || u > 0xDBFF)
		return 6;
	u2 = -1;
	if (end - p >= 12 && p[6] == '\\' && p[7] == 'u')
		u2 = hex4((const char *)p + 8, (const char *)end);
	if (u2 < 0xDC00 || u2 > 0xDFFF) {
		*why = "lone high surrogate";
		return 0;
	}
	return 12;
}

/*
 * Checks the string whose text starts at p (after the opening quote).
 * Returns its closing quote, or with *why set (it is NULL on entry) where
 * it goes wrong.  *escaped is set when the string has a backslash.
 */
static HOT const unsigned char *
string_end(const unsigned char *p, const unsigned char *end, int *escaped,
    const char **why)
{
	size_t n;

	for (;;) {
		if ((p = next_special(p, end)) >= end) {
			*why = "unterminated string";
			return p;
		}
		if (*p == '"')
			return p;
		if (*p == '\\') {
			*escaped = 1;
			n = escape_len(p, end, why);
		} else if (*p < 0x20) {
			*why = "control character in string";
			n = 0;
		} else if ((n = utf8_len(p, (size_t)(end - p))) == 0)
			*why = "invalid UTF-8";
		if (n == 0)
			return p;
		p += n;
	}
}

/* Scans a string; s->p is at the opening quote.  Leaves s->p after it. */
static int
scan_string(struct scan *s)
{
	const char *why = NULL;
	const unsigned char *q;

	s->escaped = 0;
	q = string_end((const unsigned char *)s->p + 1,
	    (const unsigned char *)s->end, &s->escaped, &why);
	s->p = (const char *)q;
	if (why != NULL)
		return fail(s, why);
	s->p++;
	return 0;
}

/*
 * Checks the number at p.  Returns its end, or with *why set where it
 * goes wrong.
 */
static HOT const char *
number_end(const char *p, const char *end, const char **why)
{
	if (p < end && *p == '-')
		p++;
	if (p >= end || *p < '0' || *p > '9')
		goto bad;
	if (*p == '0')
		p++;
	else
		p = skip_digits(p, end);
	if (p < end && *p == '.') {
		p++;
		if (p >= end || *p < '0' || *p > '9')
			goto bad;
		p = skip_digits(p, end);
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p >= end || *p < '0' || *p > '9')
			goto bad;
		p = skip_digits(p, end);
	}
	return p;
bad:
	*why = "invalid number";
	return p;
}

static int
scan_number(struct scan *s)
{
	const char *why = NULL;

	s->p = number_end(s->p, s->end, &why);
	return why != NULL ? fail(s, why) : 0;
}

static inline void
skip_ws(struct scan *s)
{
	while (s->p < s->end && (unsigned char)*s->p <= ' ' &&
	    (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

static int scan_value(struct scan *s);

static int
scan_literal(struct scan *s, const char *word, size_t n)
{
	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return fail(s, "invalid literal");
	s->p += n;
	return 0;
}

static int
scan_array(struct scan *s)
{
	s->p++;
	skip_ws(s);
	if (s->p < s->end && *s->p == ']') {
		s->p++;
		return 0;
	}
	for (;;) {
		if (scan_value(s) != 0)
			return -1;
		skip_ws(s);
		if (s->p >= s->end)
			return fail(s, "unterminated array");
		if (*s->p == ']') {
			s->p++;
			return 0;
		}
		if (*s->p != ',')
			return fail(s, "expected ',' or ']'");
		s->p++;
	}
}

/* Compares a scanned key (raw, between the quotes) with want. */
static int
key_eq(const char *raw, size_t rawlen, int escaped, const char *want)
{
	struct nd_slice v;
	size_t i;

	if (!escaped) {	/* keys are short: compare in line, stop early */
		for (i = 0; i < rawlen; i++)
			if (raw[i] != want[i])	/* also at want's end */
				return 0;
		return want[rawlen] == '\0';
	}
	v.p = raw - 1;
	v.len = rawlen + 2;
	return nd_str_eq(v, want, strlen(want));
}

/* The slot of a key of klen bytes at k in a key set's table. */
static HOT unsigned
key_hash(const char *k, size_t klen)
{
	if (klen == 0)
		return 0;
	return (unsigned)(klen + (unsigned char)k[0] * 5u +
	    (unsigned char)k[klen - 1] * 3u) & (ND_KEYS_SLOTS - 1);
}

/* The first 8 bytes (or fewer) of the n at p, as a word. */
static HOT uint64_t
key_head(const char *p, size_t n)
{
	uint64_t w = 0;

	memcpy(&w, p, n < 8 ? n : 8);
	return w;
}

void
nd_keys_init(struct nd_keys *ks, const char *const keys[], size_t n)
{
	size_t i;
	unsigned h;

	memset(ks, 0, sizeof(*ks));
	ks->keys = keys;
	ks->n = n;
	if (n > ND_KEYS_MAX)
		return;		/* too many for the table: looked up in turn */
	ks->table = 1;
	for (i = 0; i < n; i++) {
		ks->len[i] = strlen(keys[i]);
		ks->head[i] = key_head(keys[i], ks->len[i]);
		for (h = key_hash(keys[i], ks->len[i]); ks->slot[h] != 0;
		    h = (h + 1) & (ND_KEYS_SLOTS - 1))
			if (strcmp(keys[ks->slot[h] - 1], keys[i]) == 0)
				break;	/* a repeat: the first one fills */
		if (ks->slot[h] == 0)
			ks->slot[h] = (unsigned char)(i + 1);
	}
}

void
nd_keys_release(struct nd_keys *ks)
{
	free(ks->shape);
	free(ks->text);
	ks->shape = NULL;
	ks->text = NULL;
	ks->nshape = ks->shape_alloc = ks->text_len = ks->text_alloc = 0;
}

/* memcmp() == 0 for the few bytes of a key, without the call. */
static HOT int
bytes_eq(const char *a, const char *b, size_t n)
{
	while (n > 0 && *a == *b)
		a++, b++, n--;
	return n == 0;
}

/*
 * Do the first 8 bytes (or fewer) of key i of ks equal those at k?  In
 * one load of 8 bytes when that does not reach past end.
 */
static HOT int
key_head_eq(const struct nd_keys *ks, size_t i, const char *k, size_t klen,
    const char *end)
{
	uint64_t w;

	if (klen >= 8) {
		memcpy(&w, k, 8);
		return w == ks->head[i];
	}
#ifdef ND_SWAR
	if (end - k >= 8) {
		memcpy(&w, k, 8);
		return (w & ((1ULL << (klen * 8)) - 1)) == ks->head[i];
	}
#else
	(void)end;
#endif
	return key_head(k, klen) == ks->head[i];
}

/* The index in ks of a scanned key (raw, between the quotes), or -1. */
static HOT int
key_find(const struct nd_keys *ks, const char *k, size_t klen, int esc,
    const char *end)
{
	unsigned h, j;
	size_t i;

	if (ks->table && !esc) {
		for (h = key_hash(k, klen); (j = ks->slot[h]) != 0;
		    h = (h + 1) & (ND_KEYS_SLOTS - 1))
			if (ks->len[j - 1] == klen &&
			    key_head_eq(ks, j - 1, k, klen, end) &&
			    (klen <= 8 || bytes_eq(ks->keys[j - 1] + 8, k + 8,
			    klen - 8)))
				return (int)j - 1;
		return -1;
	}
	for (i = 0; i < ks->n; i++) {
		/* An unescaped key with another first byte cannot match. */
		if (!esc && klen > 0 && k[0] != ks->keys[i][0])
			continue;
		if (key_eq(k, klen, esc, ks->keys[i]))
			return (int)i;	/* keys[] are distinct */
	}
	return -1;
}

/*
 * Scans an object.  At depth 1 (the record itself), the values of the keys
 * in ks (NULL: none) are stored in vals[]; found counts them.
 */
static int
scan_object(struct scan *s, const struct nd_keys *ks, struct nd_slice vals[],
    int *found)
{
	const char *k, *v;
	size_t klen;
	int esc, i;

	s->p++;
	skip_ws(s);
	if (s->p < s->end && *s->p == '}') {
		s->p++;
		return 0;
	}
	for (;;) {
		skip_ws(s);
		if (s->p >= s->end || *s->p != '"')
			return fail(s, s->p >= s->end ? "unterminated object" :
			    "expected a string key");
		k = s->p + 1;
		if (scan_string(s) != 0)
			return -1;
		klen = (size_t)(s->p - 1 - k);
		esc = s->escaped;
		skip_ws(s);
		if (s->p >= s->end || *s->p != ':')
			return fail(s, "expected ':'");
		s->p++;
		skip_ws(s);
		v = s->p;
		if (scan_value(s) != 0)
			return -1;
		if (ks != NULL && (i = key_find(ks, k, klen, esc, s->end)) >= 0) {
			if (vals[i].p == NULL)
				(*found)++;
			vals[i].p = v;
			vals[i].len = (size_t)(s->p - v);
		}
		skip_ws(s);
		if (s->p >= s->end)
			return fail(s, "unterminated object");
		if (*s->p == '}') {
			s->p++;
			return 0;
		}
		if (*s->p != ',')
			return fail(s, "expected ',' or '}'");
		s->p++;
	}
}

static int
scan_value(struct scan *s)
{
	int rc, found = 0;

	skip_ws(s);
	if (s->p >= s->end)
		return fail(s, "unexpected end of input");
	switch (*s->p) {
	case '"':
		return scan_string(s);
	case '{':
	case '[':
		if (++s->depth > ND_MAX_DEPTH)
			return fail(s, "nesting too deep");
		rc = *s->p == '{' ? scan_object(s, NULL, NULL, &found) :
		    scan_array(s);
		s->depth--;
		return rc;
	case 't':
		return scan_literal(s, "true", 4);
	case 'f':
		return scan_literal(s, "false", 5);
	case 'n':
		return scan_literal(s, "null", 4);
	default:
		return scan_number(s);
	}
}

/*
 * The blanks of the fast path: space, tab and CR, not '\n', which ends a
 * line (a line never holds one, and the bytes of a stream end a record
 * there).  A record with a '\n' among its blanks is left to the full
 * scanner.
 */
static HOT const char *
line_blank_end(const char *p, const char *end)
{
	while (p < end && (unsigned char)*p <= ' ' && (*p == ' ' ||
	    *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/* The bits of the bytes of p[0..16) that equal those of t[0..16). */
#ifdef __SSE2__
static HOT unsigned
same16(const char *p, const char *t)
{
	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
	    _mm_loadu_si128((const __m128i *)(const void *)p),
	    _mm_loadu_si128((const __m128i *)(const void *)t)));
}
#endif

/*
 * Do the bytes at p (a separator) start with the n > 0 bytes at t, the
 * separator and key of a shape?  Up to 32 bytes in two compares of 16
 * and no branch on n, longer ones 16 bytes at a time, when that does not
 * read past end (t has 32 bytes to spare).
 */
static HOT int
shape_eq(const char *t, size_t n, const char *p, const char *end)
{
#ifdef __SSE2__
	uint32_t m, want;
	size_t i;

	if (n <= 32 && end - p >= 32) {
		m = same16(p, t) | same16(p + 16, t + 16) << 16;
		want = (uint32_t)((UINT64_C(1) << n) - 1);
		return (m & want) == want;
	}
	if ((size_t)(end - p) >= ((n + 15) & ~(size_t)15)) {
		for (i = 0; i + 16 <= n; i += 16)
			if (same16(p + i, t + i) != 0xFFFF)
				return 0;
		want = (1u << (n - i)) - 1;
		return i == n || (same16(p + i, t + i) & want) == want;
	}
#endif
	return (size_t)(end - p) >= n && memcmp(p, t, n) == 0;
}

/*
 * Learns member j of the record being read member by member: its
 * separator and key p[0..n) and the key's index.  The members from j on
 * of the layout before are dropped.  A member too long for a shape ends
 * the layout there (the members after it are not learned).
 */
static void
shape_learn(struct nd_keys *ks, size_t j, const char *p, size_t n, int key)
{
	struct nd_shape *sh;

	if (j < ks->nshape) {
		ks->text_len = ks->shape[j].off;
		ks->nshape = j;
	}
	if (j != ks->nshape || n > UINT16_MAX ||
	    ks->text_len + n > UINT32_MAX - 32)
		return;
	ks->shape = xgrow(ks->shape, &ks->shape_alloc, j + 1,
	    sizeof(*ks->shape));
	ks->text = xgrow(ks->text, &ks->text_alloc, ks->text_len + n + 32, 1);
	sh = &ks->shape[j];
	sh->off = (uint32_t)ks->text_len;
	sh->len = (uint16_t)n;
	sh->key = (int16_t)key;
	memcpy(ks->text + ks->text_len, p, n);
	ks->text_len += n;
	memset(ks->text + ks->text_len, 0, 32);
	ks->nshape++;
}

/*
 * Checks the member key after the separator at p ('{' or ','), up to
 * its ':'.  Returns the position after the ':' with *i set to the key's
 * index in ks (-1: not wanted), or NULL when it is not valid.  A '}'
 * right after the '{' is an empty object: *i is then -2.
 */
static const char *
member_key(const char *p, const char *end, struct nd_keys *ks, size_t j,
    int *i)
{
	const char *sep = p, *k, *why = NULL;
	int esc = 0;

	p = line_blank_end(p + 1, end);
	if (*sep == '{' && p < end && *p == '}') {
		*i = -2;
		return p;
	}
	if (p >= end || *p != '"')
		return NULL;
	k = p + 1;
	p = (const char *)string_end((const unsigned char *)k,
	    (const unsigned char *)end, &esc, &why);
	if (why != NULL)
		return NULL;
	*i = key_find(ks, k, (size_t)(p - k), esc, end);
	p = line_blank_end(p + 1, end);
	if (p >= end || *p != ':')
		return NULL;
	p++;
	if (ks->table)
		shape_learn(ks, j, sep, (size_t)(p - sep), *i);
	return p;
}

/*
 * The end of the nested value at p (its '{' or '['), which may reach
 * *endp, or NULL when it is not valid.  In a stream (*stream set) its
 * blanks may hold a '\n': the line is cut there first (*endp, and
 * *stream cleared).
 */
static const char *
nested_end(const char *p, const char **endp, int *stream)
{
	struct scan s;
	const char *nl;

	if (*stream) {
		if ((nl = memchr(p, '\n', (size_t)(*endp - p))) == NULL)
			return NULL;
		*endp = nl;
		*stream = 0;
	}
	s.p = p, s.beg = p, s.end = *endp, s.depth = 1, s.escaped = 0;
	return scan_value(&s) != 0 ? NULL : s.p;
}

/* The end of the literal true, false or null at p, or NULL. */
static const char *
literal_end(const char *p, const char *end)
{
	size_t n = *p == 'f' ? 5 : 4;

	if ((size_t)(end - p) < n || memcmp(p, *p == 't' ? "true" :
	    *p == 'f' ? "false" : "null", n) != 0)
		return NULL;
	return p + n;
}

/*
 * The record at p (its '{') when its members are laid out as those of
 * the records before it: member j's separator and key are the text of
 * shape j, its value right after the ':' and a ',' or the '}' right after
 * the value.  Sets vals[] (zero on entry), *rend after the '}', and
 * returns the number of keys found; -1 for any other record, which
 * fast_fields() then reads member by member.  An integer
 * without sign (the usual number) ends at its first byte that is not a
 * digit: a ',' that the next shape starts with, or the '}'; a '.' reads
 * it again as any number.  Before a nested value in a stream (*stream
 * set), the line is cut at its '\n', as fast_fields() does.
 */
static HOT int
known_fields(const char *p, const char **endp, int *stream,
    const struct nd_keys *ks, struct nd_slice vals[], const char **rend)
{
	const struct nd_shape *sh = ks->shape, *last;
	const char *v, *why = NULL, *end = *endp;
	int found = 0, esc, k;

	if (ks->nshape == 0)
		return -1;	/* no layout yet (shape is NULL) */
	last = sh + ks->nshape;
	for (; sh < last && shape_eq(ks->text + sh->off, sh->len, p, end);
	    sh++) {
		if ((v = p += sh->len) >= end)
			return -1;
		if ((unsigned char)(*p - '1') <= 8) {
			p = skip_digits(p + 1, end);
			if (p < end && *p == '.')
				p = number_end(v, end, &why);
		} else if (*p == '"') {
			p = (const char *)string_end((const unsigned char *)p +
			    1, (const unsigned char *)end, &esc, &why);
			if (why != NULL)	/* p may be end: no byte after */
				return -1;
			p++;
		} else if (*p == '-' || *p == '0')
			p = number_end(p, end, &why);
		else if (*p == '{' || *p == '[') {
			if ((p = nested_end(p, endp, stream)) == NULL)
				return -1;
			end = *endp;
		} else if ((p = literal_end(p, end)) == NULL)
			return -1;
		if ((k = sh->key) >= 0) {
			found += vals[k].p == NULL;
			vals[k].p = v;
			vals[k].len = (size_t)(p - v);
		}
	}
	if (why != NULL || p >= end || *p != '}' || sh == ks->shape)
		return -1;
	*rend = p + 1;
	return found;
}

/*
 * The fast path of nd_fields_keys(): the same checks as the full scanner
 * (scan_object() at depth 1) in one flat loop whose state stays in
 * registers, nested values left to scan_value().  Returns what
 * nd_fields_keys() does for a valid record; for any other, -1 without a
 * message: the full scanner then scans it again and says what is wrong.
 * The record starts at line; *endp is the end of the line, or with
 * stream set the end of the bytes at hand, of which the record is the
 * first line: a valid one then ends at the first '\n' after its '}' (no
 * string or blank before it holds one; before a nested value, the '\n'
 * is looked for and the line ends there).  *endp is set to the line's
 * end ('\n' in a stream) and *rend to the record's (after the '}').
 */
static int
fast_fields(const char *line, const char **endp, const char **rend,
    struct nd_keys *ks, struct nd_slice vals[], int stream)
{
	const char *p = line, *end = *endp, *v, *why = NULL;
	struct scan s;
	size_t j;
	int found = 0, i, missed = 0;

	if (ks->n > 0)
		memset(vals, 0, ks->n * sizeof(*vals));
	p = line_blank_end(p, end);
	if (p >= end || *p != '{')
		return -1;
	if (ks->table && ks->known_off == 0) {
		if ((found = known_fields(p, &end, &stream, ks, vals,
		    rend)) >= 0) {
			p = *rend;
			goto tail;
		}
		missed = 1;
		found = 0;
		memset(vals, 0, ks->n * sizeof(*vals));
	} else if (ks->table)
		ks->known_off--;
	for (j = 0;; j++) {
		/* p is at the '{' or ',' before member j. */
		if (ks->table && j < ks->nshape && shape_eq(ks->text +
		    ks->shape[j].off, ks->shape[j].len, p, end)) {
			i = ks->shape[j].key;
			p += ks->shape[j].len;
		} else if ((p = member_key(p, end, ks, j, &i)) == NULL)
			return -1;
		else if (i == -2) {
			p++;
			break;
		}
		v = p = line_blank_end(p, end);
		if (p >= end)
			return -1;
		switch (*p) {
		case '"':
			p = (const char *)string_end((const unsigned char *)p +
			    1, (const unsigned char *)end, &s.escaped, &why);
			p++;
			break;
		case '{': case '[':
			if ((p = nested_end(p, &end, &stream)) == NULL)
				return -1;
			break;
		case 't': case 'f': case 'n':
			if ((p = literal_end(p, end)) == NULL)
				return -1;
			break;
		default:
			p = number_end(p, end, &why);
		}
		if (why != NULL)
			return -1;
		if (i >= 0) {
			if (vals[i].p == NULL)
				found++;
			vals[i].p = v;
			vals[i].len = (size_t)(p - v);
		}
		if (p < end && *p == ',')
			continue;
		p = line_blank_end(p, end);
		if (p < end && *p == ',')
			continue;
		if (p < end && *p == '}') {
			p++;
			break;
		}
		return -1;
	}
	*rend = p;
	/* A valid record of another layout: read the next ones so too. */
	if (missed)
		ks->known_off = 16;
tail:
	p = line_blank_end(p, end);
	if (stream ? p >= end || *p != '\n' : p != end)
		return -1;
	*endp = p;
	return found;
}

int
nd_fields_keys(const char *line, size_t len, struct nd_keys *ks,
    struct nd_slice vals[])
{
	struct scan s = { line, line, line + len, 1, 0 };
	const char *end = line + len, *rend;
	size_t i;
	int found = 0;

	if ((found = fast_fields(line, &end, &rend, ks, vals, 0)) >= 0)
		return found;
	/* Not valid: scanned again for the message. */
	found = 0;
	for (i = 0; i < ks->n; i++) {
		vals[i].p = NULL;
		vals[i].len = 0;
	}
	skip_ws(&s);
	if (s.p >= s.end || *s.p != '{')
		return fail(&s, s.p >= s.end ? "empty record" :
		    "record is not a JSON object");
	if (scan_object(&s, ks, vals, &found) != 0)
		return -1;
	skip_ws(&s);
	if (s.p != s.end)
		return fail(&s, "trailing characters after the record");
	return found;
}

int
nd_fields(const char *line, size_t len, const char *const keys[],
    struct nd_slice vals[], size_t n)
{
	/* No table: looked up in turn, cheaper for one line than building. */
	struct nd_keys ks;

	ks.keys = keys;
	ks.n = n;
	ks.table = 0;
	return nd_fields_keys(line, len, &ks, vals);
}

int
nd_validate(const char *p, size_t len)
{
	struct scan s = { p, p, p + len, 0, 0 };

	if (scan_value(&s) != 0)
		return -1;
	skip_ws(&s);
	if (s.p != s.end)
		return fail(&s, "trailing characters");
	return 0;
}

int
nd_reader_open(struct nd_reader *r, const char *path)
{
	memset(r, 0, sizeof(*r));
	if (zin_open(&r->in, path) != 0)
		return -1;
	r->pos.file = r->in.name;
	r->pos.line = 0;
	return 0;
}

void
nd_reader_close(struct nd_reader *r)
{
	zin_close(&r->in);
}

void
nd_trim(const char **line, size_t *len, unsigned long lineno)
{
	const char *p = *line;
	size_t n = *len;

	/* The usual line: a record from its first byte to its last. */
	if (n > 0 && lineno != 1 && (unsigned char)p[0] > ' ' &&
	    (unsigned char)p[n - 1] > ' ')
		return;
	if (lineno == 1 && n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
		p += 3;		/* a UTF-8 byte order mark */
		n -= 3;
	}
	while (n > 0 && (*p == ' ' || *p == '\t' || *p == '\r')) {
		p++;
		n--;
	}
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' ||
	    p[n - 1] == '\r'))
		n--;
	*line = p;
	*len = n;
}

int
nd_read(struct nd_reader *r)
{
	const char *line;
	size_t len;
	int rc;

	for (;;) {
		if ((rc = zin_getline(&r->in, &line, &len)) <= 0)
			return rc;
		r->pos.line++;
		nd_trim(&line, &len, r->pos.line);
		if (len == 0)
			continue;
		r->line = line;
		r->len = len;
		r->no_newline = r->in.no_newline;
		return 1;
	}
}

/*
 * nd_read() and nd_fields_keys() of the next record, in one pass over the
 * bytes at hand when they hold a line that is one valid record from its
 * first byte (not line 1, which may start with a byte order mark): that
 * line is what nd_read() would return, the values what nd_fields_keys()
 * would find.  Any other line is read and scanned as usual.
 */
static int
nd_read_keys(struct nd_reader *r, struct nd_keys *ks, struct nd_slice vals[])
{
	const char *p, *end, *rend;
	size_t n;
	int rc;

	n = zin_peek(&r->in, &p);
	end = p + n;
	if (r->pos.line > 0 && n > 0 && *p == '{' &&
	    (rc = fast_fields(p, &end, &rend, ks, vals, 1)) >= 0) {
		zin_take(&r->in, (size_t)(end - p) + 1);
		r->pos.line++;
		r->line = p;
		r->len = (size_t)(rend - p);
		r->no_newline = 0;
		r->found = rc;
		return 1;
	}
	if ((rc = nd_read(r)) == 1)
		r->found = nd_fields_keys(r->line, r->len, ks, vals);
	return rc;
}

int
nd_each(const char *path, const struct nd_loop *l)
{
	return nd_each_keys(path, l, NULL, NULL);
}

int
nd_each_keys(const char *path, const struct nd_loop *l, struct nd_keys *ks,
    struct nd_slice vals[])
{
	struct nd_reader r;
	int rc, first = 1;

	if (nd_reader_open(&r, path) != 0) {
		warn_errno("cannot open '%s'", path);
		return -1;
	}
	while ((rc = ks != NULL ? nd_read_keys(&r, ks, vals) : nd_read(&r)) ==
	    1) {
		if (first)
			sniff_check(r.pos.file, r.line, r.len, l->refuse,
			    l->todo);
		first = 0;
		if (r.no_newline && (ks != NULL ? r.found :
		    nd_fields(r.line, r.len, NULL, NULL, 0)) < 0)
			bad_input(l->bad, &r.pos, "truncated last line");
		else
			l->fn(&r, l->arg);
	}
	if (rc < 0)
		warn("cannot read '%s': %s", r.pos.file, zin_error(&r.in));
	nd_reader_close(&r);
	return rc < 0 ? -1 : 0;
}

/* 1 for the bytes skip_value() stops at inside a container. */
static const unsigned char skip_stop[256] = {
	['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1,
};
/* 1 for the bytes that end a number or literal. */
static const unsigned char scalar_end[256] = {
	[','] = 1, ['}'] = 1, [']'] = 1, [' '] = 1, ['\t'] = 1, ['\n'] = 1,
	['\r'] = 1,
};

/*
 * Skips a valid string at p (its opening quote); returns the end.  A quote
 * closes it when an even number of backslashes precede it.
 */
static const char *
skip_string(const char *p, const char *end)
{
	const char *q, *b;

	for (p++; p < end; p = q + 1) {
		if ((q = memchr(p, '"', (size_t)(end - p))) == NULL)
			return end;
		for (b = q; b[-1] == '\\'; b--)
			;
		if (((q - b) & 1) == 0)
			return q + 1;
	}
	return end;
}

/* Skips one valid JSON value at p (no checks); returns the end. */
static const char *
skip_value(const char *p, const char *end)
{
	int depth = 0;

	do {
		switch (*p) {
		case '"':
			p = skip_string(p, end);
			break;
		case '{': case '[':
			depth++;
			p++;
			break;
		case '}': case ']':
			depth--;
			p++;
			break;
		default:
			if (depth == 0) {
				while (p < end && !scalar_end[(unsigned char)*p])
					p++;
				return p;
			}
			/* Numbers, literals, ',' and ':' inside a container. */
			while (p < end && !skip_stop[(unsigned char)*p])
				p++;
		}
	} while (depth > 0 && p < end);
	return p;
}

static const char *
skip_blank(const char *p, const char *end)
{
	while (p < end && (unsigned char)*p <= ' ' && (*p == ' ' ||
	    *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

int
nd_iter_init(struct nd_iter *it, struct nd_slice v)
{
	if (v.p != NULL)	/* a caller may pass a line with its blanks */
		nd_trim(&v.p, &v.len, 0);
	if (v.p == NULL || v.len < 2 || (v.p[0] != '{' && v.p[0] != '['))
		return -1;
	it->is_object = v.p[0] == '{';
	it->p = v.p + 1;
	it->end = v.p + v.len - 1;
	return 0;
}

int
nd_iter_next(struct nd_iter *it, struct nd_slice *key, struct nd_slice *val)
{
	const char *p = skip_blank(it->p, it->end);

	if (p < it->end && *p == ',')
		p = skip_blank(p + 1, it->end);
	if (p >= it->end)
		return 0;
	key->p = NULL;
	key->len = 0;
	if (it->is_object) {
		key->p = p;
		p = skip_string(p, it->end);
		key->len = (size_t)(p - key->p);
		p = skip_blank(p, it->end);
		p = skip_blank(p + 1, it->end);		/* ':' */
	}
	val->p = p;
	p = skip_value(p, it->end);
	val->len = (size_t)(p - val->p);
	it->p = p;
	return 1;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * Reads 8 decimal digits at p at once (SWAR, as in Lemire's fast number
 * parsing); returns -1 if one of the bytes is not a digit.
 */
static int
digits8(const char *p, uint64_t *out)
{
	uint64_t w;

	memcpy(&w, p, 8);
	if (!digits_all8(w))
		return -1;
	*out = digits_value8(w);
	return 0;
}
#else
static int
digits8(const char *p, uint64_t *out)
{
	uint64_t x = 0;
	int i;

	for (i = 0; i < 8; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		x = x * 10 + (uint64_t)(p[i] - '0');
	}
	*out = x;
	return 0;
}
#endif

int
nd_val_u64(struct nd_slice v, uint64_t *out)
{
	uint64_t x = 0, x8;
	size_t i;
	unsigned d;

	if (v.p == NULL || v.len == 0)
		return -1;
	/* 19 digits cannot overflow: check only from the 20th on. */
	for (i = 0; i + 8 <= v.len && i + 8 <= 19; i += 8) {
		if (digits8(v.p + i, &x8) != 0)
			return -1;
		x = x * 100000000 + x8;
	}
	for (; i < v.len && i < 19; i++) {
		d = (unsigned)(unsigned char)v.p[i] - '0';
		if (d > 9)
			return -1;
		x = x * 10 + d;
	}
	for (; i < v.len; i++) {
		d = (unsigned)(unsigned char)v.p[i] - '0';
		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*out = x;
	return 0;
}

int
nd_val_i64(struct nd_slice v, int64_t *out)
{
	struct nd_slice m = v;
	uint64_t x;
	int neg = 0;

	if (v.p == NULL || v.len == 0)
		return -1;
	if (v.p[0] == '-') {
		neg = 1;
		m.p++;
		m.len--;
	}
	if (nd_val_u64(m, &x) != 0)
		return -1;
	if (neg) {
		if (x > (uint64_t)INT64_MAX + 1)
			return -1;
		*out = x == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)x;
	} else {
		if (x > (uint64_t)INT64_MAX)
			return -1;
		*out = (int64_t)x;
	}
	return 0;
}

int
nd_val_f64(struct nd_slice v, double *out)
{
	char small[64], *buf = small, *end;
	int rc = 0;

	if (nd_type(v) != ND_NUMBER)
		return -1;
	if (v.len >= sizeof(small))
		buf = xmalloc(v.len + 1);
	memcpy(buf, v.p, v.len);
	buf[v.len] = '\0';
	errno = 0;
	*out = strtod(buf, &end);
	if (end != buf + v.len)
		rc = -1;
	if (buf != small)
		free(buf);
	return rc;
}

static void
put_utf8(struct strbuf *out, unsigned long c)
{
	char b[4];
	size_t n;

	if (c < 0x80) {
		b[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = (char)(0xC0 | (c >> 6));
		b[1] = (char)(0x80 | (c & 0x3F));
		n = 2;
	} else if (c < 0x10000) {
		b[0] = (char)(0xE0 | (c >> 12));
		b[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		b[2] = (char)(0x80 | (c & 0x3F));
		n = 3;
	} else {
		b[0] = (char)(0xF0 | (c >> 18));
		b[1] = (char)(0x80 | ((c >> 12) & 0x3F));
		b[2] = (char)(0x80 | ((c >> 6) & 0x3F));
		b[3] = (char)(0x80 | (c & 0x3F));
		n = 4;
	}
	strbuf_add(out, b, n);
}

int
nd_val_str(struct nd_slice v, struct strbuf *out)
{
	const char *p, *end, *run;
	long u, u2;

	if (nd_type(v) != ND_STRING || v.len < 2)
		return -1;
	p = v.p + 1;
	end = v.p + v.len - 1;
	while (p < end) {
		run = p;
		while (p < end && *p != '\\')
			p++;
		strbuf_add(out, run, (size_t)(p - run));
		if (p >= end)
			break;
		switch (p[1]) {
		case 'b': strbuf_addch(out, '\b'); break;
		case 'f': strbuf_addch(out, '\f'); break;
		case 'n': strbuf_addch(out, '\n'); break;
		case 'r': strbuf_addch(out, '\r'); break;
		case 't': strbuf_addch(out, '\t'); break;
		case 'u':
			u = hex4(p + 2, end);
			if (u < 0)
				return -1;
			if (u >= 0xD800 && u <= 0xDBFF && end - p >= 12 &&
			    p[6] == '\\' && p[7] == 'u' &&
			    (u2 = hex4(p + 8, end)) >= 0xDC00 && u2 <= 0xDFFF) {
				u = 0x10000 + ((u - 0xD800) << 10) +
				    (u2 - 0xDC00);
				p += 6;
			} else if (u >= 0xD800 && u <= 0xDFFF)
				u = 0xFFFD;
			put_utf8(out, (unsigned long)u);
			p += 4;
			break;
		default:
			strbuf_addch(out, p[1]);
			break;
		}
		p += 2;
	}
	return 0;
}

int
nd_str_eq(struct nd_slice v, const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	int eq;

	if (nd_type(v) != ND_STRING || v.len < 2)
		return 0;
	if (memchr(v.p, '\\', v.len) == NULL)
		return v.len - 2 == len && memcmp(v.p + 1, s, len) == 0;
	if (nd_val_str(v, &sb) != 0) {
		strbuf_release(&sb);
		return 0;
	}
	eq = sb.len == len && memcmp(sb.buf, s, len) == 0;
	strbuf_release(&sb);
	return eq;
}

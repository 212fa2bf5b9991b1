#define _GNU_SOURCE	/* memmem */
/* instr.c: one MIGraphX instruction text, parsed from the right. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "migx.h"

/* Length of the C++ number at p: [-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?. */
static size_t
num_len(const char *p, size_t n)
{
	size_t i = 0, d = 0, j;

	if (i < n && (p[i] == '-' || p[i] == '+'))
		i++;
	while (i < n && isdig(p[i]))
		i++, d++;
	if (i < n && p[i] == '.') {
		i++;
		while (i < n && isdig(p[i]))
			i++, d++;
	}
	if (d == 0)
		return 0;
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		j = i + 1;
		if (j < n && (p[j] == '-' || p[j] == '+'))
			j++;
		if (j < n && isdig(p[j])) {
			while (j < n && isdig(p[j]))
				j++;
			i = j;
		}
	}
	return i;
}

int
num_token(const char *p, size_t n)
{
	return n > 0 && num_len(p, n) == n;
}

/* Is p a JSON number as it stands (no '+', no leading zeros, no "1.")? */
int
json_num(const char *p, size_t n)
{
	size_t i = 0;

	if (i < n && p[i] == '-')
		i++;
	if (i >= n || !isdig(p[i]))
		return 0;
	if (p[i] == '0' && i + 1 < n && isdig(p[i + 1]))
		return 0;
	while (i < n && isdig(p[i]))
		i++;
	if (i < n && p[i] == '.') {
		if (++i >= n || !isdig(p[i]))
			return 0;
		while (i < n && isdig(p[i]))
			i++;
	}
	if (i < n && (p[i] == 'e' || p[i] == 'E')) {
		i++;
		if (i < n && (p[i] == '-' || p[i] == '+'))
			i++;
		if (i >= n || !isdig(p[i]))
			return 0;
		while (i < n && isdig(p[i]))
			i++;
	}
	return i == n;
}

/* nan, -nan, nan(ind), -nan(ind), inf, -inf, infinity, any case. */
int
nonfinite_token(const char *p, size_t n)
{
	size_t i = 0;

	if (n > 0 && (p[0] == '-' || p[0] == '+'))
		i++;
	if (n - i >= 3 && strncasecmp(p + i, "nan", 3) == 0) {
		i += 3;
		if (i == n)
			return 1;
		if (p[i] != '(' || p[n - 1] != ')')
			return 0;
		for (i++; i < n - 1; i++)
			if (!isalnum_(p[i]))
				return 0;
		return 1;
	}
	if (n - i == 3 && strncasecmp(p + i, "inf", 3) == 0)
		return 1;
	return n - i == 8 && strncasecmp(p + i, "infinity", 8) == 0;
}

/*
 * The value of a printed number, and in *err half a unit of its last
 * digit: the most the printing can have rounded it by.
 */
double
tok_value(const char *p, size_t n, double *err)
{
	char buf[64];
	size_t i, frac = 0, in_frac = 0;
	long ex = 0;

	if (n == 0 || n >= sizeof(buf) || !num_token(p, n)) {
		*err = 0;
		return NAN;
	}
	memcpy(buf, p, n);
	buf[n] = '\0';
	for (i = 0; i < n; i++) {
		if (p[i] == '.')
			in_frac = 1;
		else if (p[i] == 'e' || p[i] == 'E') {
			ex = strtol(buf + i + 1, NULL, 10);
			break;
		} else if (in_frac && isdig(p[i]))
			frac++;
	}
	*err = 0.5 * pow(10, (double)(ex - (long)frac));
	return strtod(buf, NULL);
}

/* Backwards from s[n]: a number-like token ("0.5", "-nan", "nan(ind)"). */
size_t
tok_back(const char *s, size_t n)
{
	size_t i = n;

	while (i > 0 && (isalnum_(s[i - 1]) || s[i - 1] == '.' ||
	    s[i - 1] == '-' || s[i - 1] == '+' || s[i - 1] == '(' ||
	    s[i - 1] == ')'))
		i--;
	/* "(ind)" belongs to a nan; any other '(' does not. */
	while (i < n && (s[i] == '(' || s[i] == ')'))
		i++;
	return i;
}

size_t
sp_back(const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n;
}

int
valid_tok(const char *p, size_t n)
{
	return num_token(p, n) || nonfinite_token(p, n);
}

/* A suffix cut short: ": T", ": Tm", ": Tms", ": Tms,", ": Tms, P". */
static int
suffix_cut(const char *s, size_t e, struct sl *time, struct sl *pct)
{
	size_t b = tok_back(s, e), c;

	if (b < e && valid_tok(s + b, e - b)) {
		c = sp_back(s, b);
		if (c > 0 && s[c - 1] == ',') {
			pct->p = s + b, pct->n = e - b;
			e = c - 1;
		}
	}
	e = sp_back(s, e);
	if (e > 0 && s[e - 1] == ',')
		e = sp_back(s, e - 1);
	if (e > 1 && s[e - 1] == 's' && s[e - 2] == 'm')
		e -= 2;
	else if (e > 0 && s[e - 1] == 'm')
		e--;
	b = tok_back(s, e);
	if (b == e || !valid_tok(s + b, e - b))
		return -1;
	time->p = s + b, time->n = e - b;
	b = sp_back(s, b);
	return b > 0 && s[b - 1] == ':' ? (int)(b - 1) : -1;
}

/*
 * Peels ": T ms, P %" off the end of s[0..n].  Returns the offset of the
 * ':' or -1.  The separator may be ',' or the full-width U+FF0C, with any
 * spacing.  relaxed accepts a suffix cut short ("... : 0.00", a cut file).
 */
int
suffix_peel(const char *s, size_t n, struct sl *time, struct sl *pct,
    int relaxed)
{
	size_t e = sp_back(s, n), b;

	pct->p = time->p = NULL;
	pct->n = time->n = 0;
	if (e > 0 && s[e - 1] == '%') {
		e = sp_back(s, e - 1);
		b = tok_back(s, e);
		if (!valid_tok(s + b, e - b))
			return -1;
		pct->p = s + b, pct->n = e - b;
		e = sp_back(s, b);
		if (e > 0 && s[e - 1] == ',')
			e--;
		else if (e >= 3 && memcmp(s + e - 3, "\xEF\xBC\x8C", 3) == 0)
			e -= 3;
		else
			return -1;
		e = sp_back(s, e);
	} else if (!relaxed)
		return -1;
	else
		return suffix_cut(s, e, time, pct);
	if (e < 2 || s[e - 1] != 's' || s[e - 2] != 'm')
		return -1;
	e = sp_back(s, e - 2);
	b = tok_back(s, e);
	if (b == e || !valid_tok(s + b, e - b))
		return -1;
	time->p = s + b, time->n = e - b;
	b = sp_back(s, b);
	if (b == 0 || s[b - 1] != ':')
		return -1;
	return (int)(b - 1);
}

/* The bytes of a number as MIGraphX prints it: digits, '.', 'e', '-', '+'. */
static const unsigned char num_byte[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
	['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1, ['.'] = 1, ['e'] = 1,
	['E'] = 1, ['-'] = 1, ['+'] = 1,
};

/* 2 for a JSON number, 1 for another C++ number, 0 for neither. */
static int
num_kind(const char *p, size_t n)
{
	return json_num(p, n) ? 2 : num_token(p, n);
}

/*
 * Backwards from s[e]: the start of the run of number bytes that ends
 * there, and in *kind its num_kind().  With SSE2, the sixteen bytes
 * before s[e] in one step, and the usual forms, digits with at most one
 * '.' between them, told apart from their bit masks without a scan.
 */
static size_t
num_back(const char *s, size_t e, int *kind)
{
	size_t b;

#ifdef __SSE2__
	if (e >= 16) {
		const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)
		    (s + e - 16));
		const __m128i t = _mm_sub_epi8(v, _mm_set1_epi8('0'));
		unsigned dm = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		    _mm_min_epu8(t, _mm_set1_epi8(9)), t));
		unsigned pm = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v,
		    _mm_set1_epi8('.')));
		unsigned om = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('e')),
		    _mm_cmpeq_epi8(v, _mm_set1_epi8('E'))),
		    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('-')),
		    _mm_cmpeq_epi8(v, _mm_set1_epi8('+')))));
		unsigned out = ~(dm | pm | om) & 0xffffu, h, tok;
		size_t len;

		if (out != 0) {
			/* Bit i is s[e - 16 + i]; the run is above bit h. */
			h = 31 - (unsigned)__builtin_clz(out);
			len = 15 - h;
			b = e - len;
			tok = (0xffffu << (h + 1)) & 0xffffu;
			pm &= tok;
			if (len > 0 && (om & tok) == 0 && (pm == 0 ||
			    ((pm & (pm - 1)) == 0 && !(pm & (1u << (h + 1))) &&
			    !(pm & 0x8000u)))) {
				/* digits, or digits '.' digits */
				*kind = s[b] == '0' && len > 1 && isdig(s[b + 1]) ?
				    1 : 2;
				return b;
			}
			*kind = len > 0 ? num_kind(s + b, len) : 0;
			return b;
		}
	}
#endif
	for (b = e; b > 0 && num_byte[(unsigned char)s[b - 1]]; b--)
		;
	*kind = b < e ? num_kind(s + b, e - b) : 0;
	return b;
}

/*
 * The suffix as MIGraphX prints it, ": Tms, P%" with finite numbers, in
 * one pass: what suffix_peel() finds for it, and whether the numbers are
 * JSON numbers as printed (in->json).  -1 for any other form
 * (suffix_peel() reads those).
 */
static int
suffix_fast(const char *s, size_t n, struct instr *in)
{
	size_t e, b;
	int k, j;

	if (n < 10 || s[n - 1] != '%')
		return -1;
	e = n - 1;
	/* The usual percentage: one or two digits after the space. */
	if (isdig(s[e - 1]) && s[e - 2] == ' ')
		b = e - 1, k = 2;
	else if (isdig(s[e - 1]) && isdig(s[e - 2]) && s[e - 3] == ' ')
		b = e - 2, k = s[b] == '0' ? 1 : 2;
	else
		b = num_back(s, e, &k);
	if (b == e || b < 8 || s[b - 1] != ' ' || s[b - 2] != ',' ||
	    s[b - 3] != 's' || s[b - 4] != 'm' || !k)
		return -1;
	in->pct.p = s + b, in->pct.n = e - b;
	e = b - 4;
	b = num_back(s, e, &j);
	if (b == e || b < 2 || s[b - 1] != ' ' || s[b - 2] != ':' || !j)
		return -1;
	in->time.p = s + b, in->time.n = e - b;
	in->json = (j == 2 ? JSON_TIME : 0) | (k == 2 ? JSON_PCT : 0);
	return (int)(b - 2);
}

/* The last c of p[0..e), or NULL: memrchr(), inline, with SSE2. */
static inline const char *
chr_prev(const char *p, const char *e, char c)
{
#ifdef __SSE2__
	const __m128i k = _mm_set1_epi8(c);
	int m;

	for (; e - p >= 16; e -= 16) {
		m = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(
		    (const __m128i *)(const void *)(e - 16)), k));
		if (m != 0)
			return e - 16 + 31 - __builtin_clz((unsigned)m);
	}
#endif
	while (e > p)
		if (*--e == c)
			return e;
	return NULL;
}

/*
 * Finds the last occurrence of needle in s[0..n], or NULL: the last of
 * its byte at offset at (chr_prev()), then a look around it.
 */
static inline const char *
memrmem_(const char *s, size_t n, const char *needle, size_t k, size_t at)
{
	const char *p;
	size_t e;

	if (n < k)
		return NULL;
	e = n - (k - 1 - at);	/* the byte at 'at' lies in s[at..e) */
	while (e > at && (p = chr_prev(s + at, s + e, needle[at])) != NULL) {
		if (memcmp(p - at, needle, k) == 0)
			return p - at;
		e = (size_t)(p - s);
	}
	return NULL;
}

#define W4(c) [c] = C_WORD, [c + 1] = C_WORD, [c + 2] = C_WORD, \
	[c + 3] = C_WORD
#define W26(c) W4(c), W4(c + 4), W4(c + 8), W4(c + 12), W4(c + 16), \
	W4(c + 20), [c + 24] = C_WORD, [c + 25] = C_WORD
const unsigned char char_class[256] = {
	['('] = BRK_OPEN, ['['] = BRK_OPEN, ['{'] = BRK_OPEN,
	[')'] = BRK_CLOSE, [']'] = BRK_CLOSE, ['}'] = BRK_CLOSE,
	[','] = BRK_COMMA,
	W4('0'), W4('4'), ['8'] = C_WORD, ['9'] = C_WORD,
	W26('A'), W26('a'), ['_'] = C_WORD,
};

/*
 * Backwards from s[i]: the offset just past the last bracket of s[0..i),
 * or 0; sixteen bytes at a time with SSE2 ('{' and '}' are '[' and ']'
 * with the 0x20 bit, '(' and ')' differ in the low bit).
 */
static inline size_t
brk_back(const char *s, size_t i)
{
#ifdef __SSE2__
	const __m128i sq = _mm_set1_epi8('['), cs = _mm_set1_epi8(']'),
	    par = _mm_set1_epi8('('), m20 = _mm_set1_epi8((char)0xdf),
	    m01 = _mm_set1_epi8((char)0xfe);
	__m128i v, u;
	int m;

	for (; i >= 16; i -= 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(s + i - 16));
		u = _mm_and_si128(v, m20);
		m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(u, sq), _mm_cmpeq_epi8(u, cs)),
		    _mm_cmpeq_epi8(_mm_and_si128(v, m01), par)));
		if (m != 0)
			return i + 16 - (size_t)__builtin_clz((unsigned)m);
	}
#endif
	while (i > 0 && (brk_class(s[i - 1]) == 0 ||
	    brk_class(s[i - 1]) == BRK_COMMA))
		i--;
	return i;
}

/*
 * From the closer at s[n-1] (the caller saw it), backwards to its
 * opener; -1 if unbalanced.
 */
static long
open_back(const char *s, size_t n)
{
	long depth = 1;
	size_t i;

	for (i = n - 1; (i = brk_back(s, i)) > 0; i--)
		if (brk_class(s[i - 1]) == BRK_CLOSE)
			depth++;
		else if (--depth == 0)
			return (long)(i - 1);
	return -1;
}

long
close_fwd(const char *s, size_t n)
{
	long depth = 0;
	size_t i;
	int c;

	for (i = 0; i < n; i++)
		if ((c = brk_class(s[i])) == BRK_OPEN)
			depth++;
		else if (c == BRK_CLOSE && --depth == 0)
			return (long)i;
	return -1;
}

static int
has_prefix(const char *s, size_t n, const char *pre)
{
	size_t k = strlen(pre);

	return n >= k && memcmp(s, pre, k) == 0;
}

/* Peels ", target_id=N" (or ",target_id=N") off s[0..*n]. */
static void
peel_tid(const char *s, size_t *n, struct instr *in)
{
	size_t e = *n, b = e;
	const char *t;

	while (b > 0 && isdig(s[b - 1]))
		b--;
	if (b == e || b < 11 || memcmp(s + b - 10, "target_id=", 10) != 0)
		return;
	t = s + b - 10;
	if (t > s && t[-1] == ' ')
		t--;
	if (t == s || t[-1] != ',')
		return;
	in->tid.p = s + b, in->tid.n = e - b;
	*n = (size_t)(t - 1 - s);
}

/* The RHS of a @return: "@return(args)" and what may be glued after it. */
static int
parse_return(const char *s, size_t n, const char *rhs, struct instr *in,
    struct sl *rest)
{
	size_t off = (size_t)(rhs - s) + 7, k;
	long c = close_fwd(s + off, n - off);
	const char *p;

	in->op.p = rhs, in->op.n = 7;
	in->is_return = 1;
	if (c < 0) {
		/* Cut inside the argument list: keep what there is. */
		in->args.p = s + off + 1, in->args.n = n - off - 1;
		return 0;
	}
	in->args.p = s + off + 1, in->args.n = (size_t)c - 1;
	p = s + off + c + 1;
	k = n - (size_t)(p - s);
	if (has_prefix(p, k, ", target_id=") ||
	    has_prefix(p, k, ",target_id=")) {
		const char *d = (const char *)memchr(p, '=', k) + 1;

		in->tid.p = d;
		while ((size_t)(d - s) < n && isdig(*d))
			d++;
		in->tid.n = (size_t)(d - in->tid.p);
		p = d;
		k = n - (size_t)(p - s);
	}
	if (has_prefix(p, k, " # ")) {
		in->dbg.p = p + 3, in->dbg.n = k - 3;
		k = 0;
	}
	if (k > 0)
		rest->p = p, rest->n = k;
	return 0;
}

/* Takes apart the right-hand side before " -> " (steps 6 and 7). */
static void
parse_optext(const char *s, size_t n, struct instr *in)
{
	long o;

	if (has_prefix(s, n, "@param:")) {
		in->op.p = s, in->op.n = 6;
		in->param.p = s + 7, in->param.n = n - 7;
		return;
	}
	if (has_prefix(s, n, "@literal")) {
		in->op.p = s, in->op.n = 8;
		if (n > 8)
			in->literal.p = s + 8, in->literal.n = n - 8;
		return;
	}
	if (n > 0 && s[n - 1] == ']' && (o = open_back(s, n)) >= 1) {
		if (o >= 2 && s[o - 1] == ' ' && s[o - 2] == ',') {
			in->modargs.p = s + o + 1;
			in->modargs.n = n - (size_t)o - 2;
			n = (size_t)o - 2;
		} else if (s[o - 1] == ',') {
			in->modargs.p = s + o + 1;
			in->modargs.n = n - (size_t)o - 2;
			n = (size_t)o - 1;
		}
	}
	if (n > 0 && s[n - 1] == ')' && (o = open_back(s, n)) > 0) {
		in->args.p = s + o + 1, in->args.n = n - (size_t)o - 2;
		n = (size_t)o;
	}
	in->op.p = s, in->op.n = n;
	if (n > 0 && s[n - 1] == ']') {
		const char *b = chr_next(s, s + n, '[');

		if (b != NULL && b > s) {
			in->op.n = (size_t)(b - s);
			in->attrs.p = b + 1;
			in->attrs.n = n - in->op.n - 2;
		}
	}
}

/* The first " = " of s, not at its start, or NULL. */
static const char *
find_eq(const char *s, size_t n)
{
	const char *p = s + 1, *e = s + n;

	while (p + 1 < e && (p = chr_next(p, e - 1, '=')) != NULL) {
		if (p[-1] == ' ' && p[1] == ' ' && p - 1 > s)
			return p - 1;
		p++;
	}
	return NULL;
}

/*
 * The " # " before a develop debug-symbol tail, or NULL.  The tail follows
 * the shape, so the search stops at the first closing bracket from the end.
 */
static const char *
dbg_tail(const char *s, size_t n)
{
	size_t i;

	for (i = n; i > 3; i--) {
		char c = s[i - 1];

		if (c == '}' || c == ']')
			return NULL;
		if (c == ' ' && s[i - 2] == '#' && s[i - 3] == ' ') {
			c = i > 3 ? s[i - 4] : 0;
			return c == '}' || c == ']' || c == ')' ||
			    (c >= '0' && c <= '9') ? s + i - 3 : NULL;
		}
	}
	return NULL;
}

/*
 * memset(in, 0, sizeof(*in)) in plain stores: the compiler makes a
 * memset() of this size a "rep stos", whose start costs more than the
 * stores, once per line.
 */
static inline void
instr_zero(struct instr *in)
{
#ifdef __SSE2__
	char *p = (char *)in;

	_Static_assert(sizeof(*in) % 16 == 0 && sizeof(*in) <= 256,
	    "instr_zero stores 16 bytes at a time");
	/* A fixed count, each store written out: no loop to turn back. */
#define Z(i) if ((i) * 16 < sizeof(*in)) \
	_mm_storeu_si128((__m128i *)(void *)(p + (i) * 16), _mm_setzero_si128())
	Z(0); Z(1); Z(2); Z(3); Z(4); Z(5); Z(6); Z(7);
	Z(8); Z(9); Z(10); Z(11); Z(12); Z(13); Z(14); Z(15);
#undef Z
#else
	memset(in, 0, sizeof(*in));
#endif
}

/*
 * Parses s[0..n] as one instruction (section 6.4).  Returns 0, or -1 when
 * the text is not one.  A @return with text glued after it sets *rest.
 */
int
instr_parse(const char *s, size_t n, struct instr *in, struct sl *rest)
{
	const char *eq, *arrow, *h;
	size_t rn;
	int c;

	instr_zero(in);
	in->end = s + n;
	rest->p = NULL;
	if ((eq = find_eq(s, n)) == NULL)
		return -1;
	in->name.p = s, in->name.n = (size_t)(eq - s);
	h = eq + 3;
	if (has_prefix(h, n - (size_t)(h - s), "@return("))
		return parse_return(s, n, h, in, rest);
	if ((c = suffix_fast(s, n, in)) >= 0 ||
	    (c = suffix_peel(s, n, &in->time, &in->pct, 0)) >= 0) {
		in->has_suffix = 1;
		n = (size_t)c;
	}
	rn = n - (size_t)(h - s);
	/* A develop " # syms" tail, only after a shape or a ')'. */
	if ((eq = dbg_tail(h, rn)) != NULL) {
		in->dbg.p = eq + 3, in->dbg.n = rn - (size_t)(eq + 3 - h);
		rn = (size_t)(eq - h);
	}
	peel_tid(h, &rn, in);
	arrow = memrmem_(h, rn, " -> ", 4, 2);
	if (arrow != NULL) {
		in->shape.p = arrow + 4;
		in->shape.n = rn - (size_t)(arrow + 4 - h);
	} else if ((arrow = memrmem_(h, rn, "->", 2, 1)) != NULL) {
		in->fork = 1;
		in->shape.p = arrow + 2;
		in->shape.n = rn - (size_t)(arrow + 2 - h);
		if (arrow > h && arrow[-1] == ' ')
			arrow--;
	} else if (!in->has_suffix)
		return -1;
	if (arrow != NULL)
		rn = (size_t)(arrow - h);
	parse_optext(h, rn, in);
	if (in->op.n == 0)
		return -1;
	return 0;
}


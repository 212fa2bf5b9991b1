#define _GNU_SOURCE	/* memmem */
/*
 * shape.c: the members of an instruction record, from a parsed
 * instruction: the shape (section 3.3), attributes, names and numbers as
 * JSON takes them.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "bytes.h"

#include "migx.h"

/*
 * A string of the instruction's line: no scan when the line is plain.  A
 * macro, so that the length of a literal key is known at compile time.
 */
#define put_str(mx, key, p, n, plain) ((plain) ? \
	ndw_str_plain(&(mx)->w, (key), (p), (n)) : \
	ndw_str(&(mx)->w, (key), (p), (n)))

/* The member key, to be followed by one value written into the record. */
static inline struct strbuf *
member(struct migx *mx, const char *key)
{
	ndw_key(&mx->w, key);
	return &mx->w.buf;
}

/* Rewrites a C++ number that JSON rejects ("+1", ".5", "1.", "007"). */
static void
json_fix(struct strbuf *sb, const char *p, size_t n)
{
	size_t i = 0;

	if (p[0] == '+' || p[0] == '-') {
		if (p[0] == '-')
			strbuf_addch(sb, '-');
		i++;
	}
	while (i + 1 < n && p[i] == '0' && isdig(p[i + 1]))
		i++;
	if (p[i] == '.')
		strbuf_addch(sb, '0');
	for (; i < n; i++) {
		if (p[i] == '.' && (i + 1 == n || !isdig(p[i + 1])))
			continue;
		if ((p[i] == 'e' || p[i] == 'E') && p[i + 1] == '+') {
			strbuf_addch(sb, 'e');
			i++;
			continue;
		}
		strbuf_addch(sb, p[i]);
	}
}

/*
 * Writes a printed number under key: as it is when JSON reads it, made
 * valid when it is a C++ number JSON rejects, else null plus key_raw.
 */
void
put_num(struct migx *mx, const char *key, const char *p, size_t n)
{
	static struct strbuf fix = STRBUF_INIT;
	char rawkey[64];

	if (json_num(p, n)) {
		ndw_raw(&mx->w, key, p, n);
		return;
	}
	if (num_token(p, n)) {
		strbuf_reset(&fix);
		json_fix(&fix, p, n);
		ndw_raw(&mx->w, key, fix.buf, fix.len);
		return;
	}
	ndw_null(&mx->w, key);
	snprintf(rawkey, sizeof(rawkey), "%s_raw", key);
	ndw_str(&mx->w, rawkey, p, n);
}

/* Shapes (section 3.3), written as JSON into sb; -1 when not a shape. */
struct shp {
	const char *p, *e;
};

static void
shp_sp(struct shp *q)
{
	while (q->p < q->e && *q->p == ' ')
		q->p++;
}

/* Skips ',' and an optional space; -1 if no comma. */
static int
shp_comma(struct shp *q)
{
	shp_sp(q);
	if (q->p >= q->e || *q->p != ',')
		return -1;
	q->p++;
	shp_sp(q);
	return 0;
}

static const char *
shp_word(struct shp *q)
{
	const char *b = q->p;

	while (q->p < q->e && (isalnum_(*q->p)))
		q->p++;
	return b;
}

/*
 * A "{a, b, c}" list: writes a JSON array; values are numbers, or strings
 * for symbolic dimensions (then *sym is set).  Keeps integers in v[].
 */
static int
shp_list(struct migx *mx, struct shp *q, struct strbuf *sb, uint64_t *v,
    size_t *nv, int *sym)
{
	const char *b, *t, *end;
	size_t k = 0;
	uint64_t x;
	char *d;
	long c;

	shp_sp(q);
	if (q->p >= q->e || *q->p != '{')
		return -1;
	end = memchr(q->p, '}', (size_t)(q->e - q->p));
	if (end == NULL || memchr(q->p + 1, '{', (size_t)(end - q->p)) != NULL) {
		if ((c = close_fwd(q->p, (size_t)(q->e - q->p))) < 0)
			return -1;
		end = q->p + c;
	}
	b = q->p + 1;
	q->p = end + 1;
	/* The array is never longer than the list: write it in place. */
	strbuf_grow(sb, (size_t)(end - b) + 2);
	d = sb->buf + sb->len;
	*d++ = '[';
	while (b < end) {
		while (*b == ' ')
			b++;
		for (t = b, x = 0; b < end && isdig(*b); b++)
			x = x * 10 + (uint64_t)(*b - '0');
		if ((b == end || *b == ',') && b > t && (*t != '0' ||
		    b - t == 1)) {
			/* A plain integer, the common case. */
			if (k > 0)
				*d++ = ',';
			memcpy(d, t, (size_t)(b - t));
			d += b - t;
		} else {
			while (b < end && *b != ',')
				b++;
			if (k > 0)
				*d++ = ',';
			strbuf_setlen(sb, (size_t)(d - sb->buf));
			if (json_num(t, (size_t)(b - t)))
				strbuf_add(sb, t, (size_t)(b - t));
			else
				ndw_quote(sb, t, (size_t)(b - t), mx->w.flags);
			strbuf_grow(sb, (size_t)(end - b) + 2);
			d = sb->buf + sb->len;
			*sym = 1;
		}
		if (k < 64)
			v[k] = x;
		k++;
		if (b < end)
			b++;
	}
	*d++ = ']';
	strbuf_setlen(sb, (size_t)(d - sb->buf));
	*nv = k;
	return 0;
}

static int shp_one(struct migx *mx, struct shp *q, struct strbuf *sb);

/* A dynamic dimension: "[1, 4, 2]", "[ 1, 4, {2, 3} ]", "[1..4]", "3". */
static int
shp_dim(struct migx *mx, struct shp *q, struct strbuf *sb)
{
	const char *b = q->p, *f[3], *fe[3], *d;
	size_t k = 0;
	long c;

	if (*b != '[') {
		while (q->p < q->e && *q->p != ',' && *q->p != '}')
			q->p++;
		if (json_num(b, (size_t)(q->p - b))) {
			strbuf_addstr(sb, "{\"min\":");
			strbuf_add(sb, b, (size_t)(q->p - b));
			strbuf_addstr(sb, ",\"max\":");
			strbuf_add(sb, b, (size_t)(q->p - b));
		} else {
			strbuf_addstr(sb, "{\"expr\":");
			ndw_quote(sb, b, (size_t)(q->p - b), mx->w.flags);
		}
		strbuf_addch(sb, '}');
		return 0;
	}
	if ((c = close_fwd(b, (size_t)(q->e - b))) < 0)
		return -1;
	q->p = b + c + 1;
	b++;
	d = memmem(b, (size_t)(q->p - 1 - b), "..", 2);
	if (d != NULL) {
		f[0] = b, fe[0] = d, f[1] = d + 2, fe[1] = q->p - 1, k = 2;
	} else {
		while (b < q->p - 1 && k < 3) {
			while (*b == ' ')
				b++;
			f[k] = b;
			if (*b == '{')
				b += close_fwd(b, (size_t)(q->p - b)) + 1;
			while (b < q->p - 1 && *b != ',')
				b++;
			fe[k] = b;
			while (fe[k] > f[k] && fe[k][-1] == ' ')
				fe[k]--;
			k++;
			if (b < q->p - 1)
				b++;
		}
	}
	if (k < 2 || !json_num(f[0], (size_t)(fe[0] - f[0])) ||
	    !json_num(f[1], (size_t)(fe[1] - f[1])))
		return -1;
	strbuf_addstr(sb, "{\"min\":");
	strbuf_add(sb, f[0], (size_t)(fe[0] - f[0]));
	strbuf_addstr(sb, ",\"max\":");
	strbuf_add(sb, f[1], (size_t)(fe[1] - f[1]));
	if (k == 3 && *f[2] == '{') {
		struct shp s2 = { f[2], fe[2] };
		uint64_t v[64];
		size_t nv;
		int sym = 0;

		strbuf_addstr(sb, ",\"optimals\":");
		if (shp_list(mx, &s2, sb, v, &nv, &sym) < 0)
			return -1;
	} else if (k == 3 && json_num(f[2], (size_t)(fe[2] - f[2]))) {
		strbuf_addstr(sb, ",\"opt\":");
		strbuf_add(sb, f[2], (size_t)(fe[2] - f[2]));
	}
	strbuf_addch(sb, '}');
	return 0;
}

static int
shp_dynamic(struct migx *mx, struct shp *q, struct strbuf *sb)
{
	const char *t, *te;
	long c;
	int first = 1;

	if (shp_comma(q) < 0)
		return -1;
	t = shp_word(q);
	te = q->p;
	if (te == t || shp_comma(q) < 0 || *q->p != '{')
		return -1;
	strbuf_addstr(sb, "{\"kind\":\"dynamic\",\"type\":");
	ndw_quote(sb, t, (size_t)(te - t), mx->w.flags);
	t = q->p;
	if ((c = close_fwd(t, (size_t)(q->e - t))) < 0)
		return -1;
	strbuf_addstr(sb, ",\"dims\":[");
	q->p = t + 1;
	{
		struct shp in = { t + 1, t + c };

		while (shp_sp(&in), in.p < in.e) {
			if (!first)
				strbuf_addch(sb, ',');
			first = 0;
			if (shp_dim(mx, &in, sb) < 0)
				return -1;
			if (in.p < in.e && shp_comma(&in) < 0)
				return -1;
		}
	}
	q->p = t + c + 1;
	strbuf_addstr(sb, "]}");
	return 0;
}

/* Are the strides the row-major strides of the lens? */
static int
row_major(const uint64_t *l, const uint64_t *s, size_t n)
{
	uint64_t want = 1;
	size_t i;

	for (i = n; i > 0; i--) {
		if (s[i - 1] != want)
			return 0;
		if (__builtin_mul_overflow(want, l[i - 1], &want))
			return 0;
	}
	return 1;
}

/* Do the two lists after the type hold anything but integers? */
static int
shp_symbolic(const char *p, const char *e)
{
	int lists = 0;

	for (; p < e && lists < 2; p++)
		if (*p == '}')
			lists++;
		else if (!(isdig(*p) || *p == ' ' || *p == ',' || *p == '{'))
			return 1;
	return 0;
}

static int
shp_static(struct migx *mx, struct shp *q, struct strbuf *sb, const char *t,
    size_t tn)
{
	uint64_t l[64], s[64];
	size_t nl, ns, i;
	int sym = shp_symbolic(q->p, q->e), bc = 0;

	strbuf_addstr(sb, sym ? "{\"kind\":\"symbolic\",\"type\":\"" :
	    "{\"kind\":\"static\",\"type\":\"");
	strbuf_add(sb, t, tn);		/* a word: nothing to escape */
	strbuf_addstr(sb, "\",\"lens\":");
	if (shp_comma(q) < 0 || shp_list(mx, q, sb, l, &nl, &sym) < 0)
		return -1;
	strbuf_addstr(sb, ",\"strides\":");
	if (shp_comma(q) < 0 || shp_list(mx, q, sb, s, &ns, &sym) < 0)
		return -1;
	if (!sym && nl == ns && nl <= 64) {
		strbuf_addstr(sb, row_major(l, s, nl) ? ",\"standard\":true" :
		    ",\"standard\":false");
		for (i = 0; i < ns; i++)
			if (s[i] == 0)
				bc = 1;
		if (bc)
			strbuf_addstr(sb, ",\"broadcast\":true");
	}
	strbuf_addch(sb, '}');
	return 0;
}

static int
shp_one(struct migx *mx, struct shp *q, struct strbuf *sb)
{
	const char *t;
	int first = 1;

	shp_sp(q);
	if (q->p < q->e && *q->p == '[') {
		q->p++;
		strbuf_addstr(sb, "{\"kind\":\"tuple\",\"elements\":[");
		while (shp_sp(q), q->p < q->e && *q->p != ']') {
			if (!first && shp_comma(q) < 0)
				return -1;
			if (!first)
				strbuf_addch(sb, ',');
			first = 0;
			if (shp_one(mx, q, sb) < 0)
				return -1;
		}
		if (q->p >= q->e)
			return -1;
		q->p++;
		strbuf_addstr(sb, "]}");
		return 0;
	}
	t = shp_word(q);
	if (q->p == t)
		return -1;
	if (q->p - t == 7 && memcmp(t, "dynamic", 7) == 0)
		return shp_dynamic(mx, q, sb);
	return shp_static(mx, q, sb, t, (size_t)(q->p - t));
}

/*
 * One "{1, 2, 3}" list of plain integers at *pp, as a JSON array at d;
 * NULL when it is anything else.  Keeps the values in v[] (at most 64).
 */
static char *
fast_list(const char **pp, const char *e, char *d, uint64_t *v, size_t *nv)
{
	const char *p = *pp, *t;
	size_t k = 0;
	uint64_t x;
	unsigned c;

	if (p >= e || *p++ != '{')
		return NULL;
	*d++ = '[';
	if (p < e && *p == '}')
		p++;
	else
		for (;;) {
			while (p < e && *p == ' ')
				p++;
			if (k > 0)
				*d++ = ',';
			for (t = p, x = 0; p < e && (c = (unsigned)
			    (unsigned char)*p - '0') <= 9; p++)
				x = x * 10 + c;
			if (p == t || (*t == '0' && p - t > 1) || p >= e ||
			    k >= 64)
				return NULL;
			/* Eight bytes in one move when the line has them. */
			if (p - t <= 8 && e - t >= 8)
				memcpy(d, t, 8);
			else
				memcpy(d, t, (size_t)(p - t));
			d += p - t;
			v[k++] = x;
			if (*p++ == '}')
				break;
			if (p[-1] != ',')
				return NULL;
		}
	*d++ = ']';
	*pp = p;
	*nv = k;
	return d;
}

/*
 * The usual shape, "TYPE, {lens}, {strides}" of plain integers, in one
 * pass, written at d as shp_static() writes it (room for e - p + 128
 * bytes); NULL for anything else, which goes to the full parser.
 */
static char *
shp_fast(char *d, const char *p, const char *e)
{
	uint64_t l[64], s[64];
	const char *t = p;
	size_t nl, ns, i;
	int bc = 0;

	while (p < e && isalnum_(*p))
		p++;
	if (p == t || (p - t == 7 && memcmp(t, "dynamic", 7) == 0) ||
	    e - p < 2 || p[0] != ',' || p[1] != ' ')
		return NULL;
	LIT(d, "{\"kind\":\"static\",\"type\":\"");
	memcpy(d, t, (size_t)(p - t));
	d += p - t;
	LIT(d, "\",\"lens\":");
	p += 2;
	if ((d = fast_list(&p, e, d, l, &nl)) == NULL ||
	    e - p < 2 || p[0] != ',' || p[1] != ' ')
		return NULL;
	LIT(d, ",\"strides\":");
	p += 2;
	if ((d = fast_list(&p, e, d, s, &ns)) == NULL)
		return NULL;
	while (p < e && *p == ' ')
		p++;
	if (p != e)
		return NULL;
	if (nl == ns) {
		if (row_major(l, s, nl))
			LIT(d, ",\"standard\":true");
		else
			LIT(d, ",\"standard\":false");
		for (i = 0; i < ns; i++)
			if (s[i] == 0)
				bc = 1;
		if (bc)
			LIT(d, ",\"broadcast\":true");
	}
	*d++ = '}';
	return d;
}

/*
 * The shape sh by the full parser, appended to sb, or {"kind":"unparsed"}
 * (what was written taken back) when it does not parse.
 */
static void
shape_slow(struct migx *mx, struct strbuf *sb, struct sl sh)
{
	struct shp q = { sh.p, sh.p + sh.n };
	size_t mark = sb->len;

	if (shp_one(mx, &q, sb) < 0 || (shp_sp(&q), q.p != q.e)) {
		strbuf_setlen(sb, mark);
		strbuf_addstr(sb, "{\"kind\":\"unparsed\"}");
	}
}

/* Writes "shape": the parsed shape, straight into the record. */
static void
put_shape(struct migx *mx, struct sl sh)
{
	struct strbuf *sb = member(mx, "shape");
	char *d = ndw_reserve(&mx->w, sh.n + 128);

	if ((d = shp_fast(d, sh.p, sh.p + sh.n)) != NULL)
		ndw_commit(&mx->w, d);
	else
		shape_slow(mx, sb, sh);
}

/*
 * The first bracket or comma of p[0..e), or e: sixteen bytes at a time
 * with SSE2 ('{' and '}' are '[' and ']' with the 0x20 bit, '(' and ')'
 * differ in the low bit).
 */
static inline const char *
brk_next(const char *p, const char *e)
{
#ifdef __SSE2__
	const __m128i sq = _mm_set1_epi8('['), cs = _mm_set1_epi8(']'),
	    par = _mm_set1_epi8('('), cm = _mm_set1_epi8(','),
	    m20 = _mm_set1_epi8((char)0xdf), m01 = _mm_set1_epi8((char)0xfe);
	__m128i v, u;
	int m;

	for (; e - p >= 16; p += 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)p);
		u = _mm_and_si128(v, m20);
		m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(u, sq), _mm_cmpeq_epi8(u, cs)),
		    _mm_or_si128(_mm_cmpeq_epi8(_mm_and_si128(v, m01), par),
		    _mm_cmpeq_epi8(v, cm))));
		if (m != 0)
			return p + __builtin_ctz((unsigned)m);
	}
#endif
	while (p < e && brk_class(*p) == 0)
		p++;
	return p;
}

/* The next ',' of p[0..e) outside brackets, or e. */
static const char *
next_piece(const char *p, const char *e)
{
	int depth = 0, c;

	for (; (p = brk_next(p, e)) < e; p++) {
		c = brk_class(*p);
		if (c == BRK_COMMA && depth == 0)
			return p;
		if (c != BRK_COMMA)
			depth += c == BRK_OPEN ? 1 : -1;
	}
	return e;
}

/* Does a piece start "key=" (section 6.5)? */
static size_t
attr_key(const char *p, const char *e)
{
	const char *q = p;

	if (q >= e || !(isalnum_(*q) && !isdig(*q)))
		return 0;
	while (q < e && isalnum_(*q))
		q++;
	return q < e && *q == '=' ? (size_t)(q - p) : 0;
}

/* Keys longer than this are cut (as they always were). */
#define ATTR_KEY_MAX 127

/*
 * Copies p[0..n) to d and returns its end: in moves of 16 or 32 bytes
 * (no call), which may write past d + n, into the room made for the
 * record, and read past p + n: the text is in the lines buffer or in
 * instr_line()'s copy, both followed by LINES_PAD readable bytes.
 */
static inline char *
cpy(char *d, const char *p, size_t n)
{
	size_t i;

	if (n <= 16)
		memcpy(d, p, 16);
	else if (n <= 32)
		memcpy(d, p, 32);
	else if (n <= 64) {
		memcpy(d, p, 32);
		memcpy(d + 32, p + 32, 32);
	} else
		for (i = 0; i < n; i += 32)
			memcpy(d + i, p + i, 32);
	return d + n;
}

/* A plain string at d, in its quotes; returns its end (see cpy()). */
static inline char *
q_str(char *d, const char *p, size_t n)
{
	*d++ = '"';
	d = cpy(d, p, n);
	*d++ = '"';
	return d;
}

/*
 * Appends "key":"value" (null when v is NULL) to the attrs object that
 * ends at d, and returns its new end: plain text is copied there (the
 * caller made room), other text goes through sb.  first is set while the
 * object is empty.
 */
static char *
attr_out(struct migx *mx, struct strbuf *sb, char *d, int *first,
    const char *k, size_t kn, const char *v, size_t vn, int plain)
{
	if (kn > ATTR_KEY_MAX)
		kn = ATTR_KEY_MAX;
	if (!plain) {
		strbuf_setlen(sb, (size_t)(d - sb->buf));
		if (!*first)
			strbuf_addch(sb, ',');
		ndw_quote(sb, k, kn, mx->w.flags);
		strbuf_addch(sb, ':');
		if (v != NULL)
			ndw_quote(sb, v, vn, mx->w.flags);
		else
			strbuf_add(sb, "null", 4);
		*first = 0;
		return sb->buf + sb->len;
	}
	if (!*first)
		*d++ = ',';
	*d++ = '"';
	d = cpy(d, k, kn);
	*d++ = '"';
	*d++ = ':';
	if (v != NULL) {
		*d++ = '"';
		d = cpy(d, v, vn);
		*d++ = '"';
	} else
		LIT(d, "null");
	*first = 0;
	return d;
}

/*
 * The attrs object, a best-effort split into string values (section
 * 6.5), at d; returns its end.  Plain text needs room for 8 * a.n + 48
 * bytes; other text goes through sb, d being its end.
 */
static char *
attrs_at(struct migx *mx, struct strbuf *sb, char *d, struct sl a, int plain)
{
	const char *p = a.p, *e = a.p + a.n, *q, *v, *ve, *np, *nq;
	size_t n, nn;
	int first = 1;

	*d++ = '{';
	q = next_piece(p, e);
	n = attr_key(p, q);
	while (p < e) {
		if (n == 0) {
			/* A piece before any key: kept as a key, no value. */
			if (q > p)
				d = attr_out(mx, sb, d, &first, p,
				    (size_t)(q - p), NULL, 0, plain);
			p = q < e ? q + 1 : q;
			q = next_piece(p, e);
			n = attr_key(p, q);
			continue;
		}
		v = p + n + 1, ve = q;
		np = nq = e, nn = 0;
		while (ve < e) {
			np = ve + 1;
			nq = next_piece(np, e);
			nn = attr_key(np, nq);
			if (nn > 0 || (nq == np && nq == e))
				break;
			ve = nq;
		}
		d = attr_out(mx, sb, d, &first, p, n, v, (size_t)(ve - v),
		    plain);
		p = ve < e ? np : e, q = nq, n = nn;
	}
	if (!plain) {
		strbuf_setlen(sb, (size_t)(d - sb->buf));
		strbuf_addch(sb, '}');
		return sb->buf + sb->len;
	}
	*d++ = '}';
	return d;
}

/*
 * The attrs object of a plain text of "key=value" pieces without brackets
 * (the usual "offset=0,end=64", "id=main:@literal:3"), in one pass at d
 * (room for 8 * a.n + 48 bytes); the same bytes as attrs_at() writes.
 * NULL for anything else: a bracket, a piece without a key (but a last
 * empty one, after a trailing ','), a key longer than ATTR_KEY_MAX.
 */
static char *
attrs_flat(char *d, struct sl a)
{
	const char *p = a.p, *e = a.p + a.n, *k, *q;

	*d++ = '{';
	for (;;) {
		k = p;
		if (p >= e || !isalnum_(*p) || isdig(*p))
			return NULL;
		while (p < e && isalnum_(*p))
			p++;
		if (p >= e || *p != '=' || p - k > ATTR_KEY_MAX)
			return NULL;
		q = brk_next(++p, e);
		if (q < e && *q != ',')
			return NULL;
		if (d[-1] != '{')
			*d++ = ',';
		d = q_str(d, k, (size_t)(p - 1 - k));
		*d++ = ':';
		d = q_str(d, p, (size_t)(q - p));
		if (q >= e || (p = q + 1) == e)
			break;
	}
	*d++ = '}';
	return d;
}

/* "attrs", straight into the record. */
static void
put_attrs(struct migx *mx, struct sl a, int plain)
{
	struct strbuf *sb = member(mx, "attrs");
	char *d = ndw_reserve(&mx->w, 8 * a.n + 48);

	ndw_commit(&mx->w, attrs_at(mx, sb, d, a, plain));
}

/*
 * list_at() of a plain list without spaces and without a ',' at its end
 * (the usual "main:@952,main:@949"): the text copied in pieces from one
 * ',' to the next, found sixteen bytes at a time with SSE2, each ','
 * written as '","'.  NULL when the list has a space or ends in ','.  The
 * text is followed by LINES_PAD readable bytes (see cpy()).
 */
static char *
list_fast(char *d, struct sl s)
{
	const char *p = s.p, *e = s.p + s.n, *q;
	unsigned m;

	if (s.n == 0 || e[-1] == ',')
		return NULL;
	*d++ = '[';
	*d++ = '"';
	for (q = p; q < e; ) {
#ifdef __SSE2__
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);

		m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_cmpeq_epi8(v, _mm_set1_epi8(',')),
		    _mm_cmpeq_epi8(v, _mm_set1_epi8(' '))));
		if (e - q < 16)
			m &= (1u << (e - q)) - 1;
		if (m == 0) {
			q += 16;
			continue;
		}
		q += __builtin_ctz(m);
#else
		while (q < e && *q != ',' && *q != ' ')
			q++;
		if (q == e)
			break;
#endif
		if (*q == ' ')
			return NULL;
		d = cpy(d, p, (size_t)(q - p));
		LIT(d, "\",\"");
		p = ++q;
	}
	d = cpy(d, p, (size_t)(e - p));
	*d++ = '"';
	*d++ = ']';
	return d;
}

/*
 * The pieces of s split on ',' (and trimmed) as a string array at d;
 * returns its end.  The caller made room for 4 * s.n + 40 bytes at d
 * escaped text goes through sb, d being its end.
 */
static char *
list_at(struct migx *mx, struct strbuf *sb, char *d, struct sl s, int plain)
{
	const char *p = s.p, *e = s.p != NULL ? s.p + s.n : NULL, *q, *t;
	char *f;

	if (s.p == NULL || p >= e) {
		LIT(d, "[]");
		return d;
	}
	if (plain && (f = list_fast(d, s)) != NULL)
		return f;
	*d++ = '[';
	while (p < e) {
		q = memchr(p, ',', (size_t)(e - p));
		if (q == NULL)
			q = e;
		t = q;
		while (p < t && *p == ' ')
			p++;
		while (t > p && t[-1] == ' ')
			t--;
		if (d[-1] != '[')
			*d++ = ',';
		if (plain) {
			*d++ = '"';
			d = cpy(d, p, (size_t)(t - p));
			*d++ = '"';
		} else {
			sb->len = (size_t)(d - sb->buf);
			ndw_quote(sb, p, (size_t)(t - p), mx->w.flags);
			strbuf_grow(sb, 4 * (size_t)(e - q) + 8);
			d = sb->buf + sb->len;
		}
		p = q + 1;
	}
	*d++ = ']';
	return d;
}

/* A list member, straight into the record (an absent list: s.p NULL). */
static void
list_out(struct migx *mx, struct strbuf *sb, struct sl s, int plain)
{
	char *d = ndw_reserve(&mx->w, 4 * s.n + 40);

	ndw_commit(&mx->w, list_at(mx, sb, d, s, plain));
}

#define put_list(mx, key, s, plain) \
	list_out((mx), member((mx), (key)), (s), (plain))

/* put_num(), with the usual case (a JSON number as it is) inline. */
#define put_numk(mx, key, p, n) (json_num((p), (n)) ? \
	ndw_raw(&(mx)->w, (key), (p), (n)) : put_num((mx), (key), (p), (n)))

static int
sl_eq(struct sl s, const char *z)
{
	size_t k = strlen(z);

	return s.p != NULL && s.n == k && memcmp(s.p, z, k) == 0;
}

/* The value of symbol_name= in the attributes, or a NULL slice. */
static struct sl
symbol_name(struct sl a)
{
	struct sl r = { NULL, 0 };
	const char *p = a.p, *e = a.p != NULL ? a.p + a.n : NULL, *q;

	while (p != NULL && p < e) {
		if ((size_t)(e - p) > 12 &&
		    memcmp(p, "symbol_name=", 12) == 0) {
			r.p = p + 12;
			q = memchr(r.p, ',', (size_t)(e - r.p));
			r.n = (size_t)((q != NULL ? q : e) - r.p);
			return r;
		}
		if ((p = memchr(p, ',', (size_t)(e - p))) != NULL)
			p++;
	}
	return r;
}

/*
 * The Summary group of an instruction (section 4.1): the op name, or
 * gpu::code_object::<symbol_name> from ROCm 5.3 on (old_groups: before).
 */
void
instr_group(const struct instr *in, int old_groups, struct strbuf *out)
{
	struct sl sym;

	strbuf_reset(out);
	strbuf_add(out, in->op.p, in->op.n);
	if (!old_groups && sl_eq(in->op, "gpu::code_object") &&
	    (sym = symbol_name(in->attrs)).p != NULL) {
		strbuf_add(out, "::", 2);
		strbuf_add(out, sym.p, sym.n);
	}
}

/*
 * The module and the index of an instruction, worked out from its name
 * (2.2); absent parts have a NULL pointer.
 */
static void
name_parts(const struct instr *in, struct sl *mod, struct sl *idx)
{
	struct sl nm = in->name;
	const char *c = NULL;
	size_t i;

	mod->p = idx->p = NULL;
	mod->n = idx->n = 0;
	if (in->param.p != NULL) {
		if (nm.n > in->param.n + 1 && nm.p[nm.n - in->param.n - 1] ==
		    ':' && memcmp(nm.p + nm.n - in->param.n, in->param.p,
		    in->param.n) == 0)
			mod->p = nm.p, mod->n = nm.n - in->param.n - 1;
		return;
	}
	for (i = nm.n; i > 0 && isdig(nm.p[i - 1]); i--)
		;
	if (i > 1 && nm.p[i - 1] == '@' && nm.p[i - 2] == ':') {
		/* The usual "module:@N": the index is those digits. */
		mod->p = nm.p, mod->n = i - 2;
		idx->p = nm.p + i, idx->n = nm.n - i;
		goto checked;
	}
	if (i == 1 && nm.p[0] == '@') {
		/* "@N": digits after the '@', no ":@" to look for. */
		idx->p = nm.p + 1, idx->n = nm.n - 1;
		goto checked;
	}
	for (i = nm.n; i > 1; i--)
		if (nm.p[i - 1] == '@' && nm.p[i - 2] == ':') {
			c = nm.p + i - 2;
			break;
		}
	if (c != NULL) {
		mod->p = nm.p, mod->n = (size_t)(c - nm.p);
		idx->p = c + 2, idx->n = nm.n - mod->n - 2;
	} else if (nm.n > 1 && nm.p[0] == '@')
		idx->p = nm.p + 1, idx->n = nm.n - 1;
	for (i = 0; idx->p != NULL && i < idx->n; i++)
		if (!isdig(idx->p[i]))
			idx->p = NULL;
checked:
	if (idx->p != NULL && (idx->n == 0 || idx->n > 18 ||
	    (idx->p[0] == '0' && idx->n > 1)))
		idx->p = NULL;
}

/* Writes module, root and index, worked out from the name (2.2). */
static void
put_names(struct migx *mx, const struct instr *in, const char *header)
{
	struct sl mod, idx;

	name_parts(in, &mod, &idx);
	if (mod.p != NULL)
		put_str(mx, "module", mod.p, mod.n, in->plain);
	else if (header != NULL)
		ndw_strz(&mx->w, "module", header);
	else
		ndw_null(&mx->w, "module");
	ndw_bool(&mx->w, "root", mod.p == NULL);
	if (idx.p != NULL)
		ndw_raw(&mx->w, "index", idx.p, idx.n);
	else
		ndw_null(&mx->w, "index");
}

/*
 * The plain path (in->plain: the line holds nothing to escape): every
 * member of the record laid out at d, in room made once, without a call
 * per member.  This is the producers' hot path: it writes the same bytes
 * as the members of instr_fields() would.
 */

/* The room the plain path needs: each piece of the line at most 8 times. */
static size_t
plain_room(const struct instr *in)
{
	return 4 * in->name.n + in->param.n + 2 * in->op.n +
	    8 * in->attrs.n + in->literal.n + 4 * (in->args.n +
	    in->modargs.n + in->dbg.n) + 2 * in->shape.n + in->tid.n +
	    in->time.n + in->pct.n + 1024;
}

/* key:"s", or key:null when s is absent (key a literal with its ','). */
#define SL_AT(d, key, s) ((s).p != NULL ? (LIT((d), key), \
	(d) = q_str((d), (s).p, (s).n)) : LIT((d), key "null"))

/* Writes module, root and index at d (a non-plain header goes by ndw). */
static char *
names_at(struct migx *mx, char *d, const struct instr *in, const char *header,
    size_t room)
{
	struct sl mod, idx;

	name_parts(in, &mod, &idx);
	if (mod.p != NULL) {
		LIT(d, ",\"module\":");
		d = q_str(d, mod.p, mod.n);
		LIT(d, ",\"root\":false");
	} else {
		if (header != NULL) {
			ndw_commit(&mx->w, d);
			ndw_strz(&mx->w, "module", header);
			d = ndw_reserve(&mx->w, room);
		} else
			LIT(d, ",\"module\":null");
		LIT(d, ",\"root\":true");
	}
	if (idx.p != NULL) {
		LIT(d, ",\"index\":");
		d = cpy(d, idx.p, idx.n);
	} else
		LIT(d, ",\"index\":null");
	return d;
}

/* A number that is not a JSON number as printed, by put_num(). */
static char *
num_slow(struct migx *mx, char *d, const char *key, struct sl t, size_t room)
{
	ndw_commit(&mx->w, d);
	put_num(mx, key, t.p, t.n);
	return ndw_reserve(&mx->w, room);
}

/*
 * ,"key":number (key a string literal), or ,"key":null when absent; json:
 * the number is known to be a JSON number as it stands.
 */
#define NUM_AT(mx, d, key, t, json, room) ((t).p == NULL ? \
	LIT((d), "," #key ":null") : (json) || json_num((t).p, (t).n) ? \
	(LIT((d), "," #key ":"), (d) = cpy((d), (t).p, (t).n)) : \
	((d) = num_slow((mx), (d), key, (t), (room))))

/* The time, percentage and Summary group of a perf line. */
static char *
perf_at(struct migx *mx, char *d, const struct instr *in, int old_groups,
    size_t room)
{
	struct sl sym;

	NUM_AT(mx, d, "time_ms", in->time, in->json & JSON_TIME, room);
	NUM_AT(mx, d, "pct", in->pct, in->json & JSON_PCT, room);
	if (in->is_return)
		return d;
	LIT(d, ",\"group\":\"");
	d = cpy(d, in->op.p, in->op.n);
	if (!old_groups && sl_eq(in->op, "gpu::code_object") &&
	    (sym = symbol_name(in->attrs)).p != NULL) {
		LIT(d, "::");
		d = cpy(d, sym.p, sym.n);
	}
	*d++ = '"';
	return d;
}

/*
 * Shapes and attribute lists repeat (a model has few distinct ones), so
 * the JSON made of the texts seen last is kept by their text, in small
 * tables of fixed size, and copied from there the next time.  Only plain
 * texts are kept, whose JSON depends on nothing else.
 */
#define MEMO_SLOTS 256		/* a power of two */
#define MEMO_KEY 160		/* longer texts are not kept */
#define MEMO_VAL 512		/* nor longer JSON */
struct memo {
	unsigned short kn, vn;	/* vn == 0: empty */
	char key[MEMO_KEY];
	char val[MEMO_VAL];
};
static struct memo shape_memo[MEMO_SLOTS], attrs_memo[MEMO_SLOTS];

/*
 * A hash of p[0..n), eight bytes at a time, for memo_slot(), which takes
 * its top bits: those depend on every bit of every word, so the words
 * need no mixing in between.
 */
static inline uint64_t
text_hash(const char *p, size_t n)
{
	const uint64_t k = 0x9e3779b97f4a7c15u;
	uint64_t h = n * k, w;
	size_t i;

	if (n < 8) {
		for (i = 0; i < n; i++)
			h = (h ^ (unsigned char)p[i]) * 0x100000001b3u;
		return h;
	}
	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * k;
	}
	memcpy(&w, p + n - 8, 8);	/* the tail, overlapping */
	return (h ^ w) * k;
}

/* The slot of t for the text p[0..n), or NULL when it is not kept. */
static inline struct memo *
memo_slot(struct memo *t, const char *p, size_t n)
{
	_Static_assert(MEMO_SLOTS == 256, "memo_slot takes 8 bits");
	return n <= MEMO_KEY ? &t[text_hash(p, n) >> 56] : NULL;
}

/* memcpy(d, s, n) inline, as same_bytes_long() reads (no byte past n). */
static inline void
copy_text(char *d, const char *s, size_t n)
{
	size_t i;

	if (n < 16) {
		memcpy(d, s, n);
		return;
	}
	for (i = 0; i + 16 < n; i += 16)
		memcpy(d + i, s + i, 16);
	memcpy(d + n - 16, s + n - 16, 16);
}

/* Copies the JSON kept in c for p[0..n) to d; its end, or NULL. */
static inline char *
memo_get(const struct memo *c, const char *p, size_t n, char *d)
{
	if (c == NULL || c->vn == 0 || c->kn != n || !same_bytes_long(c->key, p, n))
		return NULL;
	copy_text(d, c->val, c->vn);
	return d + c->vn;
}

/* Keeps the JSON v[0..vn) of p[0..n) in c (when it fits). */
static inline void
memo_put(struct memo *c, const char *p, size_t n, const char *v, size_t vn)
{
	if (c == NULL || vn == 0 || vn > MEMO_VAL)
		return;
	c->kn = (unsigned short)n;
	memcpy(c->key, p, n);
	c->vn = (unsigned short)vn;
	memcpy(c->val, v, vn);
}

/*
 * The JSON of the shape sh at d, kept or by shp_fast() (room for sh.n +
 * 128 bytes); NULL when the shape is for the full parser.
 */
static char *
shape_at(char *d, struct sl sh)
{
	struct memo *c = memo_slot(shape_memo, sh.p, sh.n);
	char *f;

	if ((f = memo_get(c, sh.p, sh.n, d)) != NULL)
		return f;
	if ((f = shp_fast(d, sh.p, sh.p + sh.n)) != NULL)
		memo_put(c, sh.p, sh.n, d, (size_t)(f - d));
	return f;
}

/*
 * Below this length a list of key=value pieces is split again rather
 * than looked up: attrs_flat() costs less than a lookup, and half the
 * short lists ("offset=0,end=64", "id=main:@literal:3") are seen once.
 */
#define ATTRS_SHORT 48

/* The attrs object of the plain text a at d, kept or made. */
static char *
attrs_plain(struct migx *mx, char *d, struct sl a)
{
	struct memo *c;
	char *f;

	if (a.n <= ATTRS_SHORT && (f = attrs_flat(d, a)) != NULL)
		return f;
	c = memo_slot(attrs_memo, a.p, a.n);
	if ((f = memo_get(c, a.p, a.n, d)) != NULL)
		return f;
	if ((f = attrs_flat(d, a)) == NULL)
		f = attrs_at(mx, &mx->w.buf, d, a, 1);
	memo_put(c, a.p, a.n, d, (size_t)(f - d));
	return f;
}

static void
fields_plain(struct migx *mx, const struct instr *in, int perf,
    const char *header, int old_groups)
{
	struct strbuf *sb = &mx->w.buf;
	size_t room = plain_room(in);
	char *d = ndw_reserve(&mx->w, room), *f;

	LIT(d, ",\"name\":");
	d = q_str(d, in->name.p, in->name.n);
	d = names_at(mx, d, in, header, room);
	SL_AT(d, ",\"param\":", in->param);
	LIT(d, ",\"op\":");
	d = q_str(d, in->op.p, in->op.n);
	SL_AT(d, ",\"attrs_raw\":", in->attrs);
	if (mx->opt.attr_split && in->attrs.p != NULL) {
		LIT(d, ",\"attrs\":");
		d = attrs_plain(mx, d, in->attrs);
	} else if (mx->opt.attr_split)
		LIT(d, ",\"attrs\":{}");
	SL_AT(d, ",\"literal_raw\":", in->literal);
	LIT(d, ",\"args\":");
	if (in->args.p != NULL)
		d = list_at(mx, sb, d, in->args, 1);
	else
		LIT(d, "[]");
	/* Most instructions have no module arguments: no call for those. */
	if (in->modargs.p != NULL) {
		LIT(d, ",\"module_args\":");
		d = list_at(mx, sb, d, in->modargs, 1);
	} else
		LIT(d, ",\"module_args\":[]");
	SL_AT(d, ",\"shape_raw\":", in->shape);
	if (in->shape.p == NULL)
		LIT(d, ",\"shape\":null");
	else {
		LIT(d, ",\"shape\":");
		if ((f = shape_at(d, in->shape)) != NULL)
			d = f;
		else {
			sb->len = (size_t)(d - sb->buf);
			shape_slow(mx, sb, in->shape);
			d = ndw_reserve(&mx->w, room);
		}
	}
	if (in->tid.p != NULL) {
		LIT(d, ",\"target_id\":");
		d = cpy(d, in->tid.p, in->tid.n);
	} else
		LIT(d, ",\"target_id\":null");
	LIT(d, ",\"debug_symbols\":");
	if (in->dbg.p != NULL)
		d = list_at(mx, sb, d, in->dbg, 1);
	else
		LIT(d, "null");
	if (perf)
		d = perf_at(mx, d, in, old_groups, room);
	ndw_commit(&mx->w, d);
}

/* A slice, or null when absent (a macro, as put_str() is). */
#define put_sl(mx, key, s, plain) ((s).p != NULL ? \
	put_str((mx), (key), (s).p, (s).n, (plain)) : ndw_null(&(mx)->w, (key)))

/*
 * Writes the fields of one instruction, from "name" on.  header names the
 * module of unprefixed program lines (NULL: none).  perf adds time_ms,
 * pct and group.
 */
void
instr_fields(struct migx *mx, const struct instr *in, const char *section,
    const char *header, int old_groups)
{
	static struct strbuf grp = STRBUF_INIT;
	int perf = section[0] == 'p' && section[1] == 'e', pl = in->plain;

	if (pl && !(mx->w.flags & NDW_HTML_SAFE)) {
		fields_plain(mx, in, perf, header, old_groups);
		return;
	}
	put_str(mx, "name", in->name.p, in->name.n, pl);
	put_names(mx, in, header);
	put_sl(mx, "param", in->param, pl);
	put_str(mx, "op", in->op.p, in->op.n, pl);
	put_sl(mx, "attrs_raw", in->attrs, pl);
	if (mx->opt.attr_split) {
		if (in->attrs.p != NULL)
			put_attrs(mx, in->attrs, pl);
		else
			ndw_raw(&mx->w, "attrs", "{}", 2);
	}
	put_sl(mx, "literal_raw", in->literal, pl);
	put_list(mx, "args", in->args, pl);
	put_list(mx, "module_args", in->modargs, pl);
	put_sl(mx, "shape_raw", in->shape, pl);
	if (in->shape.p != NULL)
		put_shape(mx, in->shape);
	else
		ndw_null(&mx->w, "shape");
	if (in->tid.p != NULL)
		ndw_raw(&mx->w, "target_id", in->tid.p, in->tid.n);
	else
		ndw_null(&mx->w, "target_id");
	if (in->dbg.p != NULL)
		put_list(mx, "debug_symbols", in->dbg, pl);
	else
		ndw_null(&mx->w, "debug_symbols");
	if (!perf)
		return;
	if (in->time.p != NULL)
		put_numk(mx, "time_ms", in->time.p, in->time.n);
	else
		ndw_null(&mx->w, "time_ms");
	if (in->pct.p != NULL)
		put_numk(mx, "pct", in->pct.p, in->pct.n);
	else
		ndw_null(&mx->w, "pct");
	if (!in->is_return) {
		instr_group(in, old_groups, &grp);
		put_str(mx, "group", grp.buf, grp.len, pl);
	}
}

/*
 * lines.c: the lines of the input, straight from zin's buffer or mapped
 * window (zin_peek()), each found and looked at in one pass: where its
 * '\n' is, and whether it holds bytes that need a second look (what
 * line_bytes() in main.c tells).
 */
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define LINES_AVX2 1
#endif

#include "zin.h"

#include "migx.h"

/*
 * Scans b[l->scan..e) for the '\n' of the line that starts at b, adding
 * to l->cls what the bytes before it are; returns its offset, or e (then
 * l->scan is e).  With SSE2, 32 bytes at a
 * time while there is nothing to see, and a look at the 16-byte blocks
 * that have something: a signed compare with 0x20 finds control bytes
 * (the '\n' among them) and those above 0x7f at once.
 */
static size_t
lines_scan(struct lines *l, const char *p, size_t e)
{
	const unsigned char *b = (const unsigned char *)p;
	size_t i = l->scan;
#ifdef __SSE2__
	const __m128i sp = _mm_set1_epi8(0x20), nl = _mm_set1_epi8('\n'),
	    q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\');
	__m128i v, w;
	unsigned m, c, n, below;

#define SPECIAL(v) _mm_or_si128(_mm_cmplt_epi8((v), sp), \
	_mm_or_si128(_mm_cmpeq_epi8((v), q), _mm_cmpeq_epi8((v), bs)))
	for (; e - i >= 32; i += 32) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
		w = _mm_loadu_si128((const __m128i *)(const void *)(b + i + 16));
		if (_mm_movemask_epi8(_mm_or_si128(SPECIAL(v), SPECIAL(w))) != 0)
			break;
	}
	for (; e - i >= 16; i += 16) {
		v = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
		if ((m = (unsigned)_mm_movemask_epi8(SPECIAL(v))) == 0)
			continue;
		c = (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(v, sp));
		n = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl));
		below = n != 0 ? (1u << __builtin_ctz(n)) - 1 : 0xffffu;
		if (c & below)
			l->cls |= LN_CTL;
		if (m & ~c & below)
			l->cls |= LN_QUOTE;
		if (n != 0)
			return l->scan = i + (size_t)__builtin_ctz(n);
	}
#undef SPECIAL
#endif
	for (; i < e; i++) {
		if (b[i] == '\n')
			return l->scan = i;
		if (b[i] < 0x20 || b[i] >= 0x80)
			l->cls |= LN_CTL;
		else if (b[i] == '"' || b[i] == '\\')
			l->cls |= LN_QUOTE;
	}
	return l->scan = e;
}

#ifdef LINES_AVX2
/*
 * lines_scan() with AVX2, on processors that have it: 64 bytes a step
 * while there is nothing to see, then 32-byte blocks, the rest by
 * lines_scan().  The same answers, in fewer steps.
 */
__attribute__((target("avx2"))) static size_t
lines_scan_avx2(struct lines *l, const char *p, size_t e)
{
	const unsigned char *b = (const unsigned char *)p;
	size_t i = l->scan;
	const __m256i sp = _mm256_set1_epi8(0x20), nl = _mm256_set1_epi8('\n'),
	    q = _mm256_set1_epi8('"'), bs = _mm256_set1_epi8('\\');
	__m256i v, w;
	unsigned m, c, n, below;

#define SPECIAL8(v) _mm256_or_si256(_mm256_cmpgt_epi8(sp, (v)), \
	_mm256_or_si256(_mm256_cmpeq_epi8((v), q), _mm256_cmpeq_epi8((v), bs)))
	for (; e - i >= 64; i += 64) {
		v = _mm256_loadu_si256((const __m256i *)(const void *)(b + i));
		w = _mm256_loadu_si256((const __m256i *)(const void *)
		    (b + i + 32));
		if (!_mm256_testz_si256(_mm256_or_si256(SPECIAL8(v),
		    SPECIAL8(w)), _mm256_set1_epi8(-1)))
			break;
	}
	for (; e - i >= 32; i += 32) {
		v = _mm256_loadu_si256((const __m256i *)(const void *)(b + i));
		if ((m = (unsigned)_mm256_movemask_epi8(SPECIAL8(v))) == 0)
			continue;
		c = (unsigned)_mm256_movemask_epi8(_mm256_cmpgt_epi8(sp, v));
		n = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, nl));
		below = n != 0 ? (1u << __builtin_ctz(n)) - 1 : 0xffffffffu;
		if (c & below)
			l->cls |= LN_CTL;
		if (m & ~c & below)
			l->cls |= LN_QUOTE;
		if (n != 0)
			return l->scan = i + (size_t)__builtin_ctz(n);
	}
#undef SPECIAL8
	l->scan = i;
	return lines_scan(l, p, e);
}
#endif

void
lines_init(struct lines *l, struct zin *z)
{
	memset(l, 0, sizeof(*l));
	l->z = z;
	l->scan_fn = lines_scan;
#ifdef LINES_AVX2
	if (__builtin_cpu_supports("avx2"))
		l->scan_fn = lines_scan_avx2;
#endif
}

/*
 * Reads one line without its '\n', as zin_getline() does: 1 with *s, *n
 * and *cls set (LN_CTL, LN_QUOTE: what the line holds), 0 at the end, -1
 * on a read error (zin_error() tells).  The line lies in l->lo..l->hi,
 * which ZIN_PAD readable bytes follow.
 */
int
lines_get(struct lines *l, const char **s, size_t *n, unsigned *cls)
{
	const char *p;
	size_t have, nl;
	ssize_t got;

	l->no_newline = 0;
	for (;;) {
		have = zin_peek(l->z, &p);
		if ((nl = l->scan_fn(l, p, have)) < have)
			break;
		if (l->eof) {
			if (have == 0)
				return 0;
			l->no_newline = 1;
			break;
		}
		if ((got = zin_fill(l->z)) < 0)
			return -1;
		if (got == 0)
			l->eof = 1;
	}
	l->lo = *s = p;
	l->hi = p + have;
	*n = nl;
	*cls = l->cls;
	l->cls = 0;
	l->scan = 0;
	zin_take(l->z, nl + !l->no_newline);
	return 1;
}

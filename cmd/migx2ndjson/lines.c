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

#include "zin.h"

#include "migx.h"

void
lines_init(struct lines *l, struct zin *z)
{
	memset(l, 0, sizeof(*l));
	l->z = z;
}

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

/*
 * The lines some way ahead are asked for now: a mapped file's bytes come
 * from memory the first time they are read, and the hardware's own
 * prefetch stops at each page.
 */
#define PREFETCH(p, have) do { \
	if ((have) > 1024) { \
		__builtin_prefetch((p) + 768); \
		__builtin_prefetch((p) + 832); \
		__builtin_prefetch((p) + 896); \
	} \
} while (0)

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
		PREFETCH(p, have);
		if ((nl = lines_scan(l, p, have)) < have)
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

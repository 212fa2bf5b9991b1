/*
 * bytes.h: whether two short byte strings are the same, memcmp() without
 * the call, for the hot compares of names and keys that are mostly short
 * (same_bytes()) or mostly 16 bytes and more (same_bytes_long()); and
 * PREFETCH_FN for the hints that ask for bytes before they are read.
 */
#ifndef BYTES_H
#define BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/*
 * The head of a function whose only effect is __builtin_prefetch(): gcc
 * takes a prefetch for no side effect, so it may find such a function
 * pure and drop a call that it did not inline first.  It dropped
 * flame2html's hint for the text of the names it was about to look up
 * (the loads and the branch before the prefetch kept that function from
 * the early inlining), so the hint never ran.  Inlined always, a hint
 * stays.
 */
#define PREFETCH_FN static inline __attribute__((always_inline)) void

/*
 * Are a[0..n) and b[0..n) the same bytes?  Words at a time, the last one
 * overlapping the one before, so that no byte past n is read.  From 8 to
 * 32 bytes, the most common lengths of names, four words are compared
 * at once without a loop, whose end is mispredicted when the lengths
 * vary.
 */
static inline int
same_bytes(const char *a, const char *b, size_t n)
{
	uint64_t x, y, d;
	uint32_t u, w;
	size_t i, l8 = n - 8, o1, o2;

	if (l8 <= 24) {
		o1 = l8 < 8 ? l8 : 8;
		o2 = l8 < 16 ? l8 : 16;
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		d = x ^ y;
		memcpy(&x, a + o1, 8);
		memcpy(&y, b + o1, 8);
		d |= x ^ y;
		memcpy(&x, a + o2, 8);
		memcpy(&y, b + o2, 8);
		d |= x ^ y;
		memcpy(&x, a + l8, 8);
		memcpy(&y, b + l8, 8);
		return (d | (x ^ y)) == 0;
	}
	if (n >= 8) {
		for (i = 0; i + 8 < n; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (x != y)
				return 0;
		}
		memcpy(&x, a + n - 8, 8);
		memcpy(&y, b + n - 8, 8);
		return x == y;
	}
	if (n >= 4) {
		memcpy(&u, a, 4);
		memcpy(&w, b, 4);
		if (u != w)
			return 0;
		memcpy(&u, a + n - 4, 4);
		memcpy(&w, b + n - 4, 4);
		return u == w;
	}
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/*
 * The same for strings that are mostly 16 bytes or longer (keys, shapes):
 * sixteen bytes at a time where SSE2 is, the last sixteen overlapping
 * the ones before, so that again no byte past n is read.
 */
static inline int
same_bytes_long(const char *a, const char *b, size_t n)
{
#ifdef __SSE2__
	__m128i x, y;
	size_t i;

	if (n >= 16) {
		for (i = 0; i + 16 < n; i += 16) {
			x = _mm_loadu_si128((const __m128i *)(const void *)(a + i));
			y = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
			if (_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) != 0xffff)
				return 0;
		}
		x = _mm_loadu_si128((const __m128i *)(const void *)(a + n - 16));
		y = _mm_loadu_si128((const __m128i *)(const void *)(b + n - 16));
		return _mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) == 0xffff;
	}
#endif
	return same_bytes(a, b, n);
}

#endif

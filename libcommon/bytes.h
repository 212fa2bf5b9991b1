/*
 * bytes.h: whether two short byte strings are the same, memcmp() without
 * the call, for the hot compares of names and keys that are mostly short.
 */
#ifndef BYTES_H
#define BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

#endif

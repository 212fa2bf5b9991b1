/*
 * utf8.h: the one UTF-8 validator (RFC 3629).
 *
 * utf8_len() is what nd's reader, ndw's writer and html's escaper all
 * accept as UTF-8: no overlong forms (C0, C1, E0 80..9F, F0 80..8F), no
 * surrogates (ED A0..BF), nothing above U+10FFFF (F4 90.., F5..FF), no
 * sequence cut short.  It is inline because the reader's string scanner
 * calls it for every non-ASCII character.
 */
#ifndef UTF8_H
#define UTF8_H

#include <stddef.h>

/*
 * The length (1 to 4) of the valid UTF-8 sequence at p, of which n >= 1
 * bytes are available, or 0 when the bytes there are not one.
 */
static inline size_t
utf8_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0], lo = 0x80, hi = 0xBF;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		lo = c == 0xE0 ? 0xA0 : 0x80;
		hi = c == 0xED ? 0x9F : 0xBF;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		lo = c == 0xF0 ? 0x90 : 0x80;
		hi = c == 0xF4 ? 0x8F : 0xBF;
	} else
		return 0;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xBF)
			return 0;
	return len;
}

#endif

/*
 * digits.h: eight ASCII decimal digits at once, in a 64-bit word loaded
 * from memory on a little-endian machine (SWAR, as in Lemire's fast
 * number parsing): the first digit in memory is the low byte.
 */
#ifndef DIGITS_H
#define DIGITS_H

#include <stdint.h>

/* 1 if the 8 bytes of w are all decimal digits. */
static inline int
digits_all8(uint64_t w)
{
	const uint64_t f0 = 0xF0F0F0F0F0F0F0F0ULL;
	const uint64_t zeros = 0x3030303030303030ULL;

	return (w & f0) == zeros &&
	    ((w + 0x0606060606060606ULL) & f0) == zeros;
}

/* The value of the 8 digits of w (digits_all8(w)), first digit first. */
static inline uint64_t
digits_value8(uint64_t w)
{
	w -= 0x3030303030303030ULL;
	w = w * 10 + (w >> 8);
	return (((w & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
	    (((w >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >>
	    32;
}

#endif

/* test_utf8.c: the one UTF-8 validator (utf8.h). */
#include "unit.h"
#include "utf8.h"

/* Bytes, how many of them are available, and the length utf8_len owes. */
static const struct {
	const char *s;
	size_t n;
	size_t want;
} cases[] = {
	{ "A", 1, 1 },
	{ "\x7f", 1, 1 },
	{ "\xc2\x80", 2, 2 },			/* U+0080, the first of 2 */
	{ "\xc3\xa9", 2, 2 },			/* U+00E9 */
	{ "\xdf\xbf", 2, 2 },			/* U+07FF, the last of 2 */
	{ "\xe0\xa0\x80", 3, 3 },		/* U+0800 */
	{ "\xe2\x80\xa8", 3, 3 },		/* U+2028 */
	{ "\xed\x9f\xbf", 3, 3 },		/* U+D7FF, below the surrogates */
	{ "\xee\x80\x80", 3, 3 },		/* U+E000, above them */
	{ "\xef\xbf\xbf", 3, 3 },		/* U+FFFF */
	{ "\xf0\x90\x80\x80", 4, 4 },		/* U+10000 */
	{ "\xf0\x9f\x94\xa5", 4, 4 },		/* U+1F525 */
	{ "\xf4\x8f\xbf\xbf", 4, 4 },		/* U+10FFFF */
	{ "\xc3\xa9x", 3, 2 },			/* only the sequence counts */
	/* overlong */
	{ "\xc0\x80", 2, 0 },
	{ "\xc1\xbf", 2, 0 },
	{ "\xe0\x80\x80", 3, 0 },
	{ "\xe0\x9f\xbf", 3, 0 },
	{ "\xf0\x80\x80\x80", 4, 0 },
	{ "\xf0\x8f\xbf\xbf", 4, 0 },
	/* surrogates */
	{ "\xed\xa0\x80", 3, 0 },		/* U+D800 */
	{ "\xed\xaf\xbf", 3, 0 },		/* U+DBFF */
	{ "\xed\xb0\x80", 3, 0 },		/* U+DC00 */
	{ "\xed\xbf\xbf", 3, 0 },		/* U+DFFF */
	/* above U+10FFFF */
	{ "\xf4\x90\x80\x80", 4, 0 },
	{ "\xf5\x80\x80\x80", 4, 0 },
	{ "\xf7\xbf\xbf\xbf", 4, 0 },
	{ "\xf8\x88\x80\x80\x80", 5, 0 },
	{ "\xff", 1, 0 },
	/* truncated: cut by n, or by a byte that does not continue */
	{ "\xc3\xa9", 1, 0 },
	{ "\xe2\x80\xa8", 2, 0 },
	{ "\xe2\x80\xa8", 1, 0 },
	{ "\xf0\x9f\x94\xa5", 3, 0 },
	{ "\xf0\x9f\x94\xa5", 1, 0 },
	{ "\xc3" "A", 2, 0 },
	{ "\xe2\x80" "A", 3, 0 },
	{ "\xf0\x9f\x94" "A", 4, 0 },
	{ "\xe2\xc3\xa9", 3, 0 },
	/* a continuation byte alone */
	{ "\x80", 1, 0 },
	{ "\xbf", 1, 0 },
};

static void
table_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t got = utf8_len((const unsigned char *)cases[i].s,
		    cases[i].n);

		if (got != cases[i].want)
			fail_msg("case %zu: utf8_len = %zu, want %zu", i, got,
			    cases[i].want);
	}
}

/*
 * The validator worked out from the definition instead of from byte
 * ranges: decode the bits, then refuse the overlong, the surrogates and
 * what is above U+10FFFF.
 */
static size_t
by_decoding(const unsigned char *p, size_t n)
{
	static const unsigned long min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned long cp;
	size_t len, i;

	if ((p[0] & 0x80) == 0)
		return 1;
	if ((p[0] & 0xE0) == 0xC0)
		len = 2, cp = p[0] & 0x1F;
	else if ((p[0] & 0xF0) == 0xE0)
		len = 3, cp = p[0] & 0x0F;
	else if ((p[0] & 0xF8) == 0xF0)
		len = 4, cp = p[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3F);
	}
	if (cp < min[len] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
		return 0;
	return len;
}

/* Every 1-, 2- and 3-byte string, each also cut to fewer bytes. */
static void
agrees_with_decoding_up_to_3_bytes(void **state)
{
	unsigned char b[3];
	unsigned long v;
	size_t n;

	(void)state;
	for (v = 0; v < 1UL << 24; v++) {
		b[0] = (unsigned char)(v >> 16);
		b[1] = (unsigned char)(v >> 8);
		b[2] = (unsigned char)v;
		for (n = 1; n <= 3; n++)
			if (utf8_len(b, n) != by_decoding(b, n))
				fail_msg("%02x %02x %02x (%zu bytes): %zu, "
				    "want %zu", b[0], b[1], b[2], n,
				    utf8_len(b, n), by_decoding(b, n));
	}
}

/* 4-byte leads with every second byte, the last two at the edges. */
static void
agrees_with_decoding_at_4_bytes(void **state)
{
	static const unsigned char edge[] = { 0x00, 0x7F, 0x80, 0xA5, 0xBF,
	    0xC0, 0xFF };
	unsigned char b[4];
	unsigned lead, second, i, j;
	size_t n;

	(void)state;
	for (lead = 0xF0; lead <= 0xFF; lead++)
		for (second = 0; second <= 0xFF; second++)
			for (i = 0; i < sizeof(edge); i++)
				for (j = 0; j < sizeof(edge); j++) {
					b[0] = (unsigned char)lead;
					b[1] = (unsigned char)second;
					b[2] = edge[i];
					b[3] = edge[j];
					for (n = 1; n <= 4; n++)
						assert_int_equal(
						    utf8_len(b, n),
						    by_decoding(b, n));
				}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_cases),
		cmocka_unit_test(agrees_with_decoding_up_to_3_bytes),
		cmocka_unit_test(agrees_with_decoding_at_4_bytes),
	};

	return cmocka_run_group_tests_name("utf8", tests, NULL, NULL);
}

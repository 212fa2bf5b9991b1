/* test_bytes.c: same_bytes() and same_bytes_long() (bytes.h) say what
 * memcmp() says. */
#include <string.h>

#include "unit.h"
#include "bytes.h"

/*
 * Every length up to 72 (past the four-word compare of 8 to 32 bytes and
 * its loop), the strings at every alignment, equal and then
 * with one byte changed at every position: the answer must be memcmp()'s.
 * The strings end at the end of their buffers, so a read past n shows
 * under ASan and valgrind.
 */
static void
agrees_with_memcmp(void **state)
{
	static char a[80 + 8], b[80 + 8];
	size_t n, off, k, i;
	char *x, *y;

	(void)state;
	for (n = 0; n <= 72; n++)
		for (off = 0; off < 8; off++) {
			x = a + sizeof(a) - n - off;
			y = b + sizeof(b) - n;
			for (i = 0; i < n; i++)
				x[i] = y[i] = (char)('a' + (i * 7 + off) % 26);
			assert_int_equal(same_bytes(x, y, n),
			    memcmp(x, y, n) == 0);
			assert_true(same_bytes(x, y, n));
			assert_true(same_bytes_long(x, y, n));
			for (k = 0; k < n; k++) {
				y[k] ^= 0x20;
				assert_false(same_bytes(x, y, n));
				assert_false(same_bytes(y, x, n));
				assert_false(same_bytes_long(x, y, n));
				assert_false(same_bytes_long(y, x, n));
				y[k] ^= 0x20;
			}
		}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(agrees_with_memcmp),
	};

	return cmocka_run_group_tests_name("bytes", tests, NULL, NULL);
}

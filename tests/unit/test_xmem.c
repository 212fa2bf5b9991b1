/* test_xmem.c: allocation that never fails (xmem.h). */
#include <stdint.h>

#include "unit.h"
#include "err.h"
#include "xmem.h"

static void
zero_bytes_give_a_block(void **state)
{
	void *p = xmalloc(0), *q = xcalloc(0, 8), *r = xreallocarray(NULL, 0,
	    4);

	(void)state;
	assert_non_null(p);
	assert_non_null(q);
	assert_non_null(r);
	p = xrealloc(p, 0);
	assert_non_null(p);
	free(p);
	free(q);
	free(r);
}

static void
realloc_keeps_the_contents(void **state)
{
	char *p = xmalloc(4);
	int *a = NULL;
	size_t i;

	(void)state;
	memcpy(p, "abc", 4);
	p = xrealloc(p, 1 << 20);
	assert_string_equal(p, "abc");
	free(p);
	for (i = 0; i < 1000; i++) {
		a = xreallocarray(a, i + 1, sizeof(*a));
		a[i] = (int)i;
	}
	for (i = 0; i < 1000; i++)
		assert_int_equal(a[i], (int)i);
	free(a);
}

static void
calloc_zeroes(void **state)
{
	unsigned char *p = xcalloc(100, 3);
	size_t i;

	(void)state;
	for (i = 0; i < 300; i++)
		assert_int_equal(p[i], 0);
	free(p);
}

static void
strdup_copies(void **state)
{
	const char *s = "a string";
	char *d = xstrdup(s), *e = xstrdup("");

	(void)state;
	assert_string_equal(d, s);
	assert_ptr_not_equal(d, s);
	assert_string_equal(e, "");
	free(d);
	free(e);
}

static int use_calloc;

static void
call_overflow(void *arg)
{
	(void)arg;
	prog_init("prog");
	if (use_calloc)
		xcalloc(SIZE_MAX / 2, 3);
	else
		xreallocarray(NULL, SIZE_MAX / 2, 3);
}

static void
overflow_dies_out_of_memory(void **state)
{
	struct child c;

	(void)state;
	run_child(call_overflow, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "prog: out of memory\n");
	use_calloc = 1;
	run_child(call_overflow, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "prog: out of memory\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zero_bytes_give_a_block),
		cmocka_unit_test(realloc_keeps_the_contents),
		cmocka_unit_test(calloc_zeroes),
		cmocka_unit_test(strdup_copies),
		cmocka_unit_test(overflow_dies_out_of_memory),
	};

	return cmocka_run_group_tests_name("xmem", tests, NULL, NULL);
}

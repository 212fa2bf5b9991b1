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
table_is_zeroed_small_and_big(void **state)
{
	size_t sizes[] = { 100, 4u << 20, (4u << 20) + 3 }, i, j;

	(void)state;
	for (i = 0; i < 3; i++) {
		unsigned char *p = xcalloc_table(sizes[i]);

		for (j = 0; j < sizes[i]; j++)
			if (p[j] != 0)
				fail_msg("byte %zu of %zu is %d", j, sizes[i],
				    p[j]);
		p[sizes[i] - 1] = 1;
		free(p);
	}
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

static void
grow_doubles_from_16_and_keeps_the_contents(void **state)
{
	int *v = NULL;
	size_t n = 0, alloc = 0, i;

	(void)state;
	assert_int_equal(xgrow_room(0, 1), 16);
	assert_int_equal(xgrow_room(0, 17), 32);
	assert_int_equal(xgrow_room(16, 16), 16);
	assert_int_equal(xgrow_room(16, 17), 32);
	assert_int_equal(xgrow_room(5, 6), 10);
	assert_int_equal(xgrow_room(64, 1000), 1024);
	for (i = 0; i < 1000; i++) {
		XGROW(v, n + 1, alloc);
		assert_true(alloc >= n + 1);
		v[n++] = (int)i;
	}
	assert_int_equal(alloc, 1024);
	for (i = 0; i < 1000; i++)
		assert_int_equal(v[i], (int)i);
	v = xgrow(v, &alloc, 10, sizeof(*v));	/* room enough: unchanged */
	assert_int_equal(alloc, 1024);
	assert_int_equal(v[999], 999);
	free(v);
}

static void
call_grow_overflow(void *arg)
{
	(void)arg;
	prog_init("prog");
	xgrow_room((size_t)-1 / 2 + 1, (size_t)-1);
}

static void
grow_past_size_max_dies_out_of_memory(void **state)
{
	struct child c;

	(void)state;
	run_child(call_grow_overflow, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "prog: out of memory\n");
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
		cmocka_unit_test(table_is_zeroed_small_and_big),
		cmocka_unit_test(strdup_copies),
		cmocka_unit_test(overflow_dies_out_of_memory),
		cmocka_unit_test(grow_doubles_from_16_and_keeps_the_contents),
		cmocka_unit_test(grow_past_size_max_dies_out_of_memory),
	};

	return cmocka_run_group_tests_name("xmem", tests, NULL, NULL);
}

/* test_arena.c: the bump allocator (arena.h). */
#include <stdalign.h>

#include "unit.h"
#include "arena.h"

static void
allocations_are_aligned_and_distinct(void **state)
{
	struct arena a = ARENA_INIT;
	char *p[100];
	size_t i;

	(void)state;
	for (i = 0; i < 100; i++) {
		p[i] = arena_alloc(&a, i % 7 + 1);
		assert_int_equal((uintptr_t)p[i] % alignof(max_align_t), 0);
		memset(p[i], (int)i, i % 7 + 1);
	}
	for (i = 0; i < 100; i++)
		assert_int_equal((unsigned char)p[i][i % 7], i);
	arena_release(&a);
}

static void
large_allocations_get_their_own_chunk(void **state)
{
	struct arena a;
	char *small, *big;

	(void)state;
	arena_init(&a, 1024);
	small = arena_alloc(&a, 10);
	big = arena_alloc(&a, 10 * 1024 * 1024);
	memset(big, 'x', 10 * 1024 * 1024);
	strcpy(small, "intact");
	assert_string_equal(small, "intact");
	assert_int_equal(big[10 * 1024 * 1024 - 1], 'x');
	arena_release(&a);
}

static void
zero_size_allocations_are_distinct(void **state)
{
	struct arena a = ARENA_INIT;

	(void)state;
	assert_ptr_not_equal(arena_alloc(&a, 0), arena_alloc(&a, 0));
	arena_release(&a);
}

static void
strndup_copies_and_terminates(void **state)
{
	struct arena a = ARENA_INIT;
	char src[] = "hello world";
	char *s;

	(void)state;
	s = arena_strndup(&a, src, 5);
	src[0] = 'J';
	assert_string_equal(s, "hello");
	s = arena_strndup(&a, "a\0b", 3);
	assert_memory_equal(s, "a\0b", 4);
	arena_release(&a);
}

static void
reset_reuses_memory(void **state)
{
	struct arena a;
	char *first, *again;
	int round, i;

	(void)state;
	arena_init(&a, 4096);
	first = arena_alloc(&a, 100);
	for (round = 0; round < 100; round++) {
		arena_reset(&a);
		for (i = 0; i < 50; i++)
			memset(arena_alloc(&a, 200), i, 200);
	}
	arena_reset(&a);
	again = arena_alloc(&a, 100);
	assert_non_null(again);
	(void)first;
	arena_release(&a);
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(allocations_are_aligned_and_distinct),
		cmocka_unit_test(large_allocations_get_their_own_chunk),
		cmocka_unit_test(zero_size_allocations_are_distinct),
		cmocka_unit_test(strndup_copies_and_terminates),
		cmocka_unit_test(reset_reuses_memory),
	};

	return cmocka_run_group_tests_name("arena", tests, NULL, NULL);
}

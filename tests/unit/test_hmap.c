/* test_hmap.c: the string-keyed hash map (hmap.h). */
#include "unit.h"
#include "hmap.h"

static void
put_then_get_finds_the_value(void **state)
{
	struct hmap h;
	int one = 1, two = 2;

	(void)state;
	hmap_init(&h, 0);
	assert_null(hmap_get(&h, "a", 1));
	*hmap_put(&h, "a", 1) = &one;
	*hmap_put(&h, "b", 1) = &two;
	assert_ptr_equal(*hmap_get(&h, "a", 1), &one);
	assert_ptr_equal(*hmap_get(&h, "b", 1), &two);
	assert_null(hmap_get(&h, "c", 1));
	assert_null(hmap_get(&h, "ab", 2));
	assert_int_equal(h.n, 2);
	hmap_release(&h);
}

static void
put2_tells_whether_the_key_is_new(void **state)
{
	struct hmap h;
	void **slot;
	int isnew;

	(void)state;
	hmap_init(&h, 4);
	slot = hmap_put2(&h, "k", 1, &isnew);
	assert_true(isnew);
	assert_null(*slot);
	*slot = &h;
	slot = hmap_put2(&h, "k", 1, &isnew);
	assert_false(isnew);
	assert_ptr_equal(*slot, &h);
	hmap_release(&h);
}

static void
keys_are_copied_and_may_hold_nul(void **state)
{
	struct hmap h;
	char key[] = "a\0b";
	struct hmap_ent *e;

	(void)state;
	hmap_init(&h, 0);
	*hmap_put(&h, key, 3) = key;
	assert_null(hmap_get(&h, "a", 1));
	key[2] = 'c';
	assert_null(hmap_get(&h, key, 3));
	assert_non_null(hmap_get(&h, "a\0b", 3));
	*hmap_put(&h, "", 0) = key;
	assert_non_null(hmap_get(&h, "", 0));
	e = h.ents;
	assert_int_equal(e->len, 3);
	assert_memory_equal(e->key, "a\0b", 4);
	hmap_release(&h);
}

static void
many_keys_keep_insertion_order(void **state)
{
	struct hmap h;
	struct hmap_ent *e;
	char key[32];
	size_t i, n = 100000;
	int len;

	(void)state;
	hmap_init(&h, 0);
	for (i = 0; i < n; i++) {
		len = snprintf(key, sizeof(key), "kernel_%zu", i * 7919);
		*hmap_put(&h, key, (size_t)len) = (void *)(uintptr_t)(i + 1);
	}
	assert_int_equal(h.n, n);
	for (i = 0; i < n; i++) {
		len = snprintf(key, sizeof(key), "kernel_%zu", i * 7919);
		assert_int_equal((uintptr_t)*hmap_get(&h, key, (size_t)len),
		    i + 1);
	}
	i = 0;
	hmap_foreach(&h, e) {
		len = snprintf(key, sizeof(key), "kernel_%zu", i * 7919);
		assert_int_equal(e->len, (size_t)len);
		assert_memory_equal(e->key, key, (size_t)len);
		i++;
	}
	assert_int_equal(i, n);
	hmap_release(&h);
}

static void
hash_differs_for_similar_keys(void **state)
{
	(void)state;
	assert_true(hmap_hash("ab", 2) != hmap_hash("ba", 2));
	assert_true(hmap_hash("a", 1) != hmap_hash("a\0", 2));
	assert_true(hmap_hash("x", 1) == hmap_hash("x", 1));
}

/*
 * Keys that differ only in the last byte of a word still spread over the
 * low bits, which index the table (a hash that let only the low bytes
 * reach them put these 256 keys in a handful of slots).
 */
static void
hash_low_bits_depend_on_every_byte(void **state)
{
	char key[16];
	unsigned char seen[256];
	int i, pos, distinct;

	(void)state;
	for (pos = 0; pos < 16; pos++) {
		memset(seen, 0, sizeof(seen));
		memset(key, 'a', sizeof(key));
		for (i = 0; i < 256; i++) {
			key[pos] = (char)i;
			seen[hmap_hash(key, sizeof(key)) & 255] = 1;
		}
		for (distinct = 0, i = 0; i < 256; i++)
			distinct += seen[i];
		assert_true(distinct > 128);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(put_then_get_finds_the_value),
		cmocka_unit_test(put2_tells_whether_the_key_is_new),
		cmocka_unit_test(keys_are_copied_and_may_hold_nul),
		cmocka_unit_test(many_keys_keep_insertion_order),
		cmocka_unit_test(hash_differs_for_similar_keys),
		cmocka_unit_test(hash_low_bits_depend_on_every_byte),
	};

	return cmocka_run_group_tests_name("hmap", tests, NULL, NULL);
}

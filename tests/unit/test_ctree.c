/* test_ctree.c: interned names and the call-path tree (ctree.h). */
#include "unit.h"
#include "ctree.h"

static void
names_get_dense_ids_in_first_seen_order(void **state)
{
	struct ctree t;

	(void)state;
	ctree_init(&t);
	assert_int_equal(ctree_name(&t, "main", 4), 0);
	assert_int_equal(ctree_name(&t, "run", 3), 1);
	assert_int_equal(ctree_name(&t, "main", 4), 0);
	assert_int_equal(ctree_name(&t, "", 0), 2);
	assert_int_equal(ctree_name(&t, "ma", 2), 3);
	assert_int_equal(t.nnames, 4);
	assert_string_equal(t.names[1].p, "run");
	assert_int_equal(t.names[1].len, 3);
	assert_string_equal(t.names[2].p, "");
	ctree_release(&t);
}

static void
names_are_compared_whole(void **state)
{
	static const char a[] = "aten::convolution_backward_1";
	static const char b[] = "aten::convolution_backward_2";
	static const char nul[] = "x\0y";
	struct ctree t;
	char buf[sizeof(a)];

	(void)state;
	ctree_init(&t);
	assert_int_equal(ctree_name(&t, a, sizeof(a) - 1), 0);
	assert_int_equal(ctree_name(&t, b, sizeof(b) - 1), 1);
	assert_int_equal(ctree_name(&t, nul, 3), 2);
	assert_int_equal(ctree_name(&t, nul, 1), 3);
	/* The bytes are copied: a changed buffer is a new name. */
	memcpy(buf, a, sizeof(a));
	assert_int_equal(ctree_name(&t, buf, sizeof(a) - 1), 0);
	buf[0] = 'A';
	assert_int_equal(ctree_name(&t, buf, sizeof(a) - 1), 4);
	assert_string_equal(t.names[0].p, a);
	assert_memory_equal(t.names[2].p, nul, 4);
	ctree_release(&t);
}

static void
child_is_found_by_parent_and_name(void **state)
{
	struct ctree t;
	uint32_t r, a, b, aa, x;
	int fresh;

	(void)state;
	ctree_init(&t);
	r = ctree_root(&t, ctree_name(&t, "", 0));
	fresh = 0;
	a = ctree_child(&t, r, ctree_name(&t, "a", 1), &fresh);
	assert_true(fresh);
	fresh = 0;
	b = ctree_child(&t, r, ctree_name(&t, "b", 1), &fresh);
	assert_true(fresh);
	fresh = 0;
	aa = ctree_child(&t, a, ctree_name(&t, "a", 1), &fresh);
	assert_true(fresh);
	assert_int_equal(t.n, 4);
	assert_true(a != b && a != aa && b != aa);
	fresh = 0;
	x = ctree_child(&t, r, ctree_name(&t, "b", 1), &fresh);
	assert_false(fresh);
	assert_int_equal(x, b);
	fresh = 0;
	assert_int_equal(ctree_child(&t, r, ctree_name(&t, "a", 1), &fresh), a);
	assert_false(fresh);
	assert_int_equal(ctree_child(&t, a, ctree_name(&t, "a", 1), &fresh), aa);
	assert_int_equal(ctree_parent(&t, r), CTREE_NONE);
	assert_int_equal(ctree_parent(&t, aa), a);
	assert_int_equal(ctree_parent(&t, b), r);
	assert_string_equal(t.names[ctree_label(&t, aa)].p, "a");
	assert_string_equal(t.names[ctree_label(&t, b)].p, "b");
	ctree_release(&t);
}

static void
two_roots_keep_their_children_apart(void **state)
{
	struct ctree t;
	uint32_t r1, r2, nm, c1, c2;
	int fresh = 0;

	(void)state;
	ctree_init(&t);
	r1 = ctree_root(&t, ctree_name(&t, "t1", 2));
	r2 = ctree_root(&t, ctree_name(&t, "t2", 2));
	nm = ctree_name(&t, "f", 1);
	c1 = ctree_child(&t, r1, nm, &fresh);
	fresh = 0;
	c2 = ctree_child(&t, r2, nm, &fresh);
	assert_true(fresh);
	assert_true(c1 != c2);
	fresh = 0;
	assert_int_equal(ctree_child(&t, r1, nm, &fresh), c1);
	assert_int_equal(ctree_child(&t, r2, nm, &fresh), c2);
	ctree_release(&t);
}

/* A walk down made the parent: the child is new without a lookup. */
static void
fresh_walk_adds_a_chain_found_later(void **state)
{
	struct ctree t;
	uint32_t r, n, chain[50];
	char s[8];
	int fresh = 0, i;

	(void)state;
	ctree_init(&t);
	r = ctree_root(&t, ctree_name(&t, "", 0));
	n = r;
	for (i = 0; i < 50; i++) {
		snprintf(s, sizeof(s), "f%d", i % 7);
		n = ctree_child_text(&t, n, s, strlen(s), &fresh);
		assert_true(fresh);
		chain[i] = n;
	}
	assert_int_equal(t.n, 51);
	assert_int_equal(t.nnames, 8);
	fresh = 0;
	n = r;
	for (i = 0; i < 50; i++) {
		snprintf(s, sizeof(s), "f%d", i % 7);
		n = ctree_child(&t, n, ctree_name(&t, s, strlen(s)), &fresh);
		assert_false(fresh);
		assert_int_equal(n, chain[i]);
	}
	ctree_release(&t);
}

/* Many children of a few parents make both indexes grow several times. */
static void
lookups_survive_the_indexes_growing(void **state)
{
	enum { N = 20000 };
	struct ctree t;
	uint32_t r, p[3], *got;
	char s[16];
	int fresh, i, k;

	(void)state;
	got = malloc(3 * N * sizeof(*got));
	assert_non_null(got);
	ctree_init(&t);
	r = ctree_root(&t, ctree_name(&t, "", 0));
	for (k = 0; k < 3; k++) {
		snprintf(s, sizeof(s), "p%d", k);
		fresh = 0;
		p[k] = ctree_child(&t, r, ctree_name(&t, s, strlen(s)), &fresh);
	}
	for (i = 0; i < N; i++)
		for (k = 0; k < 3; k++) {
			snprintf(s, sizeof(s), "c%d", i);
			fresh = 0;
			got[3 * i + k] = ctree_child(&t, p[k],
			    ctree_name(&t, s, strlen(s)), &fresh);
			assert_true(fresh);
		}
	assert_int_equal(t.n, 1 + 3 + 3 * N);
	assert_int_equal(t.nnames, 1 + 3 + N);
	for (i = N; i-- > 0;)
		for (k = 0; k < 3; k++) {
			snprintf(s, sizeof(s), "c%d", i);
			fresh = 0;
			assert_int_equal(ctree_child_text(&t, p[k], s,
			    strlen(s), &fresh), got[3 * i + k]);
			assert_false(fresh);
			assert_int_equal(ctree_parent(&t, got[3 * i + k]), p[k]);
			assert_string_equal(t.names[ctree_label(&t,
			    got[3 * i + k])].p, s);
		}
	free(got);
	ctree_release(&t);
}

static void
drop_index_keeps_nodes_and_names(void **state)
{
	struct ctree t;
	uint32_t r, c;
	int fresh = 0;

	(void)state;
	ctree_init(&t);
	r = ctree_root(&t, ctree_name(&t, "", 0));
	c = ctree_child_text(&t, r, "leaf", 4, &fresh);
	ctree_drop_index(&t);
	assert_int_equal(t.n, 2);
	assert_int_equal(ctree_parent(&t, c), r);
	assert_string_equal(t.names[ctree_label(&t, c)].p, "leaf");
	assert_int_equal(ctree_name(&t, "leaf", 4), ctree_label(&t, c));
	ctree_release(&t);
}

/*
 * Names looked up in steps (hash, hints, lookup by the hash) get the ids
 * the one-call lookup gives, across the name index's growth.
 */
static void
names_by_hash_match_names(void **state)
{
	struct ctree t;
	char buf[32];
	uint64_t h;
	uint32_t id;
	int i;

	(void)state;
	ctree_init(&t);
	for (i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "frame_%d", i % 3000);
		h = ctree_name_hash(buf, strlen(buf));
		ctree_name_prefetch(&t, h);
		id = ctree_name_hashed(&t, buf, strlen(buf), h);
		assert_int_equal(id, (uint32_t)(i % 3000));
		assert_int_equal(ctree_name(&t, buf, strlen(buf)), id);
	}
	assert_int_equal(t.nnames, 3000);
	assert_string_equal(t.names[2999].p, "frame_2999");
	ctree_release(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_get_dense_ids_in_first_seen_order),
		cmocka_unit_test(names_are_compared_whole),
		cmocka_unit_test(child_is_found_by_parent_and_name),
		cmocka_unit_test(two_roots_keep_their_children_apart),
		cmocka_unit_test(fresh_walk_adds_a_chain_found_later),
		cmocka_unit_test(lookups_survive_the_indexes_growing),
		cmocka_unit_test(drop_index_keeps_nodes_and_names),
		cmocka_unit_test(names_by_hash_match_names),
	};

	return cmocka_run_group_tests_name("ctree", tests, NULL, NULL);
}

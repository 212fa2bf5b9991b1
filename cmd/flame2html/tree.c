/* tree.c: the call tree's nodes, its child index and the name table. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "err.h"
#include "flame2html.h"

struct flame_tree t;

static uint64_t
mix(uint64_t key)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

static void
child_put(struct cslot *slot, size_t cap, uint32_t parent, uint32_t name,
    uint32_t node)
{
	size_t j = mix((uint64_t)parent << 32 | name) & (cap - 1);

	while (slot[j].node != 0)
		j = (j + 1) & (cap - 1);
	slot[j].parent = parent;
	slot[j].name = name;
	slot[j].node = node + 1;
}

/*
 * Zeroed memory for a big table that is probed at random: asking for huge
 * pages there saves TLB misses.
 */
static void *
table_alloc(size_t n)
{
	void *p;

	if (n < (4u << 20)) {
		p = xcalloc(1, n);
		return p;
	}
	if (posix_memalign(&p, 2u << 20, n) != 0)
		die("out of memory");
#ifdef MADV_HUGEPAGE
	madvise(p, n, MADV_HUGEPAGE);
#endif
	memset(p, 0, n);
	return p;
}

static void
child_grow(void)
{
	size_t cap = t.cap != 0 ? t.cap * 2 : 1024, i;
	struct cslot *slot = table_alloc(cap * sizeof(*slot));

	for (i = 0; i < t.cap; i++)
		if (t.child[i].node != 0)
			child_put(slot, cap, t.child[i].parent,
			    t.child[i].name, t.child[i].node - 1);
	free(t.child);
	t.child = slot;
	t.cap = cap;
}

uint32_t
node_new(uint32_t parent, uint32_t name)
{
	size_t a;

	if (t.n == t.alloc) {
		if (t.n >= NONE - 1)
			die("more than %u nodes", NONE - 1);
		a = t.alloc != 0 ? t.alloc * 2 : 4096;
		t.key = xrealloc(t.key, a * sizeof(*t.key));
		t.self = xrealloc(t.self, a * sizeof(*t.self));
		if (t.before != NULL)
			t.before = xrealloc(t.before, a * sizeof(*t.before));
		if (t.calls != NULL)
			t.calls = xrealloc(t.calls, a * sizeof(*t.calls));
		t.alloc = a;
	}
	t.key[t.n] = (uint64_t)parent << 32 | name;
	t.self[t.n] = 0;
	if (t.before != NULL)
		t.before[t.n] = 0;
	if (t.calls != NULL)
		t.calls[t.n] = 0;
	return (uint32_t)t.n++;
}

/*
 * Returns the child of parent called name, creating it if needed.  A
 * parent made by the same line (*fresh set) has no other children, so
 * the child is new; *fresh is set when the child is new.
 *
 * A node's first child is usually the node made right after it (a new
 * line adds its frames in order), so that child is found at parent + 1
 * and kept out of the index: walking down a path then reads the key array
 * in order, and the index holds only the other children.
 */
uint32_t
node_child(uint32_t parent, uint32_t name, int *fresh)
{
	uint64_t key = (uint64_t)parent << 32 | name;
	size_t j;
	uint32_t c;

	if (*fresh) {
		c = node_new(parent, name);
		if (c == parent + 1)
			return c;
		if (++t.nchild > t.cap / 4 * 3)
			child_grow();
		child_put(t.child, t.cap, parent, name, c);
		return c;
	}
	if (parent + 1 < t.n && t.key[parent + 1] == key)
		return parent + 1;
	if (t.nchild + 1 > t.cap / 4 * 3)
		child_grow();
	j = mix(key) & (t.cap - 1);
	for (; t.child[j].node != 0; j = (j + 1) & (t.cap - 1))
		if (t.child[j].parent == parent && t.child[j].name == name)
			return t.child[j].node - 1;
	*fresh = 1;
	c = node_new(parent, name);
	if (c == parent + 1)
		return c;
	t.child[j].parent = parent;
	t.child[j].name = name;
	t.child[j].node = c + 1;
	t.nchild++;
	return c;
}

/* A hash of a name, eight bytes at a time. */
static uint64_t
name_hash(const char *p, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, v;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&v, p, 8);
		h = (h ^ v) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	v = 0;
	memcpy(&v, p, n);
	h = (h ^ v) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
}

static void
name_grow(void)
{
	size_t cap = t.ncap != 0 ? t.ncap * 2 : 1024, i, j;
	struct nslot *slot = xrealloc(NULL, cap * sizeof(*slot));

	memset(slot, 0, cap * sizeof(*slot));
	for (i = 0; i < t.ncap; i++) {
		if (t.nslot[i].id == 0)
			continue;
		j = t.nslot[i].hash & (cap - 1);
		while (slot[j].id != 0)
			j = (j + 1) & (cap - 1);
		slot[j] = t.nslot[i];
	}
	free(t.nslot);
	t.nslot = slot;
	t.ncap = cap;
}

uint32_t
name_id(const char *s, size_t len)
{
	uint64_t h = name_hash(s, len);
	size_t j;

	if ((t.nnames + 1) * 2 > t.ncap)
		name_grow();
	for (j = h & (t.ncap - 1); t.nslot[j].id != 0; j = (j + 1) & (t.ncap - 1))
		if (t.nslot[j].hash == h && (t.nslot[j].len == len ||
		    t.nslot[j].len == UINT32_MAX)) {
			const struct name *nm = &t.names[t.nslot[j].id - 1];

			if (nm->len == len && memcmp(nm->p, s, len) == 0)
				return t.nslot[j].id - 1;
		}
	if (t.nnames == t.names_alloc) {
		t.names_alloc = t.names_alloc != 0 ? t.names_alloc * 2 : 1024;
		t.names = xrealloc(t.names, t.names_alloc * sizeof(*t.names));
		t.is_thread = xrealloc(t.is_thread, t.names_alloc);
	}
	t.names[t.nnames].p = arena_strndup(&t.text, s, len);
	t.names[t.nnames].len = len;
	t.is_thread[t.nnames] = 0;
	t.nslot[j].hash = h;
	t.nslot[j].len = len < UINT32_MAX ? (uint32_t)len : UINT32_MAX;
	t.nslot[j].id = (uint32_t)++t.nnames;
	return (uint32_t)(t.nnames - 1);
}

/*
 * The child of node called s[0..len): node + 1 is tried first by its
 * text, which spares the name lookup on the common path (see node_child).
 */
uint32_t
frame_child(uint32_t node, const char *s, size_t len, int *fresh)
{
	uint32_t c = node + 1;

	if (!*fresh && c < t.n && PARENT(c) == node) {
		const struct name *nm = &t.names[NAME(c)];

		if (nm->len == len && memcmp(nm->p, s, len) == 0)
			return c;
	}
	return node_child(node, name_id(s, len), fresh);
}

/* Adds weights to a node: w[0] after (or only) side, w[1] before side. */
void
node_add(uint32_t n, const uint64_t w[2], uint64_t calls)
{
	if (t.before == NULL && w[1] != w[0]) {
		/* Until now both sides were the same. */
		t.before = xrealloc(NULL, t.alloc * sizeof(*t.before));
		memcpy(t.before, t.self, t.n * sizeof(*t.before));
	}
	if (t.calls == NULL && calls != 0)
		t.calls = memset(xrealloc(NULL, t.alloc * sizeof(*t.calls)), 0,
		    t.alloc * sizeof(*t.calls));
	t.self[n] += w[0];
	if (t.before != NULL)
		t.before[n] += w[1];
	if (t.calls != NULL)
		t.calls[n] += calls;
}

void
tree_init(void)
{
	arena_init(&t.text, 0);
	t.merged = NONE;
	t.root = node_new(NONE, name_id("", 0));
}

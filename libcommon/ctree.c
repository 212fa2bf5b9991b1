/* ctree.c: interned names and the call-path tree's child index. */
#include <stdlib.h>
#include <string.h>

#include "ctree.h"
#include "err.h"
#include "hmap.h"
#include "xmem.h"

/* A slot of the child index: node + 1 (0: empty) and its key, inline so
 * that a lookup touches one cache line. */
struct ctree_cslot {
	uint32_t parent, name, node;
};

static uint64_t
mix(uint64_t key)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

static void
child_put(struct ctree_cslot *slot, size_t cap, uint32_t parent,
    uint32_t name, uint32_t node)
{
	size_t j = mix((uint64_t)parent << 32 | name) & (cap - 1);

	while (slot[j].node != 0)
		j = (j + 1) & (cap - 1);
	slot[j].parent = parent;
	slot[j].name = name;
	slot[j].node = node + 1;
}

static void
child_grow(struct ctree *t)
{
	size_t cap = t->cap != 0 ? t->cap * 2 : 1024, i;
	struct ctree_cslot *slot = xcalloc_table(cap * sizeof(*slot));

	for (i = 0; i < t->cap; i++)
		if (t->child[i].node != 0)
			child_put(slot, cap, t->child[i].parent,
			    t->child[i].name, t->child[i].node - 1);
	free(t->child);
	t->child = slot;
	t->cap = cap;
}

static uint32_t
node_new(struct ctree *t, uint32_t parent, uint32_t name)
{
	if (t->n >= CTREE_NONE - 1)
		die("more than %u call paths", CTREE_NONE - 1);
	XGROW(t->key, t->n + 1, t->alloc);
	t->key[t->n] = (uint64_t)parent << 32 | name;
	return (uint32_t)t->n++;
}

uint32_t
ctree_root(struct ctree *t, uint32_t name)
{
	return node_new(t, CTREE_NONE, name);
}

/*
 * A node's first child is usually the node made right after it (a walk
 * down adds its frames in order), so that child is found at parent + 1
 * and kept out of the index: walking down a path then reads key[] in
 * order, and the index holds only the other children.
 */
uint32_t
ctree_child(struct ctree *t, uint32_t parent, uint32_t name, int *fresh)
{
	uint64_t key = (uint64_t)parent << 32 | name;
	size_t j;
	uint32_t c;

	if (*fresh) {
		c = node_new(t, parent, name);
		if (c == parent + 1)
			return c;
		if (++t->nchild > t->cap / 4 * 3)
			child_grow(t);
		child_put(t->child, t->cap, parent, name, c);
		return c;
	}
	if (parent + 1 < t->n && t->key[parent + 1] == key)
		return parent + 1;
	if (t->nchild + 1 > t->cap / 4 * 3)
		child_grow(t);
	j = mix(key) & (t->cap - 1);
	for (; t->child[j].node != 0; j = (j + 1) & (t->cap - 1))
		if (t->child[j].parent == parent && t->child[j].name == name)
			return t->child[j].node - 1;
	*fresh = 1;
	c = node_new(t, parent, name);
	if (c == parent + 1)
		return c;
	t->child[j].parent = parent;
	t->child[j].name = name;
	t->child[j].node = c + 1;
	t->nchild++;
	return c;
}

static void
name_grow(struct ctree *t)
{
	size_t cap = t->ncap != 0 ? t->ncap * 2 : 1024, i, j;
	struct ctree_nslot *slot = xcalloc(cap, sizeof(*slot));

	for (i = 0; i < t->ncap; i++) {
		if (t->nslot[i].id == 0)
			continue;
		j = t->nslot[i].hash & (cap - 1);
		while (slot[j].id != 0)
			j = (j + 1) & (cap - 1);
		slot[j] = t->nslot[i];
	}
	free(t->nslot);
	t->nslot = slot;
	t->ncap = cap;
}

static uint32_t
name_add(struct ctree *t, size_t j, uint32_t h, const char *s, size_t len)
{
	uint32_t l32 = len < UINT32_MAX ? (uint32_t)len : UINT32_MAX;
	char *p;

	if (t->nnames >= CTREE_NONE - 1)
		die("more than %u distinct names", CTREE_NONE - 1);
	if (len > SIZE_MAX - 8)
		die("out of memory");
	XGROW(t->names, t->nnames + 1, t->names_alloc);
	p = arena_alloc(&t->text, 4 + len + 1);
	memcpy(p, &l32, 4);
	p += 4;
	memcpy(p, s, len);
	p[len] = '\0';
	t->names[t->nnames].p = p;
	t->names[t->nnames].len = len;
	t->nslot[j].p = p;
	t->nslot[j].hash = h;
	t->nslot[j].id = (uint32_t)++t->nnames;
	return (uint32_t)(t->nnames - 1);
}

uint64_t
ctree_name_hash(const char *s, size_t len)
{
	return hmap_hash(s, len);
}

uint32_t
ctree_name(struct ctree *t, const char *s, size_t len)
{
	return ctree_name_hashed(t, s, len, hmap_hash(s, len));
}

uint32_t
ctree_name_intern(struct ctree *t, const char *s, size_t len, uint64_t hash)
{
	uint32_t h = (uint32_t)hash, l32;
	size_t j, mask;

	if ((t->nnames + 1) * 2 > t->ncap)
		name_grow(t);
	mask = t->ncap - 1;
	for (j = h & mask; t->nslot[j].id != 0; j = (j + 1) & mask) {
		if (t->nslot[j].hash != h)
			continue;
		memcpy(&l32, t->nslot[j].p - 4, 4);
		if (l32 == UINT32_MAX)
			l32 = t->names[t->nslot[j].id - 1].len == len ? 0 : 1;
		else
			l32 = l32 == len ? 0 : 1;
		if (l32 == 0 && memcmp(t->nslot[j].p, s, len) == 0)
			return t->nslot[j].id - 1;
	}
	return name_add(t, j, h, s, len);
}

/*
 * node + 1 is tried first by its text, which spares the name lookup on
 * the common path (see ctree_child).
 */
uint32_t
ctree_child_text(struct ctree *t, uint32_t parent, const char *s,
    size_t len, int *fresh)
{
	uint32_t c = parent + 1;
	const struct ctree_name *nm;

	if (!*fresh && c < t->n && ctree_parent(t, c) == parent) {
		nm = &t->names[ctree_label(t, c)];
		if (nm->len == len && memcmp(nm->p, s, len) == 0)
			return c;
	}
	return ctree_child(t, parent, ctree_name(t, s, len), fresh);
}

void
ctree_drop_index(struct ctree *t)
{
	free(t->child);
	t->child = NULL;
	t->cap = t->nchild = 0;
}

void
ctree_init(struct ctree *t)
{
	memset(t, 0, sizeof(*t));
	arena_init(&t->text, 0);
	child_grow(t);
	name_grow(t);
}

void
ctree_release(struct ctree *t)
{
	free(t->key);
	free(t->names);
	free(t->child);
	free(t->nslot);
	arena_release(&t->text);
	memset(t, 0, sizeof(*t));
}

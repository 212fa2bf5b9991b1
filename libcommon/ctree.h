/*
 * ctree.h: interned names and a call-path tree over them.
 *
 * A name is interned once: ctree_name() copies its bytes into the tree
 * and gives it an id, dense from 0 in first-seen order; the same bytes
 * always give the same id.  A node is one call path: its parent node and
 * the name of its last frame.  Nodes get ids dense from 0 in creation
 * order, and a node is always made after its parent (parent < id).
 * ctree_child() finds or adds a node's child by name through an
 * open-addressing index on (parent, name).  Names are hashed with
 * hmap_hash(), the one string hash of the library.
 *
 * The tree holds no weights.  Callers keep their own arrays indexed by
 * node id (or name id) and grow them when an id reaches their size: ids
 * only ever grow by one.
 *
 * Ownership: all memory belongs to the tree and is freed by
 * ctree_release().  Name bytes are NUL-terminated and stay where they
 * are until then; key[] and names[] move when the tree grows, so do not
 * keep pointers into them across calls that add nodes or names.
 * Running out of memory or ids calls die().
 */
#ifndef CTREE_H
#define CTREE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "bytes.h"

#define CTREE_NONE UINT32_MAX

struct ctree_name {
	const char *p;		/* NUL-terminated copy */
	size_t len;
};

/*
 * A slot of the name index: the name's bytes, its hash's low 32 bits and
 * its id + 1 (0: empty).  The bytes follow their length (4 bytes, or
 * UINT32_MAX if longer), so a lookup reads one slot and one stretch of
 * text, not the names[] array in between.
 */
struct ctree_nslot {
	const char *p;
	uint32_t hash;
	uint32_t id;
};

struct ctree_cslot;
struct ctree_nslot;

struct ctree {
	uint64_t *key;			/* by node: parent << 32 | name */
	size_t n, alloc;		/* nodes; room in key[] */
	struct ctree_name *names;	/* by name id */
	size_t nnames, names_alloc;
	/* The indexes; private to ctree.c. */
	struct ctree_cslot *child;	/* (parent, name) -> node */
	size_t cap, nchild;
	struct ctree_nslot *nslot;	/* name -> id */
	size_t ncap;
	struct arena text;		/* the names' bytes */
};

void ctree_init(struct ctree *t);
void ctree_release(struct ctree *t);

/* The id of the name s[0..len), interned if new. */
uint32_t ctree_name(struct ctree *t, const char *s, size_t len);

/*
 * The same in steps, for a caller with many names to look up at once:
 * the hash, a hint to fetch its slot, and the lookup by the hash.  The
 * hint only warms the cache.
 */
uint64_t ctree_name_hash(const char *s, size_t len);

PREFETCH_FN
ctree_name_prefetch(const struct ctree *t, uint64_t hash)
{
	__builtin_prefetch(&t->nslot[(uint32_t)hash & (t->ncap - 1)]);
}

/* A second hint, once the slot has come: its name's text. */
PREFETCH_FN
ctree_name_prefetch_text(const struct ctree *t, uint64_t hash)
{
	const struct ctree_nslot *sl =
	    &t->nslot[(uint32_t)hash & (t->ncap - 1)];

	if (sl->id != 0)
		__builtin_prefetch(sl->p - 4);
}

/* The lookup in full, adding the name if it is new. */
uint32_t ctree_name_intern(struct ctree *t, const char *s, size_t len,
    uint64_t hash);

/*
 * The same, inline for a name seen already whose length fits in the 4
 * bytes before its text: the rest is ctree_name_intern()'s.
 */
static inline uint32_t
ctree_name_hashed(struct ctree *t, const char *s, size_t len, uint64_t hash)
{
	const struct ctree_nslot *sl;
	uint32_t h = (uint32_t)hash, l32;
	size_t j, mask = t->ncap - 1;

	if ((t->nnames + 1) * 2 <= t->ncap && len < UINT32_MAX)
		for (j = h & mask; (sl = &t->nslot[j])->id != 0;
		    j = (j + 1) & mask) {
			if (sl->hash != h)
				continue;
			memcpy(&l32, sl->p - 4, 4);
			if (l32 == len && same_bytes(sl->p, s, len))
				return sl->id - 1;
		}
	return ctree_name_intern(t, s, len, hash);
}

/* Adds a node with no parent (a root) whose name is name. */
uint32_t ctree_root(struct ctree *t, uint32_t name);

/*
 * The child of parent called name, added if absent.  On entry *fresh
 * says that parent was made by the same walk down (so it has no child
 * yet and the lookup is skipped); on return it says whether the child is
 * new.  Pass 0 when unsure.
 */
uint32_t ctree_child(struct ctree *t, uint32_t parent, uint32_t name,
    int *fresh);

/* The same by text: the name is interned only when the child is not the
 * node made right after parent. */
uint32_t ctree_child_text(struct ctree *t, uint32_t parent, const char *s,
    size_t len, int *fresh);

/* Frees the child index once the tree is complete: ctree_child() must
 * not be called after it.  The nodes and names stay. */
void ctree_drop_index(struct ctree *t);

static inline uint32_t
ctree_parent(const struct ctree *t, uint32_t node)
{
	return (uint32_t)(t->key[node] >> 32);
}

/* The name id of a node. */
static inline uint32_t
ctree_label(const struct ctree *t, uint32_t node)
{
	return (uint32_t)t->key[node];
}

#endif

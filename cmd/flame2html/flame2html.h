/*
 * flame2html.h: the call tree that flame2html builds, shared by its parts:
 * tree.c (nodes and names), read.c (folded lines and stack records),
 * cats.c (colour categories), page.c (the HTML page) and main.c.
 */
#ifndef FLAME2HTML_H
#define FLAME2HTML_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ctree.h"
#include "err.h"
#include "jqf.h"
#include "xmem.h"

/*
 * A weight by node, in 32 bits: a value that does not fit is UINT32_MAX
 * there and its 64 bits sit in a small open-addressing table on the side
 * (sample counts fit; only the heavy nodes of nanosecond weights spill).
 * lo is NULL while the column is not used.
 */
struct wcol {
	uint32_t *lo;			/* lo[node * stride] */
	size_t stride;
	struct wspill { uint32_t node; uint64_t v; } *spill;	/* node + 1 */
	size_t cap, nspill;
};

/*
 * The call tree, 4 bytes of path per node.  Node ids are dense from 0 in
 * creation order and a node comes after its parent.  A walk down adds the
 * new frames of a stack one after the other, so most nodes are their
 * parent's id + 1: node[].label holds the name id, with FT_HEAD set on the
 * other nodes (the roots and the later children), and heads[] keeps
 * their parents in id order (FT_GROUP, set before the page is written,
 * marks a node with heads among its children).  Only heads are in the
 * child index.  Weights by node: self the own weight (the "after" side
 * in a diff), kept in node[].w next to the label so that a visit reads
 * one cache line; before the "before" side; calls the calls of stack
 * records ending there (before and calls unused until an input needs
 * them).  is_thread[] is by name:
 * used as a thread label.  Names are interned in ct, which holds no
 * nodes.  The reader's state (bad input, --where) travels with it.
 */
#define FT_HEAD 0x80000000u
#define FT_GROUP 0x40000000u
#define FT_NAME (FT_GROUP - 1)

struct fnode {
	uint32_t label, w;
};

struct fhead {
	uint32_t node, parent;
};

struct fslot {
	uint32_t parent, name, node;	/* node + 1, 0: empty */
	uint32_t ph;			/* the path hash: where it goes */
};

/*
 * A node's place in the child index is a hash of the texts on its path
 * (each name's ctree_name_hash()), not of its parent's id or of name
 * ids: a walk down works out the places of all its frames from the line
 * alone, and finds the frames the tree has without looking up a name.
 */
#define FT_PH_ROOT 0u
#define FT_PH_MERGED 1u

static inline uint32_t
flame_ph(uint32_t ph, uint32_t text_hash)
{
	uint64_t h = ((uint64_t)ph << 32 | text_hash) * 0x9e3779b97f4a7c15ULL;

	return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

struct flame {
	struct ctree ct;
	struct fnode *node;
	size_t n, alloc;		/* nodes; room in the node arrays */
	struct fhead *heads;
	size_t nheads, heads_alloc;
	struct fslot *slot;		/* (parent, name) -> head */
	size_t cap, nslot;
	struct wcol self, before, calls;
	unsigned char *is_thread;
	unsigned char *thread_side;	/* by name: 1 after, 2 before (--diff) */
	size_t threads_alloc;
	int view_merged;		/* --diff: the sides share no thread */
	uint32_t root, merged;		/* merged: CTREE_NONE until a thread */
	int has_calls, has_diff, has_threads, folded, ndjson;
	unsigned long fractions;
	unsigned long used;		/* lines and records in the tree */
	struct bad_input bad;
	struct jqf *where;
};

static inline uint32_t
flame_label(const struct flame *f, uint32_t node)
{
	return f->node[node].label & FT_NAME;
}

static inline uint64_t
wcol_get(const struct wcol *c, uint32_t node)
{
	uint32_t v = c->lo[(size_t)node * c->stride];
	size_t j;

	if (v != UINT32_MAX)
		return v;
	for (j = (node * 0x9e3779b1u) & (c->cap - 1); c->spill[j].node !=
	    node + 1; j = (j + 1) & (c->cap - 1))
		;
	return c->spill[j].v;
}

/* tree.c */
void flame_init(struct flame *f);
void flame_release(struct flame *f);
/* A new node: parent's child called name (an id), at path hash ph. */
uint32_t flame_new(struct flame *f, uint32_t parent, uint32_t name,
    uint32_t ph);
/* The child of parent called s[0..len) at path hash ph, or CTREE_NONE. */
uint32_t flame_find(const struct flame *f, uint32_t parent, const char *s,
    size_t len, uint32_t ph);
/* The same, added if absent; *ph: node's path hash, then the child's. */
uint32_t flame_frame(struct flame *f, uint32_t node, const char *s,
    size_t len, uint32_t *ph, int *fresh);
/* A hint for the child index slot of path hash ph: it only warms the
 * cache, for a frame that may not need the index. */
void flame_prefetch(const struct flame *f, uint32_t ph);
uint32_t flame_thread(struct flame *f, const char *s, size_t len);
/* Notes that a thread (a child of the root) has records of side. */
void flame_thread_side(struct flame *f, uint32_t th, int side);
/* Do the two sides of a --diff have a thread in common? */
int flame_shared_thread(const struct flame *f);
uint32_t flame_merged(struct flame *f);
void flame_add(struct flame *f, uint32_t n, const uint64_t w[2],
    uint64_t calls);
void flame_drop_index(struct flame *f);
/* Adds v to node n of c; returns -1 past 2^64 - 1 (then n holds the max). */
int wcol_add(struct wcol *c, uint32_t n, uint64_t v);
/* The parent of each node, in order, with heads[] walked alongside. */
static inline uint32_t
flame_parent_next(const struct flame *f, uint32_t i, size_t *h)
{
	if (!(f->node[i].label & FT_HEAD))
		return i - 1;
	return f->heads[(*h)++].parent;
}

/* read.c: side is -1 for an ordinary input, 1 for --diff's before and 0
 * for its after.  Returns 0, or -1 when the input cannot be read. */
int flame_stream(struct flame *f, const char *path, int side);

/* cats.c: the colour categories; the last one, "Other", matches all. */
struct category {
	char name[64];
	char colour[8];
};
void cats_default(void);
void cats_file(const char *path);
size_t cat_count(void);
const struct category *cat_get(size_t i);
size_t name_cat(const char *s);

/* page.c */
void page_write(struct flame *f, FILE *fp, const char *title,
    const char *unit);

#endif

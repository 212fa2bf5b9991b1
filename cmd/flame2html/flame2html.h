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
#include <string.h>

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
 * their parents in id order (FT_GROUP marks a node with heads among its
 * children).  Only heads are in the child index.  Weights by node: self the own weight (the "after" side
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
	uint32_t nh;			/* the name's hash (low 32 bits) */
};

/*
 * The hash of a name, in flame2html's names and child index: the name's
 * 8-byte words (little-endian) mixed in one by one, then its last 0 to 7
 * bytes and its length.  The folded line reader works it out in the
 * same words it searches for the ';' that ends a frame (read.c), so
 * every caller must use this one.
 */
#define FH_SEED 0x9e3779b97f4a7c15ULL

static inline uint64_t
fh_le64(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

static inline uint64_t
fh_word(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0xff51afd7ed558ccdULL;
	return h ^ (h >> 32);
}

/* The end: tail holds the last len % 8 bytes, the first lowest. */
static inline uint64_t
fh_end(uint64_t h, uint64_t tail, size_t len)
{
	h ^= tail;
	h = (h ^ (uint64_t)len) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
}

static inline uint64_t
flame_hash(const char *s, size_t len)
{
	uint64_t h = FH_SEED, t = 0;
	size_t b = 0, i;

	for (; len - b >= 8; b += 8)
		h = fh_word(h, fh_le64(s + b));
	for (i = 0; b + i < len; i++)
		t |= (uint64_t)(unsigned char)s[b + i] << (8 * i);
	return fh_end(h, t, len);
}

/* Where (parent, name hash) goes in the child index. */
static inline uint32_t
flame_slot_hash(uint32_t parent, uint32_t nh)
{
	uint64_t h = ((uint64_t)parent << 32 | nh) * 0x9e3779b97f4a7c15ULL;

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
/* A new node: parent's child called name (an id) of name hash nh. */
uint32_t flame_new(struct flame *f, uint32_t parent, uint32_t name,
    uint32_t nh);
/* The same, inline for the common case: the first child of the last
 * node, with room for it and no weight column but self. */
static inline uint32_t
flame_append(struct flame *f, uint32_t parent, uint32_t name, uint32_t nh)
{
	uint32_t id = (uint32_t)f->n;

	if (parent + 1 != id || f->n >= f->alloc || name > FT_NAME ||
	    f->before.lo != NULL || f->calls.lo != NULL)
		return flame_new(f, parent, name, nh);
	f->node[id].label = name;
	f->node[id].w = 0;
	f->n++;
	return id;
}
/* The child of parent called s[0..len) (name hash nh) in the child
 * index, or CTREE_NONE: parent + 1 is not looked at. */
uint32_t flame_find_index(const struct flame *f, uint32_t parent,
    const char *s, size_t len, uint32_t nh);
/* The child of node called s[0..len), added if absent. */
uint32_t flame_frame(struct flame *f, uint32_t node, const char *s,
    size_t len, int *fresh);
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

/* The same, inline while the sum fits in 32 bits. */
static inline int
wcol_add_fast(struct wcol *c, uint32_t n, uint64_t v)
{
	uint32_t *lo = &c->lo[(size_t)n * c->stride];

	if (*lo != UINT32_MAX && v < UINT32_MAX - *lo) {
		*lo += (uint32_t)v;
		return 0;
	}
	return wcol_add(c, n, v);
}
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

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

#include "bytes.h"
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

/* A head in the child index, placed by its path hash: its parent and
 * its id + 1 (0: empty); its name is the node's. */
struct fslot {
	uint32_t parent, node;
};

/*
 * The hash of a name, in flame2html's names and child index: for 8 to 32
 * bytes four words without a loop (fh_short()), or else the name's 8-byte
 * words (little-endian) mixed in one by one, then its last 0 to 7 bytes
 * and its length.  The folded line reader works it out in the same words
 * it searches for the ';' that ends a frame (read.c), so every caller
 * must use this one (case 0037 fails when two of them differ).
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

/*
 * flame_hash() of a name of 8 to 32 bytes: the first word, the last and
 * two between (overlapping when it is short), mixed side by side, so
 * that the hash has no loop whose end is mispredicted at every name.
 * Names of one length are told apart by the words.
 */
static inline uint64_t
fh_short(const char *s, size_t len)
{
	size_t l8 = len - 8;
	uint64_t a = fh_le64(s), b = fh_le64(s + (l8 < 8 ? l8 : 8)),
	    c = fh_le64(s + (l8 < 16 ? l8 : 16)), d = fh_le64(s + l8), h;

	h = (a ^ FH_SEED) * 0xff51afd7ed558ccdULL ^
	    (b ^ len) * 0xc4ceb9fe1a85ec53ULL;
	h ^= (c ^ (h >> 29)) * 0x9e3779b97f4a7c15ULL ^
	    d * 0xd6e8feb86659fd93ULL;
	h = (h ^ (h >> 32)) * 0xff51afd7ed558ccdULL;
	return h ^ (h >> 29);
}

static inline uint64_t
flame_hash(const char *s, size_t len)
{
	uint64_t h = FH_SEED, t = 0;
	size_t b = 0, i;

	if (len - 8 <= 24)
		return fh_short(s, len);
	for (; len - b >= 8; b += 8)
		h = fh_word(h, fh_le64(s + b));
	for (i = 0; b + i < len; i++)
		t |= (uint64_t)(unsigned char)s[b + i] << (8 * i);
	return fh_end(h, t, len);
}

/* Up to 8 bytes of p[0..avail), little-endian, zeros after the end. */
static inline uint64_t
fh_load8(const char *p, size_t avail)
{
	uint64_t w = 0;
	size_t i;

	if (avail >= 8)
		return fh_le64(p);
	for (i = 0; i < avail; i++)
		w |= (uint64_t)(unsigned char)p[i] << (8 * i);
	return w;
}

/*
 * A frame's word in the path hash, which only places the frame's slot in
 * the child index (the text in the slot decides): its first and last 8
 * bytes and its length, read without a loop.  Names alike in those
 * share a neighbourhood of the index; once a parent's children crowd
 * one, the index is placed again by whole names (flame_strengthen()).
 * p[0..avail) may be read, avail >= len.
 */
static inline uint64_t
fp_weak(const char *p, size_t len, size_t avail)
{
	uint64_t a = fh_load8(p, avail), b = 0;

	if (len < 8)
		a &= ~(~UINT64_C(0) << (8 * len));
	else
		b = fh_le64(p + len - 8);
	return (a ^ len) * 0xff51afd7ed558ccdULL ^ b;
}

/*
 * The path hash of a node: its parent's mixed with its frame's word, from
 * FP_ROOT at the root or FP_MERGED at the merged root.  It places and
 * tags the node's slot in the child index, so the slots of a folded
 * line's frames follow from its text alone and are all asked for before
 * the walk down needs them.
 */
#define FP_ROOT 0x243f6a88u
#define FP_MERGED 0x85a308d3u

static inline uint32_t
flame_path(uint32_t ph, uint64_t fw)
{
	uint64_t h = (fw ^ ph) * 0x9e3779b97f4a7c15ULL;

	h = (h ^ (h >> 32)) * 0xc4ceb9fe1a85ec53ULL;
	return (uint32_t)(h >> 32);
}

struct flame {
	struct ctree ct;
	struct fnode *node;
	size_t n, alloc;		/* nodes; room in the node arrays */
	struct fhead *heads;
	size_t nheads, heads_alloc;
	uint32_t *head_ph;		/* by head: its path hash */
	size_t head_ph_alloc;
	struct fslot *slot;		/* path hash -> head */
	size_t cap, nslot;
	size_t slot_want;		/* room asked for (flame_reserve()) */
	int strong;			/* frames' words: whole names */
	int crowded;			/* children alike crowd the index */
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

/* The 64 bits of a weight that is UINT32_MAX in its column. */
static inline uint64_t
wcol_spilled(const struct wcol *c, uint32_t node)
{
	size_t j;

	for (j = (node * 0x9e3779b1u) & (c->cap - 1); c->spill[j].node !=
	    node + 1; j = (j + 1) & (c->cap - 1))
		;
	return c->spill[j].v;
}

static inline uint64_t
wcol_get(const struct wcol *c, uint32_t node)
{
	uint32_t v = c->lo[(size_t)node * c->stride];

	return v != UINT32_MAX ? v : wcol_spilled(c, node);
}

/* tree.c */
void flame_init(struct flame *f);
void flame_release(struct flame *f);
/* A new node: parent's child called name (an id) of path hash ph. */
uint32_t flame_new(struct flame *f, uint32_t parent, uint32_t name,
    uint32_t ph);
/* The same, inline for the common case: the first child of the last
 * node, with room for it and no weight column but self. */
static inline uint32_t
flame_append(struct flame *f, uint32_t parent, uint32_t name, uint32_t ph)
{
	uint32_t id = (uint32_t)f->n;

	if (parent + 1 != id || f->n >= f->alloc || name > FT_NAME ||
	    f->before.lo != NULL || f->calls.lo != NULL)
		return flame_new(f, parent, name, ph);
	f->node[id].label = name;
	f->node[id].w = 0;
	f->n++;
	return id;
}
/* A frame's word in the path hash: fp_weak() or, once the index is
 * strong, the name's hash. */
static inline uint64_t
flame_word(const struct flame *f, const char *p, size_t len, size_t avail)
{
	return f->strong ? flame_hash(p, len) : fp_weak(p, len, avail);
}
/* The child of parent called s[0..len) (path hash ph) in the child
 * index, or CTREE_NONE: parent + 1 is not looked at. */
uint32_t flame_find_index(struct flame *f, uint32_t parent, const char *s,
    size_t len, uint32_t ph);
/* A hint: the index slot of path hash ph will be read. */
PREFETCH_FN
flame_prefetch_slot(const struct flame *f, uint32_t ph)
{
	__builtin_prefetch(&f->slot[ph & (f->cap - 1)]);
}
/* Asks for room in the child index for the heads an input of that
 * many bytes is likely to add, so that it grows there in fewer steps. */
void flame_reserve(struct flame *f, uint64_t bytes);
/* Places the index by whole names once it is crowded (between lines:
 * path hashes kept from before are stale). */
void flame_strengthen(struct flame *f);
/* The path hash of a node that starts a walk: a root or a thread. */
uint32_t flame_top_path(const struct flame *f, uint32_t top);
/* The child of node (path hash *ph) called s[0..len), added if absent;
 * *ph becomes the child's. */
uint32_t flame_frame(struct flame *f, uint32_t node, uint32_t *ph,
    const char *s, size_t len, int *fresh);
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

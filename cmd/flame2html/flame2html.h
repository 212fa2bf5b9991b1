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

#include "arena.h"
#include "err.h"
#include "jqf.h"
#include "xmem.h"

#define NONE UINT32_MAX

/* A slot of the child index: node + 1 (0: empty) and its key, inline so
 * that a lookup touches one cache line. */
struct cslot {
	uint32_t parent, name, node;
};

struct name {
	const char *p;		/* NUL-terminated copy */
	size_t len;
};

struct nslot {
	uint64_t hash;
	uint32_t id;		/* name id + 1, 0: empty */
	uint32_t len;		/* the name's length, or UINT32_MAX if longer */
};

/*
 * The call tree, as parallel arrays indexed by node.  key[i] is the
 * parent << 32 | name (one array, so a lookup touches one place); a node
 * is created after its parent, so parent < i.  child[] finds the pairs.
 * self[] is the node's own weight (the "after" side in a diff), before[]
 * the "before" side, calls[] the calls of stack records ending there;
 * before and calls are NULL until an input needs them.
 */
struct flame_tree {
	uint64_t *key;
	uint64_t *self, *before, *calls;
	size_t n, alloc;
	struct cslot *child;		/* open addressing on key */
	size_t cap, nchild;		/* slots, slots in use */
	struct name *names;		/* by id */
	size_t nnames, names_alloc;
	struct nslot *nslot;		/* open addressing on the name */
	size_t ncap;
	struct arena text;		/* the names' bytes */
	unsigned char *is_thread;	/* per name: used as a thread label */
	uint32_t root, merged;		/* merged: NONE until a thread shows */
	int has_calls, has_diff, has_threads, folded, ndjson;
	unsigned long fractions;
};

extern struct flame_tree t;

#define PARENT(i) ((uint32_t)(t.key[i] >> 32))
#define NAME(i) ((uint32_t)t.key[i])

/* tree.c */
void tree_init(void);
uint32_t node_new(uint32_t parent, uint32_t name);
uint32_t node_child(uint32_t parent, uint32_t name, int *fresh);
uint32_t name_id(const char *s, size_t len);
uint32_t frame_child(uint32_t node, const char *s, size_t len, int *fresh);
void node_add(uint32_t n, const uint64_t w[2], uint64_t calls);

/* read.c: side is -1 for an ordinary input, 1 for --diff's before and 0
 * for its after.  Returns 0, or -1 when the input cannot be read. */
extern struct bad_input bad;
extern struct jqf *where;
int flame_stream(const char *path, int side);

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
void page_write(FILE *fp, const char *title, const char *unit);

#endif

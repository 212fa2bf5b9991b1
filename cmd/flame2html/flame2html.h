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
 * The call tree: paths and names in a ctree, and by node: self[] its own
 * weight (the "after" side in a diff), before[] the "before" side, calls[]
 * the calls of stack records ending there.  before and calls are NULL
 * until an input needs them.  is_thread[] is by name: used as a thread
 * label.  The reader's state (bad input, --where) travels with it.
 */
struct flame {
	struct ctree ct;
	uint64_t *self, *before, *calls;
	size_t alloc;			/* room in the node arrays */
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

/* tree.c */
void flame_init(struct flame *f);
void flame_release(struct flame *f);
uint32_t flame_child(struct flame *f, uint32_t parent, uint32_t name,
    int *fresh);
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

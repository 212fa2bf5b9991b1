/*
 * stacks.h: the call-path tree of spans2stacks.
 *
 * Frame names are interned once (ids) and call paths kept in a ctree,
 * categories in a map.  Every thread has a root node; a node is one call
 * path (parent path + frame name) and holds calls, total and child time.  Spans reach a thread's builder in order
 * (start ascending, end descending); the builder keeps the open stack and
 * adds each span to its path's node when it opens.  On a flat thread (a
 * device lane, whose tasks do not call each other) every span is a path of
 * one frame: none opens under another.  Unsorted input is
 * buffered per thread and sorted at the end.  Nothing recurses: a
 * 100,000-deep chain costs an array, not the C stack.
 *
 * All memory belongs to the tree and is freed by tree_release().
 */
#ifndef STACKS_H
#define STACKS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ctree.h"
#include "hmap.h"
#include "strbuf.h"

#define NODE_NONE CTREE_NONE

/* By node id of the ctree, which holds its parent and name. */
struct node {
	uint32_t cat;			/* id + 1, 0 = none */
	uint32_t first_child, last_child, next_sibling;
	uint64_t calls;
	int64_t total, child;		/* self = total - child */
};

struct frame {
	int64_t end;
	uint32_t node;			/* NODE_NONE: cut by --max-depth */
};

struct bspan {				/* a buffered span */
	int64_t start, end;
	uint32_t name, cat;
};

struct thread {
	const char *label;		/* "pid/tid" */
	size_t label_len;
	char *tname;			/* quoted thread_name, or NULL */
	size_t tname_len;
	char *run;			/* quoted "run" label, or NULL */
	size_t run_len;
	uint32_t root;
	int flat;			/* a device lane: spans do not nest */
	struct frame *stk;		/* the open stack */
	size_t depth, stk_alloc;
	int64_t last_start, last_end;	/* order check (--sorted) */
	int have_last;
	struct bspan *buf;		/* unsorted input */
	size_t nbuf, buf_alloc;
	int buf_sorted;			/* buf is in order so far */
	size_t spool;			/* spool_thr index + 1, 0: none */
};

struct stats {
	uint64_t read, used, nonpos, excluded, clipped, cut, stacks;
	int64_t clipped_ns;
};

struct tree {
	struct ctree ct;		/* names and call paths */
	unsigned char *name_excl;	/* by name id */
	size_t nexcl, excl_alloc;
	struct hmap cats, threads;
	struct strbuf cat_json;
	size_t *cat_off;
	size_t ncats, cats_alloc;
	struct node *nodes;		/* as many as ct.n */
	size_t nodes_alloc;
	struct thread **thr;		/* first-seen order */
	size_t nthr, thr_alloc;
	const char *const *excludes;	/* glob patterns, NULL-ended */
	size_t max_depth;
	struct stats st;
};

void tree_init(struct tree *t, const char *const *excludes,
    size_t max_depth);
void tree_release(struct tree *t);

/* Interns a decoded name; returns its id. */
uint32_t tree_name(struct tree *t, const char *s, size_t len);
/*
 * The same for the text between a JSON string's quotes, which is the name
 * when it has no backslash; returns NODE_NONE when it has one (decode it
 * and call tree_name).
 */
uint32_t tree_name_json(struct tree *t, const char *s, size_t len);
/* 1 if the name matches an exclude pattern. */
int tree_excluded(const struct tree *t, uint32_t name);
uint32_t tree_cat(struct tree *t, const char *s, size_t len);
/* Finds or adds the thread with this label. */
struct thread *tree_thread(struct tree *t, const char *label, size_t len);
/* Sets the thread's name if it has none yet. */
void tree_thread_name(struct tree *t, struct thread *th, const char *s,
    size_t len);
/* The child of node parent named name, added if absent. */
uint32_t tree_child(struct tree *t, uint32_t parent, uint32_t name,
    int *isnew);

/*
 * Adds one span (duration > 0, name not excluded) to a thread in order.
 * Returns 0, or -1 when it comes before the previous one (see sorted).
 */
int tree_span(struct tree *t, struct thread *th, const struct bspan *s,
    int check_order);
/* Buffers one span of unsorted input. */
void tree_buffer(struct thread *th, const struct bspan *s);
/* x sorts before y: earlier start, or the same start and a later end. */
int span_before(const struct bspan *x, const struct bspan *y);
/* Sorts n spans stably (input order breaks full ties): a radix sort. */
void spans_sort(struct bspan *a, size_t n);
/* The same through tmp, room for n spans of the caller's. */
void spans_sort_in(struct bspan *a, size_t n, struct bspan *tmp);
/* Sorts and builds every thread's buffered spans. */
void tree_flush(struct tree *t);

/* Writes every path with calls: NDJSON stack records, or folded lines. */
void tree_write(struct tree *t, FILE *fp, int folded);

#endif

/* tree.c: the call tree's weights on the paths of a ctree. */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "flame2html.h"

/* Makes room in the node arrays for node n (nodes come one at a time). */
static void
nodes_grow(struct flame *f, uint32_t n)
{
	size_t a;

	if (n < f->alloc)
		return;
	a = f->alloc != 0 ? f->alloc * 2 : 4096;
	f->self = xreallocarray(f->self, a, sizeof(*f->self));
	if (f->before != NULL)
		f->before = xreallocarray(f->before, a, sizeof(*f->before));
	if (f->calls != NULL) {
		f->calls = xreallocarray(f->calls, a, sizeof(*f->calls));
		memset(f->calls + f->alloc, 0, (a - f->alloc) *
		    sizeof(*f->calls));
	}
	f->alloc = a;
}

static uint32_t
fresh_node(struct flame *f, uint32_t n)
{
	nodes_grow(f, n);
	f->self[n] = 0;
	if (f->before != NULL)
		f->before[n] = 0;
	return n;
}

uint32_t
flame_child(struct flame *f, uint32_t parent, uint32_t name, int *fresh)
{
	uint32_t c = ctree_child(&f->ct, parent, name, fresh);

	return *fresh ? fresh_node(f, c) : c;
}

uint32_t
flame_frame(struct flame *f, uint32_t node, const char *s, size_t len,
    int *fresh)
{
	uint32_t c = ctree_child_text(&f->ct, node, s, len, fresh);

	return *fresh ? fresh_node(f, c) : c;
}

/* The child of the root that labels a thread. */
uint32_t
flame_thread(struct flame *f, const char *s, size_t len)
{
	uint32_t th = ctree_name(&f->ct, s, len);
	size_t a;
	int fresh = 0;

	if (th >= f->threads_alloc) {
		a = f->threads_alloc != 0 ? f->threads_alloc * 2 : 1024;
		f->is_thread = xrealloc(f->is_thread, a);
		memset(f->is_thread + f->threads_alloc, 0,
		    a - f->threads_alloc);
		f->thread_side = xrealloc(f->thread_side, a);
		memset(f->thread_side + f->threads_alloc, 0,
		    a - f->threads_alloc);
		f->threads_alloc = a;
	}
	f->is_thread[th] = 1;
	f->has_threads = 1;
	return flame_child(f, f->root, th, &fresh);
}

void
flame_thread_side(struct flame *f, uint32_t th, int side)
{
	uint32_t nm = ctree_label(&f->ct, th);

	if (side >= 0 && nm < f->threads_alloc)
		f->thread_side[nm] |= (unsigned char)(side == 0 ? 1 : 2);
}

int
flame_shared_thread(const struct flame *f)
{
	size_t i;

	for (i = 0; i < f->threads_alloc; i++)
		if (f->thread_side[i] == 3)
			return 1;
	return 0;
}

/* The root of the tree of every thread merged, made when first asked. */
uint32_t
flame_merged(struct flame *f)
{
	if (f->merged == CTREE_NONE)
		f->merged = fresh_node(f, ctree_root(&f->ct,
		    ctree_name(&f->ct, "", 0)));
	return f->merged;
}

/* Adds weights to a node: w[0] after (or only) side, w[1] before side. */
void
flame_add(struct flame *f, uint32_t n, const uint64_t w[2], uint64_t calls)
{
	if (f->before == NULL && w[1] != w[0]) {
		/* Until now both sides were the same. */
		f->before = xreallocarray(NULL, f->alloc, sizeof(*f->before));
		memcpy(f->before, f->self, f->ct.n * sizeof(*f->before));
	}
	if (f->calls == NULL && calls != 0)
		f->calls = xcalloc(f->alloc, sizeof(*f->calls));
	if (__builtin_add_overflow(f->self[n], w[0], &f->self[n]) ||
	    (f->before != NULL &&
	    __builtin_add_overflow(f->before[n], w[1], &f->before[n])))
		die("the weights add up past 2^64 - 1: the total cannot be "
		    "represented");
	if (f->calls != NULL && __builtin_add_overflow(f->calls[n], calls,
	    &f->calls[n]))
		f->calls[n] = UINT64_MAX;
}

void
flame_init(struct flame *f)
{
	memset(f, 0, sizeof(*f));
	f->bad = (struct bad_input)BAD_INPUT_INIT;
	ctree_init(&f->ct);
	f->merged = CTREE_NONE;
	f->root = fresh_node(f, ctree_root(&f->ct, ctree_name(&f->ct, "", 0)));
}

void
flame_release(struct flame *f)
{
	ctree_release(&f->ct);
	free(f->self);
	free(f->before);
	free(f->calls);
	free(f->is_thread);
	free(f->thread_side);
	if (f->where != NULL)
		jqf_free(f->where);
}

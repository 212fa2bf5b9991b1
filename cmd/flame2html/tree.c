/* tree.c: the call tree: compact paths, the child index and the weights. */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "flame2html.h"

/* The spill table of a weight column: 64-bit values by node. */
static struct wspill *
spill_find(struct wspill *s, size_t cap, uint32_t node)
{
	size_t j = (node * 0x9e3779b1u) & (cap - 1);

	while (s[j].node != 0 && s[j].node != node + 1)
		j = (j + 1) & (cap - 1);
	return &s[j];
}

static void
spill_grow(struct wcol *c)
{
	size_t cap = c->cap != 0 ? c->cap * 2 : 256, i;
	struct wspill *s = xcalloc(cap, sizeof(*s));

	for (i = 0; i < c->cap; i++)
		if (c->spill[i].node != 0)
			*spill_find(s, cap, c->spill[i].node - 1) = c->spill[i];
	free(c->spill);
	c->spill = s;
	c->cap = cap;
}

int
wcol_add(struct wcol *c, uint32_t n, uint64_t v)
{
	struct wspill *s;
	uint64_t old;
	int r = 0;

	uint32_t *lo = &c->lo[(size_t)n * c->stride];

	if (*lo != UINT32_MAX && v < UINT32_MAX - *lo) {
		*lo += (uint32_t)v;
		return 0;
	}
	if (*lo != UINT32_MAX) {
		if ((c->nspill + 1) * 2 > c->cap)
			spill_grow(c);
		s = spill_find(c->spill, c->cap, n);
		s->node = n + 1;
		s->v = *lo;
		*lo = UINT32_MAX;
		c->nspill++;
	} else
		s = spill_find(c->spill, c->cap, n);
	old = s->v;
	if (__builtin_add_overflow(old, v, &s->v)) {
		s->v = UINT64_MAX;
		r = -1;
	}
	return r;
}

static void
wcol_copy(struct wcol *to, const struct wcol *from, size_t alloc, size_t n)
{
	size_t i;

	to->lo = xreallocarray(NULL, alloc, sizeof(*to->lo));
	to->stride = 1;
	for (i = 0; i < n; i++)
		to->lo[i] = from->lo[i * from->stride];
	to->cap = from->cap;
	to->nspill = from->nspill;
	to->spill = xcalloc(to->cap ? to->cap : 1, sizeof(*to->spill));
	if (from->cap != 0)
		memcpy(to->spill, from->spill, from->cap * sizeof(*to->spill));
}

static void
wcol_release(struct wcol *c)
{
	if (c->stride == 1)
		free(c->lo);
	free(c->spill);
	memset(c, 0, sizeof(*c));
}

static void
slot_put(struct fslot *slot, size_t cap, uint32_t ph, uint32_t parent,
    uint32_t node)
{
	size_t j = ph & (cap - 1);

	while (slot[j].node != 0)
		j = (j + 1) & (cap - 1);
	slot[j].parent = parent;
	slot[j].node = node + 1;
}

/* Places every head with a parent in an index of cap slots. */
static void
slot_resize(struct flame *f, size_t cap)
{
	size_t i;

	free(f->slot);
	f->slot = xcalloc_table(cap * sizeof(*f->slot));
	f->cap = cap;
	for (i = 0; i < f->nheads; i++)
		if (f->heads[i].parent != CTREE_NONE)
			slot_put(f->slot, cap, f->head_ph[i],
			    f->heads[i].parent, f->heads[i].node);
}

/*
 * Twice the size or, toward the room an input asked for, up to 8 times:
 * a large input places its heads a few times rather than at every
 * doubling, and one that adds few heads never gets a large index.
 */
static void
slot_grow(struct flame *f)
{
	size_t cap = f->cap != 0 ? f->cap * 2 : 1024;

	if (f->slot_want > cap)
		cap = f->slot_want < f->cap * 8 ? f->slot_want : f->cap * 8;
	slot_resize(f, cap);
}

/*
 * Folded input bytes per head, about (the generated bench inputs have
 * 570 at 100k and 1M lines), and the most slots a reservation asks for.
 */
#define FT_BYTES_PER_HEAD 512
#define FT_RESERVE_MAX ((size_t)1 << 22)

void
flame_reserve(struct flame *f, uint64_t bytes)
{
	uint64_t want = bytes / FT_BYTES_PER_HEAD + f->nslot;
	size_t cap = f->cap;

	while (cap < FT_RESERVE_MAX && want > cap / 4 * 3)
		cap *= 2;
	if (cap > f->slot_want)
		f->slot_want = cap;
}

/* Makes room in the node arrays for one more node. */
static void
nodes_grow(struct flame *f)
{
	size_t a;

	if (f->n < f->alloc)
		return;
	if (f->n >= FT_HEAD - 1)
		die("more than %u call paths", FT_HEAD - 1);
	a = xgrow_room(f->alloc, f->n + 1);
	f->node = xreallocarray(f->node, a, sizeof(*f->node));
	f->self.lo = &f->node[0].w;
	f->self.stride = sizeof(*f->node) / sizeof(uint32_t);
	if (f->before.lo != NULL)
		f->before.lo = xreallocarray(f->before.lo, a,
		    sizeof(*f->before.lo));
	if (f->calls.lo != NULL)
		f->calls.lo = xreallocarray(f->calls.lo, a,
		    sizeof(*f->calls.lo));
	f->alloc = a;
}

/* A new node; one that is not its parent + 1 is a head. */
uint32_t
flame_new(struct flame *f, uint32_t parent, uint32_t name, uint32_t ph)
{
	uint32_t id = (uint32_t)f->n;

	if (name > FT_NAME)
		die("more than %u distinct names", FT_NAME);
	nodes_grow(f);
	f->node[id].label = name;
	f->node[id].w = 0;
	if (f->before.lo != NULL)
		f->before.lo[id] = 0;
	if (f->calls.lo != NULL)
		f->calls.lo[id] = 0;
	f->n++;
	if (parent != CTREE_NONE && parent + 1 == id)
		return id;
	f->node[id].label |= FT_HEAD;
	XGROW(f->heads, f->nheads + 1, f->heads_alloc);
	XGROW(f->head_ph, f->nheads + 1, f->head_ph_alloc);
	f->heads[f->nheads].node = id;
	f->heads[f->nheads].parent = parent;
	f->head_ph[f->nheads++] = ph;
	if (parent != CTREE_NONE) {
		f->node[parent].label |= FT_GROUP;
		if (++f->nslot > f->cap / 4 * 3)
			slot_grow(f);	/* places this one too */
		else
			slot_put(f->slot, f->cap, ph, parent, id);
	}
	return id;
}

static int
name_is(const struct flame *f, uint32_t nm, const char *s, size_t len)
{
	const struct ctree_name *n = &f->ct.names[nm & FT_NAME];

	return n->len == len && same_bytes(n->p, s, len);
}

/* More children of one parent alike in path hash than this: crowded. */
#define FT_CROWD 8

/*
 * The child of parent called s[0..len) in the child index (path hash
 * ph), or CTREE_NONE.  A parent without FT_GROUP has nothing there, and
 * needs no look.  A slot is matched by its parent and then by the text
 * of its node's name, so no name is looked up on the way down.
 */
uint32_t
flame_find_index(struct flame *f, uint32_t parent, const char *s,
    size_t len, uint32_t ph)
{
	size_t j, alike = 0;

	if (!(f->node[parent].label & FT_GROUP))
		return CTREE_NONE;	/* no child in the index */
	for (j = ph & (f->cap - 1); f->slot[j].node != 0;
	    j = (j + 1) & (f->cap - 1))
		if (f->slot[j].parent == parent) {
			if (name_is(f, f->node[f->slot[j].node - 1].label, s,
			    len))
				return f->slot[j].node - 1;
			alike++;
		}
	if (alike > FT_CROWD && !f->strong)
		f->crowded = 1;
	return CTREE_NONE;
}

/* The same, parent + 1 first: it is not in the index. */
static uint32_t
flame_find(struct flame *f, uint32_t parent, const char *s, size_t len,
    uint32_t ph)
{
	uint32_t c = parent + 1;

	if (c < f->n && !(f->node[c].label & FT_HEAD) &&
	    name_is(f, f->node[c].label, s, len))
		return c;
	return flame_find_index(f, parent, s, len, ph);
}

/*
 * Places every head again by path hashes of whole names, which children
 * alike in their first and last bytes do not share: worked out for
 * every node in id order (a parent comes first), 4 bytes a node for the
 * while.  From then on the walks hash whole names.
 */
void
flame_strengthen(struct flame *f)
{
	uint32_t *ph = xreallocarray(NULL, f->n, sizeof(*ph)), p, nm;
	size_t i, h = 0;

	f->strong = 1;
	f->crowded = 0;
	memset(f->slot, 0, f->cap * sizeof(*f->slot));
	for (i = 0; i < f->n; i++) {
		p = flame_parent_next(f, (uint32_t)i, &h);
		if (p == CTREE_NONE) {
			ph[i] = i == f->merged ? FP_MERGED : FP_ROOT;
			continue;
		}
		nm = flame_label(f, (uint32_t)i);
		ph[i] = flame_path(ph[p], flame_hash(f->ct.names[nm].p,
		    f->ct.names[nm].len));
		if (f->node[i].label & FT_HEAD) {
			f->head_ph[h - 1] = ph[i];
			slot_put(f->slot, f->cap, ph[i], p, (uint32_t)i);
		}
	}
	free(ph);
}

uint32_t
flame_top_path(const struct flame *f, uint32_t top)
{
	const struct ctree_name *nm;

	if (top == f->root)
		return FP_ROOT;
	if (top == f->merged)
		return FP_MERGED;
	nm = &f->ct.names[flame_label(f, top)];	/* a thread */
	return flame_path(FP_ROOT, flame_word(f, nm->p, nm->len, nm->len));
}

/*
 * The child of node called s[0..len), added if absent.  On entry *fresh
 * says that node was made by the same walk down (so it has no child yet
 * and the lookup is skipped); on return it says whether the child is new.
 */
uint32_t
flame_frame(struct flame *f, uint32_t node, uint32_t *ph, const char *s,
    size_t len, int *fresh)
{
	uint64_t h = flame_hash(s, len);
	uint32_t c;

	*ph = flame_path(*ph, f->strong ? h : fp_weak(s, len, len));
	if (!*fresh && (c = flame_find(f, node, s, len, *ph)) != CTREE_NONE)
		return c;
	*fresh = 1;
	return flame_new(f, node, ctree_name_hashed(&f->ct, s, len, h), *ph);
}

/* The child of the root that labels a thread. */
uint32_t
flame_thread(struct flame *f, const char *s, size_t len)
{
	uint64_t h = flame_hash(s, len);
	uint32_t th = ctree_name_hashed(&f->ct, s, len, h), c, ph;
	size_t a;

	if (th >= f->threads_alloc) {
		a = xgrow_room(f->threads_alloc, (size_t)th + 1);
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
	ph = flame_path(FP_ROOT, f->strong ? h : fp_weak(s, len, len));
	c = flame_find(f, f->root, s, len, ph);
	return c != CTREE_NONE ? c : flame_new(f, f->root, th, ph);
}

void
flame_thread_side(struct flame *f, uint32_t th, int side)
{
	uint32_t nm = flame_label(f, th);

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
		f->merged = flame_new(f, CTREE_NONE,
		    ctree_name_hashed(&f->ct, "", 0, flame_hash("", 0)), 0);
	return f->merged;
}

/* Adds weights to a node: w[0] after (or only) side, w[1] before side. */
void
flame_add(struct flame *f, uint32_t n, const uint64_t w[2], uint64_t calls)
{
	if (f->before.lo == NULL && w[1] != w[0])
		/* Until now both sides were the same. */
		wcol_copy(&f->before, &f->self, f->alloc, f->n);
	if (f->calls.lo == NULL && calls != 0) {
		f->calls.lo = xcalloc(f->alloc, sizeof(*f->calls.lo));
		f->calls.stride = 1;
	}
	if (wcol_add(&f->self, n, w[0]) != 0 ||
	    (f->before.lo != NULL && wcol_add(&f->before, n, w[1]) != 0))
		die("the weights add up past 2^64 - 1: the total cannot be "
		    "represented");
	if (f->calls.lo != NULL && calls != 0)
		(void)wcol_add(&f->calls, n, calls);	/* stays at the max */
}

void
flame_init(struct flame *f)
{
	memset(f, 0, sizeof(*f));
	f->bad = (struct bad_input)BAD_INPUT_INIT;
	ctree_init(&f->ct);
	slot_grow(f);
	f->merged = CTREE_NONE;
	f->root = flame_new(f, CTREE_NONE, ctree_name_hashed(&f->ct, "", 0,
	    flame_hash("", 0)), 0);
}

void
flame_release(struct flame *f)
{
	ctree_release(&f->ct);
	free(f->node);
	free(f->heads);
	free(f->head_ph);
	free(f->slot);
	wcol_release(&f->self);
	wcol_release(&f->before);
	wcol_release(&f->calls);
	free(f->is_thread);
	free(f->thread_side);
	if (f->where != NULL)
		jqf_free(f->where);
}

/* Frees the child index once the tree is complete. */
void
flame_drop_index(struct flame *f)
{
	free(f->slot);
	f->slot = NULL;
	f->cap = f->nslot = 0;
	free(f->head_ph);
	f->head_ph = NULL;
	f->head_ph_alloc = 0;
}

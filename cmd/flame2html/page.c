/* page.c: the HTML page: markup, style and script from assets/, the
 * tree as JSON metadata, a name table and base-32 node digits. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "err.h"
#include "html.h"
#include "ndw.h"
#include "strbuf.h"
#include "assets.h"
#include "flame2html.h"

#define CHUNK_CHARS (16u << 20)	/* node characters per <script> block */

struct out {
	FILE *fp;
	size_t n;		/* bytes in buf */
	size_t count;		/* bytes since the last reset by the caller */
	char buf[1 << 16];
};

static void
out_flush(struct out *o)
{
	fwrite(o->buf, 1, o->n, o->fp);
	o->n = 0;
}

static inline void
out_ch(struct out *o, int c)
{
	if (o->n == sizeof(o->buf))
		out_flush(o);
	o->buf[o->n++] = (char)c;
	o->count++;
}

static void
out_str(struct out *o, const char *s)
{
	while (*s != '\0')
		out_ch(o, *s++);
}

/* A number as base-32 digits, low first; digit d is the character 63 + d,
 * plus 32 when more digits follow (characters '?' to '~'). */
static char *
put_vlq_long(char *q, uint64_t v)
{
	do {
		unsigned d = v & 31;

		v >>= 5;
		*q++ = (char)(63 + (d | (v != 0 ? 32 : 0)));
	} while (v != 0);
	return q;
}

#define VLQ_SHORT 40		/* bits that vlq_short() takes */

/*
 * The digits of v < 2^40 at q, without a branch: all 8 bytes are
 * written, and the number of digits returned.
 */
static inline size_t
vlq_short(char *q, uint64_t v)
{
	size_t nd = ((size_t)(64 - __builtin_clzll(v | 1)) + 4) / 5;
	uint64_t x;

	x = (v & 0xfffff) | (v & 0xffffff00000ULL) << 12;
	x = (x & 0x000003ff000003ffULL) | (x & 0x000ffc00000ffc00ULL) << 6;
	x = (x & 0x001f001f001f001fULL) | (x & 0x03e003e003e003e0ULL) << 3;
	x += 0x3f3f3f3f3f3f3f3fULL +
	    (0x2020202020202020ULL & ((UINT64_C(1) << (8 * (nd - 1))) - 1));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	memcpy(q, &x, 8);
	return nd;
}

/* The digits of v at q, 8 bytes there free; returns the end. */
static inline char *
put_vlq(char *q, uint64_t v)
{
	if (v >> VLQ_SHORT != 0)
		return put_vlq_long(q, v);
	return q + vlq_short(q, v);
}

/*
 * The digits of the numbers below 2^DIG_BITS, made once: a node's name
 * rank and a total that differs from the one before mostly are (and by
 * name, its rank's, len 0 for a rank past them: w.name_dig).
 */
#define DIG_BITS 15

static struct dig {
	char c[3];
	unsigned char len;
} dig[1u << DIG_BITS];

static void
dig_init(void)
{
	char b[8];
	uint32_t v;

	if (dig[1].len != 0)
		return;
	for (v = 0; v < 1u << DIG_BITS; v++) {
		dig[v].len = (unsigned char)vlq_short(b, v);
		memcpy(dig[v].c, b, sizeof(dig[v].c));
	}
}

/* The digits of v < 2^DIG_BITS at q, 4 bytes there free; returns the end. */
static inline char *
put_dig(char *q, uint32_t v)
{
	memcpy(q, &dig[v], 4);
	return q + dig[v].len;
}

/*
 * The tree in the order it is written: children of each node by total,
 * heaviest first (ties in the order first seen).  A node's first child is
 * its id + 1 (when that is not a head); the others are heads.  The pass
 * that makes the totals goes down the ids, so a node is complete when it
 * comes to it: it keeps each head with its parent and total in rec[], and
 * each node with heads (FT_GROUP) as the header of its group, each in
 * its bucket by the top bits of the parent.  groups() sorts each bucket
 * by the other bits, which puts each group together, and puts its header
 * first and sorts its heads by total.  A total of UINT32_MAX or more is
 * UINT32_MAX, its 64 bits in the spill table of the self column.
 *
 * The walk then goes in two steps.  It first works out its order from
 * rec[] alone, a few thousand runs of consecutive nodes (pieces) at a
 * time, and then writes them, asking for the nodes of the pieces well
 * ahead of the ones it writes: the nodes lie anywhere.  For that the
 * totals pass also notes how each chain of first children (a run down
 * the ids) ends: at a node with heads, then its group is the next piece
 * (found by the node's rank among such nodes, in goff[], and then by
 * its place in rec[]: links_resolve()), or at a leaf.
 * A head's record keeps the chain it starts, a header the chain of its
 * node's first child.
 */
struct hrec {
	union {
		uint32_t parent;
		uint32_t n;	/* a header, once made: its heads */
	};
	union {
		uint32_t node;
		uint32_t fk;	/* a header, made: where the first child goes */
	};
	union {
		uint32_t t;	/* a header: the first child's total */
		uint32_t g;	/* a header, made: its node */
	};
	union {
		uint32_t link;	/* a head: its chain */
		uint32_t fklen;	/* a header: the first child's (0: none) */
	};
};

/*
 * A chain in link: the length of one that ends in a leaf, or LINK_GROUP
 * and the rank of the node with heads that ends it.  In fklen: the
 * length, LINK_GROUP set when it ends in a group (the next one in rec[]).
 */
#define LINK_GROUP 0x80000000u
#define FK_NONE UINT32_MAX	/* in a header: no first child */
#define NO_GROUP UINT32_MAX	/* a chain that ends in a leaf */

#define RADIX_BITS 12

/*
 * rec[] in buckets by the top digit of parent (bucket b holds the parents
 * with p >> shift == b) from bstart[b]: the totals pass writes each
 * record straight into its bucket, and groups() sorts each bucket.
 */
static struct {
	struct hrec *rec;
	size_t nrec;
	uint32_t bstart[(1u << RADIX_BITS) + 1];
	unsigned shift, nb;
	uint32_t *rank, *order;	/* a name's rank; the name of a rank */
	struct dig *name_dig;	/* a name's rank's digits */
	uint32_t *goff;		/* a group's header in rec, by rank (freed
				 * by links_resolve()) */
	size_t ng;		/* groups */
	uint32_t root_link, merged_link;	/* the tops' chains */
} w;

static uint32_t *name_count;	/* by name: its nodes (totals() counts) */

/*
 * Room for n records, not cleared: from 4 MiB on in 2 MiB huge pages
 * (a page fault costs about as much for 2 MiB as for 4 KiB here).
 */
static struct hrec *
recs_alloc(size_t n)
{
	size_t len = (n ? n : 1) * sizeof(struct hrec);
	void *p;

	if (n > SIZE_MAX / sizeof(struct hrec))
		die("out of memory");
	if (len < (4u << 20))
		return xmalloc(len);
	if (posix_memalign(&p, 2u << 20, len) != 0)
		die("out of memory");
#ifdef MADV_HUGEPAGE
	madvise(p, len, MADV_HUGEPAGE);
#endif
	return p;
}

/* The 64 bits of a total whose 32 are t (of the self column). */
static inline uint64_t
total_wide(const struct flame *f, uint32_t node, uint32_t t)
{
	return t != UINT32_MAX ? t : wcol_spilled(&f->self, node);
}

/* The total of node i, once totals() is done. */
static inline uint64_t
total_of(const struct flame *f, uint32_t i)
{
	return total_wide(f, i, f->node[i].w);
}

/* A child and its total, in the order the walk writes them. */
struct kid {
	uint64_t t;
	uint32_t node;
};

/* Heaviest first; ties in the order first seen. */
static inline int
rec_before(const struct flame *f, const struct hrec *a,
    const struct hrec *b)
{
	uint64_t x = a->t, y = b->t;

	if (x == UINT32_MAX || y == UINT32_MAX) {
		x = total_wide(f, a->node, a->t);
		y = total_wide(f, b->node, b->t);
	}
	return x != y ? x > y : a->node < b->node;
}

static const struct flame *cmp_flame;

static int
rec_cmp(const void *a, const void *b)
{
	const struct hrec *x = a, *y = b;

	return rec_before(cmp_flame, x, y) ? -1 : rec_before(cmp_flame, y, x);
}

/* Sorts one group's heads r[0..n) by total, heaviest first (ties by id). */
static void
group_sort(const struct flame *f, struct hrec *r, size_t n)
{
	struct hrec x;
	size_t i, j;

	if (n > 24) {
		cmp_flame = f;
		qsort(r, n, sizeof(*r), rec_cmp);
		return;
	}
	for (i = 1; i < n; i++) {
		x = r[i];
		for (j = i; j > 0 && rec_before(f, &x, &r[j - 1]); j--)
			r[j] = r[j - 1];
		r[j] = x;
	}
}

/* Adds node i's total v to its parent p, in each column. */
static inline void
total_up(struct flame *f, uint32_t i, uint32_t p, uint64_t v)
{
	if (wcol_add_fast(&f->self, p, v) != 0 || (f->before.lo != NULL &&
	    wcol_add_fast(&f->before, p, wcol_get(&f->before, i)) != 0))
		die("the weights add up past 2^64 - 1: the total cannot be "
		    "represented");
}

/*
 * Counts the records of each bucket before the totals pass makes them:
 * a head's in its parent's bucket, a group header's in its node's (the
 * nodes with heads are the parents of heads, marked in a bit set).
 * Returns where each bucket starts, for the pass to fill.
 */
static uint32_t *
buckets_count(const struct flame *f)
{
	size_t i, nw = (f->n + 63) / 64;
	uint64_t *seen = xcalloc(nw ? nw : 1, sizeof(*seen)), bits;
	uint32_t p, *next;
	unsigned bb = 1;

	while (bb < 32 && (f->n - 1) >> bb != 0)
		bb++;
	w.shift = bb > RADIX_BITS ? bb - RADIX_BITS : 0;
	w.nb = 1u << (bb - w.shift);
	memset(w.bstart, 0, sizeof(w.bstart));
	for (i = 0; i < f->nheads; i++)
		if ((p = f->heads[i].parent) != CTREE_NONE) {
			w.bstart[(p >> w.shift) + 1]++;
			seen[p >> 6] |= UINT64_C(1) << (p & 63);
		}
	w.ng = 0;
	for (i = 0; i < nw; i++)
		for (bits = seen[i]; bits != 0; bits &= bits - 1, w.ng++)
			w.bstart[((i * 64 + (size_t)__builtin_ctzll(bits)) >>
			    w.shift) + 1]++;
	free(seen);
	w.goff = xreallocarray(NULL, w.ng ? w.ng : 1, sizeof(*w.goff));
	next = xreallocarray(NULL, w.nb, sizeof(*next));
	for (i = 0; i < w.nb; i++) {
		w.bstart[i + 1] += w.bstart[i];
		next[i] = w.bstart[i];
	}
	w.nrec = w.bstart[w.nb];
	return next;
}

static inline void
rec_put(uint32_t *next, uint32_t parent, uint32_t node, uint32_t t,
    uint32_t link)
{
	struct hrec *r = &w.rec[next[parent >> w.shift]++];

	r->parent = parent;
	r->node = node;
	r->t = t;
	r->link = link;
}

/*
 * The self weights become totals in place: children come later.  The
 * same pass puts the heads and the group headers in their buckets, and
 * counts the nodes of each name.  Going down the ids, it knows
 * how the chain from the node after this one ends (end, and the group's
 * rank or 0 in ex); a header takes it with that node's total.  A head's
 * parent lies anywhere: the parents of the heads a few steps ahead are
 * asked for early.
 */
static void
totals(struct flame *f)
{
	size_t i, h = f->nheads;
	uint32_t p, lab, t, *next = buckets_count(f), last = FT_HEAD, tk = 0;
	uint32_t gr = (uint32_t)w.ng, end = 0, ex = 0, link;
	struct fnode *nd = f->node;
	uint32_t *count = name_count;
	int one = f->before.lo == NULL;	/* self is the only column */

	w.rec = recs_alloc(w.nrec);
	for (i = f->n; i-- > 0;) {
		lab = nd[i].label;
		t = nd[i].w;
		count[lab & FT_NAME]++;
		/* Most nodes: a first child (not node 0, a root), its
		 * parent's chain going on. */
		if (((lab & (FT_HEAD | FT_GROUP)) | (last & FT_HEAD)) == 0 &&
		    one && t < UINT32_MAX - nd[i - 1].w) {
			nd[i - 1].w += t;
			last = lab;
			tk = t;
			continue;
		}
		if (lab & FT_GROUP) {
			rec_put(next, (uint32_t)i, (uint32_t)i, tk, last &
			    FT_HEAD ? 0 : (end - (uint32_t)i) | (ex & LINK_GROUP));
			end = (uint32_t)i;
			ex = LINK_GROUP | --gr;
		} else if (last & FT_HEAD) {
			end = (uint32_t)i;
			ex = 0;
		}
		last = lab;
		tk = t;
		if (!(lab & FT_HEAD))
			p = (uint32_t)i - 1;
		else {
			p = f->heads[--h].parent;
			if (h >= 16 && f->heads[h - 16].parent != CTREE_NONE)
				__builtin_prefetch(
				    &f->node[f->heads[h - 16].parent]);
			link = ex != 0 ? ex : end - (uint32_t)i + 1;
			if (p == CTREE_NONE) {
				if (i == f->root)
					w.root_link = link;
				else if (i == f->merged)
					w.merged_link = link;
				continue;
			}
			rec_put(next, p, (uint32_t)i, t, link);
		}
		total_up(f, (uint32_t)i, p, total_wide(f, (uint32_t)i, t));
	}
	free(next);
}

/*
 * Sorts one bucket r[0..n) by the low bits of parent (below w.shift): a
 * radix sort from the lowest digit, its digits as wide as the bucket is
 * long (at most 12 bits), through tmp; a short one by insertion.
 * Records of one parent come out in no particular order.
 */
static void
bucket_sort(struct hrec *r, size_t n, struct hrec *tmp)
{
	uint32_t count[1u << RADIX_BITS], mask = (1u << w.shift) - 1;
	unsigned width = 1, passes, pass, shift, d;
	struct hrec x, *a = r, *b = tmp, *y;
	size_t i, j, sum, c;

	if (n <= 32 || w.shift == 0) {
		for (i = 1; i < n && w.shift != 0; i++) {
			x = r[i];
			for (j = i; j > 0 && r[j - 1].parent > x.parent; j--)
				r[j] = r[j - 1];
			r[j] = x;
		}
		return;
	}
	while (width < RADIX_BITS && (n >> (width + 1)) != 0)
		width++;
	passes = (w.shift + width - 1) / width;
	width = (w.shift + passes - 1) / passes;
	for (pass = 0; pass < passes; pass++) {
		shift = pass * width;
		memset(count, 0, sizeof(*count) << width);
		for (i = 0; i < n; i++)
			count[(a[i].parent & mask) >> shift &
			    ((1u << width) - 1)]++;
		for (d = 0, sum = 0; d < (1u << width); d++) {
			c = count[d];
			count[d] = (uint32_t)sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[count[(a[i].parent & mask) >> shift &
			    ((1u << width) - 1)]++] = a[i];
		y = a;
		a = b;
		b = y;
	}
	if (a != r)
		memcpy(r, a, n * sizeof(*r));
}

/* Whether p + 1 is a child of p (its first). */
static int
first_kid(const struct flame *f, uint32_t p)
{
	return p + 1 < f->n && !(f->node[p + 1].label & FT_HEAD);
}

/*
 * One group, rec[s..e): its header goes first, with the number of heads
 * and where the first child goes among them (before the heads of its
 * total or less: it was seen first), the heads after it sorted.
 */
static void
group_make(struct flame *f, size_t s, size_t e)
{
	struct hrec hd, *r = w.rec + s + 1;
	size_t j, n = e - 1 - s;
	uint64_t t0;

	for (j = s; w.rec[j].node != w.rec[j].parent; j++)
		if (j + 1 == e)
			die("the tree's groups do not match its heads");
	hd = w.rec[j];
	w.rec[j] = w.rec[s];
	group_sort(f, r, n);
	hd.fk = FK_NONE;
	if (hd.fklen != 0) {
		t0 = total_wide(f, hd.parent + 1, hd.t);
		for (j = 0; j < n && total_wide(f, r[j].node, r[j].t) > t0; j++)
			;
		hd.fk = (uint32_t)j;
	}
	hd.g = hd.parent;
	hd.n = (uint32_t)n;
	w.rec[s] = hd;
}

/* A chain's link that ends in a group: the group's rank becomes its
 * place in rec[]. */
static inline uint32_t
link_resolve(uint32_t link)
{
	return link & LINK_GROUP ? LINK_GROUP | w.goff[link & ~LINK_GROUP] :
	    link;
}

/*
 * Once the groups are made, the heads' links and the tops' name their
 * groups by place in rec[], not by rank: the walk down then finds a
 * group in one read, not two that wait on each other.  The reads of
 * goff[] here do not wait on each other.
 */
static void
links_resolve(void)
{
	size_t s, j, e;

	for (s = 0; s < w.nrec; s = e) {
		e = s + 1 + w.rec[s].n;
		for (j = s + 1; j < e; j++)
			w.rec[j].link = link_resolve(w.rec[j].link);
	}
	w.root_link = link_resolve(w.root_link);
	w.merged_link = link_resolve(w.merged_link);
	free(w.goff);
	w.goff = NULL;
}

/*
 * Sorts each bucket by parent and makes each group: they come in the
 * order of their nodes, so goff[] is filled in rank order.
 */
static void
groups(struct flame *f)
{
	struct hrec *tmp = NULL;
	size_t talloc = 0, b, n, s, e, g = 0;

	for (b = 0; b < w.nb; b++) {
		n = w.bstart[b + 1] - w.bstart[b];
		if (n > 32)
			XGROW(tmp, n, talloc);
		bucket_sort(w.rec + w.bstart[b], n, tmp);
	}
	free(tmp);
	for (s = 0; s < w.nrec; s = e) {
		for (e = s + 1; e < w.nrec && w.rec[e].parent ==
		    w.rec[s].parent; e++)
			;
		if (g == w.ng)
			die("the tree's groups do not match its heads");
		w.goff[g++] = (uint32_t)s;
		group_make(f, s, e);
	}
	links_resolve();
}

/* The children of the group of header hd in the order they are written:
 * *nk of them. */
static const struct kid *
kids_of(const struct flame *f, const struct hrec *hd, size_t *nk)
{
	static struct kid *k;
	static size_t kalloc;
	size_t nh = hd->n, fk = hd->fk, n = 0, j;
	uint32_t p = hd->g;

	XGROW(k, nh + 1, kalloc);
	for (j = 0; j <= nh; j++) {
		if (j == fk) {
			k[n].t = total_of(f, p + 1);
			k[n++].node = p + 1;
		}
		if (j < nh) {
			k[n].t = total_of(f, hd[1 + j].node);
			k[n++].node = hd[1 + j].node;
		}
	}
	*nk = n;
	return k;
}

static void
tree_prepare(struct flame *f)
{
	totals(f);
	free(f->heads);
	f->heads = NULL;
	f->nheads = f->heads_alloc = 0;
	groups(f);
}

static int
rank_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (name_count[x] != name_count[y])
		return name_count[x] > name_count[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Numbers names by how many nodes carry them, so common names are short,
 * once totals() has counted them.  The walk takes the digits of a
 * node's number from name_dig[] by its name.
 */
static void
names_rank(const struct flame *f)
{
	size_t i, nn = f->ct.nnames;
	uint32_t *order = xrealloc(NULL, (nn ? nn : 1) * sizeof(*order));
	uint32_t *rank = xrealloc(NULL, (nn ? nn : 1) * sizeof(*rank));
	struct dig *dg = xrealloc(NULL, (nn ? nn : 1) * sizeof(*dg));

	for (i = 0; i < nn; i++)
		order[i] = (uint32_t)i;
	if (nn > 1)
		qsort(order, nn, sizeof(*order), rank_cmp);
	dig_init();
	for (i = 0; i < nn; i++) {
		rank[order[i]] = (uint32_t)i;
		if (i < 1u << DIG_BITS)
			dg[order[i]] = dig[i];
		else
			dg[order[i]].len = 0;
	}
	free(name_count);
	name_count = NULL;
	w.order = order;
	w.rank = rank;
	w.name_dig = dg;
}

/* A node takes at most a header and five numbers of 13 digits, and
 * put_vlq() writes up to 8 bytes past the last. */
#define NODE_MAX (1 + 5 * 13 + 8)

/*
 * Node i of total t at q, k levels up; the flags of the tree are in
 * diff and calls (kept out of memory that q may write).  Returns the end.
 */
static inline char *
node_put(const struct flame *f, char *q, uint32_t i, uint64_t t,
    uint32_t k, uint64_t prev_total, int diff, int calls)
{
	uint64_t bt = diff && f->before.lo != NULL ? wcol_get(&f->before, i) :
	    t;
	size_t same = t == prev_total;

	*q++ = (char)(63 + same + (diff && bt == t ? 2 : 0) +
	    4 * (k < 15 ? k : 15));
	if (k >= 15)
		q = put_vlq(q, (uint64_t)k - 15);
	q += vlq_short(q, w.rank[f->node[i].label & FT_NAME]);
	if (t >> VLQ_SHORT == 0)	/* written, and kept when it differs */
		q += vlq_short(q, t) & (same - 1);
	else if (!same)
		q = put_vlq_long(q, t);
	if (diff && bt != t)
		q = put_vlq(q, bt);
	if (calls)
		q = put_vlq(q, f->calls.lo != NULL ? wcol_get(&f->calls, i) : 0);
	return q;
}

/*
 * A chain of first children from node start at depth: len nodes, the last
 * one's group at rec[off] (NO_GROUP: a leaf).
 */
struct chain {
	uint32_t start, len, off, depth;
};

/* A run of nodes written one after the other: the first climbs up. */
struct piece {
	uint32_t start, len, up;
};

#define PLAN_MAX 4096		/* pieces worked out at a time */
#define PLAN_AHEAD 16		/* pieces whose nodes are asked for early */

/* The walk's order, worked out a few pieces at a time. */
struct plan {
	struct chain cur, *stack;
	size_t sp, salloc;
	long prev_depth;
	int more;
	struct piece buf[PLAN_MAX];
	size_t n;
};

/* The chain that link gives from node s at depth d. */
static inline struct chain
link_chain(uint32_t s, uint32_t link, uint32_t d)
{
	struct chain c;

	c.start = s;
	c.depth = d;
	c.len = link;		/* 0 for a group's: its header has it */
	c.off = NO_GROUP;
	if (link & LINK_GROUP) {
		c.len = 0;
		c.off = link & ~LINK_GROUP;
	}
	return c;
}

/* The chain of the child in place j of the group at rec[off]. */
static inline struct chain
kid_chain(uint32_t off, size_t j, uint32_t g, uint32_t d)
{
	const struct hrec *hd = &w.rec[off], *r;
	struct chain c;

	if (j != hd->fk) {
		r = &hd[1 + j - (j > hd->fk)];
		return link_chain(r->node, r->link, d);
	}
	c.start = g + 1;
	c.depth = d;
	c.len = hd->fklen & ~LINK_GROUP;
	c.off = hd->fklen & LINK_GROUP ? off + 1 + hd->n : NO_GROUP;
	return c;
}

/* Asks for a group's header and the records after it, two cache lines:
 * its first heads, read as soon as the walk gets there. */
PREFETCH_FN
group_prefetch(uint32_t off)
{
	uintptr_t a = (uintptr_t)&w.rec[off];

	__builtin_prefetch((const void *)a);
	__builtin_prefetch((const void *)(a + 64));
}

/*
 * At the group that ends chain c, pushes the children but the first, in
 * the order they are written (from the end), their groups asked for;
 * returns the first one's.
 */
static struct chain
plan_kids(struct plan *pl, const struct chain *c)
{
	const struct hrec *hd = &w.rec[c->off];
	uint32_t g = c->start + c->len - 1, d = c->depth + c->len;
	size_t nk = hd->n + (hd->fk != FK_NONE), j;
	struct chain *k, first = kid_chain(c->off, 0, g, d);

	if (first.off != NO_GROUP)
		group_prefetch(first.off);
	XGROW(pl->stack, pl->sp + nk, pl->salloc);
	for (j = nk; j-- > 1;) {
		k = &pl->stack[pl->sp++];
		*k = kid_chain(c->off, j, g, d);
		if (k->off != NO_GROUP)
			group_prefetch(k->off);
	}
	return first;
}

/* Works out pieces until the buffer is full or the tree is done. */
static void
plan_fill(struct plan *pl)
{
	struct chain c;
	struct piece *p;

	while (pl->more && pl->n < PLAN_MAX) {
		c = pl->cur;
		if (c.len == 0)
			c.len = w.rec[c.off].g - c.start + 1;
		p = &pl->buf[pl->n++];
		p->start = c.start;
		p->len = c.len;
		p->up = (uint32_t)(pl->prev_depth + 1 - (long)c.depth);
		pl->prev_depth = (long)c.depth + c.len - 1;
		if (c.off != NO_GROUP)
			pl->cur = plan_kids(pl, &c);
		else if (pl->sp > 0)
			pl->cur = pl->stack[--pl->sp];
		else
			pl->more = 0;
	}
}

/* The most a node of run_simple() takes: a header and two numbers
 * below 2^DIG_BITS. */
#define SIMPLE_MAX (1 + 3 + 3)

/*
 * Nodes [i, e) of a piece, in a tree without before or calls columns:
 * the first climbs up levels (< 15), each other one is the child of the
 * one before, so a header is 63 + same-total bit + 4 * up.  Writes no
 * more nodes than surely fit before lim (q < lim), and stops at a node
 * whose name rank or new total is 2^DIG_BITS or more, or whose total is
 * spilled (node_put() writes those); returns the first node not written.
 */
static inline uint32_t
run_simple(const struct fnode *nd, uint32_t i, uint32_t e, uint32_t up,
    char **qp, const char *lim, uint64_t *prev)
{
	const struct dig *dn = w.name_dig, *d;
	char *q = *qp, *q0;
	uint64_t pv = *prev;
	uint32_t t;
	size_t fit = (size_t)(lim - q) / SIMPLE_MAX;

	if (e - i > fit)
		e = i + (uint32_t)fit;
	for (; i < e; i++) {
		d = &dn[nd[i].label & FT_NAME];
		t = nd[i].w;
		if (t == UINT32_MAX || d->len == 0)
			break;
		q0 = q;
		*q++ = (char)(63 + (t == pv) + 4 * up);
		memcpy(q, d, 4);
		q += d->len;
		up = 0;
		if (t != pv) {
			if (t >> DIG_BITS != 0) {
				q = q0;
				break;
			}
			q = put_dig(q, t);
		}
		pv = t;
	}
	*qp = q;
	*prev = pv;
	return i;
}

/*
 * Where the writes through q must stop to let the caller flush the
 * buffer or start a new <script> chunk: count characters of the chunk
 * are written when q is at base.
 */
static inline char *
write_limit(struct out *o, char *base, size_t count)
{
	char *full = o->buf + sizeof(o->buf) - NODE_MAX + 1;

	if (count >= CHUNK_CHARS || base >= full)
		return base;
	return (size_t)(full - base) > CHUNK_CHARS - count ? base +
	    (CHUNK_CHARS - count) : full;
}

/*
 * Asks for the nodes of a piece: the cache lines they lie in, up to
 * PIECE_LINES of them.  The hardware's own prefetch does not follow a
 * run of nodes here.
 */
#define PIECE_LINES 4

PREFETCH_FN
piece_prefetch(const struct flame *f, const struct piece *pc)
{
	uintptr_t a = (uintptr_t)&f->node[pc->start], e, q;

	e = (uintptr_t)&f->node[pc->start + pc->len];
	if (e > a + PIECE_LINES * 64)
		e = a + PIECE_LINES * 64;
	for (q = a & ~(uintptr_t)63; q < e; q += 64)
		__builtin_prefetch((const void *)q);
}

/*
 * Writes pieces [0, m) of n, asking for the nodes of the pieces ahead.
 * The place in the buffer and the count are kept in locals, which writes
 * through q cannot touch: the count is base_count plus the characters
 * written since base.
 */
static void
plan_write(const struct flame *f, struct out *o, const struct piece *pc,
    size_t m, size_t n, const char *head, uint64_t *prev_total)
{
	char *q = o->buf + o->n, *base = q, *lim;
	size_t j, base_count = o->count;
	uint32_t i, e, k, j0;
	uint64_t t, prev = *prev_total;
	int diff = f->has_diff, calls = f->has_calls;
	int simple = !diff && !calls;

	lim = write_limit(o, base, base_count);
	for (j = 0; j < m; j++) {
		if (j + PLAN_AHEAD < n)
			piece_prefetch(f, &pc[j + PLAN_AHEAD]);
		k = pc[j].up;
		for (i = pc[j].start, e = i + pc[j].len; i < e;) {
			if (q >= lim) {
				o->n = (size_t)(q - o->buf);
				o->count = base_count + (size_t)(q - base);
				if (o->count >= CHUNK_CHARS) {
					out_str(o, "</script>\n");
					out_str(o, head);
					o->count = 0;
				}
				if (o->n + NODE_MAX > sizeof(o->buf))
					out_flush(o);
				base = q = o->buf + o->n;
				base_count = o->count;
				lim = write_limit(o, base, base_count);
			}
			if (k < 15 && simple) {
				j0 = i;
				i = run_simple(f->node, i, e, k, &q, lim, &prev);
				if (i != j0) {
					k = 0;
					continue;
				}
			}
			t = total_of(f, i);
			q = node_put(f, q, i, t, k, prev, diff, calls);
			prev = t;
			i++;
			k = 0;
		}
	}
	o->n = (size_t)(q - o->buf);
	o->count = base_count + (size_t)(q - base);
	*prev_total = prev;
}

/*
 * Writes one tree in depth-first order.  Each node is a header character
 * (63 + same-total bit + same-before bit * 2 + 4 * up), where up is how
 * many levels the node climbs from the previous one's child level, then
 * the name index, the total when it differs from the previous node's, the
 * before-total in a diff when it differs from the total, and the calls.
 */
static void
tree_write(const struct flame *f, struct out *o, uint32_t root,
    uint32_t link, int id)
{
	static struct plan pl;	/* its buffer is large */
	uint64_t prev_total = UINT64_MAX;
	char head[96];
	size_t m;

	snprintf(head, sizeof(head), "<script type=\"text/x-flame-nodes\" "
	    "class=\"fg-nodes\" data-tree=\"%d\">", id);
	out_str(o, head);
	o->count = 0;
	pl.cur = link_chain(root, link, 0);
	pl.sp = 0;
	pl.prev_depth = -1;
	pl.more = 1;
	pl.n = 0;
	do {
		plan_fill(&pl);
		m = pl.more ? pl.n - PLAN_AHEAD : pl.n;
		plan_write(f, o, pl.buf, m, pl.n, head, &prev_total);
		memmove(pl.buf, pl.buf + m, (pl.n - m) * sizeof(*pl.buf));
		pl.n -= m;
	} while (pl.more || pl.n > 0);
	out_str(o, "</script>\n");
	out_flush(o);
	free(pl.stack);
	pl.stack = NULL;
	pl.salloc = 0;
}

/* Counts the nodes of each tree: parent[i] < i, so one pass finds roots. */
static void
tree_sizes(const struct flame *f, size_t *n0, size_t *n1)
{
	unsigned char *in1 = xrealloc(NULL, f->n ? f->n : 1);
	size_t i, h = 0;
	uint32_t p;

	*n0 = *n1 = 0;
	for (i = 0; i < f->n; i++) {
		p = flame_parent_next(f, (uint32_t)i, &h);
		in1[i] = p == CTREE_NONE ? i == f->merged : in1[p];
		if (in1[i])
			(*n1)++;
		else
			(*n0)++;
	}
	free(in1);
}

static void
meta_write(const struct flame *f, FILE *fp, const char *title,
    const char *unit, size_t nodes0, size_t nodes1)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, nk;
	const struct kid *kids;
	struct kid one;
	int first = 1;

	strbuf_addstr(&sb, "{\"version\":1,\"title\":");
	ndw_quote(&sb, title, strlen(title), NDW_HTML_SAFE);
	strbuf_addstr(&sb, ",\"unit\":");
	ndw_quote(&sb, unit, strlen(unit), NDW_HTML_SAFE);
	strbuf_addf(&sb, ",\"diff\":%s,\"calls\":%s,\"threads\":%s",
	    f->has_diff ? "true" : "false", f->has_calls ? "true" : "false",
	    f->has_threads ? "true" : "false");
	if (f->view_merged && f->merged != CTREE_NONE)
		strbuf_addstr(&sb, ",\"view\":\"merged\"");
	strbuf_addf(&sb, ",\"total\":%llu,\"nodes\":[%zu",
	    (unsigned long long)total_of(f, f->root), nodes0);
	if (f->merged != CTREE_NONE)
		strbuf_addf(&sb, ",%zu", nodes1);
	strbuf_addstr(&sb, "],\"thread_list\":[");
	if (f->node[f->root].label & FT_GROUP)
		kids = kids_of(f, &w.rec[w.root_link & ~LINK_GROUP], &nk);
	else {
		one.node = f->root + 1;
		nk = first_kid(f, f->root);
		if (nk)
			one.t = total_of(f, one.node);
		kids = &one;
	}
	for (i = 0; i < nk; i++) {
		uint32_t k = kids[i].node, nm = flame_label(f, k);

		if (nm >= f->threads_alloc || !f->is_thread[nm])
			continue;
		strbuf_addstr(&sb, first ? "{\"name\":" : ",{\"name\":");
		ndw_quote(&sb, f->ct.names[nm].p, f->ct.names[nm].len,
		    NDW_HTML_SAFE);
		strbuf_addf(&sb, ",\"total\":%llu}",
		    (unsigned long long)kids[i].t);
		first = 0;
	}
	strbuf_addstr(&sb, "],\"categories\":[");
	for (i = 0; i < cat_count(); i++) {
		const char *nm = cat_get(i)->name, *co = cat_get(i)->colour;

		strbuf_addstr(&sb, i > 0 ? ",{\"name\":" : "{\"name\":");
		ndw_quote(&sb, nm, strlen(nm), NDW_HTML_SAFE);
		strbuf_addf(&sb, ",\"colour\":\"%s\"}", co);
	}
	strbuf_addstr(&sb, "]}");
	fprintf(fp, "<script type=\"application/json\" id=\"fg-meta\">%s"
	    "</script>\n", sb.buf);
	strbuf_release(&sb);
}

static void
names_write(const struct flame *f, FILE *fp,
    const uint32_t *order)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	fputs("<script type=\"application/json\" id=\"fg-names\">[", fp);
	for (i = 0; i < f->ct.nnames; i++) {
		strbuf_reset(&sb);
		if (i > 0)
			strbuf_addch(&sb, ',');
		ndw_quote(&sb, f->ct.names[order[i]].p,
		    f->ct.names[order[i]].len, NDW_HTML_SAFE);
		fwrite(sb.buf, 1, sb.len, fp);
	}
	fputs("]</script>\n<script type=\"application/json\" id=\"fg-cats\">[",
	    fp);
	for (i = 0; i < f->ct.nnames; i++)
		fprintf(fp, i > 0 ? ",%zu" : "%zu",
		    name_cat(f->ct.names[order[i]].p));
	fputs("]</script>\n", fp);
	strbuf_release(&sb);
}

void
page_write(struct flame *f, FILE *fp, const char *title,
    const char *unit)
{
	static struct out o;	/* its buffer is large */
	const struct html_page pg = {
		.title = title,
		.meta = "<meta name=\"viewport\" content=\"width=device-width, "
		    "initial-scale=1\">\n",
		.css = asset_flame_css, .css_len = asset_flame_css_len,
		.js = asset_flame_js, .js_len = asset_flame_js_len,
	};
	size_t n0, n1 = 0;

	flame_drop_index(f);
	if (f->merged != CTREE_NONE)
		tree_sizes(f, &n0, &n1);
	else
		n0 = f->n;	/* one tree */
	name_count = xcalloc(f->ct.nnames ? f->ct.nnames : 1,
	    sizeof(*name_count));
	tree_prepare(f);
	names_rank(f);
	html_page_head(fp, &pg);
	fputs("<h1 id=\"fg-title\">", fp);
	html_text(fp, title, strlen(title));
	fputs("</h1>\n", fp);
	html_asset(fp, asset_flame_html, asset_flame_html_len);
	meta_write(f, fp, title, unit, n0, n1);
	names_write(f, fp, w.order);
	o.fp = fp;
	o.n = 0;
	tree_write(f, &o, f->root, w.root_link, 0);
	if (f->merged != CTREE_NONE)
		tree_write(f, &o, f->merged, w.merged_link, 1);
	html_page_foot(fp, &pg);
	free(w.order);
	free(w.rank);
	free(w.name_dig);
	free(w.rec);
}

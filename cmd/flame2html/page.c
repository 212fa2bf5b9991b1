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
static inline char *
put_vlq(char *q, uint64_t v)
{
	do {
		unsigned d = v & 31;

		v >>= 5;
		*q++ = (char)(63 + (d | (v != 0 ? 32 : 0)));
	} while (v != 0);
	return q;
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
 * first and sorts its heads by total.  The tree
 * walk reads the totals of the heads there, not from the nodes, which lie
 * anywhere.  A node with heads gives its weight word over to where its
 * header is in rec[]; the header keeps the node's total and, in place of
 * the parent, the number of heads that follow it.  A total of UINT32_MAX
 * or more is UINT32_MAX in rec[], its 64 bits in the spill table of the
 * self column.
 */
struct hrec {
	uint32_t parent, node, t;
};

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
} w;

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
	const struct fnode *nd = &f->node[i];

	return total_wide(f, i, nd->label & FT_GROUP ? w.rec[nd->w].t :
	    nd->w);
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
	for (i = 0; i < nw; i++)
		for (bits = seen[i]; bits != 0; bits &= bits - 1)
			w.bstart[((i * 64 + (size_t)__builtin_ctzll(bits)) >>
			    w.shift) + 1]++;
	free(seen);
	next = xreallocarray(NULL, w.nb, sizeof(*next));
	for (i = 0; i < w.nb; i++) {
		w.bstart[i + 1] += w.bstart[i];
		next[i] = w.bstart[i];
	}
	w.nrec = w.bstart[w.nb];
	return next;
}

static inline void
rec_put(uint32_t *next, uint32_t parent, uint32_t node, uint32_t t)
{
	struct hrec *r = &w.rec[next[parent >> w.shift]++];

	r->parent = parent;
	r->node = node;
	r->t = t;
}

/*
 * The self weights become totals in place: children come later.  The
 * same pass puts the heads and the group headers with their totals in
 * their buckets, and labels each node with its name's rank.  A
 * head's parent lies anywhere: the parents of the heads a few steps
 * ahead are asked for early.
 */
static void
totals(struct flame *f)
{
	size_t i, h = f->nheads;
	uint32_t p, lab, t, *next = buckets_count(f);

	w.rec = recs_alloc(w.nrec);
	for (i = f->n; i-- > 0;) {
		lab = f->node[i].label;
		t = f->node[i].w;
		f->node[i].label = (lab & ~FT_NAME) | w.rank[lab & FT_NAME];
		if (lab & FT_GROUP)
			rec_put(next, (uint32_t)i, (uint32_t)i, t);
		if (!(lab & FT_HEAD))
			p = (uint32_t)i - 1;
		else {
			p = f->heads[--h].parent;
			if (h >= 16 && f->heads[h - 16].parent != CTREE_NONE)
				__builtin_prefetch(
				    &f->node[f->heads[h - 16].parent]);
			if (p == CTREE_NONE)
				continue;
			rec_put(next, p, (uint32_t)i, t);
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

/*
 * One group, rec[s..e): its header goes first, with the number of heads,
 * the heads after it sorted, and the group's node is pointed at it.
 */
static void
group_make(struct flame *f, size_t s, size_t e)
{
	struct hrec hd;
	size_t j;

	for (j = s; w.rec[j].node != w.rec[j].parent; j++)
		if (j + 1 == e)
			die("the tree's groups do not match its heads");
	hd = w.rec[j];
	w.rec[j] = w.rec[s];
	hd.parent = (uint32_t)(e - 1 - s);
	w.rec[s] = hd;
	group_sort(f, w.rec + s + 1, e - 1 - s);
	f->node[hd.node].w = (uint32_t)s;
}

/* Sorts each bucket by parent and makes each group. */
static void
groups(struct flame *f)
{
	struct hrec *tmp = NULL;
	size_t talloc = 0, b, n, s, e;

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
		group_make(f, s, e);
	}
}

/* Whether p + 1 is a child of p (its first). */
static int
first_kid(const struct flame *f, uint32_t p)
{
	return p + 1 < f->n && !(f->node[p + 1].label & FT_HEAD);
}

/*
 * The children of group node p in the order they are written: *nk of
 * them.  The first child comes before the heads of its total or less
 * (it was seen first).
 */
static const struct kid *
kids_of(const struct flame *f, uint32_t p, size_t *nk)
{
	static struct kid *k;
	static size_t kalloc;
	size_t s = f->node[p].w, e = s + 1 + w.rec[s].parent, n = 0, j;
	uint64_t t0 = 0, t;
	int fk = first_kid(f, p);

	XGROW(k, e - s, kalloc);
	if (fk)
		t0 = total_of(f, p + 1);
	for (j = s + 1; j < e; j++) {
		t = total_wide(f, w.rec[j].node, w.rec[j].t);
		if (fk && t <= t0) {
			k[n].t = t0;
			k[n++].node = p + 1;
			fk = 0;
		}
		k[n].t = t;
		k[n++].node = w.rec[j].node;
	}
	if (fk) {
		k[n].t = t0;
		k[n++].node = p + 1;
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

static uint32_t *name_count;

/* Counts the nodes of each name. */
static void
names_count(const struct flame *f)
{
	size_t i;

	name_count = xcalloc(f->ct.nnames ? f->ct.nnames : 1,
	    sizeof(*name_count));
	for (i = 0; i < f->n; i++)
		name_count[f->node[i].label & FT_NAME]++;
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
 * Numbers names by how many nodes carry them, so common names are short
 * (the nodes are then labelled with these numbers, so that the walk need
 * not look them up).
 */
static void
names_rank(const struct flame *f)
{
	size_t i, nn = f->ct.nnames;
	uint32_t *order = xrealloc(NULL, (nn ? nn : 1) * sizeof(*order));
	uint32_t *rank = xrealloc(NULL, (nn ? nn : 1) * sizeof(*rank));

	for (i = 0; i < nn; i++)
		order[i] = (uint32_t)i;
	if (nn > 1)
		qsort(order, nn, sizeof(*order), rank_cmp);
	for (i = 0; i < nn; i++)
		rank[order[i]] = (uint32_t)i;
	free(name_count);
	name_count = NULL;
	w.order = order;
	w.rank = rank;
}

/* A node takes at most a header and five numbers of 13 digits. */
#define NODE_MAX (1 + 5 * 13)

/* Writes node i of total t. */
static void
node_write(const struct flame *f, struct out *o, uint32_t i, uint64_t t,
    int k, uint64_t prev_total)
{
	uint64_t bt = f->has_diff && f->before.lo != NULL ?
	    wcol_get(&f->before, i) : t;
	int same = t == prev_total;
	int bsame = bt == t;
	char *q, *q0;

	if (o->n + NODE_MAX > sizeof(o->buf))
		out_flush(o);
	q = q0 = o->buf + o->n;
	*q++ = (char)(63 + (same ? 1 : 0) + (f->has_diff && bsame ? 2 : 0) +
	    4 * (k < 15 ? k : 15));
	if (k >= 15)
		q = put_vlq(q, (uint64_t)k - 15);
	q = put_vlq(q, flame_label(f, i));
	if (!same)
		q = put_vlq(q, t);
	if (f->has_diff && !bsame)
		q = put_vlq(q, bt);
	if (f->has_calls)
		q = put_vlq(q, f->calls.lo != NULL ? wcol_get(&f->calls, i) : 0);
	o->n += (size_t)(q - q0);
	o->count += (size_t)(q - q0);
}

/* A node waiting on the walk's stack, its total in hand. */
struct pending {
	uint64_t t;
	uint32_t node, depth;
};

/* Pushes the children of group node i but the first; returns that one. */
static struct kid
kids_push(const struct flame *f, uint32_t i, uint32_t depth,
    struct pending **stack, size_t *sp, size_t *salloc)
{
	const struct kid *kids;
	size_t nk;

	kids = kids_of(f, i, &nk);
	XGROW(*stack, *sp + nk, *salloc);
	/* Heads lie anywhere: they are asked for early. */
	__builtin_prefetch(&f->node[kids[0].node]);
	while (--nk > 0) {
		__builtin_prefetch(&f->node[kids[nk].node]);
		(*stack)[*sp].t = kids[nk].t;
		(*stack)[*sp].node = kids[nk].node;
		(*stack)[(*sp)++].depth = depth;
	}
	return kids[0];
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
    int id)
{
	struct pending *stack;
	size_t sp = 0, salloc = 1024;
	struct kid kid;
	long prev_depth = -1;
	uint64_t prev_total = UINT64_MAX;
	char head[96];

	snprintf(head, sizeof(head), "<script type=\"text/x-flame-nodes\" "
	    "class=\"fg-nodes\" data-tree=\"%d\">", id);
	out_str(o, head);
	o->count = 0;
	stack = xrealloc(NULL, salloc * sizeof(*stack));
	stack[sp].t = total_of(f, root);
	stack[sp].node = root;
	stack[sp++].depth = 0;
	while (sp > 0) {
		uint32_t i = stack[--sp].node, depth = stack[sp].depth;
		uint64_t t = stack[sp].t;

		/*
		 * Down the first children; the others wait on the stack.  The
		 * node on top is the next one after this run: it lies anywhere,
		 * so it is asked for while the run is written.
		 */
		if (sp > 0)
			__builtin_prefetch(&f->node[stack[sp - 1].node]);
		for (;;) {
			if (o->count >= CHUNK_CHARS) {
				out_str(o, "</script>\n");
				out_str(o, head);
				o->count = 0;
			}
			node_write(f, o, i, t, (int)(prev_depth + 1 -
			    (long)depth), prev_total);
			prev_total = t;
			prev_depth = depth++;
			if (!(f->node[i].label & FT_GROUP)) {
				if (!first_kid(f, i))
					break;
				t = total_of(f, ++i);
				continue;
			}
			kid = kids_push(f, i, depth, &stack, &sp, &salloc);
			i = kid.node;
			t = kid.t;
		}
	}
	out_str(o, "</script>\n");
	out_flush(o);
	free(stack);
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
		kids = kids_of(f, f->root, &nk);
	else {
		one.node = f->root + 1;
		nk = first_kid(f, f->root);
		if (nk)
			one.t = total_of(f, one.node);
		kids = &one;
	}
	for (i = 0; i < nk; i++) {
		uint32_t k = kids[i].node, nm = w.order[flame_label(f, k)];

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
	names_count(f);
	names_rank(f);
	tree_prepare(f);
	html_page_head(fp, &pg);
	fputs("<h1 id=\"fg-title\">", fp);
	html_text(fp, title, strlen(title));
	fputs("</h1>\n", fp);
	html_asset(fp, asset_flame_html, asset_flame_html_len);
	meta_write(f, fp, title, unit, n0, n1);
	names_write(f, fp, w.order);
	o.fp = fp;
	o.n = 0;
	tree_write(f, &o, f->root, 0);
	if (f->merged != CTREE_NONE)
		tree_write(f, &o, f->merged, 1);
	html_page_foot(fp, &pg);
	free(w.order);
	free(w.rank);
	free(w.rec);
}

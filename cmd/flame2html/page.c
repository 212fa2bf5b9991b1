/* page.c: the HTML page: markup, style and script from assets/, the
 * tree as JSON metadata, a name table and base-32 node digits. */
#include <stdlib.h>
#include <string.h>

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
 * its id + 1 (when that is not a head); the others are heads.  The
 * children of a node with heads are kept in gnode[], grouped by parent
 * and sorted.  Bit p of word[] says that p has
 * head children; brank[] counts the bits before each word, which makes
 * the group number of p.
 */
static struct {
	const struct wcol *total, *btotal;
	uint64_t *word;
	uint32_t *brank, *gstart, *gnode, *rank;
} w;

static inline uint64_t
total_of(uint32_t i)
{
	return wcol_get(w.total, i);
}

/* Set bits, without asking the compiler for an instruction set. */
static inline uint32_t
popcount64(uint64_t x)
{
	x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
	x = (x & UINT64_C(0x3333333333333333)) +
	    ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (uint32_t)((x * UINT64_C(0x0101010101010101)) >> 56);
}

static inline uint32_t
group_of(uint32_t p)
{
	uint64_t below = w.word[p >> 6] & ((UINT64_C(1) << (p & 63)) - 1);

	return w.brank[p >> 6] + popcount64(below);
}

/* A child and its total, for sorting a group. */
struct kid {
	uint64_t t;
	uint32_t node;
};

/* Heaviest first; ties in the order first seen. */
static inline int
kid_before(const struct kid *a, const struct kid *b)
{
	return a->t != b->t ? a->t > b->t : a->node < b->node;
}

static int
kid_cmp(const void *a, const void *b)
{
	const struct kid *x = a, *y = b;

	return kid_before(x, y) ? -1 : kid_before(y, x);
}

/* Sorts gs[0..n) by total, heaviest first (ties by id). */
static void
kids_sort(uint32_t *gs, size_t n)
{
	static struct kid *k;
	static size_t kalloc;
	struct kid x;
	size_t i, j;

	XGROW(k, n, kalloc);
	for (i = 0; i < n; i++) {
		k[i].t = total_of(gs[i]);
		k[i].node = gs[i];
	}
	if (n > 24)
		qsort(k, n, sizeof(*k), kid_cmp);
	else
		for (i = 1; i < n; i++) {
			x = k[i];
			for (j = i; j > 0 && kid_before(&x, &k[j - 1]); j--)
				k[j] = k[j - 1];
			k[j] = x;
		}
	for (i = 0; i < n; i++)
		gs[i] = k[i].node;
}

/*
 * The self weights become totals in place: children come later.  The
 * same pass counts the nodes of each name (names_rank()).  A head's
 * parent lies anywhere: the parents of the heads a few steps ahead are
 * asked for early.
 */
static void
totals(struct flame *f, uint64_t *name_n)
{
	size_t i, h = f->nheads;
	uint32_t p;

	for (i = f->n; i-- > 0;) {
		name_n[f->node[i].label & FT_NAME]++;
		if (!(f->node[i].label & FT_HEAD))
			p = (uint32_t)i - 1;
		else {
			p = f->heads[--h].parent;
			if (h >= 16 && f->heads[h - 16].parent != CTREE_NONE)
				__builtin_prefetch(
				    &f->node[f->heads[h - 16].parent]);
			if (p == CTREE_NONE)
				continue;
		}
		if (wcol_add_fast(&f->self, p, wcol_get(&f->self,
		    (uint32_t)i)) != 0 || (f->before.lo != NULL &&
		    wcol_add_fast(&f->before, p, wcol_get(&f->before,
		    (uint32_t)i)) != 0))
			die("the weights add up past 2^64 - 1: the total "
			    "cannot be represented");
	}
}

/* Whether p + 1 is a child of p (its first). */
static int
first_kid(const struct flame *f, uint32_t p)
{
	return p + 1 < f->n && !(f->node[p + 1].label & FT_HEAD);
}

/*
 * Groups the children of the nodes with heads among them by parent (a
 * counting sort of the heads, and the first child with them).  Each
 * group is sorted when the tree walk comes to it (kids_of()).
 */
static void
groups(struct flame *f)
{
	size_t i, nw = (f->n + 63) / 64, ng = 0, nk = 0;
	uint64_t bits, *fk;
	uint32_t p, g;

	w.word = xcalloc(nw ? nw : 1, sizeof(*w.word));
	w.brank = xreallocarray(NULL, nw ? nw : 1, sizeof(*w.brank));
	fk = xcalloc(nw ? nw : 1, sizeof(*fk));
	/* The parents of heads were marked as the heads were made. */
	for (i = 0; i < f->n; i++)
		if (f->node[i].label & FT_GROUP) {
			w.word[i >> 6] |= UINT64_C(1) << (i & 63);
			if (first_kid(f, (uint32_t)i))
				fk[i >> 6] |= UINT64_C(1) << (i & 63);
		}
	for (i = 0; i < nw; i++) {
		w.brank[i] = (uint32_t)ng;
		ng += popcount64(w.word[i]);
	}
	w.gstart = xcalloc(ng + 1, sizeof(*w.gstart));
	for (i = 0; i < f->nheads; i++)
		if ((p = f->heads[i].parent) != CTREE_NONE) {
			w.gstart[group_of(p) + 1]++;
			nk++;
		}
	for (i = 0, g = 0; i < nw; i++)
		for (bits = w.word[i]; bits != 0; bits &= bits - 1, g++)
			if (fk[i] & (bits & -bits))
				w.gstart[g + 1]++;
	for (i = 0; i < ng; i++)
		w.gstart[i + 1] += w.gstart[i];
	w.gnode = xreallocarray(NULL, nk + ng + 1, sizeof(*w.gnode));
	for (i = 0, g = 0; i < nw; i++)
		for (bits = w.word[i]; bits != 0; bits &= bits - 1, g++)
			if (fk[i] & (bits & -bits))
				w.gnode[w.gstart[g]++] = (uint32_t)(i * 64 +
				    (size_t)__builtin_ctzll(bits)) + 1;
	free(fk);
	for (i = 0; i < f->nheads; i++)
		if ((p = f->heads[i].parent) != CTREE_NONE)
			w.gnode[w.gstart[group_of(p)]++] = f->heads[i].node;
	memmove(w.gstart + 1, w.gstart, ng * sizeof(*w.gstart));
	w.gstart[0] = 0;
}

/* The children of p in the order they are written: *nk of them. */
static const uint32_t *
kids_of(const struct flame *f, uint32_t p, size_t *nk)
{
	static uint32_t c0;
	uint32_t *gs;
	uint32_t g;
	size_t j;

	if (f->node[p].label & FT_GROUP) {
		g = group_of(p);
		gs = w.gnode + w.gstart[g];
		*nk = w.gstart[g + 1] - w.gstart[g];
		/* Heads lie anywhere: ask for what the sort will read. */
		for (j = 0; j < *nk; j++)
			__builtin_prefetch(&f->node[gs[j]]);
		if (*nk > 1)
			kids_sort(gs, *nk);
		return gs;
	}
	c0 = p + 1;
	*nk = first_kid(f, p);
	return &c0;
}

static void
tree_prepare(struct flame *f, uint64_t *name_n)
{
	totals(f, name_n);
	w.total = &f->self;
	w.btotal = f->before.lo != NULL ? &f->before : &f->self;
	groups(f);
}

static uint64_t *name_count;

static int
rank_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (name_count[x] != name_count[y])
		return name_count[x] > name_count[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Numbers names by how many nodes carry them (name_count, which totals()
 * counted), so common names are short.
 */
static uint32_t *
names_rank(const struct flame *f, uint32_t **order_out)
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
	*order_out = order;
	return rank;
}

/* A node takes at most a header and five numbers of 13 digits. */
#define NODE_MAX (1 + 5 * 13)

/* Writes node i; returns its total. */
static uint64_t
node_write(const struct flame *f, struct out *o, uint32_t i, int k,
    uint64_t prev_total)
{
	uint64_t t = total_of(i), bt = f->has_diff ? wcol_get(w.btotal, i) : t;
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
	q = put_vlq(q, w.rank[flame_label(f, i)]);
	if (!same)
		q = put_vlq(q, t);
	if (f->has_diff && !bsame)
		q = put_vlq(q, bt);
	if (f->has_calls)
		q = put_vlq(q, f->calls.lo != NULL ? wcol_get(&f->calls, i) : 0);
	o->n += (size_t)(q - q0);
	o->count += (size_t)(q - q0);
	return t;
}

/* Asks for node q and, if it has a group, where that starts. */
static inline void
ask_for(const struct flame *f, uint32_t q)
{
	__builtin_prefetch(&f->node[q]);
	if (w.word[q >> 6] >> (q & 63) & 1)
		__builtin_prefetch(&w.gstart[group_of(q)]);
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
	struct { uint32_t node, depth; } *stack;
	size_t sp = 0, salloc = 1024, nk;
	const uint32_t *kids;
	long prev_depth = -1;
	uint64_t prev_total = UINT64_MAX;
	char head[96];

	snprintf(head, sizeof(head), "<script type=\"text/x-flame-nodes\" "
	    "class=\"fg-nodes\" data-tree=\"%d\">", id);
	out_str(o, head);
	o->count = 0;
	stack = xrealloc(NULL, salloc * sizeof(*stack));
	stack[sp].node = root;
	stack[sp++].depth = 0;
	while (sp > 0) {
		uint32_t i = stack[--sp].node, depth = stack[sp].depth;

		/*
		 * Down the first children; the others wait on the stack.  The
		 * node on top is the next one after this run: it lies anywhere,
		 * so it is asked for while the run is written.
		 */
		if (sp > 0)
			ask_for(f, stack[sp - 1].node);
		for (;;) {
			if (o->count >= CHUNK_CHARS) {
				out_str(o, "</script>\n");
				out_str(o, head);
				o->count = 0;
			}
			prev_total = node_write(f, o, i, (int)(prev_depth + 1 -
			    (long)depth), prev_total);
			prev_depth = depth++;
			if (!(f->node[i].label & FT_GROUP)) {
				if (!first_kid(f, i))
					break;
				i++;
				continue;
			}
			kids = kids_of(f, i, &nk);
			XGROW(stack, sp + nk, salloc);
			while (--nk > 0) {
				stack[sp].node = kids[nk];
				stack[sp++].depth = depth;
			}
			if (sp > 0)
				ask_for(f, stack[sp - 1].node);
			i = kids[0];
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
	const uint32_t *kids;
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
	    (unsigned long long)total_of(f->root), nodes0);
	if (f->merged != CTREE_NONE)
		strbuf_addf(&sb, ",%zu", nodes1);
	strbuf_addstr(&sb, "],\"thread_list\":[");
	kids = kids_of(f, f->root, &nk);
	for (i = 0; i < nk; i++) {
		uint32_t k = kids[i], nm = flame_label(f, k);

		if (nm >= f->threads_alloc || !f->is_thread[nm])
			continue;
		strbuf_addstr(&sb, first ? "{\"name\":" : ",{\"name\":");
		ndw_quote(&sb, f->ct.names[nm].p, f->ct.names[nm].len,
		    NDW_HTML_SAFE);
		strbuf_addf(&sb, ",\"total\":%llu}",
		    (unsigned long long)total_of(k));
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
	uint32_t *order;
	size_t n0, n1 = 0;

	flame_drop_index(f);
	if (f->merged != CTREE_NONE)
		tree_sizes(f, &n0, &n1);
	else
		n0 = f->n;	/* one tree */
	name_count = xcalloc(f->ct.nnames ? f->ct.nnames : 1,
	    sizeof(*name_count));
	tree_prepare(f, name_count);
	free(f->heads);
	f->heads = NULL;
	f->nheads = f->heads_alloc = 0;
	w.rank = names_rank(f, &order);
	html_page_head(fp, &pg);
	fputs("<h1 id=\"fg-title\">", fp);
	html_text(fp, title, strlen(title));
	fputs("</h1>\n", fp);
	html_asset(fp, asset_flame_html, asset_flame_html_len);
	meta_write(f, fp, title, unit, n0, n1);
	names_write(f, fp, order);
	o.fp = fp;
	o.n = 0;
	tree_write(f, &o, f->root, 0);
	if (f->merged != CTREE_NONE)
		tree_write(f, &o, f->merged, 1);
	html_page_foot(fp, &pg);
	free(order);
}

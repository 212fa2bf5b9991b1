/* tree.c: interned names, the call-path tree and its output. */
#define _GNU_SOURCE		/* FNM_CASEFOLD */
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "ndw.h"
#include "xmem.h"
#include "stacks.h"

/* Makes a node's weights once the ctree has made the node. */
static uint32_t
node_new(struct tree *t, uint32_t n)
{
	XGROW(t->nodes, (size_t)n + 1, t->nodes_alloc);
	memset(&t->nodes[n], 0, sizeof(t->nodes[n]));
	t->nodes[n].first_child = t->nodes[n].last_child =
	    t->nodes[n].next_sibling = NODE_NONE;
	return n;
}

void
tree_init(struct tree *t, const char *const *excludes, size_t max_depth)
{
	memset(t, 0, sizeof(*t));
	ctree_init(&t->ct);
	hmap_init(&t->cats, 16);
	hmap_init(&t->threads, 16);
	t->excludes = excludes;
	t->max_depth = max_depth;
}

void
tree_release(struct tree *t)
{
	size_t i;

	for (i = 0; i < t->nthr; i++) {
		free(t->thr[i]->tname);
		free(t->thr[i]->run);
		free(t->thr[i]->stk);
		free(t->thr[i]->buf);
		free(t->thr[i]);
	}
	free(t->thr);
	ctree_release(&t->ct);
	hmap_release(&t->cats);
	hmap_release(&t->threads);
	strbuf_release(&t->cat_json);
	free(t->name_excl);
	free(t->cat_off);
	free(t->nodes);
}

static int
excluded(const struct tree *t, const char *s)
{
	const char *const *p;

	for (p = t->excludes; p != NULL && *p != NULL; p++)
		if (fnmatch(*p, s, FNM_CASEFOLD) == 0)
			return 1;
	return 0;
}

uint32_t
tree_name(struct tree *t, const char *s, size_t len)
{
	uint32_t id = ctree_name(&t->ct, s, len);

	if (id == t->nexcl) {	/* new: match it against --exclude once */
		XGROW(t->name_excl, t->nexcl + 1, t->excl_alloc);
		t->name_excl[t->nexcl++] = (unsigned char)excluded(t,
		    t->ct.names[id].p);
	}
	return id;
}

uint32_t
tree_name_json(struct tree *t, const char *s, size_t len)
{
	if (memchr(s, '\\', len) != NULL)
		return NODE_NONE;
	return tree_name(t, s, len);
}

int
tree_excluded(const struct tree *t, uint32_t name)
{
	return t->name_excl[name];
}

uint32_t
tree_cat(struct tree *t, const char *s, size_t len)
{
	void **slot;
	uint32_t id;
	int isnew;

	slot = hmap_put2(&t->cats, s, len, &isnew);
	if (!isnew)
		return (uint32_t)((uintptr_t)*slot - 1);
	id = (uint32_t)t->ncats++;
	*slot = (void *)(uintptr_t)(id + 1);
	XGROW(t->cat_off, t->ncats + 1, t->cats_alloc);
	t->cat_off[id] = t->cat_json.len;
	ndw_quote(&t->cat_json, s, len, 0);
	t->cat_off[id + 1] = t->cat_json.len;
	return id;
}

struct thread *
tree_thread(struct tree *t, const char *label, size_t len)
{
	struct thread *th;
	void **slot;
	int isnew;
	size_t i;

	slot = hmap_put2(&t->threads, label, len, &isnew);
	if (!isnew)
		return *slot;
	th = xcalloc(1, sizeof(*th));
	i = t->threads.n - 1;
	th->label = t->threads.ents[i].key;
	th->label_len = len;
	th->root = node_new(t, ctree_root(&t->ct, 0));
	th->buf_sorted = 1;
	XGROW(t->thr, t->nthr + 1, t->thr_alloc);
	t->thr[t->nthr++] = th;
	*slot = th;
	return th;
}

void
tree_thread_name(struct tree *t, struct thread *th, const char *s,
    size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	(void)t;
	if (th->tname != NULL)
		return;
	ndw_quote(&sb, s, len, 0);
	th->tname = strbuf_detach(&sb, &th->tname_len);
}

uint32_t
tree_child(struct tree *t, uint32_t parent, uint32_t name, int *isnew)
{
	struct node *p;
	uint32_t c;

	*isnew = 0;
	c = ctree_child(&t->ct, parent, name, isnew);
	if (!*isnew)
		return c;
	node_new(t, c);
	p = &t->nodes[parent];
	if (p->last_child == NODE_NONE)
		p->first_child = c;
	else
		t->nodes[p->last_child].next_sibling = c;
	p->last_child = c;
	return c;
}

int
tree_span(struct tree *t, struct thread *th, const struct bspan *s,
    int check_order)
{
	int64_t start = s->start, end = s->end, top_end;
	uint32_t parent = th->root, node = NODE_NONE;
	struct node *n;
	int isnew;

	if (check_order && th->have_last && (start < th->last_start ||
	    (start == th->last_start && end > th->last_end)))
		return -1;
	th->last_start = start;
	th->last_end = end;
	th->have_last = 1;
	while (th->depth > 0 && (th->flat ||
	    th->stk[th->depth - 1].end <= start))
		th->depth--;
	if (th->depth > 0) {
		top_end = th->stk[th->depth - 1].end;
		if (end > top_end) {
			t->st.clipped++;
			if (__builtin_add_overflow(t->st.clipped_ns,
			    end - top_end, &t->st.clipped_ns))
				t->st.clipped_ns = INT64_MAX;
			end = top_end;
		}
		parent = th->stk[th->depth - 1].node;
	}
	if (parent == NODE_NONE || th->depth >= t->max_depth)
		t->st.cut++;
	else {
		node = tree_child(t, parent, s->name, &isnew);
		n = &t->nodes[node];
		if (isnew)
			n->cat = s->cat;
		n->calls++;
		if (__builtin_add_overflow(n->total, end - start, &n->total) ||
		    __builtin_add_overflow(t->nodes[parent].child,
		    end - start, &t->nodes[parent].child))
			die("thread '%s': a total time passes 2^63 - 1 ns: it "
			    "cannot be written as a 64-bit integer", th->label);
	}
	XGROW(th->stk, th->depth + 1, th->stk_alloc);
	th->stk[th->depth].end = end;
	th->stk[th->depth].node = node;
	th->depth++;
	t->st.used++;
	return 0;
}

int
span_before(const struct bspan *x, const struct bspan *y)
{
	return x->start < y->start ||
	    (x->start == y->start && x->end > y->end);
}

void
tree_buffer(struct thread *th, const struct bspan *s)
{
	if (th->nbuf > 0 && span_before(s, &th->buf[th->nbuf - 1]))
		th->buf_sorted = 0;
	XGROW(th->buf, th->nbuf + 1, th->buf_alloc);
	th->buf[th->nbuf++] = *s;
}

static void
merge(const struct bspan *a, size_t na, const struct bspan *b, size_t nb,
    struct bspan *out)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb)
		*out++ = span_before(&b[j], &a[i]) ? b[j++] : a[i++];
	while (i < na)
		*out++ = a[i++];
	while (j < nb)
		*out++ = b[j++];
}

/* A stable insertion sort of a few spans. */
static void
insertion_sort(struct bspan *a, size_t n)
{
	struct bspan x;
	size_t j, k;

	for (j = 1; j < n; j++) {
		x = a[j];
		for (k = j; k > 0 && span_before(&x, &a[k - 1]); k--)
			a[k] = a[k - 1];
		a[k] = x;
	}
}

/* A stable bottom-up merge sort through tmp (room for n spans). */
static void
merge_sort(struct bspan *a, size_t n, struct bspan *tmp)
{
	struct bspan *src = a, *dst = tmp, *sw;
	size_t w, i, na, nb;

	for (i = 0; i < n; i += 16)		/* insertion-sorted runs */
		insertion_sort(a + i, n - i < 16 ? n - i : 16);
	for (w = 16; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			na = n - i < w ? n - i : w;
			nb = n - i - na < w ? n - i - na : w;
			merge(src + i, na, src + i + na, nb, dst + i);
		}
		sw = src;
		src = dst;
		dst = sw;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

/*
 * The radix sort of spans_sort: digits of RADIX_BITS bits of the start
 * less the least start, least significant first, each pass a stable
 * counting sort (a pass whose digit is the same for all is skipped);
 * then spans that start together, which stay in input order, are put
 * longest first.
 */
#define RADIX_BITS 12
#define RADIX (1u << RADIX_BITS)
#define RADIX_PASSES ((64 + RADIX_BITS - 1) / RADIX_BITS)

static void
radix_sort(struct bspan *a, size_t n, struct bspan *tmp)
{
	uint32_t (*cnt)[RADIX] = xcalloc(RADIX_PASSES, sizeof(*cnt));
	struct bspan *src = a, *dst = tmp, *sw;
	uint64_t min = (uint64_t)a[0].start ^ (1ULL << 63), max = min, k;
	uint32_t c, sum, *h;
	size_t i, j, p, np = 0;

	for (i = 1; i < n; i++) {	/* as unsigned: flip the sign bit */
		k = (uint64_t)a[i].start ^ (1ULL << 63);
		min = k < min ? k : min;
		max = k > max ? k : max;
	}
	for (k = max - min; k != 0; k >>= RADIX_BITS)
		np++;
	for (i = 0; i < n; i++) {
		k = ((uint64_t)a[i].start ^ (1ULL << 63)) - min;
		for (p = 0; p < np; p++, k >>= RADIX_BITS)
			cnt[p][k & (RADIX - 1)]++;
	}
	for (p = 0; p < np; p++) {
		h = cnt[p];
		for (j = 0, sum = 0; j < RADIX; j++) {
			if (h[j] == n)
				break;
			c = h[j];
			h[j] = sum;
			sum += c;
		}
		if (j < RADIX)		/* one digit for all: in order */
			continue;
		for (i = 0; i < n; i++) {
			k = ((uint64_t)src[i].start ^ (1ULL << 63)) - min;
			dst[h[(k >> (p * RADIX_BITS)) & (RADIX - 1)]++] =
			    src[i];
		}
		sw = src;
		src = dst;
		dst = sw;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
	free(cnt);
	for (i = 0; i < n; i = j) {	/* equal starts: longest first */
		for (j = i + 1; j < n && a[j].start == a[i].start; j++)
			;
		if (j - i <= 16)
			insertion_sort(a + i, j - i);
		else
			merge_sort(a + i, j - i, tmp);
	}
}

void
spans_sort_in(struct bspan *a, size_t n, struct bspan *tmp)
{
	if (n <= 16)
		insertion_sort(a, n);
	else if (n <= UINT32_MAX)
		radix_sort(a, n, tmp);
	else
		merge_sort(a, n, tmp);
}

void
spans_sort(struct bspan *a, size_t n)
{
	struct bspan *tmp;

	if (n <= 16) {
		insertion_sort(a, n);
		return;
	}
	tmp = xreallocarray(NULL, n, sizeof(*tmp));
	spans_sort_in(a, n, tmp);
	free(tmp);
}

void
tree_flush(struct tree *t)
{
	struct thread *th;
	size_t i, j;

	for (i = 0; i < t->nthr; i++) {
		th = t->thr[i];
		if (th->nbuf == 0)
			continue;
		if (!th->buf_sorted)
			spans_sort(th->buf, th->nbuf);
		for (j = 0; j < th->nbuf; j++)
			tree_span(t, th, &th->buf[j], 0);
		free(th->buf);
		th->buf = NULL;
		th->nbuf = th->buf_alloc = 0;
	}
}

/* Output: stack records through ndw, folded lines as text. */

struct out {
	FILE *fp;
	struct ndw w;		/* stack records */
	struct strbuf line;	/* a folded line */
};

/*
 * Appends a name as a folded frame: ';' becomes ':', line breaks and tabs
 * a space, and a space before trailing digits '_' (flamegraph.pl would
 * read "x 200" at the end of a line as a second count).
 */
static void
fold_name(struct strbuf *sb, const char *s, size_t len)
{
	size_t i, at = sb->len;
	char c;

	strbuf_grow(sb, len);
	for (i = 0; i < len; i++) {
		c = s[i];
		if (c == ';')
			c = ':';
		else if (c == '\n' || c == '\r' || c == '\t')
			c = ' ';
		sb->buf[sb->len++] = c;
	}
	sb->buf[sb->len] = '\0';
	for (i = sb->len; i > at && ((sb->buf[i - 1] >= '0' &&
	    sb->buf[i - 1] <= '9') || sb->buf[i - 1] == '.'); i--)
		;
	if (i > at + 1 && i < sb->len && sb->buf[i - 1] == ' ' &&
	    sb->buf[i] >= '0' && sb->buf[i] <= '9')
		sb->buf[i - 1] = '_';
}

/* Writes one path: prefix holds its frames, already separated. */
static void
write_node(struct tree *t, struct out *o, const struct thread *th,
    const struct strbuf *prefix, const struct node *n, int folded)
{
	struct ndw *w = &o->w;
	struct strbuf *b;
	int64_t self = n->total - n->child;

	if (folded) {
		if (self == 0)
			return;
		b = &o->line;
		strbuf_reset(b);
		strbuf_add(b, prefix->buf, prefix->len);
		strbuf_addch(b, ' ');
		ndw_fmt_i64(b, self);
		strbuf_addch(b, '\n');
		if (fwrite(b->buf, 1, b->len, o->fp) != b->len)
			die_errno("write error");
		t->st.stacks++;
		return;
	}
	ndw_begin(w);
	ndw_str(w, "thread", th->label, th->label_len);
	b = ndw_value(w, "stack");
	strbuf_addch(b, '[');
	strbuf_add(b, prefix->buf, prefix->len);
	strbuf_addch(b, ']');
	ndw_i64(w, "self_ns", self);
	ndw_i64(w, "total_ns", n->total);
	ndw_i64(w, "calls", (int64_t)n->calls);
	if (n->cat != 0)
		ndw_raw(w, "cat", t->cat_json.buf + t->cat_off[n->cat - 1],
		    t->cat_off[n->cat] - t->cat_off[n->cat - 1]);
	if (th->tname != NULL)
		ndw_raw(w, "thread_name", th->tname, th->tname_len);
	if (th->run != NULL)
		ndw_raw(w, "run", th->run, th->run_len);
	ndw_end(w);
	if (ndw_emit(w, o->fp) != 0)
		die_errno("write error");
	t->st.stacks++;
}

static void
add_frame(struct tree *t, struct strbuf *prefix, uint32_t name, int folded,
    int first)
{
	const struct ctree_name *nm = &t->ct.names[name];

	if (folded) {
		strbuf_addch(prefix, ';');
		fold_name(prefix, nm->p, nm->len);
		return;
	}
	if (!first)
		strbuf_addch(prefix, ',');
	ndw_quote(prefix, nm->p, nm->len, 0);
}

/* Depth first, without recursion: lens[d] is the prefix before depth d. */
static void
write_thread(struct tree *t, struct out *o, const struct thread *th,
    int folded)
{
	struct strbuf prefix = STRBUF_INIT;
	size_t *lens = NULL, lens_alloc = 0, d = 0;
	uint32_t n = t->nodes[th->root].first_child;
	const struct node *nd;

	if (folded)
		fold_name(&prefix, th->label, th->label_len);
	while (n != NODE_NONE) {
		XGROW(lens, d + 1, lens_alloc);
		lens[d] = prefix.len;
		nd = &t->nodes[n];
		add_frame(t, &prefix, ctree_label(&t->ct, n), folded, d == 0);
		if (nd->calls > 0 || nd->total != 0)
			write_node(t, o, th, &prefix, nd, folded);
		if (nd->first_child != NODE_NONE) {
			n = nd->first_child;
			d++;
			continue;
		}
		for (;;) {
			strbuf_setlen(&prefix, lens[d]);
			if (t->nodes[n].next_sibling != NODE_NONE) {
				n = t->nodes[n].next_sibling;
				break;
			}
			if (d == 0) {
				n = NODE_NONE;
				break;
			}
			n = ctree_parent(&t->ct, n);
			d--;
		}
	}
	free(lens);
	strbuf_release(&prefix);
}

void
tree_write(struct tree *t, FILE *fp, int folded)
{
	struct out o;
	size_t i;

	o.fp = fp;
	ndw_init(&o.w, NDW_BATCH | NDW_PLAIN_KEYS);
	strbuf_init(&o.line, 256);
	for (i = 0; i < t->nthr; i++)
		write_thread(t, &o, t->thr[i], folded);
	if (ndw_flush(&o.w, fp) != 0)
		die_errno("write error");
	ndw_release(&o.w);
	strbuf_release(&o.line);
}

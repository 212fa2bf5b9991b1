/*
 * rocpd.c: the rocpd long format (one row per counter per dispatch),
 * pivoted into one record per dispatch as rocprof-compute 3.3.0 does.
 *
 * A first pass collects the GPU ids (the pivot renumbers them by rank) and
 * where each profiler pass starts; the second gathers one dispatch at a
 * time from a reader per pass, so memory holds one dispatch, not the
 * file.  Each pass's reader skips the lines before its pass unparsed, so
 * every row is parsed twice in all, whatever the number of passes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hmap.h"
#include "ndw.h"
#include "pmc.h"
#include "xmem.h"

/* The columns the pivot uses. */
enum { C_GPU, C_DID, C_KN, C_GS, C_WG, C_LDS, C_TS, C_TE, C_CN, C_CV, NCOL };
static const char *const colname[NCOL] = {
	"GPU_ID", "Dispatch_ID", "Kernel_Name", "Grid_Size", "Workgroup_Size",
	"LDS_Per_Workgroup", "Start_Timestamp", "End_Timestamp",
	"Counter_Name", "Counter_Value"
};

/* One dispatch being gathered. */
struct grp {
	struct strbuf key;	/* the grouping cells, NUL-separated */
	struct strbuf first;	/* the first row's cells, NUL-terminated */
	size_t *foff;
	struct hmap ctr;	/* counter name -> index + 1 */
	struct strbuf vals;	/* counter values */
	size_t *voff, *vlen, nctr, actr;
	long double *dur;
	size_t ndur, adur;
	int all_int, bad, open;
	struct srcpos pos;
};

static double *gpus;		/* the distinct GPU ids, ascending */
static size_t ngpus;

static void
group_key(struct strbuf *sb, const struct csvr_row *row, const long *col)
{
	static const int part[] = { C_DID, C_KN, C_GS, C_WG, C_LDS };
	size_t i;

	strbuf_reset(sb);
	for (i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
		if (col[part[i]] >= 0)
			strbuf_add(sb, row->f[col[part[i]]],
			    row->len[col[part[i]]]);
		strbuf_addch(sb, '\0');
	}
}

static int
dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
add_gpu(const char *s)
{
	double v = strtod(s, NULL);
	size_t i;

	for (i = 0; i < ngpus; i++)
		if (gpus[i] == v)
			return;
	gpus = xreallocarray(gpus, ngpus + 1, sizeof(*gpus));
	gpus[ngpus++] = v;
}

/* A pass of the profile: a run of rows in ascending dispatch order. */
struct seg {
	struct csvr r;
	struct csvr_row row;
	unsigned long start, end;	/* its lines: [start, end), end 0: EOF */
	struct strbuf key;
	double id;
	int has;
};

/* Orders dispatch keys as the pivot does: Dispatch_ID, then the rest. */
static int
key_cmp(double ida, const struct strbuf *a, double idb,
    const struct strbuf *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c;

	if (ida != idb)
		return ida < idb ? -1 : 1;
	if ((c = memcmp(a->buf, b->buf, n)) != 0)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

static double
row_id(const struct csvr_row *row, const long *col)
{
	return col[C_DID] >= 0 ? strtod(row->f[col[C_DID]], NULL) : 0;
}

/*
 * The first pass: the GPU ids, and where each pass of the profiler starts
 * (the dispatch key goes down there).  Returns the number of passes.
 */
static size_t
first_pass(const char *path, const struct hdr *h, const long *col,
    unsigned long **startp)
{
	struct strbuf key = STRBUF_INIT, prev = STRBUF_INIT;
	unsigned long *start = NULL;
	size_t nseg = 0;
	struct csvr r;
	struct csvr_row row;
	double id, last = 0;
	int rc;

	if (csvr_open(&r, path) != 0)
		die_errno("cannot open '%s'", path);
	next_row(&r, &row);
	while ((rc = next_row(&r, &row)) != 0) {
		if (rc < 0 || row.n != h->n)
			continue;
		if (col[C_GPU] >= 0)
			add_gpu(row.f[col[C_GPU]]);
		group_key(&key, &row, col);
		id = row_id(&row, col);
		if (nseg == 0 || key_cmp(id, &key, last, &prev) < 0) {
			start = xreallocarray(start, nseg + 1, sizeof(*start));
			start[nseg++] = row.line;
		}
		last = id;
		strbuf_reset(&prev);
		strbuf_add(&prev, key.buf, key.len);
	}
	if (nseg == 0) {	/* no good row: one pass reports the bad ones */
		start = xreallocarray(start, 1, sizeof(*start));
		start[nseg++] = 0;
	}
	if (ngpus > 0)
		qsort(gpus, ngpus, sizeof(*gpus), dbl_cmp);
	csvr_close(&r);
	strbuf_release(&key);
	strbuf_release(&prev);
	*startp = start;
	return nseg;
}

/* Moves a pass to its next good row, reporting bad ones. */
static void
seg_next(struct pmc *pm, struct seg *s, const struct hdr *h, const long *col)
{
	int rc;

	while ((rc = next_row(&s->r, &s->row)) != 0) {
		if (s->r.pos.line < s->start)
			continue;
		if (s->end != 0 && s->r.pos.line >= s->end)
			break;
		if (row_ok(pm, &s->r, rc, &s->row, h->n, h->n)) {
			group_key(&s->key, &s->row, col);
			s->id = row_id(&s->row, col);
			s->has = 1;
			return;
		}
	}
	s->has = 0;
}

static void
grp_start(struct grp *g, const struct csvr_row *row, const long *col,
    const struct srcpos *pos)
{
	size_t i;

	group_key(&g->key, row, col);
	strbuf_reset(&g->first);
	g->foff = xreallocarray(g->foff, row->n + 1, sizeof(*g->foff));
	for (i = 0; i < row->n; i++) {
		g->foff[i] = g->first.len;
		strbuf_add(&g->first, row->f[i], row->len[i]);
		strbuf_addch(&g->first, '\0');
	}
	g->foff[row->n] = g->first.len;
	if (g->open)
		hmap_release(&g->ctr);
	hmap_init(&g->ctr, 256);
	strbuf_reset(&g->vals);
	g->nctr = g->ndur = 0;
	g->all_int = 1;
	g->bad = 0;
	g->open = 1;
	g->pos = *pos;
}

/* Adds a row's counter and pass duration to the dispatch. */
static void
grp_add(struct pmc *pm, struct grp *g, const struct csvr_row *row,
    const long *col, const struct srcpos *pos)
{
	const char *cv = row->f[col[C_CV]], *a, *b;
	size_t cvlen = row->len[col[C_CV]];
	uintptr_t idx;
	void **slot;

	if (cvlen > 0 && !is_number(cv, cvlen)) {
		bad(pm, pos, "column 'Counter_Value': '%.40s' is not a number",
		    cv);
		g->bad = 1;
		return;
	}
	slot = hmap_put(&g->ctr, row->f[col[C_CN]], row->len[col[C_CN]]);
	if (*slot == NULL) {
		if (g->nctr == g->actr) {
			g->actr = xgrow_room(g->actr, g->nctr + 1);
			g->voff = xreallocarray(g->voff, g->actr,
			    sizeof(size_t));
			g->vlen = xreallocarray(g->vlen, g->actr,
			    sizeof(size_t));
		}
		*slot = (void *)(uintptr_t)++g->nctr;
	}
	idx = (uintptr_t)*slot - 1;
	g->voff[idx] = g->vals.len;
	g->vlen[idx] = cvlen;
	strbuf_add(&g->vals, cv, cvlen);
	if (col[C_TS] < 0 || col[C_TE] < 0)
		return;
	a = row->f[col[C_TS]];
	b = row->f[col[C_TE]];
	XGROW(g->dur, g->ndur + 1, g->adur);
	if (!is_integer(a, strlen(a)) || !is_integer(b, strlen(b)))
		g->all_int = 0;
	/* Subtract in int64 first: the timestamps exceed 2^53. */
	g->dur[g->ndur++] = g->all_int ?
	    (long double)(strtoll(b, NULL, 10) - strtoll(a, NULL, 10)) :
	    (long double)(strtod(b, NULL) - strtod(a, NULL));
}

static int
ld_cmp(const void *a, const void *b)
{
	long double x = *(const long double *)a, y = *(const long double *)b;

	return x < y ? -1 : x > y;
}

/* The median pass duration: an integer when it is one. */
static void
put_median(struct strbuf *sb, struct grp *g)
{
	long double m;

	if (g->ndur == 0) {
		strbuf_add(sb, "null", 4);
		return;
	}
	if (g->ndur > 1)
		qsort(g->dur, g->ndur, sizeof(*g->dur), ld_cmp);
	m = g->ndur % 2 ? g->dur[g->ndur / 2] :
	    (g->dur[g->ndur / 2 - 1] + g->dur[g->ndur / 2]) / 2;
	if (g->all_int && m == (long double)(long long)m)
		strbuf_addf(sb, "%lld", (long long)m);
	else
		ndw_fmt_f64(sb, (double)m);
}

static size_t
gpu_rank(const char *s)
{
	double v = strtod(s, NULL);
	size_t i;

	for (i = 0; i < ngpus && gpus[i] < v; i++)
		;
	return i;
}

/* Writes the gathered dispatch as record number seq. */
static void
grp_emit(struct pmc *pm, struct grp *g, const struct hdr *h, const long *col,
    unsigned long seq, struct strbuf *rec)
{
	const char *cell;
	size_t i, len;

	strbuf_reset(rec);
	rec_begin(pm, rec, "dispatch");
	for (i = 0; i < h->n; i++) {
		if ((long)i == col[C_CN] || (long)i == col[C_CV] ||
		    !h->keep[i])
			continue;
		cell = g->first.buf + g->foff[i];
		len = g->foff[i + 1] - g->foff[i] - 1;
		strbuf_add(rec, h->key[i], h->keylen[i]);
		if ((long)i == col[C_DID])
			strbuf_addf(rec, "%lu", seq);
		else if ((long)i == col[C_GPU])
			strbuf_addf(rec, "%zu", gpu_rank(cell));
		else if ((long)i == col[C_TS])
			strbuf_addch(rec, '0');
		else if ((long)i == col[C_TE])
			put_median(rec, g);
		else if (put_cell(rec, cell, len,
		    h->text[i] ? CELL_TEXT : CELL_NUM) != 0) {
			bad(pm, &g->pos, "column '%s': '%.40s' is not a number",
			    h->name[i], cell);
			return;
		}
	}
	for (i = 0; i < g->ctr.n; i++) {
		if (!keep_column(pm, g->ctr.ents[i].key, g->ctr.ents[i].len))
			continue;
		strbuf_addch(rec, ',');
		ndw_quote(rec, g->ctr.ents[i].key, g->ctr.ents[i].len, 0);
		strbuf_addch(rec, ':');
		put_cell(rec, g->vals.buf + g->voff[i], g->vlen[i], CELL_NUM);
	}
	strbuf_addstr(rec, ",\"dur_ns\":");
	put_median(rec, g);
	for (i = 0; i < 2; i++) {
		long c = col[i == 0 ? C_DID : C_GPU];

		if (c < 0 || !h->keep[c])
			continue;
		strbuf_addstr(rec, i == 0 ? ",\"rocpd_Dispatch_ID\":" :
		    ",\"rocpd_GPU_ID\":");
		put_cell(rec, g->first.buf + g->foff[c],
		    g->foff[c + 1] - g->foff[c] - 1, CELL_NUM);
	}
	strbuf_addch(rec, '}');
	emit(pm, rec);
}

static void
grp_release(struct grp *g)
{
	strbuf_release(&g->key);
	strbuf_release(&g->first);
	strbuf_release(&g->vals);
	if (g->open)
		hmap_release(&g->ctr);
	free(g->foff);
	free(g->voff);
	free(g->vlen);
	free(g->dur);
}

/* Ends the dispatch being gathered: writes it unless it had a bad row. */
static void
grp_end(struct pmc *pm, struct grp *g, const struct hdr *h, const long *col,
    unsigned long *seq, struct strbuf *rec)
{
	if (!g->open || g->ctr.n + g->ndur == 0)
		return;
	if (!g->bad)
		grp_emit(pm, g, h, col, *seq, rec);
	++*seq;
}

/* Merges the passes, one dispatch at a time, in the pivot's order. */
static void
merge(struct pmc *pm, struct seg *seg, size_t nseg, const struct hdr *h,
    const long *col)
{
	struct grp g;
	struct strbuf rec = STRBUF_INIT;
	unsigned long seq = 0;
	size_t k, min;
	double id;

	memset(&g, 0, sizeof(g));
	strbuf_init(&g.key, 0);
	strbuf_init(&g.first, 0);
	strbuf_init(&g.vals, 0);
	for (;;) {
		for (k = 0, min = nseg; k < nseg; k++)
			if (seg[k].has && (min == nseg ||
			    key_cmp(seg[k].id, &seg[k].key, seg[min].id,
			    &seg[min].key) < 0))
				min = k;
		if (min == nseg)
			break;
		id = seg[min].id;
		grp_start(&g, &seg[min].row, col, &seg[min].r.pos);
		for (k = min; k < nseg; k++)
			while (seg[k].has && key_cmp(seg[k].id, &seg[k].key,
			    id, &g.key) == 0) {
				grp_add(pm, &g, &seg[k].row, col,
				    &seg[k].r.pos);
				seg_next(pm, &seg[k], h, col);
			}
		grp_end(pm, &g, h, col, &seq, &rec);
	}
	grp_release(&g);
	strbuf_release(&rec);
}

static int
rocpd_detect(const struct hdr *h)
{
	return hdr_find(h, "Counter_Name") >= 0 &&
	    hdr_find(h, "Counter_Value") >= 0;
}

/* The file is read once per pass, so in->path is opened again. */
static void
rocpd_stream(struct pmc *pm, struct csvr *r, struct hdr *h,
    const struct pmc_input *in)
{
	const char *path = in->path;
	struct seg *seg;
	unsigned long *start;
	size_t nseg, k;
	long col[NCOL];
	int i;

	for (i = 0; i < NCOL; i++)
		col[i] = hdr_find(h, colname[i]);
	ngpus = 0;
	nseg = first_pass(path, h, col, &start);
	seg = xcalloc(nseg + 1, sizeof(*seg));
	for (k = 0; k < nseg; k++) {
		if (csvr_open(&seg[k].r, path) != 0)
			die_errno("cannot open '%s'", path);
		seg[k].r.pos.file = r->pos.file;
		strbuf_init(&seg[k].key, 0);
		seg[k].start = k > 0 ? start[k] : 0;
		seg[k].end = k + 1 < nseg ? start[k + 1] : 0;
		next_row(&seg[k].r, &seg[k].row);
		/* The lines before the pass are not parsed again. */
		if (csvr_skip_to(&seg[k].r, seg[k].start) != 0)
			die("%s: %s", path, csvr_error(&seg[k].r));
		seg_next(pm, &seg[k], h, col);
	}
	merge(pm, seg, nseg, h, col);
	for (k = 0; k < nseg; k++) {
		csvr_close(&seg[k].r);
		strbuf_release(&seg[k].key);
	}
	free(seg);
	free(start);
	free(gpus);
	gpus = NULL;
}

const struct pmc_format format_rocpd = {
	.name = "rocpd",
	.in_dirs = 1,
	.detect = rocpd_detect,
	.stream = rocpd_stream,
};

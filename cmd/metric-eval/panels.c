/*
 * panels.c: the tables rocprof-compute fills from the data rather than
 * from metric expressions: 0.1 Top Kernels, 0.2 Dispatch List, 1.1 System
 * Info, and the roofline, 4.1 (a point per kernel) and 4.2 (the ceilings
 * of roofline.csv).  Written as metric records (docs/formats.md), with the
 * corrections of the parity notes (section 4) applied: the HBM formula
 * follows gpu_arch (B1), BF16's MFMA peak is MFMABF16Flops (B2), a peak
 * roofline.csv lacks is left out instead of failing (B3), integer types are
 * in GOP/s (B15), and LDS bytes and intensity are given too (B16).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "me.h"
#include "nd.h"
#include "ndw.h"
#include "xmem.h"

#define TOP_N 10		/* kernels on the roofline, as upstream */

/* The first sysinfo and roofline records, as read. */
static struct strbuf sysinfo_line = STRBUF_INIT;
static struct strbuf roofline_line = STRBUF_INIT;
static int have_sysinfo, have_roofline;

void
panels_sysinfo(const char *line, size_t len)
{
	if (have_sysinfo++)
		return;
	strbuf_add(&sysinfo_line, line, len);
}

/* The kernels' roofline sums of the rows that streamed by. */
static struct rpoint *streamed;
static size_t nstreamed;
static int prepared;		/* panels_prepare() was called */

void
panels_roofline(const char *line, size_t len)
{
	if (have_roofline++)
		return;
	strbuf_add(&roofline_line, line, len);
}

void
panels_reset(void)
{
	strbuf_release(&sysinfo_line);
	strbuf_release(&roofline_line);
	have_sysinfo = have_roofline = 0;
	free(streamed);
	streamed = NULL;
	nstreamed = prepared = 0;
}

/* ---- the counters the roofline reads ---- */

enum {
	/* F16, F32, F64 (x) ADD, MUL, FMA, TRANS */
	C_VALU = 0,
	/* F16, BF16, F32, F64, F8, F6F4 */
	C_MOPS = 12,
	C_LDS_ACTIVE = 18, C_LDS_CONFLICT, C_L1,
	C_L2 = 21,		/* 4 columns */
	C_HBM2 = 25,		/* MI200: RDREQ_32B, RDREQ, WRREQ_64B, WRREQ */
	C_HBM3 = 29,		/* BUBBLE, EA0 RDREQ_32B, RDREQ, WRREQ, WRREQ_64B */
	C_COUNT = ROOF_NCOLS
};

const char *const roof_cols[ROOF_NCOLS] = {
	"SQ_INSTS_VALU_ADD_F16", "SQ_INSTS_VALU_MUL_F16",
	"SQ_INSTS_VALU_FMA_F16", "SQ_INSTS_VALU_TRANS_F16",
	"SQ_INSTS_VALU_ADD_F32", "SQ_INSTS_VALU_MUL_F32",
	"SQ_INSTS_VALU_FMA_F32", "SQ_INSTS_VALU_TRANS_F32",
	"SQ_INSTS_VALU_ADD_F64", "SQ_INSTS_VALU_MUL_F64",
	"SQ_INSTS_VALU_FMA_F64", "SQ_INSTS_VALU_TRANS_F64",
	"SQ_INSTS_VALU_MFMA_MOPS_F16", "SQ_INSTS_VALU_MFMA_MOPS_BF16",
	"SQ_INSTS_VALU_MFMA_MOPS_F32", "SQ_INSTS_VALU_MFMA_MOPS_F64",
	"SQ_INSTS_VALU_MFMA_MOPS_F8", "SQ_INSTS_VALU_MFMA_MOPS_F6F4",
	"SQ_LDS_IDX_ACTIVE", "SQ_LDS_BANK_CONFLICT",
	"TCP_TOTAL_CACHE_ACCESSES_sum",
	"TCP_TCC_WRITE_REQ_sum", "TCP_TCC_ATOMIC_WITH_RET_REQ_sum",
	"TCP_TCC_ATOMIC_WITHOUT_RET_REQ_sum", "TCP_TCC_READ_REQ_sum",
	"TCC_EA_RDREQ_32B_sum", "TCC_EA_RDREQ_sum", "TCC_EA_WRREQ_64B_sum",
	"TCC_EA_WRREQ_sum",
	"TCC_BUBBLE_sum", "TCC_EA0_RDREQ_32B_sum", "TCC_EA0_RDREQ_sum",
	"TCC_EA0_WRREQ_sum", "TCC_EA0_WRREQ_64B_sum",
};

static long col[C_COUNT];
static long dur_col;	/* End_Timestamp - Start_Timestamp, or -1 */

void
panels_prepare(struct table *t)
{
	size_t i;

	for (i = 0; i < C_COUNT; i++)
		col[i] = table_column(t, "pmc_perf", roof_cols[i]);
	dur_col = table_dur_column(t, "pmc_perf");
	prepared = 1;
}

/* A dispatch's duration as pandas computes End - Start: exact in 64 bits
 * when both columns are integers. */
static double
duration(const struct table *t, size_t r)
{
	return dur_col >= 0 ? col_get(&t->cols[dur_col], r) : t->dur[r];
}

/* ---- writing ---- */

/* Writes the decimal digits of x at p; returns the byte after them. */
static char *
put_dec(char *p, size_t x)
{
	char d[24];
	size_t n = 0;

	do
		d[n++] = (char)('0' + x % 10);
	while ((x /= 10) != 0);
	while (n > 0)
		*p++ = d[--n];
	return p;
}

static void
head(const struct panels_out *o, int table_id, const char *panel,
    const char *table, size_t row, const char *metric, size_t mlen)
{
	char id[80], *p;
	size_t tl;

	/* "2.0" and "2.0.17" without snprintf(): the Dispatch List has a
	 * record per dispatch (table ids are not negative). */
	p = put_dec(id, (size_t)table_id / 100);
	*p++ = '.';
	p = put_dec(p, (size_t)table_id % 100);
	tl = (size_t)(p - id);
	*p++ = '.';
	p = put_dec(p, row);
	ndw_begin(o->w);
	ndw_i64(o->w, "panel_id", table_id / 100 * 100);
	ndw_strz(o->w, "panel", panel);
	ndw_str(o->w, "table_id", id, tl);
	ndw_strz(o->w, "table", table);
	ndw_str(o->w, "metric_id", id, (size_t)(p - id));
	ndw_str(o->w, "metric", metric, mlen);
}

/* The normalization and run keys. */
static void
norm(const struct panels_out *o)
{
	ndw_strz(o->w, "normalization", o->norm);
	if (o->run_len > 0)
		ndw_raw(o->w, "run", o->run, o->run_len);
}

static void
tail(const struct panels_out *o, int norm_last)
{
	if (norm_last)
		norm(o);
	ndw_end(o->w);
	if (ndw_emit(o->w, o->fp) != 0)
		die_errno("write error");
}

/* A number, null for NaN (a blank cell). */
static void
put_num(struct ndw *w, const char *key, double v)
{
	if (isnan(v))
		ndw_null(w, key);
	else
		ndw_f64(w, key, v);
}

/* Text that is a JSON number as that number, other text as a string. */
static void
put_text(struct ndw *w, const char *key, const char *s)
{
	char *end;

	if (s == NULL) {
		ndw_null(w, key);
		return;
	}
	(void)strtod(s, &end);
	if ((*s == '-' || (*s >= '0' && *s <= '9')) && *end == '\0' &&
	    strpbrk(s, "xXnNiI") == NULL)
		ndw_raw(w, key, s, strlen(s));
	else
		ndw_strz(w, key, s);
}

/* ---- 0.1 Top Kernels, 0.2 Dispatch List ---- */

struct kstat {
	size_t kernel, n;
	long double sum;
	double median;
};

static const struct table *sort_tab;

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sum descending, NaN last, then name (rocprof-compute's order). */
static int
cmp_kstat(const void *a, const void *b)
{
	const struct kstat *x = a, *y = b;

	if (isnan((double)x->sum) != isnan((double)y->sum))
		return isnan((double)x->sum) ? 1 : -1;
	if (x->sum != y->sum && !isnan((double)x->sum))
		return x->sum > y->sum ? -1 : 1;
	return strcmp(sort_tab->kernels[x->kernel],
	    sort_tab->kernels[y->kernel]);
}

/* The top statistics of the rows idx; returns the kernels, sorted. */
static struct kstat *
top_stats(const struct table *t, const size_t *idx, size_t n, size_t *nk)
{
	struct kstat *ks = xcalloc(t->nkernels + 1, sizeof(*ks));
	double *d = xcalloc(n + 1, sizeof(double));
	size_t i, j, k, m = 0;

	for (k = 0; k < t->nkernels; k++) {
		for (i = j = 0; i < n; i++)
			if (t->kernel[idx[i]] == k)
				d[j++] = duration(t, idx[i]);
		if (j == 0)
			continue;
		ks[m].kernel = k;
		ks[m].n = j;
		for (i = 0; i < j; i++)
			ks[m].sum += d[i];
		qsort(d, j, sizeof(double), cmp_double);
		ks[m].median = j % 2 ? d[j / 2] : (d[j / 2 - 1] + d[j / 2]) / 2;
		m++;
	}
	free(d);
	sort_tab = t;
	qsort(ks, m, sizeof(*ks), cmp_kstat);
	*nk = m;
	return ks;
}

static void
top_kernels(const struct panels_out *o, const struct table *t,
    const size_t *idx, size_t n)
{
	struct kstat *ks;
	long double total = 0;
	size_t nk, i;
	const char *name;

	ks = top_stats(t, idx, n, &nk);
	for (i = 0; i < nk; i++)
		total += ks[i].sum;
	for (i = 0; i < nk; i++) {
		if (!o->wanted(1, i))
			continue;
		name = t->kernels[ks[i].kernel];
		head(o, 1, "Top Stats", "Top Kernels", i, name, strlen(name));
		norm(o);
		ndw_u64(o->w, "Count", ks[i].n);
		put_num(o->w, "Sum(ns)", (double)ks[i].sum);
		put_num(o->w, "Mean(ns)", (double)(ks[i].sum / ks[i].n));
		put_num(o->w, "Median(ns)", ks[i].median);
		put_num(o->w, "Pct", total == 0 ? NAN :
		    (double)(ks[i].sum / total * 100));
		tail(o, 0);
	}
	free(ks);
}

static void
dispatch_list(const struct panels_out *o, const struct table *t,
    const size_t *idx, size_t n)
{
	const char *id, *name;
	char pos[32];
	size_t i;

	for (i = 0; i < n; i++) {
		if (!o->wanted(2, i))
			continue;
		/* The row key: the Dispatch_ID, else the position. */
		id = t->dispatch_id[idx[i]];
		if (id == NULL)
			*put_dec(pos, i) = '\0';
		head(o, 2, "Top Stats", "Dispatch List", i, id ? id : pos,
		    strlen(id ? id : pos));
		norm(o);
		put_text(o->w, "Dispatch_ID", id);
		name = t->kernel[idx[i]] < t->nkernels ?
		    t->kernels[t->kernel[idx[i]]] : NULL;
		if (name)
			ndw_strz(o->w, "Kernel_Name", name);
		else
			ndw_null(o->w, "Kernel_Name");
		put_text(o->w, "GPU_ID", t->gpu[idx[i]]);
		tail(o, 0);
	}
}

/* ---- 1.1 System Info ---- */

static void
system_info(const struct panels_out *o)
{
	struct nd_slice all = { sysinfo_line.buf, sysinfo_line.len }, k, v;
	struct strbuf key = STRBUF_INIT;
	struct nd_iter it;
	size_t row = 0;

	if (!have_sysinfo)
		return;
	nd_iter_init(&it, all);
	while (nd_iter_next(&it, &k, &v) == 1) {
		strbuf_reset(&key);
		nd_val_str(k, &key);
		if (strcmp(key.buf, "type") == 0 || strcmp(key.buf, "run") == 0)
			continue;
		if (o->wanted(101, row)) {
			head(o, 101, "System Info", "System Info", row,
			    key.buf, key.len);
			norm(o);
			ndw_raw(o->w, "Info", v.p, v.len);
			tail(o, 0);
		}
		row++;
	}
	strbuf_release(&key);
}

/* ---- the roofline ---- */

enum { ARCH_NONE, ARCH_MI200, ARCH_MI300, ARCH_MI350 };

static int
arch_of(const char *a)
{
	if (a == NULL)
		return ARCH_NONE;
	if (strcmp(a, "gfx90a") == 0)
		return ARCH_MI200;
	if (strcmp(a, "gfx940") == 0 || strcmp(a, "gfx941") == 0 ||
	    strcmp(a, "gfx942") == 0)
		return ARCH_MI300;
	if (strcmp(a, "gfx950") == 0)
		return ARCH_MI350;
	return ARCH_NONE;
}

/* The value of counter c in row r; NaN for an empty cell. *ok = 0 when
 * the column is absent. */
static double
ctr(const struct table *t, int c, size_t r, int *ok)
{
	if (col[c] < 0) {
		*ok = 0;
		return 0;
	}
	return col_get(&t->cols[col[c]], r);
}

/*
 * Per dispatch (parity notes 1.2): FLOPs (VALU F16/F32/F64 and MFMA
 * F16/BF16/F32/F64, F8 on MI300 and MI350, F6F4 on MI350) and bytes per
 * level.  A group with a column absent from the data adds nothing.
 */
struct rpoint {
	double flops, hbm, l2, l1, lds;
};

static double
row_flops(const struct table *t, size_t r, int arch)
{
	static const double w[4] = { 1, 1, 2, 1 };	/* ADD MUL FMA TRANS */
	double f = 0;
	int ok = 1, i;

	for (i = 0; i < 12; i++)
		f += 64 * w[i % 4] * ctr(t, C_VALU + i, r, &ok);
	for (i = 0; i < 4; i++)
		f += 512 * ctr(t, C_MOPS + i, r, &ok);
	if (!ok)
		return 0;
	if (arch == ARCH_MI300 || arch == ARCH_MI350) {
		double f8 = ctr(t, C_MOPS + 4, r, &ok);

		if (!ok)
			return f;
		f += 512 * f8;
		if (arch == ARCH_MI350) {
			double f6 = ctr(t, C_MOPS + 5, r, &ok);

			if (ok)
				f += 512 * f6;
		}
	}
	return f;
}

static double
row_hbm(const struct table *t, size_t r, int arch)
{
	double v;
	int ok = 1;

	if (arch == ARCH_MI200) {
		double rd32 = ctr(t, C_HBM2, r, &ok), rd = ctr(t, C_HBM2 + 1,
		    r, &ok), wr64 = ctr(t, C_HBM2 + 2, r, &ok), wr =
		    ctr(t, C_HBM2 + 3, r, &ok);

		v = 32 * rd32 + 64 * (rd - rd32) + 64 * wr64 + 32 * (wr - wr64);
	} else {
		double bub = ctr(t, C_HBM3, r, &ok), rd32 = ctr(t, C_HBM3 + 1,
		    r, &ok), rd = ctr(t, C_HBM3 + 2, r, &ok), wr =
		    ctr(t, C_HBM3 + 3, r, &ok), wr64 = ctr(t, C_HBM3 + 4, r,
		    &ok);

		v = 128 * bub + 32 * rd32 + 64 * (rd - bub - rd32) +
		    32 * (wr - wr64) + 64 * wr64;
	}
	return ok ? v : 0;
}

static void
row_point(const struct table *t, size_t r, int arch, double banks,
    struct rpoint *p)
{
	double a, b;
	int ok = 1, i;

	p->flops += row_flops(t, r, arch);
	p->hbm += row_hbm(t, r, arch);
	a = 0;
	for (i = 0; i < 4; i++)
		a += ctr(t, C_L2 + i, r, &ok);
	if (ok)
		p->l2 += 64 * a;
	ok = 1;
	a = ctr(t, C_L1, r, &ok);
	if (ok)
		p->l1 += 64 * a;
	ok = 1;
	a = ctr(t, C_LDS_ACTIVE, r, &ok);
	b = ctr(t, C_LDS_CONFLICT, r, &ok);
	if (ok)
		p->lds += (a - b) * 4 * banks;
}

struct rkernel {
	size_t kernel, n;
	double dur;		/* total */
	struct rpoint sum;
};

static int
cmp_rkernel(const void *a, const void *b)
{
	const struct rkernel *x = a, *y = b;

	if (isnan(x->dur) != isnan(y->dur))
		return isnan(x->dur) ? 1 : -1;
	if (x->dur != y->dur && !isnan(x->dur))
		return x->dur > y->dur ? -1 : 1;
	return strcmp(sort_tab->kernels[x->kernel],
	    sort_tab->kernels[y->kernel]);
}

/* Intensity as upstream defines it: 0 when there are no bytes. */
static double
ai(double flops, double bytes)
{
	return bytes != 0 ? flops / bytes : 0;
}

static void
roofline_point(const struct panels_out *o, const struct table *t,
    const struct rkernel *k, size_t rank)
{
	double n = (double)k->n, f = k->sum.flops / n, d = k->dur / n;
	const char *name = t->kernels[k->kernel];

	head(o, 401, "Roofline", "Roofline", rank, name, strlen(name));
	ndw_u64(o->w, "rank", rank);
	ndw_u64(o->w, "calls", k->n);
	put_num(o->w, "dur_ns", d);
	put_num(o->w, "FLOPs", f);
	put_num(o->w, "HBM bytes", k->sum.hbm / n);
	put_num(o->w, "L2 bytes", k->sum.l2 / n);
	put_num(o->w, "L1 bytes", k->sum.l1 / n);
	put_num(o->w, "LDS bytes", k->sum.lds / n);
	put_num(o->w, "AI HBM", ai(f, k->sum.hbm / n));
	put_num(o->w, "AI L2", ai(f, k->sum.l2 / n));
	put_num(o->w, "AI L1", ai(f, k->sum.l1 / n));
	put_num(o->w, "AI LDS", ai(f, k->sum.lds / n));
	put_num(o->w, "GFLOP/s", d != 0 ? f / d : 0);
	tail(o, 1);
}

void
panels_stream(const struct table *t, size_t n)
{
	const char *bs = table_sysinfo((struct table *)t, "lds_banks_per_cu");
	double banks = bs ? strtod(bs, NULL) : 32;
	int arch = arch_of(table_sysinfo((struct table *)t, "gpu_arch"));
	size_t i, k;

	if (!prepared)
		return;
	if (t->nkernels > nstreamed || !streamed) {
		streamed = xreallocarray(streamed, t->nkernels + 1,
		    sizeof(*streamed));
		memset(streamed + nstreamed, 0, (t->nkernels + 1 - nstreamed) *
		    sizeof(*streamed));
		nstreamed = t->nkernels;
	}
	for (i = 0; i < n; i++) {
		k = t->kernel[t->base + i];
		row_point(t, i, arch, banks, &streamed[k]);
	}
}

/* 4.1: the ten kernels of the largest total duration. */
static void
roofline_points(const struct panels_out *o, const struct table *t,
    const size_t *idx, size_t n, int arch)
{
	struct rkernel *ks = xcalloc(t->nkernels + 1, sizeof(*ks));
	const char *bs = table_sysinfo((struct table *)t, "lds_banks_per_cu");
	double banks = bs ? strtod(bs, NULL) : 32;
	size_t i, m = 0, k;

	for (k = 0; k < t->nkernels; k++) {
		ks[m].kernel = k;
		for (i = 0; i < n; i++)
			if (t->kernel[idx[i]] == k) {
				ks[m].n++;
				ks[m].dur += duration(t, idx[i]);
				if (!streamed)
					row_point(t, idx[i], arch, banks,
					    &ks[m].sum);
			}
		if (streamed && k < nstreamed)
			ks[m].sum = streamed[k];
		if (ks[m].n)
			m++;
	}
	sort_tab = t;
	qsort(ks, m, sizeof(*ks), cmp_rkernel);
	for (i = 0; i < m && i < TOP_N; i++)
		if (o->wanted(401, i))
			roofline_point(o, t, &ks[i], i);
	free(ks);
}

/* The value of key in the roofline record, or NULL. */
static int
roof_get(const char *key, struct nd_slice *v)
{
	const char *keys[1];

	keys[0] = key;
	if (nd_fields(roofline_line.buf, roofline_line.len, keys, v, 1) < 0 ||
	    v->p == NULL || nd_type(*v) != ND_NUMBER)
		return 0;
	return 1;
}

struct dtype {
	const char *name, *valu, *mfma;
	int arch;		/* the first arch that accepts it */
};

/* -R's data types, the roofline.csv keys of their peaks (B2: BF16's MFMA
 * peak is MFMABF16Flops), and the arches that accept them. */
static const struct dtype dtypes[] = {
	{ "FP4", NULL, "MFMAF4Flops", ARCH_MI350 },
	{ "FP6", NULL, "MFMAF6Flops", ARCH_MI350 },
	{ "FP8", "FP8Flops", "MFMAF8Flops", ARCH_MI300 },
	{ "FP16", "FP16Flops", "MFMAF16Flops", ARCH_MI200 },
	{ "BF16", "BF16Flops", "MFMABF16Flops", ARCH_MI200 },
	{ "FP32", "FP32Flops", "MFMAF32Flops", ARCH_MI200 },
	{ "FP64", "FP64Flops", "MFMAF64Flops", ARCH_MI200 },
	{ "I8", "I8Ops", "MFMAI8Ops", ARCH_MI200 },
	{ "I32", "I32Ops", NULL, ARCH_MI200 },
	{ "I64", "I64Ops", NULL, ARCH_MI200 },
};

static void
ceiling(const struct panels_out *o, size_t *row, const char *metric,
    const char *dt, struct nd_slice v, const char *unit)
{
	if (o->wanted(402, *row)) {
		head(o, 402, "Roofline", "Roofline ceilings", *row, metric,
		    strlen(metric));
		ndw_strz(o->w, "dtype", dt);
		ndw_raw(o->w, "Value", v.p, v.len);
		ndw_strz(o->w, "Unit", unit);
		tail(o, 1);
	}
	(*row)++;
}

/* 4.2: per data type with a peak in roofline.csv, the bandwidths (device
 * row 0) and the VALU and MFMA peaks it has. */
static void
roofline_ceilings(const struct panels_out *o, int arch)
{
	static const char *const lv[4][2] = { { "HBM", "HBMBw" },
	    { "L2", "L2Bw" }, { "L1", "L1Bw" }, { "LDS", "LDSBw" } };
	const struct dtype *d;
	struct nd_slice v, pv, pm;
	char name[64];
	const char *unit;
	size_t row = 0, i;
	int hv, hm;

	for (d = dtypes; d < dtypes + sizeof(dtypes) / sizeof(*dtypes); d++) {
		if (arch < d->arch)
			continue;
		hv = d->valu && roof_get(d->valu, &pv);
		hm = d->mfma && roof_get(d->mfma, &pm);
		if (!hv && !hm)
			continue;
		for (i = 0; i < 4; i++)
			if (roof_get(lv[i][1], &v))
				ceiling(o, &row, lv[i][0], d->name, v, "GB/s");
		unit = d->name[0] == 'I' ? "GOP/s" : "GFLOP/s";
		snprintf(name, sizeof(name), "VALU %s", d->name);
		if (hv)
			ceiling(o, &row, name, d->name, pv, unit);
		snprintf(name, sizeof(name), "MFMA %s", d->name);
		if (hm)
			ceiling(o, &row, name, d->name, pm, unit);
	}
}

static int
roofline_any_wanted(const struct panels_out *o)
{
	size_t i;

	for (i = 0; i < TOP_N * 8; i++)
		if (o->wanted(401, i) || o->wanted(402, i))
			return 1;
	return 0;
}

/* "run X: " before a message about a labelled run, else "". */
static const char *
run_prefix(const struct panels_out *o, char *buf, size_t size)
{
	if (o->run_len == 0)
		return "";
	snprintf(buf, size, "run %.*s: ", (int)o->run_len, o->run);
	return buf;
}

static void
roofline(const struct panels_out *o, struct table *t, const size_t *idx,
    size_t n)
{
	const char *a = table_sysinfo(t, "gpu_arch");
	char pre[256];
	int arch = arch_of(a);

	if (!roofline_any_wanted(o))
		return;
	/* Data of no rocprof-compute arch (a test config): nothing to say. */
	if (arch == ARCH_NONE && !have_roofline &&
	    (a == NULL || strcmp(a, "gfx908") != 0))
		return;
	if (arch == ARCH_NONE) {
		warn("%sno roofline: rocprof-compute has none for "
		    "gpu_arch '%s'", run_prefix(o, pre, sizeof(pre)),
		    a ? a : "(none)");
		return;
	}
	if (!have_roofline) {
		warn("%sno roofline: the data has no roofline record "
		    "(the workload has no roofline.csv)",
		    run_prefix(o, pre, sizeof(pre)));
		return;
	}
	roofline_points(o, t, idx, n, arch);
	roofline_ceilings(o, arch);
}

void
panels_write(const struct panels_out *o, struct table *t, const size_t *idx,
    size_t n, int which)
{
	if (which == PANELS_FIRST) {
		top_kernels(o, t, idx, n);
		dispatch_list(o, t, idx, n);
		system_info(o);
	} else {
		roofline(o, t, idx, n);
	}
}

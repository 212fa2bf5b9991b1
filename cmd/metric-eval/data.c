/*
 * data.c: the dispatch table: sysinfo values, and for every dispatch
 * record the counters some metric needs, one column of doubles each.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "me.h"
#include "nd.h"

void
table_init(struct table *t)
{
	memset(t, 0, sizeof(*t));
	arena_init(&t->mem, 1 << 16);
	hmap_init(&t->kernel_ids, 64);
	hmap_init(&t->sysinfo, 64);
}

void
table_release(struct table *t)
{
	size_t i;

	for (i = 0; i < t->nblocks; i++) {
		hmap_release(&t->blocks[i].keys);
		hmap_release(&t->blocks[i].cols);
	}
	for (i = 0; i < t->ncols; i++)
		free(t->cols[i].v);
	free(t->blocks);
	free(t->cols);
	free(t->kernel);
	free(t->gpu);
	free(t->dispatch_id);
	free(t->dur);
	free(t->label);
	free(t->kernels);
	hmap_release(&t->kernel_ids);
	hmap_release(&t->sysinfo);
	arena_release(&t->mem);
}

struct block *
table_block(struct table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nblocks; i++)
		if (strcmp(t->blocks[i].name, name) == 0)
			return &t->blocks[i];
	return NULL;
}

static struct block *
add_block(struct table *t, const char *name, size_t len)
{
	struct block *b;

	t->blocks = realloc(t->blocks, (t->nblocks + 1) * sizeof(*t->blocks));
	if (!t->blocks)
		die("out of memory");
	b = &t->blocks[t->nblocks++];
	b->name = arena_strndup(&t->mem, name, len);
	hmap_init(&b->keys, 64);
	hmap_init(&b->cols, 64);
	return b;
}

long
table_column(struct table *t, const char *block, const char *name)
{
	struct block *b = table_block(t, block);
	size_t len = strlen(name);
	void **slot;
	struct column *c;

	if (!b || !hmap_get(&b->keys, name, len))
		return -1;
	slot = hmap_put(&b->cols, name, len);
	if (*slot)
		return (long)(intptr_t)*slot - 1;
	if (t->ncols == t->cols_alloc) {
		t->cols_alloc = t->cols_alloc ? 2 * t->cols_alloc : 64;
		t->cols = realloc(t->cols, t->cols_alloc * sizeof(*t->cols));
		if (!t->cols)
			die("out of memory");
	}
	c = &t->cols[t->ncols];
	c->block = b->name;
	c->name = arena_strndup(&t->mem, name, len);
	c->v = NULL;
	*slot = (void *)(intptr_t)(t->ncols + 1);
	return (long)t->ncols++;
}

const char *
table_sysinfo(struct table *t, const char *key)
{
	void **slot = hmap_get(&t->sysinfo, key, strlen(key));

	return slot ? *slot : NULL;
}

/* A key's text: the raw quoted slice without quotes, decoded if needed. */
static const char *
key_text(struct nd_slice k, struct strbuf *tmp, size_t *len)
{
	if (!memchr(k.p, '\\', k.len)) {
		*len = k.len - 2;
		return k.p + 1;
	}
	strbuf_reset(tmp);
	nd_val_str(k, tmp);
	*len = tmp->len;
	return tmp->buf;
}

/* Stores a value's text (numbers as written, strings decoded). */
static const char *
value_text(struct table *t, struct nd_slice v, struct strbuf *tmp)
{
	switch (nd_type(v)) {
	case ND_STRING:
		strbuf_reset(tmp);
		nd_val_str(v, tmp);
		if (tmp->len == 0)
			return NULL;
		return arena_strndup(&t->mem, tmp->buf, tmp->len);
	case ND_NULL:
		return NULL;
	default:
		return arena_strndup(&t->mem, v.p, v.len);
	}
}

/*
 * The legacy Omniperf 1.x sysinfo schema (gpu_soc, numCU, ...) under the
 * 3.x names, with the fields it lacks filled in as the adapted reference
 * file does (num_xcd 1, lds_banks_per_cu 32, num_hbm_channels 32).
 */
static void
legacy_sysinfo(struct table *t)
{
	static const char *const map[][2] = {
		{ "gpu_soc", "gpu_arch" }, { "numSE", "se_per_gpu" },
		{ "numCU", "cu_per_gpu" }, { "numSIMD", "simd_per_cu" },
		{ "waveSize", "wave_size" },
		{ "maxWavesPerCU", "max_waves_per_cu" },
		{ "sclk", "max_sclk" }, { "mclk", "max_mclk" },
		{ "L2Banks", "total_l2_chan" }, { "numSQC", "sqc_per_gpu" },
		{ "numPipes", "pipes_per_gpu" }, { "hbmBW", "hbm_bw" },
		{ "num_xcd", NULL }, { "lds_banks_per_cu", NULL },
		{ "num_hbm_channels", NULL },
	};
	static const char *const fill[] = { "1", "32", "32" };
	size_t i, nf = 0;
	void **from, **to, *fv;
	int isnew;

	if (table_sysinfo(t, "gpu_arch") || !table_sysinfo(t, "gpu_soc"))
		return;
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (!map[i][1]) {
			to = hmap_put2(&t->sysinfo, map[i][0],
			    strlen(map[i][0]), &isnew);
			if (isnew || !*to)
				*to = (void *)fill[nf];
			nf++;
			continue;
		}
		from = hmap_get(&t->sysinfo, map[i][0], strlen(map[i][0]));
		fv = from ? *from : NULL;
		to = hmap_put(&t->sysinfo, map[i][1], strlen(map[i][1]));
		if (fv && !*to)
			*to = fv;
	}
	warn("legacy sysinfo: read under the 3.x names, with num_xcd 1, "
	    "lds_banks_per_cu 32 and num_hbm_channels 32");
}

void
table_sysinfo_record(struct table *t, const char *line, size_t len)
{
	struct nd_slice all = { line, len }, k, v;
	struct strbuf tmp = STRBUF_INIT;
	struct nd_iter it;
	const char *key;
	size_t kl;
	int isnew;
	void **slot;

	if (t->have_sysinfo)
		return;
	t->have_sysinfo = 1;
	nd_iter_init(&it, all);
	while (nd_iter_next(&it, &k, &v) == 1) {
		key = key_text(k, &tmp, &kl);
		slot = hmap_put2(&t->sysinfo, key, kl, &isnew);
		if (isnew)
			*slot = (void *)value_text(t, v, &tmp);
	}
	strbuf_release(&tmp);
	legacy_sysinfo(t);
}

void
table_schema(struct table *t, const char *line, size_t len)
{
	struct nd_slice all = { line, len }, k, v, k2, v2;
	struct strbuf tmp = STRBUF_INIT;
	struct nd_iter it, it2;
	struct block *pmc, *b;
	const char *key;
	size_t kl;
	int accum = 0;

	t->have_schema = 1;
	pmc = add_block(t, "pmc_perf", 8);
	nd_iter_init(&it, all);
	while (nd_iter_next(&it, &k, &v) == 1) {
		key = key_text(k, &tmp, &kl);
		if (nd_type(v) == ND_OBJECT) {
			b = add_block(t, key, kl);
			nd_iter_init(&it2, v);
			while (nd_iter_next(&it2, &k2, &v2) == 1) {
				key = key_text(k2, &tmp, &kl);
				hmap_put(&b->keys, key, kl);
			}
			continue;
		}
		/* add_block may move the blocks: look pmc_perf up again */
		pmc = &t->blocks[0];
		hmap_put(&pmc->keys, key, kl);
		if (kl > 6 && memcmp(key + kl - 6, "_ACCUM", 6) == 0)
			accum = 1;
	}
	t->rocpd = t->nblocks == 1 && (accum ||
	    hmap_get(&t->blocks[0].keys, "rocpd_Dispatch_ID", 17));
	strbuf_release(&tmp);
}

static double
number(struct nd_slice v)
{
	double d;

	switch (nd_type(v)) {
	case ND_NUMBER:
		return nd_val_f64(v, &d) == 0 ? d : NAN;
	case ND_STRING:
		if (nd_str_eq(v, "inf", 3))
			return INFINITY;
		if (nd_str_eq(v, "-inf", 4))
			return -INFINITY;
		return NAN;
	default:
		return NAN;
	}
}

static void
grow_rows(struct table *t)
{
	size_t n = t->rows_alloc ? 2 * t->rows_alloc : 256, i;

#define GROW(p) do { \
		void *q = realloc((p), n * sizeof(*(p))); \
		if (!q) \
			die("out of memory"); \
		(p) = q; \
	} while (0)
	for (i = 0; i < t->ncols; i++)
		GROW(t->cols[i].v);
	GROW(t->kernel);
	GROW(t->gpu);
	GROW(t->dispatch_id);
	GROW(t->dur);
	GROW(t->label);
#undef GROW
	t->rows_alloc = n;
}

static uint32_t
kernel_id(struct table *t, const char *name, size_t len)
{
	int isnew;
	void **slot = hmap_put2(&t->kernel_ids, name, len, &isnew);

	if (isnew) {
		t->kernels = realloc(t->kernels,
		    (t->nkernels + 1) * sizeof(*t->kernels));
		if (!t->kernels)
			die("out of memory");
		t->kernels[t->nkernels] = arena_strndup(&t->mem, name, len);
		*slot = (void *)(intptr_t)(++t->nkernels);
	}
	return (uint32_t)((intptr_t)*slot - 1);
}

/* Stores the values of one block's object (or the top level). */
static void
store_block(struct table *t, struct hmap *cols, struct nd_slice obj,
    struct strbuf *tmp, size_t row, int top, double *start, double *end,
    double *dur)
{
	struct nd_slice k, v;
	struct nd_iter it;
	const char *key;
	size_t kl, bi;
	void **slot;

	nd_iter_init(&it, obj);
	while (nd_iter_next(&it, &k, &v) == 1) {
		key = key_text(k, tmp, &kl);
		if (top && nd_type(v) == ND_OBJECT) {
			for (bi = 1; bi < t->nblocks; bi++)
				if (strlen(t->blocks[bi].name) == kl &&
				    memcmp(t->blocks[bi].name, key, kl) == 0)
					store_block(t, &t->blocks[bi].cols, v,
					    tmp, row, 0, NULL, NULL, NULL);
			continue;
		}
		if ((slot = hmap_get(cols, key, kl)) != NULL)
			t->cols[(intptr_t)*slot - 1].v[row] = number(v);
		if (!top)
			continue;
		if (kl == 11 && memcmp(key, "Kernel_Name", 11) == 0) {
			strbuf_reset(tmp);
			if (nd_val_str(v, tmp) != 0)
				strbuf_add(tmp, v.p, v.len);
			t->kernel[row] = kernel_id(t, tmp->buf, tmp->len);
		} else if (kl == 6 && memcmp(key, "GPU_ID", 6) == 0) {
			t->gpu[row] = value_text(t, v, tmp);
		} else if (kl == 11 && memcmp(key, "Dispatch_ID", 11) == 0) {
			t->dispatch_id[row] = value_text(t, v, tmp);
		} else if (kl == 6 && memcmp(key, "dur_ns", 6) == 0) {
			*dur = number(v);
		} else if (kl == 15 && memcmp(key, "Start_Timestamp", 15) == 0) {
			*start = number(v);
		} else if (kl == 13 && memcmp(key, "End_Timestamp", 13) == 0) {
			*end = number(v);
		}
	}
}

void
table_add_row(struct table *t, const char *line, size_t len, size_t label)
{
	struct nd_slice all = { line, len };
	static struct strbuf tmp = STRBUF_INIT;
	size_t row = t->nrows, i;
	double start = NAN, end = NAN, dur = NAN;

	if (row == t->rows_alloc)
		grow_rows(t);
	for (i = 0; i < t->ncols; i++)
		t->cols[i].v[row] = NAN;
	t->kernel[row] = UINT32_MAX;
	t->gpu[row] = NULL;
	t->dispatch_id[row] = NULL;
	store_block(t, &t->blocks[0].cols, all, &tmp, row, 1, &start, &end,
	    &dur);
	if (t->kernel[row] == UINT32_MAX)
		t->kernel[row] = kernel_id(t, "", 0);
	t->dur[row] = isnan(dur) ? end - start : dur;
	t->label[row] = label;
	t->nrows++;
}

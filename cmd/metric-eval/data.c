/*
 * data.c: the dispatch table: sysinfo values, and for every dispatch
 * record the counters some metric needs, one column of doubles each.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bytes.h"
#include "err.h"
#include "me.h"
#include "nd.h"
#include "xmem.h"

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
		size_t j;

		for (j = 0; j < t->blocks[i].npos; j++)
			free(t->blocks[i].pos[j].raw);
		free(t->blocks[i].pos);
		hmap_release(&t->blocks[i].keys);
		hmap_release(&t->blocks[i].cols);
	}
	for (i = 0; i < t->ncols; i++)
	{
		free(t->cols[i].v);
		free(t->cols[i].f);
	}
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

long
table_pmc_col(struct table *t, const char *name)
{
	struct block *b = table_block(t, "pmc_perf");
	void **slot = b ? hmap_get(&b->cols, name, strlen(name)) : NULL;

	return slot ? (long)(intptr_t)*slot - 1 : -1;
}

static struct block *
add_block(struct table *t, const char *name, size_t len)
{
	struct block *b;

	t->blocks = xrealloc(t->blocks, (t->nblocks + 1) * sizeof(*t->blocks));
	b = &t->blocks[t->nblocks++];
	b->name = arena_strndup(&t->mem, name, len);
	b->pos = NULL;
	b->npos = b->pos_alloc = 0;
	b->dur_col = b->ddur_col = -1;
	b->dur_mixed = 0;
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
	XGROW(t->cols, t->ncols + 1, t->cols_alloc);
	c = &t->cols[t->ncols];
	c->block = b->name;
	c->name = arena_strndup(&t->mem, name, len);
	c->v = NULL;
	c->f = NULL;
	c->wide = 0;
	*slot = (void *)(intptr_t)(t->ncols + 1);
	return (long)t->ncols++;
}

/* Stores x at row, widening the column to doubles when x is not exactly
 * a float (rows before row are converted; later ones are not yet set). */
static inline void
col_set(struct table *t, struct column *c, size_t row, double x)
{
	float y = (float)x;
	size_t i;

	if (c->wide) {
		c->v[row] = x;
		return;
	}
	if ((double)y == x || isnan(x)) {
		c->f[row] = y;
		return;
	}
	c->v = xmalloc((t->rows_alloc ? t->rows_alloc : 1) * sizeof(double));
	for (i = 0; i < row; i++)
		c->v[i] = c->f[i];
	free(c->f);
	c->f = NULL;
	c->wide = 1;
	c->v[row] = x;
}

long
table_dur_column(struct table *t, const char *block)
{
	struct block *b = table_block(t, block);
	static const char name[] = "End_Timestamp - Start_Timestamp";
	static const char dname[] = "End_Timestamp - Start_Timestamp (double)";

	if (!b || !hmap_get(&b->keys, "Start_Timestamp", 15) ||
	    !hmap_get(&b->keys, "End_Timestamp", 13))
		return -1;
	if (b->dur_col < 0) {
		/* Keys no record has: no position maps to them. */
		hmap_put(&b->keys, name, sizeof(name) - 1);
		b->dur_col = table_column(t, block, name);
		hmap_put(&b->keys, dname, sizeof(dname) - 1);
		b->ddur_col = table_column(t, block, dname);
		b = table_block(t, block);
	}
	return b->dur_col;
}

void
table_finish(struct table *t)
{
	size_t i, j;

	for (i = 0; i < t->nblocks; i++)
		if (t->blocks[i].dur_col >= 0 && t->blocks[i].dur_mixed)
			for (j = 0; j < t->nrows; j++)
				col_set(t, &t->cols[t->blocks[i].dur_col], j,
				    col_get(&t->cols[t->blocks[i].ddur_col],
				    j));
}

const char *
table_sysinfo(struct table *t, const char *key)
{
	void **slot = hmap_get(&t->sysinfo, key, strlen(key));

	return slot ? *slot : NULL;
}

double
table_sysinfo_num(struct table *t, const char *key, int is_int)
{
	const char *s = table_sysinfo(t, key);
	char *end;
	double v;
	int i;

	if (s == NULL)
		return NAN;
	v = strtod(s, &end);
	if (end != s && *end == '\0')
		return is_int && isfinite(v) ? trunc(v) : v;
	for (i = 0; i < t->nbad_sysinfo; i++)
		if (strcmp(t->bad_sysinfo[i], key) == 0)
			return NAN;
	if (t->nbad_sysinfo < 16)
		t->bad_sysinfo[t->nbad_sysinfo++] = key;
	warn("sysinfo '%s' is not a number: '%s'", key, s);
	return NAN;
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

/* A block named key whose columns are the members of obj. */
static void
schema_block(struct table *t, const char *key, size_t kl,
    struct nd_slice obj, struct strbuf *tmp)
{
	struct block *b;
	struct nd_slice k, v;
	struct nd_iter it;
	char *name = arena_strndup(&t->mem, key, kl);

	if (table_block(t, name))
		return;
	b = add_block(t, name, kl);
	nd_iter_init(&it, obj);
	while (nd_iter_next(&it, &k, &v) == 1) {
		key = key_text(k, tmp, &kl);
		hmap_put(&b->keys, key, kl);
	}
}

void
table_schema(struct table *t, const char *line, size_t len)
{
	struct nd_slice all = { line, len }, k, v, k3, v3;
	struct strbuf tmp = STRBUF_INIT;
	struct nd_iter it, it3;
	struct block *pmc;
	const char *key;
	size_t kl;
	int accum = 0;

	t->have_schema = 1;
	pmc = add_block(t, "pmc_perf", 8);
	nd_iter_init(&it, all);
	while (nd_iter_next(&it, &k, &v) == 1) {
		key = key_text(k, &tmp, &kl);
		if (nd_type(v) == ND_OBJECT && kl == 6 &&
		    memcmp(key, "blocks", 6) == 0) {
			/* The accumulate files' rows: one object per block. */
			nd_iter_init(&it3, v);
			while (nd_iter_next(&it3, &k3, &v3) == 1)
				if (nd_type(v3) == ND_OBJECT) {
					key = key_text(k3, &tmp, &kl);
					schema_block(t, key, kl, v3, &tmp);
				}
			continue;
		}
		if (nd_type(v) == ND_OBJECT) {
			schema_block(t, key, kl, v, &tmp);
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
	size_t n = xgrow_room(t->rows_alloc, t->nrows + 1), i;

#define GROW(p) ((p) = xreallocarray((p), n, sizeof(*(p))))
	for (i = 0; t->chunk == 0 && i < t->ncols; i++)
		if (t->cols[i].wide)
			GROW(t->cols[i].v);
		else
			GROW(t->cols[i].f);
	GROW(t->kernel);
	GROW(t->gpu);
	GROW(t->dispatch_id);
	GROW(t->dur);
	GROW(t->label);
#undef GROW
	t->rows_alloc = n;
}

/* Makes room for row and blanks its counters, GPU and dispatch id. */
static void
row_blank(struct table *t, size_t row)
{
	size_t i;

	if (row == t->rows_alloc)
		grow_rows(t);
	if (t->chunk)		/* streaming: every column is doubles */
		for (i = 0; i < t->ncols; i++)
			t->cols[i].v[row - t->base] = NAN;
	else
		for (i = 0; i < t->ncols; i++)
			if (t->cols[i].wide)
				t->cols[i].v[row - t->base] = NAN;
			else
				t->cols[i].f[row - t->base] = NAN;
	t->gpu[row] = NULL;
	t->dispatch_id[row] = NULL;
}

static uint32_t
kernel_id(struct table *t, const char *name, size_t len)
{
	int isnew;
	void **slot = hmap_put2(&t->kernel_ids, name, len, &isnew);

	if (isnew) {
		t->kernels = xrealloc(t->kernels,
		    (t->nkernels + 1) * sizeof(*t->kernels));
		t->kernels[t->nkernels] = arena_strndup(&t->mem, name, len);
		*slot = (void *)(intptr_t)(++t->nkernels);
	}
	return (uint32_t)((intptr_t)*slot - 1);
}

/* Fast scanning of a line nd_fields() has validated. */
static const char *
fskip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* p is at '"'; returns the byte after the closing quote. */
static const char *
fskip_str(const char *p, const char *end)
{
	const char *q, *b;

	for (p++; p < end; p = q + 1) {
		q = memchr(p, '"', (size_t)(end - p));
		if (!q)
			return end;
		for (b = q; b > p && b[-1] == '\\'; b--)
			;
		if (((q - b) & 1) == 0)
			return q + 1;
	}
	return end;
}

static const char *
fskip_val(const char *p, const char *end)
{
	int depth = 0;

	if (*p != '"' && *p != '{' && *p != '[') {
		while (p < end && *p != ',' && *p != '}' && *p != ']' &&
		    *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			p++;
		return p;
	}
	while (p < end) {
		switch (*p) {
		case '"':
			p = fskip_str(p, end);
			if (depth == 0)
				return p;
			continue;
		case '{': case '[':
			depth++;
			break;
		case '}': case ']':
			if (--depth == 0)
				return p + 1;
			break;
		}
		p++;
	}
	return p;
}

static const double pow10_exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/*
 * The JSON number at p (validated) in *out; returns the byte after it.
 * Counters are plain decimals ("65536.0"): when the digits without the
 * point make an integer m of at most 2^53 and f digits follow the point
 * (f <= 22), m and 10^f are exact doubles and m / 10^f is the correctly
 * rounded value, the one strtod() gives.  Anything else goes to strtod().
 */
static const char *
fast_number(const char *p, const char *end, double *out)
{
	const char *s = p;
	uint64_t m = 0;
	int nd = 0, fd = 0;
	double d;

	if (*p == '-')
		p++;
	for (; p < end && *p >= '0' && *p <= '9'; p++, nd++)
		m = m * 10 + (uint64_t)(*p - '0');
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++, nd++, fd++)
			m = m * 10 + (uint64_t)(*p - '0');
	if (nd > 19 || fd > 22 || m > (UINT64_C(1) << 53) ||
	    (p < end && (*p == 'e' || *p == 'E'))) {
		struct nd_slice v = { s, 0 };

		p = fskip_val(s, end);
		v.len = (size_t)(p - s);
		*out = nd_val_f64(v, &d) == 0 ? d : NAN;
		return p;
	}
	d = (double)m;
	if (fd > 0)
		d /= pow10_exact[fd];
	*out = *s == '-' ? -d : d;
	return p;
}

enum { K_NONE, K_KERNEL, K_GPU, K_DISPATCH, K_DUR, K_START, K_END,
    K_TYPE, K_RUN, K_BLOCKS, K_BLOCK };

/* What the key at position i of a block means, cached by position: the
 * records of one stream have their keys in the same order. */
static struct pos_ent *
key_meaning(struct table *t, struct block *b, size_t i, const char *key,
    size_t kl, int top)
{
	static const struct { const char *k; int what; } special[] = {
		{ "Kernel_Name", K_KERNEL }, { "GPU_ID", K_GPU },
		{ "Dispatch_ID", K_DISPATCH }, { "dur_ns", K_DUR },
		{ "Start_Timestamp", K_START }, { "End_Timestamp", K_END },
		{ "type", K_TYPE }, { "run", K_RUN }, { "blocks", K_BLOCKS },
	};
	struct pos_ent *e;
	void **slot;
	size_t j;

	if (i < b->npos && b->pos[i].len == kl &&
	    memcmp(b->pos[i].key, key, kl) == 0)
		return &b->pos[i];
	XGROW(b->pos, i + 1, b->pos_alloc);
	for (; b->npos <= i; b->npos++)
		memset(&b->pos[b->npos], 0, sizeof(*b->pos));
	e = &b->pos[i];
	free(e->raw);
	e->raw = xmalloc(kl + 4);
	e->key = e->raw + 1;
	e->raw[0] = '"';
	memcpy(e->key, key, kl);
	memcpy(e->key + kl, "\":", 3);
	e->len = kl;
	e->plain = !memchr(key, '"', kl) && !memchr(key, '\\', kl);
	slot = hmap_get(&b->cols, key, kl);
	e->col = slot ? (long)(intptr_t)*slot - 1 : -1;
	e->what = K_NONE;
	for (j = 0; j < sizeof(special) / sizeof(special[0]); j++)
		if (strlen(special[j].k) == kl &&
		    memcmp(special[j].k, key, kl) == 0 &&
		    (top || special[j].what == K_START ||
		    special[j].what == K_END))
			e->what = special[j].what;
	for (j = 1; top && j < t->nblocks; j++)
		if (strlen(t->blocks[j].name) == kl &&
		    memcmp(t->blocks[j].name, key, kl) == 0)
			e->what = K_BLOCK + (int)j;
	return e;
}

/* Stores end - start of one row in the block's two duration columns:
 * in int64 when both are integers (as pandas subtracts integer columns)
 * and in doubles; NaN when either is absent. */
static void
store_duration_v(struct table *t, struct block *b, size_t row,
    struct nd_slice s, struct nd_slice e, double sv, double ev)
{
	int64_t x, y;
	double d = s.p && e.p ? ev - sv : NAN;

	row -= t->base;		/* the row in the columns */
	col_set(t, &t->cols[b->ddur_col], row, d);
	if (s.p && e.p && nd_val_i64(s, &x) == 0 && nd_val_i64(e, &y) == 0) {
		col_set(t, &t->cols[b->dur_col], row, (double)(y - x));
		return;
	}
	col_set(t, &t->cols[b->dur_col], row, d);
	if (!isnan(d) || (s.p && nd_type(s) == ND_NUMBER) ||
	    (e.p && nd_type(e) == ND_NUMBER))
		b->dur_mixed = 1;
}

/* As store_duration_v(), the numbers not yet read. */
static void
store_duration(struct table *t, struct block *b, size_t row,
    struct nd_slice s, struct nd_slice e)
{
	double sv = s.p && e.p ? number(s) : NAN;

	store_duration_v(t, b, row, s, e, sv, s.p && e.p ? number(e) : NAN);
}

struct rowvals {
	double start, end, dur;
};

static const char *store_block(struct table *t, struct block *b,
    const char *p, const char *end, struct strbuf *tmp, size_t row, int top,
    struct rowvals *rv);

/* The block named by the raw key k (index 1 on), or NULL. */
static struct block *
named_block(struct table *t, struct nd_slice k, struct strbuf *tmp)
{
	const char *key;
	size_t kl, j;

	key = key_text(k, tmp, &kl);
	for (j = 1; j < t->nblocks; j++)
		if (strlen(t->blocks[j].name) == kl &&
		    memcmp(t->blocks[j].name, key, kl) == 0)
			return &t->blocks[j];
	return NULL;
}

/* Stores the members of the "blocks" object at p, each into its block;
 * returns the byte after the object. */
static const char *
store_blocks(struct table *t, const char *p, const char *end,
    struct strbuf *tmp, size_t row, struct rowvals *rv)
{
	struct nd_slice k;
	struct block *b;

	p = fskip_ws(p + 1, end);
	while (p < end && *p == '"') {
		k.p = p;
		p = fskip_str(p, end);
		k.len = (size_t)(p - k.p);
		p = fskip_ws(fskip_ws(p, end) + 1, end);
		if (*p == '{' && (b = named_block(t, k, tmp)) != NULL)
			p = store_block(t, b, p, end, tmp, row, 0, rv);
		else
			p = fskip_val(p, end);
		p = fskip_ws(p, end);
		if (p < end && *p == ',')
			p = fskip_ws(p + 1, end);
	}
	return p < end ? p + 1 : p;
}

/* The cached key at position i of b if the raw key at p is exactly it
 * (a key without '"' or '\\' is its own JSON text); NULL otherwise. */
static inline const struct pos_ent *
cached_key(const struct block *b, size_t i, const char *p, const char *end)
{
	const struct pos_ent *e;

	if (i >= b->npos)
		return NULL;
	e = &b->pos[i];
	if (*p != '"' || !e->plain || (size_t)(end - p) <= e->len + 1 ||
	    p[e->len + 1] != '"' || !same_bytes(p + 1, e->key, e->len))
		return NULL;
	return e;
}

/* As cached_key(), with the colon after the key: what the fast path
 * takes (no blanks around it). */
static inline const struct pos_ent *
fast_key(const struct block *b, size_t i, const char *p, const char *end)
{
	const struct pos_ent *e;

	if (i >= b->npos)
		return NULL;
	e = &b->pos[i];
	if (!e->plain || (size_t)(end - p) <= e->len + 3 ||
	    !same_bytes_long(p, e->raw, e->len + 3))
		return NULL;
	return e;
}

/* Stores the values of the object at p into block b (or the top level);
 * returns the byte after the object. */
static const char *
store_block(struct table *t, struct block *b, const char *p,
    const char *end, struct strbuf *tmp, size_t row, int top,
    struct rowvals *rv)
{
	struct nd_slice k, v;
	const struct pos_ent *e;
	struct nd_slice ts = { NULL, 0 }, te = { NULL, 0 };
	const char *key;
	size_t kl, i = 0;
	double x;

	p = fskip_ws(p + 1, end);	/* past '{' */
	while (p < end && *p == '"') {
		if ((e = cached_key(b, i, p, end)) != NULL) {
			p += e->len + 2;
		} else {
			k.p = p;
			p = fskip_str(p, end);
			k.len = (size_t)(p - k.p);
			key = key_text(k, tmp, &kl);
			e = key_meaning(t, b, i, key, kl, top);
		}
		i++;
		p = fskip_ws(fskip_ws(p, end) + 1, end);	/* ':' */
		v.p = p;
		if (e->col >= 0 && (*p == '-' || (*p >= '0' && *p <= '9'))) {
			p = fast_number(p, end, &x);
			col_set(t, &t->cols[e->col], row - t->base, x);
		} else if (*p == '{' && e->what == K_BLOCKS) {
			p = store_blocks(t, p, end, tmp, row, rv);
		} else if (*p == '{' && e->what >= K_BLOCK) {
			p = store_block(t, &t->blocks[e->what - K_BLOCK], p,
			    end, tmp, row, 0, rv);
		} else {
			p = fskip_val(p, end);
			if (e->col >= 0)
				col_set(t, &t->cols[e->col], row - t->base,
				    number((struct nd_slice){ v.p,
				    (size_t)(p - v.p) }));
		}
		v.len = (size_t)(p - v.p);
		p = fskip_ws(p, end);
		if (p < end && *p == ',')
			p = fskip_ws(p + 1, end);
		switch (e->what) {
		case K_NONE:
			break;
		case K_KERNEL:
			strbuf_reset(tmp);
			if (nd_val_str(v, tmp) != 0)
				strbuf_add(tmp, v.p, v.len);
			t->kernel[row] = kernel_id(t, tmp->buf, tmp->len);
			break;
		case K_GPU:
			t->gpu[row] = value_text(t, v, tmp);
			break;
		case K_DISPATCH:
			t->dispatch_id[row] = value_text(t, v, tmp);
			break;
		case K_DUR:
			rv->dur = number(v);
			break;
		case K_START:
			ts = v;
			break;
		case K_END:
			te = v;
			break;
		default:	/* blocks: stored above */
			break;
		}
	}
	if (top) {
		rv->start = ts.p ? number(ts) : NAN;
		rv->end = te.p ? number(te) : NAN;
	}
	if (b->dur_col >= 0)
		store_duration(t, b, row, ts, te);
	return p < end ? p + 1 : p;
}

void
table_add_row(struct table *t, const char *line, size_t len, size_t label)
{
	static struct strbuf tmp = STRBUF_INIT;
	struct rowvals rv = { NAN, NAN, NAN };
	size_t row = t->nrows;

	row_blank(t, row);
	t->kernel[row] = UINT32_MAX;
	store_block(t, &t->blocks[0], fskip_ws(line, line + len), line + len,
	    &tmp, row, 1, &rv);
	if (t->kernel[row] == UINT32_MAX)
		t->kernel[row] = kernel_id(t, "", 0);
	t->dur[row] = isnan(rv.dur) ? rv.end - rv.start : rv.dur;
	t->label[row] = label;
	t->nrows++;
}

/* ---- the fast path: validating while storing ---- */

/* What the fast path found in one record besides the counters. */
struct fastrow {
	struct rowvals rv;
	struct nd_slice kernel, type, run;
	struct strbuf *tmp;
};

/* 10^k for the digits8() counts. */
static const uint64_t pow10_u64[] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000
};

/*
 * How many of the 8 bytes at p are leading ASCII digits (0 to 8), and in
 * *v their value, all at once: a byte is not a digit when it is above
 * '9' (adding 0x46 sets its top bit), below '0' (subtracting 0x30 does)
 * or not ASCII.  A carry or borrow only runs from a byte that is not a
 * digit into the bytes after it, which are not counted.
 */
static inline int
digits8(const char *p, uint64_t *v)
{
	uint64_t c, d, bad;
	int n;

	memcpy(&c, p, 8);
	bad = ((c + UINT64_C(0x4646464646464646)) |
	    (c - UINT64_C(0x3030303030303030)) | c) &
	    UINT64_C(0x8080808080808080);
	n = bad ? __builtin_ctzll(bad) >> 3 : 8;
	if (n == 0) {
		*v = 0;
		return 0;
	}
	/* The first digit is the lowest byte: shifting out the bytes after
	 * the digits leaves leading zeros. */
	d = (c - UINT64_C(0x3030303030303030)) << (8 * (8 - n));
	d = (d * 10 + (d >> 8)) & UINT64_C(0x00FF00FF00FF00FF);
	d = (d * 100 + (d >> 16)) & UINT64_C(0x0000FFFF0000FFFF);
	*v = (d * 10000 + (d >> 32)) & UINT64_C(0xFFFFFFFF);
	return n;
}

/* Reads the digits at p on into *m (m = m * 10 + digit for each, modulo
 * 2^64), counting them in *n and setting *nz when one is not 0; returns
 * the byte after them.  Eight at a time where eight bytes are left. */
static inline const char *
scan_digits(const char *p, const char *end, uint64_t *m, int *n, int *nz)
{
	uint64_t v;
	unsigned d;
	int k;

	while (end - p >= 8) {
		k = digits8(p, &v);
		*m = *m * pow10_u64[k] + v;
		*nz |= v != 0;
		*n += k;
		p += k;
		if (k < 8)
			return p;
	}
	for (; p < end && (d = (unsigned)(*p - '0')) <= 9; p++, (*n)++) {
		*m = *m * 10 + d;
		*nz |= d != 0;
	}
	return p;
}

/*
 * The JSON number at p in *out, or NULL when p does not start one by
 * RFC 8259's grammar; returns the byte after it.  As fast_number(), and
 * a fraction of zeros ("65536.0") is the integer, with no division.
 */
static const char *
strict_number(const char *p, const char *end, double *out)
{
	const char *s = p;
	uint64_t m = 0, mi;
	int ni = 0, fd = 0, nz = 0, inz = 0;
	double x;

	if (p < end && *p == '-')
		p++;
	if (p >= end || (unsigned)(*p - '0') > 9)
		return NULL;
	if (*p == '0')
		p++;
	else
		p = scan_digits(p, end, &m, &ni, &inz);
	mi = m;
	if (end - p >= 3 && p[0] == '.' && p[1] == '0' &&
	    (p[2] == ',' || p[2] == '}')) {
		p += 2;		/* "65536.0": one zero digit */
		m *= 10;
		fd = 1;
	} else if (p < end && *p == '.') {
		if (++p >= end || (unsigned)(*p - '0') > 9)
			return NULL;
		p = scan_digits(p, end, &m, &fd, &nz);
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		if (++p < end && (*p == '+' || *p == '-'))
			p++;
		if (p >= end || (unsigned)(*p - '0') > 9)
			return NULL;
		while (p < end && (unsigned)(*p - '0') <= 9)
			p++;
		return fast_number(s, p, out) == p ? p : NULL;
	}
	if (!nz && ni <= 19 && mi <= (UINT64_C(1) << 53))
		x = (double)mi;
	else if (ni + fd <= 19 && fd <= 22 && m <= (UINT64_C(1) << 53))
		x = (double)m / pow10_exact[fd];
	else
		return fast_number(s, p, out) == p ? p : NULL;
	*out = *s == '-' ? -x : x;
	return p;
}

/*
 * The integer of at most 7 digits at p, written "N" or "N.0" and followed
 * by ',' or '}' (at least 8 bytes before end), in *out; returns the byte
 * after it, or NULL for anything else, which strict_number() reads.  The
 * value is the one strict_number() gives: an exact double.
 */
static inline const char *
short_integer(const char *p, const char *end, double *out)
{
	uint64_t v;
	const char *q;
	int k;

	if (end - p < 8 || (unsigned)(*p - '1') > 8)
		return NULL;
	k = digits8(p, &v);
	if (k == 8)
		return NULL;
	q = p + k;
	if (*q == '.' && end - q >= 3 && q[1] == '0' &&
	    (q[2] == ',' || q[2] == '}'))
		q += 2;
	else if (*q != ',' && *q != '}')
		return NULL;
	*out = (double)v;
	return q;
}

/* A value that is not a number or an object: a valid string or literal;
 * returns the byte after it, or NULL. */
static const char *
fast_other(const char *p, const char *end)
{
	const char *q;

	if (*p == '"') {
		q = fskip_str(p, end);
		if (q - p < 2 || q[-1] != '"' || nd_validate(p,
		    (size_t)(q - p)) != 0)
			return NULL;
		return q;
	}
	if (end - p >= 4 && (memcmp(p, "null", 4) == 0 ||
	    memcmp(p, "true", 4) == 0))
		return p + 4;
	if (end - p >= 5 && memcmp(p, "false", 5) == 0)
		return p + 5;
	return NULL;
}

static const char *fast_block(struct table *t, struct block *b,
    const char *p, const char *end, size_t row, int top, struct fastrow *fr);

/* The "blocks" object at p: each member a block the schema knows, with a
 * key of plain printable ASCII. */
static const char *
fast_blocks(struct table *t, const char *p, const char *end, size_t row,
    struct fastrow *fr)
{
	struct nd_slice k;
	struct block *b;
	const char *q;

	if (++p >= end || *p != '"')
		return NULL;
	for (;;) {
		for (q = p + 1; q < end && *q != '"'; q++)
			if (*q < 0x20 || *q > 0x7e || *q == '\\')
				return NULL;
		if (end - q < 3 || q[1] != ':' || q[2] != '{')
			return NULL;
		k.p = p;
		k.len = (size_t)(q + 1 - p);
		if ((b = named_block(t, k, fr->tmp)) == NULL ||
		    (p = fast_block(t, b, q + 2, end, row, 0, fr)) == NULL ||
		    p >= end)
			return NULL;
		if (*p == '}')
			return p + 1;
		if (*p != ',' || ++p >= end || *p != '"')
			return NULL;
	}
}

/* The four bytes at s as one word (in the machine's byte order). */
static inline uint32_t
word4(const char *s)
{
	uint32_t w;

	memcpy(&w, s, 4);
	return w;
}

/* A block's Start_Timestamp and End_Timestamp: the texts, and the values
 * fast_value() read, which are number()'s of the texts. */
struct stamps {
	struct nd_slice s, e;
	double sv, ev;
};

/* The value at p of the member e of a block: stored, and validated;
 * returns the byte after it, or NULL. */
static const char *
fast_value(struct table *t, const struct pos_ent *e, const char *p,
    const char *end, size_t row, int top, struct fastrow *fr,
    struct stamps *ts)
{
	struct nd_slice v = { p, 0 };
	double x = NAN;
	uint32_t w;

	if (*p == '{' && e->what == K_BLOCKS && top)
		return fast_blocks(t, p, end, row, fr);
	if (*p == '{' && e->what >= K_BLOCK && top)
		return fast_block(t, &t->blocks[e->what - K_BLOCK], p, end,
		    row, 0, fr);
	if (end - p >= 4 && (memcpy(&w, p, 4), w == word4("0.0,") ||
	    w == word4("0.0}"))) {
		x = 0;		/* a third of the counters: "0.0" */
		p += 3;
	} else if ((p = short_integer(p, end, &x)) != NULL) {
		;		/* most of the others: "65536.0", "256" */
	} else if (*(p = v.p) == '-' || (*p >= '0' && *p <= '9'))
		p = strict_number(p, end, &x);
	else if ((p = fast_other(p, end)) != NULL)
		x = number((struct nd_slice){ v.p, (size_t)(p - v.p) });
	if (p == NULL)
		return NULL;
	if (e->col >= 0)
		col_set(t, &t->cols[e->col], row - t->base, x);
	if (e->what == K_NONE)
		return p;
	v.len = (size_t)(p - v.p);
	switch (e->what) {
	case K_KERNEL: fr->kernel = v; break;
	case K_GPU: t->gpu[row] = value_text(t, v, fr->tmp); break;
	case K_DISPATCH: t->dispatch_id[row] = value_text(t, v, fr->tmp); break;
	case K_DUR: fr->rv.dur = x; break;
	case K_START: ts->s = v; ts->sv = x; break;
	case K_END: ts->e = v; ts->ev = x; break;
	case K_TYPE: if (top) fr->type = v; break;
	case K_RUN: if (top) fr->run = v; break;
	}
	return p;
}

/* The object at p, whose keys must be the ones cached for b, in order
 * and written without blanks: stored and validated, or NULL. */
static const char *
fast_block(struct table *t, struct block *b, const char *p, const char *end,
    size_t row, int top, struct fastrow *fr)
{
	struct stamps ts = { { NULL, 0 }, { NULL, 0 }, NAN, NAN };
	const struct pos_ent *e;
	size_t i = 0;

	if (p >= end || *p != '{')
		return NULL;
	for (p++;; p++) {
		if ((e = fast_key(b, i++, p, end)) == NULL)
			return NULL;
		p += e->len + 3;
		p = fast_value(t, e, p, end, row, top, fr, &ts);
		if (p == NULL || p >= end)
			return NULL;
		if (*p == '}')
			break;
		if (*p != ',')
			return NULL;
	}
	if (i != b->npos)
		return NULL;	/* fewer keys than cached: the slow path */
	if (top) {
		fr->rv.start = ts.sv;
		fr->rv.end = ts.ev;
	}
	if (b->dur_col >= 0)
		store_duration_v(t, b, row, ts.s, ts.e,
		    ts.s.p && ts.e.p ? ts.sv : NAN,
		    ts.s.p && ts.e.p ? ts.ev : NAN);
	return p + 1;
}

int
table_add_row_fast(struct table *t, const char *line, size_t len,
    size_t label, const char *run, size_t run_len)
{
	static struct strbuf tmp = STRBUF_INIT;
	static char *mixed;
	static size_t nmixed;
	struct fastrow fr;
	size_t row = t->nrows, i, rl;

	if (t->nblocks == 0)
		return -1;
	/* A record that fails must not mark durations as doubles. */
	if (nmixed < t->nblocks) {
		nmixed = t->nblocks;
		mixed = xrealloc(mixed, nmixed);
	}
	for (i = 0; i < t->nblocks; i++)
		mixed[i] = (char)t->blocks[i].dur_mixed;
	row_blank(t, row);
	memset(&fr, 0, sizeof(fr));
	fr.rv.start = fr.rv.end = fr.rv.dur = NAN;
	fr.tmp = &tmp;
	if (fast_block(t, &t->blocks[0], line, line + len, row, 1, &fr) !=
	    line + len || !fr.type.p || fr.type.len != 10 ||
	    memcmp(fr.type.p, "\"dispatch\"", 10) != 0)
		goto fail;
	/* The same run (main.c's run_check): a string, or none. */
	rl = fr.run.p && *fr.run.p == '"' ? fr.run.len : 0;
	if (rl != run_len || (rl && memcmp(fr.run.p, run, rl) != 0))
		goto fail;
	if (fr.kernel.p) {
		strbuf_reset(&tmp);
		if (nd_val_str(fr.kernel, &tmp) != 0)
			strbuf_add(&tmp, fr.kernel.p, fr.kernel.len);
		t->kernel[row] = kernel_id(t, tmp.buf, tmp.len);
	} else {
		t->kernel[row] = kernel_id(t, "", 0);
	}
	t->dur[row] = isnan(fr.rv.dur) ? fr.rv.end - fr.rv.start : fr.rv.dur;
	t->label[row] = label;
	t->nrows++;
	return 0;
fail:
	for (i = 0; i < t->nblocks; i++)
		t->blocks[i].dur_mixed = mixed[i];
	return -1;
}

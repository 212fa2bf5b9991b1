/*
 * interactive.c: metric-eval --interactive, what a page needs to evaluate
 * every cell again for any choice of dispatches and normalization
 * (docs/formats.md, "Interactive records"): one "interactive" record (the
 * dispatches: kernel, GPU, Dispatch_ID, position, duration; the sysinfo
 * numbers the built-ins read), "interactive_column" records with the
 * stored counter columns (their values, compressed, in packs) and one
 * "interactive_table" record per metric table with each cell's compiled
 * program for every normalization.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "err.h"
#include "me.h"
#include "ndw.h"
#include "xmem.h"

/* The sysinfo numbers the built-ins and the roofline read. */
static const struct {
	const char *key;
	int is_int;
} sysnums[] = {
	{ "num_xcd", 1 }, { "max_waves_per_cu", 1 }, { "cu_per_gpu", 1 },
	{ "max_sclk", 0 }, { "max_mclk", 0 }, { "num_hbm_channels", 0 },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static void
emit(struct ndw *w, FILE *fp)
{
	ndw_end(w);
	if (ndw_emit(w, fp) != 0)
		die_errno("write error");
}

static void
put_run(struct ndw *w, const char *run, size_t run_len)
{
	if (run_len > 0)
		ndw_raw(w, "run", run, run_len);
}

static void
put_nullable(struct ndw *w, const char *key, const char *s)
{
	if (s)
		ndw_strz(w, key, s);
	else
		ndw_null(w, key);
}

/* An array of n strings, null where a string is missing. */
static void
put_strs(struct ndw *w, const char *key, const char **v, size_t n)
{
	size_t i;

	ndw_arr(w, key);
	for (i = 0; i < n; i++)
		put_nullable(w, NULL, v[i]);
	ndw_close(w);
}

static void
put_cols(struct ndw *w, const char *key, struct table *t,
    const char *const *names, size_t n)
{
	size_t i;

	ndw_arr(w, key);
	for (i = 0; i < n; i++)
		ndw_i64(w, NULL, table_pmc_col(t, names[i]));
	ndw_close(w);
}

/* The dispatches, in row order, and what the built-ins read. */
static void
write_dispatches(struct ndw *w, FILE *fp, struct table *t,
    const char *norm, const char *run, size_t run_len)
{
	/* The exact duration column, if the configs asked for it (looked
	 * up, not added: the rows are read). */
	long dur = table_pmc_col(t, "End_Timestamp - Start_Timestamp");
	const char *arch = table_sysinfo(t, "gpu_arch");
	const char *banks = table_sysinfo(t, "lds_banks_per_cu");
	size_t i;

	ndw_begin(w);
	ndw_strz(w, "type", "interactive");
	ndw_i64(w, "version", 1);
	ndw_strz(w, "normalization", norm);
	put_run(w, run, run_len);
	ndw_arr(w, "normalizations");
	for (i = 0; i < NNORMS; i++)
		ndw_strz(w, NULL, norm_names[i]);
	ndw_close(w);
	ndw_u64(w, "dispatches", t->nrows);
	ndw_u64(w, "columns", t->ncols);
	ndw_arr(w, "kernels");
	for (i = 0; i < t->nkernels; i++)
		ndw_strz(w, NULL, t->kernels[i]);
	ndw_close(w);
	ndw_arr(w, "kernel");
	for (i = 0; i < t->nrows; i++)
		ndw_u64(w, NULL, t->kernel[i]);
	ndw_close(w);
	put_strs(w, "gpu", t->gpu, t->nrows);
	put_strs(w, "dispatch_id", t->dispatch_id, t->nrows);
	ndw_arr(w, "position");
	for (i = 0; i < t->nrows; i++)
		ndw_u64(w, NULL, t->label[i]);
	ndw_close(w);
	/* As the top statistics read it (panels.c): exact when both
	 * timestamps are integers. */
	ndw_arr(w, "dur_ns");
	for (i = 0; i < t->nrows; i++)
		ndw_f64(w, NULL, dur >= 0 ? col_get(&t->cols[dur], i) :
		    t->dur[i]);
	ndw_close(w);
	ndw_obj(w, "sysinfo");
	for (i = 0; i < NELEM(sysnums); i++)
		ndw_f64(w, sysnums[i].key, table_sysinfo_num(t,
		    sysnums[i].key, sysnums[i].is_int));
	ndw_f64(w, "lds_banks_per_cu", banks ? strtod(banks, NULL) : 32);
	put_nullable(w, "gpu_arch", arch);
	ndw_close(w);
	put_cols(w, "builtin_columns", t, builtin_cols, BUILTIN_NCOLS);
	put_cols(w, "roofline_columns", t, roof_cols, ROOF_NCOLS);
	emit(w, fp);
}

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void
base64(struct strbuf *sb, const unsigned char *p, size_t n)
{
	size_t i;
	unsigned v;

	for (i = 0; i + 2 < n; i += 3) {
		v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];
		strbuf_addch(sb, b64[v >> 18 & 63]);
		strbuf_addch(sb, b64[v >> 12 & 63]);
		strbuf_addch(sb, b64[v >> 6 & 63]);
		strbuf_addch(sb, b64[v & 63]);
	}
	if (i < n) {
		v = (unsigned)p[i] << 16;
		if (i + 1 < n)
			v |= (unsigned)p[i + 1] << 8;
		strbuf_addch(sb, b64[v >> 18 & 63]);
		strbuf_addch(sb, b64[v >> 12 & 63]);
		strbuf_addch(sb, i + 1 < n ? b64[v >> 6 & 63] : '=');
		strbuf_addch(sb, '=');
	}
}

/*
 * Columns are written in packs of about this many bytes, each one zlib
 * stream, which a page inflates when it first reads one of its columns.
 * A pack smaller than ZLIB_MIN (a small workload) is not compressed.
 */
#define PACK_BYTES (1 << 20)
#define ZLIB_MIN 4096

/* Appends column c's values, little-endian floats (or doubles), byte
 * plane by byte plane: the high bytes of counters repeat, so they
 * compress. */
static void
add_planes(struct strbuf *raw, const struct column *c, size_t n)
{
	size_t width = c->wide ? 8 : 4, i, b;
	unsigned char *p, v[8];

	strbuf_grow(raw, n * width);
	p = (unsigned char *)raw->buf + raw->len;
	for (i = 0; i < n; i++) {
		if (c->wide) {
			uint64_t u;

			memcpy(&u, &c->v[i], 8);
			for (b = 0; b < 8; b++)
				v[b] = (unsigned char)(u >> (8 * b));
		} else {
			uint32_t u;

			memcpy(&u, &c->f[i], 4);
			for (b = 0; b < 4; b++)
				v[b] = (unsigned char)(u >> (8 * b));
		}
		for (b = 0; b < width; b++)
			p[b * n + i] = v[b];
	}
	strbuf_setlen(raw, raw->len + n * width);
}

/* One pack: the columns first..end-1. */
static void
write_pack(struct ndw *w, FILE *fp, struct table *t, size_t first,
    size_t end, const char *run, size_t run_len)
{
	struct strbuf raw = STRBUF_INIT, sb = STRBUF_INIT;
	unsigned char *z = NULL;
	uLongf zlen;
	size_t i;

	for (i = first; i < end; i++)
		add_planes(&raw, &t->cols[i], t->nrows);
	ndw_begin(w);
	ndw_strz(w, "type", "interactive_column");
	put_run(w, run, run_len);
	ndw_u64(w, "index", first);
	ndw_arr(w, "blocks");
	for (i = first; i < end; i++)
		ndw_strz(w, NULL, t->cols[i].block);
	ndw_close(w);
	ndw_arr(w, "names");
	for (i = first; i < end; i++)
		ndw_strz(w, NULL, t->cols[i].name);
	ndw_close(w);
	ndw_arr(w, "encodings");
	for (i = first; i < end; i++)
		ndw_strz(w, NULL, t->cols[i].wide ? "f64" : "f32");
	ndw_close(w);
	if (raw.len >= ZLIB_MIN) {
		zlen = compressBound((uLong)raw.len);
		z = xmalloc(zlen);
		if (compress2(z, &zlen, (unsigned char *)raw.buf,
		    (uLong)raw.len, 6) != Z_OK)
			die("--interactive: cannot compress the columns");
		ndw_strz(w, "compression", "zlib");
		base64(&sb, z, zlen);
		free(z);
	} else {
		base64(&sb, (unsigned char *)raw.buf, raw.len);
	}
	ndw_str(w, "data", sb.buf, sb.len);
	emit(w, fp);
	strbuf_release(&sb);
	strbuf_release(&raw);
}

static void
write_columns(struct ndw *w, FILE *fp, struct table *t, const char *run,
    size_t run_len)
{
	size_t i, first = 0, bytes = 0;

	for (i = 0; i < t->ncols; i++) {
		bytes += t->nrows * (t->cols[i].wide ? 8 : 4);
		if (bytes >= PACK_BYTES || i + 1 == t->ncols) {
			write_pack(w, fp, t, first, i + 1, run, run_len);
			first = i + 1;
			bytes = 0;
		}
	}
}

/* A compiled program as [kind, op, sub, nargs, arg, num, op, ...]. */
static void
put_prog(struct ndw *w, const struct prog *p)
{
	size_t i;

	ndw_arr(w, NULL);
	ndw_i64(w, NULL, p->kind);
	for (i = 0; i < p->n; i++) {
		const struct ins *in = &p->ins[i];

		ndw_i64(w, NULL, in->op);
		ndw_i64(w, NULL, in->sub);
		ndw_i64(w, NULL, in->nargs);
		ndw_i64(w, NULL, in->arg);
		ndw_f64(w, NULL, in->num);
	}
	ndw_close(w);
}

static int
same_prog(const struct prog *a, const struct prog *b)
{
	size_t i;

	if (a->kind != b->kind || a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++) {
		const struct ins *x = &a->ins[i], *y = &b->ins[i];

		if (x->op != y->op || x->sub != y->sub ||
		    x->nargs != y->nargs || x->arg != y->arg ||
		    memcmp(&x->num, &y->num, sizeof(x->num)) != 0)
			return 0;
	}
	return 1;
}

/* The programs of a table, each once: (table, row, column, norm) -> id. */
struct progs {
	const struct prog **v;
	size_t n, alloc;
};

static size_t
prog_id(struct progs *ps, const struct prog *p)
{
	size_t i;

	for (i = ps->n; i > 0; i--)
		if (same_prog(ps->v[i - 1], p))
			return i - 1;
	XGROW(ps->v, ps->n + 1, ps->alloc);
	ps->v[ps->n] = p;
	return ps->n++;
}

/*
 * A cell: null, its text, {"unit":[text per normalization]} or
 * {"eval":[program per normalization]} (with "box": 1..5, the simple_box
 * statistic Min, Q1, Median, Q3, Max of the program's values).
 */
static void
put_cell(struct ndw *w, struct config *const cf[NNORMS], size_t ti,
    size_t ri, size_t k, struct progs *ps)
{
	const struct mtable *mt = &cf[0]->tables[ti];
	const struct mcell *cell = &mt->rows[ri].cells[k];
	int n;

	if (mt->col_unit[k]) {
		ndw_obj(w, NULL);
		ndw_arr(w, "unit");
		for (n = 0; n < NNORMS; n++)
			ndw_strz(w, NULL,
			    cf[n]->tables[ti].rows[ri].cells[k].text);
		ndw_close(w);
		ndw_close(w);
	} else if (!mt->col_eval[k] || !cell->text) {
		put_nullable(w, NULL, cell->text);
	} else {
		ndw_obj(w, NULL);
		ndw_arr(w, "eval");
		for (n = 0; n < NNORMS; n++) {
			const struct mrow *r = &cf[n]->tables[ti].rows[ri];
			const struct mcell *c = &r->cells[k];

			ndw_u64(w, NULL, prog_id(ps, c->box ?
			    &r->cells[k + 1 - (size_t)c->box].prog : &c->prog));
		}
		ndw_close(w);
		if (cell->box)
			ndw_i64(w, "box", cell->box);
		ndw_close(w);
	}
}

static void
write_table(struct ndw *w, FILE *fp, struct config *const cf[NNORMS],
    size_t ti, int (*wanted)(int, size_t), const char *run, size_t run_len)
{
	const struct mtable *mt = &cf[0]->tables[ti];
	struct progs ps = { NULL, 0, 0 };
	size_t ri, k, nw = 0;

	for (ri = 0; ri < mt->nrows; ri++)
		nw += wanted(mt->table_id, ri) != 0;
	if (nw == 0)
		return;
	ndw_begin(w);
	ndw_strz(w, "type", "interactive_table");
	put_run(w, run, run_len);
	config_put_table(w, mt);
	ndw_strz(w, "name_title", mt->name_title);
	ndw_bool(w, "name_number", mt->name_evaluated &&
	    strcmp(mt->name_title, "Metric") != 0);
	ndw_arr(w, "columns");
	for (k = 0; k < mt->ncols; k++)
		ndw_strz(w, NULL, mt->cols[k]);
	ndw_close(w);
	ndw_arr(w, "rows");
	for (ri = 0; ri < mt->nrows; ri++) {
		const struct mrow *r = &mt->rows[ri];

		if (!wanted(mt->table_id, ri))
			continue;
		ndw_obj(w, NULL);
		ndw_u64(w, "row", ri);
		ndw_strz(w, "metric", r->name);
		if (r->desc)
			ndw_strz(w, "Description", r->desc);
		ndw_arr(w, "cells");
		for (k = 0; k < mt->ncols; k++)
			put_cell(w, cf, ti, ri, k, &ps);
		ndw_close(w);
		ndw_close(w);
	}
	ndw_close(w);
	ndw_arr(w, "programs");
	for (k = 0; k < ps.n; k++)
		put_prog(w, ps.v[k]);
	ndw_close(w);
	emit(w, fp);
	free(ps.v);
}

void
interactive_write(const struct interactive_out *o, struct table *t,
    struct config *const cf[NNORMS])
{
	struct ndw w;
	size_t i;
	int n;

	for (n = 1; n < NNORMS; n++)
		if (cf[n]->ntables != cf[0]->ntables)
			die("--interactive: the normalizations load different "
			    "tables");
	ndw_init(&w, 0);
	write_dispatches(&w, o->fp, t, o->norm, o->run, o->run_len);
	write_columns(&w, o->fp, t, o->run, o->run_len);
	for (i = 0; i < cf[0]->ntables; i++)
		write_table(&w, o->fp, cf, i, o->wanted, o->run, o->run_len);
	ndw_release(&w);
}

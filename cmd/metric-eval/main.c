/*
 * metric-eval: evaluates rocprof-compute's panel metrics over dispatch
 * records and writes one metric record per metric row.
 */
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "jqf.h"
#include "me.h"
#include "nd.h"
#include "ndw.h"
#include "ofile.h"
#include "opt.h"
#include "progress.h"
#include "sniff.h"
#include "xmem.h"

struct strv {
	const char **v;
	size_t n;
};

static struct {
	struct opt_common com;
	struct strv blocks, dispatches, exprs, files, kernels;
	const char *by, *config, *gpu;
	int norm, interactive;
} opt = { .com = OPT_COMMON_INIT };

static struct bad_input bad = BAD_INPUT_INIT;
static struct jqf *where;
static FILE *outfp;		/* standard output or the file of -o */
static struct table tab;
static struct config conf;
static struct config iconf[NNORMS];	/* --interactive: the other -n */
static int configured;
static int streaming;		/* evaluated as the rows come (stream.c) */
static int warned_sysinfo;
static size_t nlabels;		/* dispatch records seen */
static unsigned long blank_missing;
static const char *first_missing;
static struct strbuf run = STRBUF_INIT;	/* the run's "run" value, raw */
static int started;		/* the run has a sysinfo or dispatch record */

static void evaluate(void);

static const struct opt_help help[] = {
	{ "-b, --block ID", "write only panel, table or metric ID (2, 2.1, "
	    "2.1.7)" },
	{ "--by KEY", "also evaluate each kernel (KEY: Kernel_Name)" },
	{ "-c, --config DIR", "load the panel YAML files of DIR" },
	{ "-d, --dispatch N", "keep only the dispatch at row N" },
	{ "-e, --expr DEF", "add the metric DEF: 'Name = expression'" },
	{ "-f, --file FILE", "load a panel YAML file of your own" },
	{ "-g, --gpu ID", "keep only the dispatches of GPU ID" },
	{ "--interactive", "also write what a page needs to filter "
	    "(chart2html)" },
	{ "-k, --kernel KERNEL", "keep only one kernel: its rank or name" },
	{ "--nonfinite HOW", "NaN and infinities as strings (default) or "
	    "null" },
	{ "-n, --normal-unit UNIT", "per_kernel, per_wave, per_cycle, per_second" },
	{ NULL, NULL }
};

static void
usage(int rc)
{
	fprintf(rc ? stderr : stdout, "usage: metric-eval [-h] [-b id] "
	    "[--by key] [-c dir] [-d n] [-e def] [-f file] [-g id] "
	    "[--interactive] [-k kernel] [-n unit] [--no-progress] [--nonfinite how] [-o file] "
	    "[--progress] "
	    "[--strict] [--version] [--where expr] [file ...]\n");
	if (rc == 0)
		opt_help(stdout, help);
	exit(rc);
}

static void
strv_push(struct strv *s, const char *v)
{
	s->v = xreallocarray(s->v, s->n + 1, sizeof(*s->v));
	s->v[s->n++] = v;
}

/* Loads and compiles the definitions into cf. */
static void
load_defs(struct config *cf)
{
	size_t i;

	if (opt.config)
		config_load_dir(cf, opt.config, &tab);
	for (i = 0; i < opt.files.n; i++)
		config_load_file(cf, opt.files.v[i], &tab, 1);
	for (i = 0; i < opt.exprs.n; i++)
		config_add_user(cf, opt.exprs.v[i]);
	config_compile(cf, &tab);
}

/* Loads and compiles the definitions, once the data's keys are known
 * (with --interactive, for every normalization). */
static void
configure(void)
{
	int n;

	configured = 1;
	if (opt.config)
		panels_prepare(&tab);
	load_defs(&conf);
	for (n = 0; opt.interactive && n < NNORMS; n++)
		if (n != opt.norm)
			load_defs(&iconf[n]);
	/* The filters and --interactive need every dispatch's counters. */
	streaming = !opt.interactive && !opt.by && !opt.gpu &&
	    !opt.kernels.n && !opt.dispatches.n;
	if (streaming)
		stream_begin(&tab, &conf);
}

/* The configurations of the other normalizations, released and ready. */
static void
iconf_reset(void)
{
	int n;

	for (n = 0; n < NNORMS; n++) {
		config_release(&iconf[n]);
		config_init(&iconf[n], n);
	}
}

/* Evaluates the run read so far and makes ready for the next one. */
static int bad_sysinfo;		/* a sysinfo number did not parse */

static void
run_finish(void)
{
	if (configured) {
		stream_rows(&tab, 1);
		table_finish(&tab);
		evaluate();
	} else if (tab.have_sysinfo) {
		if (run.len > 0)
			warn("run %s: no dispatch records: nothing to evaluate",
			    run.buf);
		else
			warn("no dispatch records: nothing to evaluate");
	}
	if (tab.nbad_sysinfo > 0)
		bad_sysinfo = 1;
	stream_release();
	streaming = 0;
	config_release(&conf);
	iconf_reset();
	table_release(&tab);
	panels_reset();
	table_init(&tab);
	config_init(&conf, opt.norm);
	configured = started = warned_sysinfo = 0;
	nlabels = 0;
	blank_missing = 0;
	first_missing = NULL;
}

/*
 * A record starts a new run when its "run" differs from the run's, or
 * when it is a sysinfo record after the dispatch records of a run that
 * had one (the next workload of "pmc2ndjson A B").  Each run is
 * evaluated on its own.  A page of --interactive records filters one
 * run: a second one is refused before anything is written.
 */
static void
run_check(struct nd_slice type, struct nd_slice label,
    const struct srcpos *pos)
{
	size_t len = nd_type(label) == ND_STRING ? label.len : 0;
	int same = len == run.len && (len == 0 ||
	    memcmp(run.buf, label.p, len) == 0);

	if (started && (!same || (nlabels > 0 && tab.have_sysinfo &&
	    nd_str_eq(type, "sysinfo", 7)))) {
		if (opt.interactive)
			die_at(pos, "--interactive: a second run starts here: "
			    "the page filters one run (write a page per run)");
		run_finish();
	}
	if (!started) {
		strbuf_reset(&run);
		if (len > 0)
			strbuf_add(&run, label.p, len);
		started = 1;
	}
}

static void
record(struct nd_reader *r, void *arg)
{
	static const char *const keys[] = { "type", "run" };
	struct nd_slice v[2];

	(void)arg;
	/* A dispatch of the run written as the ones before it. */
	if (configured && started && !where && table_add_row_fast(&tab,
	    r->line, r->len, nlabels, run.buf, run.len) == 0) {
		nlabels++;
		if (streaming)
			stream_rows(&tab, 0);
		progress_update(nlabels, 0);
		return;
	}
	if (nd_fields(r->line, r->len, keys, v, 2) < 0) {
		bad_input(&bad, &r->pos, "%s", nd_error());
		return;
	}
	if (v[0].p && !nd_str_eq(v[0], "dispatch", 8) &&
	    !nd_str_eq(v[0], "sysinfo", 7) &&
	    !nd_str_eq(v[0], "roofline", 8))
		return;		/* units: not used by metrics */
	run_check(v[0], v[1], &r->pos);
	if (v[0].p && nd_str_eq(v[0], "roofline", 8)) {
		panels_roofline(r->line, r->len);
		return;
	}
	if (v[0].p && nd_str_eq(v[0], "sysinfo", 7)) {
		if (tab.have_sysinfo && !warned_sysinfo++)
			warn_at(&r->pos, "another sysinfo record in one run: "
			    "the first one is used");
		else if (!tab.have_sysinfo && tab.have_schema) {
			warn_at(&r->pos, "sysinfo record after the first "
			    "dispatch: not used (it must come first)");
			return;
		}
		table_sysinfo_record(&tab, r->line, r->len);
		panels_sysinfo(r->line, r->len);
		return;
	}
	if (!tab.have_schema) {
		table_schema(&tab, r->line, r->len);
		configure();
	}
	nlabels++;
	if (jqf_keep(where, r->line, r->len, &bad, &r->pos) == 1)
		table_add_row(&tab, r->line, r->len, nlabels - 1);
	if (streaming)
		stream_rows(&tab, 0);
	progress_update(nlabels, 0);
}

static int
metric_eval_stream(const char *path)
{
	static const struct nd_loop loop = { record, NULL, &bad,
		SNIFF_NOT_NDJSON | SNIFF_BIT(SNIFF_TRACE) |
		SNIFF_BIT(SNIFF_SPANS) | SNIFF_BIT(SNIFF_STACKS) |
		SNIFF_BIT(SNIFF_MIGX) | SNIFF_BIT(SNIFF_METRICS),
		"metric-eval reads the dispatch records of pmc2ndjson" };

	return nd_each(path, &loop) < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* ---- filters ---- */

static const double *sort_sums;

static int
cmp_rank(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	double sx = sort_sums[x], sy = sort_sums[y];

	if (isnan(sx) != isnan(sy))
		return isnan(sx) ? 1 : -1;
	if (sx != sy && !isnan(sx))
		return sx > sy ? -1 : 1;
	return strcmp(tab.kernels[x], tab.kernels[y]);
}

/* Kernels of the rows in idx, by total duration (rocprof-compute's top
 * statistics order); returns how many have rows. */
static size_t
rank_kernels(const size_t *idx, size_t n, size_t *order)
{
	double *sum = xcalloc(tab.nkernels + 1, sizeof(double));
	size_t *cnt = xcalloc(tab.nkernels + 1, sizeof(size_t));
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		sum[tab.kernel[idx[i]]] += tab.dur[idx[i]];
		cnt[tab.kernel[idx[i]]]++;
	}
	for (i = 0; i < tab.nkernels; i++)
		if (cnt[i])
			order[k++] = i;
	sort_sums = sum;
	if (k > 1)
		qsort(order, k, sizeof(*order), cmp_rank);
	free(sum);
	free(cnt);
	return k;
}

static int
in_list(const struct strv *s, const char *text)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (text && strcmp(s->v[i], text) == 0)
			return 1;
	return 0;
}

/*
 * Marks in want the kernels -k names, by top-statistics rank or name.
 * Returns 0, or -1 with the message in err (nothing left allocated).
 */
static int
want_kernels(const size_t *idx, size_t n, char *want, struct strbuf *err)
{
	size_t *top = xcalloc(n + 1, sizeof(size_t));
	size_t *order = xreallocarray(NULL, tab.nkernels + 1, sizeof(size_t));
	size_t nt = 0, nk, i;

	/* Ranks come from the top statistics, which rocprof-compute filters
	 * by GPU and by Dispatch_ID value. */
	for (i = 0; i < n; i++)
		if (!opt.dispatches.n ||
		    in_list(&opt.dispatches, tab.dispatch_id[idx[i]]))
			top[nt++] = idx[i];
	nk = rank_kernels(top, nt, order);
	for (i = 0; i < opt.kernels.n && !err->len; i++) {
		const char *k = opt.kernels.v[i];
		char *end;
		unsigned long r = strtoul(k, &end, 10);
		void **slot;

		if (*k && *end == '\0') {
			if (r >= nk && nk == 0)
				strbuf_addf(err, "--kernel %lu: there are no "
				    "kernels", r);
			else if (r >= nk)
				strbuf_addf(err, "--kernel %lu: there %s only "
				    "%zu kernel%s (ranks 0 to %zu)", r,
				    nk == 1 ? "is" : "are", nk,
				    nk == 1 ? "" : "s", nk - 1);
			else
				want[order[r]] = 1;
		} else if ((slot = hmap_get(&tab.kernel_ids, k,
		    strlen(k))) != NULL) {
			want[(intptr_t)*slot - 1] = 1;
		} else {
			strbuf_addf(err, "--kernel '%s': no such kernel", k);
		}
	}
	free(top);
	free(order);
	return err->len ? -1 : 0;
}

/*
 * Puts in out the rows at the --dispatch positions, in the order given.
 * Returns their number, or -1 with the message in err.
 */
static ptrdiff_t
dispatch_rows(const size_t *idx, size_t n, size_t *out, struct strbuf *err)
{
	size_t i, nt = 0, lo, hi, mid;
	unsigned long d;

	for (i = 0; i < opt.dispatches.n; i++) {
		/* Checked in select_rows(): this does not die. */
		d = opt_ulong("--dispatch", opt.dispatches.v[i], 0,
		    (unsigned long)-1 >> 1);
		if (d >= n) {
			strbuf_addf(err, "--dispatch %lu: only %zu dispatch%s "
			    "left after the filters", d, n, n == 1 ? " is" :
			    "es are");
			return -1;
		}
		for (lo = 0, hi = n; lo < hi;) {
			mid = (lo + hi) / 2;
			if (tab.label[idx[mid]] < d)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == n || tab.label[idx[lo]] != d) {
			strbuf_addf(err, "--dispatch %lu: that dispatch was "
			    "removed by the other filters", d);
			return -1;
		}
		out[nt++] = idx[lo];
	}
	return (ptrdiff_t)nt;
}

/*
 * Rows selected by --gpu, --kernel and --dispatch (in that order).  A
 * filter that selects nothing is an error; the arrays are freed before
 * the message, so a failed run leaves nothing allocated.
 */
static size_t *
select_rows(size_t *np)
{
	struct strbuf err = STRBUF_INIT;
	size_t *idx, *sel, n = 0, i, j;
	ptrdiff_t nd;
	char *want;

	/* Bad numbers are usage errors, before anything is allocated. */
	for (i = 0; i < opt.dispatches.n; i++)
		(void)opt_ulong("--dispatch", opt.dispatches.v[i], 0,
		    (unsigned long)-1 >> 1);
	idx = xreallocarray(NULL, tab.nrows + 1, sizeof(size_t));
	sel = xreallocarray(NULL, opt.dispatches.n + 1, sizeof(size_t));
	want = xcalloc(tab.nkernels + 1, 1);
	for (i = 0; i < tab.nrows; i++)
		if (!opt.gpu ||
		    (tab.gpu[i] && strcmp(tab.gpu[i], opt.gpu) == 0))
			idx[n++] = i;
	if (opt.gpu && n == 0)
		strbuf_addf(&err, "--gpu '%s': no dispatch has that GPU_ID",
		    opt.gpu);
	if (!err.len && opt.kernels.n &&
	    want_kernels(idx, n, want, &err) == 0) {
		for (i = j = 0; i < n; i++)
			if (want[tab.kernel[idx[i]]])
				idx[j++] = idx[i];
		n = j;
	}
	if (!err.len && opt.dispatches.n &&
	    (nd = dispatch_rows(idx, n, sel, &err)) >= 0) {
		n = (size_t)nd;
		idx = xreallocarray(idx, n + 1, sizeof(size_t));
		memcpy(idx, sel, n * sizeof(size_t));
	}
	free(sel);
	free(want);
	if (err.len) {
		free(idx);
		warn("%s", err.buf);
		strbuf_release(&err);
		exit(EXIT_FAILURE);
	}
	*np = n;
	return idx;
}

/* ---- output ---- */

/* Does -b id name the panel ("2"), the table ("2.1") or the row
 * ("2.1.15") of table table_id? */
static int
block_wanted_one(int table_id, size_t row, const char *want)
{
	char id[64];

	snprintf(id, sizeof(id), "%d", table_id / 100);
	if (strcmp(id, want) == 0)
		return 1;
	snprintf(id, sizeof(id), "%d.%d", table_id / 100, table_id % 100);
	if (strcmp(id, want) == 0)
		return 1;
	snprintf(id, sizeof(id), "%d.%d.%zu", table_id / 100, table_id % 100,
	    row);
	return strcmp(id, want) == 0;
}

static int
id_wanted(int table_id, size_t row)
{
	size_t i;

	if (!opt.blocks.n)
		return 1;
	for (i = 0; i < opt.blocks.n; i++)
		if (block_wanted_one(table_id, row, opt.blocks.v[i]))
			return 1;
	return 0;
}

static int
block_wanted(const struct mtable *mt, size_t row)
{
	return id_wanted(mt->table_id, row);
}

/* Does -b id name one of the tables filled from the data (panels.c)?
 * Their rows are numbered from the data, so any row number is one. */
static int
panel_table_named(const char *want)
{
	static const int ids[] = { 1, 2, 101, 401, 402 };
	char id[64];
	size_t i, n;

	for (i = 0; opt.config && i < sizeof(ids) / sizeof(ids[0]); i++) {
		if (block_wanted_one(ids[i], 0, want))
			return 1;
		n = (size_t)snprintf(id, sizeof(id), "%d.%d.", ids[i] / 100,
		    ids[i] % 100);
		if (strncmp(id, want, n) == 0 && want[n] &&
		    strspn(want + n, "0123456789") == strlen(want + n))
			return 1;
	}
	return 0;
}

/*
 * Dies when a -b id names no panel, table or metric of the loaded
 * definitions, listing the tables there are.
 */
static void
check_blocks(void)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, j, k;
	int found;

	for (i = 0; i < opt.blocks.n; i++) {
		found = panel_table_named(opt.blocks.v[i]);
		for (j = 0; j < conf.ntables && !found; j++)
			for (k = 0; k < conf.tables[j].nrows && !found; k++)
				found = block_wanted_one(conf.tables[j].table_id,
				    k, opt.blocks.v[i]);
		if (found)
			continue;
		for (j = 0; j < conf.ntables; j++)
			strbuf_addf(&sb, "%s%d.%d", j > 0 ? " " : "",
			    conf.tables[j].table_id / 100,
			    conf.tables[j].table_id % 100);
		die("-b '%s': no such panel, table or metric; the tables "
		    "are: %s", opt.blocks.v[i], sb.buf);
	}
}

/* Writes one cell of row r (and counts a blank from a missing counter). */
static void
emit_cell(struct ndw *w, const struct mtable *mt, const struct mrow *r,
    size_t k, struct evctx *c, int per_kernel, double box[5], int ok[5])
{
	const struct mcell *cell = &r->cells[k];
	const struct prog *pg;
	double v;
	int rc;

	if (!mt->col_eval[k] || !cell->text) {
		if (cell->text)
			ndw_strz(w, mt->cols[k], cell->text);
		else if (mt->col_unit[k])
			ndw_strz(w, mt->cols[k], "");
		else
			ndw_null(w, mt->cols[k]);
		return;
	}
	pg = cell->box ? &r->cells[k + 1 - (size_t)cell->box].prog :
	    &cell->prog;
	if (cell->box == 1 && streaming && cell->stream)
		stream_box(cell, box, ok);
	else if (cell->box == 1)
		expr_eval_box(pg, c, box, ok);
	if (cell->box) {
		rc = ok[cell->box - 1];
		v = box[cell->box - 1];
	} else if (streaming && cell->stream) {
		rc = stream_eval(cell, &v);
	} else {
		rc = expr_eval(pg, c, &v);
	}
	if (rc == 1)
		ndw_f64(w, mt->cols[k], v);
	else
		ndw_null(w, mt->cols[k]);
	if (rc != 1 && pg->missing && !per_kernel) {
		blank_missing++;
		if (!first_missing)
			first_missing = pg->missing_name;
	}
}

static void
emit_row(struct ndw *w, const struct mtable *mt, size_t ri, struct evctx *c,
    const char *kernel)
{
	const struct mrow *r = &mt->rows[ri];
	double v, box[5] = { 0 };
	int ok[5] = { 0 };
	char id[64], *end;
	size_t k;

	ndw_begin(w);
	config_put_table(w, mt);
	snprintf(id, sizeof(id), "%d.%d.%zu", mt->table_id / 100,
	    mt->table_id % 100, ri);
	ndw_strz(w, "metric_id", id);
	ndw_strz(w, "metric", r->name);
	ndw_strz(w, "normalization", norm_names[opt.norm]);
	if (run.len > 0)
		ndw_raw(w, "run", run.buf, run.len);
	if (kernel)
		ndw_strz(w, "Kernel_Name", kernel);
	if (mt->name_evaluated && strcmp(mt->name_title, "Metric") != 0) {
		v = strtod(r->name, &end);
		if (*r->name && *end == '\0')
			ndw_f64(w, mt->name_title, v);
		else
			ndw_null(w, mt->name_title);
	}
	for (k = 0; k < mt->ncols; k++)
		emit_cell(w, mt, r, k, c, kernel != NULL, box, ok);
	/* The text once, in the records over all dispatches. */
	if (r->desc && !kernel)
		ndw_strz(w, "Description", r->desc);
	ndw_end(w);
	if (ndw_emit(w, outfp) != 0)
		die_errno("write error");
}

static void
emit_all(struct ndw *w, const size_t *idx, size_t n, const char *kernel)
{
	struct panels_out po = { w, outfp, norm_names[opt.norm], run.buf,
	    run.len, id_wanted };
	struct evctx c;
	size_t i, j;
	/* Panels 0, 1 and 4 come from the data, once, in panel order. */
	int first = kernel == NULL && opt.config, roof = first;

	if (first)
		panels_write(&po, &tab, idx, n, PANELS_FIRST);
	evctx_init(&c, &tab, idx, n);
	for (i = 0; i < conf.ntables; i++) {
		if (roof && conf.tables[i].panel_id > 400) {
			panels_write(&po, &tab, idx, n, PANELS_ROOFLINE);
			roof = 0;
		}
		for (j = 0; j < conf.tables[i].nrows; j++)
			if (block_wanted(&conf.tables[i], j))
				emit_row(w, &conf.tables[i], j, &c, kernel);
	}
	if (roof)
		panels_write(&po, &tab, idx, n, PANELS_ROOFLINE);
	evctx_release(&c);
}

/* rocprof-compute stops when GRBM_GUI_ACTIVE is 0 in a selected row;
 * here the cycle-normalized cells are inf or blank, and we say why. */
static void
check_grbm(const size_t *idx, size_t n)
{
	struct block *b = table_block(&tab, "pmc_perf");
	void **slot = b ? hmap_get(&b->cols, "GRBM_GUI_ACTIVE", 15) : NULL;
	const struct column *col;
	size_t i, zero = 0;

	if (!slot)
		return;
	col = &tab.cols[(intptr_t)*slot - 1];
	if (streaming)
		zero = (size_t)stream_grbm_zero();
	for (i = 0; !streaming && i < n; i++)
		if (col_get(col, idx[i]) == 0)
			zero++;
	if (zero)
		warn("GRBM_GUI_ACTIVE is 0 in %zu of %zu dispatches "
		    "(rocprof-compute refuses such data): per-cycle metrics "
		    "are inf or blank", zero, n);
}

static void
evaluate(void)
{
	struct ndw w;
	size_t *idx, n, *sub, *order, nk, i, j, ns;

	check_blocks();
	idx = select_rows(&n);
	check_grbm(idx, n);
	ndw_init(&w, 0);
	emit_all(&w, idx, n, NULL);
	if (opt.by) {
		order = xreallocarray(NULL, tab.nkernels + 1, sizeof(size_t));
		sub = xreallocarray(NULL, n + 1, sizeof(size_t));
		nk = rank_kernels(idx, n, order);
		for (i = 0; i < nk; i++) {
			for (j = ns = 0; j < n; j++)
				if (tab.kernel[idx[j]] == order[i])
					sub[ns++] = idx[j];
			emit_all(&w, sub, ns, tab.kernels[order[i]]);
		}
		free(order);
		free(sub);
	}
	ndw_release(&w);
	free(idx);
	if (opt.interactive) {
		struct interactive_out io = { outfp, norm_names[opt.norm],
		    run.buf, run.len, id_wanted };
		struct config *cf[NNORMS];
		int k;

		for (k = 0; k < NNORMS; k++)
			cf[k] = k == opt.norm ? &conf : &iconf[k];
		interactive_write(&io, &tab, cf);
	}
	if (blank_missing)
		warn("%s%s%s%lu cells are blank because counters are absent "
		    "from the data (the first: '%s')", run.len ? "run " : "",
		    run.len ? run.buf : "", run.len ? ": " : "",
		    blank_missing, first_missing);
}

static int
parse_norm(const char *s)
{
	int i;

	for (i = 0; i < NNORMS; i++)
		if (strcmp(s, norm_names[i]) == 0)
			return i;
	die_usage("-n: '%s' is not per_kernel, per_wave, per_cycle or "
	    "per_second", s);
}

/* Adds each comma-separated item of arg. */
static void
push_list(struct strv *s, char *arg)
{
	char *p;

	for (p = strtok(arg, ","); p; p = strtok(NULL, ","))
		strv_push(s, p);
}

int
main(int argc, char *argv[])
{
	enum { OPT_BY = OPT_OWN, OPT_INTERACTIVE, OPT_NONFINITE };
	static const struct option longopts[] = {
		{ "block", required_argument, NULL, 'b' },
		{ "by", required_argument, NULL, OPT_BY },
		{ "config", required_argument, NULL, 'c' },
		{ "dispatch", required_argument, NULL, 'd' },
		{ "expr", required_argument, NULL, 'e' },
		{ "file", required_argument, NULL, 'f' },
		{ "gpu", required_argument, NULL, 'g' },
		{ "interactive", no_argument, NULL, OPT_INTERACTIVE },
		{ "kernel", required_argument, NULL, 'k' },
		{ "nonfinite", required_argument, NULL, OPT_NONFINITE },
		{ "normal-unit", required_argument, NULL, 'n' },
		OPT__COMMON
	};
	struct ofile of;
	int ch, rc = EXIT_SUCCESS;

	prog_init(argv[0]);
	prog_usage(usage);
	while ((ch = opt_next(argc, argv, "b:c:d:e:f:g:k:n:" OPT_COMMON_SHORT,
	    longopts)) != -1)
		switch (ch) {
		case 'b': push_list(&opt.blocks, optarg); break;
		case 'c': opt.config = optarg; break;
		case 'd': push_list(&opt.dispatches, optarg); break;
		case 'e': strv_push(&opt.exprs, optarg); break;
		case 'f': strv_push(&opt.files, optarg); break;
		case 'g': opt.gpu = optarg; break;
		case 'k': strv_push(&opt.kernels, optarg); break;
		case 'n': opt.norm = parse_norm(optarg); break;
		case OPT_BY:
			if (strcmp(optarg, "Kernel_Name") != 0)
				die_usage("--by: only Kernel_Name is "
				    "supported");
			opt.by = optarg;
			break;
		case OPT_INTERACTIVE: opt.interactive = 1; break;
		case OPT_NONFINITE:
			if (strcmp(optarg, "null") != 0 &&
			    strcmp(optarg, "string") != 0)
				die_usage("--nonfinite: '%s' is not null or "
				    "string", optarg);
			ndw_nonfinite_null(strcmp(optarg, "null") == 0);
			break;
		default: opt_common(ch, optarg, &opt.com, usage);
		}
	argc -= optind;
	argv += optind;
	if (!opt.config && !opt.files.n && !opt.exprs.n) {
		warn("no metric definitions: give -c, -f or -e");
		usage(EXIT_USAGE);
	}
	if (opt.interactive && (opt.by || opt.gpu || opt.kernels.n ||
	    opt.dispatches.n))
		die_usage("--interactive: the page chooses the dispatches; "
		    "give no --by, -d, -g or -k");
	bad.strict = opt.com.strict;
	if (opt.com.where)
		where = jqf_compile(opt.com.where);
	outfp = ofile_open(&of, opt.com.output);
	table_init(&tab);
	config_init(&conf, opt.norm);
	iconf_reset();
	progress_init(opt.com.progress, "dispatches");
	if (argc == 0)
		rc = metric_eval_stream("-");
	for (; argc > 0; argc--, argv++)
		if (metric_eval_stream(argv[0]) != EXIT_SUCCESS)
			rc = EXIT_FAILURE;
	progress_done();
	run_finish();
	if (bad_input_finish(&bad) != EXIT_SUCCESS || bad_sysinfo)
		rc = EXIT_FAILURE;
	rc = ofile_finish(&of, rc);
	if (where)
		jqf_free(where);
	config_release(&conf);
	for (ch = 0; ch < NNORMS; ch++)
		config_release(&iconf[ch]);
	table_release(&tab);
	panels_reset();
	free(opt.blocks.v);
	free(opt.dispatches.v);
	free(opt.exprs.v);
	free(opt.files.v);
	free(opt.kernels.v);
	strbuf_release(&run);
	return close_stdout() != 0 ? EXIT_FAILURE : rc;
}

/*
 * me.h: the parts of metric-eval: the dispatch table (data.c), the
 * expression compiler and evaluator (expr.c), the panel configs (config.c).
 */
#ifndef ME_H
#define ME_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "hmap.h"
#include "strbuf.h"

/* ---- the dispatch table (data.c) ---- */

/*
 * One stored column: a counter of one block, one value per row, kept as
 * floats while every value is exactly a float (most counters are small
 * integers) and widened to doubles at the first value that is not.
 */
struct column {
	const char *block;	/* "pmc_perf" or an accumulate file's name */
	const char *name;
	float *f;		/* narrow */
	double *v;		/* wide */
	int wide;
};

static inline double
col_get(const struct column *c, size_t row)
{
	return c->wide ? c->v[row] : (double)c->f[row];
}

/* What the key at one position of a record means (data.c). */
struct pos_ent {
	char *raw;		/* '"', the key, '"', ':' */
	char *key;		/* raw + 1: len bytes */
	size_t len;
	long col;		/* stored column, or -1 */
	int plain;		/* key has no '"' or '\\': its own JSON text */
	int what;		/* a key read for the filters, or a block */
};

/* A block: the top-level keys (pmc_perf) or one nested object. */
struct block {
	const char *name;
	struct hmap keys;	/* every key seen in the first record */
	struct hmap cols;	/* name -> (column index + 1) of stored ones */
	struct pos_ent *pos;	/* by position in the record */
	size_t npos, pos_alloc;
	long dur_col;		/* End_Timestamp - Start_Timestamp, or -1 */
	long ddur_col;		/* the same in doubles */
	int dur_mixed;		/* some timestamp was not an integer */
};

struct table {
	struct block *blocks;
	size_t nblocks;
	struct column *cols;
	size_t ncols, cols_alloc;
	size_t nrows, rows_alloc;
	/* Streaming (stream.c): the columns hold the rows from base on,
	 * chunk of them at most (0: every row). */
	size_t base, chunk;
	int have_schema;	/* the first dispatch record was seen */
	int rocpd;		/* *_ACCUM counters instead of nested blocks */
	/* Per row: kernel (index into kernels), GPU_ID text, Dispatch_ID text,
	 * duration and the position among all dispatch records. */
	uint32_t *kernel;
	const char **gpu, **dispatch_id;
	double *dur;
	size_t *label;
	struct hmap kernel_ids;	/* name -> index + 1 */
	const char **kernels;
	size_t nkernels;
	struct hmap sysinfo;	/* sysinfo key -> NUL-terminated text or NULL */
	int have_sysinfo;
	const char *bad_sysinfo[16];	/* keys reported as not numbers */
	int nbad_sysinfo;
	struct arena mem;
};

void table_init(struct table *t);
void table_release(struct table *t);
struct block *table_block(struct table *t, const char *name);
/* The stored column of a pmc_perf counter, or -1 (nothing is added). */
long table_pmc_col(struct table *t, const char *name);
/* Returns the index of the stored column, adding it if the key exists in
 * the block's schema; -1 if the block or key is absent. */
long table_column(struct table *t, const char *block, const char *name);
/*
 * The column End_Timestamp - Start_Timestamp of block, subtracted exactly
 * in 64-bit integers when both cells are integers (timestamps above 2^53),
 * as pandas does; -1 if the block lacks either column.
 */
long table_dur_column(struct table *t, const char *block);
/* Settles the duration columns once every row is read: pandas gives a
 * column one type, so one non-integer timestamp makes them all doubles. */
void table_finish(struct table *t);
/* The sysinfo value of key as text, or NULL when absent or empty. */
const char *table_sysinfo(struct table *t, const char *key);
/*
 * The sysinfo value of key as a number (truncated when is_int), read
 * whole: NaN when absent, empty, or not a number; the last is reported
 * once per key and counted in t->nbad_sysinfo.
 */
double table_sysinfo_num(struct table *t, const char *key, int is_int);
/* Records the first sysinfo record (a validated line). */
void table_sysinfo_record(struct table *t, const char *line, size_t len);
/* Learns the keys and nested blocks from the first dispatch record. */
void table_schema(struct table *t, const char *line, size_t len);
/* Adds one validated dispatch record as a row with the given label. */
void table_add_row(struct table *t, const char *line, size_t len,
    size_t label);
/*
 * Adds the dispatch record line as table_add_row() does, validating it
 * as it goes, when it is written as the records before it were (the same
 * keys in the same order, no blanks), its type is "dispatch" and its run
 * the raw JSON run (run_len 0: none).  Returns 0, or -1 with nothing
 * added: the caller takes the ordinary path (nd_fields(), then
 * table_add_row()).
 */
int table_add_row_fast(struct table *t, const char *line, size_t len,
    size_t label, const char *run, size_t run_len);

/* ---- expressions (expr.c) ---- */

enum vkind { V_NONE, V_SCAL, V_VEC, V_TEXT };

enum var_id {
	VAR_GRBM_GUI_ACTIVE_PER_XCD, VAR_GRBM_COUNT_PER_XCD,
	VAR_GRBM_SPI_BUSY_PER_XCD, VAR_NUM_ACTIVE_CUS, VAR_KERNEL_BUSY_CYCLES,
	VAR_HBM_BANDWIDTH, VAR_COUNT
};

/* Instructions of a compiled expression (postfix). */
enum op {
	OP_NUM, OP_NONE, OP_STR, OP_COL, OP_MISSING, OP_VAR,
	OP_NEG, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MODOP, OP_CMP, OP_SEL,
	OP_CALL, OP_AGG
};
/*
 * CMP_NONE_NE and CMP_NONE_EQ compare with the literal None as pandas
 * compares a column with None: != is true and == false for every row
 * (NaN rows included); with None on both sides as Python does.
 */
enum cmp {
	CMP_NE, CMP_EQ, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_NONE_NE,
	CMP_NONE_EQ
};
enum fn {
	FN_AVG, FN_SUM, FN_MIN, FN_MAX, FN_MEDIAN, FN_QUANTILE, FN_STD,
	FN_ROUND, FN_TO_INT, FN_MOD, FN_CONCAT
};

struct ins {
	uint8_t op, sub;
	uint16_t nargs;
	int32_t arg;		/* column, variable, sysinfo or OP_AGG slot */
	double num;
	uint8_t kind;		/* static kind of the value pushed */
};

struct prog {
	struct ins *ins;
	size_t n;
	int depth;		/* stack slots needed */
	int missing;		/* refers to a counter absent from the data */
	const char *missing_name;
	int kind;		/* static kind of the result (enum vkind) */
};

/* What the compiler resolves names against. */
struct compile_env {
	struct table *t;
	const char *block;	/* coll_level block, "pmc_perf" by default */
	int block_missing;	/* absent: a cell that reads it is blank */
	int strict_names;	/* an absent counter is an error (-e, -f) */
};

/*
 * Compiles text into p (memory from a).  Returns 0, or -1 with a message
 * in err (unknown function, unknown variable, syntax error).
 */
int expr_compile(const char *text, struct compile_env *env, struct prog *p,
    struct arena *a, struct strbuf *err);

/* The pmc_perf counters the built-in variables read ($GRBM_*_PER_XCD,
 * $numActiveCUs, $kernelBusyCycles). */
#define BUILTIN_NCOLS 6
extern const char *const builtin_cols[BUILTIN_NCOLS];

/* An aggregate's value computed while the rows streamed by (OP_AGG). */
struct aggval {
	int k;			/* V_SCAL or V_NONE */
	double s;
};

/* The rows an evaluation runs over, and the built-in variables for them. */
struct evctx {
	struct table *t;
	const size_t *idx;	/* row numbers; NULL: all rows 0..n-1 */
	size_t n;
	double *builtin_vec[VAR_COUNT];
	double builtin_scal[VAR_COUNT];
	int builtin_done[VAR_COUNT];
	double **pool;		/* spare vectors of n doubles */
	size_t npool, pool_alloc;
	const struct aggval *agg;	/* what OP_AGG pushes */
};

void evctx_init(struct evctx *c, struct table *t, const size_t *idx,
    size_t n);
void evctx_release(struct evctx *c);

/*
 * Evaluates a compiled cell.  Returns 1 with *out set to a finite or
 * infinite number, 0 for a blank cell (none, NaN, text), -1 when the
 * expression yields one value per dispatch instead of one value.
 */
int expr_eval(const struct prog *p, struct evctx *c, double *out);

/*
 * Evaluates e once and writes the five simple_box statistics (Min, Q1,
 * Median, Q3, Max) to out; ok[i] is 0 for a blank statistic.
 */
void expr_eval_box(const struct prog *p, struct evctx *c, double out[5],
    int ok[5]);

/*
 * Runs p (whose static kind is V_VEC) over the rows of c: returns the
 * kind of the result and, for V_VEC, its c->n values in out and whether
 * it is a nullable-integer vector in *masked.
 */
int expr_eval_rows(const struct prog *p, struct evctx *c, double *out,
    int *masked);
/* The one-argument aggregate f (FN_STD, FN_MEDIAN, FN_QUANTILE with q)
 * of the n values v, as AVG(...) of that vector evaluates it. */
double expr_aggregate(int f, const double *v, size_t n, int masked,
    double q);
/* The simple_box statistics of the n values v (see expr_eval_box). */
void expr_box(const double *v, size_t n, int masked, double out[5],
    int ok[5]);
/* The nullable-integer NA element (TO_INT of NaN). */
int expr_is_na(double x);

/*
 * Compensated (Neumaier) summation in doubles: as exact as pandas' sums
 * for our purposes, and the same on every machine (valgrind has no 80-bit
 * long double).  Infinities and NaN go through a plain sum.
 */
struct ksum {
	double s, c, plain;
	int nonfinite;
};

/* In the header: the loops that sum a column inline it. */
static inline void
ksum_add(struct ksum *k, double x)
{
	double t = k->s + x;

	k->plain += x;
	/* s stays finite, so a NaN or infinite x makes t so too. */
	if (!isfinite(t)) {
		k->nonfinite = 1;
		return;
	}
	if (fabs(k->s) >= fabs(x))
		k->c += (k->s - t) + x;
	else
		k->c += (x - t) + k->s;
	k->s = t;
}

double ksum_get(const struct ksum *k);

/* ---- configs (config.c) ---- */

enum { NORM_KERNEL, NORM_WAVE, NORM_CYCLE, NORM_SECOND };

struct mcell {
	const char *text;	/* YAML text; NULL: null */
	struct prog prog;	/* compiled when evaluated */
	int box;		/* simple_box: 1..5 = Min, Q1, ..., Max */
	int stream;		/* evaluated while streaming (stream.c) */
};

struct mrow {
	const char *name;
	const char *coll_level;	/* NULL: pmc_perf */
	const char *desc;	/* the panel's metrics_description, or NULL */
	struct mcell *cells;	/* one per column after the name column */
	int user;		/* from -e or a user file: names must exist */
};

struct mtable {
	int panel_id;
	const char *panel, *file;
	int table_id;
	const char *title;
	const char *name_title;	/* header title of the metric-name column */
	int name_evaluated;	/* that title is in the evaluated list */
	const char **cols;	/* titles after the name column */
	int *col_eval, *col_unit;
	size_t ncols;
	struct mrow *rows;
	size_t nrows;
	size_t order;		/* load order, for a stable sort */
	int heap_rows;		/* rows is malloc'ed (user metrics) */
};

struct config {
	struct mtable *tables;
	size_t ntables, alloc;
	struct arena mem;
	int norm;		/* index into norm_names */
};

/* The -n names, as rocprof-compute spells them; 0 (per_kernel) is the
 * default.  Every metric record names its normalization so. */
#define NNORMS 4
extern const char *const norm_names[NNORMS];

void config_init(struct config *cf, int norm);
void config_release(struct config *cf);
/* Loads every panel YAML file of dir (sorted by panel id); dies on error. */
void config_load_dir(struct config *cf, const char *dir, struct table *t);
/* Loads one YAML panel file (a user file). */
void config_load_file(struct config *cf, const char *path, struct table *t,
    int user);
/* Adds the user metric "NAME = EXPR". */
void config_add_user(struct config *cf, const char *def);
/* Sorts the tables by panel id (stable) and compiles every evaluated cell;
 * a bad definition is fatal, naming file, panel, metric and column. */
void config_compile(struct config *cf, struct table *t);
/* Writes the table's panel_id, panel, table_id ("2.1") and table. */
struct ndw;
void config_put_table(struct ndw *w, const struct mtable *mt);
/* Rewrites a Unit cell: "(Req + $normUnit)" and capitalize(). */
char *config_unit_text(struct config *cf, const char *s);

/* ---- the tables filled from the data (panels.c) ---- */

struct ndw;

/* The pmc_perf counters the roofline reads, in the order of panels.c. */
#define ROOF_NCOLS 34
extern const char *const roof_cols[ROOF_NCOLS];

/* Keep the run's first sysinfo and roofline records (validated lines). */
void panels_sysinfo(const char *line, size_t len);
void panels_roofline(const char *line, size_t len);
/* Forgets them (the next run starts). */
void panels_reset(void);
/* Asks t for the counter columns the roofline reads (before any row). */
void panels_prepare(struct table *t);

/* Where the records go: the writer, normalization and run (raw JSON, or
 * run_len 0) of every record, and the rows -b selects. */
struct panels_out {
	struct ndw *w;
	FILE *fp;
	const char *norm;
	const char *run;
	size_t run_len;
	int (*wanted)(int table_id, size_t row);
};

/*
 * Writes, over the rows idx, PANELS_FIRST: 0.1 Top Kernels, 0.2 Dispatch
 * List and 1.1 System Info; PANELS_ROOFLINE: 4.1 and 4.2 (or one line on
 * stderr saying why there is no roofline).
 */
enum { PANELS_FIRST, PANELS_ROOFLINE };
void panels_write(const struct panels_out *o, struct table *t,
    const size_t *idx, size_t n, int which);
/* Adds the roofline points of the rows in t's columns (the rows from
 * t->base on, n of them) to their kernels' sums, for panels_write(). */
void panels_stream(const struct table *t, size_t n);

/* ---- evaluating while the rows stream by (stream.c) ---- */

/*
 * Sets up streaming for the compiled definitions: each aggregate whose
 * argument reads only the dispatch's own values is computed chunk by
 * chunk (AVG, SUM, MIN, MAX keep running values; MEDIAN, QUANTILE, STD
 * and simple_box keep the argument's values), and only the columns of
 * the other cells are kept whole.  Call before the first row.
 */
void stream_begin(struct table *t, struct config *cf);
/* Evaluates the rows of t's columns when they are a chunk; at_end: the
 * last rows of the run, and the columns become the kept ones. */
void stream_rows(struct table *t, int at_end);
/* A streamed cell's value: as expr_eval() and expr_eval_box(). */
int stream_eval(const struct mcell *cell, double *out);
void stream_box(const struct mcell *cell, double out[5], int ok[5]);
/* Dispatches whose GRBM_GUI_ACTIVE is 0 (-1: no such column). */
long stream_grbm_zero(void);
void stream_release(void);

/* ---- the data a page re-evaluates (interactive.c) ---- */

struct interactive_out {
	FILE *fp;
	const char *norm;	/* the -n name */
	const char *run;	/* raw JSON, or run_len 0 */
	size_t run_len;
	int (*wanted)(int table_id, size_t row);
};

/*
 * Writes the dispatches, every stored column and every metric table with
 * its compiled cells; cf[n] is the configuration compiled for
 * normalization n (norm_names), all loaded alike.
 */
void interactive_write(const struct interactive_out *o, struct table *t,
    struct config *const cf[NNORMS]);

#endif

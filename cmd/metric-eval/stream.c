/*
 * stream.c: evaluates the metrics while the dispatch records stream by,
 * a chunk of rows at a time, so that memory does not grow with every
 * counter of every dispatch.
 *
 * An aggregate (AVG, SUM, MIN, MAX, STD, MEDIAN, QUANTILE) whose argument
 * reads only the dispatch's own values (counters, sysinfo numbers, the
 * per-dispatch built-ins) is a slot: its argument runs once per chunk,
 * and AVG, SUM, MIN and MAX keep running values (the same compensated sum
 * in the same row order as over the whole column, so the same bits),
 * while STD, MEDIAN, QUANTILE and a simple_box of one value per dispatch
 * keep the argument's values.  Cells that share an argument share its
 * slot.  What is left of a cell runs at the end over no rows, with each
 * aggregate replaced by its value (OP_AGG): a vector left outside any
 * aggregate only makes the cell blank, whatever its values.
 *
 * A duration column (End_Timestamp - Start_Timestamp) is exact in 64 bits
 * until one timestamp of its block is not an integer, which only the last
 * row settles: an argument that reads one has a twin that reads the
 * double one instead, and the end picks one.
 *
 * A cell that needs the whole run inside an aggregate (numActiveCUs,
 * kernelBusyCycles, an aggregate of an aggregate, durations of two
 * blocks, or TO_INT under a select) is evaluated as before, over whole
 * columns: those columns, and the duration columns, are kept.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "err.h"
#include "hmap.h"
#include "me.h"
#include "xmem.h"

#define CHUNK 1024		/* rows evaluated at a time */

enum { NEED_SUM = 1, NEED_MINMAX = 2, NEED_KEEP = 4 };

/* One aggregate argument and the running values of its aggregates. */
struct slot {
	struct prog arg;
	int needs;
	int none;		/* a chunk gave no numbers (none or text) */
	int nan;		/* a nullable-integer vector held a real NaN */
	int masked;
	struct ksum sum;
	size_t m;		/* values that are not NaN */
	int have;
	double min, max;
	double *keep;		/* NEED_KEEP: every row's value */
	size_t nkeep, keep_alloc;
	long twin, block;	/* the twin and its block, or -1 */
	size_t done;		/* the last chunk folded in, + 1 */
};

/* One aggregate of a cell: what OP_AGG n pushes. */
struct node {
	size_t slot;
	long twin;		/* with the double durations, or -1 */
	long block;		/* whose durations, or -1 */
	int f;
	double q;
};

/* A streamed cell: its program with the aggregates replaced, or the slot
 * of a simple_box of one value per dispatch. */
struct scell {
	struct prog fin;
	long box, twin, block;
};

/* A range of a program that is one aggregate. */
struct range {
	size_t start, arg_end, end;
	long block;		/* whose duration column it reads, or -1 */
	int f;
	double q;
};

static struct {
	struct slot *slots;
	size_t nslots, slots_alloc;
	struct node *nodes;
	size_t nnodes, nodes_alloc;
	struct aggval *agg;
	struct scell *cells;
	size_t ncells, cells_alloc;
	struct hmap slot_ids;	/* argument's instructions -> slot + 1 */
	char *keep;		/* per column: kept whole */
	double **full;		/* per kept column: every row */
	size_t ncols, full_alloc;
	size_t nchunks;
	long grbm;		/* the GRBM_GUI_ACTIVE column, or -1 */
	size_t grbm_zero;
	double *buf;
	struct evctx c0;	/* no rows, the aggregates' values */
	char *mixed;		/* per block: durations in doubles */
	struct arena mem;
	int on;
} st;

/* The block whose duration column col is, or -1. */
static long
dur_block(const struct table *t, long col)
{
	size_t i;

	for (i = 0; i < t->nblocks; i++)
		if (col >= 0 && t->blocks[i].dur_col == col)
			return (long)i;
	return -1;
}

/* The block whose durations ins[0..n) reads: -1 none, -2 several. */
static long
dur_blocks(const struct table *t, const struct ins *ins, size_t n)
{
	long b = -1, x;
	size_t i;

	for (i = 0; i < n; i++)
		if (ins[i].op == OP_COL &&
		    (x = dur_block(t, ins[i].arg)) >= 0) {
			if (b >= 0 && x != b)
				return -2;
			b = x;
		}
	return b;
}

/* Keeps the columns p reads, the built-ins' ones included. */
static void
keep_columns(struct table *t, const struct prog *p)
{
	static const char *const deps[] = { "GRBM_GUI_ACTIVE", "GRBM_COUNT",
	    "GRBM_SPI_BUSY", "SQ_BUSY_CU_CYCLES", "Start_Timestamp",
	    "End_Timestamp" };
	size_t i, k;
	long col;

	for (i = 0; i < p->n; i++)
		if (p->ins[i].op == OP_COL)
			st.keep[p->ins[i].arg] = 1;
		else if (p->ins[i].op == OP_VAR)
			for (k = 0; k < sizeof(deps) / sizeof(deps[0]); k++)
				if ((col = table_pmc_col(t, deps[k])) >= 0)
					st.keep[col] = 1;
}

static int
need_of(int f)
{
	if (f == FN_AVG || f == FN_SUM)
		return NEED_SUM;
	if (f == FN_MIN || f == FN_MAX)
		return NEED_MINMAX;
	return NEED_KEEP;
}

/*
 * Copies ins[0..n) to out without the divisions and multiplications of a
 * vector by the literal 1 ("X / $denom" with the default -n per_kernel),
 * which give every element's bits back, NaN and the nullable integers'
 * missing included; returns how many instructions are left.
 */
static size_t
drop_ones(const struct ins *ins, size_t n, struct ins *out)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if ((ins[i].op == OP_DIV || ins[i].op == OP_MUL) &&
		    ins[i].kind == V_VEC && k >= 2 &&
		    out[k - 1].op == OP_NUM && out[k - 1].num == 1 &&
		    out[k - 2].kind == V_VEC) {
			k--;	/* the 1 goes, and the operation */
			continue;
		}
		out[k++] = ins[i];
	}
	return k;
}

/* The slot of the argument ins[0..n), made if new. */
static size_t
slot_for(const struct ins *ins0, size_t n0, int depth, int need)
{
	struct strbuf key = STRBUF_INIT;
	struct ins *ins = xreallocarray(NULL, n0 + 1, sizeof(*ins));
	struct slot *s;
	void **id;
	size_t i, n = drop_ones(ins0, n0, ins);
	int isnew;

	for (i = 0; i < n; i++) {
		strbuf_add(&key, (const char *)&ins[i].op, 1);
		strbuf_add(&key, (const char *)&ins[i].sub, 1);
		strbuf_add(&key, (const char *)&ins[i].nargs, 2);
		strbuf_add(&key, (const char *)&ins[i].arg, 4);
		strbuf_add(&key, (const char *)&ins[i].num, 8);
	}
	id = hmap_put2(&st.slot_ids, key.buf, key.len, &isnew);
	strbuf_release(&key);
	if (!isnew) {
		free(ins);
		st.slots[(intptr_t)*id - 1].needs |= need;
		return (size_t)((intptr_t)*id - 1);
	}
	XGROW(st.slots, st.nslots + 1, st.slots_alloc);
	s = &st.slots[st.nslots];
	memset(s, 0, sizeof(*s));
	s->arg.ins = arena_alloc(&st.mem, n * sizeof(*ins));
	memcpy(s->arg.ins, ins, n * sizeof(*ins));
	free(ins);
	s->arg.n = n;
	s->arg.depth = depth;
	s->arg.kind = V_VEC;
	s->needs = need;
	s->twin = s->block = -1;
	*id = (void *)(intptr_t)(st.nslots + 1);
	return st.nslots++;
}

static int
is_aggregate(const struct ins *in)
{
	return in->op == OP_CALL && (in->sub == FN_AVG || in->sub == FN_SUM ||
	    in->sub == FN_STD || in->sub == FN_MEDIAN ||
	    in->sub == FN_QUANTILE || ((in->sub == FN_MIN ||
	    in->sub == FN_MAX) && in->nargs == 1));
}

/* QUANTILE's q when ins[a..b] is a constant; -1 otherwise. */
static int
const_q(const struct ins *ins, size_t a, size_t b, double *q)
{
	if (a == b && ins[a].op == OP_NUM) {
		*q = ins[a].num;
		return 0;
	}
	if (b == a + 1 && ins[a].op == OP_NUM && ins[b].op == OP_NEG) {
		*q = -ins[a].num;
		return 0;
	}
	return -1;
}

/*
 * Finds the aggregates of p whose argument is per dispatch: 0 with them
 * in r (at most p->n), or -1 when p cannot be streamed.
 */
static int
find_ranges(struct table *t, const struct prog *p, struct range *r,
    size_t *nr)
{
	size_t start[256], i, s0, a_end;
	int sp = 0, sel = 0, toint = 0, nargs;
	const struct ins *in;

	*nr = 0;
	for (i = 0; i < p->n; i++) {
		in = &p->ins[i];
		nargs = in->nargs;
		if (nargs > sp || sp >= 256)
			return -1;
		s0 = nargs ? start[sp - nargs] : i;
		if (in->op == OP_VAR && (in->arg == VAR_NUM_ACTIVE_CUS ||
		    in->arg == VAR_KERNEL_BUSY_CYCLES))
			return -1;
		sel |= in->op == OP_SEL;
		toint |= in->op == OP_CALL && in->sub == FN_TO_INT &&
		    p->ins[i - 1].kind == V_VEC;
		a_end = (nargs > 1 ? start[sp - nargs + 1] : i) - 1;
		if (is_aggregate(in) && p->ins[a_end].kind == V_VEC) {
			if (*nr > 0 && r[*nr - 1].start >= s0)
				return -1;	/* an aggregate inside */
			r[*nr].start = s0;
			r[*nr].arg_end = a_end;
			r[*nr].end = i;
			r[*nr].f = in->sub;
			r[*nr].q = NAN;
			r[*nr].block = dur_blocks(t, p->ins + s0,
			    a_end - s0 + 1);
			if (r[*nr].block == -2)
				return -1;
			if (in->sub == FN_QUANTILE &&
			    const_q(p->ins, a_end + 1, i - 1, &r[*nr].q) != 0)
				return -1;
			(*nr)++;
		}
		sp -= nargs;
		start[sp++] = s0;
	}
	return sel && toint ? -1 : 0;
}

/* The twin of the argument ins[0..n) that reads the double durations of
 * block b; -1 when b is -1. */
static long
twin_for(struct table *t, const struct ins *ins, size_t n, int depth,
    int need, long b)
{
	struct ins *c;
	size_t i, s;

	if (b < 0)
		return -1;
	c = xreallocarray(NULL, n + 1, sizeof(*c));
	memcpy(c, ins, n * sizeof(*c));
	for (i = 0; i < n; i++)
		if (c[i].op == OP_COL && c[i].arg == t->blocks[b].dur_col)
			c[i].arg = (int32_t)t->blocks[b].ddur_col;
	s = slot_for(c, n, depth, need);
	free(c);
	i = slot_for(ins, n, depth, need);
	st.slots[i].twin = (long)s;
	st.slots[i].block = b;
	return (long)s;
}

/* The program p with the aggregates r replaced by OP_AGG instructions. */
static void
final_prog(struct table *t, const struct prog *p, const struct range *r,
    size_t nr, struct prog *fin)
{
	size_t i, j = 0, k;
	struct ins *out = arena_alloc(&st.mem, (p->n + 1) * sizeof(*out));
	struct node *nd;

	*fin = *p;
	for (i = k = 0; i < p->n; i++) {
		if (j < nr && i == r[j].start) {
			XGROW(st.nodes, st.nnodes + 1, st.nodes_alloc);
			nd = &st.nodes[st.nnodes];
			nd->slot = slot_for(p->ins + r[j].start,
			    r[j].arg_end - r[j].start + 1, p->depth,
			    need_of(r[j].f));
			nd->twin = twin_for(t, p->ins + r[j].start,
			    r[j].arg_end - r[j].start + 1, p->depth,
			    need_of(r[j].f), r[j].block);
			nd->block = r[j].block;
			nd->f = r[j].f;
			nd->q = r[j].q;
			memset(&out[k], 0, sizeof(out[k]));
			out[k].op = OP_AGG;
			out[k].arg = (int32_t)st.nnodes++;
			out[k++].kind = V_SCAL;
			i = r[j++].end;
			continue;
		}
		out[k++] = p->ins[i];
	}
	fin->ins = out;
	fin->n = k;
}

/* Plans one evaluated cell: its index + 1 among the streamed ones, or 0
 * when it is evaluated over whole columns. */
static int
plan(struct table *t, const struct prog *p, int box)
{
	struct range *r;
	struct scell *sc;
	size_t nr;

	r = xreallocarray(NULL, p->n + 1, sizeof(*r));
	if (p->kind != V_NONE && find_ranges(t, p, r, &nr) != 0) {
		free(r);
		return 0;
	}
	if (p->kind != V_NONE && box && p->kind == V_VEC && nr > 0) {
		free(r);
		return 0;
	}
	XGROW(st.cells, st.ncells + 1, st.cells_alloc);
	sc = &st.cells[st.ncells];
	sc->box = sc->twin = sc->block = -1;
	sc->fin = *p;
	if (p->kind == V_VEC) {
		sc->block = dur_blocks(t, p->ins, p->n);
		if (sc->block == -2) {
			free(r);
			return 0;
		}
		sc->box = (long)slot_for(p->ins, p->n, p->depth, NEED_KEEP);
		sc->twin = twin_for(t, p->ins, p->n, p->depth, NEED_KEEP,
		    sc->block);
	} else if (p->kind != V_NONE) {
		final_prog(t, p, r, nr, &sc->fin);
	}
	free(r);
	return (int)++st.ncells;
}

void
stream_begin(struct table *t, struct config *cf)
{
	size_t i, j, k;
	struct mtable *mt;
	struct mcell *cell;

	memset(&st, 0, sizeof(st));
	arena_init(&st.mem, 1 << 16);
	hmap_init(&st.slot_ids, 256);
	st.on = 1;
	st.ncols = t->ncols;
	st.keep = xcalloc(t->ncols + 1, 1);
	st.full = xcalloc(t->ncols + 1, sizeof(*st.full));
	for (i = 0; i < t->nblocks; i++)
		if (t->blocks[i].dur_col >= 0)
			st.keep[t->blocks[i].dur_col] =
			    st.keep[t->blocks[i].ddur_col] = 1;
	for (i = 0; i < cf->ntables; i++) {
		mt = &cf->tables[i];
		for (j = 0; j < mt->nrows; j++)
			for (k = 0; k < mt->ncols; k++) {
				cell = &mt->rows[j].cells[k];
				cell->stream = 0;
				if (!mt->col_eval[k] || !cell->text ||
				    cell->box > 1)
					continue;
				cell->stream = plan(t, &cell->prog,
				    cell->box == 1);
				if (!cell->stream)
					keep_columns(t, &cell->prog);
			}
	}
	st.grbm = table_pmc_col(t, "GRBM_GUI_ACTIVE");
	for (i = 0; i < t->ncols; i++) {
		free(t->cols[i].f);
		free(t->cols[i].v);
		t->cols[i].f = NULL;
		t->cols[i].v = xreallocarray(NULL, CHUNK, sizeof(double));
		t->cols[i].wide = 1;
	}
	st.buf = xreallocarray(NULL, CHUNK, sizeof(double));
	t->chunk = CHUNK;
	t->base = t->nrows;
}

/*
 * The running sum (when sum), minimum and maximum (when mm) of the values
 * of v that are not NaN; returns how many there are.  The extremes start
 * from +inf and -inf when none came before, which gives the first value's
 * bits, -0 included.  Called with constant flags, it is inlined as one
 * loop for each need; the sum and extremes are kept in locals, which the
 * loads of v cannot alias.
 */
static inline __attribute__((always_inline)) size_t
fold_loop(struct ksum *k, double *minp, double *maxp, const double *v,
    size_t n, int sum, int mm)
{
	struct ksum ks = *k;
	double min = *minp, max = *maxp, x;
	size_t i, m = 0;

	for (i = 0; i < n; i++) {
		x = v[i];
		if (isnan(x))
			continue;
		m++;
		if (sum)
			ksum_add(&ks, x);
		if (mm) {
			min = x < min ? x : min;
			max = x > max ? x : max;
		}
	}
	*k = ks;
	*minp = min;
	*maxp = max;
	return m;
}

/* Adds the n values v of one chunk to slot s. */
static void
fold(struct slot *s, const double *v, size_t n, int masked)
{
	size_t i, m;

	if (s->needs & NEED_KEEP) {
		XGROW(s->keep, s->nkeep + n, s->keep_alloc);
		memcpy(s->keep + s->nkeep, v, n * sizeof(double));
		s->nkeep += n;
	}
	for (i = 0; masked && i < n; i++)
		if (isnan(v[i]) && !expr_is_na(v[i]))
			s->nan = 1;
	if ((s->needs & NEED_MINMAX) && !s->have) {
		s->min = INFINITY;
		s->max = -INFINITY;
	}
	if ((s->needs & NEED_SUM) && (s->needs & NEED_MINMAX))
		m = fold_loop(&s->sum, &s->min, &s->max, v, n, 1, 1);
	else if (s->needs & NEED_SUM)
		m = fold_loop(&s->sum, &s->min, &s->max, v, n, 1, 0);
	else if (s->needs & NEED_MINMAX)
		m = fold_loop(&s->sum, &s->min, &s->max, v, n, 0, 1);
	else
		m = fold_loop(&s->sum, &s->min, &s->max, v, n, 0, 0);
	if (s->needs & NEED_MINMAX)
		s->have |= m > 0;
	s->m += m;
}

/* Appends the chunk's rows of the kept columns. */
static void
keep_rows(struct table *t, size_t n)
{
	size_t i, need = t->base + n;

	if (need > st.full_alloc) {
		st.full_alloc = xgrow_room(st.full_alloc, need);
		for (i = 0; i < st.ncols; i++)
			if (st.keep[i])
				st.full[i] = xreallocarray(st.full[i],
				    st.full_alloc, sizeof(double));
	}
	for (i = 0; i < st.ncols; i++)
		if (st.keep[i])
			memcpy(st.full[i] + t->base, t->cols[i].v,
			    n * sizeof(double));
}

/* The value of aggregate node n once every row is in. */
static struct aggval
node_value(const struct table *t, const struct node *n)
{
	const struct slot *s = &st.slots[n->twin >= 0 &&
	    t->blocks[n->block].dur_mixed ? (size_t)n->twin : n->slot];
	struct aggval v = { V_SCAL, NAN };

	if (s->none) {
		if (n->f != FN_AVG && n->f != FN_MIN && n->f != FN_MAX &&
		    n->f != FN_SUM)
			v.k = V_NONE;
		return v;
	}
	if (s->nan)
		return v;
	switch (n->f) {
	case FN_AVG:
		v.s = s->m ? ksum_get(&s->sum) / (double)s->m : NAN;
		break;
	case FN_SUM:
		v.s = ksum_get(&s->sum);
		break;
	case FN_MIN:
		v.s = s->have ? s->min : NAN;
		break;
	case FN_MAX:
		v.s = s->have ? s->max : NAN;
		break;
	default:
		v.s = expr_aggregate(n->f, s->keep, s->nkeep, s->masked, n->q);
		break;
	}
	return v;
}

/* The run is read: the kept columns become the table's, every row. */
static void
finish(struct table *t)
{
	size_t i;

	for (i = 0; i < t->ncols; i++) {
		free(t->cols[i].v);
		t->cols[i].v = i < st.ncols ? st.full[i] : NULL;
		t->cols[i].wide = 1;
		if (i < st.ncols)
			st.full[i] = NULL;
	}
	t->chunk = 0;
	t->base = 0;
	st.agg = xreallocarray(NULL, st.nnodes + 1, sizeof(*st.agg));
	for (i = 0; i < st.nnodes; i++)
		st.agg[i] = node_value(t, &st.nodes[i]);
	evctx_init(&st.c0, t, NULL, 0);
	st.c0.agg = st.agg;
	st.mixed = xcalloc(t->nblocks + 1, 1);
	for (i = 0; i < t->nblocks; i++)
		st.mixed[i] = (char)t->blocks[i].dur_mixed;
}

/* Does some row of the chunk have a duration in doubles that differs
 * from the exact one in block b? */
static int
durations_differ(const struct table *t, long b, size_t n)
{
	const double *x = t->cols[t->blocks[b].dur_col].v;
	const double *y = t->cols[t->blocks[b].ddur_col].v;

	return memcmp(x, y, n * sizeof(double)) != 0;
}

/* Folds the chunk's values of slot s (and of its twin when the chunk's
 * durations are the same in doubles). */
static void
eval_slot(struct table *t, struct evctx *c, struct slot *s, size_t n)
{
	struct slot *tw = s->twin >= 0 ? &st.slots[s->twin] : NULL;
	int masked = 0, k;

	if (s->done == st.nchunks)
		return;
	s->done = st.nchunks;
	if (tw && durations_differ(t, s->block, n))
		tw = NULL;
	if (tw)
		tw->done = st.nchunks;
	k = expr_eval_rows(&s->arg, c, st.buf, &masked);
	if (k != V_VEC) {
		s->none = 1;
		if (tw)
			tw->none = 1;
		return;
	}
	s->masked |= masked;
	fold(s, st.buf, n, masked);
	if (tw) {
		tw->masked |= masked;
		fold(tw, st.buf, n, masked);
	}
}

void
stream_rows(struct table *t, int at_end)
{
	size_t n = t->nrows - t->base, i;
	struct evctx c;

	if (!st.on || (!at_end && n < t->chunk))
		return;
	st.nchunks++;
	evctx_init(&c, t, NULL, n);
	for (i = 0; i < st.nslots; i++)
		eval_slot(t, &c, &st.slots[i], n);
	evctx_release(&c);
	keep_rows(t, n);
	for (i = 0; st.grbm >= 0 && i < n; i++)
		if (t->cols[st.grbm].v[i] == 0)
			st.grbm_zero++;
	panels_stream(t, n);
	t->base = t->nrows;
	if (at_end)
		finish(t);
}

int
stream_eval(const struct mcell *cell, double *out)
{
	return expr_eval(&st.cells[cell->stream - 1].fin, &st.c0, out);
}

void
stream_box(const struct mcell *cell, double out[5], int ok[5])
{
	const struct scell *sc = &st.cells[cell->stream - 1];
	const struct slot *s;

	if (sc->box < 0) {
		expr_eval_box(&sc->fin, &st.c0, out, ok);
		return;
	}
	s = &st.slots[sc->twin >= 0 && st.mixed[sc->block] ? sc->twin :
	    sc->box];
	memset(ok, 0, 5 * sizeof(int));
	if (!s->none)
		expr_box(s->keep, s->nkeep, s->masked, out, ok);
}

long
stream_grbm_zero(void)
{
	return st.grbm < 0 ? -1 : (long)st.grbm_zero;
}

void
stream_release(void)
{
	size_t i;

	if (!st.on)
		return;
	for (i = 0; i < st.nslots; i++)
		free(st.slots[i].keep);
	for (i = 0; i < st.ncols; i++)
		free(st.full[i]);
	free(st.slots);
	free(st.nodes);
	free(st.agg);
	free(st.cells);
	free(st.keep);
	free(st.full);
	free(st.mixed);
	free(st.buf);
	evctx_release(&st.c0);
	hmap_release(&st.slot_ids);
	arena_release(&st.mem);
	memset(&st, 0, sizeof(st));
}

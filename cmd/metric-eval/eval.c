/*
 * eval.c: runs a compiled expression over the rows of an evaluation
 * context, one instruction at a time over whole vectors, with the NaN,
 * infinity and nullable-integer rules of rocprof-compute 3.3.0 (pandas).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "me.h"
#include "xmem.h"

/* The "missing" element of a nullable-integer vector (from TO_INT). */
#define NA_BITS 0x7ff80000000a11a1ULL

struct val {
	int k;			/* enum vkind */
	int own;		/* v is a pool buffer of this evaluation */
	int masked;		/* nullable-integer vector: NA elements */
	double s;
	double *v;
};

static double
na_value(void)
{
	uint64_t b = NA_BITS;
	double d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

static int
is_na(double x)
{
	uint64_t b;

	memcpy(&b, &x, sizeof(b));
	return b == NA_BITS;
}

void
evctx_init(struct evctx *c, struct table *t, const size_t *idx, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->t = t;
	c->idx = idx;
	c->n = n;
}

void
evctx_release(struct evctx *c)
{
	size_t i;

	for (i = 0; i < VAR_COUNT; i++)
		free(c->builtin_vec[i]);
	for (i = 0; i < c->npool; i++)
		free(c->pool[i]);
	free(c->pool);
}

static double *
buf_get(struct evctx *c)
{
	double *b;

	if (c->npool > 0)
		return c->pool[--c->npool];
	b = xmalloc((c->n ? c->n : 1) * sizeof(double));
	return b;
}

static void
buf_put(struct evctx *c, double *b)
{
	XGROW(c->pool, c->npool + 1, c->pool_alloc);
	c->pool[c->npool++] = b;
}

static void
val_drop(struct evctx *c, struct val *v)
{
	if (v->k == V_VEC && v->own)
		buf_put(c, v->v);
	v->k = V_NONE;
	v->own = 0;
}

/* a, dropped, becomes the vector o (a buffer of this evaluation). */
static void
val_become(struct evctx *c, struct val *a, double *o, int masked)
{
	val_drop(c, a);
	a->k = V_VEC;
	a->v = o;
	a->own = 1;
	a->masked = masked;
}

/* A vector of column col over the context's rows. */
static void
load_column(struct evctx *c, long col, struct val *out)
{
	const struct column *src = &c->t->cols[col];
	size_t i;

	out->k = V_VEC;
	out->masked = 0;
	if (!c->idx && src->wide) {
		out->v = src->v;
		out->own = 0;
		return;
	}
	out->v = buf_get(c);
	out->own = 1;
	if (src->wide)
		for (i = 0; i < c->n; i++)
			out->v[i] = src->v[c->idx[i]];
	else if (!c->idx)
		for (i = 0; i < c->n; i++)
			out->v[i] = src->f[i];
	else
		for (i = 0; i < c->n; i++)
			out->v[i] = src->f[c->idx[i]];
}

static double
py_mod(double a, double b)
{
	double r = fmod(a, b);

	if (r != 0 && ((r < 0) != (b < 0)))
		r += b;
	return r;
}

static double
apply(int op, int sub, double a, double b)
{
	switch (op) {
	case OP_ADD: return a + b;
	case OP_SUB: return a - b;
	case OP_MUL: return a * b;
	case OP_DIV: return a / b;
	case OP_MODOP: return py_mod(a, b);
	case OP_CMP:
		switch (sub) {
		case CMP_NE: return !(a == b);
		case CMP_EQ: return a == b;
		case CMP_LT: return a < b;
		case CMP_LE: return a <= b;
		case CMP_GT: return a > b;
		default: return a >= b;
		}
	}
	return NAN;
}

/* The output buffer for an element-wise result of a and b. */
static double *
out_buf(struct evctx *c, struct val *a, struct val *b)
{
	double *o;

	if (a->k == V_VEC && a->own) {
		a->own = 0;
		return a->v;
	}
	if (b && b->k == V_VEC && b->own) {
		b->own = 0;
		return b->v;
	}
	o = buf_get(c);
	return o;
}

#define LOOP(expr) do { \
	if (x && y) for (i = 0; i < n; i++) { double xa = x[i], yb = y[i]; \
	    o[i] = (expr); } \
	else if (x) for (i = 0; i < n; i++) { double xa = x[i], yb = ys; \
	    o[i] = (expr); } \
	else for (i = 0; i < n; i++) { double xa = xs, yb = y[i]; \
	    o[i] = (expr); } \
} while (0)

/*
 * a = (a != None) or (a == None): the same answer for every row of a
 * (see enum cmp); a none or text a stays none.
 */
static void
cmp_none(struct evctx *c, int sub, struct val *a)
{
	double r = sub == CMP_NONE_NE ? 1 : 0;
	double *o;
	size_t i;

	if (a->k == V_SCAL) {
		a->s = r;
		return;
	}
	if (a->k != V_VEC) {
		val_drop(c, a);
		return;
	}
	o = buf_get(c);
	for (i = 0; i < c->n; i++)
		o[i] = r;
	val_become(c, a, o, 0);
}

/* a = a op b; b is consumed. */
static void
binop(struct evctx *c, int op, int sub, struct val *a, struct val *b)
{
	const double *x, *y;
	double xs, ys, *o, na;
	size_t i, n = c->n;
	int masked;

	if (a->k == V_NONE || b->k == V_NONE || a->k == V_TEXT ||
	    b->k == V_TEXT) {
		val_drop(c, a);
		val_drop(c, b);
		return;
	}
	if (a->k == V_SCAL && b->k == V_SCAL) {
		a->s = apply(op, sub, a->s, b->s);
		return;
	}
	x = a->k == V_VEC ? a->v : NULL;
	y = b->k == V_VEC ? b->v : NULL;
	xs = a->s;
	ys = b->s;
	masked = (x && a->masked) || (y && b->masked);
	o = out_buf(c, a, b);
	if (masked) {
		na = na_value();
		LOOP(is_na(xa) || is_na(yb) ? na : apply(op, sub, xa, yb));
	} else {
		switch (op) {
		case OP_ADD: LOOP(xa + yb); break;
		case OP_SUB: LOOP(xa - yb); break;
		case OP_MUL: LOOP(xa * yb); break;
		case OP_DIV: LOOP(xa / yb); break;
		default: LOOP(apply(op, sub, xa, yb)); break;
		}
	}
	val_drop(c, b);
	val_become(c, a, o, masked);
}

/* x if cond else y, element-wise; the result goes to x. */
static void
select3(struct evctx *c, struct val *x, struct val *cd, struct val *y)
{
	size_t i, n = c->n;
	double *o, xv, cv, yv;

	if (x->k == V_NONE || cd->k == V_NONE || x->k == V_TEXT ||
	    cd->k == V_TEXT) {
		val_drop(c, x);
		val_drop(c, cd);
		val_drop(c, y);
		return;
	}
	if (y->k != V_SCAL && y->k != V_VEC) {
		val_drop(c, y);
		y->k = V_SCAL;
		y->s = NAN;
	}
	if (x->k == V_SCAL && cd->k == V_SCAL && y->k == V_SCAL) {
		x->s = cd->s != 0 ? x->s : y->s;
		return;
	}
	o = out_buf(c, x, cd);
	if (o == x->v || o == cd->v) {
		/* in place is safe: element i only reads index i */
	}
	for (i = 0; i < n; i++) {
		xv = x->k == V_VEC ? x->v[i] : x->s;
		cv = cd->k == V_VEC ? cd->v[i] : cd->s;
		yv = y->k == V_VEC ? y->v[i] : y->s;
		o[i] = cv != 0 ? xv : yv;
	}
	{
		int masked = (x->k == V_VEC && x->masked) ||
		    (y->k == V_VEC && y->masked);

		val_drop(c, cd);
		val_drop(c, y);
		val_become(c, x, o, masked);
	}
}

/*
 * Copies the values an aggregate uses into buf: NaN skipped, or for a
 * nullable-integer vector NA skipped and a real NaN reported in *nan.
 */
static size_t
collect(struct evctx *c, const struct val *a, double *buf, int *nan)
{
	size_t i, m = 0;

	*nan = 0;
	for (i = 0; i < c->n; i++) {
		double x = a->v[i];

		if (isnan(x)) {
			if (a->masked && !is_na(x))
				*nan = 1;
			continue;
		}
		buf[m++] = x;
	}
	return m;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
quantile_sorted(const double *x, size_t n, double q)
{
	double h, t;
	size_t i;

	if (n == 0 || !(q >= 0 && q <= 1))
		return NAN;	/* pandas: q outside [0, 1] is an error */
	h = (double)(n - 1) * q;
	i = (size_t)floor(h);
	t = h - (double)i;
	if (t == 0 || i + 1 >= n)
		return x[i];
	if (t < 0.5)
		return x[i] + (x[i + 1] - x[i]) * t;
	return x[i + 1] - (x[i + 1] - x[i]) * (1 - t);
}

static double
median_sorted(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	if (n % 2)
		return x[n / 2];
	return (x[n / 2 - 1] + x[n / 2]) / 2;
}

double
ksum_get(const struct ksum *k)
{
	return k->nonfinite ? k->plain : k->s + k->c;
}

/* One-argument aggregate of a vector. */
static double
aggregate(struct evctx *c, int f, const struct val *a, double q)
{
	double *buf = buf_get(c), r = NAN, mean;
	struct ksum sum = { 0, 0, 0, 0 }, dev = { 0, 0, 0, 0 };
	size_t m, i;
	int nan;

	m = collect(c, a, buf, &nan);
	if (nan) {
		buf_put(c, buf);
		return NAN;
	}
	switch (f) {
	case FN_AVG: case FN_SUM: case FN_STD:
		for (i = 0; i < m; i++)
			ksum_add(&sum, buf[i]);
		if (f == FN_SUM)
			r = ksum_get(&sum);
		else if (f == FN_AVG)
			r = m ? ksum_get(&sum) / (double)m : NAN;
		else if (m >= 2) {
			mean = ksum_get(&sum) / (double)m;
			for (i = 0; i < m; i++)
				ksum_add(&dev,
				    (buf[i] - mean) * (buf[i] - mean));
			r = sqrt(ksum_get(&dev) / (double)(m - 1));
		}
		break;
	case FN_MIN: case FN_MAX:
		for (i = 0; i < m; i++)
			if (i == 0 || (f == FN_MIN ? buf[i] < r : buf[i] > r))
				r = buf[i];
		break;
	case FN_MEDIAN: case FN_QUANTILE:
		if (m > 1)
			qsort(buf, m, sizeof(double), cmp_double);
		r = f == FN_MEDIAN ? median_sorted(buf, m) :
		    quantile_sorted(buf, m, q);
		break;
	}
	buf_put(c, buf);
	return r;
}

static double
round_to(double x, double nd)
{
	double p;

	if (nd == 0 || !isfinite(nd))
		return rint(x);
	if (nd != trunc(nd))
		return NAN;	/* digits must be an integer */
	if (nd > 330)		/* finer than any double: unchanged */
		return x;
	if (nd < -330)
		return copysign(0, x);
	p = pow(10, nd);
	return nd > 0 ? rint(x * p) / p : rint(x / pow(10, -nd)) * pow(10, -nd);
}

/*
 * Python's round(x, nd) of one float: the exact binary value rounded half
 * to even at nd decimals (glibc's printf rounds the exact value so), read
 * back; round(2.675, 2) is 2.67.  numpy's element-wise round is
 * round_to().
 */
static double
py_round(double x, double nd)
{
	char buf[720];

	if (!(nd > 0 && nd <= 330 && nd == trunc(nd)) || !isfinite(x))
		return round_to(x, nd);
	snprintf(buf, sizeof(buf), "%.*f", (int)nd, x);
	return strtod(buf, NULL);
}

/* TO_INT: a vector keeps integral values, NaN becomes NA; any other value
 * makes the whole result none. */
static void
to_int(struct evctx *c, struct val *a)
{
	size_t i;
	double *o, na = na_value();

	if (a->k == V_SCAL) {
		if (isfinite(a->s))
			a->s = trunc(a->s);
		else
			a->k = V_NONE;
		return;
	}
	if (a->k != V_VEC)
		return;
	for (i = 0; i < c->n; i++)
		if (!isnan(a->v[i]) && (!isfinite(a->v[i]) ||
		    a->v[i] != trunc(a->v[i]))) {
			val_drop(c, a);
			return;
		}
	o = out_buf(c, a, NULL);
	for (i = 0; i < c->n; i++)
		o[i] = isnan(a->v[i]) ? na : a->v[i];
	val_become(c, a, o, 1);
}

/* Element-wise MIN/MAX of two values (numpy: NaN propagates), or
 * Python's min/max of two scalars (the first wins ties and NaN). */
static void
minmax2(struct evctx *c, int f, struct val *a, struct val *b)
{
	size_t i, n = c->n;
	double *o, x, y;

	if (a->k != V_SCAL && a->k != V_VEC) {
		val_drop(c, b);
		return;
	}
	if (b->k != V_SCAL && b->k != V_VEC) {
		val_drop(c, a);
		return;
	}
	if (a->k == V_SCAL && b->k == V_SCAL) {
		if (f == FN_MIN ? b->s < a->s : b->s > a->s)
			a->s = b->s;
		return;
	}
	o = out_buf(c, a, b);
	for (i = 0; i < n; i++) {
		x = a->k == V_VEC ? a->v[i] : a->s;
		y = b->k == V_VEC ? b->v[i] : b->s;
		if (isnan(x) || isnan(y))
			o[i] = isnan(x) ? x : y;
		else
			o[i] = f == FN_MIN ? (y < x ? y : x) : (y > x ? y : x);
	}
	val_drop(c, b);
	val_become(c, a, o, 0);
}

static void
call(struct evctx *c, int f, int nargs, struct val *a)
{
	double r;
	size_t i;

	switch (f) {
	case FN_MIN: case FN_MAX:
		if (nargs == 2) {
			minmax2(c, f, &a[0], &a[1]);
			return;
		}
		/* FALLTHROUGH */
	case FN_AVG: case FN_SUM: case FN_MEDIAN: case FN_STD:
	case FN_QUANTILE:
		if (a[0].k == V_VEC) {
			r = aggregate(c, f, &a[0], nargs == 2 &&
			    a[1].k == V_SCAL ? a[1].s : NAN);
			val_drop(c, &a[0]);
			a[0].k = V_SCAL;
			a[0].s = r;
		} else if (a[0].k == V_NONE || a[0].k == V_TEXT) {
			/* AVG/MIN/MAX of none is NaN, the others none. */
			a[0].k = f == FN_AVG || f == FN_MIN || f == FN_MAX ||
			    f == FN_SUM ? V_SCAL : V_NONE;
			a[0].s = NAN;
		} else if (f == FN_STD) {
			a[0].s = NAN;
		}
		if (nargs == 2)
			val_drop(c, &a[1]);
		return;
	case FN_ROUND:
		r = nargs == 2 && a[1].k == V_SCAL ? a[1].s : 0;
		if (nargs == 2)
			val_drop(c, &a[1]);
		if (a[0].k == V_SCAL) {
			a[0].s = py_round(a[0].s, r);
		} else if (a[0].k == V_VEC) {
			double *o = out_buf(c, &a[0], NULL);

			for (i = 0; i < c->n; i++)
				o[i] = is_na(a[0].v[i]) ? a[0].v[i] :
				    round_to(a[0].v[i], r);
			val_become(c, &a[0], o, a[0].masked);
		}
		return;
	case FN_TO_INT:
		to_int(c, &a[0]);
		return;
	case FN_MOD:
		binop(c, OP_MODOP, 0, &a[0], &a[1]);
		return;
	case FN_CONCAT:
		val_drop(c, &a[0]);
		val_drop(c, &a[1]);
		a[0].k = V_TEXT;
		return;
	}
}

static double
sys_num(struct table *t, const char *key, int is_int)
{
	return table_sysinfo_num(t, key, is_int);
}

/* column / $num_xcd over the context's rows, or NULL. */
static double *
per_xcd(struct evctx *c, const char *name)
{
	long col = table_pmc_col(c->t, name);
	double xcd = sys_num(c->t, "num_xcd", 1), *o;
	size_t i;

	if (col < 0 || isnan(xcd))
		return NULL;
	o = xmalloc((c->n ? c->n : 1) * sizeof(double));
	for (i = 0; i < c->n; i++)
		o[i] = col_get(&c->t->cols[col], c->idx ? c->idx[i] : i) / xcd;
	return o;
}

static double
num_active_cus(struct evctx *c, const double *grbm)
{
	long col = table_pmc_col(c->t, "SQ_BUSY_CU_CYCLES");
	double mw = sys_num(c->t, "max_waves_per_cu", 1);
	double cu = sys_num(c->t, "cu_per_gpu", 1), a, x, y;
	struct ksum sum = { 0, 0, 0, 0 };
	size_t i, m = 0;

	if (col < 0 || !grbm)
		return NAN;
	for (i = 0; i < c->n; i++) {
		double v = 4 * col_get(&c->t->cols[col],
		    c->idx ? c->idx[i] : i) /
		    grbm[i];

		if (!isnan(v)) {
			ksum_add(&sum, v);
			m++;
		}
	}
	a = m ? rint(ksum_get(&sum) / (double)m) : NAN;
	/* MIN(MOD(A, mw), 8) and MIN(A / mw * 8 + that, cu), Python's min */
	y = py_mod(a, mw);
	if (8 < y)
		y = 8;
	x = a / mw * 8 + y;
	if (cu < x)
		x = cu;
	return isfinite(x) ? trunc(x) : NAN;
}

static double
kernel_busy_cycles(struct evctx *c)
{
	long s = table_pmc_col(c->t, "Start_Timestamp");
	long e = table_pmc_col(c->t, "End_Timestamp");
	double sclk = sys_num(c->t, "max_sclk", 0);
	struct ksum sum = { 0, 0, 0, 0 };
	size_t i, m = 0, r;

	if (s < 0 || e < 0)
		return NAN;
	for (i = 0; i < c->n; i++) {
		double v;

		r = c->idx ? c->idx[i] : i;
		v = (col_get(&c->t->cols[e], r) - col_get(&c->t->cols[s], r)) /
		    1000 * sclk;
		if (!isnan(v)) {
			ksum_add(&sum, v);
			m++;
		}
	}
	return m ? rint(ksum_get(&sum) / (double)m) : NAN;
}

static void
builtin(struct evctx *c, int id, struct val *out)
{
	if (!c->builtin_done[id]) {
		c->builtin_done[id] = 1;
		c->builtin_scal[id] = NAN;
		switch (id) {
		case VAR_GRBM_GUI_ACTIVE_PER_XCD:
			c->builtin_vec[id] = per_xcd(c, "GRBM_GUI_ACTIVE");
			break;
		case VAR_GRBM_COUNT_PER_XCD:
			c->builtin_vec[id] = per_xcd(c, "GRBM_COUNT");
			break;
		case VAR_GRBM_SPI_BUSY_PER_XCD:
			c->builtin_vec[id] = per_xcd(c, "GRBM_SPI_BUSY");
			break;
		case VAR_NUM_ACTIVE_CUS:
			builtin(c, VAR_GRBM_GUI_ACTIVE_PER_XCD, out);
			c->builtin_scal[id] = num_active_cus(c,
			    c->builtin_vec[VAR_GRBM_GUI_ACTIVE_PER_XCD]);
			break;
		case VAR_KERNEL_BUSY_CYCLES:
			c->builtin_scal[id] = kernel_busy_cycles(c);
			break;
		case VAR_HBM_BANDWIDTH:
			c->builtin_scal[id] = sys_num(c->t, "max_mclk", 0) /
			    1000 * 32 * sys_num(c->t, "num_hbm_channels", 0);
			break;
		}
	}
	out->own = 0;
	out->masked = 0;
	if (id <= VAR_GRBM_SPI_BUSY_PER_XCD) {
		out->k = c->builtin_vec[id] ? V_VEC : V_NONE;
		out->v = c->builtin_vec[id];
	} else {
		/* A built-in that cannot be computed is none (blank). */
		out->k = isnan(c->builtin_scal[id]) ? V_NONE : V_SCAL;
		out->s = c->builtin_scal[id];
	}
}

/* Runs p; the result is left in *res (the caller drops it). */
static void
run(const struct prog *p, struct evctx *c, struct val *res)
{
	struct val st[256];
	int sp = 0;
	size_t i;

	for (i = 0; i < p->n; i++) {
		const struct ins *in = &p->ins[i];
		struct val *v = &st[sp];

		memset(v, 0, sizeof(*v));
		switch (in->op) {
		case OP_NUM:
			v->k = V_SCAL;
			v->s = in->num;
			sp++;
			break;
		case OP_NONE: case OP_MISSING:
			v->k = V_NONE;
			sp++;
			break;
		case OP_STR:
			v->k = V_TEXT;
			sp++;
			break;
		case OP_COL:
			load_column(c, in->arg, v);
			sp++;
			break;
		case OP_VAR:
			builtin(c, in->arg, v);
			sp++;
			break;
		case OP_AGG:
			v->k = c->agg[in->arg].k;
			v->s = c->agg[in->arg].s;
			sp++;
			break;
		case OP_NEG:
			if (st[sp - 1].k == V_SCAL)
				st[sp - 1].s = -st[sp - 1].s;
			else if (st[sp - 1].k == V_VEC) {
				struct val m1 = { V_SCAL, 0, 0, -1, NULL };

				binop(c, OP_MUL, 0, &st[sp - 1], &m1);
			}
			break;
		case OP_SEL:
			select3(c, &st[sp - 3], &st[sp - 2], &st[sp - 1]);
			sp -= 2;
			break;
		case OP_CMP:
			if (in->nargs == 1) {
				cmp_none(c, in->sub, &st[sp - 1]);
				break;
			}
			binop(c, in->op, in->sub, &st[sp - 2], &st[sp - 1]);
			sp--;
			break;
		case OP_CALL:
			call(c, in->sub, in->nargs, &st[sp - in->nargs]);
			sp -= in->nargs - 1;
			break;
		default:
			binop(c, in->op, in->sub, &st[sp - 2], &st[sp - 1]);
			sp--;
			break;
		}
	}
	*res = st[0];
}

int
expr_eval(const struct prog *p, struct evctx *c, double *out)
{
	struct val r;
	int rc;

	if (p->kind == V_NONE)
		return 0;
	run(p, c, &r);
	if (r.k == V_VEC)
		rc = -1;
	else if (r.k == V_SCAL && !isnan(r.s)) {
		*out = r.s;
		rc = 1;
	} else
		rc = 0;
	val_drop(c, &r);
	return rc;
}

/* The five simple_box statistics of the vector r. */
static void
box_of(struct evctx *c, const struct val *r, double out[5], int ok[5])
{
	static const double qs[5] = { 0, 0.25, 0.5, 0.75, 1 };
	double *buf = buf_get(c);
	size_t m;
	int i, nan;

	m = collect(c, r, buf, &nan);
	if (!nan && m > 0) {
		qsort(buf, m, sizeof(double), cmp_double);
		for (i = 0; i < 5; i++) {
			out[i] = i == 2 ? median_sorted(buf, m) :
			    quantile_sorted(buf, m, qs[i]);
			ok[i] = !isnan(out[i]);
		}
	}
	buf_put(c, buf);
}

void
expr_eval_box(const struct prog *p, struct evctx *c, double out[5],
    int ok[5])
{
	struct val r;
	int i;

	memset(ok, 0, 5 * sizeof(int));
	if (p->kind == V_NONE)
		return;
	run(p, c, &r);
	if (r.k == V_SCAL && !isnan(r.s)) {
		for (i = 0; i < 5; i++) {
			out[i] = r.s;
			ok[i] = 1;
		}
	} else if (r.k == V_VEC) {
		box_of(c, &r, out, ok);
	}
	val_drop(c, &r);
}

int
expr_eval_rows(const struct prog *p, struct evctx *c, double *out,
    int *masked)
{
	struct val r;
	int k;

	run(p, c, &r);
	k = r.k;
	if (k == V_VEC) {
		memcpy(out, r.v, c->n * sizeof(double));
		*masked = r.masked;
	}
	val_drop(c, &r);
	return k;
}

double
expr_aggregate(int f, const double *v, size_t n, int masked, double q)
{
	struct evctx c;
	struct val a = { V_VEC, 0, masked, 0, (double *)v };
	double r;

	evctx_init(&c, NULL, NULL, n);
	r = aggregate(&c, f, &a, q);
	evctx_release(&c);
	return r;
}

void
expr_box(const double *v, size_t n, int masked, double out[5], int ok[5])
{
	struct evctx c;
	struct val a = { V_VEC, 0, masked, 0, (double *)v };

	memset(ok, 0, 5 * sizeof(int));
	evctx_init(&c, NULL, NULL, n);
	box_of(&c, &a, out, ok);
	evctx_release(&c);
}

int
expr_is_na(double x)
{
	return is_na(x);
}

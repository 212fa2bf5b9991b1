#define _GNU_SOURCE	/* memmem */
/* report.c: Summary rows, the totals block, and --check. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "migx.h"
#include "xmem.h"

/* Peels a ',' or a full-width comma before s[n]; sets *fork for the latter. */
static size_t
sep_back(const char *s, size_t n, int *fork)
{
	n = sp_back(s, n);
	if (n > 0 && s[n - 1] == ',')
		return n;
	if (n >= 3 && memcmp(s + n - 3, "\xEF\xBC\x8C", 3) == 0) {
		*fork = 1;
		return n - 2;
	}
	return 0;
}

/* Splits a Summary row from the right (section 6.6). */
struct srow {
	struct sl op, total, count, mean, pct;
	int fork;
};

/*
 * Reads the "<number>ms" that ends at s[*e] into *t and moves *e before
 * it and the blanks before it.  Returns 0, or -1 if there is none.
 */
static int
ms_back(const char *s, size_t *e, struct sl *t)
{
	size_t b, end = *e;

	if (end < 2 || memcmp(s + end - 2, "ms", 2) != 0)
		return -1;
	end = sp_back(s, end - 2);
	b = tok_back(s, end);
	if (!valid_tok(s + b, end - b))
		return -1;
	t->p = s + b, t->n = end - b;
	*e = sp_back(s, b);
	return 0;
}

static int
row_parse(const char *s, size_t n, struct srow *r)
{
	size_t e = sp_back(s, n), b;

	memset(r, 0, sizeof(*r));
	if (e == 0 || s[e - 1] != '%')
		return -1;
	e = sp_back(s, e - 1);
	b = tok_back(s, e);
	if (!valid_tok(s + b, e - b))
		return -1;
	r->pct.p = s + b, r->pct.n = e - b;
	if ((e = sep_back(s, b, &r->fork)) == 0)
		return -1;
	e = sp_back(s, e - 1);
	if (ms_back(s, &e, &r->total) != 0)
		return -1;
	if (e > 0 && s[e - 1] == '=') {
		r->mean = r->total;
		e = sp_back(s, e - 1);
		for (b = e; b > 0 && isdig(s[b - 1]); b--)
			;
		if (b == e)
			return -1;
		r->count.p = s + b, r->count.n = e - b;
		e = sp_back(s, b);
		if (e == 0 || s[e - 1] != '/')
			return -1;
		e = sp_back(s, e - 1);
		if (ms_back(s, &e, &r->total) != 0)
			return -1;
	}
	if (e == 0 || s[e - 1] != ':')
		return -1;
	e = sp_back(s, e - 1);
	if (e == 0)
		return -1;
	r->op.p = s, r->op.n = e;
	return 0;
}

/* The "<TYPE(IN, ...)>" of a --detailed group: its '<', or 0. */
static size_t
detail_start(const char *s, size_t n)
{
	size_t i;
	int depth = 0;

	if (n < 3 || s[n - 1] != '>')
		return 0;
	for (i = n; i > 0; i--) {
		if (s[i - 1] == '>')
			depth++;
		else if (s[i - 1] == '<' && --depth == 0)
			return i - 1;
	}
	return 0;
}

static void
put_detail(struct migx *mx, const char *s, size_t n)
{
	const char *p = s + 1, *e = s + n - 1, *par, *q;

	par = memchr(p, '(', (size_t)(e - p));
	if (par == NULL || e[-1] != ')') {
		ndw_str(&mx->w, "detail", s, n);
		return;
	}
	ndw_obj(&mx->w, "detail");
	ndw_str(&mx->w, "type", p, (size_t)(par - p));
	ndw_arr(&mx->w, "inputs");
	for (p = par + 1, e--; p < e; p = q + 2) {
		q = memmem(p, (size_t)(e - p), ", ", 2);
		if (q == NULL)
			q = e;
		ndw_str(&mx->w, NULL, p, (size_t)(q - p));
	}
	ndw_close(&mx->w);
	ndw_close(&mx->w);
}

static void
row_keep(struct migx *mx, struct run *r, const struct srow *sr)
{
	struct row *k;
	double e;

	XGROW(r->rows, r->nrows + 1, r->arows);
	k = &r->rows[r->nrows++];
	k->op = xmalloc(sr->op.n + 1);
	memcpy(k->op, sr->op.p, sr->op.n);
	k->op[sr->op.n] = '\0';
	k->line = mx->pos.line;
	k->total = tok_value(sr->total.p, sr->total.n, &k->etotal);
	k->mean = sr->mean.p ? tok_value(sr->mean.p, sr->mean.n, &k->emean) : 0;
	k->count = sr->count.p ? strtol(sr->count.p, NULL, 10) : -1;
	k->pct = tok_value(sr->pct.p, sr->pct.n, &e);
	k->epct = e;
	k->pct_frac = memchr(sr->pct.p, '.', sr->pct.n) != NULL ||
	    memchr(sr->pct.p, 'e', sr->pct.n) != NULL;
}

/*
 * A Summary row: writes its record and returns 0, or -1 when s is not a
 * row.
 */
int
summary_row(struct migx *mx, struct run *r, const char *s, size_t n,
    unsigned flags, int bare)
{
	struct srow sr;
	size_t d, bn;
	const char *cobj = "gpu::code_object::";

	if (row_parse(s, n, &sr) < 0)
		return -1;
	/* Away from a Summary, a group name must look like one. */
	d = detail_start(sr.op.p, sr.op.n);
	if (bare && (memchr(sr.op.p, ' ', d > 0 ? d : sr.op.n) != NULL ||
	    sr.op.p[0] == '-' || sr.op.p[0] == '>'))
		return -1;
	rec_begin(mx, "summary", r, mx->pos.line);
	ndw_u64(&mx->w, "rank", r->rank++);
	ndw_str(&mx->w, "op", sr.op.p, sr.op.n);
	bn = d > 0 ? d : sr.op.n;
	if (bn > 18 && memcmp(sr.op.p, cobj, 18) == 0) {
		ndw_str(&mx->w, "base_op", sr.op.p, 16);
		ndw_str(&mx->w, "kernel", sr.op.p + 18, bn - 18);
	} else {
		ndw_str(&mx->w, "base_op", sr.op.p, bn);
		ndw_null(&mx->w, "kernel");
	}
	if (d > 0)
		put_detail(mx, sr.op.p + d, sr.op.n - d);
	else
		ndw_null(&mx->w, "detail");
	put_num(mx, "total_ms", sr.total.p, sr.total.n);
	if (sr.count.p != NULL)
		put_num(mx, "count", sr.count.p, sr.count.n);
	else
		ndw_null(&mx->w, "count");
	if (sr.mean.p != NULL)
		put_num(mx, "mean_ms", sr.mean.p, sr.mean.n);
	else
		ndw_null(&mx->w, "mean_ms");
	put_num(mx, "pct", sr.pct.p, sr.pct.n);
	rec_flags(mx, flags | (sr.fork ? FL_FORK : 0));
	rec_emit(mx);
	if (mx->opt.check)
		row_keep(mx, r, &sr);
	return 0;
}

/* A cursor over one totals line. */
struct cur {
	const char *p, *e;
	int nospace;
};

static void
cur_sp(struct cur *c)
{
	while (c->p < c->e && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

static int
lit(struct cur *c, const char *z)
{
	size_t k = strlen(z);

	cur_sp(c);
	if ((size_t)(c->e - c->p) < k || memcmp(c->p, z, k) != 0)
		return -1;
	c->p += k;
	return 0;
}

/* ',' or the full-width comma. */
static int
sep(struct cur *c)
{
	if (lit(c, ",") == 0 || lit(c, "\xEF\xBC\x8C") == 0)
		return 0;
	return -1;
}

/* Reads one number token into r->tot[k]. */
static int
num(struct cur *c, struct run *r, int k)
{
	const char *b;
	size_t i = 0, n;

	cur_sp(c);
	b = c->p;
	n = (size_t)(c->e - b);
	if (n > 0 && (b[0] == '-' || b[0] == '+'))
		i++;
	if (n - i >= 3 && strncasecmp(b + i, "nan", 3) == 0) {
		i += 3;
		if (i < n && b[i] == '(') {
			const char *q = memchr(b + i, ')', n - i);

			if (q != NULL)
				i = (size_t)(q - b) + 1;
		}
	} else if (n - i >= 8 && strncasecmp(b + i, "infinity", 8) == 0)
		i += 8;
	else if (n - i >= 3 && strncasecmp(b + i, "inf", 3) == 0)
		i += 3;
	else {
		size_t j;

		/* The longest prefix that is a number ("12ms" -> "12"). */
		for (j = i; j < n && (isdig(b[j]) || b[j] == '.' ||
		    b[j] == 'e' || b[j] == 'E' || b[j] == '-' || b[j] == '+');
		    j++)
			;
		while (j > 0 && !num_token(b, j))
			j--;
		if (j == 0)
			return -1;
		i = j;
	}
	if (!valid_tok(b, i))
		return -1;
	strbuf_reset(&r->tot[k]);
	strbuf_add(&r->tot[k], b, i);
	c->p = b + i;
	return 0;
}

static int
num_ms(struct cur *c, struct run *r, int k)
{
	return num(c, r, k) < 0 || lit(c, "ms") < 0 ? -1 : 0;
}

static int
parse_rate(struct cur *c, struct run *r)
{
	const char *u;

	if (num(c, r, T_RATE) < 0)
		return -1;
	r->tot_flags &= ~(unsigned)FL_NOSPACE;
	if (c->p < c->e && *c->p != ' ' && *c->p != '/')
		r->tot_flags |= FL_NOSPACE;
	cur_sp(c);
	u = c->p;
	while (c->e > u && (c->e[-1] == ' ' || c->e[-1] == '\t'))
		c->e--;
	if (c->e == u)
		return -1;
	strbuf_reset(&r->rate_unit);
	strbuf_add(&r->rate_unit, u, (size_t)(c->e - u));
	c->p = c->e;
	return 0;
}

static int
parse_total(struct cur *c, struct run *r)
{
	if (num_ms(c, r, T_TOTAL) < 0)
		return -1;
	cur_sp(c);
	if (c->p == c->e)
		return 0;
	if (lit(c, "(Min:") < 0 || num_ms(c, r, T_MIN) < 0 || sep(c) < 0 ||
	    lit(c, "Max:") < 0 || num_ms(c, r, T_MAX) < 0 || sep(c) < 0 ||
	    lit(c, "Mean:") < 0 || num_ms(c, r, T_MEAN) < 0 || sep(c) < 0 ||
	    lit(c, "Median:") < 0 || num_ms(c, r, T_MEDIAN) < 0 ||
	    lit(c, ")") < 0)
		return -1;
	return 0;
}

#define TOT(s, k) { s, sizeof(s) - 1, k }
static const struct {
	const char *prefix;
	size_t len;
	int kind;
} tot_lines[] = {
	TOT("Batch size:", 0), TOT("Rate:", 1), TOT("Total time:", 2),
	TOT("Percentiles (90%, 95%, 99%):", 3),
	TOT("Total instructions time:", 4), TOT("Overhead time:", 5),
	TOT("Overhead:", 6),
};

/*
 * Which totals line s starts (1 Batch size ... 7 Overhead), or 0.  Every
 * line is asked, so the first byte turns most away.
 */
int
totals_prefix(const char *s, size_t n)
{
	size_t i, k;

	if (n == 0 || (*s != 'B' && *s != 'O' && *s != 'P' && *s != 'R' &&
	    *s != 'T'))
		return 0;
	for (i = 0; i < sizeof(tot_lines) / sizeof(tot_lines[0]); i++) {
		k = tot_lines[i].len;
		if (n >= k && memcmp(s, tot_lines[i].prefix, k) == 0)
			return tot_lines[i].kind + 1;
	}
	return 0;
}

/*
 * A line of the totals block: returns 1 when it was read whole, 0 when
 * s is not one, -1 when it starts like one but does not parse (the
 * numbers read before the fault are kept: a cut last line).
 */
int
totals_line(struct migx *mx, struct run *r, const char *s, size_t n)
{
	struct cur c = { s, s + n, 0 };
	size_t i, k;
	int kind = -1, rc = 0;

	for (i = 0; i < sizeof(tot_lines) / sizeof(tot_lines[0]); i++) {
		k = tot_lines[i].len;
		if (n >= k && memcmp(s, tot_lines[i].prefix, k) == 0) {
			kind = tot_lines[i].kind;
			c.p += k;
			break;
		}
	}
	if (kind < 0)
		return 0;
	if (!r->have_tot) {
		r->have_tot = 1;
		r->tot_line = mx->pos.line;
	}
	switch (kind) {
	case 0: rc = num(&c, r, T_BATCH); break;
	case 1: rc = parse_rate(&c, r); break;
	case 2: rc = parse_total(&c, r); break;
	case 3:
		rc = lit(&c, "(") < 0 || num_ms(&c, r, T_P90) < 0 ||
		    sep(&c) < 0 || num_ms(&c, r, T_P95) < 0 || sep(&c) < 0 ||
		    num_ms(&c, r, T_P99) < 0 || lit(&c, ")") < 0 ? -1 : 0;
		break;
	case 4: rc = num_ms(&c, r, T_INSTR); break;
	case 5:
		rc = num_ms(&c, r, T_OVER) < 0 || sep(&c) < 0 ||
		    num_ms(&c, r, T_OVERC) < 0 ? -1 : 0;
		break;
	case 6:
		rc = num(&c, r, T_OVERP) < 0 || lit(&c, "%") < 0 ||
		    sep(&c) < 0 || num(&c, r, T_OVERCP) < 0 ||
		    lit(&c, "%") < 0 ? -1 : 0;
		break;
	}
	cur_sp(&c);
	if (rc == 0 && c.p != c.e)
		rc = -1;
	return rc < 0 ? -1 : 1;
}

static const char *const tot_keys[T_END] = {
	"batch", "rate", "total_ms", "min_ms", "max_ms", "mean_ms",
	"median_ms", "p90_ms", "p95_ms", "p99_ms", "instructions_ms",
	"overhead_ms", "overhead_calc_ms", "overhead_pct", "overhead_calc_pct"
};

/* The keys every release prints; absent ones are listed in "missing". */
static const int universal[] = {
	T_RATE, T_TOTAL, T_INSTR, T_OVER, T_OVERC, T_OVERP, T_OVERCP
};

/*
 * Writes the totals record of the run, complete or not (the run or the
 * input ended before the Overhead: line), and forgets the block.
 */
void
totals_emit(struct migx *mx, struct run *r)
{
	size_t i, nmiss = 0;
	int k, any = 0;

	for (k = 0; k < T_END; k++)
		any |= r->tot[k].len > 0;
	if (!any && mx->records == 0) {
		/* A "Summary:" line and nothing else: no record to write. */
		r->have_tot = 0;
		return;
	}
	rec_begin(mx, "totals", r, r->tot_line);
	for (k = 0; k < T_END; k++) {
		if (r->tot[k].len > 0)
			put_num(mx, tot_keys[k], r->tot[k].buf, r->tot[k].len);
		else
			ndw_null(&mx->w, tot_keys[k]);
		if (k == T_RATE) {
			if (r->rate_unit.len > 0)
				ndw_str(&mx->w, "rate_unit", r->rate_unit.buf,
				    r->rate_unit.len);
			else
				ndw_null(&mx->w, "rate_unit");
		}
	}
	for (i = 0; i < sizeof(universal) / sizeof(universal[0]); i++)
		if (r->tot[universal[i]].len == 0)
			nmiss++;
	ndw_bool(&mx->w, "complete", nmiss == 0 &&
	    !(r->tot_flags & FL_TRUNCATED));
	ndw_arr(&mx->w, "missing");
	for (i = 0; i < sizeof(universal) / sizeof(universal[0]); i++)
		if (r->tot[universal[i]].len == 0)
			ndw_str(&mx->w, NULL, tot_keys[universal[i]],
			    strlen(tot_keys[universal[i]]));
	ndw_close(&mx->w);
	rec_flags(mx, r->tot_flags);
	rec_emit(mx);
	r->have_tot = 0;
}

/* --check (section 4): recompute the Summary and the totals. */

static unsigned long disagreements;

static int
close_to(double a, double ea, double b, double eb)
{
	double m = fmax(fabs(a), fabs(b));

	return fabs(a - b) <= ea + eb + 1e-9 * m + 1e-15;
}

/* The range of scale * (a +- ea) / (b +- eb), for b - eb > 0. */
static void
ratio_iv(double a, double ea, double b, double eb, double scale, double *lo,
    double *hi)
{
	double c[4];
	int i;

	if (b - eb <= 0)
		eb = 0;
	c[0] = scale * (a - ea) / (b - eb), c[1] = scale * (a + ea) / (b - eb);
	c[2] = scale * (a - ea) / (b + eb), c[3] = scale * (a + ea) / (b + eb);
	*lo = *hi = c[0];
	for (i = 1; i < 4; i++) {
		if (c[i] < *lo)
			*lo = c[i];
		if (c[i] > *hi)
			*hi = c[i];
	}
}

static void check_fail(struct migx *mx, unsigned long line,
    const char *fmt, ...) PRINTF_LIKE(3, 4);

static void
check_fail(struct migx *mx, unsigned long line, const char *fmt, ...)
{
	struct srcpos at = { mx->pos.file, line };
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	disagreements++;
	warn_at(&at, "check: %s", msg);
}

/* Adds one perf instruction's time to its group. */
void
check_instr(struct run *r, const struct instr *in, int old_groups)
{
	static struct strbuf g = STRBUF_INIT;
	struct agg *a;
	void **slot;
	double v, e;

	if (in->is_return)
		return;
	if (in->time.p == NULL) {
		r->unfinished++;
		return;
	}
	v = tok_value(in->time.p, in->time.n, &e);
	if (isnan(v) || isinf(v))
		return;		/* never ran: not in the Summary (3.4) */
	instr_group(in, old_groups, &g);
	slot = hmap_put(&r->groups, g.buf, g.len);
	if (*slot == NULL)
		*slot = xcalloc(1, sizeof(*a));
	a = *slot;
	a->sum += v, a->err += e, a->n++;
	r->all.sum += v, r->all.err += e, r->all.n++;
	if (in->op.n == 16 && memcmp(in->op.p, "gpu::code_object", 16) == 0)
		r->code_object.sum += v, r->code_object.err += e,
		r->code_object.n++;
}

static double
tot(struct run *r, int k, double *e)
{
	if (r->tot[k].len == 0 || (r->cut_mask & (1u << k))) {
		*e = 0;
		return NAN;
	}
	return tok_value(r->tot[k].buf, r->tot[k].len, e);
}

/* Summary rows against the instruction lines of the run. */
static void
check_rows(struct migx *mx, struct run *r)
{
	struct hmap sums;
	struct hmap_ent *ent;
	struct agg *a, *s, *store;
	size_t i, d;
	int plain_cobj = 0, counts = 1;

	hmap_init(&sums, 64);
	store = xcalloc(r->nrows + 1, sizeof(*store));
	for (i = 0; i < r->nrows; i++) {
		struct row *k = &r->rows[i];
		void **slot;

		d = detail_start(k->op, strlen(k->op));
		slot = hmap_put(&sums, k->op, d > 0 ? d : strlen(k->op));
		if (*slot == NULL)
			*slot = &store[i];
		s = *slot;
		s->sum += k->total, s->err += k->etotal;
		s->n += k->count > 0 ? (unsigned long)k->count : 0;
		if (k->count < 0)
			counts = 0;
		if (strcmp(k->op, "gpu::code_object") == 0)
			plain_cobj = 1;
	}
	hmap_foreach(&sums, ent) {
		void **slot;

		s = ent->val;
		if (plain_cobj && strcmp(ent->key, "gpu::code_object") == 0)
			a = &r->code_object;
		else
			a = (slot = hmap_get(&r->groups, ent->key, ent->len)) ?
			    *slot : NULL;
		if (a == NULL && strcmp(ent->key, "@return") == 0)
			continue;	/* its time is never printed */
		if (a == NULL) {
			struct srcpos at = { mx->pos.file, r->tot_line };

			disagreements++;
			warn_at(&at, "check: summary group '%s' has no "
			    "instruction lines", ent->key);
			continue;
		}
		if (!close_to(s->sum, s->err, a->sum, a->err))
			check_fail(mx, r->tot_line, "summary total of '%s' "
			    "is %.6g ms, its instructions add up to %.6g ms",
			    ent->key, s->sum, a->sum);
		if (counts && s->n != a->n) {
			struct srcpos at = { mx->pos.file, r->tot_line };

			disagreements++;
			warn_at(&at, "check: summary count of '%s' is %lu, "
			    "%lu instruction lines found", ent->key, s->n,
			    a->n);
		}
	}
	hmap_foreach(&r->groups, ent) {
		if (hmap_get(&sums, ent->key, ent->len) != NULL ||
		    (plain_cobj && strncmp(ent->key, "gpu::code_object", 16)
		    == 0))
			continue;
		a = ent->val;
		check_fail(mx, r->tot_line, "group '%s' (%.6g ms) is not "
		    "in the Summary (%.6g instructions)", ent->key, a->sum,
		    (double)a->n);
	}
	hmap_release(&sums);
	free(store);
}

/* Each row's mean and percentage, from its own total. */
static void
check_row_math(struct migx *mx, struct run *r, double S, double eS)
{
	double lo, hi;
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		struct row *k = &r->rows[i];

		if (k->count > 0 && !close_to(k->mean, k->emean,
		    k->total / (double)k->count, k->etotal / (double)k->count))
			check_fail(mx, k->line, "mean of '%s' is %.6g ms, "
			    "total / count is %.6g ms", k->op, k->mean,
			    k->total / (double)k->count);
		if (isnan(S))
			continue;
		ratio_iv(k->total, k->etotal, S, eS, 100, &lo, &hi);
		if (k->pct_frac ? (k->pct < lo - k->epct || k->pct > hi +
		    k->epct) : (k->pct < ceil(lo - 1e-9) ||
		    k->pct > ceil(hi + 1e-9)))
			check_fail(mx, k->line, "percentage of '%s' is "
			    "%g%%, its share of the instruction time is %.4g%%",
			    k->op, k->pct, (lo + hi) / 2);
	}
}

/* The totals against each other. */
static void
check_totals(struct migx *mx, struct run *r, double S, double eS)
{
	double T, eT, O, eO, C, eC, P, eP, Q, eQ, R, eR, B, eB, lo, hi;
	unsigned long l = r->tot_line;

	T = tot(r, T_TOTAL, &eT), O = tot(r, T_OVER, &eO);
	C = tot(r, T_OVERC, &eC), P = tot(r, T_OVERP, &eP);
	Q = tot(r, T_OVERCP, &eQ), R = tot(r, T_RATE, &eR);
	B = tot(r, T_BATCH, &eB);
	if (isnan(B))
		B = 1;
	if (isnan(T) || T <= 0)
		return;
	if (!isnan(C) && !isnan(S) && !close_to(C, eC, T - S, eT + eS))
		check_fail(mx, l, "%s is %.6g ms, total - instructions is "
		    "%.6g ms", "overhead_calc_ms", C, T - S);
	if (!isnan(P) && !isnan(O)) {
		ratio_iv(O, eO, T, eT, 100, &lo, &hi);
		if (P < round(lo) || P > round(hi))
			check_fail(mx, l, "%s is %g, 100 * overhead / total "
			    "is %.4g", "overhead_pct", P, (lo + hi) / 2);
	}
	if (!isnan(Q) && !isnan(C)) {
		ratio_iv(C, eC, T, eT, 100, &lo, &hi);
		if (Q < round(lo) || Q > round(hi))
			check_fail(mx, l, "%s is %g, 100 * overhead_calc / "
			    "total is %.4g", "overhead_calc_pct", Q,
			    (lo + hi) / 2);
	}
	if (!isnan(R)) {
		ratio_iv(1000 * B, 0, T, eT, 1, &lo, &hi);
		if (R + eR < lo - 1e-9 * lo || R - eR > hi + 1e-9 * hi)
			check_fail(mx, l, "%s is %g, 1000 * batch / total "
			    "is %.6g", "rate", R, (lo + hi) / 2);
	}
}

/* A totals block that ends early: the file was cut. */
static void
check_cut(struct migx *mx, struct run *r)
{
	char miss[256];
	size_t i, len = 0;

	miss[0] = '\0';
	for (i = 0; i < sizeof(universal) / sizeof(universal[0]); i++)
		if (r->tot[universal[i]].len == 0)
			len += (size_t)snprintf(miss + len, sizeof(miss) - len,
			    "%s%s", len > 0 ? ", " : "",
			    tot_keys[universal[i]]);
	if (len > 0)
		check_fail(mx, r->tot_line, "the totals end early: no %s",
		    miss);
	else if (r->tot_flags & FL_TRUNCATED)
		check_fail(mx, r->tot_line, "the totals end in a cut line");
	if (r->nrows == 0 && r->all.n > 0)
		check_fail(mx, r->tot_line,
		    "no Summary rows for %lu instructions", r->all.n);
}

/* Runs --check over the run that just ended and prints its verdict. */
void
check_run(struct migx *mx, struct run *r)
{
	unsigned long before = disagreements;
	double S, eS, sum = 0, esum = 0;
	size_t i;

	if (!r->has_report)
		return;
	S = tot(r, T_INSTR, &eS);
	for (i = 0; i < r->nrows; i++) {
		sum += r->rows[i].total, esum += r->rows[i].etotal;
		/* A @return row: timed, but its perf line shows no time. */
		if (strcmp(r->rows[i].op, "@return") == 0 && r->all.n > 0)
			r->all.sum += r->rows[i].total,
			r->all.err += r->rows[i].etotal;
	}
	if (r->nrows > 0 && r->all.n > 0)
		check_rows(mx, r);
	if (isnan(S) && r->all.n > 0)
		S = r->all.sum, eS = r->all.err;
	else if (!isnan(S) && r->all.n > 0 && r->unfinished == 0 &&
	    !close_to(S, eS, r->all.sum, r->all.err))
		check_fail(mx, r->tot_line, "%s is %.6g ms, the instruction "
		    "lines add up to %.6g ms", "instructions_ms", S,
		    r->all.sum);
	if (!isnan(S) && r->nrows > 0 && !close_to(S, eS, sum, esum))
		check_fail(mx, r->tot_line, "%s is %.6g ms, the Summary "
		    "rows add up to %.6g ms", "instructions_ms", S, sum);
	check_row_math(mx, r, S, eS);
	check_totals(mx, r, S, eS);
	check_cut(mx, r);
	if (disagreements > before)
		warn("%s: run %d: check: %lu disagreement%s", mx->pos.file,
		    r->num, disagreements - before,
		    disagreements - before == 1 ? "" :
		    "s");
	else
		warn("%s: run %d: check: agrees (%lu instructions, %zu summary "
		    "rows%s)", mx->pos.file, r->num, r->all.n, r->nrows,
		    r->tot[T_INSTR].len > 0 ? ", totals" : "");
}

/* Disagreements seen by --check so far. */
unsigned long
check_count(void)
{
	return disagreements;
}

void
run_init(struct run *r)
{
	int k;

	memset(r, 0, sizeof(*r));
	strbuf_init(&r->header, 0);
	strbuf_init(&r->rate_unit, 0);
	for (k = 0; k < NTOT; k++)
		strbuf_init(&r->tot[k], 0);
	hmap_init(&r->groups, 64);
}

/* Forgets everything but the run number. */
void
run_reset(struct run *r)
{
	struct hmap_ent *e;
	size_t i;
	int k, num = r->num;

	hmap_foreach(&r->groups, e)
		free(e->val);
	hmap_release(&r->groups);
	for (i = 0; i < r->nrows; i++)
		free(r->rows[i].op);
	free(r->rows);
	strbuf_release(&r->header);
	strbuf_release(&r->rate_unit);
	for (k = 0; k < NTOT; k++)
		strbuf_release(&r->tot[k]);
	run_init(r);
	r->num = num;
}

void
run_release(struct run *r)
{
	run_reset(r);
	hmap_release(&r->groups);
}

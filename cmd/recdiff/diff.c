/*
 * diff.c: one comparison record from a record of the base run and the
 * record of the same key in a later run.
 *
 * For a numeric field F on both sides: F (the later run's value),
 * F_base, F_delta = F - F_base (exact for two integers) and F_pct =
 * 100 * (F - F_base) / |F_base|, unrounded; a blank (null) side gives
 * null delta and pct, a zero base gives "inf" or "-inf" (null when F is
 * 0 too).  Text that differs is kept as F and F_base, text that is the
 * same as F alone.  The record's identity fields are written once.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "nd.h"
#include "ndw.h"
#include "strbuf.h"
#include "xmem.h"

#include "recdiff.h"

#define MAX_OFFENDERS 20

enum cls { C_ABSENT, C_NULL, C_NUM, C_NONFIN, C_STR, C_OTHER };

struct field {
	size_t name;		/* offset in names */
	struct nd_slice v;
	int done;
};

struct fields {
	struct field *f;
	size_t n, alloc;
	struct strbuf names;	/* NUL-separated decoded names */
};

static struct fields fb, fn;
static struct strbuf kb = STRBUF_INIT;	/* scratch key names */

void
diff_init(struct diff *d, FILE *out)
{
	memset(d, 0, sizeof(*d));
	ndw_init(&d->w, 0);
	d->out = out;
	d->fail_above = -1;
	strbuf_init(&d->offenders, 0);
	strbuf_init(&fb.names, 256);
	strbuf_init(&fn.names, 256);
}

void
diff_release(struct diff *d)
{
	ndw_release(&d->w);
	strbuf_release(&d->offenders);
	strbuf_release(&fb.names);
	strbuf_release(&fn.names);
	strbuf_release(&kb);
	free(fb.f);
	free(fn.f);
	free((char *)d->first_mismatch);
}

/* Splits a validated record into its members. */
static void
fields_parse(struct fields *fs, const char *line, size_t len)
{
	struct nd_slice all = { line, len }, k, v;
	struct nd_iter it;

	fs->n = 0;
	strbuf_reset(&fs->names);
	if (line == NULL)
		return;
	nd_iter_init(&it, all);
	while (nd_iter_next(&it, &k, &v) == 1) {
		XGROW(fs->f, fs->n + 1, fs->alloc);
		fs->f[fs->n].name = fs->names.len;
		nd_val_str(k, &fs->names);
		strbuf_addch(&fs->names, '\0');
		fs->f[fs->n].v = v;
		fs->f[fs->n++].done = 0;
	}
}

static const char *
fname(const struct fields *fs, size_t i)
{
	return fs->names.buf + fs->f[i].name;
}

/* The field of fs named name (the last one if repeated), or -1. */
static long
fields_find(const struct fields *fs, const char *name, size_t hint)
{
	size_t i;

	if (hint < fs->n && strcmp(fname(fs, hint), name) == 0)
		return (long)hint;
	for (i = fs->n; i-- > 0;)
		if (strcmp(fname(fs, i), name) == 0)
			return (long)i;
	return -1;
}

static enum cls
classify(struct nd_slice v)
{
	if (v.p == NULL)
		return C_ABSENT;
	switch (nd_type(v)) {
	case ND_NULL: return C_NULL;
	case ND_NUMBER: return C_NUM;
	case ND_STRING:
		return nd_str_eq(v, "nan", 3) || nd_str_eq(v, "inf", 3) ||
		    nd_str_eq(v, "-inf", 4) ? C_NONFIN : C_STR;
	default: return C_OTHER;
	}
}

static double
value_of(struct nd_slice v)
{
	double d = NAN;

	if (nd_type(v) == ND_NUMBER)
		nd_val_f64(v, &d);
	else if (nd_str_eq(v, "inf", 3))
		d = INFINITY;
	else if (nd_str_eq(v, "-inf", 4))
		d = -INFINITY;
	return d;
}

/* Writes name + suffix as the raw value v (null when absent). */
static void
put(struct diff *d, const char *name, const char *suffix, struct nd_slice v)
{
	strbuf_reset(&kb);
	strbuf_addstr(&kb, name);
	strbuf_addstr(&kb, suffix);
	if (v.p == NULL)
		ndw_null(&d->w, kb.buf);
	else
		ndw_raw(&d->w, kb.buf, v.p, v.len);
}

static void
put_null(struct diff *d, const char *name, const char *suffix)
{
	struct nd_slice none = { NULL, 0 };

	put(d, name, suffix, none);
}

static int
field_checked(const struct diff *d, const char *name)
{
	size_t i;

	if (d->fields == NULL)
		return 1;
	for (i = 0; i < d->nfields; i++)
		if (strcmp(d->fields[i], name) == 0)
			return 1;
	return 0;
}

/* --fail-above: notes a percentage beyond the threshold. */
static void
check_pct(struct diff *d, const char *name, double pct, const char *desc,
    const char *run, const char *base_run)
{
	if (d->fail_above < 0 || isnan(pct) || fabs(pct) <= d->fail_above ||
	    !field_checked(d, name))
		return;
	if (d->over++ < MAX_OFFENDERS) {
		strbuf_addf(&d->offenders, "recdiff: run '%s' against '%s': "
		    "%s: %s %s", run, base_run, desc, name, pct > 0 ? "+" : "");
		if (isinf(pct))
			strbuf_addstr(&d->offenders, pct > 0 ? "inf" : "-inf");
		else
			ndw_fmt_f64(&d->offenders, pct);
		strbuf_addstr(&d->offenders, "%\n");
	}
}

/* F_delta and F_pct of two numbers (or non-finite values). */
static void
put_change(struct diff *d, const char *name, struct nd_slice bv,
    struct nd_slice nv, const char *desc, const char *run,
    const char *base_run)
{
	double b = value_of(bv), n = value_of(nv), pct;
	int64_t bi, ni, di;

	strbuf_reset(&kb);
	strbuf_addf(&kb, "%s_delta", name);
	if (nd_type(bv) == ND_NUMBER && nd_type(nv) == ND_NUMBER &&
	    nd_val_i64(bv, &bi) == 0 && nd_val_i64(nv, &ni) == 0 &&
	    !__builtin_sub_overflow(ni, bi, &di))
		ndw_i64(&d->w, kb.buf, di);
	else
		ndw_f64(&d->w, kb.buf, n - b);
	strbuf_reset(&kb);
	strbuf_addf(&kb, "%s_pct", name);
	if (b == 0 && n == 0) {
		ndw_null(&d->w, kb.buf);
		return;
	}
	if (b == 0)
		pct = isnan(n) ? NAN : n > 0 ? INFINITY : -INFINITY;
	else
		pct = 100 * (n - b) / fabs(b);
	ndw_f64(&d->w, kb.buf, pct);
	check_pct(d, name, pct, desc, run, base_run);
}

static int
same_text(struct nd_slice a, struct nd_slice b)
{
	return a.p != NULL && b.p != NULL && a.len == b.len &&
	    memcmp(a.p, b.p, a.len) == 0;
}

/* One compared field; one side is absent in an "only" record. */
static void
compare(struct diff *d, const char *name, struct nd_slice bv,
    struct nd_slice nv, int only, const char *desc, const char *run,
    const char *base_run)
{
	enum cls cb = classify(bv), cn = classify(nv);
	int numb = cb == C_NUM || cb == C_NONFIN;
	int numn = cn == C_NUM || cn == C_NONFIN;
	int blankb = cb == C_ABSENT || cb == C_NULL;
	int blankn = cn == C_ABSENT || cn == C_NULL;

	/* Null on both sides is a blank number, as in metric records. */
	if (!only && !numb && !numn && !(cb == C_NULL && cn == C_NULL) &&
	    same_text(bv, nv)) {
		put(d, name, "", nv);
		return;
	}
	put(d, name, "", nv);
	put(d, name, "_base", bv);
	if (numb && numn && !only) {
		put_change(d, name, bv, nv, desc, run, base_run);
		return;
	}
	if ((numb || blankb) && (numn || blankn)) {
		put_null(d, name, "_delta");
		put_null(d, name, "_pct");
		return;
	}
	if (!only && (numb || numn)) {
		/* A string on one side, a number on the other: no guess. */
		if (d->mismatched++ == 0) {
			strbuf_reset(&kb);
			strbuf_addf(&kb, "%s: %s", desc, name);
			d->first_mismatch = strbuf_detach(&kb, NULL);
		}
		put_null(d, name, "_delta");
		put_null(d, name, "_pct");
	}
}

/* Provenance and source lines: the record's run is "run" here. */
static int
unwritten(const char *name)
{
	return strcmp(name, "run") == 0 || strcmp(name, "label") == 0 ||
	    strcmp(name, "line") == 0;
}

/* The identity fields, from the later run's record where it has one. */
static void
put_identity(struct diff *d, enum kind kind, struct fields *first,
    struct fields *second)
{
	size_t i;
	long j;

	for (i = 0; i < first->n; i++) {
		if (!kind_identity(kind, fname(first, i)))
			continue;
		first->f[i].done = 1;
		if (unwritten(fname(first, i)))
			continue;
		if ((j = fields_find(second, fname(first, i), i)) >= 0)
			second->f[j].done = 1;
		ndw_raw(&d->w, fname(first, i), first->f[i].v.p,
		    first->f[i].v.len);
	}
	for (i = 0; i < second->n; i++) {
		if (second->f[i].done || !kind_identity(kind,
		    fname(second, i)))
			continue;
		second->f[i].done = 1;
		if (unwritten(fname(second, i)))
			continue;
		ndw_raw(&d->w, fname(second, i), second->f[i].v.p,
		    second->f[i].v.len);
	}
}

void
diff_emit(struct diff *d, enum kind kind, const char *desc,
    const char *bline, size_t blen, const char *nline, size_t nlen,
    const char *run, const char *base_run)
{
	struct nd_slice none = { NULL, 0 };
	int only = bline == NULL || nline == NULL;
	size_t i;
	long j;

	fields_parse(&fb, bline, blen);
	fields_parse(&fn, nline, nlen);
	ndw_begin(&d->w);
	ndw_strz(&d->w, "run", run);
	ndw_strz(&d->w, "base_run", base_run);
	if (only)
		ndw_strz(&d->w, "only", bline == NULL ? "new" : "base");
	if (nline != NULL)
		put_identity(d, kind, &fn, &fb);
	else
		put_identity(d, kind, &fb, &fn);
	for (i = 0; i < fb.n; i++) {
		if (fb.f[i].done)
			continue;
		j = fields_find(&fn, fname(&fb, i), i);
		if (j >= 0)
			fn.f[j].done = 1;
		compare(d, fname(&fb, i), fb.f[i].v, j >= 0 ? fn.f[j].v :
		    none, only, desc, run, base_run);
	}
	for (i = 0; i < fn.n; i++)
		if (!fn.f[i].done)
			compare(d, fname(&fn, i), none, fn.f[i].v, only, desc,
			    run, base_run);
	ndw_end(&d->w);
	if (ndw_emit(&d->w, d->out) != 0)
		die_errno("write error");
	d->written++;
}

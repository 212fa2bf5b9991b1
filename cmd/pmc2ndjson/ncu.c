/*
 * ncu.c: Nsight Compute CSV (ncu --csv), --page raw (one row per kernel
 * after a units row) and --page details (one row per metric, pivoted into
 * one record per kernel with a nested object per section).
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hmap.h"
#include "ndw.h"
#include "pmc.h"
#include "xmem.h"

#define SOL "GPU Speed Of Light Throughput"

/* One section of the kernel being gathered (details page). */
struct sec {
	struct strbuf vals, units;
};

/* The kernel being gathered (details page). */
struct kern {
	struct strbuf id, launch, rules, dur;
	struct hmap secs;	/* name -> struct sec */
	int open, has_map;
};

/* Nanoseconds per unit of a time unit as ncu writes it; 0 if unknown. */
static double
ns_per(const char *u)
{
	static const struct { const char *name; double f; } t[] = {
		{ "ns", 1 }, { "nsecond", 1 }, { "us", 1e3 },
		{ "usecond", 1e3 }, { "ms", 1e6 }, { "msecond", 1e6 },
		{ "s", 1e9 }, { "second", 1e9 }
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(u, t[i].name) == 0)
			return t[i].f;
	return 0;
}

/* Appends ,"dur_ns":X for value v in unit u, when both make sense. */
static void
put_dur(struct strbuf *rec, const char *v, size_t len, const char *u)
{
	struct strbuf num = STRBUF_INIT;
	double f = ns_per(u);

	put_cell(&num, v, len, CELL_NCU);
	if (f != 0 && num.len > 0 && (num.buf[0] == '-' ||
	    (num.buf[0] >= '0' && num.buf[0] <= '9'))) {
		strbuf_addstr(rec, ",\"dur_ns\":");
		if (f == 1 && is_integer(num.buf, num.len))
			strbuf_add(rec, num.buf, num.len);
		else
			ndw_fmt_f64(rec, strtod(num.buf, NULL) * f);
	}
	strbuf_release(&num);
}

/* --page raw: the units row, then one record per row. */
static void
raw_stream(struct pmc *pm, struct csvr *r, struct hdr *h)
{
	struct strbuf rec = STRBUF_INIT, units = STRBUF_INIT;
	struct csvr_row row;
	long dur = hdr_find(h, "gpu__time_duration.sum");
	size_t i;
	int rc, first = 1;

	while ((rc = next_row(r, &row)) != 0) {
		if (!row_ok(pm, r, rc, &row, h->n, h->n)) {
			first = 0;
			continue;
		}
		if (first && row.len[0] == 0) {
			rec_begin(pm, &rec, "units");
			for (i = 0; i < h->n; i++)
				if (row.len[i] > 0) {
					strbuf_add(&rec, h->key[i],
					    h->keylen[i]);
					ndw_quote(&rec, row.f[i], row.len[i],
					    0);
				}
			strbuf_addch(&rec, '}');
			emit(pm, &rec);
			if (dur >= 0)
				strbuf_add(&units, row.f[dur], row.len[dur]);
			first = 0;
			continue;
		}
		first = 0;
		strbuf_reset(&rec);
		rec_begin(pm, &rec, "dispatch");
		for (i = 0; i < h->n; i++) {
			if (!h->keep[i])
				continue;
			strbuf_add(&rec, h->key[i], h->keylen[i]);
			put_cell(&rec, row.f[i], row.len[i], CELL_NCU);
		}
		if (dur >= 0)
			put_dur(&rec, row.f[dur], row.len[dur], units.buf);
		strbuf_addch(&rec, '}');
		emit(pm, &rec);
	}
	strbuf_release(&rec);
	strbuf_release(&units);
}

/* Columns of the details page. */
struct dcol {
	long id, sec, name, unit, val;
};

static void
kern_free(struct kern *k)
{
	size_t i;

	if (k->has_map) {
		for (i = 0; i < k->secs.n; i++) {
			struct sec *s = k->secs.ents[i].val;

			strbuf_release(&s->vals);
			strbuf_release(&s->units);
			free(s);
		}
		hmap_release(&k->secs);
	}
	k->has_map = 0;
}

static void
kern_reset(struct kern *k)
{
	kern_free(k);
	hmap_init(&k->secs, 16);
	k->has_map = 1;
	strbuf_reset(&k->id);
	strbuf_reset(&k->launch);
	strbuf_reset(&k->rules);
	strbuf_reset(&k->dur);
	k->open = 0;
}

/* Appends the members in sb (each starting with a comma) as an object. */
static void
put_obj(struct strbuf *rec, const char *key, size_t klen,
    const struct strbuf *sb)
{
	strbuf_addch(rec, ',');
	ndw_quote(rec, key, klen, 0);
	strbuf_addch(rec, ':');
	strbuf_addch(rec, '{');
	if (sb->len > 0)
		strbuf_add(rec, sb->buf + 1, sb->len - 1);
	strbuf_addch(rec, '}');
}

static void put_units(struct pmc *pm, struct strbuf *rec, const struct kern *k);

static void
kern_emit(struct pmc *pm, struct kern *k, struct strbuf *rec)
{
	size_t i;

	if (!k->open)
		return;
	strbuf_reset(rec);
	rec_begin(pm, rec, "dispatch");
	strbuf_add(rec, k->launch.buf, k->launch.len);
	for (i = 0; i < k->secs.n; i++)
		if (keep_column(pm, k->secs.ents[i].key, k->secs.ents[i].len))
			put_obj(rec, k->secs.ents[i].key, k->secs.ents[i].len,
			    &((struct sec *)k->secs.ents[i].val)->vals);
	strbuf_add(rec, k->dur.buf, k->dur.len);
	if (keep_column(pm, "units", 5))
		put_units(pm, rec, k);
	if (keep_column(pm, "rules", 5)) {
		strbuf_addstr(rec, ",\"rules\":[");
		if (k->rules.len > 0)
			strbuf_add(rec, k->rules.buf + 1, k->rules.len - 1);
		strbuf_addch(rec, ']');
	}
	strbuf_addch(rec, '}');
	emit(pm, rec);
}

/* Appends the units object: per section, each metric's unit. */
static void
put_units(struct pmc *pm, struct strbuf *rec, const struct kern *k)
{
	size_t i, n;

	strbuf_addstr(rec, ",\"units\":{");
	for (i = n = 0; i < k->secs.n; i++) {
		struct sec *s = k->secs.ents[i].val;
		size_t at = rec->len;

		if (s->units.len == 0 || !keep_column(pm, k->secs.ents[i].key,
		    k->secs.ents[i].len))
			continue;
		put_obj(rec, k->secs.ents[i].key, k->secs.ents[i].len,
		    &s->units);
		if (n++ == 0) {	/* the first member has no comma */
			memmove(rec->buf + at, rec->buf + at + 1,
			    rec->len - at - 1);
			strbuf_setlen(rec, rec->len - 1);
		}
	}
	strbuf_addch(rec, '}');
}

/* Starts gathering the kernel of row: its launch columns. */
static void
kern_start(struct kern *k, const struct hdr *h, const struct csvr_row *row,
    const struct dcol *c)
{
	long i;

	kern_reset(k);
	k->open = 1;
	strbuf_add(&k->id, row->f[c->id], row->len[c->id]);
	for (i = 0; i < c->sec; i++) {
		if (!h->keep[i])
			continue;
		strbuf_add(&k->launch, h->key[i], h->keylen[i]);
		put_cell(&k->launch, row->f[i], row->len[i], CELL_NCU);
	}
}

/* Adds a metric row (to its section) or a rule row (to the rules). */
static void
kern_add(struct kern *k, const struct hdr *h, const struct csvr_row *row,
    const struct dcol *c)
{
	const char *sname = row->f[c->sec], *name = row->f[c->name];
	const char *unit = (size_t)c->unit < row->n ? row->f[c->unit] : "";
	const char *val = (size_t)c->val < row->n ? row->f[c->val] : "";
	struct sec *s;
	void **slot;
	size_t i;

	if (*name == '\0') {
		strbuf_addstr(&k->rules, ",{");
		strbuf_add(&k->rules, h->key[c->sec] + 1,
		    h->keylen[c->sec] - 1);
		ndw_quote(&k->rules, sname, strlen(sname), 0);
		for (i = (size_t)c->val + 1; i < h->n; i++) {
			strbuf_add(&k->rules, h->key[i], h->keylen[i]);
			put_cell(&k->rules, i < row->n ? row->f[i] : "",
			    i < row->n ? row->len[i] : 0, CELL_NCU);
		}
		strbuf_addch(&k->rules, '}');
		return;
	}
	slot = hmap_put(&k->secs, sname, strlen(sname));
	if (*slot == NULL) {
		s = xcalloc(1, sizeof(*s));
		strbuf_init(&s->vals, 0);
		strbuf_init(&s->units, 0);
		*slot = s;
	}
	s = *slot;
	strbuf_addch(&s->vals, ',');
	ndw_quote(&s->vals, name, strlen(name), 0);
	strbuf_addch(&s->vals, ':');
	put_cell(&s->vals, val, strlen(val), CELL_NCU);
	if (*unit != '\0') {
		strbuf_addch(&s->units, ',');
		ndw_quote(&s->units, name, strlen(name), 0);
		strbuf_addch(&s->units, ':');
		ndw_quote(&s->units, unit, strlen(unit), 0);
	}
	if (strcmp(sname, SOL) == 0 && strcmp(name, "Duration") == 0) {
		strbuf_reset(&k->dur);
		put_dur(&k->dur, val, strlen(val), unit);
	}
}

/* --page details: the rows of one ID make one record. */
static void
details_stream(struct pmc *pm, struct csvr *r, struct hdr *h)
{
	struct kern k;
	struct strbuf rec = STRBUF_INIT;
	struct csvr_row row;
	struct dcol c;
	int rc;

	c.id = hdr_find(h, "ID");
	c.sec = hdr_find(h, "Section Name");
	c.name = hdr_find(h, "Metric Name");
	c.unit = hdr_find(h, "Metric Unit");
	c.val = hdr_find(h, "Metric Value");
	memset(&k, 0, sizeof(k));
	strbuf_init(&k.id, 0);
	strbuf_init(&k.launch, 0);
	strbuf_init(&k.rules, 0);
	strbuf_init(&k.dur, 0);
	if (c.sec < 0 || c.unit < 0 || c.id >= c.sec || c.name <= c.sec ||
	    c.val <= c.name) {
		warn_at(&r->pos, "unknown Nsight Compute details layout");
		pm->rc = EXIT_FAILURE;
		return;
	}
	while ((rc = next_row(r, &row)) != 0) {
		if (!row_ok(pm, r, rc, &row, (size_t)c.name + 1, h->n))
			continue;
		if (!k.open || row.len[c.id] != k.id.len ||
		    memcmp(row.f[c.id], k.id.buf, k.id.len) != 0) {
			kern_emit(pm, &k, &rec);
			kern_start(&k, h, &row, &c);
		}
		kern_add(&k, h, &row, &c);
	}
	kern_emit(pm, &k, &rec);
	kern_free(&k);
	strbuf_release(&k.id);
	strbuf_release(&k.launch);
	strbuf_release(&k.rules);
	strbuf_release(&k.dur);
	strbuf_release(&rec);
}

static int
ncu_detect(const struct hdr *h)
{
	return hdr_find(h, "ID") >= 0 && hdr_find(h, "Kernel Name") >= 0;
}

static void
ncu_stream(struct pmc *pm, struct csvr *r, struct hdr *h,
    const struct pmc_input *in)
{
	(void)in;
	if (hdr_find(h, "Metric Name") >= 0 &&
	    hdr_find(h, "Metric Value") >= 0)
		details_stream(pm, r, h);
	else
		raw_stream(pm, r, h);
}

/* Nsight Compute exports are single files, never a workload directory's. */
const struct pmc_format format_ncu = {
	.name = "ncu",
	.in_dirs = 0,
	.detect = ncu_detect,
	.stream = ncu_stream,
};

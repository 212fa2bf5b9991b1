/*
 * chart2html: renders NDJSON records as one self-contained HTML page of
 * tables and charts.
 *
 * Records are read whole, grouped into sections (one per input named with
 * --section, or per value of --group KEY) and, inside a section, by kind:
 * the "type" of a record when it has one (dispatch, sysinfo, roofline,
 * instruction, summary, ...), else "metric" (metric-eval), "statistics"
 * (topn) or "records".  Each group is embedded column by column, with
 * repeated values stored once, as JSON inside <script type="application/
 * json">; assets/chart.js lays the groups out and draws them in the page.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "arena.h"
#include "assets.h"
#include "hmap.h"
#include "html.h"
#include "jqf.h"
#include "nd.h"
#include "ndw.h"
#include "ofile.h"
#include "sniff.h"
#include "opt.h"
#include "progress.h"
#include "strbuf.h"
#include "xmem.h"

/* A value of a column and the row it is in. */
struct cell {
	size_t row;
	struct nd_slice v;
};

/* One top-level key of a group: its values, in row order (only the rows
 * that have the key: most keys of a metric stream are in few tables). */
struct col {
	char *key;
	size_t keylen;
	uint32_t index;		/* in the group's column order */
	struct cell *cells;
	size_t n, alloc;
};

/* Records of one kind in one section. */
struct group {
	char *name;
	size_t rows;
	struct hmap cols;	/* key -> struct col */
	struct hmap shapes;	/* packed column indices -> shape number */
	uint32_t *shape;	/* per row */
	size_t shape_alloc;
};

struct section {
	char *name;
	struct hmap groups;	/* kind -> struct group */
};

static struct {
	struct opt_common com;
	const char *group;
	const char *title;
	struct strbuf views;	/* JSON array elements, comma separated */
	struct { const char *name, *file; } *secs;	/* --section */
	size_t nsec;
} opt = { .com = OPT_COMMON_INIT, .views = STRBUF_INIT };

static struct arena mem;		/* record text and names */
static struct hmap sections;		/* name + '\0' + group value */
static struct bad_input bad = BAD_INPUT_INIT;
static struct jqf *where;
static uint64_t nrecords;

static const struct opt_help help[] = {
	{ "--bar LABEL=VALUE", "one bar per record: VALUE, labelled LABEL" },
	{ "--group KEY", "one section per value of KEY" },
	{ "--heatmap X,Y=VALUE", "a heatmap of VALUE across X and down Y" },
	{ "--scatter X,Y", "a scatter plot of Y against X" },
	{ "--section NAME FILE", "read FILE into a section titled NAME" },
	{ "--table", "a table of every key (the default view)" },
	{ "--timeline START,END[,LANE]", "spans from START to END, one row "
	    "per LANE" },
	{ "--title TEXT", "the page's title" },
	{ NULL, NULL }
};

static void
usage(int rc)
{
	FILE *fp = rc == EXIT_SUCCESS ? stdout : stderr;

	fprintf(fp, "usage: chart2html [-h] [--bar label=value] "
	    "[--group key] [--heatmap x,y=value] [--no-progress] [-o file] "
	    "[--progress] [--scatter x,y] [--section name file] [--strict] "
	    "[--table] [--timeline start,end[,lane]] [--title text] "
	    "[--version] [--where expr] [file ...]\n");
	if (rc == EXIT_SUCCESS)
		opt_help(stdout, help);
	exit(rc);
}

/* Splits arg at the last sep into two non-empty parts. */
static int
split_last(char *arg, int sep, char **a, char **b)
{
	char *s = strrchr(arg, sep);

	if (s == NULL || s == arg || s[1] == '\0')
		return -1;
	*s = '\0';
	*a = arg;
	*b = s + 1;
	return 0;
}

/* Adds {"type":type,names[i]:parts[i]...} to opt.views. */
static void
add_view(const char *type, const char *const names[], char *const parts[],
    int n)
{
	int i;

	if (opt.views.len > 0)
		strbuf_addch(&opt.views, ',');
	strbuf_addstr(&opt.views, "{\"type\":");
	ndw_quote(&opt.views, type, strlen(type), NDW_HTML_SAFE);
	for (i = 0; i < n; i++) {
		strbuf_addch(&opt.views, ',');
		ndw_quote(&opt.views, names[i], strlen(names[i]), 0);
		strbuf_addch(&opt.views, ':');
		ndw_quote(&opt.views, parts[i], strlen(parts[i]),
		    NDW_HTML_SAFE);
	}
	strbuf_addch(&opt.views, '}');
}

/* Parses the argument of a view option; a malformed one is a usage error. */
static void
parse_view(const char *type, const char *arg)
{
	static const char *const bar[] = { "label", "value" };
	static const char *const heat[] = { "x", "y", "value" };
	static const char *const tl[] = { "start", "end", "lane" };
	static const char *const sc[] = { "x", "y" };
	char *s = arena_strndup(&mem, arg, strlen(arg)), *p[3], *q;
	const char *const *names = sc;
	int n = 0;

	if (strcmp(type, "bar") == 0) {
		if (split_last(s, '=', &p[0], &p[1]) == 0)
			n = 2, names = bar;
	} else if (strcmp(type, "heatmap") == 0) {
		if (split_last(s, '=', &p[0], &p[2]) == 0 &&
		    split_last(p[0], ',', &p[0], &p[1]) == 0)
			n = 3, names = heat;
	} else if (strcmp(type, "timeline") == 0) {
		names = tl;
		for (p[n++] = s; n < 3 && (q = strchr(p[n - 1], ',')) != NULL;
		    n++) {
			*q = '\0';
			p[n] = q + 1;
		}
		if (n < 2 || strchr(p[n - 1], ',') != NULL ||
		    *p[0] == '\0' || *p[1] == '\0' || *p[n - 1] == '\0')
			n = 0;
	} else if (split_last(s, ',', &p[0], &p[1]) == 0) {
		n = 2;
	}
	if (n == 0)
		die_usage("--%s: bad argument '%s'", type, arg);
	add_view(type, names, p, n);
}

static struct section *
get_section(const char *name, size_t namelen, struct nd_slice gval)
{
	struct strbuf key = STRBUF_INIT;
	struct section *s;
	void **slot;
	int isnew;

	strbuf_add(&key, name, namelen);
	strbuf_addch(&key, '\0');
	if (gval.p != NULL)
		strbuf_add(&key, gval.p, gval.len);
	slot = hmap_put2(&sections, key.buf, key.len, &isnew);
	if (isnew) {
		s = arena_alloc(&mem, sizeof(*s));
		strbuf_reset(&key);
		strbuf_add(&key, name, namelen);
		if (opt.group != NULL) {
			if (namelen > 0)
				strbuf_addstr(&key, " / ");
			if (gval.p == NULL)
				strbuf_addf(&key, "(no %s)", opt.group);
			else if (nd_val_str(gval, &key) != 0)
				strbuf_add(&key, gval.p, gval.len);
		}
		s->name = arena_strndup(&mem, key.buf, key.len);
		hmap_init(&s->groups, 8);
		*slot = s;
	}
	strbuf_release(&key);
	return *slot;
}

static struct group *
get_group(struct section *s, const char *kind, size_t len)
{
	struct group *g;
	int isnew;
	void **slot = hmap_put2(&s->groups, kind, len, &isnew);

	if (isnew) {
		g = arena_alloc(&mem, sizeof(*g));
		memset(g, 0, sizeof(*g));
		g->name = arena_strndup(&mem, kind, len);
		hmap_init(&g->cols, 32);
		hmap_init(&g->shapes, 8);
		*slot = g;
	}
	return *slot;
}

/*
 * The kind of a record: its "type" string, else what its keys say.
 * Returns NULL (with why set) for a record of a known kind that lacks
 * what its kind needs.
 */
static const char *
record_kind(const char *line, size_t len, struct strbuf *kind,
    const char **why)
{
	static const char *const keys[] = {
		"type", "metric_id", "panel_id", "table_id", "count", "sum",
		"sum_ns", "sum_us", "sum_ms", "sum_s",	/* topn --unit */
		"base_run",
	};
	struct nd_slice v[11];
	int i;

	*why = NULL;
	if (nd_fields(line, len, keys, v, 11) < 0) {
		*why = nd_error();
		return NULL;
	}
	strbuf_reset(kind);
	/* recdiff's records, whatever kind they compare. */
	if (nd_type(v[10]) == ND_STRING) {
		strbuf_addstr(kind, "comparison");
		return kind->buf;
	}
	if (v[0].p != NULL && nd_val_str(v[0], kind) == 0 && kind->len > 0)
		return kind->buf;
	if (v[1].p != NULL && v[2].p != NULL) {
		if (nd_type(v[1]) != ND_STRING || v[3].p == NULL) {
			*why = "metric record needs a string 'metric_id' "
			    "and a 'table_id'";
			return NULL;
		}
		strbuf_addstr(kind, "metric");
	} else {
		for (i = 5; i < 10 && v[i].p == NULL; i++)
			;
		strbuf_addstr(kind, v[4].p != NULL && i < 10 &&
		    nd_type(v[4]) == ND_NUMBER ? "statistics" : "records");
	}
	return kind->buf;
}

static void
col_set(struct col *c, size_t row, struct nd_slice v)
{
	if (c->n > 0 && c->cells[c->n - 1].row == row) {
		c->cells[c->n - 1].v = v;	/* a repeated key: last wins */
		return;
	}
	XGROW(c->cells, c->n + 1, c->alloc);
	c->cells[c->n].row = row;
	c->cells[c->n++].v = v;
}

/* Adds the members of one record (text owned by mem) to g. */
static void
group_add(struct group *g, const char *line, size_t len,
    struct strbuf *scratch, struct strbuf *shape)
{
	struct nd_slice all = { line, len }, k, v;
	struct nd_iter it;
	struct col *c;
	void **slot;
	uint32_t ci;
	int isnew;

	strbuf_reset(shape);
	nd_iter_init(&it, all);
	while (nd_iter_next(&it, &k, &v) == 1) {
		strbuf_reset(scratch);
		nd_val_str(k, scratch);
		slot = hmap_put2(&g->cols, scratch->buf, scratch->len, &isnew);
		if (isnew) {
			c = arena_alloc(&mem, sizeof(*c));
			memset(c, 0, sizeof(*c));
			c->key = arena_strndup(&mem, scratch->buf,
			    scratch->len);
			c->keylen = scratch->len;
			c->index = (uint32_t)(g->cols.n - 1);
			*slot = c;
		}
		c = *slot;
		if (c->n > 0 && c->cells[c->n - 1].row == g->rows) {
			col_set(c, g->rows, v);	/* a repeated key */
			continue;
		}
		col_set(c, g->rows, v);
		ci = c->index;
		strbuf_add(shape, &ci, sizeof(ci));
	}
	slot = hmap_put2(&g->shapes, shape->buf, shape->len, &isnew);
	if (isnew)
		*slot = (void *)(uintptr_t)(g->shapes.n - 1);
	XGROW(g->shape, g->rows + 1, g->shape_alloc);
	g->shape[g->rows++] = (uint32_t)(uintptr_t)*slot;
}

/* Scratch buffers of chart2html_record(). */
struct chart_input {
	const char *name;	/* the section; NULL: the unnamed one */
	struct strbuf kind, scratch, shape;
};

static void
chart2html_record(struct nd_reader *r, void *arg)
{
	struct chart_input *in = arg;
	struct nd_slice gval = { NULL, 0 };
	const char *k, *why, *name = in->name;
	char *text;

	if ((k = record_kind(r->line, r->len, &in->kind, &why)) == NULL) {
		bad_input(&bad, &r->pos, "%s", why);
		return;
	}
	if (jqf_keep(where, r->line, r->len, &bad, &r->pos) != 1)
		return;
	if (opt.group != NULL) {
		const char *gk[1] = { opt.group };
		nd_fields(r->line, r->len, gk, &gval, 1);
	}
	text = arena_strndup(&mem, r->line, r->len);
	if (gval.p != NULL)
		gval.p = text + (gval.p - r->line);
	group_add(get_group(get_section(name ? name : "",
	    name ? strlen(name) : 0, gval), k, strlen(k)),
	    text, r->len, &in->scratch, &in->shape);
	progress_update(++nrecords, 0);
}

/* Reads one input into section name (NULL: the unnamed section). */
static int
chart2html_stream(const char *path, const char *name)
{
	struct chart_input in = { name, STRBUF_INIT, STRBUF_INIT,
		STRBUF_INIT };
	int rc;
	const struct nd_loop loop = { chart2html_record, &in, &bad,
		SNIFF_NOT_NDJSON | SNIFF_BIT(SNIFF_TRACE), NULL };

	rc = nd_each(path, &loop);
	strbuf_release(&in.kind);
	strbuf_release(&in.scratch);
	strbuf_release(&in.shape);
	return rc < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
 * Appends a validated JSON value so that it can sit inside <script> (see
 * ndw_fmt_raw()).  With quote set, the value (a number) is written as a
 * string.
 */
static void
put_value(struct strbuf *sb, struct nd_slice v, int quote)
{
	if (v.p == NULL) {
		strbuf_addstr(sb, "null");
		return;
	}
	if (quote)
		strbuf_addch(sb, '"');
	ndw_fmt_raw(sb, v.p, v.len, NDW_HTML_SAFE);
	if (quote)
		strbuf_addch(sb, '"');
}

/* An integer token that a double cannot hold exactly (over 2^53). */
static int
is_big_int(struct nd_slice v)
{
	size_t i, digits = 0;

	if (v.p == NULL || nd_type(v) != ND_NUMBER)
		return 0;
	for (i = 0; i < v.len; i++) {
		if (v.p[i] == '.' || v.p[i] == 'e' || v.p[i] == 'E')
			return 0;
		if (v.p[i] >= '0' && v.p[i] <= '9')
			digits++;
	}
	return digits > 15;
}

/* Appends sep (if not NUL) and v in decimal: printf is the bottleneck. */
static void
put_num(struct strbuf *sb, int sep, int64_t v)
{
	if (sep)
		strbuf_addch(sb, sep);
	ndw_fmt_i64(sb, v);
}

/*
 * Appends the integers a[0..n-1] as a JSON array, or as {"runs":[start,
 * step,count,...]} (arithmetic runs) when that is shorter: the indexes of
 * a per-kernel report repeat in long runs.
 */
static void
put_ints(struct strbuf *sb, const uint32_t *a, size_t n)
{
	size_t plain = sb->len, i, j;
	int64_t step;

	strbuf_addch(sb, '[');
	for (i = 0; i < n; i++)
		put_num(sb, i ? ',' : 0, a[i]);
	strbuf_addch(sb, ']');
	if (n < 8)
		return;
	strbuf_addstr(sb, "{\"runs\":[");
	for (i = 0; i < n; i = j) {
		step = i + 1 < n ? (int64_t)a[i + 1] - a[i] : 0;
		for (j = i + 1; j < n && (int64_t)a[j] - a[j - 1] == step; j++)
			;
		put_num(sb, i ? ',' : 0, a[i]);
		put_num(sb, ',', step);
		put_num(sb, ',', (int64_t)(j - i));
	}
	strbuf_addstr(sb, "]}");
	i = sb->len - plain;		/* both forms */
	j = (size_t)(strchr(sb->buf + plain, ']') - (sb->buf + plain)) + 1;
	if (i - j < j)			/* runs are shorter */
		memmove(sb->buf + plain, sb->buf + plain + j, i - j);
	strbuf_setlen(sb, plain + (i - j < j ? i - j : j));
}

/*
 * Writes one column: {"key":K,"vals":[...]} or, when repeated values make
 * it smaller, {"key":K,"dict":[distinct...],"idx":INTS} (see put_ints).
 * A column with integers beyond 2^53 carries its numbers as strings and
 * "big":1.  Absent values are null (the row's shape says which keys it
 * has).
 */
static void
put_col(struct strbuf *sb, struct col *c, size_t rows, uint32_t *idx)
{
	struct hmap seen;
	struct strbuf dict = STRBUF_INIT;
	size_t i, k, raw = 0, nd = 0, mark;
	struct nd_slice nul = { "null", 4 };
	void **slot;
	long absent = -1;
	int big = 0, isnew;

	for (i = 0; i < c->n; i++)
		if (is_big_int(c->cells[i].v))
			big = 1;
	strbuf_addstr(sb, "{\"key\":");
	ndw_quote(sb, c->key, c->keylen, NDW_HTML_SAFE);
	if (big)
		strbuf_addstr(sb, ",\"big\":1");
	hmap_init(&seen, 64);
	for (i = k = 0; i < rows; i++) {
		struct nd_slice v = k < c->n && c->cells[k].row == i ?
		    c->cells[k++].v : nul;

		raw += v.len + 1;
		if (v.p == nul.p && absent >= 0) {	/* most rows of a */
			idx[i] = (uint32_t)absent;	/* sparse column */
			continue;
		}
		slot = hmap_put2(&seen, v.p, v.len, &isnew);
		if (isnew) {
			*slot = (void *)(uintptr_t)nd++;
			if (nd > 1)
				strbuf_addch(&dict, ',');
			put_value(&dict, v, big && nd_type(v) == ND_NUMBER);
		}
		idx[i] = (uint32_t)(uintptr_t)*slot;
		if (v.p == nul.p)
			absent = (long)idx[i];
	}
	mark = sb->len;
	strbuf_addstr(sb, ",\"dict\":[");
	strbuf_add(sb, dict.buf, dict.len);
	strbuf_addstr(sb, "],\"idx\":");
	put_ints(sb, idx, rows);
	if (sb->len - mark >= raw + 9) {
		strbuf_setlen(sb, mark);
		strbuf_addstr(sb, ",\"vals\":[");
		for (i = k = 0; i < rows; i++) {
			struct nd_slice v = k < c->n && c->cells[k].row == i ?
			    c->cells[k++].v : nul;

			if (i > 0)
				strbuf_addch(sb, ',');
			put_value(sb, v.p ? v : nul,
			    big && nd_type(v) == ND_NUMBER);
		}
		strbuf_addch(sb, ']');
	}
	strbuf_addch(sb, '}');
	hmap_release(&seen);
	strbuf_release(&dict);
}

/* Writes {"kind":...,"rows":N,"cols":[...],"shapes":[...],"shape":[...]}. */
static void
put_group(FILE *fp, struct strbuf *sb, struct group *g)
{
	struct hmap_ent *e;
	uint32_t *idx = xrealloc(NULL, (g->rows + 1) * sizeof(*idx));
	size_t j;

	strbuf_addstr(sb, "{\"kind\":");
	ndw_quote(sb, g->name, strlen(g->name), NDW_HTML_SAFE);
	strbuf_addf(sb, ",\"rows\":%zu,\"cols\":[", g->rows);
	hmap_foreach(&g->cols, e) {
		if (e != g->cols.ents)
			strbuf_addch(sb, ',');
		put_col(sb, e->val, g->rows, idx);
		fwrite(sb->buf, 1, sb->len, fp);
		strbuf_reset(sb);
	}
	strbuf_addstr(sb, "],\"shapes\":[");
	hmap_foreach(&g->shapes, e) {
		const uint32_t *ci = (const uint32_t *)(const void *)e->key;

		strbuf_addstr(sb, e != g->shapes.ents ? ",[" : "[");
		for (j = 0; j < e->len / sizeof(uint32_t); j++) {
			uint32_t x;

			memcpy(&x, (const char *)ci + j * sizeof(x),
			    sizeof(x));
			put_num(sb, j ? ',' : 0, x);
		}
		strbuf_addch(sb, ']');
	}
	strbuf_addstr(sb, "],\"shape\":");
	put_ints(sb, g->shape, g->rows);
	strbuf_addch(sb, '}');
	free(idx);
	fwrite(sb->buf, 1, sb->len, fp);
	strbuf_reset(sb);
}

static void
put_data(FILE *fp)
{
	struct strbuf sb = STRBUF_INIT;
	struct hmap_ent *se, *ge;
	struct section *s;

	strbuf_addstr(&sb, "{\"format\":\"profpipe-chart\",\"version\":1,"
	    "\"title\":");
	if (opt.title != NULL)
		ndw_quote(&sb, opt.title, strlen(opt.title), NDW_HTML_SAFE);
	else
		strbuf_addstr(&sb, "null");
	strbuf_addf(&sb, ",\"skipped\":%lu,\"views\":[", bad.count);
	strbuf_add(&sb, opt.views.buf, opt.views.len);
	strbuf_addstr(&sb, "],\"sections\":[");
	hmap_foreach(&sections, se) {
		s = se->val;
		if (se != sections.ents)
			strbuf_addch(&sb, ',');
		strbuf_addstr(&sb, "{\"name\":");
		ndw_quote(&sb, s->name, strlen(s->name), NDW_HTML_SAFE);
		strbuf_addstr(&sb, ",\"groups\":[");
		hmap_foreach(&s->groups, ge) {
			if (ge != s->groups.ents)
				strbuf_addch(&sb, ',');
			put_group(fp, &sb, ge->val);
		}
		strbuf_addstr(&sb, "]}");
	}
	strbuf_addstr(&sb, "]}");
	fwrite(sb.buf, 1, sb.len, fp);
	strbuf_release(&sb);
}

static void
put_page(FILE *fp)
{
	const char *title = opt.title != NULL ? opt.title : "profpipe report";
	const struct html_page pg = {
		.title = title,
		.meta = "<meta name=\"generator\" content=\"chart2html "
		    "(profpipe) " PROFPIPE_VERSION "\">\n",
		.css = asset_chart_css, .css_len = asset_chart_css_len,
		.js = asset_chart_js, .js_len = asset_chart_js_len,
	};

	html_page_head(fp, &pg);
	fputs("<header><h1 data-testid=\"title\">", fp);
	html_text(fp, title, strlen(title));
	fputs("</h1></header>\n<main id=\"app\"><noscript>This report needs "
	    "JavaScript.</noscript></main>\n<div id=\"tooltip\" "
	    "data-testid=\"tooltip\" hidden></div>\n"
	    "<script type=\"application/json\" id=\"profpipe-data\">\n", fp);
	put_data(fp);
	fputs("\n</script>\n<script>\n", fp);
	html_asset(fp, asset_filters_js, asset_filters_js_len);
	fputs("</script>\n", fp);
	html_page_foot(fp, &pg);
}

static void
free_all(void)
{
	struct hmap_ent *se, *ge, *ce;
	struct section *s;
	struct group *g;

	hmap_foreach(&sections, se) {
		s = se->val;
		hmap_foreach(&s->groups, ge) {
			g = ge->val;
			hmap_foreach(&g->cols, ce)
				free(((struct col *)ce->val)->cells);
			hmap_release(&g->cols);
			hmap_release(&g->shapes);
			free(g->shape);
		}
		hmap_release(&s->groups);
	}
	hmap_release(&sections);
	strbuf_release(&opt.views);
	free(opt.secs);
	if (where != NULL)
		jqf_free(where);
	arena_release(&mem);
}

/* Parses the options into opt; returns the index of the first file. */
static int
parse_options(int argc, char *argv[])
{
	enum { O_BAR = OPT_OWN, O_GROUP, O_HEATMAP, O_SCATTER, O_SECTION,
	    O_TABLE, O_TIMELINE, O_TITLE };
	static const struct option longopts[] = {
		{ "bar", required_argument, NULL, O_BAR },
		{ "group", required_argument, NULL, O_GROUP },
		{ "heatmap", required_argument, NULL, O_HEATMAP },
		{ "scatter", required_argument, NULL, O_SCATTER },
		{ "section", required_argument, NULL, O_SECTION },
		{ "table", no_argument, NULL, O_TABLE },
		{ "timeline", required_argument, NULL, O_TIMELINE },
		{ "title", required_argument, NULL, O_TITLE },
		OPT__COMMON
	};
	int ch;

	/*
	 * --section takes two arguments: the name is the option's, the file
	 * is taken from argv here.  glibc's getopt counts every element up
	 * to optind as part of the options when it permutes, so the file
	 * does not come back as an operand.
	 */
	while ((ch = opt_next(argc, argv, OPT_COMMON_SHORT, longopts)) != -1)
		switch (ch) {
		case O_BAR:
		case O_HEATMAP:
		case O_SCATTER:
		case O_TIMELINE:
			parse_view(ch == O_BAR ? "bar" : ch == O_HEATMAP ?
			    "heatmap" : ch == O_SCATTER ? "scatter" :
			    "timeline", optarg);
			break;
		case O_GROUP:
			opt.group = optarg;
			break;
		case O_SECTION:
			if (optind >= argc)
				die_usage("--section: a name and a file");
			opt.secs = xrealloc(opt.secs, (opt.nsec + 1) *
			    sizeof(*opt.secs));
			opt.secs[opt.nsec].name = optarg;
			opt.secs[opt.nsec++].file = argv[optind++];
			break;
		case O_TABLE:
			add_view("table", NULL, NULL, 0);
			break;
		case O_TITLE:
			opt.title = optarg;
			break;
		default:
			opt_common(ch, optarg, &opt.com, usage);
		}
	return optind;
}

int
main(int argc, char *argv[])
{
	struct ofile out;
	FILE *fp;
	size_t i;
	int rc = EXIT_SUCCESS;

	prog_init(argv[0]);
	prog_usage(usage);
	arena_init(&mem, 1 << 20);
	hmap_init(&sections, 8);
	i = (size_t)parse_options(argc, argv);
	argc -= (int)i;
	argv += i;
	bad.strict = opt.com.strict;
	if (opt.com.where != NULL)
		where = jqf_compile(opt.com.where);

	progress_init(opt.com.progress, "records");
	if (argc == 0 && opt.nsec == 0)
		rc |= chart2html_stream("-", NULL);
	for (; argc > 0; argc--, argv++)
		rc |= chart2html_stream(*argv, NULL);
	for (i = 0; i < opt.nsec; i++)
		rc |= chart2html_stream(opt.secs[i].file, opt.secs[i].name);
	progress_done();
	if (bad_input_finish(&bad) != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	if (nrecords == 0)
		die("%s: no page written", bad.count > 0 ?
		    "no usable records" : where != NULL ?
		    "no record matches --where" : "no records");

	fp = ofile_open(&out, opt.com.output);
	put_page(fp);
	if (ofile_close(&out) != 0)
		rc = EXIT_FAILURE;
	free_all();
	return close_stdout() != 0 ? EXIT_FAILURE : rc;
}

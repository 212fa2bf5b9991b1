/*
 * test_expr.c: metric-eval's expression compiler and evaluator (expr.c,
 * eval.c) driven by the table in expr.test, one cmocka test per entry:
 * the input becomes a sysinfo record and one dispatch record per row, the
 * expression is compiled against them as a panel cell is, and the cell it
 * evaluates to is compared with the expected one.
 */
#include <math.h>

#include "../unit.h"
#include "../../../cmd/metric-eval/me.h"
#include "err.h"
#include "nd.h"
#include "strbuf.h"
#include "xmem.h"

enum want { W_NUMBER, W_BLANK, W_VECTOR, W_ERROR };

struct entry {
	char name[160];		/* expr.test:LINE: EXPRESSION */
	char *expr, *input, *want_text;
	int line;
};

static const char *table_path;

/* The input's columns, and the record of row r built from them. */
struct input {
	struct nd_slice key[64];	/* raw, quoted */
	struct nd_slice val[64][16];
	size_t nval[64];
	size_t ncols, nrows;
	struct nd_slice sysinfo;
};

static void
read_input(const struct entry *e, struct input *in)
{
	struct nd_slice all = { e->input, strlen(e->input) }, k, v, k2, v2;
	struct nd_iter it, it2;

	memset(in, 0, sizeof(*in));
	if (nd_validate(all.p, all.len) != 0 || nd_type(all) != ND_OBJECT)
		fail_msg("%s: the input is not a JSON object", e->name);
	nd_iter_init(&it, all);
	while (nd_iter_next(&it, &k, &v) == 1) {
		if (nd_str_eq(k, "sysinfo", 7)) {
			in->sysinfo = v;
			continue;
		}
		if (nd_type(v) != ND_ARRAY || in->ncols == 64)
			fail_msg("%s: a counter is not an array", e->name);
		in->key[in->ncols] = k;
		nd_iter_init(&it2, v);
		while (nd_iter_next(&it2, &k2, &v2) == 1 &&
		    in->nval[in->ncols] < 16)
			in->val[in->ncols][in->nval[in->ncols]++] = v2;
		if (in->nval[in->ncols] > in->nrows)
			in->nrows = in->nval[in->ncols];
		in->ncols++;
	}
	if (in->nrows == 0)
		in->nrows = 1;	/* one dispatch with no counters */
}

static void
row_record(const struct input *in, size_t r, struct strbuf *sb)
{
	size_t i, n = 0;

	strbuf_reset(sb);
	strbuf_addch(sb, '{');
	for (i = 0; i < in->ncols; i++) {
		if (r >= in->nval[i])
			continue;
		if (n++ > 0)
			strbuf_addch(sb, ',');
		strbuf_add(sb, in->key[i].p, in->key[i].len);
		strbuf_addch(sb, ':');
		strbuf_add(sb, in->val[i][r].p, in->val[i][r].len);
	}
	strbuf_addch(sb, '}');
}

static void
check_cell(const struct entry *e, int rc, double got)
{
	const char *w = e->want_text;
	char *end;
	double want;

	if (strcmp(w, "blank") == 0) {
		if (rc != 0)
			fail_msg("%s: want a blank cell, got %s %.17g",
			    e->name, rc < 0 ? "a vector" : "", got);
		return;
	}
	if (strcmp(w, "vector") == 0) {
		if (rc != -1)
			fail_msg("%s: want one value per dispatch, got rc %d",
			    e->name, rc);
		return;
	}
	want = strtod(w, &end);
	if (end == w || *end != '\0')
		fail_msg("%s: bad expected value '%s'", e->name, w);
	if (rc != 1)
		fail_msg("%s: want %s, got %s", e->name, w,
		    rc == 0 ? "a blank cell" : "a vector");
	if (isinf(want) ? got != want :
	    !(fabs(got - want) <= 1e-12 * fmax(1, fabs(want))))
		fail_msg("%s: want %s, got %.17g", e->name, w, got);
}

static void
run_entry(void **state)
{
	const struct entry *e = *state;
	static struct input in;
	struct strbuf rec = STRBUF_INIT, err = STRBUF_INIT;
	struct compile_env env = { .block = "pmc_perf" };
	struct table t;
	struct arena a;
	struct prog p;
	struct evctx c;
	double got = 0;
	size_t r;
	int rc;

	read_input(e, &in);
	table_init(&t);
	arena_init(&a, 0);
	if (in.sysinfo.p != NULL)
		table_sysinfo_record(&t, in.sysinfo.p, in.sysinfo.len);
	row_record(&in, 0, &rec);
	table_schema(&t, rec.buf, rec.len);
	env.t = &t;
	rc = expr_compile(e->expr, &env, &p, &a, &err);
	if (strncmp(e->want_text, "error: ", 7) == 0) {
		if (rc != -1)
			fail_msg("%s: compiled; want the error '%s'", e->name,
			    e->want_text + 7);
		if (strstr(err.buf, e->want_text + 7) == NULL)
			fail_msg("%s: error '%s', want '%s'", e->name, err.buf,
			    e->want_text + 7);
	} else {
		if (rc != 0)
			fail_msg("%s: does not compile: %s", e->name, err.buf);
		for (r = 0; r < in.nrows; r++) {
			row_record(&in, r, &rec);
			table_add_row(&t, rec.buf, rec.len, r);
		}
		table_finish(&t);
		evctx_init(&c, &t, NULL, t.nrows);
		rc = expr_eval(&p, &c, &got);
		evctx_release(&c);
		check_cell(e, rc, got);
	}
	strbuf_release(&rec);
	strbuf_release(&err);
	arena_release(&a);
	table_release(&t);
}

/* The next line that is not a comment; NULL at the end. */
static char *
next_line(FILE *fp, struct strbuf *sb, int *lineno)
{
	while (strbuf_getline(sb, fp) != EOF) {
		(*lineno)++;
		if (sb->buf[0] != '#')
			return sb->buf;
	}
	return NULL;
}

static size_t
read_table(const char *path, struct entry **out)
{
	struct strbuf sb = STRBUF_INIT;
	struct entry *v = NULL, *e;
	size_t n = 0, alloc = 0;
	int lineno = 0;
	char *s;
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL) {
		fprintf(stderr, "test_expr: cannot open '%s'\n", path);
		exit(1);
	}
	while ((s = next_line(fp, &sb, &lineno)) != NULL) {
		if (*s == '\0')
			continue;
		XGROW(v, n + 1, alloc);
		e = &v[n++];
		e->line = lineno;
		e->expr = xstrdup(s);
		snprintf(e->name, sizeof(e->name), "expr.test:%d: %s",
		    lineno, s);
		if ((s = next_line(fp, &sb, &lineno)) == NULL || *s == '\0')
			goto cut;
		e->input = xstrdup(s);
		if ((s = next_line(fp, &sb, &lineno)) == NULL || *s == '\0')
			goto cut;
		e->want_text = xstrdup(s);
	}
	fclose(fp);
	strbuf_release(&sb);
	*out = v;
	return n;
cut:
	fprintf(stderr, "test_expr: %s:%d: an entry needs an expression, an "
	    "input and an expected cell\n", path, lineno);
	exit(1);
}

int
main(int argc, char *argv[])
{
	struct CMUnitTest *tests;
	struct entry *v;
	size_t n, i;
	int rc;

	prog_init("test_expr");
	table_path = argc > 1 ? argv[1] : "tests/unit/metric-eval/expr.test";
	n = read_table(table_path, &v);
	tests = xcalloc(n, sizeof(*tests));
	for (i = 0; i < n; i++) {
		tests[i].name = v[i].name;
		tests[i].test_func = run_entry;
		tests[i].initial_state = &v[i];
	}
	rc = _cmocka_run_group_tests("expr", tests, n, NULL, NULL);
	for (i = 0; i < n; i++) {
		free(v[i].expr);
		free(v[i].input);
		free(v[i].want_text);
	}
	free(v);
	free(tests);
	return rc;
}

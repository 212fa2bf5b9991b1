#define _GNU_SOURCE	/* memmem */
/* trace.c: MIGRAPHX_TRACE_EVAL output (section 5.1) as trace records. */
#include <string.h>

#include "migx.h"
#include "xmem.h"

/*
 * A traced instruction waiting for its Time: and Output lines.  An if or
 * a loop stays open while the instructions of its submodules run, so the
 * open ones form a stack.
 */
struct tr {
	struct strbuf text, t1, t2, classes, out, stats;
	unsigned long line, seq;
	size_t out_len;
	int has_time, has_out, out_full, ctrl;
	unsigned flags;
};

static struct tr **stack;
static size_t depth, alloc;

static struct tr *
tr_push(void)
{
	struct tr *t;

	if (depth == alloc) {
		XGROW(stack, depth + 1, alloc);
		memset(stack + depth, 0, (alloc - depth) * sizeof(*stack));
	}
	if (stack[depth] == NULL) {
		t = xcalloc(1, sizeof(*t));
		strbuf_init(&t->text, 0), strbuf_init(&t->t1, 0);
		strbuf_init(&t->t2, 0), strbuf_init(&t->classes, 0);
		strbuf_init(&t->out, 0), strbuf_init(&t->stats, 0);
		stack[depth] = t;
	}
	t = stack[depth++];
	strbuf_reset(&t->text), strbuf_reset(&t->t1), strbuf_reset(&t->t2);
	strbuf_reset(&t->classes), strbuf_reset(&t->out);
	strbuf_reset(&t->stats);
	t->out_len = 0;
	t->has_time = t->has_out = t->out_full = t->ctrl = 0;
	t->flags = 0;
	return t;
}

/* Writes the pieces of s split on ", " as strings. */
static void
put_split(struct migx *mx, const char *key, const char *s, size_t n)
{
	const char *p = s, *e = s + n, *q;

	ndw_arr(&mx->w, key);
	while (p < e) {
		q = memmem(p, (size_t)(e - p), ", ", 2);
		if (q == NULL)
			q = e;
		ndw_str(&mx->w, NULL, p, (size_t)(q - p));
		p = q + 2;
	}
	ndw_close(&mx->w);
}

/* "Min value: A, Max value: B, Mean: C, StdDev: D" lines, one per '\n'. */
static void
put_stats(struct migx *mx, const struct strbuf *sb)
{
	static const char *const lab[4] = { "Min value:", "Max value:",
	    "Mean:", "StdDev:" };
	static const char *const key[4] = { "min", "max", "mean", "stddev" };
	const char *p = sb->buf, *e = sb->buf + sb->len, *le, *v, *ve;
	int i;

	ndw_arr(&mx->w, "stats");
	for (; p < e; p = le + 1) {
		le = memchr(p, '\n', (size_t)(e - p));
		ndw_obj(&mx->w, NULL);
		for (i = 0; i < 4; i++) {
			v = memmem(p, (size_t)(le - p), lab[i], strlen(lab[i]));
			if (v == NULL) {
				ndw_null(&mx->w, key[i]);
				continue;
			}
			v += strlen(lab[i]);
			while (v < le && *v == ' ')
				v++;
			for (ve = v; ve < le && *ve != ','; ve++)
				;
			put_num(mx, key[i], v, (size_t)(ve - v));
		}
		ndw_close(&mx->w);
	}
	ndw_close(&mx->w);
}

static void
tr_emit(struct migx *mx, struct run *r, struct tr *t)
{
	struct instr in;
	struct sl rest;

	rec_begin(mx, "trace", r, t->line);
	ndw_u64(&mx->w, "seq", t->seq);
	if (instr_parse(t->text.buf, t->text.len, &in, &rest) == 0) {
		ndw_obj(&mx->w, "instruction");
		ndw_raw(&mx->w, "section", "\"trace\"", 7);
		instr_fields(mx, &in, "trace", NULL, 0);
		ndw_close(&mx->w);
	} else {
		ndw_null(&mx->w, "instruction");
		ndw_str(&mx->w, "instruction_raw", t->text.buf, t->text.len);
	}
	if (t->t1.len > 0)
		put_num(mx, "launch_ms", t->t1.buf, t->t1.len);
	else
		ndw_null(&mx->w, "launch_ms");
	if (t->t2.len > 0)
		put_num(mx, "sync_ms", t->t2.buf, t->t2.len);
	else
		ndw_null(&mx->w, "sync_ms");
	if (t->classes.len > 0)
		put_split(mx, "classes", t->classes.buf, t->classes.len);
	else
		ndw_null(&mx->w, "classes");
	if (t->has_out && !t->out_full)
		ndw_str(&mx->w, "preview_raw", t->out.buf, t->out.len);
	else
		ndw_null(&mx->w, "preview_raw");
	if (t->stats.len > 0)
		put_stats(mx, &t->stats);
	else
		ndw_null(&mx->w, "stats");
	if (t->has_out && t->out_full) {
		ndw_u64(&mx->w, "output_raw_len", t->out_len);
		if (mx->opt.keep_output)
			ndw_str(&mx->w, "output_raw", t->out.buf, t->out.len);
	} else
		ndw_null(&mx->w, "output_raw_len");
	rec_flags(mx, t->flags);
	rec_emit(mx);
}

static void
pop_emit(struct migx *mx, struct run *r)
{
	tr_emit(mx, r, stack[--depth]);
}

/* Is this Output: text a preview (first 5, ..., last 5; or 10 or fewer)? */
static int
is_preview(const char *s, size_t n)
{
	const char *p = s, *e = s + n;
	int commas = 0;

	if (memmem(s, n, ", ..., ", 7) != NULL)
		return 1;
	while ((p = memmem(p, (size_t)(e - p), ", ", 2)) != NULL) {
		if (++commas >= 10)
			return 0;
		p += 2;
	}
	return 1;
}

static int
prefix(const char *s, size_t n, const char *z, size_t *k)
{
	*k = strlen(z);
	return n >= *k && memcmp(s, z, *k) == 0;
}

static void
start(struct migx *mx, struct run *r, const char *s, size_t n, unsigned flags)
{
	struct tr *t;
	struct instr in;
	struct sl rest;

	while (depth > 0 && (stack[depth - 1]->has_time ||
	    !stack[depth - 1]->ctrl))
		pop_emit(mx, r);
	t = tr_push();
	strbuf_add(&t->text, s, n);
	t->line = mx->pos.line;
	t->seq = r->seq_trace++;
	t->flags = flags;
	t->ctrl = instr_parse(s, n, &in, &rest) == 0 && in.modargs.p != NULL;
}

/* "Time: T1ms, T2ms" */
static int
timing(const char *s, size_t n, struct tr *t)
{
	const char *e = s + n, *c, *a;

	c = memchr(s, ',', n);
	if (c == NULL || c - s < 2 || memcmp(c - 2, "ms", 2) != 0)
		return -1;
	strbuf_add(&t->t1, s, (size_t)(c - 2 - s));
	for (a = c + 1; a < e && *a == ' '; a++)
		;
	while (e > a && e[-1] == ' ')
		e--;
	if (e - a < 2 || memcmp(e - 2, "ms", 2) != 0)
		return -1;
	strbuf_add(&t->t2, a, (size_t)(e - 2 - a));
	t->has_time = 1;
	return 0;
}

/*
 * A TRACE_EVAL line: returns 1 when taken, 0 when s is not one (or
 * belongs to no traced instruction).
 */
int
trace_line(struct migx *mx, struct run *r, const char *s, size_t n)
{
	struct tr *t;
	size_t k;

	if (prefix(s, n, "Run instruction: ", &k)) {
		start(mx, r, s + k, n - k, 0);
		return 1;
	}
	if (depth == 0)
		return 0;
	t = stack[depth - 1];
	if (prefix(s, n, "Time: ", &k)) {
		while (depth > 1 && stack[depth - 1]->has_time)
			pop_emit(mx, r);
		t = stack[depth - 1];
		if (t->has_time)
			return 0;
		if (timing(s + k, n - k, t) < 0) {
			strbuf_reset(&t->t1), strbuf_reset(&t->t2);
			return 0;
		}
		return 1;
	}
	if (prefix(s, n, "Output has ", &k)) {
		strbuf_reset(&t->classes);
		strbuf_add(&t->classes, s + k, n - k);
		return 1;
	}
	if (prefix(s, n, "Output: ", &k) || prefix(s, n, "Ouput: ", &k)) {
		t->has_out = 1;
		t->out_len = n - k;
		t->out_full = !is_preview(s + k, n - k);
		strbuf_reset(&t->out);
		if (!t->out_full || mx->opt.keep_output)
			strbuf_add(&t->out, s + k, n - k);
		return 1;
	}
	if (prefix(s, n, "Min value: ", &k)) {
		strbuf_add(&t->stats, s, n);
		strbuf_addch(&t->stats, '\n');
		return 1;
	}
	return 0;
}

/* Marks the innermost open record (the cut last line). */
void
trace_flag(unsigned flags)
{
	if (depth > 0)
		stack[depth - 1]->flags |= flags;
}

/* Writes every open trace record, innermost first. */
void
trace_flush(struct migx *mx, struct run *r)
{
	while (depth > 0)
		pop_emit(mx, r);
}

void
trace_release(void)
{
	size_t i;

	for (i = 0; i < alloc; i++) {
		struct tr *t = stack[i];

		if (t == NULL)
			continue;
		strbuf_release(&t->text), strbuf_release(&t->t1);
		strbuf_release(&t->t2), strbuf_release(&t->classes);
		strbuf_release(&t->out), strbuf_release(&t->stats);
		free(t);
	}
	free(stack);
	stack = NULL;
	depth = alloc = 0;
}

/*
 * kind.c: which kind a record is (docs/formats.md) and the key it is
 * matched on across runs.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "nd.h"
#include "strbuf.h"
#include "xmem.h"

#include "recdiff.h"

static const char *user_keys[MAX_KEYS + 1];	/* -k, NULL-terminated */
static size_t nuser;
static char *user_copy[MAX_KEYS];		/* the -k arguments */
static size_t ncopy;

/* -k: adds the comma-separated key names of list. */
void
kind_keys(const char *list)
{
	char *p;

	if (ncopy == MAX_KEYS)
		die_usage("-k: more than %d keys", MAX_KEYS);
	user_copy[ncopy] = xstrdup(list);
	for (p = strtok(user_copy[ncopy++], ","); p != NULL;
	    p = strtok(NULL, ",")) {
		if (nuser == MAX_KEYS)
			die_usage("-k: more than %d keys", MAX_KEYS);
		user_keys[nuser++] = p;
	}
	if (nuser == 0)
		die_usage("-k: no key names in '%s'", list);
}

void
kind_release(void)
{
	while (ncopy > 0)
		free(user_copy[--ncopy]);
}

void
reckey_init(struct reckey *k)
{
	memset(k, 0, sizeof(*k));
	strbuf_init(&k->key, 64);
	strbuf_init(&k->desc, 64);
}

void
reckey_release(struct reckey *k)
{
	strbuf_release(&k->key);
	strbuf_release(&k->desc);
}

/* The identity fields of each kind: written once, never compared. */
static const char *const id_metric[] = { "panel_id", "panel", "table_id",
	"table", "metric_id", "metric", "normalization", "Channel", "dtype",
	"Description", "Kernel_Name", NULL };
static const char *const id_stack[] = { "thread", "stack", "cat",
	"thread_name", NULL };
static const char *const id_summary[] = { "type", "op", "base_op",
	"kernel", "detail", NULL };
static const char *const id_instr[] = { "type", "section", "seq", "name",
	"module", "root", "index", "param", "op", "attrs_raw", "attrs",
	"literal_raw", "args", "module_args", "shape_raw", "shape",
	"target_id", "debug_symbols", "group", NULL };
static const char *const id_totals[] = { "type", "rate_unit", "complete",
	"missing", NULL };
static const char *const id_type[] = { "type", NULL };
static const char *const id_roofline[] = { "type", "device", NULL };
static const char *const id_dispatch[] = { "type", "Dispatch_ID",
	"Kernel_Name", NULL };

static int
in_list(const char *const *l, const char *name)
{
	for (; *l != NULL; l++)
		if (strcmp(*l, name) == 0)
			return 1;
	return 0;
}

/* topn's statistics: count, sum, ... and their unit forms (sum_ns). */
static int
is_stat(const char *name)
{
	static const char *const s[] = { "count", "sum", "mean", "median",
		"min", "max", "pct", NULL };
	const char *u = strchr(name, '_');
	char head[16];
	size_t n = u != NULL ? (size_t)(u - name) : strlen(name);

	if (n >= sizeof(head))
		return 0;
	memcpy(head, name, n);
	head[n] = '\0';
	if (u != NULL && (strlen(u + 1) == 0 || strspn(u + 1,
	    "abcdefghijklmnopqrstuvwxyz") != strlen(u + 1)))
		return 0;
	return in_list(s, head);
}

int
kind_identity(enum kind k, const char *name)
{
	/* Provenance and source positions are never compared. */
	if (strcmp(name, "run") == 0 || strcmp(name, "label") == 0 ||
	    strcmp(name, "line") == 0 || strcmp(name, "flags") == 0)
		return 1;
	switch (k) {
	case K_METRIC: return in_list(id_metric, name);
	case K_STATS: return !is_stat(name);
	case K_STACK: return in_list(id_stack, name);
	case K_SUMMARY: return in_list(id_summary, name);
	case K_INSTR: return in_list(id_instr, name);
	case K_TOTALS: return in_list(id_totals, name);
	case K_SYSINFO: return in_list(id_type, name);
	case K_ROOFLINE: return in_list(id_roofline, name);
	case K_DISPATCH: return in_list(id_dispatch, name);
	case K_KEYS: return in_list(user_keys, name);
	default: return 1;
	}
}

/*
 * Appends value v to the key text: strings decoded, arrays element by
 * element, other values as written (so 2 and "2" differ).
 */
static void
canon(struct strbuf *sb, struct nd_slice v)
{
	struct nd_iter it;
	struct nd_slice k, x;

	switch (nd_type(v)) {
	case ND_STRING:
		strbuf_addch(sb, 's');
		nd_val_str(v, sb);
		break;
	case ND_ARRAY:
		strbuf_addch(sb, '[');
		nd_iter_init(&it, v);
		while (nd_iter_next(&it, &k, &x) == 1) {
			canon(sb, x);
			strbuf_addch(sb, '\x1f');
		}
		strbuf_addch(sb, ']');
		break;
	default:
		if (v.p == NULL)
			strbuf_addch(sb, 'z');
		else {
			strbuf_addch(sb, 'n');
			strbuf_add(sb, v.p, v.len);
		}
	}
}

/* Adds one key field (its name, for -k, and value) to k. */
static void
key_add(struct reckey *k, const char *name, struct nd_slice v)
{
	strbuf_addstr(&k->key, name);
	strbuf_addch(&k->key, '=');
	canon(&k->key, v);
	strbuf_addch(&k->key, '\x1e');
	if (v.p == NULL || nd_type(v) == ND_ARRAY || nd_type(v) == ND_OBJECT)
		return;
	if (k->desc.len > 0)
		strbuf_addstr(&k->desc, " / ");
	if (nd_type(v) == ND_STRING)
		nd_val_str(v, &k->desc);
	else
		strbuf_add(&k->desc, v.p, v.len);
}

/* The stack's frames for people: "a;b;c" (the last three when deep). */
static void
stack_desc(struct reckey *k, struct nd_slice stack)
{
	struct nd_iter it;
	struct nd_slice x, y;
	size_t n = 0, i = 0;

	nd_iter_init(&it, stack);
	while (nd_iter_next(&it, &x, &y) == 1)
		n++;
	if (k->desc.len > 0)
		strbuf_addstr(&k->desc, " / ");
	if (n > 3)
		strbuf_addstr(&k->desc, "...;");
	nd_iter_init(&it, stack);
	while (nd_iter_next(&it, &x, &y) == 1)
		if (i++ + 3 >= n) {
			nd_val_str(y, &k->desc);
			if (i < n)
				strbuf_addch(&k->desc, ';');
		}
}

size_t
thread_pid(struct nd_slice thread, struct nd_slice run, struct strbuf *out)
{
	struct strbuf r = STRBUF_INIT;
	const char *p, *slash;
	size_t start = out->len;

	nd_val_str(thread, out);
	if (nd_type(run) == ND_STRING) {
		nd_val_str(run, &r);
		strbuf_addch(&r, ' ');
		if (out->len - start >= r.len &&
		    memcmp(out->buf + start, r.buf, r.len) == 0) {
			memmove(out->buf + start, out->buf + start + r.len,
			    out->len - start - r.len);
			strbuf_setlen(out, out->len - r.len);
		}
	}
	strbuf_release(&r);
	p = out->buf + start;
	slash = memchr(p, '/', out->len - start);
	return slash != NULL ? (size_t)(slash - p) : out->len - start;
}

/* A stack record: the thread without its run prefix, then the stack. */
static void
stack_key(struct reckey *k, int merge)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_addstr(&k->key, "stack\x1e");
	if (!merge) {
		thread_pid(k->thread, k->run, &t);
		strbuf_add(&k->key, t.buf, t.len);
		strbuf_addch(&k->key, '\x1e');
		strbuf_add(&k->desc, t.buf, t.len);
	}
	canon(&k->key, k->stack);
	stack_desc(k, k->stack);
	strbuf_release(&t);
}

/* The kind of a record that has a "type". */
static enum kind
typed_kind(struct nd_slice type, struct reckey *k)
{
	static const struct { const char *name; enum kind kind; } t[] = {
		{ "summary", K_SUMMARY }, { "instruction", K_INSTR },
		{ "totals", K_TOTALS }, { "sysinfo", K_SYSINFO },
		{ "roofline", K_ROOFLINE }, { "dispatch", K_DISPATCH },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (nd_str_eq(type, t[i].name, strlen(t[i].name)))
			return t[i].kind;
	strbuf_addch(&k->desc, '\'');
	nd_val_str(type, &k->desc);
	strbuf_addch(&k->desc, '\'');
	k->skipped = k->desc.buf;
	return K_SKIP;
}

/* The names (and so the values) of the key of each kind. */
static const char *const key_metric[] = { "table_id", "metric", "Channel",
	"dtype", "Kernel_Name", "normalization", NULL };
static const char *const key_summary[] = { "type", "op", "detail", NULL };
static const char *const key_instr[] = { "type", "section", "name", NULL };
static const char *const key_type[] = { "type", NULL };
static const char *const key_roofline[] = { "type", "device", NULL };
static const char *const key_dispatch[] = { "type", "Dispatch_ID", NULL };

/* Builds the key of the fields names[] of line. */
static int
named_key(const char *line, size_t len, const char *const *names,
    size_t n, int all, struct reckey *k)
{
	struct nd_slice v[MAX_KEYS];
	size_t i;

	if (nd_fields(line, len, names, v, n) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (all || v[i].p != NULL)
			key_add(k, names[i], v[i]);
	return 0;
}

static size_t
count_names(const char *const *l)
{
	size_t n = 0;

	while (l[n] != NULL)
		n++;
	return n;
}

/* topn records: the key is every field that is not a statistic. */
static void
stats_key(const char *line, size_t len, struct reckey *k)
{
	struct strbuf name = STRBUF_INIT;
	struct nd_slice all = { line, len }, kk, v;
	struct nd_iter it;

	nd_iter_init(&it, all);
	while (nd_iter_next(&it, &kk, &v) == 1) {
		strbuf_reset(&name);
		nd_val_str(kk, &name);
		if (!kind_identity(K_STATS, name.buf) ||
		    strcmp(name.buf, "run") == 0 ||
		    strcmp(name.buf, "label") == 0)
			continue;
		key_add(k, name.buf, v);
	}
	strbuf_release(&name);
}

int
kind_of(const char *line, size_t len, int merge, struct reckey *k)
{
	static const char *const probe[] = { "type", "metric_id", "stack",
		"thread", "count", "pct", "run", "label", "start_ns" };
	struct nd_slice v[9];
	static const char *const *keys[] = { NULL, key_metric, NULL, NULL,
		key_summary, key_instr, key_type, key_type, key_roofline,
		key_dispatch };

	strbuf_reset(&k->key);
	strbuf_reset(&k->desc);
	k->skipped = NULL;
	if (nd_fields(line, len, probe, v, 9) < 0)
		return -1;
	k->run = nd_type(v[6]) == ND_STRING ? v[6] : v[7];
	k->thread = v[3];
	k->stack = v[2];
	if (nuser > 0) {
		k->kind = K_KEYS;
		return named_key(line, len, user_keys, nuser, 1, k);
	}
	if (nd_type(v[0]) == ND_STRING)
		k->kind = typed_kind(v[0], k);
	else if (v[1].p != NULL)
		k->kind = K_METRIC;
	else if (nd_type(v[2]) == ND_ARRAY && nd_type(v[3]) == ND_STRING)
		k->kind = K_STACK;
	else if (v[4].p != NULL && v[5].p != NULL)
		k->kind = K_STATS;
	else {
		k->kind = K_SKIP;
		k->skipped = v[8].p != NULL ? "span (compare their stacks "
		    "or topn statistics)" : "of no known kind (give -k)";
	}
	strbuf_addch(&k->key, (char)('a' + k->kind));
	if (k->kind == K_SKIP)
		return 0;
	if (k->kind == K_STACK)
		stack_key(k, merge);
	else if (k->kind == K_STATS)
		stats_key(line, len, k);
	else
		return named_key(line, len, keys[k->kind],
		    count_names(keys[k->kind]), 0, k);
	return 0;
}

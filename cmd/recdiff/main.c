/*
 * recdiff: compares the records of a base run with those of one or more
 * later runs, key by key, and writes per key and later run each numeric
 * field's value, base value, difference and percentage change.
 *
 * The base run is held in memory (one copy of each record, by key); a
 * later run is read as a stream and each record written as it comes,
 * except stack records, which are summed per key first.  The stream is
 * described in docs/formats.md ("Comparison records").
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "err.h"
#include "hmap.h"
#include "jqf.h"
#include "nd.h"
#include "ndw.h"
#include "ofile.h"
#include "opt.h"
#include "progress.h"
#include "sniff.h"
#include "strbuf.h"
#include "xmem.h"

#include "recdiff.h"

/* A record held: the base run's, or a later run's stack record. */
struct rec {
	char *line;		/* the record (the first one, for stacks) */
	size_t len;
	enum kind kind;
	char *desc;
	size_t idx;		/* position in its side */
	int64_t self, total, calls;	/* stacks: summed */
	int merged;		/* a record of a merged-threads map */
};

/* One run: the base, or the later run being read. */
struct side {
	char *name;
	const char *path;
	struct hmap recs;	/* key -> struct rec * */
	struct hmap extra;	/* later run: keys the base lacks */
	struct hmap pids;	/* stack threads' pids */
	struct hmap merged;	/* stacks keyed by stack alone (built late) */
	struct arena mem;
	char *seen;		/* base: matched by the current later run */
	char *seen_merged;
	int started;
	int nstacks;
};

static struct {
	struct opt_common com;
	int merge_threads;
} opt = { .com = OPT_COMMON_INIT };

static struct bad_input bad = BAD_INPUT_INIT;
static struct jqf *where;
static struct diff diff;
static struct side base, cur;
static struct reckey key;
static int nsides;		/* sides begun: the base is 1 */
static uint64_t nread;
/* Records of kinds that are not compared, per kind. */
#define SKIP_KINDS 8
static struct {
	char *what;
	unsigned long n;
} skips[SKIP_KINDS];
static unsigned long skipped;

static const struct opt_help help[] = {
	{ "--fail-above PCT", "exit 3 when a value moved more than PCT "
	    "percent" },
	{ "--fields LIST", "with --fail-above, only these fields count" },
	{ "-k, --key KEYS", "match records on these fields "
	    "(comma-separated)" },
	{ "--merge-threads", "compare stack records by stack alone" },
	{ NULL, NULL }
};

static void
usage(int rc)
{
	fprintf(rc == EXIT_SUCCESS ? stdout : stderr, "usage: recdiff [-h] "
	    "[--fail-above pct] [--fields list] [-k keys] [--merge-threads] "
	    "[--no-progress] [-o file] [--progress] [--strict] [--version] "
	    "[--where expr] [base [new ...]]\n");
	if (rc == EXIT_SUCCESS)
		opt_help(stdout, help);
	exit(rc);
}

static void
side_init(struct side *s, const char *path)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	hmap_init(&s->recs, 64);
	hmap_init(&s->extra, 16);
	hmap_init(&s->pids, 8);
	hmap_init(&s->merged, 8);
	arena_init(&s->mem, 0);
}

static void
side_release(struct side *s)
{
	hmap_release(&s->recs);
	hmap_release(&s->extra);
	hmap_release(&s->pids);
	hmap_release(&s->merged);
	arena_release(&s->mem);
	free(s->seen);
	free(s->seen_merged);
	free(s->name);
}

/* The run's name: its records' label, else its file's name. */
static void
side_name(struct side *s, const struct reckey *k)
{
	struct strbuf sb = STRBUF_INIT;

	if (nd_type(k->run) == ND_STRING)
		nd_val_str(k->run, &sb);
	if (sb.len == 0 || (s != &base && base.name != NULL &&
	    strcmp(sb.buf, base.name) == 0)) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, strcmp(s->path, "-") == 0 ? "<stdin>" :
		    s->path);
	}
	s->name = strbuf_detach(&sb, NULL);
}

static struct rec *
rec_new(struct side *s, const char *line, size_t len, size_t idx)
{
	struct rec *r = arena_alloc(&s->mem, sizeof(*r));

	memset(r, 0, sizeof(*r));
	r->line = arena_strndup(&s->mem, line, len);
	r->len = len;
	r->kind = key.kind;
	r->desc = arena_strndup(&s->mem, key.desc.buf, key.desc.len);
	r->idx = idx;
	return r;
}

/* Adds a stack record's numbers to r; notes its thread's pid. */
static int
stack_add(struct side *s, struct rec *r, const char *line, size_t len)
{
	static const char *const keys[] = { "self_ns", "total_ns", "calls" };
	struct nd_slice v[3];
	struct strbuf pid = STRBUF_INIT;
	int64_t a, b, c;
	size_t n;

	if (nd_fields(line, len, keys, v, 3) < 0 ||
	    nd_val_i64(v[0], &a) != 0 || nd_val_i64(v[1], &b) != 0 ||
	    nd_val_i64(v[2], &c) != 0)
		return -1;
	r->self += a;
	r->total += b;
	r->calls += c;
	n = thread_pid(key.thread, key.run, &pid);
	hmap_put(&s->pids, pid.buf, n);
	strbuf_release(&pid);
	s->nstacks = 1;
	return 0;
}

/* Holds a record of s (the base, or a later run's stack record). */
static void
hold(struct side *s, const struct nd_reader *rd)
{
	void **slot;
	int isnew;

	slot = hmap_put2(&s->recs, key.key.buf, key.key.len, &isnew);
	if (isnew)
		*slot = rec_new(s, rd->line, rd->len, s->recs.n - 1);
	else if (key.kind != K_STACK) {
		bad_input(&bad, &rd->pos, "a second record with the key of "
		    "an earlier one (%s)", key.desc.buf);
		return;
	}
	if (key.kind == K_STACK && stack_add(s, *slot, rd->line,
	    rd->len) != 0)
		bad_input(&bad, &rd->pos, "a stack record needs integer "
		    "'self_ns', 'total_ns' and 'calls'");
}

/* A later run's record (not a stack): written against the base's now. */
static void
stream(const struct nd_reader *rd)
{
	void **slot = hmap_get(&base.recs, key.key.buf, key.key.len);
	struct rec *b = slot != NULL ? *slot : NULL;
	int isnew;

	if (b != NULL && base.seen[b->idx]) {
		bad_input(&bad, &rd->pos, "a second record with the key of "
		    "an earlier one (%s)", key.desc.buf);
		return;
	}
	if (b == NULL) {
		hmap_put2(&cur.extra, key.key.buf, key.key.len, &isnew);
		if (!isnew) {
			bad_input(&bad, &rd->pos, "a second record with the "
			    "key of an earlier one (%s)", key.desc.buf);
			return;
		}
	} else
		base.seen[b->idx] = 1;
	diff_emit(&diff, key.kind, key.desc.buf, b ? b->line : NULL,
	    b ? b->len : 0, rd->line, rd->len, cur.name, base.name);
}

/* Sums the stack records of s by stack alone (threads merged). */
static void
merge_map(struct side *s)
{
	struct reckey mk;
	struct hmap_ent *e;
	struct rec *r, *m;
	void **slot;
	int isnew;

	if (s->merged.n > 0)
		return;
	reckey_init(&mk);
	hmap_foreach(&s->recs, e) {
		r = e->val;
		if (r->kind != K_STACK)
			continue;
		kind_of(r->line, r->len, 1, &mk);
		slot = hmap_put2(&s->merged, mk.key.buf, mk.key.len, &isnew);
		if (isnew) {
			m = arena_alloc(&s->mem, sizeof(*m));
			*m = *r;
			m->self = m->total = m->calls = 0;
			m->idx = s->merged.n - 1;
			m->merged = 1;
			m->desc = arena_strndup(&s->mem, mk.desc.buf,
			    mk.desc.len);
			*slot = m;
		}
		m = *slot;
		m->self += r->self;
		m->total += r->total;
		m->calls += r->calls;
	}
	reckey_release(&mk);
}

/* The record a held stack stands for, with its sums, in sb. */
static void
stack_line(const struct rec *r, struct strbuf *sb)
{
	static const char *const keys[] = { "thread", "stack", "cat",
		"thread_name", "run", "label" };
	struct nd_slice v[6];
	struct strbuf t = STRBUF_INIT;

	nd_fields(r->line, r->len, keys, v, 6);
	strbuf_reset(sb);
	strbuf_addch(sb, '{');
	if (!r->merged) {
		thread_pid(v[0], nd_type(v[4]) == ND_STRING ? v[4] : v[5], &t);
		strbuf_addstr(sb, "\"thread\":");
		ndw_quote(sb, t.buf, t.len, 0);
		strbuf_addch(sb, ',');
	}
	strbuf_addstr(sb, "\"stack\":");
	strbuf_add(sb, v[1].p, v[1].len);
	strbuf_addf(sb, ",\"self_ns\":%lld,\"total_ns\":%lld,\"calls\":%lld",
	    (long long)r->self, (long long)r->total, (long long)r->calls);
	if (v[2].p != NULL) {
		strbuf_addstr(sb, ",\"cat\":");
		strbuf_add(sb, v[2].p, v[2].len);
	}
	if (!r->merged && v[3].p != NULL) {
		strbuf_addstr(sb, ",\"thread_name\":");
		strbuf_add(sb, v[3].p, v[3].len);
	}
	strbuf_addch(sb, '}');
	strbuf_release(&t);
}

/* Do the two runs' stack threads share a pid? */
static int
share_pid(void)
{
	struct hmap_ent *e;

	hmap_foreach(&cur.pids, e)
		if (hmap_get(&base.pids, e->key, e->len) != NULL)
			return 1;
	return 0;
}

/* Writes the later run's stacks against the base's. */
static void
stacks_finish(int merge)
{
	struct strbuf bl = STRBUF_INIT, nl = STRBUF_INIT;
	struct hmap *bm = merge ? &base.merged : &base.recs;
	struct hmap *nm = merge ? &cur.merged : &cur.recs;
	char *seen = merge ? base.seen_merged : base.seen;
	struct hmap_ent *e;
	struct rec *b, *n;
	void **slot;

	hmap_foreach(nm, e) {
		n = e->val;
		if (n->kind != K_STACK)
			continue;
		slot = hmap_get(bm, e->key, e->len);
		b = slot != NULL ? *slot : NULL;
		if (b != NULL)
			seen[b->idx] = 1;
		stack_line(n, &nl);
		if (b != NULL)
			stack_line(b, &bl);
		diff_emit(&diff, K_STACK, n->desc, b ? bl.buf : NULL,
		    b ? bl.len : 0, nl.buf, nl.len, cur.name, base.name);
	}
	strbuf_release(&bl);
	strbuf_release(&nl);
}

/* Writes the base's records the later run lacks. */
static void
only_base(struct hmap *m, const char *seen, int stacks)
{
	struct strbuf bl = STRBUF_INIT;
	struct hmap_ent *e;
	struct rec *b;

	hmap_foreach(m, e) {
		b = e->val;
		if (seen[b->idx] || (b->kind == K_STACK) != stacks)
			continue;
		if (stacks)
			stack_line(b, &bl);
		diff_emit(&diff, b->kind, b->desc, stacks ? bl.buf : b->line,
		    stacks ? bl.len : b->len, NULL, 0, cur.name, base.name);
	}
	strbuf_release(&bl);
}

/* The end of a later run: its stacks, then what only the base has. */
static void
later_finish(void)
{
	int merge = 0;

	if (!cur.started)
		return;
	if (cur.nstacks || base.nstacks) {
		merge = opt.merge_threads || !share_pid();
		if (merge) {
			merge_map(&base);
			merge_map(&cur);
			free(base.seen_merged);
			base.seen_merged = xcalloc(base.merged.n + 1, 1);
		}
		stacks_finish(merge);
	}
	only_base(&base.recs, base.seen, 0);
	if (base.nstacks)
		only_base(merge ? &base.merged : &base.recs,
		    merge ? base.seen_merged : base.seen, 1);
	memset(base.seen, 0, base.recs.n + 1);
	side_release(&cur);
	memset(&cur, 0, sizeof(cur));
}

/* Starts side number idx (0: the base) at the record in key. */
static void
side_begin(const char *path)
{
	if (nsides == 0) {
		side_init(&base, path);
		base.started = 1;
	} else {
		if (nsides == 1)
			base.seen = xcalloc(base.recs.n + 1, 1);
		later_finish();
		side_init(&cur, path);
		cur.started = 1;
	}
	side_name(nsides == 0 ? &base : &cur, &key);
	nsides++;
}

static void
skip_count(const char *what)
{
	size_t i;

	skipped++;
	for (i = 0; i < SKIP_KINDS && skips[i].what != NULL; i++)
		if (strcmp(skips[i].what, what) == 0)
			break;
	if (i == SKIP_KINDS)
		return;
	if (skips[i].what == NULL)
		skips[i].what = xstrdup(what);
	skips[i].n++;
}

/* "skipped 20 records not compared: 16 'meta', 4 'module'" */
static void
skip_report(void)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (skipped == 0)
		return;
	for (i = 0; i < SKIP_KINDS && skips[i].what != NULL; i++) {
		strbuf_addf(&sb, "%s%lu %s", i > 0 ? ", " : "", skips[i].n,
		    skips[i].what);
		free(skips[i].what);
	}
	warn("skipped %lu record%s of kinds not compared: %s", skipped,
	    skipped == 1 ? "" : "s", sb.buf);
	strbuf_release(&sb);
}

/* The state of reading one file. */
struct input {
	int per_file;		/* each file is one side */
	int fresh;		/* no record read yet */
	struct strbuf last;	/* the run of the last record */
};

/* One record of the input. */
static void
record(struct nd_reader *rd, void *arg)
{
	struct input *in = arg;

	progress_update(++nread, 0);
	if (nd_fields(rd->line, rd->len, NULL, NULL, 0) < 0) {
		bad_input(&bad, &rd->pos, "%s", nd_error());
		return;
	}
	if (jqf_keep(where, rd->line, rd->len, &bad, &rd->pos) != 1)
		return;
	if (kind_of(rd->line, rd->len, 0, &key) != 0) {
		bad_input(&bad, &rd->pos, "%s", nd_error());
		return;
	}
	/* One file of several runs: a run ends where its label changes. */
	if (in->fresh || (!in->per_file && (in->last.len != key.run.len ||
	    (key.run.len > 0 && memcmp(in->last.buf, key.run.p,
	    key.run.len) != 0)))) {
		side_begin(rd->pos.file);
		in->fresh = 0;
	}
	strbuf_reset(&in->last);
	if (key.run.len > 0)
		strbuf_add(&in->last, key.run.p, key.run.len);
	if (key.kind == K_SKIP) {
		skip_count(key.skipped);
		return;
	}
	if (nsides == 1 || key.kind == K_STACK)
		hold(nsides == 1 ? &base : &cur, rd);
	else
		stream(rd);
}

static int
recdiff_file(const char *path, int per_file)
{
	struct input in = { per_file, 1, STRBUF_INIT };
	const struct nd_loop loop = { record, &in, &bad, SNIFF_NOT_NDJSON,
		NULL };
	int rc;

	rc = nd_each(path, &loop);
	strbuf_release(&in.last);
	if (rc == 0 && in.fresh && per_file)
		warn("'%s': no records", path);
	return rc < 0 || (in.fresh && per_file) ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* --fields: the comma-separated names. */
static void
parse_fields(char *arg)
{
	char *p;

	for (p = strtok(arg, ","); p != NULL; p = strtok(NULL, ",")) {
		diff.fields = xreallocarray(diff.fields, diff.nfields + 1,
		    sizeof(*diff.fields));
		diff.fields[diff.nfields++] = p;
	}
}

/* The end: exit 3 when a change passed --fail-above, as documented. */
static int
finish(int rc)
{
	skip_report();
	if (diff.mismatched > 0)
		warn("%llu field%s a string on one side and a number on the "
		    "other, not compared (the first: %s)",
		    (unsigned long long)diff.mismatched,
		    diff.mismatched == 1 ? " is" : "s are",
		    diff.first_mismatch);
	if (nsides < 2 || diff.written == 0) {
		warn("%s: nothing to compare", nsides == 0 ? "no records" :
		    nsides == 1 ? "one run only" : "no records of a kind that "
		    "is compared");
		return EXIT_FAILURE;
	}
	if (diff.over > 0) {
		fputs(diff.offenders.buf, stderr);
		warn("%llu change%s beyond %g%%%s", (unsigned long long)
		    diff.over, diff.over == 1 ? "" : "s", diff.fail_above,
		    diff.over > 20 ? " (the first 20 listed)" : "");
		if (rc == EXIT_SUCCESS)
			rc = 3;
	}
	return rc;
}

int
main(int argc, char *argv[])
{
	enum { OPT_FAIL_ABOVE = OPT_OWN, OPT_FIELDS, OPT_MERGE_THREADS };
	static const struct option longopts[] = {
		{ "fail-above", required_argument, NULL, OPT_FAIL_ABOVE },
		{ "fields", required_argument, NULL, OPT_FIELDS },
		{ "key", required_argument, NULL, 'k' },
		{ "merge-threads", no_argument, NULL, OPT_MERGE_THREADS },
		OPT__COMMON
	};
	static char obuf[1 << 16];
	struct ofile of;
	FILE *out;
	int ch, i, stdins = 0, rc = EXIT_SUCCESS;
	double limit = -1;

	prog_init(argv[0]);
	prog_usage(usage);
	diff_init(&diff, NULL);
	while ((ch = opt_next(argc, argv, "k:" OPT_COMMON_SHORT,
	    longopts)) != -1)
		switch (ch) {
		case 'k':
			kind_keys(optarg);
			break;
		case OPT_FAIL_ABOVE:
			limit = opt_double("--fail-above", optarg);
			if (!(limit >= 0) || isinf(limit))
				die_usage("--fail-above: '%s' is not a "
				    "percentage >= 0", optarg);
			break;
		case OPT_FIELDS:
			parse_fields(optarg);
			break;
		case OPT_MERGE_THREADS:
			opt.merge_threads = 1;
			break;
		default:
			opt_common(ch, optarg, &opt.com, usage);
		}
	argc -= optind;
	argv += optind;
	if (argc == 0) {
		argv[0] = (char *)"-";	/* one stream of several runs */
		argc = 1;
	}
	for (i = 0; i < argc; i++)
		stdins += strcmp(argv[i], "-") == 0;
	if (stdins > 1)
		die_usage("'-' (standard input) given %d times", stdins);
	if (diff.fields != NULL && limit < 0)
		die_usage("--fields goes with --fail-above");
	bad.strict = opt.com.strict;
	if (opt.com.where != NULL)
		where = jqf_compile(opt.com.where);
	out = ofile_open(&of, opt.com.output);
	setvbuf(out, obuf, _IOFBF, sizeof(obuf));
	diff.out = out;
	diff.fail_above = limit;
	reckey_init(&key);
	progress_init(opt.com.progress, "records");
	for (i = 0; i < argc; i++)
		if (recdiff_file(argv[i], argc > 1) != EXIT_SUCCESS)
			rc = EXIT_FAILURE;
	if (nsides == 1)
		base.seen = xcalloc(base.recs.n + 1, 1);
	later_finish();
	progress_done();
	if (bad_input_finish(&bad) != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	rc = ofile_finish(&of, finish(rc));
	if (nsides > 0)
		side_release(&base);
	free(diff.fields);
	diff_release(&diff);
	reckey_release(&key);
	kind_release();
	jqf_free(where);
	return close_stdout() != 0 ? EXIT_FAILURE : rc;
}

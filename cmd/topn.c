/*
 * topn: groups NDJSON records by one or more keys and writes per group the
 * count, sum, mean, exact median, min, max and percentage of a value, the
 * largest groups first (rocprof-compute's Top Kernels table, among others).
 *
 * Memory holds the groups and their values (an exact median needs them
 * all), never the records.  --partial writes the groups' values for a
 * later --merge, so inputs can be reduced in parallel.
 */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digits.h"
#include "err.h"
#include "flist.h"
#include "arena.h"
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

#define MAX_KEYS 16
#define PARTIAL "topn_partial"

/* Integer sums are kept in 128 bits: values have 64, counts 63. */
__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;

enum field { F_SUM, F_COUNT, F_MEAN, F_MEDIAN, F_MIN, F_MAX, F_PCT, F_KEY };
static const char *const field_name[] = {
	"sum", "count", "mean", "median", "min", "max", "pct", "key"
};

/* One key value of a group, for sorting and CSV. */
struct kval {
	const char *text;	/* decoded string, or the number's text */
	size_t len;
	int is_num;
	double num;
};

/*
 * How a group keeps its values: integers of 64 bits while they fit, all
 * of them in 128 bits once one is above INT64_MAX, doubles once one is
 * not an integer.  Never long double: its width differs between
 * platforms (and under valgrind).
 */
enum vkind { V_I64, V_I128, V_F64 };

/* One value read from a record. */
struct value {
	enum vkind kind;
	int128 i;		/* V_I64, V_I128 */
	double d;		/* V_F64 */
};

struct group {
	size_t run;		/* 1 + index in runs[], or 0: no run */
	struct kval *kv;	/* the key values, in -k order */
	union {			/* the values, in input order */
		void *p;
		int64_t *i64;
		int128 *i128;
		double *f64;
	} v;
	size_t n, alloc;
	enum vkind kind;
	/* The exact statistics of an integer group (kind != V_F64). */
	int128 isum, median2, imin, imax;	/* median2: twice the median */
	double sum, mean, median, min, max, pct;
};

/* A run label seen in the input ("run", or migx2ndjson's "label"). */
struct runlab {
	const char *name;	/* "run" or "label" */
	char *json;		/* the value as written: "a" */
	size_t jsonlen;
	char *text;		/* the label, decoded (for CSV) */
};

static struct {
	struct opt_common com;
	int across, csv, merge, partial, reverse;
	enum field sort;
	const char *keys[MAX_KEYS];
	size_t nkeys;
	const char *value;
	const char *minuend, *subtrahend;	/* -v a-b */
	const char *type;
	const char *unit;		/* --unit */
	const char *out_unit;		/* of the statistics, or NULL */
	double mul, div;		/* from the value's unit to it */
	unsigned long count;
	struct strbuf gpus;		/* NUL-separated ids */
	struct strbuf dispatches;	/* NUL-separated ids */
	int dispatch_gt;
	double dispatch_min;
	const char *files_from;
} opt = { .com = OPT_COMMON_INIT, .sort = F_SUM, .value = "dur_ns",
	.mul = 1, .div = 1, .count = 10, .gpus = STRBUF_INIT,
	.dispatches = STRBUF_INIT };

static struct arena mem;
static struct hmap groups;		/* identity -> struct group */
static struct bad_input bad = BAD_INPUT_INIT;
static struct jqf *where;
static FILE *outfp;			/* standard output or -o's file */
static struct ndw ow;			/* the record being written */
static unsigned long missing[MAX_KEYS + 1];	/* per key, then value */
static uint64_t nrecords;
static const char *merge_keys[MAX_KEYS];	/* key names of --merge */
static char *value_key;			/* the first partial's "value" */
static size_t merge_nkeys;
static struct hmap runmap;		/* member text -> 1 + index */
static struct runlab *runs;
static size_t nruns, runs_alloc;

static const struct opt_help help[] = {
	{ "--across-runs", "group the records of all runs together" },
	{ "--csv", "write CSV as rocprof-compute's Top Kernels table" },
	{ "-d, --dispatch LIST", "group only these Dispatch_IDs (or >N)" },
	{ "--files-from LIST", "also read the files named in LIST, one a "
	    "line" },
	{ "--gpu LIST", "group only records of these GPU_IDs" },
	{ "-k, --key KEY", "group by KEY (repeat for several keys)" },
	{ "--merge", "read --partial records and merge them" },
	{ "-n, --count COUNT", "write the first COUNT groups (0: all; "
	    "default 10)" },
	{ "--partial", "write each group's values for a later --merge" },
	{ "-r, --reverse", "reverse the sort order" },
	{ "-s, --sort FIELD", "sum (default), count, mean, median, min, max, pct, key" },
	{ "--type TYPE", "group records of this \"type\" (\"\": all)" },
	{ "--unit UNIT", "write the statistics in ns, us, ms or s" },
	{ "-v, --value KEY", "the value to add up (dur_ns; A-B: a difference)" },
	{ NULL, NULL }
};

static void
usage(int rc)
{
	FILE *fp = rc == EXIT_SUCCESS ? stdout : stderr;

	fprintf(fp, "usage: topn [-hr] [--across-runs] [--csv] [-d list] "
	    "[--files-from list] [--gpu list] [-k key] [--merge] [-n count] "
	    "[--no-progress] [-o file] [--partial] [--progress] [-s field] [--strict] "
	    "[--type type] [--unit unit] [-v key] [--version] [--where expr] "
	    "[file ...]\n");
	if (rc == EXIT_SUCCESS)
		opt_help(stdout, help);
	exit(rc);
}

/* Adds the ids of a --gpu or --dispatch list ("1,2 3") to sb. */
static void
add_list(struct strbuf *sb, const char *arg)
{
	const char *p = arg, *e;

	for (;;) {
		while (*p == ',' || *p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		for (e = p; *e != '\0' && *e != ',' && *e != ' ' &&
		    *e != '\t'; e++)
			;
		strbuf_add(sb, p, (size_t)(e - p));
		strbuf_addch(sb, '\0');
		p = e;
	}
}

static void
parse_dispatch(const char *arg)
{
	char *end;

	while (*arg == ' ')
		arg++;
	if (*arg != '>') {
		add_list(&opt.dispatches, arg);
		return;
	}
	opt.dispatch_gt = 1;
	opt.dispatch_min = strtod(arg + 1, &end);
	while (*end == ' ')
		end++;
	if (end == arg + 1 || *end != '\0')
		die_usage("--dispatch: bad argument '%s'", arg);
}

/* The units of time a key name may end in, and their nanoseconds. */
static const struct { const char *name; double ns; } units[] = {
	{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }
};
#define NUNITS (sizeof(units) / sizeof(units[0]))

/* The index in units[] of the n bytes at s, or -1. */
static int
unit_index(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < NUNITS; i++)
		if (strlen(units[i].name) == n && memcmp(s, units[i].name,
		    n) == 0)
			return (int)i;
	return -1;
}

/*
 * The unit of a key name, from its suffix (dur_ns: ns, time_ms: ms), or
 * -1; a difference a-b has the unit of b when a has the same one.
 */
static int
key_unit(const char *key, size_t len)
{
	const char *u = NULL, *d = NULL, *p;
	int i;

	for (p = key; p < key + len; p++)
		if (*p == '_')
			u = p;
		else if (*p == '-' && p > key && d == NULL)
			d = p;
	if (u == NULL || u == key || (i = unit_index(u + 1,
	    (size_t)(key + len - u - 1))) < 0)
		return -1;
	if (d != NULL && u > d && key_unit(key, (size_t)(d - key)) != i)
		return -1;
	return i;
}

static void
parse_unit(const char *arg)
{
	if (unit_index(arg, strlen(arg)) < 0)
		die_usage("--unit: '%s' is not one of ns, us, ms, s", arg);
	opt.unit = arg;
}

/*
 * The unit of the statistics' keys and the factor from the value's unit
 * to it: the value key's own unit, or --unit's (the value is then taken
 * to be in its key's unit, nanoseconds when the key has none).
 */
static void
units_setup(const char *value)
{
	int from = value != NULL ? key_unit(value, strlen(value)) : -1;
	int to = opt.unit != NULL ? unit_index(opt.unit, strlen(opt.unit)) :
	    from;

	if (to < 0)
		return;
	if (from < 0)
		from = 0;
	opt.out_unit = units[to].name;
	if (units[from].ns >= units[to].ns)
		opt.mul = units[from].ns / units[to].ns;
	else
		opt.div = units[to].ns / units[from].ns;
}

/* A value in the statistics' unit. */
static double
scaled(double v)
{
	return opt.mul != 1 ? v * opt.mul : v / opt.div;
}

static void
parse_sort(const char *arg)
{
	size_t i;

	for (i = 0; i < sizeof(field_name) / sizeof(field_name[0]); i++)
		if (strcmp(arg, field_name[i]) == 0) {
			opt.sort = (enum field)i;
			return;
		}
	die_usage("--sort: '%s' is not one of sum, count, mean, median, "
	    "min, max, pct, key", arg);
}

/* Is the text (a number's text or a decoded string) in the list? */
static int
in_list(const struct strbuf *list, const char *s, size_t len)
{
	const char *p = list->buf, *end = list->buf + list->len;
	size_t n;

	for (; p < end; p += n + 1) {
		n = strlen(p);
		if (n == len && memcmp(p, s, len) == 0)
			return 1;
	}
	return 0;
}

/* The text of a scalar: a decoded string or the raw token. */
static const char *
scalar_text(struct nd_slice v, struct strbuf *tmp, size_t *len)
{
	strbuf_reset(tmp);
	if (nd_type(v) == ND_STRING)
		nd_val_str(v, tmp);
	else
		strbuf_add(tmp, v.p, v.len);
	*len = tmp->len;
	return tmp->buf;
}

/* Applies --gpu and --dispatch.  Returns 1 if the record passes. */
static int
filters_pass(struct nd_slice gpu, struct nd_slice did)
{
	struct strbuf tmp;
	const char *s;
	size_t len;
	double d;
	int ok = 1;

	if (opt.gpus.len == 0 && opt.dispatches.len == 0 && !opt.dispatch_gt)
		return 1;
	strbuf_init(&tmp, 0);
	if (opt.gpus.len > 0) {
		s = gpu.p != NULL ? scalar_text(gpu, &tmp, &len) : NULL;
		ok = s != NULL && in_list(&opt.gpus, s, len);
	}
	if (ok && opt.dispatches.len > 0) {
		s = did.p != NULL ? scalar_text(did, &tmp, &len) : NULL;
		ok = s != NULL && in_list(&opt.dispatches, s, len);
	}
	if (ok && opt.dispatch_gt)
		ok = did.p != NULL && nd_val_f64(did, &d) == 0 &&
		    d > opt.dispatch_min;
	strbuf_release(&tmp);
	return ok;
}

/*
 * Builds a group's identity (for the map) from n key values: for each,
 * 's' (a string, decoded) or 'n' (any other value, as written), its
 * length and its text.
 */
static void
build_keys(const struct nd_slice vals[], size_t n, struct strbuf *ident)
{
	size_t i, len, at;
	int str;

	strbuf_reset(ident);
	for (i = 0; i < n; i++) {
		str = nd_type(vals[i]) == ND_STRING;
		strbuf_addch(ident, str ? 's' : 'n');
		at = ident->len;
		strbuf_add(ident, (const char *)&at, sizeof(at));
		if (!str)
			strbuf_add(ident, vals[i].p, vals[i].len);
		else if (memchr(vals[i].p, '\\', vals[i].len) == NULL)
			strbuf_add(ident, vals[i].p + 1, vals[i].len - 2);
		else
			nd_val_str(vals[i], ident);
		len = ident->len - at - sizeof(len);
		memcpy(ident->buf + at, &len, sizeof(len));
	}
}

/*
 * The run of a record: 1 + its index in runs[], or 0 when the record has
 * no run label or the runs are not kept apart (--across-runs, or "run"
 * named by -k).  The label is "run" when it is a string, else the
 * "label" string of migx2ndjson (whose "run" is a report number).
 */
static size_t
record_run(struct nd_slice run, struct nd_slice label)
{
	struct strbuf sb = STRBUF_INIT;
	struct nd_slice v = nd_type(run) == ND_STRING ? run : label;
	const char *name = v.p == run.p ? "run" : "label";
	struct runlab *rl;
	void **slot;
	int isnew;

	if (opt.across || nd_type(v) != ND_STRING)
		return 0;
	strbuf_addstr(&sb, name);
	strbuf_addch(&sb, ':');
	strbuf_add(&sb, v.p, v.len);
	slot = hmap_put2(&runmap, sb.buf, sb.len, &isnew);
	if (isnew) {
		XGROW(runs, nruns + 1, runs_alloc);
		rl = &runs[nruns++];
		rl->name = name;
		rl->jsonlen = v.len;
		rl->json = memcpy(xmalloc(v.len), v.p, v.len);
		strbuf_reset(&sb);
		nd_val_str(v, &sb);
		rl->text = strbuf_detach(&sb, NULL);
		*slot = (void *)(uintptr_t)nruns;
	}
	strbuf_release(&sb);
	return (size_t)(uintptr_t)*slot;
}

/*
 * Finds or makes the group of an identity: the bytes at id as
 * build_keys() makes them, then 'r' and the run (full bytes in all).
 */
static struct group *
group_of(const char *id, size_t full, size_t n, size_t run)
{
	struct group *g;
	const char *p;
	void **slot;
	size_t i;
	int isnew;

	slot = hmap_put2(&groups, id, full, &isnew);
	if (!isnew)
		return *slot;
	g = arena_alloc(&mem, sizeof(*g));
	memset(g, 0, sizeof(*g));
	g->run = run;
	/* Room for 4 values: groups by a key like Dispatch_ID keep few. */
	g->alloc = 4;
	g->v.p = xreallocarray(NULL, g->alloc, sizeof(int64_t));
	g->kv = arena_alloc(&mem, (n + 1) * sizeof(*g->kv));
	/* The texts point into the map's copy of the identity. */
	p = groups.ents[groups.n - 1].key;
	for (i = 0; i < n; i++) {
		g->kv[i].is_num = *p == 'n';
		memcpy(&g->kv[i].len, p + 1, sizeof(size_t));
		g->kv[i].text = p += 1 + sizeof(size_t);
		p += g->kv[i].len;
		g->kv[i].num = g->kv[i].is_num ? strtod(arena_strndup(&mem,
		    g->kv[i].text, g->kv[i].len), NULL) : 0;
	}
	*slot = g;
	return g;
}

/* Finds or makes the group of the identity built by build_keys(). */
static struct group *
get_group(struct strbuf *ident, size_t n, size_t run)
{
	struct group *g;
	size_t len = ident->len;

	strbuf_addch(ident, 'r');
	strbuf_add(ident, (const char *)&run, sizeof(run));
	g = group_of(ident->buf, ident->len, n, run);
	strbuf_setlen(ident, len);
	return g;
}

/*
 * The group of a record's n key values.  One string without a backslash
 * (the common case) has its identity made in place, as build_keys() and
 * get_group() would make it.
 */
static struct group *
find_group(const struct nd_slice vals[], size_t n, size_t run)
{
	static struct strbuf ident = STRBUF_INIT;
	char id[256];
	size_t len = vals[0].len - 2;

	if (n != 1 || nd_type(vals[0]) != ND_STRING ||
	    vals[0].len > sizeof(id) - 2 * sizeof(size_t) - 2 ||
	    memchr(vals[0].p, '\\', vals[0].len) != NULL) {
		build_keys(vals, n, &ident);
		return get_group(&ident, n, run);
	}
	id[0] = 's';
	memcpy(id + 1, &len, sizeof(len));
	memcpy(id + 1 + sizeof(len), vals[0].p + 1, len);
	id[1 + sizeof(len) + len] = 'r';
	memcpy(id + 2 + sizeof(len) + len, &run, sizeof(run));
	return group_of(id, 2 + 2 * sizeof(len) + len, n, run);
}

/*
 * A cache in front of the group map for the common record, one -k key
 * whose value is a string without a backslash: such a value's raw text
 * is its decoded text, so it is looked up as it stands in the line,
 * without building the identity find_group() hashes.  An entry holds
 * the group, its run and its key's length, and a key of 8 to 16 bytes
 * (the usual name) itself, so that a hit reads the entry alone, not the
 * group and its key (loads that depend on each other and miss the cache
 * when the groups are many).  A miss goes to find_group(), and a value
 * with a backslash is never cached (its raw text is not its value), so
 * no raw text with one is ever found.
 */
struct gcache_ent {
	uint64_t head, tail;	/* 8 to 16 bytes: the first 8, the last 8 */
	struct group *g;	/* NULL: none */
	uint32_t len, run;
};
static struct {
	struct gcache_ent *ents;
	size_t cap, n;		/* cap: a power of two, or 0 */
} gcache;

static inline uint64_t
load8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, 8);
	return w;
}

/*
 * The hash of a key value and run: a key of 8 to 16 bytes (the usual
 * name) from two words that overlap, mixed down to every bit; another
 * by the library's hash.
 */
static inline uint64_t
gcache_hash(const char *s, size_t len, size_t run)
{
	uint64_t h;

	if (len < 8 || len > 16)
		return hmap_hash(s, len) ^ (uint64_t)run * 0x9e3779b97f4a7c15ULL;
	h = (load8(s) ^ (uint64_t)run * 0x9e3779b97f4a7c15ULL) *
	    0xff51afd7ed558ccdULL;
	h ^= (load8(s + len - 8) + len) * 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 32;
	h *= 0xff51afd7ed558ccdULL;
	return h ^ (h >> 29);
}

/* Puts group g in the cache (which has room). */
static void
gcache_put(struct group *g)
{
	const char *s = g->kv[0].text;
	size_t len = g->kv[0].len, mask = gcache.cap - 1, i;
	struct gcache_ent *e;

	for (i = gcache_hash(s, len, g->run) & mask; gcache.ents[i].g != NULL;
	    i = (i + 1) & mask)
		;
	e = &gcache.ents[i];
	e->g = g;
	e->len = (uint32_t)len;
	e->run = (uint32_t)g->run;
	if (len >= 8 && len <= 16) {
		e->head = load8(s);
		e->tail = load8(s + len - 8);
	}
}

/* Adds group g, grown to twice the room when half full. */
static void
gcache_add(struct group *g)
{
	struct gcache_ent *old = gcache.ents;
	size_t i, cap = gcache.cap;

	if ((gcache.n + 1) * 2 > gcache.cap) {
		gcache.cap = cap != 0 ? cap * 2 : 64;
		gcache.ents = xcalloc(gcache.cap, sizeof(*gcache.ents));
		for (i = 0; i < cap; i++)
			if (old[i].g != NULL)
				gcache_put(old[i].g);
		free(old);
	}
	gcache_put(g);
	gcache.n++;
}

/* find_group() of one key value, through the cache. */
static struct group *
cached_group(const struct nd_slice *v, size_t run)
{
	const char *s = v->p + 1;
	size_t len = v->len - 2, mask = gcache.cap - 1, i, n = groups.n;
	const struct gcache_ent *e;
	struct group *g;
	int word = len >= 8 && len <= 16;

	if (run > UINT32_MAX || len > UINT32_MAX)
		return find_group(v, 1, run);
	for (i = gcache_hash(s, len, run) & mask; gcache.cap != 0 &&
	    (e = &gcache.ents[i])->g != NULL; i = (i + 1) & mask) {
		if (e->len != len || e->run != run)
			continue;
		if (word ? e->head == load8(s) && e->tail == load8(s + len -
		    8) : memcmp(e->g->kv[0].text, s, len) == 0)
			return e->g;
	}
	g = find_group(v, 1, run);
	if (groups.n > n && memchr(v->p, '\\', v->len) == NULL)
		gcache_add(g);
	return g;
}

static size_t
value_size(enum vkind k)
{
	return k == V_I128 ? sizeof(int128) : sizeof(int64_t);
}

/* Rewrites a group's values in the wider kind k (in place for doubles). */
static void
widen(struct group *g, enum vkind k)
{
	int128 *w;
	size_t i;

	if (k == V_F64 && g->kind == V_I64) {
		for (i = 0; i < g->n; i++)
			g->v.f64[i] = (double)g->v.i64[i];
	} else if (k == V_F64) {
		/* d[i] overwrites half of i128[i / 2], read already. */
		for (i = 0; i < g->n; i++)
			g->v.f64[i] = (double)g->v.i128[i];
	} else {
		w = xreallocarray(NULL, g->alloc ? g->alloc : 1, sizeof(*w));
		for (i = 0; i < g->n; i++)
			w[i] = g->v.i64[i];
		free(g->v.p);
		g->v.i128 = w;
	}
	g->kind = k;
}

static void
add_value(struct group *g, const struct value *x)
{
	if (x->kind > g->kind)
		widen(g, x->kind);
	if (g->n == g->alloc)
		g->v.p = xgrow(g->v.p, &g->alloc, g->n + 1,
		    value_size(g->kind));
	if (g->kind == V_F64)
		g->v.f64[g->n++] = x->kind == V_F64 ? x->d : (double)x->i;
	else if (g->kind == V_I128)
		g->v.i128[g->n++] = x->i;
	else
		g->v.i64[g->n++] = (int64_t)x->i;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WORD_DIGITS 1
/*
 * The value of the n digits (1 to 8) that end at e, read in one word
 * from the 8 bytes before e, the bytes before the digits taken as '0's
 * (Lemire's 8 digits at once).  Returns 0, or -1 when a byte of the n
 * is not a digit.
 */
static inline int
word_digits(const char *e, size_t n, uint64_t *out)
{
	uint64_t w, pad = (1ULL << (8 * (8 - n))) - 1;

	memcpy(&w, e - 8, 8);
	w = (w & ~pad) | (0x3030303030303030ULL & pad);
	if (!digits_all8(w))
		return -1;
	*out = digits_value8(w);
	return 0;
}
#endif

/*
 * The value of a number token of at most 18 digits and nothing else (no
 * fraction, no exponent), the common value, read in place: what
 * nd_val_i64() gives it, without its checks for longer ones.  One of at
 * most 8 digits is read in one word when the record (which starts at
 * rec; NULL: not known) has 8 bytes before its end.  Returns 0, or -1
 * for any other token.
 */
static inline int
short_int(struct nd_slice v, const char *rec, int64_t *out)
{
	const char *p = v.p;
	size_t i = 0, n = v.len;
	uint64_t x = 0;
	unsigned d;

	if (p == NULL || n == 0)
		return -1;
	if (*p == '-')
		i = 1;
	if (n == i || n - i > 18)
		return -1;
#ifdef WORD_DIGITS
	if (n - i <= 8 && rec != NULL && (size_t)(p - rec) + n >= 8) {
		if (word_digits(p + n, n - i, &x) != 0)
			return -1;
		*out = i ? -(int64_t)x : (int64_t)x;
		return 0;
	}
#endif
	for (; i < n; i++) {
		if ((d = (unsigned)(unsigned char)p[i] - '0') > 9)
			return -1;
		x = x * 10 + d;
	}
	*out = *p == '-' ? -(int64_t)x : (int64_t)x;
	return 0;
}

/*
 * Reads a value: an integer of 64 bits (signed or not) exactly, another
 * number as a double.  Returns 0, -1 when it is not a number, or -2 when
 * it cannot be represented (an integer beyond 64 bits, a number beyond a
 * double's range).  rec: the record v is in, or NULL (see short_int()).
 */
static int
parse_value(struct nd_slice v, const char *rec, struct value *out)
{
	int64_t i;
	uint64_t u;
	double d;

	if (short_int(v, rec, &i) == 0) {
		out->kind = V_I64;
		out->i = i;
		return 0;
	}
	if (nd_type(v) == ND_NUMBER) {
		if (nd_val_i64(v, &i) == 0) {
			out->kind = V_I64;
			out->i = i;
			return 0;
		}
		if (nd_val_u64(v, &u) == 0) {
			out->kind = V_I128;
			out->i = u;
			return 0;
		}
		if (nd_val_f64(v, &d) != 0)
			return -1;
		if (!memchr(v.p, '.', v.len) && !memchr(v.p, 'e', v.len) &&
		    !memchr(v.p, 'E', v.len))
			return -2;	/* an integer beyond 64 bits */
		if (isinf(d))
			return -2;
		out->kind = V_F64;
		out->d = d;
		return 0;
	}
	out->kind = V_F64;
	if (nd_str_eq(v, "nan", 3))
		out->d = NAN;
	else if (nd_str_eq(v, "inf", 3))
		out->d = INFINITY;
	else if (nd_str_eq(v, "-inf", 4))
		out->d = -INFINITY;
	else
		return -1;
	return 0;
}

/*
 * Is this record of the kind topn groups?  Records without a "type", and
 * by default the per-event types of profpipe streams (pmc2ndjson's
 * dispatches, migx2ndjson's instructions), or the --type asked for; the
 * metadata and summary kinds (sysinfo, summary, totals, ...) are not.
 */
static int
type_ok(struct nd_slice t, const char *want)
{
	if (t.p == NULL || (want != NULL && *want == '\0'))
		return 1;
	if (nd_type(t) != ND_STRING)
		return 0;
	if (want != NULL)
		return nd_str_eq(t, want, strlen(want));
	return nd_str_eq(t, "dispatch", 8) || nd_str_eq(t, "instruction", 11);
}

/*
 * The difference of two integer keys, exact: end_ns - start_ns for the
 * dur_ns of a span record, a - b for -v a-b.  Returns 0, or -1 when the
 * two are not integers or the difference does not fit in 64 bits.
 */
static int
difference(struct nd_slice a, struct nd_slice b, struct value *out)
{
	int64_t x, y, d;

	if (nd_val_i64(a, &x) != 0 || nd_val_i64(b, &y) != 0 ||
	    __builtin_sub_overflow(x, y, &d))
		return -1;
	out->kind = V_I64;
	out->i = d;
	return 0;
}

/*
 * -v a-b: a record without a key "a-b" has the value a - b; -v dur_ns:
 * a span record's is end_ns - start_ns.
 */
static void
split_value(void)
{
	const char *d = strchr(opt.value + 1, '-');

	if (*opt.value != '\0' && d != NULL && d[1] != '\0') {
		opt.minuend = arena_strndup(&mem, opt.value,
		    (size_t)(d - opt.value));
		opt.subtrahend = arena_strndup(&mem, d + 1, strlen(d + 1));
	} else if (strcmp(opt.value, "dur_ns") == 0) {
		opt.minuend = "end_ns";
		opt.subtrahend = "start_ns";
	}
}

/* Reads the value of a record into val; returns 0, 1 (missing) or -1. */
static int
record_value(const struct nd_slice v[], size_t n, const char *rec,
    struct value *val)
{
	if (v[n + 1].p == NULL && v[n + 4].p != NULL && v[n + 5].p != NULL &&
	    opt.minuend != NULL)
		return difference(v[n + 4], v[n + 5], val);
	if (v[n + 1].p == NULL || nd_type(v[n + 1]) == ND_NULL)
		return 1;
	return parse_value(v[n + 1], rec, val);
}

/*
 * The keys a record is read for: "type", the -k keys, the value, the
 * filters' keys, the difference's two keys and the run's, prepared once
 * (a name given twice fills only its first place, as in nd_fields()).
 */
static const char *rec_names[MAX_KEYS + 8];
static struct nd_keys record_keys;

static void
record_keys_init(void)
{
	size_t i, n = opt.nkeys;

	rec_names[0] = "type";
	for (i = 0; i < n; i++)
		rec_names[i + 1] = opt.keys[i];
	rec_names[n + 1] = opt.value;
	rec_names[n + 2] = "GPU_ID";
	rec_names[n + 3] = "Dispatch_ID";
	/* Unused unless the value is a difference (split_value()). */
	rec_names[n + 4] = opt.minuend != NULL ? opt.minuend : "end_ns";
	rec_names[n + 5] = opt.subtrahend != NULL ? opt.subtrahend : "start_ns";
	rec_names[n + 6] = "run";
	rec_names[n + 7] = "label";
	nd_keys_init(&record_keys, rec_names, n + 8);
}

/*
 * One input record of a normal run, with the values of record_keys in
 * v[] (found: what nd_fields_keys() returned).
 */
static void
topn_record(const char *line, size_t len, const struct srcpos *pos,
    int found, const struct nd_slice v[])
{
	size_t i, n = opt.nkeys, run;
	struct group *g;
	struct value val;
	int rc;

	if (found < 0) {
		bad_input(&bad, pos, "%s", nd_error());
		return;
	}
	if (!type_ok(v[0], opt.type) || !filters_pass(v[n + 2], v[n + 3]))
		return;
	if (where != NULL && jqf_keep(where, line, len, &bad, pos) != 1)
		return;
	for (i = 0; i < n; i++)
		if (v[i + 1].p == NULL || nd_type(v[i + 1]) == ND_NULL) {
			missing[i]++;
			return;
		}
	if ((rc = record_value(v, n, line, &val)) > 0) {
		missing[n]++;
		return;
	}
	if (rc < 0) {
		if (v[n + 1].p == NULL)
			bad_input(&bad, pos, "'%s' - '%s' is not a 64-bit "
			    "integer", opt.minuend, opt.subtrahend);
		else if (rc == -2)
			bad_input(&bad, pos, "'%s' cannot be represented: %.*s "
			    "(integers have 64 bits, other numbers are doubles)",
			    opt.value, (int)v[n + 1].len, v[n + 1].p);
		else
			bad_input(&bad, pos, "'%s' is not a number",
			    opt.value);
		return;
	}
	run = v[n + 6].p != NULL || v[n + 7].p != NULL ?
	    record_run(v[n + 6], v[n + 7]) : 0;
	g = n == 1 && nd_type(v[1]) == ND_STRING ? cached_group(&v[1], run) :
	    find_group(v + 1, n, run);
	/* The usual value, in place: add_value() without its call. */
	if (val.kind == V_I64 && g->kind == V_I64 && g->n < g->alloc)
		g->v.i64[g->n++] = (int64_t)val.i;
	else
		add_value(g, &val);
}

/* Takes the key names of --merge from the first partial record. */
static void
merge_names(struct nd_slice keys, const struct srcpos *pos)
{
	struct strbuf tmp = STRBUF_INIT;
	struct nd_slice k, v;
	struct nd_iter it;

	nd_iter_init(&it, keys);
	while (nd_iter_next(&it, &k, &v) == 1) {
		if (merge_nkeys == MAX_KEYS)
			die_at(pos, "more than %d keys", MAX_KEYS);
		strbuf_reset(&tmp);
		nd_val_str(k, &tmp);
		merge_keys[merge_nkeys++] = arena_strndup(&mem, tmp.buf,
		    tmp.len);
	}
	strbuf_release(&tmp);
}

/* Checks a partial record's keys against the first one's names. */
static int
merge_slices(struct nd_slice keys, struct nd_slice vals[])
{
	struct nd_slice k, v;
	struct nd_iter it;
	size_t n = 0;

	if (nd_type(keys) != ND_OBJECT || nd_iter_init(&it, keys) != 0)
		return -1;
	while (nd_iter_next(&it, &k, &v) == 1) {
		if (n == merge_nkeys || !nd_str_eq(k, merge_keys[n],
		    strlen(merge_keys[n])))
			return -1;
		vals[n++] = v;
	}
	return n == merge_nkeys ? 0 : -1;
}

/* One record of --merge: a partial aggregate. */
static void
merge_record(const char *line, size_t len, const struct srcpos *pos)
{
	static const char *const names[] = { "type", "keys", "values",
		"float", "run", "label", "value" };
	static struct strbuf ident = STRBUF_INIT;
	struct nd_slice v[7], kv[MAX_KEYS], k, x;
	struct nd_iter it;
	struct group *g;
	struct value val;
	int nvals = 0;

	if (nd_fields(line, len, names, v, 7) < 0) {
		bad_input(&bad, pos, "%s", nd_error());
		return;
	}
	if (v[0].p == NULL || !nd_str_eq(v[0], PARTIAL, strlen(PARTIAL)) ||
	    nd_type(v[1]) != ND_OBJECT || nd_type(v[2]) != ND_ARRAY ||
	    nd_type(v[6]) != ND_STRING) {
		bad_input(&bad, pos, "not a topn --partial record");
		return;
	}
	if (value_key == NULL) {
		strbuf_reset(&ident);
		nd_val_str(v[6], &ident);
		value_key = arena_strndup(&mem, ident.buf, ident.len);
	} else if (!nd_str_eq(v[6], value_key, strlen(value_key))) {
		bad_input(&bad, pos, "partial of '%.*s', not of '%s' like the "
		    "first one", (int)v[6].len - 2, v[6].p + 1, value_key);
		return;
	}
	nd_iter_init(&it, v[2]);	/* every value first: all or none */
	while (nd_iter_next(&it, &k, &x) == 1) {
		if (parse_value(x, NULL, &val) != 0) {
			bad_input(&bad, pos, "a value is not a number of "
			    "64 bits or a double: %.*s", (int)x.len, x.p);
			return;
		}
		nvals++;
	}
	if (nvals == 0) {
		bad_input(&bad, pos, "'values' is empty");
		return;
	}
	if (merge_nkeys == 0 && groups.n == 0)
		merge_names(v[1], pos);
	if (merge_slices(v[1], kv) != 0) {
		bad_input(&bad, pos, "keys differ from the first record's");
		return;
	}
	build_keys(kv, merge_nkeys, &ident);
	g = get_group(&ident, merge_nkeys, record_run(v[4], v[5]));
	if (nd_type(v[3]) == ND_TRUE && g->kind != V_F64)
		widen(g, V_F64);
	nd_iter_init(&it, v[2]);
	while (nd_iter_next(&it, &k, &x) == 1) {
		parse_value(x, NULL, &val);
		add_value(g, &val);
	}
}

/*
 * For each kind of value T: NAME_cmp (for qsort), NAME_max, the largest
 * of v[0..n) (n > 0), and NAME_select, which puts the k-th smallest of
 * v[0..n) at v[k], the smaller ones before it: Hoare's selection with a
 * median-of-three pivot, in linear time on average; a range that does
 * not shrink fast enough is sorted.  Doubles must not be NaN here.
 */
#define SELECTION(NAME, T)						\
static int								\
NAME##_cmp(const void *a, const void *b)				\
{									\
	T x = *(const T *)a, y = *(const T *)b;				\
									\
	return x < y ? -1 : x > y;					\
}									\
									\
static T								\
NAME##_max(const T *v, size_t n)					\
{									\
	T m = v[0];							\
	size_t i;							\
									\
	for (i = 1; i < n; i++)						\
		if (v[i] > m)						\
			m = v[i];					\
	return m;							\
}									\
									\
static void								\
NAME##_select(T *v, size_t n, size_t k)					\
{									\
	size_t lo = 0, hi = n - 1, i, j, mid, rounds = 0;		\
	T a, b, c, p, t;						\
									\
	while (lo < hi) {						\
		if (++rounds > 64) {					\
			qsort(v + lo, hi - lo + 1, sizeof(*v), NAME##_cmp); \
			return;						\
		}							\
		mid = lo + (hi - lo) / 2;				\
		a = v[lo], b = v[mid], c = v[hi];			\
		p = a < b ? (b < c ? b : a < c ? c : a) :		\
		    (a < c ? a : b < c ? c : b);			\
		for (i = lo, j = hi;;) {				\
			while (v[i] < p)				\
				i++;					\
			while (v[j] > p)				\
				j--;					\
			if (i >= j)					\
				break;					\
			t = v[i], v[i++] = v[j], v[j--] = t;		\
		}							\
		/* v[lo..j] <= p <= v[j+1..hi] */			\
		if (k <= j)						\
			hi = j;						\
		else							\
			lo = j + 1;					\
	}								\
}

SELECTION(i64, int64_t)
SELECTION(i128, int128)
SELECTION(f64, double)

/*
 * The h-th and, for an even count, the (h-1)-th smallest of v[0..n)
 * (h = n / 2 > 0), by selection in place.
 */
#define MIDDLE(NAME, T)							\
static void								\
NAME##_middle(T *v, size_t n, T mn, T mx, T *lo, T *hi)			\
{									\
	size_t h = n / 2;						\
									\
	(void)mn, (void)mx;						\
	NAME##_select(v, n, h);						\
	*hi = v[h];							\
	*lo = n % 2 ? *hi : NAME##_max(v, h);				\
}

MIDDLE(i128, int128)

#define NBINS 2048
#define BINNED_MIN 16384	/* fewer values: selected in place */

/*
 * i64_middle() of a big group, the values left in place: they are
 * counted in NBINS bins of equal width between the smallest mn and the
 * largest mx (one streaming pass, no unpredictable branch), the bin
 * that holds the h-th is found from the counts, and its values, copied
 * aside, are selected among.  The (h-1)-th is in the same bin, or is
 * the largest of the bin below it that is not empty.  A bin that holds
 * more than a sixteenth of the values (many equal ones) is not copied:
 * the values are then selected in place.
 */
static void
i64_middle_binned(int64_t *v, size_t n, int64_t mn, int64_t mx,
    int64_t *lo, int64_t *hi)
{
	static size_t cnt[NBINS];
	uint64_t range = (uint64_t)mx - (uint64_t)mn, b;
	size_t i, h = n / 2, below = 0, m = 0, hb, lb;
	int64_t *buf, lmax = mn;
	unsigned shift = 0;

	while ((range >> shift) >= NBINS)
		shift++;
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < n; i++)
		cnt[((uint64_t)v[i] - (uint64_t)mn) >> shift]++;
	for (hb = 0; below + cnt[hb] <= h; hb++)
		below += cnt[hb];
	for (lb = hb; n % 2 == 0 && below == h && cnt[--lb] == 0;)
		;
	if (cnt[hb] > n / 16) {
		i64_select(v, n, h);
		*hi = v[h];
		*lo = n % 2 ? *hi : i64_max(v, h);
		return;
	}
	buf = xreallocarray(NULL, cnt[hb] + 1, sizeof(*buf));
	for (i = 0; i < n; i++) {
		b = ((uint64_t)v[i] - (uint64_t)mn) >> shift;
		buf[m] = v[i];
		m += b == hb;
		if (b == lb && v[i] > lmax)
			lmax = v[i];
	}
	i64_select(buf, m, h - below);
	*hi = buf[h - below];
	if (n % 2)
		*lo = *hi;
	else
		*lo = h > below ? i64_max(buf, h - below) : lmax;
	free(buf);
}

static void
i64_middle(int64_t *v, size_t n, int64_t mn, int64_t mx, int64_t *lo,
    int64_t *hi)
{
	size_t h = n / 2;

	if (n >= BINNED_MIN && mn < mx) {
		i64_middle_binned(v, n, mn, mx, lo, hi);
		return;
	}
	i64_select(v, n, h);
	*hi = v[h];
	*lo = n % 2 || h == 0 ? *hi : i64_max(v, h);
}

/*
 * The exact sum, extremes and twice the median of an integer group
 * (n > 0), for each integer kind of value T.
 */
#define INT_STATS(NAME, T)						\
static void								\
NAME##_stats(struct group *g, T *v)					\
{									\
	size_t i;							\
	int128 sum = 0;							\
	T lo, hi, mn = v[0], mx = v[0];					\
									\
	for (i = 0; i < g->n; i++) {					\
		sum += v[i];						\
		mn = v[i] < mn ? v[i] : mn;				\
		mx = v[i] > mx ? v[i] : mx;				\
	}								\
	g->isum = sum;							\
	g->imin = mn;							\
	g->imax = mx;							\
	if (g->n == 1)							\
		lo = hi = v[0];						\
	else								\
		NAME##_middle(v, g->n, mn, mx, &lo, &hi);		\
	g->median2 = (int128)lo + (int128)hi;				\
}

INT_STATS(i64, int64_t)
INT_STATS(i128, int128)

/*
 * a / n (n > 0) rounded to the nearest double, ties to even, in integer
 * arithmetic only: no conversion of 128 bits to a long double, which
 * valgrind (x87 emulated with 64-bit doubles) gets wrong.  The quotient
 * is brought to 54 bits (53 and a rounding bit) by long division, the
 * remainder and any bits shifted out are the sticky bit.
 */
static double
int128_div(int128 a, uint64_t n)
{
	uint128 q, r, u = a < 0 ? -(uint128)a : (uint128)a;
	uint128 top = (uint128)1 << 53, lost = 0;
	uint64_t mant;
	int e = 0;
	double d;

	if (u == 0)
		return 0;
	q = u / n;
	r = u % n;
	while (q >= top << 1) {		/* too many bits: shift some out */
		lost |= q & 1;
		q >>= 1;
		e++;
	}
	while (q < top) {		/* too few: one more quotient bit */
		r <<= 1;
		q = q << 1 | (r >= n);
		if (r >= n)
			r -= n;
		e--;
	}
	lost |= r != 0;
	mant = (uint64_t)(q >> 1);
	if ((q & 1) && (lost || (mant & 1)))
		mant++;
	d = ldexp((double)mant, e + 1);
	return a < 0 ? -d : d;
}

/*
 * Sum (Kahan), mean, median, min and max of a float group.  The values
 * are not sorted: the median is selected, NaN counting as above every
 * number.
 */
static void
float_stats(struct group *g)
{
	double s = 0, c = 0, y, t, lo, hi, mn, *v = g->v.f64;
	size_t i, m, h = g->n / 2;

	for (i = 0; i < g->n; i++) {
		y = v[i] - c;
		t = s + y;
		c = (t - s) - y;
		s = t;
	}
	g->sum = s;
	g->mean = s / (double)g->n;
	/* The numbers first, m of them; the NaNs after. */
	for (i = m = 0; i < g->n; i++)
		if (!isnan(v[i]))
			t = v[i], v[i] = v[m], v[m++] = t;
	mn = m > 0 ? v[0] : NAN;
	for (i = 1; i < m; i++)
		if (v[i] < mn)
			mn = v[i];
	g->min = mn;
	g->max = m == g->n ? f64_max(v, m) : NAN;
	/* hi: the h-th smallest; lo: the one before it (even counts). */
	if (h < m) {
		f64_select(v, m, h);
		hi = v[h];
		lo = h > 0 ? f64_max(v, h) : hi;
	} else {
		hi = NAN;
		lo = h - 1 < m ? f64_max(v, m) : NAN;
	}
	g->median = g->n % 2 ? hi : (lo + hi) / 2;
}

/*
 * A group's statistics: exact in 128 bits for integers (the doubles are
 * then the exact values rounded once), else float_stats().
 */
static void
group_stats(struct group *g)
{
	if (g->kind == V_F64) {
		float_stats(g);
		return;
	}
	if (g->kind == V_I128)
		i128_stats(g, g->v.i128);
	else
		i64_stats(g, g->v.i64);
	g->sum = (double)g->isum;
	g->mean = int128_div(g->isum, g->n);
	g->median = (double)g->median2 / 2;
	g->min = (double)g->imin;
	g->max = (double)g->imax;
}

/*
 * numpy's pairwise summation, as pandas' Series.sum() adds the Sums (the
 * reduction starts from add's identity, 0, so for fewer than 8 groups
 * this is the plain sum in order).
 */
static double
pairwise(const double *a, size_t n)
{
	double r[8], res = 0;
	size_t i, j, n2;

	if (n < 8) {
		for (i = 0; i < n; i++)
			res += a[i];
		return res;
	}
	if (n <= 128) {
		memcpy(r, a, sizeof(r));
		for (i = 8; i < n - n % 8; i += 8)
			for (j = 0; j < 8; j++)
				r[j] += a[i + j];
		res = ((r[0] + r[1]) + (r[2] + r[3])) +
		    ((r[4] + r[5]) + (r[6] + r[7]));
		for (; i < n; i++)
			res += a[i];
		return res;
	}
	n2 = n / 2;
	n2 -= n2 % 8;
	return pairwise(a, n2) + pairwise(a + n2, n - n2);
}

static int
key_cmp(const struct group *a, const struct group *b)
{
	size_t i, n = opt.merge ? merge_nkeys : opt.nkeys, m;
	int c;

	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	for (i = 0; i < n; i++) {
		const struct kval *x = &a->kv[i], *y = &b->kv[i];

		if (x->is_num && y->is_num && x->num != y->num)
			return x->num < y->num ? -1 : 1;
		m = x->len < y->len ? x->len : y->len;
		if ((c = memcmp(x->text, y->text, m)) != 0)
			return c;
		if (x->len != y->len)
			return x->len < y->len ? -1 : 1;
	}
	return 0;
}

static int
key_order(const void *a, const void *b)
{
	return key_cmp(*(struct group *const *)a, *(struct group *const *)b);
}

static double
field_value(const struct group *g, enum field f)
{
	switch (f) {
	case F_COUNT: return (double)g->n;
	case F_MEAN: return g->mean;
	case F_MEDIAN: return g->median;
	case F_MIN: return g->min;
	case F_MAX: return g->max;
	case F_PCT: return g->pct;
	default: return g->sum;
	}
}

/* The output order: --sort (descending, key ascending), NaN last. */
static int
out_order(const void *a, const void *b)
{
	const struct group *x = *(struct group *const *)a;
	const struct group *y = *(struct group *const *)b;
	double u, v;
	int c = 0;

	if (opt.sort == F_KEY) {
		c = key_cmp(x, y);
		return opt.reverse ? -c : c;
	}
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	u = field_value(x, opt.sort);
	v = field_value(y, opt.sort);
	if (isnan(u) || isnan(v))
		c = isnan(u) - isnan(v);
	else if (u != v)
		c = (u > v ? -1 : 1) * (opt.reverse ? -1 : 1);
	return c != 0 ? c : key_cmp(x, y);
}

/* Appends v as Python's repr() writes a float (pandas' CSV numbers). */
static void
py_float(struct strbuf *sb, double v)
{
	char buf[40], dig[24];
	int prec, exp, nd = 0, i;
	char *p;

	if (isnan(v))
		return;
	if (isinf(v) || v == 0) {
		strbuf_addstr(sb, isinf(v) ? (v > 0 ? "inf" : "-inf") :
		    signbit(v) ? "-0.0" : "0.0");
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	for (p = buf; *p != 'e'; p++)
		if (*p >= '0' && *p <= '9')
			dig[nd++] = *p;
	exp = atoi(p + 1);
	if (v < 0)
		strbuf_addch(sb, '-');
	if (exp < -4 || exp >= 16) {
		strbuf_addch(sb, dig[0]);
		if (nd > 1) {
			strbuf_addch(sb, '.');
			strbuf_add(sb, dig + 1, (size_t)nd - 1);
		}
		strbuf_addf(sb, "e%c%02d", exp < 0 ? '-' : '+', abs(exp));
	} else if (exp < 0) {
		strbuf_addstr(sb, "0.");
		for (i = -1; i > exp; i--)
			strbuf_addch(sb, '0');
		strbuf_add(sb, dig, (size_t)nd);
	} else {
		for (i = 0; i <= exp || i < nd; i++) {
			if (i == exp + 1)
				strbuf_addch(sb, '.');
			strbuf_addch(sb, i < nd ? dig[i] : '0');
		}
		if (nd <= exp + 1)
			strbuf_addstr(sb, ".0");
	}
}

/* Appends a CSV field, quoted only when it must be. */
static void
csv_field(struct strbuf *sb, const char *s, size_t len)
{
	size_t i;

	/* s is not NUL-terminated (it points into the key texts). */
	for (i = 0; i < len; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
			break;
	if (i == len) {
		strbuf_add(sb, s, len);
		return;
	}
	strbuf_addch(sb, '"');
	for (i = 0; i < len; i++) {
		if (s[i] == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, s[i]);
	}
	strbuf_addch(sb, '"');
}

/* The key of a statistic: its name and the unit, if any (sum_ns). */
static const char *
stat_key(const char *name)
{
	static char buf[32];

	snprintf(buf, sizeof(buf), "%s%s%s", name, opt.out_unit ? "_" : "",
	    opt.out_unit ? opt.out_unit : "");
	return buf;
}

static void
put_stat(const char *name, double v)
{
	ndw_f64(&ow, stat_key(name), scaled(v));
}

/*
 * A statistic of an integer group, written exactly (converted to another
 * unit: v, scaled).
 */
static void
put_exact(const char *name, int128 x, double v)
{
	if (opt.mul != 1 || opt.div != 1)
		put_stat(name, v);
	else
		ndw_i128(&ow, stat_key(name), x);
}

/* The median of an integer group from twice its value: n or n.5. */
static void
put_median(int128 twice, double v)
{
	struct strbuf *sb;

	if (opt.mul != 1 || opt.div != 1 || twice % 2 == 0) {
		put_exact("median", twice / 2, v);
		return;
	}
	sb = ndw_value(&ow, stat_key("median"));
	if (twice < 0)
		strbuf_addch(sb, '-');	/* -0.5: the sign of the half */
	ndw_fmt_i128(sb, twice < 0 ? -(twice / 2) : twice / 2);
	strbuf_addstr(sb, ".5");
}

/* The group's run member, if it has a run. */
static void
put_run(const struct group *g)
{
	const struct runlab *rl = g->run > 0 ? &runs[g->run - 1] : NULL;

	if (rl != NULL)
		ndw_raw(&ow, rl->name, rl->json, rl->jsonlen);
}

/* The group's keys: strings as strings, other values as written. */
static void
put_keys(const struct group *g)
{
	const char *const *names = opt.merge ? merge_keys : opt.keys;
	size_t i, n = opt.merge ? merge_nkeys : opt.nkeys;

	for (i = 0; i < n; i++)
		if (g->kv[i].is_num)
			ndw_raw(&ow, names[i], g->kv[i].text, g->kv[i].len);
		else
			ndw_str(&ow, names[i], g->kv[i].text, g->kv[i].len);
}

static void
write_stats(const struct group *g)
{
	ndw_begin(&ow);
	put_run(g);
	put_keys(g);
	ndw_u64(&ow, "count", g->n);
	if (g->kind == V_F64) {
		put_stat("sum", g->sum);
		put_stat("mean", g->mean);
		put_stat("median", g->median);
		put_stat("min", g->min);
		put_stat("max", g->max);
	} else {
		put_exact("sum", g->isum, g->sum);
		put_stat("mean", g->mean);
		put_median(g->median2, g->median);
		put_exact("min", g->imin, g->min);
		put_exact("max", g->imax, g->max);
	}
	ndw_f64(&ow, "pct", g->pct);
	ndw_end(&ow);
	ndw_emit(&ow, outfp);
}

static void
write_csv_header(struct strbuf *sb)
{
	const char *const *names = opt.merge ? merge_keys : opt.keys;
	size_t i, n = opt.merge ? merge_nkeys : opt.nkeys;
	const char *u = opt.out_unit ? opt.out_unit : "ns";

	if (nruns > 0)
		strbuf_addstr(sb, "run,");
	for (i = 0; i < n; i++) {
		csv_field(sb, names[i], strlen(names[i]));
		strbuf_addch(sb, ',');
	}
	strbuf_addf(sb, "Count,Sum(%s),Mean(%s),Median(%s),Pct\n", u, u, u);
}

static void
write_csv(struct strbuf *sb, const struct group *g)
{
	size_t i, n = opt.merge ? merge_nkeys : opt.nkeys;

	if (nruns > 0) {
		if (g->run > 0)
			csv_field(sb, runs[g->run - 1].text,
			    strlen(runs[g->run - 1].text));
		strbuf_addch(sb, ',');
	}
	for (i = 0; i < n; i++) {
		csv_field(sb, g->kv[i].text, g->kv[i].len);
		strbuf_addch(sb, ',');
	}
	strbuf_addf(sb, "%zu,", g->n);
	py_float(sb, scaled(g->sum));
	strbuf_addch(sb, ',');
	py_float(sb, scaled(g->mean));
	strbuf_addch(sb, ',');
	py_float(sb, scaled(g->median));
	strbuf_addch(sb, ',');
	py_float(sb, g->pct);
	strbuf_addch(sb, '\n');
}

/* --partial: the group's values in input order. */
static void
write_partial(const struct group *g)
{
	size_t i;

	ndw_begin(&ow);
	ndw_str(&ow, "type", PARTIAL, strlen(PARTIAL));
	put_run(g);
	ndw_strz(&ow, "value", opt.value);
	ndw_obj(&ow, "keys");
	put_keys(g);
	ndw_close(&ow);
	if (g->kind == V_F64)
		ndw_bool(&ow, "float", 1);
	ndw_arr(&ow, "values");
	for (i = 0; i < g->n; i++)
		if (g->kind == V_F64)
			ndw_f64(&ow, NULL, g->v.f64[i]);
		else if (g->kind == V_I128)
			ndw_i128(&ow, NULL, g->v.i128[i]);
		else
			ndw_i64(&ow, NULL, g->v.i64[i]);
	ndw_end(&ow);
	ndw_emit(&ow, outfp);
}

/* Computes every group's statistics and writes the first opt.count. */
static void
finish(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct group **gs = xreallocarray(NULL, groups.n + 1, sizeof(*gs));
	double *sums = xreallocarray(NULL, groups.n + 1, sizeof(*sums));
	double total;
	size_t i, j, k, n = groups.n;

	for (i = 0; i < n; i++)
		gs[i] = groups.ents[i].val;
	units_setup(opt.merge ? value_key : opt.value);
	if (opt.csv) {
		write_csv_header(&sb);
		fwrite(sb.buf, 1, sb.len, outfp);
	}
	for (i = 0; opt.partial && i < n; i++)
		write_partial(gs[i]);
	if (!opt.partial) {
		for (i = 0; i < n; i++)
			group_stats(gs[i]);
		/* Each run's groups are one table: their own pct and -n. */
		if (n > 1)
			qsort(gs, n, sizeof(*gs), key_order);
		for (i = 0; i < n; i++)
			sums[i] = scaled(gs[i]->sum);
		for (i = 0; i < n; i = j) {
			for (j = i; j < n && gs[j]->run == gs[i]->run; j++)
				;
			total = pairwise(sums + i, j - i);
			for (k = i; k < j; k++)
				gs[k]->pct = total == 0 ? NAN :
				    sums[k] / total * 100;
		}
		if (n > 1)
			qsort(gs, n, sizeof(*gs), out_order);
	}
	for (i = k = 0; !opt.partial && i < n; i++, k++) {
		if (i > 0 && gs[i]->run != gs[i - 1]->run)
			k = 0;
		if (opt.count != 0 && k >= opt.count)
			continue;
		if (!opt.csv) {
			write_stats(gs[i]);
			continue;
		}
		strbuf_reset(&sb);
		write_csv(&sb, gs[i]);
		fwrite(sb.buf, 1, sb.len, outfp);
	}
	free(gs);
	free(sums);
	strbuf_release(&sb);
}

/* The values of record_keys in the record at hand. */
static struct nd_slice rec_vals[MAX_KEYS + 8];

static void
topn_line(struct nd_reader *r, void *arg)
{
	(void)arg;
	if (opt.merge)
		merge_record(r->line, r->len, &r->pos);
	else
		topn_record(r->line, r->len, &r->pos, r->found, rec_vals);
	progress_update(++nrecords, 0);
}

static int
topn_stream(const char *path)
{
	static const struct nd_loop loop = { topn_line, NULL, &bad,
		SNIFF_NOT_NDJSON | SNIFF_BIT(SNIFF_TRACE), NULL };

	/* The reader scans each record for record_keys (not in --merge). */
	return nd_each_keys(path, &loop, opt.merge ? NULL : &record_keys,
	    rec_vals) < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The one-line summary of records that lacked a key or the value. */
static void
report_missing(void)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long total = 0;
	size_t i;

	for (i = 0; i <= opt.nkeys; i++) {
		if (missing[i] == 0)
			continue;
		strbuf_addf(&sb, "%s%lu without '%s'", total ? ", " : "",
		    missing[i], i < opt.nkeys ? opt.keys[i] : opt.value);
		total += missing[i];
	}
	if (total > 0)
		warn("%lu record%s not grouped: %s", total,
		    total == 1 ? " was" : "s were", sb.buf);
	strbuf_release(&sb);
}

int
main(int argc, char *argv[])
{
	enum { OPT_ACROSS = OPT_OWN, OPT_CSV, OPT_FILES_FROM, OPT_GPU,
		OPT_MERGE,
		OPT_PARTIAL, OPT_TYPE, OPT_UNIT };
	static const struct option longopts[] = {
		{ "across-runs", no_argument, NULL, OPT_ACROSS },
		{ "count", required_argument, NULL, 'n' },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "dispatch", required_argument, NULL, 'd' },
		{ "files-from", required_argument, NULL, OPT_FILES_FROM },
		{ "gpu", required_argument, NULL, OPT_GPU },
		{ "key", required_argument, NULL, 'k' },
		{ "merge", no_argument, NULL, OPT_MERGE },
		{ "partial", no_argument, NULL, OPT_PARTIAL },
		{ "reverse", no_argument, NULL, 'r' },
		{ "sort", required_argument, NULL, 's' },
		{ "type", required_argument, NULL, OPT_TYPE },
		{ "unit", required_argument, NULL, OPT_UNIT },
		{ "value", required_argument, NULL, 'v' },
		OPT__COMMON
	};
	static char obuf[1 << 16];
	struct flist fl;
	struct ofile of;
	const char *path;
	int ch, rc = EXIT_SUCCESS;

	prog_init(argv[0]);
	prog_usage(usage);
	while ((ch = opt_next(argc, argv, "d:k:n:" OPT_COMMON_SHORT "rs:v:",
	    longopts)) != -1)
		switch (ch) {
		case 'd':
			parse_dispatch(optarg);
			break;
		case 'k':
			if (opt.nkeys == MAX_KEYS)
				die_usage("more than %d keys", MAX_KEYS);
			opt.keys[opt.nkeys++] = optarg;
			break;
		case 'n':
			opt.count = opt_ulong("-n", optarg, 0, (unsigned long)-1);
			break;
		case 'r':
			opt.reverse = 1;
			break;
		case 's':
			parse_sort(optarg);
			break;
		case 'v':
			opt.value = optarg;
			break;
		case OPT_ACROSS:
			opt.across = 1;
			break;
		case OPT_CSV:
			opt.csv = 1;
			break;
		case OPT_FILES_FROM:
			opt.files_from = optarg;
			break;
		case OPT_GPU:
			add_list(&opt.gpus, optarg);
			break;
		case OPT_MERGE:
			opt.merge = 1;
			break;
		case OPT_PARTIAL:
			opt.partial = 1;
			break;
		case OPT_TYPE:
			opt.type = optarg;
			break;
		case OPT_UNIT:
			parse_unit(optarg);
			break;
		default:
			opt_common(ch, optarg, &opt.com, usage);
		}
	argc -= optind;
	argv += optind;
	bad.strict = opt.com.strict;
	for (size_t i = 0; i < opt.nkeys; i++)
		if (strcmp(opt.keys[i], "run") == 0 ||
		    strcmp(opt.keys[i], "label") == 0)
			opt.across = 1;
	if (opt.merge && opt.partial)
		die_usage("--merge and --partial do not go together");
	if (opt.partial && opt.csv)
		die_usage("--csv and --partial do not go together");
	if (opt.com.where != NULL)
		where = jqf_compile(opt.com.where);
	flist_init(&fl, argc, argv, opt.files_from);
	outfp = ofile_open(&of, opt.com.output);
	setvbuf(outfp, obuf, _IOFBF, sizeof(obuf));
	arena_init(&mem, 0);
	ndw_init(&ow, 0);
	hmap_init(&groups, 64);
	hmap_init(&runmap, 8);
	split_value();
	record_keys_init();
	progress_init(opt.com.progress, "records");
	while ((path = flist_next(&fl)) != NULL)
		if (topn_stream(path) != EXIT_SUCCESS)
			rc = EXIT_FAILURE;
	if (flist_release(&fl) != 0)
		rc = EXIT_FAILURE;
	progress_done();
	finish();
	if (!opt.merge)
		report_missing();
	if (bad_input_finish(&bad) != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	rc = ofile_finish(&of, rc);
	for (size_t i = 0; i < groups.n; i++)
		free(((struct group *)groups.ents[i].val)->v.p);
	hmap_release(&groups);
	free(gcache.ents);
	hmap_release(&runmap);
	for (size_t i = 0; i < nruns; i++) {
		free(runs[i].json);
		free(runs[i].text);
	}
	free(runs);
	arena_release(&mem);
	nd_keys_release(&record_keys);
	ndw_release(&ow);
	strbuf_release(&opt.gpus);
	strbuf_release(&opt.dispatches);
	jqf_free(where);
	return close_stdout() != 0 ? EXIT_FAILURE : rc;
}

/*
 * flame2html: merges stack records or folded stacks into one call tree and
 * writes it as a self-contained, interactive HTML flame graph.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "err.h"
#include "arena.h"
#include "html.h"
#include "jqf.h"
#include "nd.h"
#include "ndw.h"
#include "ofile.h"
#include "opt.h"
#include "progress.h"
#include "strbuf.h"
#include "zin.h"
#include "assets.h"

#define NONE UINT32_MAX
#define CHUNK_CHARS (16u << 20)	/* node characters per <script> block */

static struct {
	const char *categories;
	int diff;
	const char *output;
	int progress;
	int strict;
	const char *title;
	const char *unit;
	const char *where;
} opt = { NULL, 0, NULL, PROGRESS_AUTO, 0, NULL, NULL, NULL };

/* One colour rule: a name matching it gets category cat. */
struct rule {
	regex_t re;
	size_t cat;
};

struct category {
	char name[64];
	char colour[8];
};

static struct {
	struct category cat[64];
	size_t ncat;
	struct rule *rule;
	size_t nrule;
} cats;

/* A slot of the child index: node + 1 (0: empty) and its key, inline so
 * that a lookup touches one cache line. */
struct cslot {
	uint32_t parent, name, node;
};

struct name {
	const char *p;		/* NUL-terminated copy */
	size_t len;
};

struct nslot {
	uint64_t hash;
	uint32_t id;		/* name id + 1, 0: empty */
	uint32_t len;		/* the name's length, or UINT32_MAX if longer */
};

/*
 * The call tree, as parallel arrays indexed by node.  key[i] is the
 * parent << 32 | name (one array, so a lookup touches one place); a node
 * is created after its parent, so parent < i.  child[] finds the pairs.
 * self[] is the node's own weight (the "after" side in a diff), before[]
 * the "before" side, calls[] the calls of stack records ending there.
 */
static struct {
	uint64_t *key;
	uint64_t *self, *before, *calls;
	size_t n, alloc;
	struct cslot *child;		/* open addressing on key */
	size_t cap;
	struct name *names;		/* by id */
	size_t nnames, names_alloc;
	struct nslot *nslot;		/* open addressing on the name */
	size_t ncap;
	struct arena text;		/* the names' bytes */
	unsigned char *is_thread;	/* per name: used as a thread label */
	uint32_t root, merged;		/* merged: NONE until a thread shows */
	int has_calls, has_diff, has_threads, folded, ndjson;
	unsigned long fractions;
} t;

static struct bad_input bad = BAD_INPUT_INIT;
static struct jqf *where;
static unsigned long lines_used;

static void
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: flame2html [-dh] [-c file] [-o file] [-t title] "
	    "[-u unit] [--progress | --no-progress] [--strict] [--version] "
	    "[--where expr] [file ...]\n");
	exit(status);
}

static void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n)) == NULL && n != 0)
		die("out of memory");
	return p;
}

#define PARENT(i) ((uint32_t)(t.key[i] >> 32))
#define NAME(i) ((uint32_t)t.key[i])

static uint64_t
mix(uint64_t key)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

static void
child_put(struct cslot *slot, size_t cap, uint32_t parent, uint32_t name,
    uint32_t node)
{
	size_t j = mix((uint64_t)parent << 32 | name) & (cap - 1);

	while (slot[j].node != 0)
		j = (j + 1) & (cap - 1);
	slot[j].parent = parent;
	slot[j].name = name;
	slot[j].node = node + 1;
}

/*
 * Zeroed memory for a big table that is probed at random: asking for huge
 * pages there saves most of the TLB misses (about a third of the time).
 */
static void *
table_alloc(size_t n)
{
	void *p;

	if (n < (4u << 20)) {
		if ((p = calloc(1, n)) == NULL)
			die("out of memory");
		return p;
	}
	if (posix_memalign(&p, 2u << 20, n) != 0)
		die("out of memory");
#ifdef MADV_HUGEPAGE
	madvise(p, n, MADV_HUGEPAGE);
#endif
	memset(p, 0, n);
	return p;
}

static void
child_grow(void)
{
	size_t cap = t.cap != 0 ? t.cap * 2 : 1024, i;
	struct cslot *slot = table_alloc(cap * sizeof(*slot));

	for (i = 0; i < t.cap; i++)
		if (t.child[i].node != 0)
			child_put(slot, cap, t.child[i].parent,
			    t.child[i].name, t.child[i].node - 1);
	free(t.child);
	t.child = slot;
	t.cap = cap;
}

static uint32_t
node_new(uint32_t parent, uint32_t name)
{
	size_t a;

	if (t.n == t.alloc) {
		if (t.n >= NONE - 1)
			die("more than %u nodes", NONE - 1);
		a = t.alloc != 0 ? t.alloc * 2 : 4096;
		t.key = xrealloc(t.key, a * sizeof(*t.key));
		t.self = xrealloc(t.self, a * sizeof(*t.self));
		if (t.before != NULL)
			t.before = xrealloc(t.before, a * sizeof(*t.before));
		if (t.calls != NULL)
			t.calls = xrealloc(t.calls, a * sizeof(*t.calls));
		t.alloc = a;
	}
	t.key[t.n] = (uint64_t)parent << 32 | name;
	t.self[t.n] = 0;
	if (t.before != NULL)
		t.before[t.n] = 0;
	if (t.calls != NULL)
		t.calls[t.n] = 0;
	return (uint32_t)t.n++;
}

/*
 * Returns the child of parent called name, creating it if needed.  A
 * parent made by the same line (*fresh set) has no other children, so
 * the child is new; *fresh is set when the child is new.
 *
 * A node's first child is usually the node made right after it (a new
 * line adds its frames in order), so that child is found at parent + 1
 * and kept out of the index: walking down a path then reads the key array
 * in order, and the index holds only the other children.
 */
static uint32_t
node_child(uint32_t parent, uint32_t name, int *fresh)
{
	uint64_t key = (uint64_t)parent << 32 | name;
	size_t j;
	uint32_t c;

	if (*fresh) {
		c = node_new(parent, name);
		if (c == parent + 1)
			return c;
		if (t.n > t.cap / 4 * 3)
			child_grow();
		child_put(t.child, t.cap, parent, name, c);
		return c;
	}
	if (parent + 1 < t.n && t.key[parent + 1] == key)
		return parent + 1;
	if (t.n + 1 > t.cap / 4 * 3)
		child_grow();
	j = mix(key) & (t.cap - 1);
	for (; t.child[j].node != 0; j = (j + 1) & (t.cap - 1))
		if (t.child[j].parent == parent && t.child[j].name == name)
			return t.child[j].node - 1;
	*fresh = 1;
	c = node_new(parent, name);
	if (c == parent + 1)
		return c;
	t.child[j].parent = parent;
	t.child[j].name = name;
	t.child[j].node = c + 1;
	return c;
}

/* A hash of a name, eight bytes at a time. */
static uint64_t
name_hash(const char *p, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, v;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&v, p, 8);
		h = (h ^ v) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	v = 0;
	memcpy(&v, p, n);
	h = (h ^ v) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
}

static void
name_grow(void)
{
	size_t cap = t.ncap != 0 ? t.ncap * 2 : 1024, i, j;
	struct nslot *slot = xrealloc(NULL, cap * sizeof(*slot));

	memset(slot, 0, cap * sizeof(*slot));
	for (i = 0; i < t.ncap; i++) {
		if (t.nslot[i].id == 0)
			continue;
		j = t.nslot[i].hash & (cap - 1);
		while (slot[j].id != 0)
			j = (j + 1) & (cap - 1);
		slot[j] = t.nslot[i];
	}
	free(t.nslot);
	t.nslot = slot;
	t.ncap = cap;
}

static uint32_t
name_id(const char *s, size_t len)
{
	uint64_t h = name_hash(s, len);
	size_t j;

	if ((t.nnames + 1) * 2 > t.ncap)
		name_grow();
	for (j = h & (t.ncap - 1); t.nslot[j].id != 0; j = (j + 1) & (t.ncap - 1))
		if (t.nslot[j].hash == h && (t.nslot[j].len == len ||
		    t.nslot[j].len == UINT32_MAX)) {
			const struct name *nm = &t.names[t.nslot[j].id - 1];

			if (nm->len == len && memcmp(nm->p, s, len) == 0)
				return t.nslot[j].id - 1;
		}
	if (t.nnames == t.names_alloc) {
		t.names_alloc = t.names_alloc != 0 ? t.names_alloc * 2 : 1024;
		t.names = xrealloc(t.names, t.names_alloc * sizeof(*t.names));
		t.is_thread = xrealloc(t.is_thread, t.names_alloc);
	}
	t.names[t.nnames].p = arena_strndup(&t.text, s, len);
	t.names[t.nnames].len = len;
	t.is_thread[t.nnames] = 0;
	t.nslot[j].hash = h;
	t.nslot[j].len = len < UINT32_MAX ? (uint32_t)len : UINT32_MAX;
	t.nslot[j].id = (uint32_t)++t.nnames;
	return (uint32_t)(t.nnames - 1);
}

/*
 * The child of node called s[0..len): node + 1 is tried first by its
 * text, which spares the name lookup on the common path (see node_child).
 */
static uint32_t
frame_child(uint32_t node, const char *s, size_t len, int *fresh)
{
	uint32_t c = node + 1;

	if (!*fresh && c < t.n && PARENT(c) == node) {
		const struct name *nm = &t.names[NAME(c)];

		if (nm->len == len && memcmp(nm->p, s, len) == 0)
			return c;
	}
	return node_child(node, name_id(s, len), fresh);
}

/* Adds weights to a node: w[0] after (or only) side, w[1] before side. */
static void
node_add(uint32_t n, const uint64_t w[2], uint64_t calls)
{
	if (t.before == NULL && w[1] != w[0]) {
		/* Until now both sides were the same. */
		t.before = xrealloc(NULL, t.alloc * sizeof(*t.before));
		memcpy(t.before, t.self, t.n * sizeof(*t.before));
	}
	if (t.calls == NULL && calls != 0)
		t.calls = memset(xrealloc(NULL, t.alloc * sizeof(*t.calls)), 0,
		    t.alloc * sizeof(*t.calls));
	t.self[n] += w[0];
	if (t.before != NULL)
		t.before[n] += w[1];
	if (t.calls != NULL)
		t.calls[n] += calls;
}

/* --- folded input ------------------------------------------------------- */

/* Parses a count: digits with an optional fraction, which is rounded. */
static int
parse_count(const char *p, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i = 0;

	if (len == 0 || !isdigit((unsigned char)p[0]))
		return -1;
	for (; i < len && isdigit((unsigned char)p[i]); i++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(p[i] - '0');
	}
	if (i < len) {
		if (p[i] != '.')
			return -1;
		for (size_t k = i + 1; k < len; k++)
			if (!isdigit((unsigned char)p[k]))
				return -1;
		if (i + 1 < len && p[i + 1] >= '5')
			x++;
		if (i + 1 < len)
			t.fractions++;
	}
	*v = x;
	return 0;
}

#define IS_WS(c) ((c) == ' ' || (c) == '\t' || (c) == '\r' || \
    (c) == '\f' || (c) == '\v')

/* Splits off the last whitespace-separated token of p[0..*len). */
static int
last_count(const char *p, size_t *len, uint64_t *v)
{
	size_t e = *len, s;

	while (e > 0 && IS_WS(p[e - 1]))
		e--;
	s = e;
	while (s > 0 && !IS_WS(p[s - 1]))
		s--;
	if (s == 0 || parse_count(p + s, e - s, v) != 0)
		return -1;
	while (s > 0 && IS_WS(p[s - 1]))
		s--;
	*len = s;
	return 0;
}

/*
 * The previous folded line and its path: a line that shares whole frames
 * with the one before reuses their nodes without a lookup.
 */
static struct {
	struct strbuf line;
	uint32_t *node;
	size_t *end;		/* where each frame ends in line */
	size_t depth, alloc;
} prev = { STRBUF_INIT, NULL, NULL, 0, 0 };

static void
prev_push(uint32_t node, size_t end)
{
	if (prev.depth == prev.alloc) {
		prev.alloc = prev.alloc != 0 ? prev.alloc * 2 : 256;
		prev.node = xrealloc(prev.node, prev.alloc * sizeof(*prev.node));
		prev.end = xrealloc(prev.end, prev.alloc * sizeof(*prev.end));
	}
	prev.node[prev.depth] = node;
	prev.end[prev.depth++] = end;
}

static void
folded_line(const struct srcpos *pos, const char *p, size_t len, int side)
{
	uint64_t c1, c2, w[2] = { 0, 0 };
	size_t l = 0, keep = 0, s;
	uint32_t node = t.root;
	int fresh = 0;

	if (last_count(p, &len, &c2) != 0) {
		bad_input(&bad, pos, "not a folded stack line "
		    "('frame;frame count')");
		return;
	}
	if (len > 0 && last_count(p, &len, &c1) == 0) {
		if (side >= 0) {
			bad_input(&bad, pos, "two counts in a --diff input");
			return;
		}
		w[0] = c2, w[1] = c1;
		t.has_diff = 1;
	} else if (side < 0)
		w[0] = w[1] = c2;
	else
		w[side] = c2;
	/* Reuse the frames this line shares with the previous one. */
	while (l < len && l < prev.line.len && p[l] == prev.line.buf[l])
		l++;
	while (keep < prev.depth && prev.end[keep] < l &&
	    prev.line.buf[prev.end[keep]] == ';')
		keep++;
	prev.depth = keep;
	s = keep > 0 ? prev.end[keep - 1] + 1 : 0;
	if (keep > 0)
		node = prev.node[keep - 1];
	while (len > 0 && s <= len) {
		const char *semi = memchr(p + s, ';', len - s);
		size_t e = semi != NULL ? (size_t)(semi - p) : len;

		node = frame_child(node, p + s, e - s, &fresh);
		prev_push(node, e);
		s = e + 1;
	}
	strbuf_reset(&prev.line);
	strbuf_add(&prev.line, p, len);
	node_add(node, w, 0);
	lines_used++;
}

/* --- stack records ------------------------------------------------------ */

/* Checks that stack is an array of strings. */
static int
stack_ok(struct nd_slice stack)
{
	struct nd_iter it;
	struct nd_slice k, v;

	if (nd_type(stack) != ND_ARRAY || nd_iter_init(&it, stack) != 0)
		return 0;
	while (nd_iter_next(&it, &k, &v) == 1)
		if (nd_type(v) != ND_STRING)
			return 0;
	return 1;
}

/* Follows a checked stack from root, adding the frames that are new. */
static uint32_t
record_path(struct nd_slice stack, uint32_t root, struct strbuf *sb)
{
	struct nd_iter it;
	struct nd_slice k, v;
	uint32_t node = root;
	int fresh = 0;

	nd_iter_init(&it, stack);
	while (nd_iter_next(&it, &k, &v) == 1) {
		strbuf_reset(sb);
		nd_val_str(v, sb);
		node = frame_child(node, sb->buf, sb->len, &fresh);
	}
	return node;
}

static void
record_line(const struct srcpos *pos, const char *p, size_t len, int side)
{
	static const char *const keys[] = { "thread", "stack", "self_ns",
	    "calls" };
	static struct strbuf sb = STRBUF_INIT;
	struct nd_slice v[4];
	uint64_t self, calls = 0, w[2] = { 0, 0 };
	uint32_t node, top = t.root, th;
	int m, fresh = 0;

	if (nd_fields(p, len, keys, v, 4) < 0) {
		bad_input(&bad, pos, "%s", nd_error());
		return;
	}
	if (where != NULL && (m = jqf_match(where, p, len)) != 1) {
		if (m < 0)
			bad_input(&bad, pos, "--where: %s", jqf_error(where));
		return;
	}
	if (v[1].p == NULL || v[2].p == NULL) {
		bad_input(&bad, pos, "no '%s'", v[1].p == NULL ? "stack" :
		    "self_ns");
		return;
	}
	if (!stack_ok(v[1])) {
		bad_input(&bad, pos, "'stack' is not an array of strings");
		return;
	}
	if (nd_val_u64(v[2], &self) != 0) {
		bad_input(&bad, pos, "'self_ns' is not an integer >= 0");
		return;
	}
	if (v[3].p != NULL && nd_val_u64(v[3], &calls) != 0) {
		bad_input(&bad, pos, "'calls' is not an integer >= 0");
		return;
	}
	if (v[0].p != NULL) {
		strbuf_reset(&sb);
		if (nd_type(v[0]) == ND_STRING)
			nd_val_str(v[0], &sb);
		else if (nd_type(v[0]) == ND_NUMBER)
			strbuf_add(&sb, v[0].p, v[0].len);
		else {
			bad_input(&bad, pos, "'thread' is not a string");
			return;
		}
		th = name_id(sb.buf, sb.len);
		t.is_thread[th] = 1;
		top = node_child(t.root, th, &fresh);
		t.has_threads = 1;
	}
	node = record_path(v[1], top, &sb);
	w[side < 0 ? 0 : side] = self;
	if (side < 0)
		w[1] = self;
	node_add(node, w, side == 1 ? 0 : calls);
	if (v[3].p != NULL)
		t.has_calls = 1;
	if (v[0].p != NULL) {
		if (t.merged == NONE)
			t.merged = node_new(NONE, name_id("", 0));
		node = record_path(v[1], t.merged, &sb);
		node_add(node, w, side == 1 ? 0 : calls);
	}
	lines_used++;
}

/*
 * Reads one input.  The first line that is not blank decides its kind:
 * a '{' starts stack records (NDJSON), anything else folded lines.  side
 * is -1 for an ordinary input, 1 for --diff's before and 0 for its after.
 */
static int
flame_stream(const char *path, int side)
{
	struct zin z;
	struct srcpos pos;
	const char *line;
	size_t len, i;
	int r, kind = -1;

	if (zin_open(&z, path) != 0) {
		warn_errno("cannot open '%s'", path);
		return -1;
	}
	pos.file = z.name;
	pos.line = 0;
	prev.depth = 0;
	strbuf_reset(&prev.line);
	while ((r = zin_getline(&z, &line, &len)) == 1) {
		pos.line++;
		if (len > 0 && line[len - 1] == '\r')
			len--;
		if ((pos.line & 0xffff) == 0)
			progress_update(pos.line, 0);
		if (pos.line == 1 && len >= 3 &&
		    memcmp(line, "\xef\xbb\xbf", 3) == 0) {
			line += 3;	/* a UTF-8 byte order mark */
			len -= 3;
		}
		i = 0;
		while (i < len && IS_WS(line[i]))
			i++;
		if (i == len)
			continue;	/* blank */
		if (kind < 0) {
			kind = line[i] == '{';
			if (kind)
				t.ndjson = 1;
			else
				t.folded = 1;
		}
		if (kind == 1)
			record_line(&pos, line, len, side);
		else
			folded_line(&pos, line, len, side);
	}
	if (r < 0) {
		warn("%s: read error: %s", z.name, zin_error(&z));
		zin_close(&z);
		return -1;
	}
	zin_close(&z);
	return 0;
}

/* --- categories --------------------------------------------------------- */

static size_t
cat_add(const char *name, const char *colour)
{
	size_t i;

	for (i = 0; i < cats.ncat; i++)
		if (strcmp(cats.cat[i].name, name) == 0)
			return i;
	if (cats.ncat == sizeof(cats.cat) / sizeof(cats.cat[0]))
		die("more than %zu categories", cats.ncat);
	snprintf(cats.cat[i].name, sizeof(cats.cat[i].name), "%s", name);
	snprintf(cats.cat[i].colour, sizeof(cats.cat[i].colour), "%s", colour);
	cats.ncat++;
	return i;
}

static void
rule_add(const char *re, int flags, size_t cat, const struct srcpos *pos)
{
	char msg[256];
	int e;

	cats.rule = xrealloc(cats.rule, (cats.nrule + 1) * sizeof(*cats.rule));
	if ((e = regcomp(&cats.rule[cats.nrule].re, re,
	    REG_EXTENDED | REG_NOSUB | flags)) != 0) {
		regerror(e, &cats.rule[cats.nrule].re, msg, sizeof(msg));
		die_at(pos, "bad regular expression '%s': %s", re, msg);
	}
	cats.rule[cats.nrule++].cat = cat;
}

/*
 * The default rules: the Ascend reference's keywords (first match wins),
 * with the CUDA and ROCm runtimes added after CANN.
 */
static void
cats_default(void)
{
	static const struct srcpos pos = { "default rules", 0 };
	size_t c;

	c = cat_add("CANN/NPU", "#c62828");
	rule_add("cann|ascendcl|aclnn|aclrt|aclmdl|aclprof|hccl", REG_ICASE,
	    c, &pos);
	c = cat_add("CUDA", "#2e7d32");
	rule_add("cuda|cublas|cudnn|cufft|curand|cusparse|cusolver|cutlass|"
	    "nccl|nvtx|cupti", REG_ICASE, c, &pos);
	c = cat_add("HIP/ROCm", "#8e24aa");
	rule_add("rocm|rocblas|rocfft|rocsparse|rocsolver|rocrand|rocprim|"
	    "roctx|roctracer|miopen|rccl|hipblas|hipfft|hipsparse|hipsolver|"
	    "hiprand|hipcub|hsa_", REG_ICASE, c, &pos);
	rule_add("(^|[^[:alnum:]])hip[A-Z]", 0, c, &pos);
	c = cat_add("Framework", "#f9a825");
	rule_add("torch|aten::|c10::|aten_", REG_ICASE, c, &pos);
	c = cat_add("Python", "#ef6c00");
	rule_add("\\.py", 0, c, &pos);
	rule_add("python", REG_ICASE, c, &pos);
}

static int
is_colour(const char *s)
{
	size_t i;

	if (s[0] != '#' || strlen(s) != 7)
		return 0;
	for (i = 1; i < 7; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* Reads --categories: lines 'regex category #rrggbb'; '#' starts a comment. */
static void
cats_file(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct srcpos pos = { path, 0 };
	FILE *fp = fopen(path, "r");
	char *f[3], *p;
	int i;

	if (fp == NULL)
		die_errno("cannot open '%s'", path);
	while (strbuf_getline(&sb, fp) != EOF) {
		pos.line++;
		p = sb.buf + sb.len;
		while (p > sb.buf && isspace((unsigned char)p[-1]))
			*--p = '\0';
		p = sb.buf;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0' || *p == '#')
			continue;
		/* The colour and category are the last two fields. */
		for (i = 2; i > 0; i--) {
			char *sp = strrchr(p, ' '), *tab = strrchr(p, '\t');

			if (tab != NULL && (sp == NULL || tab > sp))
				sp = tab;
			if (sp == NULL)
				die_at(&pos, "expected 'regex category #rrggbb'");
			f[i] = sp + 1;
			while (sp > p && isspace((unsigned char)sp[-1]))
				sp--;
			*sp = '\0';
		}
		f[0] = p;
		if (!is_colour(f[2]))
			die_at(&pos, "bad colour '%s' (want #rrggbb)", f[2]);
		rule_add(f[0], 0, cat_add(f[1], f[2]), &pos);
	}
	if (ferror(fp))
		die_errno("cannot read '%s'", path);
	fclose(fp);
	strbuf_release(&sb);
}

static size_t
name_cat(const char *s)
{
	size_t i;

	for (i = 0; i < cats.nrule; i++)
		if (regexec(&cats.rule[i].re, s, 0, NULL, 0) == 0)
			return cats.rule[i].cat;
	return cats.ncat;	/* "Other", added last */
}

/* --- output ------------------------------------------------------------- */

struct out {
	FILE *fp;
	size_t n;		/* bytes in buf */
	size_t count;		/* bytes since the last reset by the caller */
	char buf[1 << 16];
};

static void
out_flush(struct out *o)
{
	fwrite(o->buf, 1, o->n, o->fp);
	o->n = 0;
}

static inline void
out_ch(struct out *o, int c)
{
	if (o->n == sizeof(o->buf))
		out_flush(o);
	o->buf[o->n++] = (char)c;
	o->count++;
}

static void
out_str(struct out *o, const char *s)
{
	while (*s != '\0')
		out_ch(o, *s++);
}

/* A number as base-32 digits, low first; digit d is the character 63 + d,
 * plus 32 when more digits follow (characters '?' to '~'). */
/* A number as base-32 digits, low first; digit d is the character 63 + d,
 * plus 32 when more digits follow (characters '?' to '~'). */
static inline char *
put_vlq(char *q, uint64_t v)
{
	do {
		unsigned d = v & 31;

		v >>= 5;
		*q++ = (char)(63 + (d | (v != 0 ? 32 : 0)));
	} while (v != 0);
	return q;
}

/* The tree in the order it is written: children of each node by total,
 * heaviest first (ties in the order first seen). */
static struct {
	uint64_t *total, *btotal;
	uint32_t *off, *kid, *rank;
} w;

static int
kid_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (w.total[x] != w.total[y])
		return w.total[x] > w.total[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void
tree_prepare(void)
{
	size_t i, n = t.n;
	uint32_t *fill;

	/* The self weights become totals in place: children come later. */
	w.total = t.self;
	w.btotal = t.before != NULL ? t.before : t.self;
	for (i = n; i-- > 0;)
		if (PARENT(i) != NONE) {
			w.total[PARENT(i)] += w.total[i];
			if (w.btotal != w.total)
				w.btotal[PARENT(i)] += w.btotal[i];
		}
	/* Children lists in one array (CSR), then sorted. */
	w.off = xrealloc(NULL, (n + 1) * sizeof(*w.off));
	w.kid = xrealloc(NULL, (n ? n : 1) * sizeof(*w.kid));
	memset(w.off, 0, (n + 1) * sizeof(*w.off));
	for (i = 0; i < n; i++)
		if (PARENT(i) != NONE)
			w.off[PARENT(i) + 1]++;
	for (i = 0; i < n; i++)
		w.off[i + 1] += w.off[i];
	fill = xrealloc(NULL, (n ? n : 1) * sizeof(*fill));
	memcpy(fill, w.off, n * sizeof(*fill));
	for (i = 0; i < n; i++)
		if (PARENT(i) != NONE)
			w.kid[fill[PARENT(i)]++] = (uint32_t)i;
	free(fill);
	for (i = 0; i < n; i++)
		if (w.off[i + 1] - w.off[i] > 1)
			qsort(w.kid + w.off[i], w.off[i + 1] - w.off[i],
			    sizeof(*w.kid), kid_cmp);
}

static uint64_t *name_count;

static int
rank_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (name_count[x] != name_count[y])
		return name_count[x] > name_count[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Numbers names by how many nodes carry them, so common names are short. */
static uint32_t *
names_rank(uint32_t **order_out)
{
	size_t i, nn = t.nnames;
	uint32_t *order = xrealloc(NULL, (nn ? nn : 1) * sizeof(*order));
	uint32_t *rank = xrealloc(NULL, (nn ? nn : 1) * sizeof(*rank));

	name_count = xrealloc(NULL, (nn ? nn : 1) * sizeof(*name_count));
	memset(name_count, 0, (nn ? nn : 1) * sizeof(*name_count));
	for (i = 0; i < t.n; i++)
		name_count[NAME(i)]++;
	for (i = 0; i < nn; i++)
		order[i] = (uint32_t)i;
	qsort(order, nn, sizeof(*order), rank_cmp);
	for (i = 0; i < nn; i++)
		rank[order[i]] = (uint32_t)i;
	free(name_count);
	*order_out = order;
	return rank;
}

/* A node takes at most a header and five numbers of 13 digits. */
#define NODE_MAX (1 + 5 * 13)

static void
node_write(struct out *o, uint32_t i, int k, uint64_t prev_total)
{
	int same = w.total[i] == prev_total;
	int bsame = w.btotal[i] == w.total[i];
	char *q, *q0;

	if (o->n + NODE_MAX > sizeof(o->buf))
		out_flush(o);
	q = q0 = o->buf + o->n;
	*q++ = (char)(63 + (same ? 1 : 0) + (t.has_diff && bsame ? 2 : 0) +
	    4 * (k < 15 ? k : 15));
	if (k >= 15)
		q = put_vlq(q, (uint64_t)k - 15);
	q = put_vlq(q, w.rank[NAME(i)]);
	if (!same)
		q = put_vlq(q, w.total[i]);
	if (t.has_diff && !bsame)
		q = put_vlq(q, w.btotal[i]);
	if (t.has_calls)
		q = put_vlq(q, t.calls != NULL ? t.calls[i] : 0);
	o->n += (size_t)(q - q0);
	o->count += (size_t)(q - q0);
}

/*
 * Writes one tree in depth-first order.  Each node is a header character
 * (63 + same-total bit + same-before bit * 2 + 4 * up), where up is how
 * many levels the node climbs from the previous one's child level, then
 * the name index, the total when it differs from the previous node's, the
 * before-total in a diff when it differs from the total, and the calls.
 */
static void
tree_write(struct out *o, uint32_t root, int id)
{
	struct { uint32_t node, depth; } *stack;
	size_t sp = 0, salloc = 1024;
	long prev_depth = -1;
	uint64_t prev_total = UINT64_MAX;
	char head[96];

	snprintf(head, sizeof(head), "<script type=\"text/x-flame-nodes\" "
	    "class=\"fg-nodes\" data-tree=\"%d\">", id);
	out_str(o, head);
	o->count = 0;
	stack = xrealloc(NULL, salloc * sizeof(*stack));
	stack[sp].node = root;
	stack[sp++].depth = 0;
	while (sp > 0) {
		uint32_t i = stack[--sp].node, depth = stack[sp].depth;

		if (o->count >= CHUNK_CHARS) {
			out_str(o, "</script>\n");
			out_str(o, head);
			o->count = 0;
		}
		node_write(o, i, (int)(prev_depth + 1 - (long)depth),
		    prev_total);
		prev_total = w.total[i];
		prev_depth = depth;
		for (uint32_t c = w.off[i + 1]; c-- > w.off[i];) {
			if (sp == salloc)
				stack = xrealloc(stack,
				    (salloc *= 2) * sizeof(*stack));
			stack[sp].node = w.kid[c];
			stack[sp++].depth = depth + 1;
		}
	}
	out_str(o, "</script>\n");
	out_flush(o);
	free(stack);
}

/* Counts the nodes of each tree: parent[i] < i, so one pass finds roots. */
static void
tree_sizes(size_t *n0, size_t *n1)
{
	unsigned char *in1 = xrealloc(NULL, t.n ? t.n : 1);
	size_t i;

	*n0 = *n1 = 0;
	for (i = 0; i < t.n; i++) {
		in1[i] = PARENT(i) == NONE ? i == t.merged :
		    in1[PARENT(i)];
		if (in1[i])
			(*n1)++;
		else
			(*n0)++;
	}
	free(in1);
}

static void
meta_write(FILE *fp, const char *title, size_t nodes0, size_t nodes1)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int first = 1;

	strbuf_addstr(&sb, "{\"version\":1,\"title\":");
	ndw_quote(&sb, title, strlen(title), NDW_HTML_SAFE);
	strbuf_addstr(&sb, ",\"unit\":");
	ndw_quote(&sb, opt.unit, strlen(opt.unit), NDW_HTML_SAFE);
	strbuf_addf(&sb, ",\"diff\":%s,\"calls\":%s,\"threads\":%s",
	    t.has_diff ? "true" : "false", t.has_calls ? "true" : "false",
	    t.has_threads ? "true" : "false");
	strbuf_addf(&sb, ",\"total\":%llu,\"nodes\":[%zu",
	    (unsigned long long)w.total[t.root], nodes0);
	if (t.merged != NONE)
		strbuf_addf(&sb, ",%zu", nodes1);
	strbuf_addstr(&sb, "],\"thread_list\":[");
	for (i = w.off[t.root]; i < w.off[t.root + 1]; i++) {
		uint32_t k = w.kid[i];

		if (!t.is_thread[NAME(k)])
			continue;
		strbuf_addstr(&sb, first ? "{\"name\":" : ",{\"name\":");
		ndw_quote(&sb, t.names[NAME(k)].p,
		    t.names[NAME(k)].len, NDW_HTML_SAFE);
		strbuf_addf(&sb, ",\"total\":%llu}",
		    (unsigned long long)w.total[k]);
		first = 0;
	}
	strbuf_addstr(&sb, "],\"categories\":[");
	for (i = 0; i <= cats.ncat; i++) {
		const char *nm = i < cats.ncat ? cats.cat[i].name : "Other";
		const char *co = i < cats.ncat ? cats.cat[i].colour : "#8d6e63";

		strbuf_addstr(&sb, i > 0 ? ",{\"name\":" : "{\"name\":");
		ndw_quote(&sb, nm, strlen(nm), NDW_HTML_SAFE);
		strbuf_addf(&sb, ",\"colour\":\"%s\"}", co);
	}
	strbuf_addstr(&sb, "]}");
	fprintf(fp, "<script type=\"application/json\" id=\"fg-meta\">%s"
	    "</script>\n", sb.buf);
	strbuf_release(&sb);
}

static void
names_write(FILE *fp, const uint32_t *order)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	fputs("<script type=\"application/json\" id=\"fg-names\">[", fp);
	for (i = 0; i < t.nnames; i++) {
		strbuf_reset(&sb);
		if (i > 0)
			strbuf_addch(&sb, ',');
		ndw_quote(&sb, t.names[order[i]].p,
		    t.names[order[i]].len, NDW_HTML_SAFE);
		fwrite(sb.buf, 1, sb.len, fp);
	}
	fputs("]</script>\n<script type=\"application/json\" id=\"fg-cats\">[",
	    fp);
	for (i = 0; i < t.nnames; i++)
		fprintf(fp, i > 0 ? ",%zu" : "%zu",
		    name_cat(t.names[order[i]].p));
	fputs("]</script>\n", fp);
	strbuf_release(&sb);
}

static void
page_write(FILE *fp, const char *title)
{
	static struct out o;	/* its buffer is large */
	uint32_t *order;
	size_t n0, n1 = 0;

	free(t.child);
	t.child = NULL;
	tree_prepare();
	w.rank = names_rank(&order);
	tree_sizes(&n0, &n1);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width, initial-scale=1\">\n<title>", fp);
	html_text(fp, title, strlen(title));
	fputs("</title>\n<style>\n", fp);
	html_asset(fp, asset_flame_css, asset_flame_css_len);
	fputs("</style>\n</head>\n<body>\n<h1 id=\"fg-title\">", fp);
	html_text(fp, title, strlen(title));
	fputs("</h1>\n", fp);
	html_asset(fp, asset_flame_html, asset_flame_html_len);
	meta_write(fp, title, n0, n1);
	names_write(fp, order);
	o.fp = fp;
	o.n = 0;
	tree_write(&o, t.root, 0);
	if (t.merged != NONE)
		tree_write(&o, t.merged, 1);
	fputs("<script>\n", fp);
	html_asset(fp, asset_flame_js, asset_flame_js_len);
	fputs("</script>\n</body>\n</html>\n", fp);
	free(order);
}

static const char *
default_title(char **argv, int argc)
{
	static struct strbuf sb = STRBUF_INIT;
	const char *base;

	if (opt.title != NULL)
		return opt.title;
	if (argc == 0 || strcmp(argv[0], "-") == 0)
		return opt.diff ? "Differential flame graph" : "Flame graph";
	base = strrchr(argv[argc - 1], '/');
	base = base != NULL ? base + 1 : argv[argc - 1];
	strbuf_addstr(&sb, opt.diff ? "Differential flame graph: " :
	    "Flame graph: ");
	strbuf_addstr(&sb, base);
	return sb.buf;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "categories", required_argument, NULL, 'c' },
		{ "diff", no_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "no-progress", no_argument, NULL, 'P' },
		{ "output", required_argument, NULL, 'o' },
		{ "progress", no_argument, NULL, 'p' },
		{ "strict", no_argument, NULL, 's' },
		{ "title", required_argument, NULL, 't' },
		{ "unit", required_argument, NULL, 'u' },
		{ "version", no_argument, NULL, 'V' },
		{ "where", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 }
	};
	struct ofile of;
	FILE *fp;
	int ch, i, rc = EXIT_SUCCESS;

	prog_init(argv[0]);
	argv[0] = (char *)prog_name;	/* getopt's messages name the program */
	while ((ch = getopt_long(argc, argv, "c:dho:t:u:", longopts,
	    NULL)) != -1)
		switch (ch) {
		case 'c': opt.categories = optarg; break;
		case 'd': opt.diff = 1; break;
		case 'h': usage(EXIT_SUCCESS); break;
		case 'o': opt.output = optarg; break;
		case 'P': opt.progress = PROGRESS_OFF; break;
		case 'p': opt.progress = PROGRESS_ON; break;
		case 's': opt.strict = 1; break;
		case 't': opt.title = optarg; break;
		case 'u': opt.unit = optarg; break;
		case 'V': opt_version(); break;
		case 'w': opt.where = optarg; break;
		default: usage(EXIT_USAGE);
		}
	argc -= optind;
	argv += optind;
	if (opt.diff && argc != 2)
		die_usage("--diff needs two inputs: before and after");
	if (opt.unit != NULL && *opt.unit == '\0')
		die_usage("--unit is empty");
	bad.strict = opt.strict;
	if (opt.where != NULL)
		where = jqf_compile(opt.where);
	if (opt.categories != NULL)
		cats_file(opt.categories);
	else
		cats_default();
	arena_init(&t.text, 0);
	t.merged = NONE;
	t.root = node_new(NONE, name_id("", 0));
	progress_init(opt.progress, "lines");
	if (opt.diff) {
		if (flame_stream(argv[0], 1) != 0 ||
		    flame_stream(argv[1], 0) != 0)
			rc = EXIT_FAILURE;
		t.has_diff = 1;
	} else if (argc == 0) {
		if (flame_stream("-", -1) != 0)
			rc = EXIT_FAILURE;
	}
	for (i = 0; !opt.diff && i < argc; i++)
		if (flame_stream(argv[i], -1) != 0)
			rc = EXIT_FAILURE;
	progress_done();
	if (t.fractions > 0)
		warn("rounded %lu fractional counts to whole numbers",
		    t.fractions);
	if (bad_input_finish(&bad) != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	if (opt.unit == NULL)
		opt.unit = t.ndjson && !t.folded ? "ns" : "samples";
	fp = ofile_open(&of, opt.output);
	page_write(fp, default_title(argv, argc));
	if (ofile_close(&of) != 0)
		rc = EXIT_FAILURE;
	if (where != NULL)
		jqf_free(where);
	return close_stdout() != 0 ? EXIT_FAILURE : rc;
}

/* read.c: folded lines and stack records into the call tree. */
#include <ctype.h>
#include <string.h>

#include "err.h"
#include "jqf.h"
#include "nd.h"
#include "progress.h"
#include "sniff.h"
#include "strbuf.h"
#include "zin.h"
#include "flame2html.h"

/* Parses a count: digits with an optional fraction, which is rounded. */
static int
parse_count(struct flame *f, const char *p, size_t len, uint64_t *v)
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
			f->fractions++;
	}
	*v = x;
	return 0;
}

#define IS_WS(c) ((c) == ' ' || (c) == '\t' || (c) == '\r' || \
    (c) == '\f' || (c) == '\v')

/*
 * Splits off the last whitespace-separated token of p[0..*len), a count.
 * The scan back stops at the first byte a count cannot hold: a token
 * with one is no count, and asking for a second count would otherwise
 * read the whole stack back to a blank.
 */
static int
last_count(struct flame *f, const char *p, size_t *len, uint64_t *v)
{
	size_t e = *len, s;

	while (e > 0 && IS_WS(p[e - 1]))
		e--;
	s = e;
	while (s > 0 && (isdigit((unsigned char)p[s - 1]) || p[s - 1] == '.'))
		s--;
	if (s == 0 || !IS_WS(p[s - 1]) || parse_count(f, p + s, e - s, v) != 0)
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
	uint32_t *node, *ph;	/* and their path hashes */
	size_t *end;		/* where each frame ends in line */
	size_t depth, alloc;
} prev = { STRBUF_INIT, NULL, NULL, NULL, 0, 0 };

static void
prev_push(uint32_t node, size_t end, uint32_t ph)
{
	if (prev.depth == prev.alloc) {
		prev.alloc = xgrow_room(prev.alloc, prev.depth + 1);
		prev.node = xreallocarray(prev.node, prev.alloc,
		    sizeof(*prev.node));
		prev.end = xreallocarray(prev.end, prev.alloc,
		    sizeof(*prev.end));
		prev.ph = xreallocarray(prev.ph, prev.alloc,
		    sizeof(*prev.ph));
	}
	prev.ph[prev.depth] = ph;
	prev.node[prev.depth] = node;
	prev.end[prev.depth++] = end;
}

/* The length of the common prefix of a[0..n) and b[0..n), by words. */
static size_t
common_prefix(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	size_t l = 0;

	for (; l + 8 <= n; l += 8) {
		memcpy(&x, a + l, 8);
		memcpy(&y, b + l, 8);
		if (x != y)
			break;
	}
	while (l < n && a[l] == b[l])
		l++;
	return l;
}

static void
folded_line(struct flame *f, const struct srcpos *pos, const char *p,
    size_t len, int side)
{
	static size_t *ends, ids_alloc;
	static uint64_t *hash;
	static uint32_t *ph;
	uint32_t ph0 = FT_PH_ROOT;
	uint64_t c1, c2, w[2] = { 0, 0 };
	size_t l, keep = 0, s, s0, nid, k, i;
	uint32_t node = f->root;

	if (last_count(f, p, &len, &c2) != 0) {
		bad_input(&f->bad, pos, "not a folded stack line "
		    "('frame;frame count')");
		return;
	}
	if (len > 0 && last_count(f, p, &len, &c1) == 0) {
		if (side >= 0) {
			bad_input(&f->bad, pos, "two counts in a --diff input");
			return;
		}
		w[0] = c2, w[1] = c1;
		f->has_diff = 1;
	} else if (side < 0)
		w[0] = w[1] = c2;
	else
		w[side] = c2;
	/* Reuse the frames this line shares with the previous one. */
	l = common_prefix(p, prev.line.buf, len < prev.line.len ? len :
	    prev.line.len);
	while (keep < prev.depth && prev.end[keep] < l &&
	    prev.line.buf[prev.end[keep]] == ';')
		keep++;
	prev.depth = keep;
	s = keep > 0 ? prev.end[keep - 1] + 1 : 0;
	if (keep > 0) {
		node = prev.node[keep - 1];
		ph0 = prev.ph[keep - 1];
	}
	/* Where each frame ends and where it goes: from the line alone. */
	s0 = s;
	nid = 0;
	while (len > 0 && s <= len) {
		const char *semi = memchr(p + s, ';', len - s);
		size_t e = semi != NULL ? (size_t)(semi - p) : len;

		if (nid == ids_alloc) {
			ids_alloc = xgrow_room(ids_alloc, nid + 1);
			ends = xreallocarray(ends, ids_alloc, sizeof(*ends));
			hash = xreallocarray(hash, ids_alloc, sizeof(*hash));
			ph = xreallocarray(ph, ids_alloc, sizeof(*ph));
		}
		hash[nid] = ctree_name_hash(p + s, e - s);
		ph[nid] = flame_ph(nid > 0 ? ph[nid - 1] : ph0,
		    (uint32_t)hash[nid]);
		flame_prefetch(f, ph[nid]);
		ends[nid++] = e;
		s = e + 1;
	}
	/* Down the frames the tree has, by their text. */
	for (k = 0, s = s0; k < nid; k++, s = ends[k - 1] + 1) {
		uint32_t c = flame_find(f, node, p + s, ends[k] - s, ph[k]);

		if (c == CTREE_NONE)
			break;
		prev_push(node = c, ends[k], ph[k]);
	}
	/* The new frames: their names' lookups do not wait on each other. */
	for (i = k; i < nid; i++)
		ctree_name_prefetch(&f->ct, hash[i]);
	for (i = k; i < nid; i++)
		ctree_name_prefetch_text(&f->ct, hash[i]);
	for (i = k; i < nid; i++, s = ends[i - 1] + 1) {
		node = flame_new(f, node, ctree_name_hashed(&f->ct, p + s,
		    ends[i] - s, hash[i]), ph[i]);
		prev_push(node, ends[i], ph[i]);
	}
	strbuf_reset(&prev.line);
	strbuf_add(&prev.line, p, len);
	flame_add(f, node, w, 0);
	f->used++;
}

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
record_path(struct flame *f, struct nd_slice stack, uint32_t root,
    struct strbuf *sb)
{
	struct nd_iter it;
	struct nd_slice k, v;
	uint32_t node = root, ph;
	int fresh = 0;

	if (root == f->root)
		ph = FT_PH_ROOT;
	else if (root == f->merged)
		ph = FT_PH_MERGED;
	else	/* a thread: a child of the root */
		ph = flame_ph(FT_PH_ROOT, (uint32_t)ctree_name_hash(
		    f->ct.names[flame_label(f, root)].p,
		    f->ct.names[flame_label(f, root)].len));
	nd_iter_init(&it, stack);
	while (nd_iter_next(&it, &k, &v) == 1) {
		strbuf_reset(sb);
		nd_val_str(v, sb);
		node = flame_frame(f, node, sb->buf, sb->len, &ph, &fresh);
	}
	return node;
}

/*
 * A stack record's thread label: its thread and, when the source has one,
 * its name.  The two sides of a --diff are matched by label, so there the
 * run prefix goes ("rank3 1234/1240" is "1234/1240"), and a labelled
 * record with a thread name is labelled by the name alone, which the same
 * thread of another rank or run shares.
 */
static int
thread_label(struct strbuf *sb, struct nd_slice thread, struct nd_slice name,
    struct nd_slice run, int side)
{
	struct strbuf r = STRBUF_INIT;
	int named = nd_type(name) == ND_STRING && name.len > 2;

	strbuf_reset(sb);
	if (side >= 0 && named && nd_type(run) == ND_STRING)
		return nd_val_str(name, sb);
	if (nd_type(thread) == ND_STRING)
		nd_val_str(thread, sb);
	else if (nd_type(thread) == ND_NUMBER)
		strbuf_add(sb, thread.p, thread.len);
	else
		return -1;
	if (side >= 0 && nd_type(run) == ND_STRING) {
		nd_val_str(run, &r);
		strbuf_addch(&r, ' ');
		if (sb->len > r.len && memcmp(sb->buf, r.buf, r.len) == 0) {
			memmove(sb->buf, sb->buf + r.len, sb->len - r.len);
			strbuf_setlen(sb, sb->len - r.len);
		}
		strbuf_release(&r);
	}
	if (named) {
		strbuf_addch(sb, ' ');
		nd_val_str(name, sb);
	}
	return 0;
}

static void
record_line(struct flame *f, const struct srcpos *pos, const char *p,
    size_t len, int side)
{
	static const char *const keys[] = { "thread", "stack", "self_ns",
	    "calls", "thread_name", "run" };
	static struct strbuf sb = STRBUF_INIT;
	struct nd_slice v[6];
	uint64_t self, calls = 0, w[2] = { 0, 0 };
	uint32_t node, top = f->root;

	if (nd_fields(p, len, keys, v, 6) < 0) {
		bad_input(&f->bad, pos, "%s", nd_error());
		return;
	}
	if (jqf_keep(f->where, p, len, &f->bad, pos) != 1)
		return;
	if (v[1].p == NULL || v[2].p == NULL) {
		bad_input(&f->bad, pos, "no '%s'", v[1].p == NULL ? "stack" :
		    "self_ns");
		return;
	}
	if (!stack_ok(v[1])) {
		bad_input(&f->bad, pos, "'stack' is not an array of strings");
		return;
	}
	if (nd_val_u64(v[2], &self) != 0) {
		bad_input(&f->bad, pos, "'self_ns' is not an integer >= 0");
		return;
	}
	if (v[3].p != NULL && nd_val_u64(v[3], &calls) != 0) {
		bad_input(&f->bad, pos, "'calls' is not an integer >= 0");
		return;
	}
	if (v[0].p != NULL) {
		if (thread_label(&sb, v[0], v[4], v[5], side) != 0) {
			bad_input(&f->bad, pos, "'thread' is not a string");
			return;
		}
		top = flame_thread(f, sb.buf, sb.len);
		flame_thread_side(f, top, side);
	}
	node = record_path(f, v[1], top, &sb);
	f->used++;
	w[side < 0 ? 0 : side] = self;
	if (side < 0)
		w[1] = self;
	flame_add(f, node, w, side == 1 ? 0 : calls);
	if (v[3].p != NULL)
		f->has_calls = 1;
	if (v[0].p != NULL) {
		node = record_path(f, v[1], flame_merged(f), &sb);
		flame_add(f, node, w, side == 1 ? 0 : calls);
	}
}

/*
 * Reads one input.  The first line that is not blank decides its kind:
 * a '{' starts stack records (NDJSON), anything else folded lines.  side
 * is -1 for an ordinary input, 1 for --diff's before and 0 for its after.
 */
int
flame_stream(struct flame *f, const char *path, int side)
{
	struct zin z;
	struct srcpos pos;
	const char *line, *rec;
	size_t len, rlen;
	int r, kind = -1;
	enum sniff_kind sk;
	unsigned refuse = (SNIFF_NOT_NDJSON & ~SNIFF_BIT(SNIFF_FOLDED)) |
	    SNIFF_BIT(SNIFF_SPANS) | SNIFF_BIT(SNIFF_DISPATCH) |
	    SNIFF_BIT(SNIFF_MIGX) | SNIFF_BIT(SNIFF_METRICS);

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
		if ((pos.line & 0xffff) == 0)
			progress_update(pos.line, 0);
		if (pos.line == 1 && len >= 3 &&
		    memcmp(line, "\xef\xbb\xbf", 3) == 0) {
			line += 3;	/* a UTF-8 byte order mark */
			len -= 3;
		}
		if (len > 0 && line[len - 1] == '\r')
			len--;
		rec = line;
		rlen = len;
		nd_trim(&rec, &rlen, 0);
		if (rlen == 0)
			continue;	/* blank */
		if (kind < 0) {
			sk = sniff_line(rec, rlen);
			if (refuse & SNIFF_BIT(sk))
				sniff_die(z.name, sk, sk == SNIFF_CSV ?
				    "flame2html reads folded stacks or stack "
				    "records" : NULL);
			kind = rec[0] == '{';
			if (kind)
				f->ndjson = 1;
			else
				f->folded = 1;
		}
		if (kind == 1 && z.no_newline &&
		    nd_fields(rec, rlen, NULL, NULL, 0) < 0)
			bad_input(&f->bad, &pos, "truncated last line");
		else if (kind == 1)
			record_line(f, &pos, rec, rlen, side);
		else
			folded_line(f, &pos, line, len, side);
	}
	if (r < 0) {
		warn("cannot read '%s': %s", z.name, zin_error(&z));
		zin_close(&z);
		return -1;
	}
	zin_close(&z);
	return 0;
}

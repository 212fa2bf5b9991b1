/* read.c: folded lines and stack records into the call tree. */
#include <sys/stat.h>

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "bytes.h"
#include "err.h"
#include "jqf.h"
#include "nd.h"
#include "progress.h"
#include "sniff.h"
#include "strbuf.h"
#include "zin.h"
#include "flame2html.h"

/* A digit: '0' to '9' (isdigit() in the C locale, without its call). */
#define IS_DIGIT(c) ((unsigned)(unsigned char)(c) - '0' < 10u)

/* Parses a count: digits with an optional fraction, which is rounded. */
static int
parse_count(struct flame *f, const char *p, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i = 0;

	if (len == 0 || !IS_DIGIT(p[0]))
		return -1;
	for (; i < len && IS_DIGIT(p[i]); i++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (uint64_t)(p[i] - '0');
	}
	if (i < len) {
		if (p[i] != '.')
			return -1;
		for (size_t k = i + 1; k < len; k++)
			if (!IS_DIGIT(p[k]))
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
	while (s > 0 && (IS_DIGIT(p[s - 1]) || p[s - 1] == '.'))
		s--;
	if (s == 0 || !IS_WS(p[s - 1]) || parse_count(f, p + s, e - s, v) != 0)
		return -1;
	while (s > 0 && IS_WS(p[s - 1]))
		s--;
	*len = s;
	return 0;
}

/*
 * The frames of the folded line being read, by depth: where each ends in
 * the line, its path hash and its node.  The first ones are those of the
 * previous line (kept in line) while the two share whole frames: those
 * frames reuse their nodes without a lookup.
 */
static struct {
	struct strbuf line;
	size_t *end;
	uint32_t *path, *node;
	size_t depth, alloc;	/* the previous line's frames; room */
} fr = { STRBUF_INIT, NULL, NULL, NULL, 0, 0 };

static void
fr_grow(size_t d)
{
	fr.alloc = xgrow_room(fr.alloc, d + 1);
	fr.end = xreallocarray(fr.end, fr.alloc, sizeof(*fr.end));
	fr.path = xreallocarray(fr.path, fr.alloc, sizeof(*fr.path));
	fr.node = xreallocarray(fr.node, fr.alloc, sizeof(*fr.node));
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
			return l + (size_t)(__builtin_ctzll(x ^ y) >> 3);
	}
	while (l < n && a[l] == b[l])
		l++;
	return l;
}

/*
 * flame_hash() of p[s..s + n), where bytes up to avail may be read: the
 * last word is loaded whole and cut.
 */
static inline uint64_t
frame_hash(const char *p, size_t s, size_t n, size_t avail)
{
	uint64_t h = FH_SEED, w;
	size_t b = s, e = s + n;

	if (n - 8 <= 24)
		return fh_short(p + s, n);
	for (; e - b >= 8; b += 8)
		h = fh_word(h, fh_le64(p + b));
	if (b == e)
		return fh_end(h, 0, n);
	w = fh_load8(p + b, avail - b);
	return fh_end(h, w & (~UINT64_C(0) >> (64 - 8 * (e - b))), n);
}

#ifndef __SSE2__
#define ONES UINT64_C(0x0101010101010101)
#define LOW7 UINT64_C(0x7f7f7f7f7f7f7f7f)

/* Bit 8k + 7 set where byte k of w is ';' (exact in every byte). */
static inline uint64_t
semis8(uint64_t w)
{
	uint64_t m = w ^ (ONES * ';');

	return ~(((m & LOW7) + LOW7) | m | LOW7);
}
#endif

/* A 16-bit mask of the ';' in q[0..16). */
static inline unsigned
semis16(const char *q)
{
#ifdef __SSE2__
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);

	return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v,
	    _mm_set1_epi8(';')));
#else
	uint64_t lo = semis8(fh_le64(q)), hi = semis8(fh_le64(q + 8));
	unsigned m = 0, i;

	for (i = 0; i < 8; i++)
		m |= (unsigned)((lo >> (8 * i + 7)) & 1) << i |
		    (unsigned)((hi >> (8 * i + 7)) & 1) << (i + 8);
	return m;
#endif
}

/* A 64-bit mask of the ';' in p[b..b + 64), of which avail - b may be
 * read (zeros after). */
static inline uint64_t
semis64(const char *p, size_t b, size_t avail)
{
	char t[64];
	const char *q = p + b;

	if (avail - b < 64) {
		memset(t, 0, sizeof(t));
		memcpy(t, q, avail - b);
		q = t;
	}
	return (uint64_t)semis16(q) | (uint64_t)semis16(q + 16) << 16 |
	    (uint64_t)semis16(q + 32) << 32 | (uint64_t)semis16(q + 48) << 48;
}

/*
 * Where the frames of p[s..len) end, from depth d on: fr.end[d] on.
 * The first four ';' of a block of 64 bytes are written whatever their
 * number (the extra ends are overwritten), so that the loop does not
 * branch on each one.  Returns the depth of the line.
 */
static size_t
frame_ends(const char *p, size_t s, size_t len, size_t avail, size_t d)
{
	size_t b, *e, k, n;
	uint64_t m;

	for (b = s; b < len; b += 64) {
		if (d + 66 >= fr.alloc)
			fr_grow(d + 66);	/* 64 ends and the last */
		m = semis64(p, b, avail);
		e = fr.end + d;
		for (k = n = 0; k < 4; k++) {
			e[k] = b + (size_t)__builtin_ctzll(m | UINT64_C(1) <<
			    63);
			n += m != 0;
			m &= m - 1;
		}
		for (; m != 0; m &= m - 1)
			e[n++] = b + (size_t)__builtin_ctzll(m);
		d += n;
	}
	if (d == fr.alloc)
		fr_grow(d);
	fr.end[d++] = len;
	return d;
}

/* Is node + 1 a first child called s[0..len)? */
static inline int
first_kid_is(const struct flame *f, uint32_t node, const char *s,
    size_t len)
{
	const struct ctree_name *nm;
	uint32_t c = node + 1;

	if (c >= f->n || (f->node[c].label & FT_HEAD))
		return 0;
	nm = &f->ct.names[f->node[c].label & FT_NAME];
	return nm->len == len && same_bytes(nm->p, s, len);
}

/*
 * The new frames of the last line, whose names are looked up while the
 * next line is split: their nodes carry name 0 until then.  A frame is
 * its node and its text in fr.line (the last line's copy).
 */
static struct pend {
	uint64_t hash;
	size_t s, len;
	uint32_t node;
} *pend;
static size_t npend, pend_alloc;

/*
 * Gives the pending frames their names.  Their slots were asked for when
 * they were added; the text in each slot is asked for first, then the
 * lookups go, which do not wait on each other.  Must run before any
 * label of theirs is read, and before fr.line changes.
 */
static void
pend_resolve(struct flame *f)
{
	const char *t = fr.line.buf;
	uint32_t id;
	size_t i;

	for (i = 0; i < npend; i++)
		ctree_name_prefetch_text(&f->ct, pend[i].hash);
	for (i = 0; i < npend; i++) {
		id = ctree_name_hashed(&f->ct, t + pend[i].s, pend[i].len,
		    pend[i].hash);
		if (id > FT_NAME)
			die("more than %u distinct names", FT_NAME);
		f->node[pend[i].node].label |= id;
	}
	npend = 0;
}

/*
 * Adds the frames from depth d to nd under node, their names pending
 * (above).  Their name slots are asked for now, a line before the
 * lookups: at 1M lines the 50,000 names no longer stay in L2, and those
 * reads waited most.
 */
static void
new_frames(struct flame *f, const char *p, size_t avail, size_t d,
    size_t nd, uint32_t node)
{
	size_t i, s;
	struct pend *q;

	XGROW(pend, npend + (nd - d), pend_alloc);
	q = pend + npend;	/* q[i - d]: frame i */
	npend += nd - d;
	for (i = d; i < nd; i++) {
		s = i > 0 ? fr.end[i - 1] + 1 : 0;
		q[i - d].hash = frame_hash(p, s, fr.end[i] - s, avail);
		q[i - d].s = s;
		q[i - d].len = fr.end[i] - s;
		ctree_name_prefetch(&f->ct, q[i - d].hash);
	}
	for (i = d; i < nd; i++) {
		node = flame_append(f, node, 0, fr.path[i]);
		fr.node[i] = q[i - d].node = node;
	}
}

/*
 * The frames of p[0..len) from depth d, which starts at s: their ends,
 * names' hashes and path hashes, whose index slots are asked for at
 * once.  Returns the depth of the line.
 */
static size_t
line_frames(struct flame *f, const char *p, size_t len, size_t avail,
    size_t d, size_t s)
{
	size_t nd = frame_ends(p, s, len, avail, d), i;
	uint32_t ph = d > 0 ? fr.path[d - 1] : FP_ROOT;

	for (i = d; i < nd; i++) {
		ph = flame_path(ph, flame_word(f, p + s, fr.end[i] - s,
		    avail - s));
		s = fr.end[i] + 1;
		fr.path[i] = ph;
		flame_prefetch_slot(f, ph);
	}
	return nd;
}

/*
 * Follows the frames of p[0..len) from depth d, which starts at s, down
 * from node: first as far as the tree has them, then adding the rest.
 * Returns the depth of the line.
 */
static size_t
line_path(struct flame *f, const char *p, size_t len, size_t avail,
    size_t d, size_t s, uint32_t node)
{
	size_t nd = line_frames(f, p, len, avail, d, s), n;
	uint32_t c;

	pend_resolve(f);	/* the line before's, while the slots come */

	for (; d < nd; d++) {
		n = fr.end[d] - s;
		if (first_kid_is(f, node, p + s, n))
			c = node + 1;
		else if ((c = flame_find_index(f, node, p + s, n,
		    fr.path[d])) == CTREE_NONE) {
			new_frames(f, p, avail, d, nd, node);
			return nd;
		}
		fr.node[d] = node = c;
		s = fr.end[d] + 1;
	}
	return nd;
}

static void
folded_line(struct flame *f, const struct srcpos *pos, const char *p,
    size_t len, int side)
{
	uint64_t c1, c2, w[2] = { 0, 0 };
	size_t avail = len, l, keep = 0, d;

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
	l = common_prefix(p, fr.line.buf, len < fr.line.len ? len :
	    fr.line.len);
	while (keep < fr.depth && fr.end[keep] < l &&
	    fr.line.buf[fr.end[keep]] == ';')
		keep++;
	d = keep;
	if (len > 0)
		d = line_path(f, p, len, avail, keep, keep > 0 ?
		    fr.end[keep - 1] + 1 : 0, keep > 0 ? fr.node[keep - 1] :
		    f->root);
	fr.depth = d;
	if (npend > 0 && len == 0)
		pend_resolve(f);	/* from the line before */
	strbuf_reset(&fr.line);
	strbuf_add(&fr.line, p, len);
	flame_add(f, d > 0 ? fr.node[d - 1] : f->root, w, 0);
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
	uint32_t ph = flame_top_path(f, root);
	uint32_t node = root;
	int fresh = 0;

	nd_iter_init(&it, stack);
	while (nd_iter_next(&it, &k, &v) == 1) {
		strbuf_reset(sb);
		nd_val_str(v, sb);
		node = flame_frame(f, node, &ph, sb->buf, sb->len, &fresh);
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
	struct stat st;
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
	if (fstat(z.fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
		flame_reserve(f, (uint64_t)st.st_size);
	pos.file = z.name;
	pos.line = 0;
	fr.depth = 0;
	strbuf_reset(&fr.line);
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
		if (f->crowded) {
			pend_resolve(f);
			flame_strengthen(f);
			fr.depth = 0;	/* its path hashes are the old ones */
		}
		if (kind == 1 && z.no_newline &&
		    nd_fields(rec, rlen, NULL, NULL, 0) < 0)
			bad_input(&f->bad, &pos, "truncated last line");
		else if (kind == 1)
			record_line(f, &pos, rec, rlen, side);
		else
			folded_line(f, &pos, line, len, side);
	}
	pend_resolve(f);
	if (r < 0) {
		warn("cannot read '%s': %s", z.name, zin_error(&z));
		zin_close(&z);
		return -1;
	}
	zin_close(&z);
	return 0;
}

#define _GNU_SOURCE	/* memmem */
/*
 * migx2ndjson: turns migraphx-driver perf, trace-eval and program text of
 * every MIGraphX release into NDJSON records.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "err.h"
#include "jqf.h"
#include "ndw.h"
#include "ofile.h"
#include "opt.h"
#include "progress.h"
#include "sniff.h"
#include "strbuf.h"
#include "zin.h"

#include "migx.h"

/* The first unrecognised lines, for the summary: "line 3: 'text'; ...". */
static struct strbuf unknown_first = STRBUF_INIT;
#define UNKNOWN_SHOWN 3
#define UNKNOWN_CUT 40
static struct strbuf norm = STRBUF_INIT, pend = STRBUF_INIT;
static unsigned long pend_line;
static unsigned pend_flags;

/* A banner or a timestamp line waiting for the line that completes it. */
static struct {
	int kind;		/* 0 none, 1 banner, 2 timestamp */
	unsigned long line;
	struct strbuf version, invocation, stamp;
} meta;

static const char usage_line[] =
    "usage: migx2ndjson [-chjk] [--keep-output] [--label name] "
    "[--no-attr-split] [--no-progress] [-o file] [--progress] [--strict] [--version] "
    "[--where expr] [file ...]";

static const struct opt_help help[] = {
	{ "-c, --check", "check each Summary row against the instructions" },
	{ "-j, --join-wrapped", "join instruction lines a paste wrapped" },
	{ "-k, --keep-unknown", "write unrecognised lines as \"other\" "
	    "records" },
	{ "--keep-output", "keep the whole text of trace Output: lines" },
	{ "--label NAME", "write \"run\":NAME in every record" },
	{ "--no-attr-split", "leave out the attrs object (attrs_raw stays)" },
	{ NULL, NULL }
};

static void
usage(int status)
{
	FILE *fp = status == 0 ? stdout : stderr;

	fprintf(fp, "%s\n", usage_line);
	if (status == 0)
		opt_help(stdout, help);
	exit(status);
}

static int
starts(const char *s, size_t n, const char *z)
{
	size_t k = strlen(z);

	return n >= k && memcmp(s, z, k) == 0;
}

/* Trims spaces at both ends of s[0..*n]. */
static const char *
trim(const char *s, size_t *n)
{
	while (*n > 0 && (*s == ' ' || *s == '\t'))
		s++, (*n)--;
	while (*n > 0 && (s[*n - 1] == ' ' || s[*n - 1] == '\t'))
		(*n)--;
	return s;
}

static int cut_seen;

/* The last line ends early: its record is kept, marked, and reported. */
static void
cut_short(struct migx *mx)
{
	if (mx->opt.com.strict)
		die_at(&mx->pos, "the last line is cut short");
	warn_at(&mx->pos, "the last line is cut short");
	cut_seen = 1;
}

static void
meta_flush(struct migx *mx, struct run *r)
{
	if (meta.kind == 1) {
		rec_begin(mx, "meta", r, meta.line);
		ndw_strz(&mx->w, "key", "driver_start");
		ndw_str(&mx->w, "version", meta.version.buf, meta.version.len);
		ndw_str(&mx->w, "invocation", meta.invocation.buf,
		    meta.invocation.len);
		if (meta.stamp.len > 0)
			ndw_str(&mx->w, "timestamp", meta.stamp.buf,
			    meta.stamp.len);
		else
			ndw_null(&mx->w, "timestamp");
		rec_emit(mx);
	} else if (meta.kind == 2) {
		rec_begin(mx, "meta", r, meta.line);
		ndw_strz(&mx->w, "key", "timestamp");
		ndw_str(&mx->w, "timestamp", meta.stamp.buf, meta.stamp.len);
		rec_emit(mx);
	}
	meta.kind = 0;
	strbuf_reset(&meta.version);
	strbuf_reset(&meta.invocation);
	strbuf_reset(&meta.stamp);
}

/* "[YYYY-MM-DD HH:MM:SS]" */
static int
is_stamp(const char *s, size_t n)
{
	static const char pat[] = "[dddd-dd-dd dd:dd:dd]";
	size_t i;

	if (n != sizeof(pat) - 1)
		return 0;
	for (i = 0; i < n; i++)
		if (pat[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') :
		    s[i] != pat[i])
			return 0;
	return 1;
}

static void
meta_kv(struct migx *mx, struct run *r, const char *key, const char *k2,
    const char *v, size_t vn)
{
	rec_begin(mx, "meta", r, mx->pos.line);
	ndw_strz(&mx->w, "key", key);
	ndw_str(&mx->w, k2, v, vn);
	rec_emit(mx);
}

/* Ends the current run: partial totals, --check; the next one starts. */
static void
run_end(struct migx *mx, struct run *r)
{
	trace_flush(mx, r);
	if (r->have_tot || (r->has_report && !r->totals_done)) {
		if (!r->have_tot)
			r->tot_line = mx->pos.line;
		totals_emit(mx, r);
	}
	if (mx->opt.check)
		check_run(mx, r);
	r->num++;
	run_reset(r);
}

/* The driver's banner and footer lines (section 1 [A] and [J]). */
static int
driver_line(struct migx *mx, struct run *r, const char *s, size_t n)
{
	const char *v, *e = s + n, *q;

	if (starts(s, n, "Running [ MIGraphX Version: ")) {
		if (r->totals_done || r->has_report)
			run_end(mx, r);
		v = s + 28;
		if ((q = memmem(v, (size_t)(e - v), " ]: ", 4)) == NULL)
			return 0;
		meta_flush(mx, r);
		meta.kind = 1;
		meta.line = mx->pos.line;
		strbuf_add(&meta.version, v, (size_t)(q - v));
		strbuf_add(&meta.invocation, q + 4, (size_t)(e - q - 4));
		return 1;
	}
	if (starts(s, n, "[ MIGraphX Version: ")) {
		const char *d = NULL, *de = NULL;

		v = s + 20;
		if ((q = memmem(v, (size_t)(e - v), " ] Complete", 11)) == NULL)
			return 0;
		rec_begin(mx, "meta", r,
		    meta.kind == 2 ? meta.line : mx->pos.line);
		ndw_strz(&mx->w, "key", "driver_end");
		ndw_str(&mx->w, "version", v, (size_t)(q - v));
		q += 11;
		if (q < e && *q == '(') {
			d = q + 1;
			q = memchr(q, ')', (size_t)(e - q));
			if (q == NULL)
				q = e;
			de = q;
			if (de > d && de[-1] == 's')
				de--;
			q = q < e ? q + 1 : q;
		}
		if (d != NULL)
			put_num(mx, "duration_s", d, (size_t)(de - d));
		else
			ndw_null(&mx->w, "duration_s");
		if (q + 2 <= e && q[0] == ':' && q[1] == ' ')
			q += 2;
		ndw_str(&mx->w, "invocation", q, (size_t)(e - q));
		if (meta.kind == 2)
			ndw_str(&mx->w, "timestamp", meta.stamp.buf,
			    meta.stamp.len);
		else
			ndw_null(&mx->w, "timestamp");
		rec_emit(mx);
		meta.kind = 0;
		strbuf_reset(&meta.stamp);
		return 1;
	}
	if (is_stamp(s, n)) {
		if (meta.kind == 1 && meta.stamp.len == 0) {
			strbuf_add(&meta.stamp, s + 1, n - 2);
			meta_flush(mx, r);
			return 1;
		}
		meta_flush(mx, r);
		meta.kind = 2;
		meta.line = mx->pos.line;
		strbuf_add(&meta.stamp, s + 1, n - 2);
		return 1;
	}
	return 0;
}

/* An environment line: NAME=VALUE with MIGRAPHX in NAME (1 [B], [J]). */
static int
env_line(struct migx *mx, struct run *r, const char *s, size_t n)
{
	const char *eq = memchr(s, '=', n), *p;
	size_t vn;

	if (eq == NULL || eq == s || memmem(s, (size_t)(eq - s), "MIGRAPHX",
	    8) == NULL)
		return 0;
	for (p = s; p < eq; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    *p == '_'))
			return 0;
	vn = n - (size_t)(eq + 1 - s);
	if (vn > 0 && eq[vn] == '\\')
		vn--;
	rec_begin(mx, "meta", r, mx->pos.line);
	ndw_strz(&mx->w, "key", "env");
	ndw_str(&mx->w, "name", s, (size_t)(eq - s));
	ndw_str(&mx->w, "value", eq + 1, vn);
	rec_emit(mx);
	return 1;
}

/* Progress and phase lines of the driver (section 1 [C], [E], [F]). */
static int
phase_line(struct migx *mx, struct run *r, const char *s, size_t n)
{
	const char *ph = NULL;

	if (starts(s, n, "Compiling ...")) {
		if (r->totals_done)
			run_end(mx, r);
		ph = "compiling";
	} else if (starts(s, n, "Reading: ")) {
		if (r->totals_done)
			run_end(mx, r);
		meta_kv(mx, r, "reading", "file", s + 9, n - 9);
		return 1;
	} else if (starts(s, n, "Quantizing")) {
		ph = "quantizing";
	} else if (starts(s, n, "Allocating params ...")) {
		if (r->totals_done)
			run_end(mx, r);
		ph = "allocating";
		strbuf_reset(&r->header);
	} else if (starts(s, n, "Running performance report ...")) {
		if (r->has_report)
			run_end(mx, r);
		ph = "perf";
		r->in_perf = 1;
		strbuf_reset(&r->header);
	} else if (starts(s, n, "Compilation time: ") && n > 20 &&
	    memcmp(s + n - 2, "ms", 2) == 0) {
		rec_begin(mx, "meta", r, mx->pos.line);
		ndw_strz(&mx->w, "key", "compilation_ms");
		put_num(mx, "value", s + 18, n - 20);
		rec_emit(mx);
		return 1;
	} else if (starts(s, n, "Unused environment variable: ")) {
		meta_kv(mx, r, "unused_env", "name", s + 29, n - 29);
		return 1;
	} else
		return 0;
	meta_kv(mx, r, "phase", "phase", ph, strlen(ph));
	return 1;
}

/* module: "NAME" (ROCm >= 4.3) and Module NAME: (4.1-4.2). */
static int
module_line(struct migx *mx, struct run *r, const char *s, size_t n)
{
	const char *nm;
	size_t nn;

	if (starts(s, n, "module: \"") && s[n - 1] == '"' && n > 10) {
		nm = s + 9, nn = n - 10;
		r->saw_header = 1;
	} else if (starts(s, n, "Module ") && s[n - 1] == ':' && n > 8) {
		nm = s + 7, nn = n - 8;
		r->saw_old_header = 1;
	} else
		return 0;
	strbuf_reset(&r->header);
	strbuf_add(&r->header, nm, nn);
	rec_begin(mx, "module", r, mx->pos.line);
	ndw_str(&mx->w, "name", nm, nn);
	rec_emit(mx);
	return 1;
}

/* Adds line s to the summary's examples, cut and with controls as '?'. */
static void
unknown_note(struct migx *mx, const char *s, size_t n)
{
	size_t i, cut = n;

	if (mx->unknown >= UNKNOWN_SHOWN)
		return;
	if (cut > UNKNOWN_CUT) {
		cut = UNKNOWN_CUT;
		while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
			cut--;	/* not inside a UTF-8 sequence */
	}
	strbuf_addf(&unknown_first, "%sline %lu: '",
	    unknown_first.len > 0 ? "; " : "", mx->pos.line);
	for (i = 0; i < cut; i++)
		strbuf_addch(&unknown_first, (unsigned char)s[i] < 0x20 ||
		    s[i] == 0x7f ? '?' : s[i]);
	strbuf_addstr(&unknown_first, cut < n ? "...'" : "'");
}

static void
other(struct migx *mx, struct run *r, const char *s, size_t n, unsigned flags)
{
	if (!mx->opt.keep_unknown) {
		unknown_note(mx, s, n);
		mx->unknown++;
		return;
	}
	rec_begin(mx, "other", r, mx->pos.line);
	ndw_str(&mx->w, "text", s, n);
	rec_flags(mx, flags);
	rec_emit(mx);
}

/* A copy of an instruction's text that LINES_PAD bytes follow. */
static struct strbuf padded = STRBUF_INIT;

/* Is s[0..n) inside lo[0..hi)? */
static int
in_buf(const char *s, size_t n, const char *lo, const char *hi)
{
	return (uintptr_t)s >= (uintptr_t)lo &&
	    (uintptr_t)s + n <= (uintptr_t)hi;
}

/*
 * An instruction line (with what may be glued after a @return).  Returns
 * 0 when s is not one.
 */
static int
instr_line(struct migx *mx, struct run *r, const char *s, size_t n,
    unsigned flags, int cut)
{
	struct instr in;
	struct sl rest, t, p;
	const char *section;
	int c, old;

	/*
	 * The record is written in 16- and 32-byte moves that read past
	 * the end of a piece (shape.c, cpy()): text from elsewhere than the
	 * lines buffer (a joined or cleaned line) is copied where LINES_PAD
	 * bytes follow it, and a @return's rest stays where its line is.
	 */
	if (!in_buf(s, n, mx->pad_lo, mx->pad_hi) &&
	    !in_buf(s, n, padded.buf, padded.buf + padded.len)) {
		strbuf_reset(&padded);
		strbuf_add(&padded, s, n);
		strbuf_grow(&padded, LINES_PAD);
		s = padded.buf;
	}
	if (instr_parse(s, n, &in, &rest) < 0) {
		if (memmem(s, n, " = ", 3) != NULL &&
		    suffix_peel(s, n, &t, &p, 0) >= 0) {
			bad_input(&mx->bad, &mx->pos,
			    "cannot parse the instruction "
			    "of a perf line");
			return 1;
		}
		return 0;
	}
	trace_flush(mx, r);
	if (cut && !in.has_suffix && !in.is_return && r->in_perf) {
		/* A perf line cut in its timing suffix: keep what is there. */
		if ((c = suffix_peel(s, n, &t, &p, 1)) >= 0) {
			instr_parse(s, (size_t)c, &in, &rest);
			in.time = t, in.pct = p;
			in.end = s + n;
			in.has_suffix = 1;
		}
		cut_short(mx);
	}
	/* Text of the current line was looked at by raw_line(). */
	in.plain = (uintptr_t)s >= (uintptr_t)mx->plain_lo &&
	    (uintptr_t)(s + n) <= (uintptr_t)mx->plain_hi ? 1 :
	    ndw_plain(s, n);
	section = in.has_suffix || (in.is_return && r->in_perf) ? "perf" :
	    "program";
	if (*section == 'p' && section[1] == 'e') {
		if (r->totals_done)
			run_end(mx, r);
		r->in_perf = r->has_report = 1;
	} else
		r->saw_program = 1;
	old = r->saw_old_header || (r->saw_program && !r->saw_header);
	rec_begin_instr(mx, r, section[1] == 'e', section[1] == 'e' ?
	    r->seq_perf++ : r->seq_program++);
	instr_fields(mx, &in, section, *section == 'p' && section[1] == 'r' &&
	    r->header.len > 0 ? r->header.buf : NULL, old);
	rec_flags(mx, flags | (in.fork ? FL_FORK : 0) |
	    (cut && rest.p == NULL ? FL_TRUNCATED : 0));
	rec_emit(mx);
	if (mx->opt.check && *section == 'p' && section[1] == 'e')
		check_instr(r, &in, old);
	if (rest.p != NULL && !instr_line(mx, r, rest.p, rest.n,
	    flags | FL_GLUED, cut))
		other(mx, r, rest.p, rest.n, flags | FL_GLUED);
	return 1;
}

static void
summary_end(struct migx *mx, struct run *r)
{
	if (pend.len > 0) {
		struct srcpos keep = mx->pos;

		mx->pos.line = pend_line;
		other(mx, r, pend.buf, pend.len, pend_flags);
		mx->pos = keep;
		strbuf_reset(&pend);
	}
	r->in_summary = 0;
}

/*
 * Inside the Summary: a row, a row wrapped onto two lines (the DTK fork),
 * or the end of the Summary.  Returns 1 when s was taken.
 */
static int
summary_line(struct migx *mx, struct run *r, const char *s, size_t n,
    unsigned flags)
{
	static struct strbuf j = STRBUF_INIT;
	struct srcpos keep = mx->pos;

	if (pend.len > 0) {
		strbuf_reset(&j);
		strbuf_add(&j, pend.buf, pend.len);
		if (pend.buf[pend.len - 1] != '>' && *s != '>')
			strbuf_addch(&j, ' ');
		strbuf_add(&j, s, n);
		mx->pos.line = pend_line;
		if (summary_row(mx, r, j.buf, j.len, flags | pend_flags |
		    FL_WRAPPED, 0) == 0) {
			mx->pos = keep;
			strbuf_reset(&pend);
			return 1;
		}
		mx->pos = keep;
		summary_end(mx, r);
		return 0;
	}
	if (summary_row(mx, r, s, n, flags, 0) == 0)
		return 1;
	if (totals_prefix(s, n) == 0 && memmem(s, n, ": ", 2) != NULL &&
	    memmem(s, n, "ms", 2) != NULL) {
		strbuf_add(&pend, s, n);
		pend_line = mx->pos.line;
		pend_flags = flags;
		return 1;
	}
	summary_end(mx, r);
	return 0;
}

static void
totals(struct migx *mx, struct run *r, const char *s, size_t n, int kind,
    int cut)
{
	int rc, i, empty[T_END];

	if (r->totals_done)
		run_end(mx, r);
	for (i = 0; i < T_END; i++)
		empty[i] = r->tot[i].len == 0;
	rc = totals_line(mx, r, s, n);
	r->has_report = 1;
	if (cut) {
		/* Numbers read from a cut line may be cut too. */
		r->tot_flags |= FL_TRUNCATED;
		for (i = 0; i < T_END; i++)
			if (empty[i] && r->tot[i].len > 0)
				r->cut_mask |= 1u << i;
	}
	if (rc < 0 && cut)
		cut_short(mx);
	else if (rc < 0) {
		/* Keep nothing from a line that does not parse. */
		for (i = 0; i < T_END; i++)
			if (empty[i])
				strbuf_reset(&r->tot[i]);
		bad_input(&mx->bad, &mx->pos,
		    "cannot read the numbers of a totals "
		    "line");
	}
	if (kind == 7 && rc > 0) {
		totals_emit(mx, r);
		r->totals_done = 1;
	}
}

/* One normalised, non-blank line (after --join-wrapped). */
static void
line_one(struct migx *mx, struct run *r, const char *s, size_t n,
    unsigned flags, int cut)
{
	int k;

	if (meta.kind != 0 && !is_stamp(s, n) &&
	    !starts(s, n, "[ MIGraphX Version: "))
		meta_flush(mx, r);
	if ((r->in_summary || pend.len > 0) && summary_line(mx, r, s, n, flags))
		return;
	if (trace_line(mx, r, s, n)) {
		if (cut)
			trace_flag(FL_TRUNCATED);
		return;
	}
	if ((k = totals_prefix(s, n)) != 0) {
		trace_flush(mx, r);
		totals(mx, r, s, n, k, cut);
		return;
	}
	if (n >= 8 && memcmp(s, "Summary:", 8) == 0 && trim(s, &n) && n == 8) {
		trace_flush(mx, r);
		if (r->totals_done)
			run_end(mx, r);
		r->in_summary = r->has_report = 1;
		return;
	}
	if (instr_line(mx, r, s, n, flags, cut))
		return;
	if (module_line(mx, r, s, n) || driver_line(mx, r, s, n) ||
	    phase_line(mx, r, s, n) || env_line(mx, r, s, n)) {
		trace_flush(mx, r);
		return;
	}
	/*
	 * A Summary row away from its header: after an author's "..." in a
	 * pasted Summary, or a paste of the rows alone.
	 */
	if (summary_row(mx, r, s, n, flags, 1) == 0) {
		trace_flush(mx, r);
		if (r->totals_done)
			run_end(mx, r);
		r->in_summary = r->has_report = 1;
		return;
	}
	if (cut && (r->in_perf || r->has_report))
		cut_short(mx);
	other(mx, r, s, n, flags);
}

/*
 * --join-wrapped (notes 6.10): a line with " = " that is not a whole
 * instruction (no " -> ", or a perf line without its timing) waits for
 * the next line; joined, with a space, or with nothing across a "-" ">"
 * split, they are read as one line when that parses.
 */
static struct strbuf wrap = STRBUF_INIT;
static unsigned long wrap_line;
static unsigned wrap_flags;
static int wrap_parts;

static int
wrap_candidate(struct run *r, const char *s, size_t n)
{
	struct instr in;
	struct sl rest;

	/*
	 * A Summary row has " = " too ("x: 1.8ms / 1 = 1.8ms， 99%"): its
	 * wrapping is the Summary's (summary_line()), never an instruction's.
	 */
	if (r->in_summary || pend.len > 0 || memmem(s, n, " = ", 3) == NULL ||
	    starts(s, n, "Run instruction: ") || totals_prefix(s, n) != 0)
		return 0;
	if (instr_parse(s, n, &in, &rest) < 0)
		return 1;
	return r->in_perf && !in.has_suffix && !in.is_return;
}

static void
wrap_flush(struct migx *mx, struct run *r)
{
	struct srcpos keep = mx->pos;

	if (wrap.len == 0)
		return;
	mx->pos.line = wrap_line;
	line_one(mx, r, wrap.buf, wrap.len, wrap_flags, 0);
	mx->pos = keep;
	strbuf_reset(&wrap);
}

static void
line(struct migx *mx, struct run *r, const char *s, size_t n, unsigned flags,
    int cut)
{
	static struct strbuf j = STRBUF_INIT;
	struct srcpos keep = mx->pos;

	if (!mx->opt.join_wrapped) {
		line_one(mx, r, s, n, flags, cut);
		return;
	}
	if (wrap.len > 0) {
		strbuf_reset(&j);
		strbuf_add(&j, wrap.buf, wrap.len);
		if (*s != '>' && wrap.buf[wrap.len - 1] != '-')
			strbuf_addch(&j, ' ');
		strbuf_add(&j, s, n);
		if (!wrap_candidate(r, j.buf, j.len)) {
			struct instr in;
			struct sl rest;

			if (instr_parse(j.buf, j.len, &in, &rest) == 0) {
				mx->pos.line = wrap_line;
				strbuf_reset(&wrap);
				line_one(mx, r, j.buf, j.len,
				    wrap_flags | flags |
				    FL_WRAPPED, cut);
				mx->pos = keep;
				return;
			}
		} else if (wrap_parts < 3 && !cut) {
			strbuf_reset(&wrap);
			strbuf_add(&wrap, j.buf, j.len);
			wrap_parts++;
			return;
		}
		wrap_flush(mx, r);
	}
	if (!cut && wrap_candidate(r, s, n)) {
		strbuf_add(&wrap, s, n);
		wrap_line = mx->pos.line;
		wrap_flags = flags;
		wrap_parts = 1;
		return;
	}
	line_one(mx, r, s, n, flags, cut);
}

/* Removes ANSI CSI and OSC sequences (6.1 step 2) into norm. */
static void
strip_ansi(const char *s, size_t n)
{
	const char *e = s + n, *p;

	strbuf_reset(&norm);
	while (s < e) {
		p = memchr(s, 0x1b, (size_t)(e - s));
		if (p == NULL)
			p = e;
		strbuf_add(&norm, s, (size_t)(p - s));
		if (p >= e)
			break;
		s = p + 1;
		if (s < e && *s == '[') {
			for (s++; s < e && !(*s >= 0x40 && *s <= 0x7e); s++)
				;
			s++;
		} else if (s < e && *s == ']') {
			for (s++; s < e && *s != 0x07; s++)
				if (*s == 0x1b && s + 1 < e && s[1] == '\\') {
					s++;
					break;
				}
			s++;
		} else if (s < e)
			s++;
	}
}

/* No-break spaces (text copied from a web page) become spaces. */
static const char *
nbsp(const char *s, size_t *n)
{
	static struct strbuf sb = STRBUF_INIT;
	const char *e = s + *n, *p;

	strbuf_reset(&sb);
	while ((p = memmem(s, (size_t)(e - s), "\xC2\xA0", 2)) != NULL) {
		strbuf_add(&sb, s, (size_t)(p - s));
		strbuf_addch(&sb, ' ');
		s = p + 2;
	}
	strbuf_add(&sb, s, (size_t)(e - s));
	/* norm may be the source: copy back through sb. */
	strbuf_reset(&norm);
	strbuf_add(&norm, sb.buf, sb.len);
	*n = norm.len;
	return norm.buf;
}

/* A develop logger prefix "YYYY-MM-DD HH:MM:SS.uuuuuu [LEVEL] [src] ". */
static size_t
logger_prefix(const char *s, size_t n)
{
	const char *p, *q;

	if (n < 30 || s[4] != '-' || s[7] != '-' || s[10] != ' ' ||
	    s[13] != ':' || s[19] != '.' || s[26] != ' ' || s[27] != '[')
		return 0;
	p = memchr(s + 27, ']', n - 27);
	if (p == NULL || p + 2 >= s + n || p[1] != ' ' || p[2] != '[')
		return 0;
	q = memchr(p + 2, ']', (size_t)(s + n - p - 2));
	if (q == NULL || q + 1 >= s + n || q[1] != ' ')
		return 0;
	return (size_t)(q + 2 - s);
}

/*
 * What s[0..n) holds of the bytes that matter (LN_CTL, LN_QUOTE), in one
 * pass.  Sixteen bytes at a time with SSE2 (a signed compare with 0x20
 * also catches 0x80 and above).
 */

static unsigned
line_bytes(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned r = 0;
	size_t i = 0;
#ifdef __SSE2__
	const __m128i sp = _mm_set1_epi8(0x20), q = _mm_set1_epi8('"'),
	    bs = _mm_set1_epi8('\\');
	__m128i c = _mm_setzero_si128(), e = c, v;

	if (n >= 16) {
		for (;; i += 16) {
			if (i + 16 > n)
				i = n - 16;	/* the tail, overlapping */
			v = _mm_loadu_si128((const __m128i *)(const void *)
			    (p + i));
			c = _mm_or_si128(c, _mm_cmplt_epi8(v, sp));
			e = _mm_or_si128(e, _mm_or_si128(_mm_cmpeq_epi8(v, q),
			    _mm_cmpeq_epi8(v, bs)));
			if (i + 16 == n)
				break;
		}
		return (_mm_movemask_epi8(c) != 0 ? LN_CTL : 0) |
		    (_mm_movemask_epi8(e) != 0 ? LN_QUOTE : 0);
	}
#endif
	for (; i < n; i++)
		if (p[i] < 0x20 || p[i] >= 0x80)
			r |= LN_CTL;
		else if (p[i] == '"' || p[i] == '\\')
			r |= LN_QUOTE;
	return r;
}

/*
 * Normalises one physical line (section 6.1) and hands it on.  bytes is
 * what the line holds (LN_CTL, LN_QUOTE): a line with neither needs no
 * second look.
 */
static void
raw_line(struct migx *mx, struct run *r, const char *s, size_t n, int first,
    int cut, unsigned bytes)
{
	unsigned flags = 0;
	size_t k;

	while (n > 0 && s[n - 1] == '\r')
		n--;
	if (first && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		s += 3, n -= 3;
	/* A '\r' or a BOM is LN_CTL: what is left is looked at again. */
	if (bytes != 0)
		bytes = line_bytes(s, n);
	if ((bytes & LN_CTL) && memchr(s, 0x1b, n) != NULL) {
		strip_ansi(s, n);
		s = norm.buf, n = norm.len;
	}
	if ((bytes & LN_CTL) && memchr(s, 0xC2, n) != NULL &&
	    memmem(s, n, "\xC2\xA0", 2) != NULL)
		s = nbsp(s, &n);
	/* What is left of a line with nothing to escape has nothing. */
	mx->plain_lo = bytes == 0 ? s : NULL;
	mx->plain_hi = bytes == 0 ? s + n : NULL;
	if (n > 0 && (*s == ' ' || *s == '\t')) {
		while (n > 0 && (*s == ' ' || *s == '\t'))
			s++, n--;
		flags |= FL_INDENTED;
	}
	if ((k = logger_prefix(s, n)) > 0)
		s += k, n -= k;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n == 0) {
		wrap_flush(mx, r);
		if (r->in_summary || pend.len > 0)
			summary_end(mx, r);
		return;
	}
	line(mx, r, s, n, flags, cut);
}

static int
is_blank(const char *s, size_t n)
{
	while (n > 0 && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++, n--;
	return n == 0;
}

static int
migx_stream(struct migx *mx, const char *path)
{
	struct zin z;
	struct lines l;
	struct run r;
	const char *s;
	size_t n;
	unsigned cls;
	int k, sniffed = 0;

	if (zin_open(&z, path) < 0) {
		warn_errno("cannot open '%s'", path);
		return EXIT_FAILURE;
	}
	lines_init(&l, &z);
	run_init(&r);
	mx->records = 0;
	mx->pos.file = z.name;
	mx->pos.line = 0;
	while ((k = lines_get(&l, &s, &n, &cls)) > 0) {
		mx->pos.line++;
		if (!sniffed && !is_blank(s, n)) {
			sniff_check(z.name, s, n, SNIFF_BIT(SNIFF_SQLITE) |
			    SNIFF_BIT(SNIFF_BINARY) | SNIFF_BIT(SNIFF_TRACE) |
			    SNIFF_BIT(SNIFF_JSON) | SNIFF_BIT(SNIFF_SPANS) |
			    SNIFF_BIT(SNIFF_STACKS) | SNIFF_BIT(SNIFF_DISPATCH) |
			    SNIFF_BIT(SNIFF_MIGX) | SNIFF_BIT(SNIFF_METRICS),
			    "migx2ndjson reads migraphx-driver text output");
			sniffed = 1;
		}
		mx->pad_lo = l.lo;
		mx->pad_hi = l.hi;
		raw_line(mx, &r, s, n, mx->pos.line == 1, l.no_newline, cls);
		if ((++mx->total_lines & 0xffff) == 0)
			progress_update(mx->total_lines, 0);
	}
	wrap_flush(mx, &r);
	if (pend.len > 0)
		summary_end(mx, &r);
	meta_flush(mx, &r);
	if (r.has_report || r.have_tot)
		run_end(mx, &r);
	else
		trace_flush(mx, &r);
	run_release(&r);
	if (mx->unknown > 0)
		warn("%s: skipped %lu unrecognised line%s (%s%s)", z.name,
		    mx->unknown, mx->unknown == 1 ? "" : "s", unknown_first.buf,
		    mx->unknown > UNKNOWN_SHOWN ? "; ..." : "");
	strbuf_reset(&unknown_first);
	if (k < 0) {
		warn("cannot read '%s': %s", z.name, zin_error(&z));
		zin_close(&z);
		return EXIT_FAILURE;
	}
	zin_close(&z);
	if (mx->records == 0 && mx->unknown > 0) {
		/* Nothing usable: not an empty stream, a wrong input. */
		warn("%s: no migraphx-driver output recognised: migx2ndjson "
		    "reads what migraphx-driver perf prints, MIGRAPHX_TRACE_EVAL "
		    "output and program listings", z.name);
		mx->unknown = 0;
		return EXIT_FAILURE;
	}
	mx->unknown = 0;
	return EXIT_SUCCESS;
}

/*
 * Records are written in blocks (NDW_BATCH): the ones made before a fatal
 * error (--strict) still reach the output, from exit().
 */
static struct migx *batch_mx;

static void
batch_flush(void)
{
	if (batch_mx != NULL)
		ndw_flush(&batch_mx->w, batch_mx->out);
	batch_mx = NULL;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "join-wrapped", no_argument, NULL, 'j' },
		{ "keep-output", no_argument, NULL, 'O' },
		{ "keep-unknown", no_argument, NULL, 'k' },
		{ "label", required_argument, NULL, 'L' },
		{ "no-attr-split", no_argument, NULL, 'A' },
		OPT__COMMON
	};
	static struct migx m = {
		.opt = { .com = OPT_COMMON_INIT, .attr_split = 1 },
		.bad = BAD_INPUT_INIT
	};
	struct migx *mx = &m;
	struct ofile of;
	int ch, rc = EXIT_SUCCESS;

	prog_init(argv[0]);
	prog_usage(usage);
	while ((ch = opt_next(argc, argv, "cjk" OPT_COMMON_SHORT, longopts)) !=
	    -1)
		switch (ch) {
		case 'A': mx->opt.attr_split = 0; break;
		case 'c': mx->opt.check = 1; break;
		case 'j': mx->opt.join_wrapped = 1; break;
		case 'k': mx->opt.keep_unknown = 1; break;
		case 'L': mx->opt.label = optarg; break;
		case 'O': mx->opt.keep_output = 1; break;
		default: opt_common(ch, optarg, &mx->opt.com, usage);
		}
	argc -= optind;
	argv += optind;
	mx->bad.strict = mx->opt.com.strict;
	if (mx->opt.com.where != NULL)
		mx->where = jqf_compile(mx->opt.com.where);
	mx->out = ofile_open(&of, mx->opt.com.output);
	if (!isatty(fileno(mx->out))) {
		/* Records go out in ndw's blocks: no copy into stdio's. */
		setvbuf(mx->out, NULL, _IONBF, 0);
		ndw_init(&mx->w, NDW_PLAIN_KEYS | NDW_BATCH);
		batch_mx = mx;
		atexit(batch_flush);
	} else
		ndw_init(&mx->w, NDW_PLAIN_KEYS);
	progress_init(mx->opt.com.progress, "lines");
	if (argc == 0 && migx_stream(mx, "-") != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	for (; argc > 0; argc--, argv++)
		if (migx_stream(mx, *argv) != EXIT_SUCCESS)
			rc = EXIT_FAILURE;
	progress_done();
	trace_release();
	batch_flush();
	ndw_release(&mx->w);
	if (mx->where != NULL)
		jqf_free(mx->where);
	strbuf_release(&norm);
	strbuf_release(&pend);
	strbuf_release(&wrap);
	strbuf_release(&padded);
	strbuf_release(&meta.version);
	strbuf_release(&meta.invocation);
	strbuf_release(&meta.stamp);
	if (bad_input_finish(&mx->bad) != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	if ((mx->opt.check && check_count() > 0) || cut_seen)
		rc = EXIT_FAILURE;
	rc = ofile_finish(&of, rc);
	return close_stdout() != 0 ? EXIT_FAILURE : rc;
}

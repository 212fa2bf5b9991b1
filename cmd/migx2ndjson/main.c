#define _GNU_SOURCE	/* memmem */
/*
 * migx2ndjson: turns migraphx-driver perf, trace-eval and program text of
 * every MIGraphX release into NDJSON records.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

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

struct migx_opt opt = { .com = OPT_COMMON_INIT, .attr_split = 1 };
struct ndw w;
struct srcpos pos;
struct bad_input bad = BAD_INPUT_INIT;

static FILE *out;
static struct jqf *where;
static unsigned long unknown, total_lines;
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

static void
usage(int status)
{
	FILE *fp = status == 0 ? stdout : stderr;

	fprintf(fp, "%s\n", usage_line);
	exit(status);
}

/* Writes an unsigned number without printf (this is the hot path). */
void
put_u(const char *key, unsigned long v)
{
	char buf[24], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	W_RAW(key, p, (size_t)(buf + sizeof(buf) - p));
}

/* Bytes that a JSON string holds as they are. */
static unsigned char plain[256];

static void
plain_init(void)
{
	int c;

	for (c = 0x20; c < 0x7f; c++)
		plain[c] = c != '"' && c != '\\';
	if (w.flags & NDW_HTML_SAFE)
		plain['<'] = plain['>'] = plain['&'] = 0;
}

void
out_str(const char *p, size_t n)
{
	const unsigned char *u = (const unsigned char *)p;
	size_t i;
	char *d;

	for (i = 0; i < n && plain[u[i]]; i++)
		;
	if (i < n) {
		if (w.need_comma)
			strbuf_addch(&w.buf, ',');
		w.need_comma = 1;
		ndw_quote(&w.buf, p, n, w.flags);
		return;
	}
	d = wb_room(n + 3);
	if (w.need_comma)
		*d++ = ',';
	w.need_comma = 1;
	*d++ = '"';
	memcpy(d, p, n);
	d += n;
	*d++ = '"';
	wb_end(d);
}

void
out_raw(const char *p, size_t n)
{
	char *d = wb_room(n + 1);

	if (w.need_comma)
		*d++ = ',';
	w.need_comma = 1;
	memcpy(d, p, n);
	wb_end(d + n);
}

void
rec_begin(const char *type, struct run *r, unsigned long line)
{
	ndw_begin(&w);
	W_STRZ("type", type);
	put_u("run", (unsigned long)r->num);
	put_u("line", line);
	if (opt.label != NULL)
		W_STRZ("label", opt.label);
}

void
rec_flags(unsigned flags)
{
	static const char *const names[] = { "glued", "truncated",
	    "wrapped", "fork_spacing", "indented", "nospace" };
	size_t i;

	if (flags == 0)
		return;
	W_ARR("flags");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (flags & (1u << i))
			out_str(names[i], strlen(names[i]));
	ndw_close(&w);
}

void
rec_emit(void)
{
	ndw_end(&w);
	if (jqf_keep(where, w.buf.buf, w.buf.len, &bad, &pos) == 1)
		ndw_emit(&w, out);
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
cut_short(void)
{
	if (opt.com.strict)
		die_at(&pos, "the last line is cut short");
	warn_at(&pos, "the last line is cut short");
	cut_seen = 1;
}

static void
meta_flush(struct run *r)
{
	if (meta.kind == 1) {
		rec_begin("meta", r, meta.line);
		W_STRZ("key", "driver_start");
		W_STR("version", meta.version.buf, meta.version.len);
		W_STR("invocation", meta.invocation.buf,
		    meta.invocation.len);
		if (meta.stamp.len > 0)
			W_STR("timestamp", meta.stamp.buf,
			    meta.stamp.len);
		else
			W_NULL("timestamp");
		rec_emit();
	} else if (meta.kind == 2) {
		rec_begin("meta", r, meta.line);
		W_STRZ("key", "timestamp");
		W_STR("timestamp", meta.stamp.buf, meta.stamp.len);
		rec_emit();
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
meta_kv(struct run *r, const char *key, const char *k2, const char *v,
    size_t vn)
{
	rec_begin("meta", r, pos.line);
	W_STRZ("key", key);
	W_STR(k2, v, vn);
	rec_emit();
}

/* Ends the current run: partial totals, --check; the next one starts. */
static void
run_end(struct run *r)
{
	trace_flush(r);
	if (r->have_tot || (r->has_report && !r->totals_done)) {
		if (!r->have_tot)
			r->tot_line = pos.line;
		totals_emit(r);
	}
	if (opt.check)
		check_run(r);
	r->num++;
	run_reset(r);
}

/* The driver's banner and footer lines (section 1 [A] and [J]). */
static int
driver_line(struct run *r, const char *s, size_t n)
{
	const char *v, *e = s + n, *q;

	if (starts(s, n, "Running [ MIGraphX Version: ")) {
		if (r->totals_done || r->has_report)
			run_end(r);
		v = s + 28;
		if ((q = memmem(v, (size_t)(e - v), " ]: ", 4)) == NULL)
			return 0;
		meta_flush(r);
		meta.kind = 1;
		meta.line = pos.line;
		strbuf_add(&meta.version, v, (size_t)(q - v));
		strbuf_add(&meta.invocation, q + 4, (size_t)(e - q - 4));
		return 1;
	}
	if (starts(s, n, "[ MIGraphX Version: ")) {
		const char *d = NULL, *de = NULL;

		v = s + 20;
		if ((q = memmem(v, (size_t)(e - v), " ] Complete", 11)) == NULL)
			return 0;
		rec_begin("meta", r, meta.kind == 2 ? meta.line : pos.line);
		W_STRZ("key", "driver_end");
		W_STR("version", v, (size_t)(q - v));
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
			put_num("duration_s", d, (size_t)(de - d));
		else
			W_NULL("duration_s");
		if (q + 2 <= e && q[0] == ':' && q[1] == ' ')
			q += 2;
		W_STR("invocation", q, (size_t)(e - q));
		if (meta.kind == 2)
			W_STR("timestamp", meta.stamp.buf, meta.stamp.len);
		else
			W_NULL("timestamp");
		rec_emit();
		meta.kind = 0;
		strbuf_reset(&meta.stamp);
		return 1;
	}
	if (is_stamp(s, n)) {
		if (meta.kind == 1 && meta.stamp.len == 0) {
			strbuf_add(&meta.stamp, s + 1, n - 2);
			meta_flush(r);
			return 1;
		}
		meta_flush(r);
		meta.kind = 2;
		meta.line = pos.line;
		strbuf_add(&meta.stamp, s + 1, n - 2);
		return 1;
	}
	return 0;
}

/* An environment line: NAME=VALUE with MIGRAPHX in NAME (1 [B], [J]). */
static int
env_line(struct run *r, const char *s, size_t n)
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
	rec_begin("meta", r, pos.line);
	W_STRZ("key", "env");
	W_STR("name", s, (size_t)(eq - s));
	W_STR("value", eq + 1, vn);
	rec_emit();
	return 1;
}

/* Progress and phase lines of the driver (section 1 [C], [E], [F]). */
static int
phase_line(struct run *r, const char *s, size_t n)
{
	const char *ph = NULL;

	if (starts(s, n, "Compiling ...")) {
		if (r->totals_done)
			run_end(r);
		ph = "compiling";
	} else if (starts(s, n, "Reading: ")) {
		if (r->totals_done)
			run_end(r);
		meta_kv(r, "reading", "file", s + 9, n - 9);
		return 1;
	} else if (starts(s, n, "Quantizing")) {
		ph = "quantizing";
	} else if (starts(s, n, "Allocating params ...")) {
		if (r->totals_done)
			run_end(r);
		ph = "allocating";
		strbuf_reset(&r->header);
	} else if (starts(s, n, "Running performance report ...")) {
		if (r->has_report)
			run_end(r);
		ph = "perf";
		r->in_perf = 1;
		strbuf_reset(&r->header);
	} else if (starts(s, n, "Compilation time: ") && n > 20 &&
	    memcmp(s + n - 2, "ms", 2) == 0) {
		rec_begin("meta", r, pos.line);
		W_STRZ("key", "compilation_ms");
		put_num("value", s + 18, n - 20);
		rec_emit();
		return 1;
	} else if (starts(s, n, "Unused environment variable: ")) {
		meta_kv(r, "unused_env", "name", s + 29, n - 29);
		return 1;
	} else
		return 0;
	meta_kv(r, "phase", "phase", ph, strlen(ph));
	return 1;
}

/* module: "NAME" (ROCm >= 4.3) and Module NAME: (4.1-4.2). */
static int
module_line(struct run *r, const char *s, size_t n)
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
	rec_begin("module", r, pos.line);
	W_STR("name", nm, nn);
	rec_emit();
	return 1;
}

/* Adds line s to the summary's examples, cut and with controls as '?'. */
static void
unknown_note(const char *s, size_t n)
{
	size_t i, cut = n;

	if (unknown >= UNKNOWN_SHOWN)
		return;
	if (cut > UNKNOWN_CUT) {
		cut = UNKNOWN_CUT;
		while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
			cut--;	/* not inside a UTF-8 sequence */
	}
	strbuf_addf(&unknown_first, "%sline %lu: '",
	    unknown_first.len > 0 ? "; " : "", pos.line);
	for (i = 0; i < cut; i++)
		strbuf_addch(&unknown_first, (unsigned char)s[i] < 0x20 ||
		    s[i] == 0x7f ? '?' : s[i]);
	strbuf_addstr(&unknown_first, cut < n ? "...'" : "'");
}

static void
other(struct run *r, const char *s, size_t n, unsigned flags)
{
	if (!opt.keep_unknown) {
		unknown_note(s, n);
		unknown++;
		return;
	}
	rec_begin("other", r, pos.line);
	W_STR("text", s, n);
	rec_flags(flags);
	rec_emit();
}

/*
 * An instruction line (with what may be glued after a @return).  Returns
 * 0 when s is not one.
 */
static int
instr_line(struct run *r, const char *s, size_t n, unsigned flags, int cut)
{
	struct instr in;
	struct sl rest, t, p;
	const char *section;
	int c, old;

	if (instr_parse(s, n, &in, &rest) < 0) {
		if (memmem(s, n, " = ", 3) != NULL &&
		    suffix_peel(s, n, &t, &p, 0) >= 0) {
			bad_input(&bad, &pos, "cannot parse the instruction "
			    "of a perf line");
			return 1;
		}
		return 0;
	}
	trace_flush(r);
	if (cut && !in.has_suffix && !in.is_return && r->in_perf) {
		/* A perf line cut in its timing suffix: keep what is there. */
		if ((c = suffix_peel(s, n, &t, &p, 1)) >= 0) {
			instr_parse(s, (size_t)c, &in, &rest);
			in.time = t, in.pct = p;
			in.has_suffix = 1;
		}
		cut_short();
	}
	section = in.has_suffix || (in.is_return && r->in_perf) ? "perf" :
	    "program";
	if (*section == 'p' && section[1] == 'e') {
		if (r->totals_done)
			run_end(r);
		r->in_perf = r->has_report = 1;
	} else
		r->saw_program = 1;
	old = r->saw_old_header || (r->saw_program && !r->saw_header);
	rec_begin("instruction", r, pos.line);
	W_STRZ("section", section);
	put_u("seq", *section == 'p' && section[1] == 'e' ? r->seq_perf++ :
	    r->seq_program++);
	instr_fields(&in, section, *section == 'p' && section[1] == 'r' &&
	    r->header.len > 0 ? r->header.buf : NULL, old);
	rec_flags(flags | (in.fork ? FL_FORK : 0) |
	    (cut && rest.p == NULL ? FL_TRUNCATED : 0));
	rec_emit();
	if (opt.check && *section == 'p' && section[1] == 'e')
		check_instr(r, &in, old);
	if (rest.p != NULL && !instr_line(r, rest.p, rest.n,
	    flags | FL_GLUED, cut))
		other(r, rest.p, rest.n, flags | FL_GLUED);
	return 1;
}

static void
summary_end(struct run *r)
{
	if (pend.len > 0) {
		struct srcpos keep = pos;

		pos.line = pend_line;
		other(r, pend.buf, pend.len, pend_flags);
		pos = keep;
		strbuf_reset(&pend);
	}
	r->in_summary = 0;
}

/*
 * Inside the Summary: a row, a row wrapped onto two lines (the DTK fork),
 * or the end of the Summary.  Returns 1 when s was taken.
 */
static int
summary_line(struct run *r, const char *s, size_t n, unsigned flags)
{
	static struct strbuf j = STRBUF_INIT;
	struct srcpos keep = pos;

	if (pend.len > 0) {
		strbuf_reset(&j);
		strbuf_add(&j, pend.buf, pend.len);
		if (pend.buf[pend.len - 1] != '>' && *s != '>')
			strbuf_addch(&j, ' ');
		strbuf_add(&j, s, n);
		pos.line = pend_line;
		if (summary_row(r, j.buf, j.len, flags | pend_flags |
		    FL_WRAPPED, 0) == 0) {
			pos = keep;
			strbuf_reset(&pend);
			return 1;
		}
		pos = keep;
		summary_end(r);
		return 0;
	}
	if (summary_row(r, s, n, flags, 0) == 0)
		return 1;
	if (totals_prefix(s, n) == 0 && memmem(s, n, ": ", 2) != NULL &&
	    memmem(s, n, "ms", 2) != NULL) {
		strbuf_add(&pend, s, n);
		pend_line = pos.line;
		pend_flags = flags;
		return 1;
	}
	summary_end(r);
	return 0;
}

static void
totals(struct run *r, const char *s, size_t n, int kind, int cut)
{
	int rc, i, empty[T_END];

	if (r->totals_done)
		run_end(r);
	for (i = 0; i < T_END; i++)
		empty[i] = r->tot[i].len == 0;
	rc = totals_line(r, s, n);
	r->has_report = 1;
	if (cut) {
		/* Numbers read from a cut line may be cut too. */
		r->tot_flags |= FL_TRUNCATED;
		for (i = 0; i < T_END; i++)
			if (empty[i] && r->tot[i].len > 0)
				r->cut_mask |= 1u << i;
	}
	if (rc < 0 && cut)
		cut_short();
	else if (rc < 0) {
		/* Keep nothing from a line that does not parse. */
		for (i = 0; i < T_END; i++)
			if (empty[i])
				strbuf_reset(&r->tot[i]);
		bad_input(&bad, &pos, "cannot read the numbers of a totals "
		    "line");
	}
	if (kind == 7 && rc > 0) {
		totals_emit(r);
		r->totals_done = 1;
	}
}

/* One normalised, non-blank line (after --join-wrapped). */
static void
line_one(struct run *r, const char *s, size_t n, unsigned flags, int cut)
{
	int k;

	if (meta.kind != 0 && !is_stamp(s, n) &&
	    !starts(s, n, "[ MIGraphX Version: "))
		meta_flush(r);
	if ((r->in_summary || pend.len > 0) && summary_line(r, s, n, flags))
		return;
	if (trace_line(r, s, n)) {
		if (cut)
			trace_flag(FL_TRUNCATED);
		return;
	}
	if ((k = totals_prefix(s, n)) != 0) {
		trace_flush(r);
		totals(r, s, n, k, cut);
		return;
	}
	if (n >= 8 && memcmp(s, "Summary:", 8) == 0 && trim(s, &n) && n == 8) {
		trace_flush(r);
		if (r->totals_done)
			run_end(r);
		r->in_summary = r->has_report = 1;
		return;
	}
	if (instr_line(r, s, n, flags, cut))
		return;
	if (module_line(r, s, n) || driver_line(r, s, n) ||
	    phase_line(r, s, n) || env_line(r, s, n)) {
		trace_flush(r);
		return;
	}
	/*
	 * A Summary row away from its header: after an author's "..." in a
	 * pasted Summary, or a paste of the rows alone.
	 */
	if (summary_row(r, s, n, flags, 1) == 0) {
		trace_flush(r);
		if (r->totals_done)
			run_end(r);
		r->in_summary = r->has_report = 1;
		return;
	}
	if (cut && (r->in_perf || r->has_report))
		cut_short();
	other(r, s, n, flags);
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

	if (memmem(s, n, " = ", 3) == NULL || starts(s, n, "Run instruction: ")
	    || totals_prefix(s, n) != 0)
		return 0;
	if (instr_parse(s, n, &in, &rest) < 0)
		return 1;
	return r->in_perf && !in.has_suffix && !in.is_return;
}

static void
wrap_flush(struct run *r)
{
	struct srcpos keep = pos;

	if (wrap.len == 0)
		return;
	pos.line = wrap_line;
	line_one(r, wrap.buf, wrap.len, wrap_flags, 0);
	pos = keep;
	strbuf_reset(&wrap);
}

static void
line(struct run *r, const char *s, size_t n, unsigned flags, int cut)
{
	static struct strbuf j = STRBUF_INIT;
	struct srcpos keep = pos;

	if (!opt.join_wrapped) {
		line_one(r, s, n, flags, cut);
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
				pos.line = wrap_line;
				strbuf_reset(&wrap);
				line_one(r, j.buf, j.len, wrap_flags | flags |
				    FL_WRAPPED, cut);
				pos = keep;
				return;
			}
		} else if (wrap_parts < 3 && !cut) {
			strbuf_reset(&wrap);
			strbuf_add(&wrap, j.buf, j.len);
			wrap_parts++;
			return;
		}
		wrap_flush(r);
	}
	if (!cut && wrap_candidate(r, s, n)) {
		strbuf_add(&wrap, s, n);
		wrap_line = pos.line;
		wrap_flags = flags;
		wrap_parts = 1;
		return;
	}
	line_one(r, s, n, flags, cut);
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

/* Normalises one physical line (section 6.1) and hands it on. */
static void
raw_line(struct run *r, const char *s, size_t n, int first, int cut)
{
	unsigned flags = 0;
	size_t k;

	while (n > 0 && s[n - 1] == '\r')
		n--;
	if (first && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
		s += 3, n -= 3;
	if (memchr(s, 0x1b, n) != NULL) {
		strip_ansi(s, n);
		s = norm.buf, n = norm.len;
	}
	if (memchr(s, 0xC2, n) != NULL && memmem(s, n, "\xC2\xA0", 2) != NULL)
		s = nbsp(s, &n);
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
		wrap_flush(r);
		if (r->in_summary || pend.len > 0)
			summary_end(r);
		return;
	}
	line(r, s, n, flags, cut);
}

static int
is_blank(const char *s, size_t n)
{
	while (n > 0 && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++, n--;
	return n == 0;
}

static int
migx_stream(const char *path)
{
	struct zin z;
	struct run r;
	const char *s;
	size_t n;
	int k, sniffed = 0;

	if (zin_open(&z, path) < 0) {
		warn_errno("cannot open '%s'", path);
		return EXIT_FAILURE;
	}
	run_init(&r);
	pos.file = z.name;
	pos.line = 0;
	while ((k = zin_getline(&z, &s, &n)) > 0) {
		pos.line++;
		if (!sniffed && !is_blank(s, n)) {
			sniff_check(z.name, s, n, SNIFF_BIT(SNIFF_SQLITE) |
			    SNIFF_BIT(SNIFF_BINARY) | SNIFF_BIT(SNIFF_TRACE) |
			    SNIFF_BIT(SNIFF_JSON) | SNIFF_BIT(SNIFF_SPANS) |
			    SNIFF_BIT(SNIFF_STACKS) | SNIFF_BIT(SNIFF_DISPATCH) |
			    SNIFF_BIT(SNIFF_MIGX) | SNIFF_BIT(SNIFF_METRICS),
			    "migx2ndjson reads migraphx-driver text output");
			sniffed = 1;
		}
		raw_line(&r, s, n, pos.line == 1, z.no_newline);
		if ((++total_lines & 0xffff) == 0)
			progress_update(total_lines, 0);
	}
	wrap_flush(&r);
	if (pend.len > 0)
		summary_end(&r);
	meta_flush(&r);
	if (r.has_report || r.have_tot)
		run_end(&r);
	else
		trace_flush(&r);
	run_release(&r);
	if (unknown > 0)
		warn("%s: skipped %lu unrecognised line%s (%s%s)", z.name,
		    unknown, unknown == 1 ? "" : "s", unknown_first.buf,
		    unknown > UNKNOWN_SHOWN ? "; ..." : "");
	unknown = 0;
	strbuf_reset(&unknown_first);
	if (k < 0) {
		warn("cannot read '%s': %s", z.name, zin_error(&z));
		zin_close(&z);
		return EXIT_FAILURE;
	}
	zin_close(&z);
	return EXIT_SUCCESS;
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
	struct ofile of;
	int ch, rc = EXIT_SUCCESS;

	prog_init(argv[0]);
	while ((ch = opt_next(argc, argv, "cjk" OPT_COMMON_SHORT, longopts)) !=
	    -1)
		switch (ch) {
		case 'A': opt.attr_split = 0; break;
		case 'c': opt.check = 1; break;
		case 'j': opt.join_wrapped = 1; break;
		case 'k': opt.keep_unknown = 1; break;
		case 'L': opt.label = optarg; break;
		case 'O': opt.keep_output = 1; break;
		default: opt_common(ch, optarg, &opt.com, usage);
		}
	argc -= optind;
	argv += optind;
	bad.strict = opt.com.strict;
	if (opt.com.where != NULL)
		where = jqf_compile(opt.com.where);
	out = ofile_open(&of, opt.com.output);
	if (!isatty(fileno(out)))
		setvbuf(out, NULL, _IOFBF, 1 << 17);
	ndw_init(&w, 0);
	plain_init();
	progress_init(opt.com.progress, "lines");
	if (argc == 0 && migx_stream("-") != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	for (; argc > 0; argc--, argv++)
		if (migx_stream(*argv) != EXIT_SUCCESS)
			rc = EXIT_FAILURE;
	progress_done();
	trace_release();
	ndw_release(&w);
	if (where != NULL)
		jqf_free(where);
	strbuf_release(&norm);
	strbuf_release(&pend);
	strbuf_release(&wrap);
	strbuf_release(&meta.version);
	strbuf_release(&meta.invocation);
	strbuf_release(&meta.stamp);
	if (bad_input_finish(&bad) != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	if ((opt.check && check_count() > 0) || cut_seen)
		rc = EXIT_FAILURE;
	rc = ofile_finish(&of, rc);
	return close_stdout() != 0 ? EXIT_FAILURE : rc;
}

/*
 * migx.h: the parts of migx2ndjson shared between its files.
 *
 * main.c reads and normalises lines, tells them apart and keeps the state
 * of the current run; instr.c parses one instruction text (no output);
 * shape.c writes a parsed instruction's members (shape, attributes,
 * names); report.c parses Summary rows and the totals block and runs
 * --check; trace.c gathers MIGRAPHX_TRACE_EVAL output into trace
 * records; rec.c is the record writer they all write through.  main.c
 * uses the others and none of them uses main.c.  The state of the reader
 * is one struct migx, passed down.  Slices point into the current line
 * and are valid until the next line is read.
 */
#ifndef MIGX_H
#define MIGX_H

#include <stddef.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "err.h"
#include "hmap.h"
#include "ndw.h"
#include "opt.h"
#include "strbuf.h"
#include "zin.h"

/* A piece of the current line. */
struct sl {
	const char *p;		/* NULL: absent */
	size_t n;
};

/* Flags of a record, written as the "flags" array. */
enum {
	FL_GLUED = 1, FL_TRUNCATED = 2, FL_WRAPPED = 4, FL_FORK = 8,
	FL_INDENTED = 16, FL_NOSPACE = 32
};

/* One instruction text, taken apart (section 3 of the notes). */
struct instr {
	struct sl name, op, attrs, literal, args, modargs, shape;
	struct sl tid, dbg, param, time, pct;
	int is_return;
	int has_suffix;		/* the perf timing suffix was there */
	int fork;		/* DTK spacing: "->" or "," without spaces */
	int plain;		/* the line needs no escapes (ndw_plain()) */
	int json;		/* JSON_TIME, JSON_PCT: known JSON numbers */
	const char *end;	/* the end of the text */
};

enum { JSON_TIME = 1, JSON_PCT = 2 };

/* Options, set by main(). */
struct migx_opt {
	struct opt_common com;
	int check, join_wrapped, keep_output, keep_unknown;
	int attr_split;
	const char *label;	/* --label: written as "label" */
};

/*
 * The reader: options, the record writer, where the line being read is,
 * the bad-input count.  main() owns it; every part that reads or writes
 * gets it.
 */
struct migx {
	struct migx_opt opt;
	struct ndw w;
	struct srcpos pos;
	struct bad_input bad;
	FILE *out;
	struct jqf *where;
	unsigned long unknown, total_lines;
	unsigned long records;	/* made from the file being read */
	/* The current line when it needs no escapes (else NULL, NULL). */
	const char *plain_lo, *plain_hi;
	/* The lines buffer: LINES_PAD readable bytes follow its text. */
	const char *pad_lo, *pad_hi;
};

/* Accumulated instruction times of one group, for --check. */
struct agg {
	double sum, err;
	unsigned long n;
};

/* One Summary row kept for --check (rows are few). */
struct row {
	char *op;
	unsigned long line;
	double total, etotal, mean, emean, pct, epct;
	long count;		/* -1: not printed */
	int pct_frac;
};

#define NTOT 16			/* the numeric totals fields */

/* The state of the report being read. */
struct run {
	int num;		/* "run" */
	int has_report;		/* perf lines, Summary or totals seen */
	int totals_done;	/* the Overhead: line was read */
	int in_perf, in_summary;
	int saw_header, saw_old_header, saw_program, old_groups;
	unsigned long seq_program, seq_perf, seq_trace, rank;
	struct strbuf header;	/* last module: "NAME" */
	/* The totals block. */
	int have_tot;
	unsigned long tot_line;
	struct strbuf tot[NTOT];
	struct strbuf rate_unit;
	unsigned tot_flags;
	unsigned cut_mask;	/* totals read from a cut line */
	/* --check */
	struct hmap groups;	/* group -> struct agg */
	struct agg code_object, all;
	unsigned long unfinished;	/* perf lines without a time */
	struct row *rows;
	size_t nrows, arows;
};

enum {
	T_BATCH, T_RATE, T_TOTAL, T_MIN, T_MAX, T_MEAN, T_MEDIAN, T_P90,
	T_P95, T_P99, T_INSTR, T_OVER, T_OVERC, T_OVERP, T_OVERCP, T_END
};

/*
 * Output of records (rec.c), built with ndw: the instruction record has
 * some 40 members and is the hot path, so keys take ndw's plain-key fast
 * path (NDW_PLAIN_KEYS: every key is a literal of this program).
 */
void rec_begin(struct migx *mx, const char *type, struct run *r,
    unsigned long line);
/* rec_begin() of an instruction record, with its section and seq. */
void rec_begin_instr(struct migx *mx, struct run *r, int perf,
    unsigned long seq);
void rec_flags(struct migx *mx, unsigned flags);
void rec_emit(struct migx *mx);
/* Copies the string literal z to d and moves d past it. */
#define LIT(d, z) (memcpy((d), (z), sizeof(z) - 1), (d) += sizeof(z) - 1)

static inline int
isdig(int c)
{
	return c >= '0' && c <= '9';
}


/*
 * What a byte is to the scanners, one table entry per byte: a bracket or
 * a comma (the low two bits: 0 for most bytes), a word byte (C_WORD).
 */
enum { BRK_OPEN = 1, BRK_CLOSE, BRK_COMMA, C_WORD = 4 };
extern const unsigned char char_class[256];

static inline int
brk_class(int c)
{
	return char_class[(unsigned char)c] & 3;
}

/* [A-Za-z0-9_] */
static inline int
isalnum_(int c)
{
	return char_class[(unsigned char)c] & C_WORD;
}

/* The first c of p[0..e), or NULL: memchr(), inline, with SSE2. */
static inline const char *
chr_next(const char *p, const char *e, char c)
{
#ifdef __SSE2__
	const __m128i k = _mm_set1_epi8(c);
	int m;

	for (; e - p >= 16; p += 16) {
		m = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(
		    (const __m128i *)(const void *)p), k));
		if (m != 0)
			return p + __builtin_ctz((unsigned)m);
	}
#endif
	for (; p < e; p++)
		if (*p == c)
			return p;
	return NULL;
}

/* Numbers (instr.c; put_num in shape.c). */
int num_token(const char *p, size_t n);		/* [-+]?digits... */
int json_num(const char *p, size_t n);		/* JSON takes it as it is */
int nonfinite_token(const char *p, size_t n);
void put_num(struct migx *mx, const char *key, const char *p, size_t n);
double tok_value(const char *p, size_t n, double *err);
/* Backwards from s[n] over a number-like token ("0.5", "nan(ind)"). */
size_t tok_back(const char *s, size_t n);
size_t sp_back(const char *s, size_t n);	/* over blanks */
int valid_tok(const char *p, size_t n);		/* a number or nonfinite */

/* Instructions (instr.c). */
/* Forwards from the opener at s[0] to its closer; -1 if unbalanced. */
long close_fwd(const char *s, size_t n);
int instr_parse(const char *s, size_t n, struct instr *in, struct sl *rest);
int suffix_peel(const char *s, size_t n, struct sl *time, struct sl *pct,
    int relaxed);
void instr_fields(struct migx *mx, const struct instr *in, const char *section,
    const char *header, int old_groups);
void instr_group(const struct instr *in, int old_groups, struct strbuf *out);

/* Summary rows, totals and --check (report.c). */
int summary_row(struct migx *mx, struct run *r, const char *s, size_t n,
    unsigned flags, int bare);
int totals_line(struct migx *mx, struct run *r, const char *s, size_t n);
void totals_emit(struct migx *mx, struct run *r);
void check_instr(struct run *r, const struct instr *in, int old_groups);
void check_run(struct migx *mx, struct run *r);
unsigned long check_count(void);
int totals_prefix(const char *s, size_t n);
void run_init(struct run *r);
void run_reset(struct run *r);
void run_release(struct run *r);

/*
 * The lines of the input (lines.c): each found, and looked at for what
 * needs a second look, in one pass over the bytes.  LN_CTL: a control
 * byte or one above 0x7f (ANSI codes, no-break spaces, any UTF-8);
 * LN_QUOTE: '"' or '\\' (JSON escapes both).
 */
enum { LN_CTL = 1, LN_QUOTE = 2 };
#define LINES_PAD ZIN_PAD
struct lines {
	struct zin *z;
	const char *lo, *hi;	/* the bytes at hand of the last line */
	size_t scan;		/* scanned of the line being looked for */
	unsigned cls;		/* of the scanned bytes */
	int eof;
	int no_newline;		/* the last line ended without a '\n' */
	/* Finds the '\n' (lines.c: with AVX2 when the processor has it). */
	size_t (*scan_fn)(struct lines *l, const char *p, size_t e);
};
void lines_init(struct lines *l, struct zin *z);
int lines_get(struct lines *l, const char **s, size_t *n, unsigned *cls);

/* Trace records (trace.c). */
int trace_line(struct migx *mx, struct run *r, const char *s, size_t n);
void trace_flush(struct migx *mx, struct run *r);
void trace_flag(unsigned flags);
void trace_release(void);

#endif

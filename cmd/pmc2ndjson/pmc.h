/*
 * pmc.h: what the parts of pmc2ndjson share: column headers, cell values
 * and the record writer.
 */
#ifndef PMC_H
#define PMC_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "csvr.h"
#include "hmap.h"
#include "err.h"
#include "jqf.h"
#include "strbuf.h"

struct pmc;

/* How a cell is written (docs/formats.md, "Value rules"). */
enum cell {
	CELL_NUM,	/* a JSON number or empty; anything else is bad */
	CELL_TEXT,	/* always a string (empty: null) */
	CELL_ANY,	/* a number when it looks like one, else a string */
	CELL_NCU	/* CELL_ANY after dropping thousands separators */
};

/* A header row: the names and, per column, its key written as ,"NAME": */
struct hdr {
	size_t n;
	char **name;
	size_t *namelen;
	char **key;
	size_t *keylen;
	unsigned char *text;	/* the column is a text column */
	unsigned char *keep;	/* the column is written (--columns) */
	size_t keysum;		/* the keys' total length */
	long ts, te;		/* Start_ and End_Timestamp, or -1 */
	struct arena mem;
};

/*
 * Takes the names from row.  With textcols, Kernel_Name, sig, obj, Node,
 * Counter_Name and their pass copies (obj_3) are text columns.  Returns 0,
 * or -1 with *dup set to a name that occurs twice.
 */
int hdr_init(struct pmc *pm, struct hdr *h, const struct csvr_row *row,
    int textcols, const char **dup);
void hdr_release(struct hdr *h);
/* Returns the column of name, or -1. */
long hdr_find(const struct hdr *h, const char *name);

/* 1 if s is a JSON number (RFC 8259 grammar), else 0. */
int is_number(const char *s, size_t len);
/* 1 if s is an optional '-' and digits only. */
int is_integer(const char *s, size_t len);
/*
 * Appends the value of a cell to sb under mode.  Returns 0, or -1 when
 * mode is CELL_NUM and the cell is not a number (sb is unchanged then).
 */
int put_cell(struct strbuf *sb, const char *s, size_t len, enum cell mode);
/*
 * Appends b - a as an exact integer when both are integers, else as the
 * double difference; null when either is empty.
 */
void put_diff(struct strbuf *sb, const char *a, size_t alen, const char *b,
    size_t blen);

/* Options and state of the run: main() owns it, every part gets it. */
struct pmc {
	struct bad_input bad;
	struct jqf *where;
	struct hmap *columns;	/* --columns, or NULL: every column */
	uint64_t records;	/* dispatch records written */
	int rc;
	FILE *out;		/* standard output or the file of -o */
	const char *label;	/* --label, or NULL */
	struct strbuf run;	/* ,"run":"NAME" of this input, or empty */
};

/* Is a column (or counter, or section) of this name written? */
int keep_column(struct pmc *pm, const char *name, size_t len);

/* Resets sb to {"type":"TYPE" and the input's "run" member. */
void rec_begin(struct pmc *pm, struct strbuf *sb, const char *type);
/* Sets the "run" of the records that follow (NULL: none). */
void set_run(struct pmc *pm, const char *name, size_t len);
/* Writes the record in sb (a complete object) as one line, if it passes. */
void emit(struct pmc *pm, struct strbuf *sb);
/* Reports a bad record at pos. */
#define bad(pm, pos, ...) bad_input(&(pm)->bad, (pos), __VA_ARGS__)

/* Reads one CSV row that is not a "==PROF==" line.  As csvr_next(). */
int next_row(struct csvr *r, struct csvr_row *row);
/*
 * Is the row that next_row() returned rc for good: no CSV error, and
 * from min to n fields for a header of n?  Reports a bad one.
 */
int row_ok(struct pmc *pm, struct csvr *r, int rc, const struct csvr_row *row,
    size_t min, size_t n);

/*
 * The counter CSV formats.  A format is one file that defines one
 * `const struct pmc_format format_<name>`, listed in the table formats[]
 * at the top of main.c; the first whose detect() accepts the header of
 * the input (a file, or a workload directory's pmc_perf.csv) reads it.
 * To add a format: write the file, declare it below, add it to the
 * table; the file and the directory input both find it there.
 */
struct pmc_input {
	const char *path;	/* the CSV, which may be opened again */
	const char *dir;	/* its workload directory, or NULL */
};

struct pmc_format {
	const char *name;	/* "rocpd" */
	int in_dirs;		/* may be a workload directory's pmc_perf.csv */
	/* 1 if the header h is this format's. */
	int (*detect)(const struct hdr *h);
	/* Reads the rows after the header (r, h) and writes the records. */
	void (*stream)(struct pmc *pm, struct csvr *r, struct hdr *h,
	    const struct pmc_input *in);
};

/* rocpd.c: the long format (Counter_Name, Counter_Value). */
extern const struct pmc_format format_rocpd;
/* ncu.c: Nsight Compute --page raw or details CSV. */
extern const struct pmc_format format_ncu;

#endif

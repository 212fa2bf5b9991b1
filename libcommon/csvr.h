/*
 * csvr.h: a CSV reader over libcsv in strict mode
 * (CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL).
 *
 * Input comes through zin (plain or gzip).  The parser is fed one line at a
 * time, so every row knows the line it started on; after a parse error the
 * reader reports it and restarts at the next line.  A line that is a whole
 * row of simple fields (no "" and no quoted newline) is split by csvr
 * itself, with the fields libcsv would give, and libcsv parses the rest
 * (csvr.c).  A UTF-8 BOM at the start is dropped; CRLF and LF both end a
 * row; quoted fields may hold commas, quotes ("") and newlines.  Fields
 * are taken as written (spaces are not trimmed); blank lines are skipped.
 * A quote inside an unquoted field or after a closing quote is a parse
 * error, as is a quoted field still open at the end of the file.  A row's
 * fields are valid until the next call.
 */
#ifndef CSVR_H
#define CSVR_H

#include <stddef.h>

#include "err.h"
#include "zin.h"

struct csvr_row {
	size_t n;		/* number of fields */
	char **f;		/* NUL-terminated fields */
	size_t *len;
	unsigned long line;	/* line the row starts on */
};

struct csvr {
	struct zin in;
	struct srcpos pos;	/* the current row's first line */
	void *priv;		/* parser state */
};

/* Opens path ("-": stdin).  Returns 0, or -1 with errno set. */
int csvr_open(struct csvr *r, const char *path);
void csvr_close(struct csvr *r);
/*
 * Returns 1 with the next row, 0 at EOF, or -1 on a bad row (r->pos and
 * csvr_error() tell where and why; the next call goes on after it).
 */
int csvr_next(struct csvr *r, struct csvr_row *row);
const char *csvr_error(struct csvr *r);
/* How many times libcsv's field buffers grew, in this process (tests). */
size_t csvr_buffer_grows(void);
/*
 * Between rows, reads lines without parsing them until the next one read
 * is line (the first line of a row, as an earlier read of the same file
 * found it); a reader of one part of a file skips the rest this way.
 * Returns 0, or -1 on a read error (csvr_error() tells).
 */
int csvr_skip_to(struct csvr *r, unsigned long line);

#endif

/*
 * zin.h: buffered input from a file or stdin, gzip-compressed or not.
 *
 * Compression is detected from the data (the gzip magic), not the name, so
 * "x.csv.gz", "x.json.gz" and gzip on a pipe all work.  Concatenated gzip
 * members are read in turn.  A line returned by zin_getline() points into
 * the reader's buffer and is valid until the next call.
 */
#ifndef ZIN_H
#define ZIN_H

#include <stddef.h>
#include <sys/types.h>

#include "strbuf.h"

struct zin {
	const char *name;	/* "<stdin>" for "-" */
	void *gz;		/* gzFile */
	char *buf;
	size_t cap, start, end;	/* unread bytes are buf[start..end) */
	struct strbuf spill;	/* a line longer than the buffer */
	int eof, err;
	int no_newline;		/* the last line ended at EOF without '\n' */
};

/* Opens path ("-" or NULL: stdin).  Returns 0, or -1 with errno set. */
int zin_open(struct zin *z, const char *path);
void zin_close(struct zin *z);
/* Reads up to n bytes.  Returns the count, 0 at EOF, -1 on error. */
ssize_t zin_read(struct zin *z, void *dst, size_t n);
/*
 * Reads one line without its '\n'.  Returns 1 with *line and *len set,
 * 0 at EOF, or -1 on a read error (errno set; zin_error() tells more).
 */
int zin_getline(struct zin *z, const char **line, size_t *len);
const char *zin_error(struct zin *z);

#endif

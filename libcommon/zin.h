/*
 * zin.h: buffered input from a file or stdin, gzip-compressed or not.
 *
 * Compression is detected from the data (the gzip magic), not the name, so
 * "x.csv.gz", "x.json.gz" and gzip on a pipe all work.  Concatenated gzip
 * members are read in turn; a member cut short is a read error.  A pipe
 * (or gzip) is read with read(2) and used as soon as it arrives, so a
 * reader at the end of a pipe works while the writer does (it never waits
 * for a full buffer).  A regular uncompressed file, named or on stdin, is
 * mapped instead, a window of ZIN_WIN bytes at a time (more for a longer
 * line), so its bytes are not copied and memory stays that of one window;
 * a file that shrinks under the mapping is a read error, not a SIGBUS.  A
 * line returned by zin_getline() points into the reader's buffer or
 * mapping and is valid until the next call.
 */
#ifndef ZIN_H
#define ZIN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bytes.h"
#include "strbuf.h"

/* Bytes after the last one zin_peek() shows that can always be read. */
#define ZIN_PAD 64
#define ZIN_WIN (4u << 20)	/* the mapped window, bytes */
#define ZIN_AHEAD 2048		/* bytes asked for ahead of the reader */

struct zin {
	const char *name;	/* "<stdin>" for "-" */
	int fd;
	void *zs;		/* z_stream while reading gzip, else NULL */
	unsigned char *raw;	/* compressed bytes raw[roff..rlen) */
	size_t roff, rlen;
	int detected;		/* the first bytes were looked at */
	int zdone;		/* the current gzip member ended */
	const char *msg;	/* what went wrong, for zin_error() */
	int syserr;		/* errno of a failed read(2) */
	char *buf;		/* rbuf, or into map */
	char *rbuf;		/* the read(2) buffer: cap + ZIN_PAD bytes */
	size_t cap, start, end;	/* unread bytes are buf[start..end) */
	struct strbuf spill;	/* a line longer than the buffer */
	int eof, err;
	int no_newline;		/* the last line ended at EOF without '\n' */
	/* A mapped file: buf is map + a page-aligned file offset moff. */
	int regular;		/* fstat() said a regular file */
	char *map;		/* NULL: read(2) into buf */
	size_t maplen, win;	/* the mapping with its pad; the window */
	off_t moff, msize;	/* where the map starts; the file's size */
	volatile sig_atomic_t bus;	/* SIGBUS in the map: the file shrank */
};

/* Opens path ("-" or NULL: stdin).  Returns 0, or -1 with errno set. */
int zin_open(struct zin *z, const char *path);
void zin_close(struct zin *z);
/*
 * Reads more input after the unread bytes, which stay unread but may move
 * (call zin_peek() again): returns the count of new bytes, 0 at EOF, -1
 * on a read error.  A line of any length can thus be gathered whole.
 */
ssize_t zin_fill(struct zin *z);
/* Reads up to n bytes.  Returns the count, 0 at EOF, -1 on error. */
ssize_t zin_read(struct zin *z, void *dst, size_t n);
/*
 * Reads one line without its '\n'.  Returns 1 with *line and *len set,
 * 0 at EOF, or -1 on a read error (errno set; zin_error() tells more).
 */
int zin_getline(struct zin *z, const char **line, size_t *len);
const char *zin_error(struct zin *z);
/*
 * The unread bytes at hand, without reading: sets *p and returns their
 * count.  A caller that finds a whole line in them, its '\n' included,
 * takes its n bytes with zin_take() instead of calling zin_getline().
 * ZIN_PAD bytes after them can be read too (for loads of a word or a
 * vector at a time), their value unspecified.
 */
static inline size_t
zin_peek(const struct zin *z, const char **p)
{
	*p = z->buf + z->start;
	return z->end - z->start;
}

/*
 * Asks for the cache lines ZIN_AHEAD bytes past the last n bytes the
 * reader took (up to ZIN_AHEAD of them), and two lines more, so that
 * each line is asked for once or twice before the reader gets there.  The
 * hardware's own prefetch does not keep a parser fed on these machines:
 * topn reads 10M span records a third faster with it.  A hint only: a
 * line past the bytes at hand is never read.
 */
PREFETCH_FN
zin_ahead(const struct zin *z, size_t n)
{
	uintptr_t q = (uintptr_t)(z->buf + z->start) + ZIN_AHEAD;
	uintptr_t e = q + 128;

	for (q -= n < ZIN_AHEAD ? n : ZIN_AHEAD; q < e; q += 64)
		__builtin_prefetch((const void *)q);
}

static inline void
zin_take(struct zin *z, size_t n)
{
	z->start += n;
	z->no_newline = 0;
	zin_ahead(z, n);
}

#endif

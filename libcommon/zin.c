/*
 * zin.c: buffered input, gzip-compressed or not, with zero-copy lines.
 *
 * Bytes come from read(2), which returns what a pipe holds rather than
 * waiting to fill the buffer, so the stages of a pipeline overlap.  When
 * the first bytes are the gzip magic, they go through zlib's inflate;
 * members follow one another until the input ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "err.h"
#include "progress.h"
#include "zin.h"
#include "xmem.h"

#define ZIN_BUF (256 * 1024)
#define ZIN_RAW (128 * 1024)

int
zin_open(struct zin *z, const char *path)
{
	struct stat st;
	int fd;

	memset(z, 0, sizeof(*z));
	z->fd = -1;
	strbuf_init(&z->spill, 0);
	if (path == NULL || strcmp(path, "-") == 0) {
		z->name = "<stdin>";
		fd = dup(STDIN_FILENO);
	} else {
		z->name = path;
		fd = open(path, O_RDONLY);
	}
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		errno = EISDIR;
		return -1;
	}
#ifdef F_SETPIPE_SZ
	/* A bigger pipe lets the writer run ahead; failure is harmless. */
	if (S_ISFIFO(st.st_mode))
		(void)fcntl(fd, F_SETPIPE_SZ, 1024 * 1024);
#endif
	z->fd = fd;
	if (progress_active())	/* a regular file shows a percentage */
		progress_input(fd);
	z->cap = ZIN_BUF;
	z->buf = xmalloc(z->cap);
	return 0;
}

void
zin_close(struct zin *z)
{
	if (z->zs != NULL) {
		inflateEnd(z->zs);
		free(z->zs);
		z->zs = NULL;
	}
	if (z->fd >= 0) {
		progress_input_end(z->fd);
		close(z->fd);
	}
	z->fd = -1;
	free(z->raw);
	z->raw = NULL;
	free(z->buf);
	z->buf = NULL;
	strbuf_release(&z->spill);
}

/* read(2) into dst, retrying on EINTR.  Returns the count, or -1. */
static ssize_t
sysread(struct zin *z, void *dst, size_t n)
{
	ssize_t got;

	do
		got = read(z->fd, dst, n);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		z->syserr = errno;
		z->msg = NULL;
		z->err = 1;
	}
	return got;
}

static int
gz_fail(struct zin *z, const char *msg)
{
	z->msg = msg;
	z->err = 1;
	errno = EIO;
	return -1;
}

/* Refills raw after its unread bytes.  Returns the count, 0 at EOF, -1. */
static ssize_t
raw_fill(struct zin *z)
{
	ssize_t got;

	if (z->roff > 0) {
		memmove(z->raw, z->raw + z->roff, z->rlen - z->roff);
		z->rlen -= z->roff;
		z->roff = 0;
	}
	got = sysread(z, z->raw + z->rlen, ZIN_RAW - z->rlen);
	if (got > 0)
		z->rlen += (size_t)got;
	return got;
}

/* Starts inflating when the input begins with the gzip magic. */
static int
detect(struct zin *z)
{
	z_stream *zs;
	ssize_t got;

	z->detected = 1;
	z->raw = xmalloc(ZIN_RAW);
	while (z->rlen < 2) {
		if ((got = raw_fill(z)) < 0)
			return -1;
		if (got == 0)
			break;
	}
	if (z->rlen < 2 || z->raw[0] != 0x1f || z->raw[1] != 0x8b) {
		/* Plain input: hand the bytes read so far to buf. */
		memcpy(z->buf + z->end, z->raw, z->rlen);
		z->end += z->rlen;
		free(z->raw);
		z->raw = NULL;
		z->rlen = 0;
		return 0;
	}
	zs = xcalloc(1, sizeof(*zs));
	if (inflateInit2(zs, 16 + MAX_WBITS) != Z_OK)
		die("out of memory");
	z->zs = zs;
	return 0;
}

/* Inflates into dst.  Returns the count (> 0), 0 at the end, or -1. */
static ssize_t
gz_read(struct zin *z, char *dst, size_t n)
{
	z_stream *zs = z->zs;
	ssize_t got;
	int rc;

	for (;;) {
		if (z->roff == z->rlen) {
			if ((got = raw_fill(z)) < 0)
				return -1;
			if (got == 0) {
				if (!z->zdone)
					return gz_fail(z, "gzip data cut short");
				return 0;
			}
		}
		if (z->zdone) {
			/* Another member follows, or junk after the data. */
			if (z->rlen - z->roff < 2 && raw_fill(z) < 0)
				return -1;
			if (z->rlen - z->roff < 2 || z->raw[z->roff] != 0x1f ||
			    z->raw[z->roff + 1] != 0x8b)
				return gz_fail(z, "trailing garbage after gzip data");
			inflateReset(zs);
			z->zdone = 0;
		}
		zs->next_in = z->raw + z->roff;
		zs->avail_in = (uInt)(z->rlen - z->roff);
		zs->next_out = (Bytef *)dst;
		zs->avail_out = (uInt)(n > UINT32_MAX ? UINT32_MAX : n);
		rc = inflate(zs, Z_NO_FLUSH);
		z->roff = z->rlen - zs->avail_in;
		if (rc == Z_STREAM_END)
			z->zdone = 1;
		else if (rc != Z_OK && rc != Z_BUF_ERROR)
			return gz_fail(z, zs->msg != NULL ? zs->msg :
			    "invalid gzip data");
		got = (ssize_t)((char *)zs->next_out - dst);
		if (got > 0)
			return got;
	}
}

/* Reads into dst from the source.  Returns the count, 0 at EOF, -1. */
static ssize_t
source_read(struct zin *z, char *dst, size_t n)
{
	if (z->err)
		return -1;
	if (z->zs != NULL)
		return gz_read(z, dst, n);
	return sysread(z, dst, n);
}

/* Reads more data into buf after the unread bytes.  Returns bytes read. */
static ssize_t
fill(struct zin *z)
{
	size_t before;
	ssize_t n;

	if (z->eof || z->err)
		return z->err ? -1 : 0;
	if (z->start > 0) {
		memmove(z->buf, z->buf + z->start, z->end - z->start);
		z->end -= z->start;
		z->start = 0;
	}
	if (!z->detected) {
		before = z->end;
		if (detect(z) != 0)
			return -1;
		if (z->end > before)
			return (ssize_t)(z->end - before);
	}
	n = source_read(z, z->buf + z->end, z->cap - z->end);
	if (n < 0)
		return -1;
	if (n == 0)
		z->eof = 1;
	z->end += (size_t)n;
	return n;
}

ssize_t
zin_read(struct zin *z, void *dst, size_t n)
{
	size_t have;

	if (!z->detected && fill(z) < 0)
		return -1;
	have = z->end - z->start;
	if (have > 0) {
		if (n > have)
			n = have;
		memcpy(dst, z->buf + z->start, n);
		z->start += n;
		return (ssize_t)n;
	}
	if (z->eof)
		return 0;
	n = source_read(z, dst, n);
	if (n == 0)
		z->eof = 1;
	return (ssize_t)n;
}

int
zin_getline(struct zin *z, const char **line, size_t *len)
{
	char *nl;
	size_t scanned = 0;

	z->no_newline = 0;
	strbuf_reset(&z->spill);
	for (;;) {
		nl = memchr(z->buf + z->start + scanned, '\n',
		    z->end - z->start - scanned);
		if (nl != NULL)
			break;
		scanned = z->end - z->start;
		if (scanned == z->cap) {
			/* The line fills the buffer: move it aside. */
			strbuf_add(&z->spill, z->buf + z->start, scanned);
			z->start = z->end = 0;
			scanned = 0;
		}
		if (fill(z) < 0) {
			errno = EIO;
			return -1;
		}
		if (z->eof && z->end - z->start == scanned) {
			if (scanned == 0 && z->spill.len == 0)
				return 0;
			z->no_newline = 1;
			nl = z->buf + z->end;
			break;
		}
	}
	if (z->spill.len > 0) {
		strbuf_add(&z->spill, z->buf + z->start,
		    (size_t)(nl - (z->buf + z->start)));
		*line = z->spill.buf;
		*len = z->spill.len;
	} else {
		*line = z->buf + z->start;
		*len = (size_t)(nl - (z->buf + z->start));
	}
	z->start = (size_t)(nl - z->buf) + (z->no_newline ? 0 : 1);
	return 1;
}

const char *
zin_error(struct zin *z)
{
	if (z->buf == NULL)
		return "not open";
	if (z->msg != NULL)
		return z->msg;
	if (z->syserr != 0)
		return strerror(z->syserr);
	return "read error";
}

/* zin.c: buffered input, gzip-compressed or not, with zero-copy lines. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "err.h"
#include "zin.h"

#define ZIN_BUF (256 * 1024)

int
zin_open(struct zin *z, const char *path)
{
	struct stat st;
	int fd;

	memset(z, 0, sizeof(*z));
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
	if ((z->gz = gzdopen(fd, "rb")) == NULL) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	gzbuffer(z->gz, ZIN_BUF);
	z->cap = ZIN_BUF;
	if ((z->buf = malloc(z->cap)) == NULL)
		die("out of memory");
	return 0;
}

void
zin_close(struct zin *z)
{
	if (z->gz != NULL)
		gzclose(z->gz);
	z->gz = NULL;
	free(z->buf);
	z->buf = NULL;
	strbuf_release(&z->spill);
}

/*
 * gzread() ends a gzip stream cut short like a normal end of file and only
 * gzerror() tells them apart (Z_BUF_ERROR, "unexpected end of file").
 */
static int
truncated(struct zin *z)
{
	int errnum;

	gzerror(z->gz, &errnum);
	return errnum == Z_BUF_ERROR;
}

/* Reads more data into buf after the unread bytes.  Returns bytes read. */
static ssize_t
fill(struct zin *z)
{
	int n;

	if (z->eof || z->err)
		return 0;
	if (z->start > 0) {
		memmove(z->buf, z->buf + z->start, z->end - z->start);
		z->end -= z->start;
		z->start = 0;
	}
	n = gzread(z->gz, z->buf + z->end, (unsigned)(z->cap - z->end));
	if (n < 0 || (n == 0 && truncated(z))) {
		z->err = 1;
		return -1;
	}
	if (n == 0)
		z->eof = 1;
	z->end += (size_t)n;
	return n;
}

ssize_t
zin_read(struct zin *z, void *dst, size_t n)
{
	size_t have = z->end - z->start;
	int got;

	if (have > 0) {
		if (n > have)
			n = have;
		memcpy(dst, z->buf + z->start, n);
		z->start += n;
		return (ssize_t)n;
	}
	if (z->eof)
		return 0;
	if (z->err)
		return -1;
	if (n > (size_t)1 << 30)
		n = (size_t)1 << 30;
	got = gzread(z->gz, dst, (unsigned)n);
	if (got < 0 || (got == 0 && truncated(z))) {
		z->err = 1;
		return -1;
	}
	if (got == 0)
		z->eof = 1;
	return got;
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
	int errnum;
	const char *msg;

	if (z->gz == NULL)
		return "not open";
	msg = gzerror(z->gz, &errnum);
	if (errnum == Z_ERRNO)
		return strerror(errno);
	return msg != NULL && *msg != '\0' ? msg : "read error";
}

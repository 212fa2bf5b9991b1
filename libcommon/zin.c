/*
 * zin.c: buffered input, gzip-compressed or not, with zero-copy lines.
 *
 * Bytes come from read(2), which returns what a pipe holds rather than
 * waiting to fill the buffer, so the stages of a pipeline overlap.  When
 * the first bytes are the gzip magic, they go through zlib's inflate;
 * members follow one another until the input ends.  A regular file that
 * is not gzip is mapped a window at a time (map_fill()): the unread bytes
 * of the old window start the new one, so a line is always whole in one
 * window, and the old window is unmapped so that resident memory stays
 * that of one.  The file offset follows the windows, as read(2) would
 * move it, for progress.c's percentage.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "err.h"
#include "progress.h"
#include "zin.h"
#include "xmem.h"

#define ZIN_BUF (256 * 1024)
#define ZIN_RAW (128 * 1024)
#define ZIN_MAPS 16		/* mapped readers open at once; more read(2) */

/*
 * The readers whose windows are mapped, for the SIGBUS handler: a file
 * cut short under its mapping faults on the pages past its new end.
 */
static struct zin *volatile maps[ZIN_MAPS];
static struct sigaction old_bus;
static size_t pagesz;

/*
 * A fault in a window: zero pages replace the rest of it, the reader is
 * marked, and the load that faulted reads zeros; the reader's next call
 * reports the error.  A fault anywhere else gets the action there was.
 */
static void
on_bus(int sig, siginfo_t *si, void *uc)
{
	char *a = si->si_addr, *pg;
	struct zin *z;
	size_t i;

	(void)sig;
	(void)uc;
	for (i = 0; i < ZIN_MAPS; i++) {
		if ((z = maps[i]) == NULL || a < z->map ||
		    a >= z->map + z->maplen)
			continue;
		pg = (char *)((uintptr_t)a & ~(uintptr_t)(pagesz - 1));
		if (mmap(pg, (size_t)(z->map + z->maplen - pg), PROT_READ,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
		    MAP_FAILED)
			break;
		z->bus = 1;
		return;
	}
	sigaction(SIGBUS, &old_bus, NULL);
}

/*
 * Puts z among the mapped readers, with on_bus() the SIGBUS handler (a
 * handler set since then is kept as the one to fall back to).  Returns
 * 0, or -1 when full.
 */
static int
maps_add(struct zin *z)
{
	struct sigaction sa;
	size_t i;

	for (i = 0; i < ZIN_MAPS && maps[i] != NULL; i++)
		;
	if (i == ZIN_MAPS || sigaction(SIGBUS, NULL, &sa) != 0)
		return -1;
	if ((sa.sa_flags & SA_SIGINFO) == 0 || sa.sa_sigaction != on_bus) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_bus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGBUS, &sa, &old_bus) != 0)
			return -1;
	}
	maps[i] = z;
	return 0;
}

static void
maps_remove(struct zin *z)
{
	size_t i;

	for (i = 0; i < ZIN_MAPS; i++)
		if (maps[i] == z)
			maps[i] = NULL;
}

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
	z->regular = S_ISREG(st.st_mode);
	if (progress_active())	/* a regular file shows a percentage */
		progress_input(fd);
	z->cap = ZIN_BUF;
	/* Zeroed: the pad past the data never holds undefined bytes. */
	z->buf = z->rbuf = xcalloc(1, z->cap + ZIN_PAD);
	z->win = ZIN_WIN;
	return 0;
}

static void
unmap(struct zin *z)
{
	if (z->map == NULL)
		return;
	maps_remove(z);
	munmap(z->map, z->maplen);
	z->map = NULL;
	z->buf = z->rbuf;
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
	unmap(z);
	free(z->raw);
	z->raw = NULL;
	free(z->buf);
	z->buf = z->rbuf = NULL;
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

/* The reader's mapping faulted: the file shrank, or a page read failed. */
static ssize_t
bus_fail(struct zin *z)
{
	struct stat st;

	if (!z->err) {
		z->err = 1;
		if (fstat(z->fd, &st) == 0 && st.st_size < z->msize)
			z->msg = "file shrank while being read";
		else
			z->syserr = EIO;
	}
	errno = EIO;
	return -1;
}

/*
 * Maps the window that starts with the unread bytes at file offset pos,
 * unread of them, and holds at least one more byte (there is one: the
 * caller knows the size).  The window is z->win bytes or, for a long
 * line, twice as many as often as it takes; a zero page follows the file
 * bytes, which gives the pad.  The old window goes.  Returns the count of
 * new bytes, or -1 with errno set.
 */
static ssize_t
map_window(struct zin *z, off_t pos, size_t unread)
{
	off_t woff = pos & ~(off_t)(pagesz - 1);
	size_t lead = (size_t)(pos - woff), len = z->win, maplen;
	char *p;

	while (len < lead + unread + 1)
		len *= 2;
	z->win = len;
	if ((off_t)len > z->msize - woff)
		len = (size_t)(z->msize - woff);
	maplen = (len + pagesz - 1) / pagesz * pagesz + pagesz;
	p = mmap(NULL, maplen, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	if (mmap(p, len, PROT_READ, MAP_PRIVATE | MAP_FIXED, z->fd, woff) ==
	    MAP_FAILED) {
		munmap(p, maplen);
		return -1;
	}
	(void)madvise(p, len, MADV_SEQUENTIAL);
	if (z->map != NULL)
		munmap(z->map, z->maplen);
	z->map = z->buf = p;
	z->maplen = maplen;
	z->moff = woff;
	z->start = lead;
	z->end = len;
	(void)lseek(z->fd, woff + (off_t)len, SEEK_SET);
	return (ssize_t)(len - lead - unread);
}

/*
 * Maps the first window of a regular file that is not gzip, from the
 * file offset (stdin may be past the start).  Returns the count of bytes
 * mapped, or 0 for the read(2) path: an empty or special file (sizes of 0
 * in /proc), no mapping to be had, gzip.
 */
static ssize_t
map_start(struct zin *z)
{
	struct stat st;
	off_t off;
	ssize_t n;

	if (pagesz == 0)
		pagesz = (size_t)sysconf(_SC_PAGESIZE);
	if (pagesz < ZIN_PAD || (off = lseek(z->fd, 0, SEEK_CUR)) < 0 ||
	    fstat(z->fd, &st) != 0 || st.st_size <= off || maps_add(z) != 0)
		return 0;
	z->msize = st.st_size;
	if ((n = map_window(z, off, 0)) <= 0 || (n >= 2 &&
	    (unsigned char)z->buf[z->start] == 0x1f &&
	    (unsigned char)z->buf[z->start + 1] == 0x8b)) {
		unmap(z);
		z->start = z->end = 0;
		(void)lseek(z->fd, off, SEEK_SET);
		return 0;
	}
	z->detected = 1;
	return n;
}

/*
 * The next window of a mapped file.  The size is asked again each time:
 * a file that grew is read on, one that shrank is an error.
 */
static ssize_t
map_fill(struct zin *z)
{
	struct stat st;
	ssize_t n;

	if (fstat(z->fd, &st) != 0) {
		z->syserr = errno;
		z->err = 1;
		return -1;
	}
	if (st.st_size < z->msize)
		return bus_fail(z);
	z->msize = st.st_size;
	if (z->moff + (off_t)z->end >= z->msize) {
		z->eof = 1;
		return 0;
	}
	n = map_window(z, z->moff + (off_t)z->start, z->end - z->start);
	if (n < 0) {
		z->syserr = errno;
		z->err = 1;
	}
	return n;
}

/* Reads more data into buf after the unread bytes.  Returns bytes read. */
static ssize_t
fill(struct zin *z)
{
	size_t before;
	ssize_t n;

	if (z->bus)
		return bus_fail(z);
	if (z->eof || z->err)
		return z->err ? -1 : 0;
	if (z->map != NULL)
		return map_fill(z);
	if (!z->detected && z->regular && (n = map_start(z)) > 0)
		return n;
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
	if (have == 0 && z->map != NULL) {
		if (fill(z) <= 0)
			return z->err ? -1 : 0;
		have = z->end - z->start;
	}
	if (have > 0) {
		if (n > have)
			n = have;
		memcpy(dst, z->buf + z->start, n);
		if (z->bus)
			return bus_fail(z);
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
	size_t scanned = 0, n;

	z->no_newline = 0;
	strbuf_reset(&z->spill);
	for (;;) {
		nl = memchr(z->buf + z->start + scanned, '\n',
		    z->end - z->start - scanned);
		if (z->bus) {
			errno = EIO;
			return (int)bus_fail(z);
		}
		if (nl != NULL)
			break;
		scanned = z->end - z->start;
		if (scanned == z->cap && z->map == NULL) {
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
	n = z->start;
	z->start = (size_t)(nl - z->buf) + (z->no_newline ? 0 : 1);
	zin_ahead(z, z->start - n);
	return 1;
}

ssize_t
zin_fill(struct zin *z)
{
	if (z->map == NULL && z->detected && z->start == 0 &&
	    z->end == z->cap && !z->eof && !z->err) {
		/* The unread bytes fill the buffer: make room for more. */
		z->rbuf = xrealloc(z->rbuf, 2 * z->cap + ZIN_PAD);
		memset(z->rbuf + z->cap, 0, z->cap + ZIN_PAD);
		z->buf = z->rbuf;
		z->cap *= 2;
	}
	return fill(z);
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

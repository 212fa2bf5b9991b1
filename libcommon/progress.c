/* progress.c: a progress line on stderr for long work. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "progress.h"

#define FIRST_NS 1000000000ULL	/* nothing is shown for the first second */
#define EVERY_NS 250000000ULL	/* then at most four updates a second */
#define SLOTS 8			/* lines of one terminal, one per stage */

static struct {
	int on;
	int tty;		/* stderr is a terminal: a line of our own */
	int slot;		/* lines below the cursor's, -1 if no lock */
	const char *what;
	uint64_t start, next;
	uint64_t total;		/* units in all, 0 if unknown */
	int fd;			/* the regular input file, or -1 */
	uint64_t size;		/* its size in bytes */
	int shown;		/* length of the line on screen, 0 if none */
} pg = { .fd = -1 };

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Writes s to the terminal in one write(2), so stages do not interleave. */
static void
put(const char *s, size_t n)
{
	ssize_t w;

	fflush(stderr);
	while (n > 0) {
		if ((w = write(STDERR_FILENO, s, n)) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

/*
 * The terminal's line for this stage: a stage takes the first of SLOTS
 * byte locks on the terminal that no other process holds (fcntl locks go
 * with the process, so a stage that dies gives its line back), and draws
 * that many lines below the cursor.  Returns the slot, 0 when the
 * terminal takes no locks, -1 when every line is taken.
 */
static int
claim_slot(void)
{
	struct flock fl;
	int i;

	for (i = 0; i < SLOTS; i++) {
		memset(&fl, 0, sizeof(fl));
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		fl.l_start = i;
		fl.l_len = 1;
		if (fcntl(STDERR_FILENO, F_SETLK, &fl) == 0)
			return i;
		if (errno != EACCES && errno != EAGAIN)
			return 0;
	}
	return -1;
}

/*
 * Draws text on this stage's line: down slot lines, the text, clear to
 * the end of the line, and back up to the cursor's line.
 */
static void
draw(const char *text)
{
	char buf[512];
	int n = 0, i;

	for (i = 0; i < pg.slot && n < 16; i++)
		buf[n++] = '\n';
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, "\r%s\033[K", text);
	if (n >= (int)sizeof(buf) - 16)
		n = (int)sizeof(buf) - 16;
	if (pg.slot > 0)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "\033[%dA\r",
		    pg.slot);
	put(buf, (size_t)n);
}

/*
 * Wipes the line; err.c calls it before a message.  On a terminal every
 * stage's line below the cursor goes (the message is written there and
 * moves the lines down; each stage draws its own again at its next
 * update).
 */
static void
progress_clear(void)
{
	if (pg.shown == 0)
		return;
	if (pg.tty)
		put("\r\033[J", 4);
	else {
		fprintf(stderr, "\r%*s\r", pg.shown, "");
		fflush(stderr);
	}
	pg.shown = 0;
}

/* The first-second rule; PROFPIPE_PROGRESS_DELAY (seconds) changes it. */
static uint64_t
first_ns(void)
{
	const char *s = getenv("PROFPIPE_PROGRESS_DELAY");
	char *end;
	double d;

	if (s == NULL || *s == '\0')
		return FIRST_NS;
	d = strtod(s, &end);
	if (*end != '\0' || !(d >= 0 && d <= 1e6))
		return FIRST_NS;
	return (uint64_t)(d * 1e9);
}

void
progress_init(int mode, const char *what)
{
	pg.tty = isatty(STDERR_FILENO);
	pg.on = mode == PROGRESS_AUTO ? pg.tty : mode;
	pg.what = what != NULL ? what : "records";
	pg.shown = 0;
	pg.total = 0;
	pg.slot = 0;
	if (pg.on && pg.tty && (pg.slot = claim_slot()) < 0)
		pg.on = 0;
	if (pg.on) {
		pg.start = now_ns();
		pg.next = pg.start + first_ns();
		err_before_msg = progress_clear;
	}
}

int
progress_active(void)
{
	return pg.on;
}

void
progress_total(uint64_t n)
{
	pg.total += n;
}

void
progress_input(int fd)
{
	struct stat st;

	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size <= 0) {
		pg.fd = -1;
		return;
	}
	pg.fd = fd;
	pg.size = (uint64_t)st.st_size;
}

void
progress_input_end(int fd)
{
	if (fd == pg.fd)
		pg.fd = -1;
}

/* The percentage done, or -1 when the total is not known. */
static int
percent(uint64_t done)
{
	off_t off;

	if (pg.total > 0)
		return done >= pg.total ? 100 : (int)(done * 100 / pg.total);
	if (pg.fd >= 0 && (off = lseek(pg.fd, 0, SEEK_CUR)) >= 0)
		return (uint64_t)off >= pg.size ? 100 :
		    (int)((uint64_t)off * 100 / pg.size);
	return -1;
}

void
progress_update(uint64_t done, uint64_t bytes)
{
	char line[256], part[64];
	uint64_t t;
	int n, pct;

	if (!pg.on || (t = now_ns()) < pg.next)
		return;
	pg.next = t + EVERY_NS;
	n = snprintf(line, sizeof(line), "%s: %llu %s", prog_name,
	    (unsigned long long)done, pg.what);
	if (bytes > 0) {
		snprintf(part, sizeof(part), ", %.1f MB", (double)bytes / 1e6);
		n += snprintf(line + n, sizeof(line) - (size_t)n, "%s", part);
	}
	if ((pct = percent(done)) >= 0 && n < (int)sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", %d%%",
		    pct);
	if (n < (int)sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", %.0f s",
		    (double)(t - pg.start) / 1e9);
	if (n >= (int)sizeof(line))
		n = (int)sizeof(line) - 1;
	if (pg.tty)
		draw(line);
	else {
		/* Pad over a longer line shown before. */
		fprintf(stderr, "\r%s%*s", line, pg.shown > n ?
		    pg.shown - n : 0, "");
		fflush(stderr);
	}
	if (n > pg.shown)
		pg.shown = n;
}

void
progress_done(void)
{
	struct flock fl;

	if (!pg.on)
		return;
	if (pg.tty && pg.shown > 0) {
		draw("");
		pg.shown = 0;
	}
	progress_clear();
	if (pg.tty) {
		memset(&fl, 0, sizeof(fl));
		fl.l_type = F_UNLCK;
		fl.l_whence = SEEK_SET;
		fl.l_start = pg.slot;
		fl.l_len = 1;
		(void)fcntl(STDERR_FILENO, F_SETLK, &fl);
	}
	err_before_msg = NULL;
	pg.on = 0;
}

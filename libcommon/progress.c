/* progress.c: a progress line on stderr for long work. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "progress.h"

#define FIRST_NS 1000000000ULL	/* nothing is shown for the first second */
#define EVERY_NS 250000000ULL	/* then at most four updates a second */

static struct {
	int on;
	const char *what;
	uint64_t start, next;
	int shown;		/* length of the line on screen, 0 if none */
} pg;

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Wipes the line; err.c calls it before a message. */
static void
progress_clear(void)
{
	if (pg.shown > 0) {
		fprintf(stderr, "\r%*s\r", pg.shown, "");
		fflush(stderr);
		pg.shown = 0;
	}
}

void
progress_init(int mode, const char *what)
{
	pg.on = mode == PROGRESS_AUTO ? isatty(STDERR_FILENO) : mode;
	pg.what = what != NULL ? what : "records";
	pg.shown = 0;
	if (pg.on) {
		pg.start = now_ns();
		pg.next = pg.start + FIRST_NS;
		err_before_msg = progress_clear;
	}
}

void
progress_update(uint64_t done, uint64_t bytes)
{
	uint64_t t;
	double secs;
	int n;

	if (!pg.on || (t = now_ns()) < pg.next)
		return;
	pg.next = t + EVERY_NS;
	secs = (double)(t - pg.start) / 1e9;
	if (bytes > 0)
		n = fprintf(stderr, "\r%s: %llu %s, %.1f MB, %.0f s",
		    prog_name, (unsigned long long)done, pg.what,
		    (double)bytes / 1e6, secs);
	else
		n = fprintf(stderr, "\r%s: %llu %s, %.0f s", prog_name,
		    (unsigned long long)done, pg.what, secs);
	/* Pad over a longer line shown before. */
	if (n - 1 < pg.shown)
		fprintf(stderr, "%*s", pg.shown - (n - 1), "");
	if (n - 1 > pg.shown)
		pg.shown = n - 1;
	fflush(stderr);
}

void
progress_done(void)
{
	if (!pg.on)
		return;
	progress_clear();
	err_before_msg = NULL;
	pg.on = 0;
}

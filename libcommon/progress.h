/*
 * progress.h: progress on stderr for long work.
 *
 * Shown only when enabled: by default when stderr is a terminal,
 * --progress forces it on and --no-progress off.  Nothing is shown for
 * the first second (quick runs stay quiet; the environment variable
 * PROFPIPE_PROGRESS_DELAY sets other seconds); then the line is rewritten
 * at most four times a second, wiped before any message from err.h, and
 * cleared by progress_done().  On a terminal each stage of a pipeline
 * has a line of its own: the first free one of eight below the cursor's
 * (a byte lock on the terminal per line).  The line shows a percentage
 * when the total is known: units given to progress_total(), else the
 * bytes read of the regular file progress_input() names.
 */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stdint.h>

enum { PROGRESS_AUTO = -1, PROGRESS_OFF = 0, PROGRESS_ON = 1 };

/* mode is PROGRESS_AUTO, _OFF or _ON; what names the unit ("records"). */
void progress_init(int mode, const char *what);
/* Records that done units (and bytes of input, 0 if unknown) are done. */
void progress_update(uint64_t done, uint64_t bytes);
void progress_done(void);
/* 1 when the line is enabled (worth counting a total for). */
int progress_active(void);
/* Adds n to the units to do in all. */
void progress_total(uint64_t n);
/* The input being read is fd (zin does this; not a regular file: none). */
void progress_input(int fd);
/* fd is closed. */
void progress_input_end(int fd);

#endif

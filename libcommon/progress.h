/*
 * progress.h: progress on stderr for long work.
 *
 * Shown only when enabled: by default when stderr is a terminal,
 * --progress forces it on and --no-progress off.  Nothing is shown for
 * the first second (quick runs stay quiet); then the line is rewritten with
 * '\r' at most four times a second, wiped before any message from err.h,
 * and cleared by progress_done().
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

#endif

/*
 * ofile.h: the output file of -o FILE, written whole or not at all.
 *
 * ofile_open() creates a temporary file beside path (".name.XXXXXX", mode
 * 0666 less the umask); ofile_close() flushes it and renames it over path.
 * If the program exits before that (die(), exit()), is ended by a signal
 * (SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGQUIT, abort(), a crash) or, in a
 * sanitizer build, by a sanitizer report, the temporary file is removed,
 * so a failed run never leaves half a file or a stray temporary file, and
 * an old file at path stays as it was.  Only SIGKILL leaves it.  A path that
 * names a device or a FIFO (/dev/null, /dev/stdout) is written directly.
 * With path NULL or "-" the output is stdout, and ofile_close() leaves it
 * to close_stdout().
 */
#ifndef OFILE_H
#define OFILE_H

#include <stdio.h>

struct ofile {
	char *path, *tmp;
	FILE *fp;
};

/* Dies with a message if the file cannot be created. */
FILE *ofile_open(struct ofile *o, const char *path);
/* Returns 0, or -1 after a message (the temporary file is removed). */
int ofile_close(struct ofile *o);
/*
 * ofile_close() for a run that ends with exit status rc: when rc is not
 * 0 and nothing was written, the file at path is neither created nor
 * replaced (one line says so).  Returns rc, or EXIT_FAILURE when closing
 * fails.
 */
int ofile_finish(struct ofile *o, int rc);
/*
 * Removes path, another temporary file of the program's (spool.h), at exit
 * and on the signals above, until ofile_untrack_tmp(path); path must stay
 * valid until then.
 */
void ofile_track_tmp(char *path);
void ofile_untrack_tmp(const char *path);

#endif

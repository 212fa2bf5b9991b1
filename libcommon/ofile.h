/*
 * ofile.h: the output file of -o FILE, written whole or not at all.
 *
 * ofile_open() creates a temporary file beside path; ofile_close() flushes
 * it and renames it over path.  If the program exits before that (die(),
 * a signal aside), the temporary file is removed, so a failed run never
 * leaves half a file.  With path NULL or "-" the output is stdout.
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

#endif

/*
 * flist.h: the input files of a program: its file arguments, then the
 * paths listed in the file of --files-from (one per line, as tar's and
 * rsync's option reads them), so a merge of 10,000 per-rank files does
 * not meet the kernel's argument limit.
 *
 * The list is read one line at a time as the program asks for the next
 * path, never held whole.  Blank lines are skipped; a line is a path as
 * written (no quoting, no trimming of spaces).  List "-" is standard
 * input, which then cannot also be an input file.  With no file argument
 * and no list, the one input is standard input ("-").
 */
#ifndef FLIST_H
#define FLIST_H

#include <stdio.h>

#include "err.h"
#include "strbuf.h"

struct flist {
	char **argv;		/* the file arguments not yet returned */
	int argc;
	const char *from;	/* --files-from's argument, or NULL */
	FILE *fp;		/* the list, once opened */
	struct srcpos pos;	/* the list's name and current line */
	struct strbuf line;
	unsigned long count;	/* paths returned so far */
	int state;
};

/*
 * Opens the list (from may be NULL).  Dies (exit 1) when it cannot be
 * opened, before the program has written anything, and exits 2 when the
 * list is standard input and "-" is also a file argument.
 */
void flist_init(struct flist *fl, int argc, char *argv[], const char *from);
/*
 * The next input path, valid until the next call, or NULL when there is
 * none left.  A read error of the list, or "-" in a list read from
 * standard input, is reported with the list's position and sets
 * fl->failed; the list then ends.
 */
const char *flist_next(struct flist *fl);
/*
 * Closes the list.  Returns 0, or -1 when reading it failed or when no
 * path at all was given (an empty list and no file argument: a merge of
 * nothing is a mistake, said in one line).
 */
int flist_release(struct flist *fl);

#endif

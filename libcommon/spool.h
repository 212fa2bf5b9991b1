/*
 * spool.h: standard input copied to a temporary file, for readers that
 * need a file to open by name or to read twice (SQLite, a two-pass CSV
 * reader).
 *
 * spool_stdin() copies all of standard input to "$TMPDIR/prog.XXXXXX"
 * (/tmp when TMPDIR is unset or empty) and returns the file's path, or
 * NULL after a message.  spool_remove() unlinks the file and frees the
 * path.  Should the program end first (die(), exit(), SIGHUP, SIGINT,
 * SIGTERM), the file is removed all the same (ofile.h).
 */
#ifndef SPOOL_H
#define SPOOL_H

char *spool_stdin(void);
void spool_remove(char *path);

#endif

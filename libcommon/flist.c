/* flist.c: file arguments, then the paths of --files-from. */
#include <errno.h>
#include <string.h>

#include "flist.h"

enum { FL_ARGS, FL_LIST, FL_DONE, FL_FAILED };

void
flist_init(struct flist *fl, int argc, char *argv[], const char *from)
{
	int i;

	memset(fl, 0, sizeof(*fl));
	fl->argv = argv;
	fl->argc = argc;
	fl->from = from;
	strbuf_init(&fl->line, 256);
	if (from == NULL)
		return;
	if (strcmp(from, "-") == 0) {
		for (i = 0; i < argc; i++)
			if (strcmp(argv[i], "-") == 0)
				die_usage("'-' is both an input and the "
				    "list of --files-from");
		fl->fp = stdin;
		fl->pos.file = "<stdin>";
		return;
	}
	if ((fl->fp = fopen(from, "r")) == NULL)
		die_errno("cannot open '%s'", from);
	fl->pos.file = from;
}

/* The next non-blank line of the list, or NULL. */
static const char *
list_next(struct flist *fl)
{
	for (;;) {
		errno = 0;
		if (strbuf_getline(&fl->line, fl->fp) == EOF) {
			if (ferror(fl->fp)) {
				warn("cannot read '%s': %s", fl->pos.file,
				    strerror(errno ? errno : EIO));
				fl->state = FL_FAILED;
			} else
				fl->state = FL_DONE;
			return NULL;
		}
		fl->pos.line++;
		if (fl->line.len == 0)
			continue;
		if (fl->fp == stdin && strcmp(fl->line.buf, "-") == 0) {
			warn_at(&fl->pos, "'-' in a list read from standard "
			    "input");
			fl->state = FL_FAILED;
			return NULL;
		}
		return fl->line.buf;
	}
}

const char *
flist_next(struct flist *fl)
{
	const char *p = NULL;

	if (fl->state == FL_ARGS) {
		if (fl->argc > 0) {
			fl->argc--;
			p = *fl->argv++;
		} else if (fl->from != NULL)
			fl->state = FL_LIST;
		else if (fl->count == 0)
			p = "-";
		else
			fl->state = FL_DONE;
	}
	if (p == NULL && fl->state == FL_LIST)
		p = list_next(fl);
	if (p != NULL)
		fl->count++;
	return p;
}

int
flist_release(struct flist *fl)
{
	int rc = fl->state == FL_FAILED ? -1 : 0;

	if (rc == 0 && fl->from != NULL && fl->count == 0) {
		warn("no input: the list '%s' names no file", fl->pos.file);
		rc = -1;
	}

	if (fl->fp != NULL && fl->fp != stdin)
		fclose(fl->fp);
	fl->fp = NULL;
	strbuf_release(&fl->line);
	return rc;
}

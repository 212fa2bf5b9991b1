/* spool.c: standard input copied to a temporary file. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "err.h"
#include "ofile.h"
#include "spool.h"
#include "strbuf.h"

/* Copies standard input to fd.  Returns 0, or -1 after a message. */
static int
copy_stdin(int fd, const char *path)
{
	char buf[65536];
	ssize_t n;

	while ((n = read(STDIN_FILENO, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			warn_errno("cannot read '<stdin>'");
			return -1;
		}
		if (write(fd, buf, (size_t)n) != n) {
			warn_errno("cannot write '%s'", path);
			return -1;
		}
	}
	return 0;
}

char *
spool_stdin(void)
{
	const char *dir = getenv("TMPDIR");
	struct strbuf path = STRBUF_INIT;
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	strbuf_addf(&path, "%s/%s.XXXXXX", dir, prog_name);
	if ((fd = mkstemp(path.buf)) < 0)
		die_errno("cannot create a temporary file in '%s'", dir);
	ofile_track_tmp(path.buf);
	if (copy_stdin(fd, path.buf) != 0) {
		close(fd);
		spool_remove(strbuf_detach(&path, NULL));
		return NULL;
	}
	if (close(fd) != 0) {
		warn_errno("cannot write '%s'", path.buf);
		spool_remove(strbuf_detach(&path, NULL));
		return NULL;
	}
	return strbuf_detach(&path, NULL);
}

void
spool_remove(char *path)
{
	if (path == NULL)
		return;
	unlink(path);
	ofile_untrack_tmp(path);
	free(path);
}

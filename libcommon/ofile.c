/* ofile.c: the output file of -o FILE, written whole or not at all. */
#include <sys/stat.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "ofile.h"
#include "xmem.h"

/*
 * Temporary files not yet renamed, removed at exit, on the signals that
 * end a program (SIGHUP, SIGINT, SIGTERM, SIGPIPE when stderr is a closed
 * pipe, SIGQUIT, an abort() or a crash) and, in a sanitizer build, before
 * a sanitizer report ends the program with _exit().  A fixed table keeps
 * the signal handler to unlink() alone.
 */
#define MAX_PENDING 16
static char *volatile pending[MAX_PENDING];
static int hooked;

/* Set by the sanitizer runtimes; NULL in a plain build. */
void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

static void
remove_pending(void)
{
	int i;

	for (i = 0; i < MAX_PENDING; i++)
		if (pending[i] != NULL) {
			unlink(pending[i]);
			pending[i] = NULL;
		}
}

static void
on_signal(int sig)
{
	remove_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
hook(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE,
	    SIGQUIT, SIGABRT, SIGXCPU, SIGXFSZ, SIGSEGV, SIGBUS, SIGFPE,
	    SIGILL };
	struct sigaction sa;
	size_t i;

	if (hooked)
		return;
	hooked = 1;
	atexit(remove_pending);
	if (__sanitizer_set_death_callback != NULL)
		__sanitizer_set_death_callback(remove_pending);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		/* Leave alone a signal the caller ignores (nohup) and one
		 * with a handler of its own (a sanitizer's SIGSEGV). */
		if (sigaction(sigs[i], NULL, &old) != 0 ||
		    old.sa_handler != SIG_DFL)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

static void
pending_set(const char *tmp, char *val)
{
	int i;

	for (i = 0; i < MAX_PENDING; i++)
		if (pending[i] == tmp) {
			pending[i] = val;
			return;
		}
}

/* Makes "dir/.base.XXXXXX" for path "dir/base". */
static char *
tmp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash != NULL ? (size_t)(slash - path) + 1 : 0;
	size_t n = strlen(path) + 16;
	char *t = xmalloc(n);

	snprintf(t, n, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
	return t;
}

/*
 * Opens the temporary file with the mode a new file would get (0666 less
 * the umask; mkstemp gives 0600).
 */
static FILE *
tmp_open(struct ofile *o)
{
	mode_t mask;
	FILE *fp;
	int fd, i;

	for (i = 0; i < MAX_PENDING && pending[i] != NULL; i++)
		;
	if (i == MAX_PENDING)
		die("too many output files");
	o->tmp = tmp_name(o->path);
	if ((fd = mkstemp(o->tmp)) == -1)
		die_errno("cannot create '%s'", o->path);
	ofile_track_tmp(o->tmp);
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) == -1 || (fp = fdopen(fd, "w")) == NULL)
		die_errno("cannot create '%s'", o->path);
	return fp;
}

void
ofile_track_tmp(char *path)
{
	int i;

	hook();
	for (i = 0; i < MAX_PENDING && pending[i] != NULL; i++)
		;
	if (i == MAX_PENDING)
		die("too many temporary files");
	pending[i] = path;
}

void
ofile_untrack_tmp(const char *path)
{
	pending_set(path, NULL);
}

FILE *
ofile_open(struct ofile *o, const char *path)
{
	struct stat st;

	o->path = o->tmp = NULL;
	if (path == NULL || strcmp(path, "-") == 0) {
		o->fp = stdout;
		return o->fp;
	}
	hook();
	o->path = xstrdup(path);
	/*
	 * A device or a FIFO (-o /dev/null, -o /dev/stdout) cannot be
	 * replaced by a rename: it is written directly.
	 */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if ((o->fp = fopen(path, "w")) == NULL)
			die_errno("cannot open '%s'", path);
		return o->fp;
	}
	o->fp = tmp_open(o);
	return o->fp;
}

static void
ofile_free(struct ofile *o)
{
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->fp = NULL;
}

int
ofile_finish(struct ofile *o, int rc)
{
	struct stat st;

	if (rc != EXIT_SUCCESS && o->fp != NULL && o->tmp != NULL &&
	    ftello(o->fp) == 0) {
		fclose(o->fp);
		unlink(o->tmp);
		pending_set(o->tmp, NULL);
		warn("nothing to write: '%s' %s", o->path,
		    stat(o->path, &st) == 0 ? "left as it was" :
		    "not created");
		ofile_free(o);
		return rc;
	}
	return ofile_close(o) != 0 ? EXIT_FAILURE : rc;
}

int
ofile_close(struct ofile *o)
{
	int bad = 0, e = 0;

	if (o->fp == NULL)
		return 0;
	if (o->fp == stdout) {
		/* close_stdout() at the end of main reports errors. */
		o->fp = NULL;
		return 0;
	}
	if (fflush(o->fp) != 0 || ferror(o->fp)) {
		bad = 1;
		e = errno;
	}
	if (fclose(o->fp) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad && o->tmp != NULL && rename(o->tmp, o->path) != 0) {
		bad = 1;
		e = errno;
	}
	if (o->tmp != NULL) {
		if (bad)
			unlink(o->tmp);
		pending_set(o->tmp, NULL);
	}
	if (bad) {
		errno = e != 0 ? e : EIO;
		warn_errno("cannot write '%s'", o->path);
	}
	ofile_free(o);
	return bad ? -1 : 0;
}

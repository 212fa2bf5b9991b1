/* err.c: messages, exit codes and the bad-record policy. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>

#include "err.h"

const char *prog_name = "profpipe";
void (*err_before_msg)(void);
static void (*err_usage)(int);

void
prog_init(const char *argv0)
{
	struct sigaction sa;
	const char *slash;

	if (argv0 != NULL && *argv0 != '\0') {
		slash = strrchr(argv0, '/');
		prog_name = slash != NULL ? slash + 1 : argv0;
	}
	/* Undoes an inherited SIG_IGN; a handler set before (ofile.c's,
	 * which ends the program the same way) stays. */
	if (sigaction(SIGPIPE, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
		signal(SIGPIPE, SIG_DFL);
}

void
prog_usage(void (*usage)(int))
{
	err_usage = usage;
}

static void vmsg(const struct srcpos *pos, const char *fmt, va_list ap,
    int errnum) PRINTF_LIKE(2, 0);

static void
vmsg(const struct srcpos *pos, const char *fmt, va_list ap, int errnum)
{
	fflush(stdout);
	if (err_before_msg != NULL)
		err_before_msg();
	fprintf(stderr, "%s: ", prog_name);
	if (pos != NULL)
		fprintf(stderr, "%s:%lu: ", pos->file, pos->line);
	vfprintf(stderr, fmt, ap);
	if (errnum != 0)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
}

void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(NULL, fmt, ap, 0);
	va_end(ap);
	exit(EXIT_FAILURE);
}

void
die_errno(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	vmsg(NULL, fmt, ap, e);
	va_end(ap);
	exit(EXIT_FAILURE);
}

void
die_at(const struct srcpos *pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(pos, fmt, ap, 0);
	va_end(ap);
	exit(EXIT_FAILURE);
}

void
die_usage(const char *fmt, ...)
{
	va_list ap;

	if (fmt != NULL) {
		va_start(ap, fmt);
		vmsg(NULL, fmt, ap, 0);
		va_end(ap);
	}
	if (err_usage != NULL)
		err_usage(EXIT_USAGE);
	exit(EXIT_USAGE);
}

void
warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(NULL, fmt, ap, 0);
	va_end(ap);
}

void
warn_errno(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	vmsg(NULL, fmt, ap, e);
	va_end(ap);
}

void
warn_at(const struct srcpos *pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(pos, fmt, ap, 0);
	va_end(ap);
}

void
bad_input(struct bad_input *b, const struct srcpos *pos, const char *fmt, ...)
{
	va_list ap;

	b->count++;
	if (b->strict || b->count <= b->max_warn) {
		va_start(ap, fmt);
		vmsg(pos, fmt, ap, 0);
		va_end(ap);
	}
	if (b->strict)
		exit(EXIT_FAILURE);
}

int
bad_input_finish(struct bad_input *b)
{
	if (b->count == 0)
		return EXIT_SUCCESS;
	warn("skipped %lu bad record%s", b->count, b->count == 1 ? "" : "s");
	return EXIT_FAILURE;
}

int
close_stdout(void)
{
	int bad = 0, e = 0;

	if (fflush(stdout) != 0 || ferror(stdout)) {
		bad = 1;
		e = errno;
	}
	if (fclose(stdout) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		errno = e != 0 ? e : EIO;
		warn_errno("write error");
		return -1;
	}
	return 0;
}

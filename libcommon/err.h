/*
 * err.h: messages, exit codes and the bad-record policy.
 *
 * These functions are the only writers to stderr.  Every message is one line
 * that starts with "prog: "; data errors add "file:line: ".  Nothing here
 * allocates memory that the caller must free.
 */
#ifndef ERR_H
#define ERR_H

#include <stdio.h>
#include <stdlib.h>

#define EXIT_USAGE 2
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))

extern const char *prog_name;
/* When set, called before each message (progress.c clears its line). */
extern void (*err_before_msg)(void);

/* Where a record came from; file "<stdin>" names standard input. */
struct srcpos {
	const char *file;
	unsigned long line;
};

/*
 * The bad-record policy: each bad record is reported with its position,
 * counted and skipped; after max_warn warnings the rest are only counted.
 * With strict set, the first one is fatal (exit 1).
 */
struct bad_input {
	unsigned long count;
	unsigned long max_warn;
	int strict;
};
#define BAD_INPUT_INIT { 0, 10, 0 }

/* Sets prog_name from argv[0]; an ignored SIGPIPE gets its default action. */
void prog_init(const char *argv0);

NORETURN void die(const char *fmt, ...) PRINTF_LIKE(1, 2);
NORETURN void die_errno(const char *fmt, ...) PRINTF_LIKE(1, 2);
NORETURN void die_at(const struct srcpos *pos, const char *fmt, ...)
    PRINTF_LIKE(2, 3);
/*
 * Names the program's usage(): die_usage() calls it with EXIT_USAGE, so
 * that a bad option value is followed by the usage line, as a bad option
 * is.  main() calls it once, after prog_init().
 */
void prog_usage(void (*usage)(int));
/* Prints the message (if fmt is not NULL), the usage, and exits 2. */
NORETURN void die_usage(const char *fmt, ...) PRINTF_LIKE(1, 2);
void warn(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Appends ": strerror(errno)". */
void warn_errno(const char *fmt, ...) PRINTF_LIKE(1, 2);
void warn_at(const struct srcpos *pos, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* Reports one bad record at pos; dies if b->strict. */
void bad_input(struct bad_input *b, const struct srcpos *pos,
    const char *fmt, ...) PRINTF_LIKE(3, 4);
/*
 * Prints "prog: skipped N bad records" when any were seen and returns
 * EXIT_FAILURE, or EXIT_SUCCESS when there were none.
 */
int bad_input_finish(struct bad_input *b);

/* Flushes and closes stdout; on a write error warns and returns -1. */
int close_stdout(void);

#endif

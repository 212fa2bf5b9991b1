/*
 * opt.h: option arguments and the options every program shares.
 */
#ifndef OPT_H
#define OPT_H

#include <getopt.h>
#include <stdio.h>

#include "err.h"
#include "progress.h"

#define PROFPIPE_VERSION "0.1"

/*
 * Parses a decimal number in [min, max] for option name (as strtonum does);
 * anything else is a usage error (exit 2).
 */
unsigned long opt_ulong(const char *name, const char *arg,
    unsigned long min, unsigned long max);
double opt_double(const char *name, const char *arg);
/* Prints "prog (profpipe) X.Y" to stdout and exits 0. */
NORETURN void opt_version(void);
/*
 * The options every program shares: -h/--help, --version, -o/--output,
 * --progress, --no-progress, --strict and --where.  A program puts
 * OPT_COMMON_SHORT in its optstring and OPT__COMMON at the end of its
 * longopts[] (its own options come first, sorted), numbers its own
 * long-only options from OPT_OWN, and hands every option its switch does
 * not know to opt_common() from the switch's default.
 */
struct opt_common {
	const char *output;	/* -o: NULL or "-" for standard output */
	const char *where;	/* --where: a jq filter, or NULL */
	int progress;		/* PROGRESS_AUTO, _ON or _OFF */
	int strict;		/* --strict: the first bad record is fatal */
};
#define OPT_COMMON_INIT { .progress = PROGRESS_AUTO }

enum {
	OPT_NO_PROGRESS = 0x1000, OPT_PROGRESS, OPT_STRICT, OPT_VERSION,
	OPT_WHERE, OPT_OWN = 256
};
#define OPT_COMMON_SHORT "ho:"
#define OPT__COMMON \
	{ "help", no_argument, NULL, 'h' }, \
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS }, \
	{ "output", required_argument, NULL, 'o' }, \
	{ "progress", no_argument, NULL, OPT_PROGRESS }, \
	{ "strict", no_argument, NULL, OPT_STRICT }, \
	{ "version", no_argument, NULL, OPT_VERSION }, \
	{ "where", required_argument, NULL, OPT_WHERE }, \
	{ NULL, 0, NULL, 0 }

/*
 * Sets the shared option ch (with argument arg) in *c.  -h calls
 * usage(EXIT_SUCCESS), --version opt_version(); any other ch is a bad
 * option, and usage(EXIT_USAGE) is called.
 */
void opt_common(int ch, const char *arg, struct opt_common *c,
    void (*usage)(int));

/*
 * --help's option list: one line per option, its forms ("-k, --key KEY")
 * and what it does in a few words.  A program's usage(EXIT_SUCCESS)
 * prints its usage line, then opt_help() with its own options (ending in
 * { NULL, NULL }); the shared ones follow.
 */
struct opt_help {
	const char *forms, *what;
};
void opt_help(FILE *fp, const struct opt_help *own);

/*
 * getopt_long(3) that reports a bad option in the toolkit's words, through
 * warn(), and then returns '?' for the caller to print the usage and exit
 * 2: "unknown option '-x'", "unknown option '--foo'", "option '--p' is
 * ambiguous", "option '-k' needs an argument", "option '--strict' takes
 * no argument".  getopt's own messages are turned off (opterr = 0), so
 * argv[0] need not be the program's name; optstring needs no leading ':'.
 */
int opt_next(int argc, char *argv[], const char *optstring,
    const struct option *longopts);

#endif

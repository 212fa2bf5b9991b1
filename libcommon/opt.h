/*
 * opt.h: option arguments and the options every program shares.
 */
#ifndef OPT_H
#define OPT_H

#include <getopt.h>

#include "err.h"

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

/*
 * opt.h: option arguments and the options every program shares.
 */
#ifndef OPT_H
#define OPT_H

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

#endif

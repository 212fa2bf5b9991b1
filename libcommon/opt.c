/* opt.c: option arguments. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "opt.h"

unsigned long
opt_ulong(const char *name, const char *arg, unsigned long min,
    unsigned long max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (arg[0] < '0' || arg[0] > '9')
		die_usage("option '%s': '%s' is not a number", name, arg);
	v = strtoull(arg, &end, 10);
	if (*end != '\0')
		die_usage("option '%s': '%s' is not a number", name, arg);
	if (errno == ERANGE || v < min || v > max)
		die_usage("option '%s': '%s' is out of range %lu..%lu", name,
		    arg, min, max);
	return (unsigned long)v;
}

double
opt_double(const char *name, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end != '\0' || errno == ERANGE || !isfinite(v))
		die_usage("option '%s': '%s' is not a number", name, arg);
	return v;
}

void
opt_version(void)
{
	printf("%s (profpipe) %s\n", prog_name, PROFPIPE_VERSION);
	exit(close_stdout() != 0 ? EXIT_FAILURE : EXIT_SUCCESS);
}

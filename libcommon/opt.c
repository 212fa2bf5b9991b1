/* opt.c: option arguments and bad options. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static void
help_line(FILE *fp, const struct opt_help *h)
{
	size_t n = strlen(h->forms);

	/* Long forms line up under long forms: "-k, --key" and "    --x". */
	if (h->forms[0] == '-' && h->forms[1] == '-')
		fprintf(fp, "      %s", h->forms), n += 4;
	else
		fprintf(fp, "  %s", h->forms);
	fprintf(fp, "%*s%s\n", n < 24 ? (int)(24 - n) : 2, "", h->what);
}

void
opt_help(FILE *fp, const struct opt_help *own)
{
	static const struct opt_help common[] = {
		{ "-h, --help", "print this help and exit" },
		{ "--no-progress", "never show progress on standard error" },
		{ "-o, --output FILE", "write to FILE, whole or not at all" },
		{ "--progress", "show progress even when stderr is no terminal" },
		{ "--strict", "make the first bad record fatal" },
		{ "--version", "print the version and exit" },
		{ "--where EXPR", "keep the records the jq filter EXPR selects" },
		{ NULL, NULL }
	};
	const struct opt_help *h;

	fputs("\nOptions:\n", fp);
	for (h = own; h->forms != NULL; h++)
		help_line(fp, h);
	fputs("\nCommon options:\n", fp);
	for (h = common; h->forms != NULL; h++)
		help_line(fp, h);
	fputs("\nSee the manual page for more, and docs/formats.md for the "
	    "records.\n", fp);
}

void
opt_common(int ch, const char *arg, struct opt_common *c,
    void (*usage)(int))
{
	switch (ch) {
	case 'h': usage(EXIT_SUCCESS); break;
	case 'o': c->output = arg; break;
	case OPT_NO_PROGRESS: c->progress = PROGRESS_OFF; break;
	case OPT_PROGRESS: c->progress = PROGRESS_ON; break;
	case OPT_STRICT: c->strict = 1; break;
	case OPT_VERSION: opt_version(); break;
	case OPT_WHERE: c->where = arg; break;
	default: usage(EXIT_USAGE); break;
	}
}

/*
 * The long option that arg ("--name" or "--name=value") names with value
 * val, or with val 0 the number of options it abbreviates in *n.
 */
static const struct option *
long_match(const struct option *lo, const char *arg, int val, size_t *n)
{
	const struct option *found = NULL;
	size_t len = strcspn(arg + 2, "=");

	*n = 0;
	for (; lo != NULL && lo->name != NULL; lo++) {
		if (strncmp(lo->name, arg + 2, len) != 0 ||
		    (val != 0 && lo->val != val))
			continue;
		if (lo->name[len] == '\0')
			return lo;
		found = lo;
		++*n;
	}
	return *n == 1 ? found : NULL;
}

/* Reports the bad option getopt_long() stopped at. */
static void
bad_option(int argc, char *argv[], const char *optstring,
    const struct option *longopts)
{
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	const struct option *lo = NULL;
	const char *p;
	size_t n = 0;

	if (strncmp(arg, "--", 2) == 0 && arg[2] != '\0')
		lo = long_match(longopts, arg, optopt, &n);
	if (optopt == 0 || lo != NULL) {
		if (lo == NULL && n > 1)
			warn("option '%.*s' is ambiguous",
			    (int)strcspn(arg, "="), arg);
		else if (lo == NULL)
			warn("unknown option '%.*s'", (int)strcspn(arg, "="),
			    arg);
		else if (strchr(arg, '=') != NULL)
			warn("option '--%s' takes no argument", lo->name);
		else
			warn("option '--%s' needs an argument", lo->name);
		return;
	}
	p = optopt != ':' ? strchr(optstring, optopt) : NULL;
	if (p != NULL && p[1] == ':')
		warn("option '-%c' needs an argument", optopt);
	else
		warn("unknown option '-%c'", optopt);
}

int
opt_next(int argc, char *argv[], const char *optstring,
    const struct option *longopts)
{
	int ch;

	opterr = 0;
	ch = getopt_long(argc, argv, optstring, longopts, NULL);
	if (ch == '?' || ch == ':') {
		bad_option(argc, argv, optstring, longopts);
		return '?';
	}
	return ch;
}

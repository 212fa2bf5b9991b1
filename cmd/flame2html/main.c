/*
 * flame2html: merges stack records or folded stacks into one call tree and
 * writes it as a self-contained, interactive HTML flame graph.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "jqf.h"
#include "ofile.h"
#include "opt.h"
#include "progress.h"
#include "strbuf.h"
#include "flame2html.h"

static struct {
	struct opt_common com;
	const char *categories;
	int diff;
	const char *title;
	const char *unit;
} opt = { .com = OPT_COMMON_INIT };

static const struct opt_help help[] = {
	{ "-c, --categories FILE", "colour frames by the rules in FILE" },
	{ "-d, --diff", "two inputs, before and after: colour by the "
	    "change" },
	{ "-t, --title TITLE", "the page's title (default: the input's "
	    "name)" },
	{ "-u, --unit UNIT", "the unit of the weights (ns or samples)" },
	{ NULL, NULL }
};

static void
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: flame2html [-dh] [-c file] [--no-progress] [-o file] "
	    "[--progress] [--strict] [-t title] [-u unit] [--version] "
	    "[--where expr] [file ...]\n");
	if (status == 0)
		opt_help(stdout, help);
	exit(status);
}

static const char *
default_title(char **argv, int argc)
{
	static struct strbuf sb = STRBUF_INIT;
	const char *base;

	if (opt.title != NULL)
		return opt.title;
	if (argc == 0 || strcmp(argv[0], "-") == 0)
		return opt.diff ? "Differential flame graph" : "Flame graph";
	base = strrchr(argv[argc - 1], '/');
	base = base != NULL ? base + 1 : argv[argc - 1];
	strbuf_addstr(&sb, opt.diff ? "Differential flame graph: " :
	    "Flame graph: ");
	strbuf_addstr(&sb, base);
	return sb.buf;
}

/* Reads every input into the tree; an unreadable one makes the result 1. */
static int
read_inputs(struct flame *f, int argc, char *argv[])
{
	int i, rc = EXIT_SUCCESS;

	if (opt.diff) {
		f->has_diff = 1;
		if (flame_stream(f, argv[0], 1) != 0)
			rc = EXIT_FAILURE;
		if (flame_stream(f, argv[1], 0) != 0)
			rc = EXIT_FAILURE;
		/* Two ranks or runs share no thread: compare them merged. */
		f->view_merged = f->has_threads && !flame_shared_thread(f);
		return rc;
	}
	if (argc == 0)
		return flame_stream(f, "-", -1) != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
	for (i = 0; i < argc; i++)
		if (flame_stream(f, argv[i], -1) != 0)
			rc = EXIT_FAILURE;
	return rc;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "categories", required_argument, NULL, 'c' },
		{ "diff", no_argument, NULL, 'd' },
		{ "title", required_argument, NULL, 't' },
		{ "unit", required_argument, NULL, 'u' },
		OPT__COMMON
	};
	static struct flame fl;
	struct ofile of;
	FILE *fp;
	int ch, rc;

	prog_init(argv[0]);
	prog_usage(usage);
	while ((ch = opt_next(argc, argv, "c:d" OPT_COMMON_SHORT "t:u:",
	    longopts)) != -1)
		switch (ch) {
		case 'c': opt.categories = optarg; break;
		case 'd': opt.diff = 1; break;
		case 't': opt.title = optarg; break;
		case 'u': opt.unit = optarg; break;
		default: opt_common(ch, optarg, &opt.com, usage);
		}
	argc -= optind;
	argv += optind;
	if (opt.diff && argc != 2)
		die_usage("--diff needs two inputs: before and after");
	if (opt.unit != NULL && *opt.unit == '\0')
		die_usage("--unit is empty");
	flame_init(&fl);
	fl.bad.strict = opt.com.strict;
	if (opt.com.where != NULL)
		fl.where = jqf_compile(opt.com.where);
	if (opt.categories != NULL)
		cats_file(opt.categories);
	else
		cats_default();
	progress_init(opt.com.progress, "lines");
	rc = read_inputs(&fl, argc, argv);
	progress_done();
	if (fl.fractions > 0)
		warn("rounded %lu fractional counts to whole numbers",
		    fl.fractions);
	if (bad_input_finish(&fl.bad) != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	if (fl.used == 0)
		die("%s: no page written", fl.bad.count > 0 ?
		    "no usable records" : fl.where != NULL ?
		    "no record matches --where" : "no records");
	if (opt.unit == NULL)
		opt.unit = fl.ndjson && !fl.folded ? "ns" : "samples";
	fp = ofile_open(&of, opt.com.output);
	page_write(&fl, fp, default_title(argv, argc), opt.unit);
	if (ofile_close(&of) != 0)
		rc = EXIT_FAILURE;
	flame_release(&fl);
	return close_stdout() != 0 ? EXIT_FAILURE : rc;
}

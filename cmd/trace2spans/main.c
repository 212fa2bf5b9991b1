/*
 * trace2spans: writes one span record per timed event of a Chrome
 * trace-event JSON file (torch.profiler, Kineto, torch_npu, Perfetto).
 *
 * The file is one JSON document, so it is read as a stream: the top level
 * is walked token by token, each element of the traceEvents array is cut
 * out whole (by bracket counting) and only then parsed with nd_fields().
 * Memory holds one event, the open B and b events and the thread names,
 * never the whole file.  read.c walks the document, events.c makes the
 * spans, this file runs the files and the options.
 */
#include <sys/stat.h>

#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hmap.h"
#include "jqf.h"
#include "ndw.h"
#include "ofile.h"
#include "opt.h"
#include "progress.h"
#include "strbuf.h"
#include "xmem.h"
#include "zin.h"

#include "trace2spans.h"

static const struct opt_help help[] = {
	{ "-a, --all-args", "copy each event's args object into its span" },
	{ "--args KEY,...", "copy these args of each event as keys of the "
	    "span" },
	{ "--absolute", "add the trace's baseTimeNanoseconds: epoch "
	    "times" },
	{ "--label NAME", "write \"run\":NAME in every record" },
	{ NULL, NULL }
};

static void
usage(int status)
{
	FILE *fp = status == EXIT_SUCCESS ? stdout : stderr;

	fprintf(fp, "usage: trace2spans [-ah] [--absolute] [--args list] [--label name] "
	    "[--no-progress] [-o file] [--progress] [--strict] [--version] "
	    "[--where expr] [file ...]\n");
	if (status == EXIT_SUCCESS)
		opt_help(stdout, help);
	exit(status);
}

/* Reads one file; with names_only, only its thread_name events. */
static int
trace_stream(struct t2s *x, const char *path, struct hmap *names,
    int names_only)
{
	struct trace t;
	int rc = EXIT_SUCCESS;

	memset(&t, 0, sizeof(t));
	t.x = x;
	if (zin_open(&t.in, path) != 0) {
		if (!names_only)
			warn_errno("cannot open '%s'", path);
		return EXIT_FAILURE;
	}
	t.pos.file = t.in.name;
	t.line = 1;
	t.names = names;
	t.names_only = names_only;
	t.cap = (size_t)1 << 20;
	t.buf = xmalloc(t.cap);
	hmap_init(&t.begins, 16);
	hmap_init(&t.asyncs, 16);
	strbuf_init(&t.key, 64);
	if (document(&t) != 0 || t.read_error)
		rc = EXIT_FAILURE;
	close_open(&t, &t.begins);
	close_open(&t, &t.asyncs);
	strbuf_release(&t.key);
	free(t.buf);
	zin_close(&t.in);
	return rc;
}

/*
 * Reads one file.  Kineto writes the thread names at the end, so a
 * regular file is first read for them alone; a pipe has only the names
 * that come before the spans.
 */
static int
trace_file(struct t2s *x, const char *path)
{
	struct hmap names;
	struct hmap_ent *e;
	struct stat st;
	int rc;

	hmap_init(&names, 16);
	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
	    S_ISREG(st.st_mode))
		trace_stream(x, path, &names, 1);
	rc = trace_stream(x, path, &names, 0);
	hmap_foreach(&names, e)
		free(e->val);
	hmap_release(&names);
	return rc;
}

/*
 * The "run" of a file's spans when several files are read without
 * --label: its name without the directory and the trace extensions
 * (rank3.pt.trace.json.gz is "rank3").
 */
static void
file_run(struct t2s *x, const char *path)
{
	static const char *const ext[] = { ".gz", ".json", ".trace", ".pt" };
	const char *b = strrchr(path, '/');
	size_t len, i, n;

	b = b != NULL ? b + 1 : path;
	len = strlen(b);
	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		n = strlen(ext[i]);
		if (len > n && memcmp(b + len - n, ext[i], n) == 0)
			len -= n;
	}
	x->opt.run = b;
	x->opt.runlen = len;
}

/* The one-line summary of what was not written as spans. */
static void
summary(struct t2s *x)
{
	struct strbuf sb = STRBUF_INIT;
	const struct { uint64_t n; const char *what; } parts[] = {
		{ x->count.instant, "instant" }, { x->count.counter,
		    "counter" },
		{ x->count.flow, "flow" }, { x->count.meta, "metadata" },
		{ x->count.other, "other" },
	};
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].n > 0)
			strbuf_addf(&sb, "%s%llu %s", sb.len ? ", " : "",
			    (unsigned long long)parts[i].n, parts[i].what);
	if (sb.len > 0)
		warn("%llu events, %llu span%s written; skipped %s events",
		    (unsigned long long)x->count.events,
		    (unsigned long long)x->count.spans,
		    x->count.spans == 1 ? "" : "s", sb.buf);
	if (x->count.noname > 0)
		warn("%llu span%s without a name written as \"unknown\"",
		    (unsigned long long)x->count.noname,
		    x->count.noname == 1 ? "" : "s");
	strbuf_release(&sb);
}

/*
 * --args KEY,...: the names, each once, none a key the span has already
 * (the list is kept; optarg lives as long as the program).
 */
static void
arg_keys(struct t2s_opt *o, char *list)
{
	static const char *const own[] = { "pid", "tid", "name", "cat",
		"start_ns", "end_ns", "thread_name", "args", "run", NULL };
	char *k;
	size_t i;

	for (k = strtok(list, ","); k != NULL; k = strtok(NULL, ",")) {
		for (i = 0; own[i] != NULL; i++)
			if (strcmp(k, own[i]) == 0)
				die_usage("--args: '%s' is a key of span "
				    "records already", k);
		for (i = 0; i < o->narg_keys; i++)
			if (strcmp(k, o->arg_keys[i]) == 0)
				break;
		if (i < o->narg_keys)
			continue;
		if (o->narg_keys == 32)
			die_usage("--args: more than 32 names");
		o->arg_keys = xreallocarray(o->arg_keys, o->narg_keys + 1,
		    sizeof(*o->arg_keys));
		o->arg_keys[o->narg_keys++] = k;
	}
	if (o->narg_keys == 0)
		die_usage("--args: no names");
}

int
main(int argc, char *argv[])
{
	enum { OPT_ABSOLUTE = OPT_OWN, OPT_ARGS, OPT_LABEL };
	static const struct option longopts[] = {
		{ "absolute", no_argument, NULL, OPT_ABSOLUTE },
		{ "all-args", no_argument, NULL, 'a' },
		{ "args", required_argument, NULL, OPT_ARGS },
		{ "label", required_argument, NULL, OPT_LABEL },
		OPT__COMMON
	};
	static struct t2s run = {
		.opt = { .com = OPT_COMMON_INIT },
		.bad = BAD_INPUT_INIT
	};
	struct t2s *x = &run;
	struct ofile of;
	int ch, rc = EXIT_SUCCESS;

	prog_init(argv[0]);
	prog_usage(usage);
	while ((ch = opt_next(argc, argv, "a" OPT_COMMON_SHORT, longopts)) !=
	    -1)
		switch (ch) {
		case 'a': x->opt.args = 1; break;
		case OPT_ABSOLUTE: x->opt.absolute = 1; break;
		case OPT_ARGS: arg_keys(&x->opt, optarg); break;
		case OPT_LABEL: x->opt.label = optarg; break;
		default: opt_common(ch, optarg, &x->opt.com, usage); break;
		}
	argc -= optind;
	argv += optind;
	x->bad.strict = x->opt.com.strict;
	if (x->opt.com.where != NULL)
		x->where = jqf_compile(x->opt.com.where);
	x->out = ofile_open(&of, x->opt.com.output);
	/* The keys are the program's own literals, but for --args. */
	ndw_init(&x->w, x->opt.narg_keys == 0 ? NDW_PLAIN_KEYS : 0);
	progress_init(x->opt.com.progress, "events");
	if (x->opt.label != NULL) {
		x->opt.run = x->opt.label;
		x->opt.runlen = strlen(x->opt.label);
	}
	if (argc == 0)
		rc = trace_file(x, "-");
	for (; argc > 0; argc--, argv++) {
		if (x->opt.label == NULL && (argc > 1 || x->opt.run != NULL))
			file_run(x, argv[0]);
		if (trace_file(x, argv[0]) != EXIT_SUCCESS)
			rc = EXIT_FAILURE;
	}
	progress_done();
	summary(x);
	if (bad_input_finish(&x->bad) != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	ndw_release(&x->w);
	if (x->where != NULL)
		jqf_free(x->where);
	rc = ofile_finish(&of, rc);
	return close_stdout() != 0 ? EXIT_FAILURE : rc;
}

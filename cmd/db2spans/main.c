/* db2spans: writes one span record per timed call in a profiler database. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "err.h"
#include "ofile.h"
#include "opt.h"
#include "progress.h"
#include "spool.h"
#include "strbuf.h"

#include "db2spans.h"

/* The schemas, tried in this order (see db2spans.h). */
static const struct db_schema *const schemas[] = {
	&schema_ascend,
	&schema_nsys,
	&schema_rocpd,
	NULL
};

static struct {
	struct opt_common com;
	const char *label;
	const char *schema;
	int sorted;
	int verbose;
} opt = { .com = OPT_COMMON_INIT };

enum { OPT_LABEL = OPT_OWN, OPT_SCHEMA, OPT_TABLES };

static const struct option longopts[] = {
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "schema", required_argument, NULL, OPT_SCHEMA },
	{ "sorted", no_argument, NULL, 's' },
	{ "tables", required_argument, NULL, OPT_TABLES },
	{ "verbose", no_argument, NULL, 'v' },
	OPT__COMMON
};

static const struct opt_help help[] = {
	{ "--label NAME", "write \"run\":NAME in every record" },
	{ "-s, --sorted", "write spans by thread, start time and end time" },
	{ "--schema NAME", "read the file as ascend, nsys or rocpd, not "
	    "detected" },
	{ "--tables LIST", "Ascend tables to read: pytorch, cann, task or "
	    "all" },
	{ "-v, --verbose", "say each file's schema, how it was read and its "
	    "spans" },
	{ NULL, NULL }
};

static void
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: db2spans [-hsv] [--label name] [--no-progress] [-o file] "
	    "[--progress] "
	    "[--schema name] [--strict] [--tables list] [--version] "
	    "[--where expr] [file ...]\n");
	if (status == 0)
		opt_help(stdout, help);
	exit(status);
}

/* Opening a database. */

static sqlite3 *
db_open(const char *path, const char *shown)
{
	sqlite3 *db;

	/* Nothing beside the file is created or changed (open.c). */
	if ((db = db_open_ro(path, shown)) == NULL)
		return NULL;
	sqlite3_busy_timeout(db, 10000);
	/*
	 * A scan reads each page once and needs SQLite's default cache
	 * (2 MB); the sort of -s gets 32 MB before it spills to temporary
	 * files.  Either way memory stays flat in the number of rows.
	 */
	if (sqlite3_exec(db, opt.sorted ? "PRAGMA query_only = 1; PRAGMA "
	    "cache_size = -32768; SELECT count(*) FROM sqlite_master" :
	    "PRAGMA query_only = 1; SELECT count(*) FROM sqlite_master", NULL,
	    NULL, NULL) != SQLITE_OK) {
		warn("'%s': %s", shown, sqlite3_errmsg(db));
		db_close(db);
		return NULL;
	}
	return db;
}

/* Finds the schema of db, or says why none fits. */
static const struct db_schema *
db_detect(sqlite3 *db, const char *shown)
{
	struct strbuf why = STRBUF_INIT, tables = STRBUF_INIT;
	const struct db_schema *const *s;
	size_t mark;

	for (s = schemas; *s != NULL; s++) {
		if (opt.schema != NULL && strcmp(opt.schema, (*s)->name) != 0)
			continue;
		if (why.len > 0)
			strbuf_addstr(&why, "; ");
		strbuf_addf(&why, "not an %s: ", (*s)->what);
		mark = why.len;
		if ((*s)->detect(db, &why)) {
			strbuf_release(&why);
			return *s;
		}
		if (why.len == mark)
			strbuf_addstr(&why, "unknown layout");
	}
	db_list_tables(db, &tables);
	warn("'%s': %s (tables: %s)", shown, why.buf,
	    tables.len > 0 ? tables.buf : "none");
	strbuf_release(&why);
	strbuf_release(&tables);
	return NULL;
}

/* Writes the spans of one database.  Returns 0, or -1 after a message. */
static int
db2spans_stream(const char *path, const char *shown, struct span_writer *w,
    struct bad_input *bad)
{
	const struct db_schema *schema;
	struct db_run run;
	uint64_t before = w->written, filtered = w->filtered;
	sqlite3 *db;
	int rc;

	if ((db = db_open(path, shown)) == NULL)
		return -1;
	if ((schema = db_detect(db, shown)) == NULL) {
		db_close(db);
		return -1;
	}
	if (opt.verbose)
		warn("%s: schema %s (%s)", shown, schema->name, schema->what);
	memset(&run, 0, sizeof(run));
	run.db = db;
	run.path = shown;
	run.sorted = opt.sorted;
	run.verbose = opt.verbose;
	run.bad = bad;
	run.w = w;
	rc = schema->spans(&run);
	if (run.unnamed > 0)
		warn("%s: %llu span%s without a name, written as 'unknown'",
		    shown, (unsigned long long)run.unnamed,
		    run.unnamed == 1 ? "" : "s");
	if (opt.verbose)
		warn("%s: %llu spans written, %llu left out by --where", shown,
		    (unsigned long long)(w->written - before),
		    (unsigned long long)(w->filtered - filtered));
	db_close(db);
	return rc;
}

/* Runs one command-line argument ("-": standard input). */
static int
db2spans_arg(const char *arg, struct span_writer *w, struct bad_input *bad)
{
	char *tmp;
	int rc;

	if (strcmp(arg, "-") != 0)
		return db2spans_stream(arg, arg, w, bad);
	/* SQLite opens a file by name: standard input is copied to one. */
	if ((tmp = spool_stdin()) == NULL)
		return -1;
	rc = db2spans_stream(tmp, "<stdin>", w, bad);
	spool_remove(tmp);
	return rc;
}

static void
parse_options(int argc, char *argv[])
{
	const struct db_schema *const *s;
	int ch;

	while ((ch = opt_next(argc, argv, OPT_COMMON_SHORT "sv", longopts)) !=
	    -1)
		switch (ch) {
		case 's':
			opt.sorted = 1;
			break;
		case 'v':
			opt.verbose = 1;
			break;
		case OPT_LABEL:
			opt.label = optarg;
			break;
		case OPT_SCHEMA:
			opt.schema = optarg;
			break;
		case OPT_TABLES:
			ascend_tables(optarg);
			break;
		default:
			opt_common(ch, optarg, &opt.com, usage);
		}
	if (opt.schema != NULL) {
		for (s = schemas; *s != NULL; s++)
			if (strcmp((*s)->name, opt.schema) == 0)
				break;
		if (*s == NULL)
			die_usage("unknown schema '%s'", opt.schema);
	}
}

int
main(int argc, char *argv[])
{
	struct bad_input bad = BAD_INPUT_INIT;
	struct span_writer w;
	struct ofile of;
	int rc = EXIT_SUCCESS;

	prog_init(argv[0]);
	prog_usage(usage);
	parse_options(argc, argv);
	argc -= optind;
	argv += optind;
	span_writer_init(&w, opt.label, opt.com.where);
	w.fp = ofile_open(&of, opt.com.output);
	w.bad = &bad;
	bad.strict = opt.com.strict;
	progress_init(opt.com.progress, "spans");
	if (argc == 0 && db2spans_arg("-", &w, &bad) != 0)
		rc = EXIT_FAILURE;
	for (; argc > 0; argc--, argv++)
		if (db2spans_arg(*argv, &w, &bad) != 0)
			rc = EXIT_FAILURE;
	progress_done();
	span_flush(&w);
	if (bad_input_finish(&bad) != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	span_writer_release(&w);
	rc = ofile_finish(&of, rc);
	return close_stdout() != 0 ? EXIT_FAILURE : rc;
}

/* db2spans: writes one span record per timed call in a profiler database. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "err.h"
#include "jqf.h"
#include "nd.h"
#include "ndw.h"
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

static void
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr,
	    "usage: %s [-hsv] [--label name] [--no-progress] [-o file] "
	    "[--progress] "
	    "[--schema name] [--strict] [--tables list] [--version] "
	    "[--where expr] [file ...]\n", prog_name);
	exit(status);
}

/* The span writer: records are built by hand for speed. */

#define OUT_FLUSH 65536

/* Writes the pending output; a write error is fatal. */
static void
out_flush(struct span_writer *w)
{
	if (w->out.len > 0 && fwrite(w->out.buf, 1, w->out.len, w->fp) !=
	    w->out.len)
		die_errno("write error");
	strbuf_reset(&w->out);
}

/* Writes v in decimal, two digits at a time. */
static char *
put_u64(char *p, uint64_t v)
{
	static const char pairs[] =
	    "00010203040506070809101112131415161718192021222324"
	    "25262728293031323334353637383940414243444546474849"
	    "50515253545556575859606162636465666768697071727374"
	    "75767778798081828384858687888990919293949596979899";
	char tmp[24], *t = tmp + sizeof(tmp);
	size_t n;

	while (v >= 100) {
		t -= 2;
		memcpy(t, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		t -= 2;
		memcpy(t, pairs + 2 * v, 2);
	} else
		*--t = (char)('0' + v);
	n = (size_t)(tmp + sizeof(tmp) - t);
	memcpy(p, t, n);
	return p + n;
}

static char *
put_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, (uint64_t)0 - (uint64_t)v);
	}
	return put_u64(p, (uint64_t)v);
}

static char *
put_str(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* Appends the record for s and x (NULL: none) to sb, with its '\n'. */
static void
span_format(struct strbuf *sb, const struct span *s,
    const struct span_ext *x, const struct strbuf *run)
{
	char *p;

	strbuf_grow(sb, s->name_len + s->cat_len + 160 + run->len +
	    (x == NULL ? 0 : x->pid_len + x->thread_name_len));
	p = sb->buf + sb->len;
	p = put_str(p, "{\"pid\":", 7);
	if (x != NULL && x->pid != NULL)
		p = put_str(p, x->pid, x->pid_len);
	else
		p = put_u64(p, s->pid);
	p = put_str(p, ",\"tid\":", 7);
	p = put_u64(p, s->tid);
	p = put_str(p, ",\"name\":", 8);
	p = put_str(p, s->name, s->name_len);
	if (s->cat != NULL) {
		p = put_str(p, ",\"cat\":", 7);
		p = put_str(p, s->cat, s->cat_len);
	}
	p = put_str(p, ",\"start_ns\":", 12);
	p = put_i64(p, s->start_ns);
	p = put_str(p, ",\"end_ns\":", 10);
	p = put_i64(p, s->end_ns);
	if (x != NULL && x->thread_name != NULL) {
		p = put_str(p, ",\"thread_name\":", 15);
		p = put_str(p, x->thread_name, x->thread_name_len);
	}
	p = put_str(p, run->buf, run->len);
	p = put_str(p, "}\n", 2);
	strbuf_setlen(sb, (size_t)(p - sb->buf));
}

int
span_write(struct span_writer *w, const struct span *s)
{
	return span_write_ext(w, s, NULL);
}

int
span_write_ext(struct span_writer *w, const struct span *s,
    const struct span_ext *x)
{
	int m;

	if (w->where != NULL) {
		strbuf_reset(&w->line);
		span_format(&w->line, s, x, &w->run);
		m = jqf_match(w->where, w->line.buf, w->line.len - 1);
		if (m < 0) {
			if (!w->error)
				warn("--where: %s", jqf_error(w->where));
			w->error = 1;
		}
		if (m <= 0) {
			w->filtered++;
			return 0;
		}
		strbuf_add(&w->out, w->line.buf, w->line.len);
	} else
		span_format(&w->out, s, x, &w->run);
	w->written++;
	if ((w->written & 0xFFF) == 0)
		progress_update(w->written, 0);
	if (w->out.len >= OUT_FLUSH)
		out_flush(w);
	return 0;
}

void
db_bad_row(struct db_run *run, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (run->bad->strict)
		out_flush(run->w);
	bad_input(run->bad, NULL, "%s: %s", run->path, msg);
}

void
span_quote(struct strbuf *sb, const char *s, size_t len)
{
	ndw_quote(sb, s, len, 0);
}

int
db_span_row(struct db_run *run, sqlite3_stmt *st, struct span *s,
    struct strbuf *name, const char *table, const char *idname, int idcol)
{
	static const char *const cols[] = { "pid", "tid", "start", "end" };
	const char *what;
	int64_t v[4];
	int i;

	for (i = 0; i < 4; i++)
		if (db_col_i64(st, i, &v[i], &what) != 0) {
			db_bad_row(run, "%s %s %lld: %s %s", table, idname,
			    (long long)sqlite3_column_int64(st, idcol),
			    cols[i], what);
			return -1;
		}
	s->pid = (uint64_t)v[0];
	s->tid = (uint64_t)v[1];
	s->start_ns = v[2];
	s->end_ns = v[3];
	strbuf_reset(name);
	if (sqlite3_column_type(st, 4) == SQLITE_NULL) {
		strbuf_addstr(name, "\"unknown\"");
		run->unnamed++;
	} else
		span_quote(name, (const char *)sqlite3_column_text(st, 4),
		    (size_t)sqlite3_column_bytes(st, 4));
	s->name = name->buf;
	s->name_len = name->len;
	return 0;
}

/* Helpers for the schemas. */

/* Runs a one-row query with text parameters; returns 1 if it has a row. */
static int
db_exists(sqlite3 *db, const char *sql, const char *a, const char *b)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
	if (b != NULL)
		sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return rc;
}

int
db_has_table(sqlite3 *db, const char *table)
{
	return db_exists(db, "SELECT 1 FROM sqlite_master WHERE type IN "
	    "('table', 'view') AND name = ?1 COLLATE NOCASE", table, NULL);
}

int
db_has_column(sqlite3 *db, const char *table, const char *column)
{
	return db_exists(db, "SELECT 1 FROM pragma_table_info(?1) "
	    "WHERE name = ?2 COLLATE NOCASE", table, column);
}

int
db_need_columns(struct db_run *run, const char *table,
    const char *const *cols)
{
	for (; *cols != NULL; cols++)
		if (!db_has_column(run->db, table, *cols)) {
			warn("'%s': table %s has no column %s", run->path,
			    table, *cols);
			return -1;
		}
	return 0;
}

void
db_list_tables(sqlite3 *db, struct strbuf *sb)
{
	sqlite3_stmt *st;
	size_t n = 0;

	if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE "
	    "type IN ('table', 'view') ORDER BY name", -1, &st, NULL) !=
	    SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (n++ > 0)
			strbuf_addstr(sb, ", ");
		strbuf_addstr(sb, (const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
}

int
db_col_i64(sqlite3_stmt *st, int col, int64_t *out, const char **what)
{
	struct nd_slice v;
	size_t i;

	switch (sqlite3_column_type(st, col)) {
	case SQLITE_INTEGER:
		*out = sqlite3_column_int64(st, col);
		return 0;
	case SQLITE_NULL:
		*what = "is NULL";
		return -1;
	case SQLITE_TEXT:
		break;
	default:
		*what = "is not an integer";
		return -1;
	}
	/* The same exact reader as for JSON numbers: '-' and digits. */
	v.p = (const char *)sqlite3_column_text(st, col);
	v.len = (size_t)sqlite3_column_bytes(st, col);
	if (nd_val_i64(v, out) == 0)
		return 0;
	*what = "is out of range";
	for (i = v.len > 0 && v.p[0] == '-'; i < v.len; i++)
		if (v.p[i] < '0' || v.p[i] > '9')
			*what = "is not an integer";
	if (v.len == 0 || (v.len == 1 && v.p[0] == '-'))
		*what = "is not an integer";
	return -1;
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
	parse_options(argc, argv);
	argc -= optind;
	argv += optind;
	memset(&w, 0, sizeof(w));
	strbuf_init(&w.out, OUT_FLUSH + 4096);
	strbuf_init(&w.line, 256);
	strbuf_init(&w.run, 0);
	if (opt.label != NULL) {
		strbuf_addstr(&w.run, ",\"run\":");
		ndw_quote(&w.run, opt.label, strlen(opt.label), 0);
	}
	if (opt.com.where != NULL)
		w.where = jqf_compile(opt.com.where);
	w.fp = ofile_open(&of, opt.com.output);
	bad.strict = opt.com.strict;
	progress_init(opt.com.progress, "spans");
	if (argc == 0 && db2spans_arg("-", &w, &bad) != 0)
		rc = EXIT_FAILURE;
	for (; argc > 0; argc--, argv++)
		if (db2spans_arg(*argv, &w, &bad) != 0)
			rc = EXIT_FAILURE;
	progress_done();
	out_flush(&w);
	if (w.error)
		rc = EXIT_FAILURE;
	if (bad_input_finish(&bad) != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	if (w.where != NULL)
		jqf_free(w.where);
	strbuf_release(&w.out);
	strbuf_release(&w.line);
	strbuf_release(&w.run);
	rc = ofile_finish(&of, rc);
	return close_stdout() != 0 ? EXIT_FAILURE : rc;
}

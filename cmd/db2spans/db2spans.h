/*
 * db2spans.h: the schema interface of db2spans, and the span writer every
 * schema writes through.
 *
 * A profiler database schema is one file, cmd/db2spans/<name>.c, that
 * defines one `const struct db_schema schema_<name>` and is listed in the
 * table `schemas[]` at the top of main.c:
 *
 *	static const struct db_schema *const schemas[] = {
 *		&schema_ascend,		(ascend.c: Ascend PyTorch profiler DB)
 *		NULL
 *	};
 *
 * To add a schema (say nsys.c for Nsight Systems, rocpd.c for rocpd):
 * write the file, declare `extern const struct db_schema schema_nsys;`
 * below, and add `&schema_nsys,` to that table.  Nothing else changes.
 *
 * main.c opens each file read-only (it is never changed), asks every
 * schema in table order whether it recognises the database (detect), and
 * hands the first one that does a struct db_run.  The schema then reads its
 * tables and calls span_write() once per span, in table order, or, when
 * run->sorted is set, ordered by (pid, tid, start_ns ascending, end_ns
 * descending, table order).  It must stream: memory may grow with lookup
 * tables (strings), never with the number of spans.
 *
 * The span writer is spanw.c, the helpers that read tables db.c; main.c
 * parses options, opens and detects, and depends on both.
 *
 * Ownership: the writer and everything in struct db_run belong to main.c;
 * a schema frees what it allocates before spans() returns.
 */
#ifndef DB2SPANS_H
#define DB2SPANS_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "err.h"
#include "ndw.h"
#include "strbuf.h"
#include "xmem.h"

/* One span; the strings are JSON text, quotes included (see span_quote). */
struct span {
	uint64_t pid, tid;
	const char *name;	/* quoted JSON string */
	size_t name_len;
	const char *cat;	/* quoted JSON string, or NULL: no "cat" */
	size_t cat_len;
	int64_t start_ns, end_ns;
};

/* "pid":N,"tid":N of a thread, as a record has them (spanw.c). */
#define SPAN_IDS 4
struct span_ids {
	uint64_t pid, tid;
	char text[64];
	size_t len;
};

/* Writes span records to fp (docs/formats.md, "Span records"). */
struct span_writer {
	FILE *fp;		/* standard output or the file of -o */
	struct ndw w;		/* the record being written */
	struct jqf *where;	/* NULL: no filter */
	struct bad_input *bad;	/* --where's run-time errors */
	uint64_t rows, written, filtered;	/* rows: spans made */
	struct strbuf run;	/* --label quoted, or empty */
	struct span_ids ids[SPAN_IDS];	/* of the last threads */
	size_t nids, ids_next, ids_last;
};

/* What a schema gets to do its work. */
struct db_run {
	sqlite3 *db;
	const char *path;	/* the file's name, for messages */
	int sorted;		/* --sorted */
	int verbose;		/* -v */
	struct bad_input *bad;	/* bad rows: report, count, skip */
	struct span_writer *w;
	uint64_t unnamed;	/* spans written with the name "unknown" */
};

struct db_schema {
	const char *name;	/* short name: "ascend" (for -v, --schema) */
	const char *what;	/* "Ascend PyTorch profiler DB" */
	/*
	 * Returns 1 if db holds this schema; otherwise 0 after appending to
	 * why what is missing ("no table PYTORCH_API").
	 */
	int (*detect)(sqlite3 *db, struct strbuf *why);
	/* Writes the spans.  Returns 0, or -1 after a message (exit 1). */
	int (*spans)(struct db_run *run);
};

extern const struct db_schema schema_ascend;
extern const struct db_schema schema_nsys;
extern const struct db_schema schema_rocpd;

/* The span writer (spanw.c); fp is the caller's to set and close. */
void span_writer_init(struct span_writer *w, const char *label,
    const char *where);
void span_writer_release(struct span_writer *w);
/* Writes one span record; returns 0 (a write error is fatal). */
int span_write(struct span_writer *w, const struct span *s);
/* Optional parts of a span; the strings are quoted JSON, or NULL. */
struct span_ext {
	const char *lane;	/* "lane": the kind of device lane */
	size_t lane_len;
	const char *thread_name;	/* "thread_name", the thread's name */
	size_t thread_name_len;
	/*
	 * start_ns and end_ns as the digits db_val_digits() accepted, which
	 * are written instead of the numbers of struct span; NULL: none.
	 */
	const char *start_txt, *end_txt;
	size_t start_txt_len, end_txt_len;
};
/* span_write with the optional parts x (NULL: none). */
int span_write_ext(struct span_writer *w, const struct span *s,
    const struct span_ext *x);
/* Writes the pending output; a write error is fatal. */
void span_flush(struct span_writer *w);
/* Appends s (any bytes) to sb as a quoted JSON string. */
void span_quote(struct strbuf *sb, const char *s, size_t len);

/* --tables LIST of the Ascend schema (ascend.c); exits 2 on a bad name. */
void ascend_tables(const char *list);

/* Helpers for schemas (db.c). */
/*
 * Reports a bad row ("file: message"), counts and skips it; with --strict
 * it is fatal, after the spans before it have been written.
 */
void db_bad_row(struct db_run *run, const char *fmt, ...) PRINTF_LIKE(2, 3);
/*
 * Reads a span from a result row whose first columns are pid, tid,
 * start, end (integers, as db_col_i64 reads them) and the name (NULL:
 * "unknown", counted in run->unnamed), quoted into name; the category is
 * left to the caller.  Returns 0, or -1 after reporting the row as bad
 * ("TABLE IDNAME N: start is NULL", N from column idcol).
 */
int db_span_row(struct db_run *run, sqlite3_stmt *st, struct span *s,
    struct strbuf *name, const char *table, const char *idname, int idcol);
/* 1 if the table or view exists. */
int db_has_table(sqlite3 *db, const char *table);
/*
 * With the progress line on, adds the number of rows query sql gives to
 * the line's total, so it shows a percentage.
 */
void db_progress_rows(struct db_run *run, const char *sql);
/* Appends the names of the database's tables, ", "-separated. */
void db_list_tables(sqlite3 *db, struct strbuf *sb);
/* 1 if table has the column (by name, as PRAGMA table_info gives). */
int db_has_column(sqlite3 *db, const char *table, const char *column);
/*
 * 0 if table has every column of the NULL-terminated cols; else -1 after
 * naming the first one it lacks.
 */
int db_need_columns(struct db_run *run, const char *table,
    const char *const *cols);
/*
 * Reads an integer column exactly: INTEGER values as they are, TEXT holding
 * an optional '-' and decimal digits without going through a double.
 * Returns 0, or -1 (NULL, REAL, BLOB, other text, out of range) with what
 * set to a short reason.
 */
int db_col_i64(sqlite3_stmt *st, int col, int64_t *out, const char **what);
/* The same for a value of sqlite3_column_value() (one call, not three). */
int db_val_i64(sqlite3_value *val, int64_t *out, const char **what);
/*
 * 1 if the value is TEXT holding a non-negative integer as ndw writes it
 * (decimal digits, no leading zero, at most INT64_MAX), with *p and *len
 * set to that text, which can be written as it is; else 0.
 */
int db_val_digits(sqlite3_value *val, const char **p, size_t *len);
/* The same two for text of len bytes (not NUL-ended) at p. */
int db_text_i64(const char *p, size_t len, int64_t *out, const char **what);
int db_text_digits(const char *s, size_t n, const char **p, size_t *len);

/*
 * btree.c: a rowid table's rows read from the file itself, in SQLite's
 * scan order, for the plain case; the rest is SQLite's (see btree.c).
 */
#define BT_COLS 8
#define BT_DEPTH 20		/* SQLite's limit on a b-tree's depth */
#define BT_MAXC 64		/* columns read are among the first 64 */
#define BT_MEMO 32		/* the longest record header remembered */
/* A value as SQLite stores it: SQLITE_NULL, SQLITE_INTEGER or SQLITE_TEXT. */
struct bt_val {
	int type;
	int64_t i;		/* SQLITE_INTEGER */
	const char *p;		/* SQLITE_TEXT: n bytes, not NUL-ended */
	size_t n;
};
struct bt_scan {
	int fd;
	uint32_t psize, usable, npages, root;
	int col[BT_COLS], ncols;	/* record index by column, -1: none */
	int maxc;		/* the largest col[] */
	uint64_t type[BT_MAXC];	/* of a record's columns up to maxc */
	/*
	 * The last record header read (its first BT_MEMO bytes), which the
	 * next record's often repeats: its columns' types and offsets.
	 */
	unsigned char mh[BT_MEMO];
	uint32_t mhs;		/* its bytes; 0: none */
	int mn, mfull;		/* types read; 1 if the header was all read */
	uint64_t msz, moff[BT_MAXC];
	unsigned char *pages;	/* a page per level */
	struct bt_level {
		const unsigned char *pg, *cells;
		uint32_t n, i, lo, right;
		int leaf;
	} lv[BT_DEPTH];
	int depth, started;
	uint64_t visited;	/* pages read */
};
/*
 * Opens table for reading the ncols columns cols (NULL: none, read as
 * NULL); returns 0, or -1 when SQLite must read it.  Either way
 * bt_close() ends it, after the read transaction: closing a descriptor
 * of the file drops every POSIX lock the process holds on it, SQLite's
 * too.
 */
int bt_open(struct bt_scan *s, sqlite3 *db, const char *table,
    const char *const *cols, int ncols);
enum { BT_DONE, BT_ROW, BT_STOP };
/*
 * The next row: BT_ROW with its rowid and values, BT_DONE at the end;
 * BT_STOP: SQLite must read the table from here on (what is left is not
 * plain, or is corrupt), which its full scan reaches after the rows read
 * so far.
 */
int bt_next(struct bt_scan *s, int64_t *rowid, struct bt_val *v);
void bt_close(struct bt_scan *s);

/*
 * open.c: opens path read-only so that nothing beside it is created or
 * changed (shown names it in messages).  Returns NULL after a message.
 * db_close() closes it and removes any temporary copy.
 */
sqlite3 *db_open_ro(const char *path, const char *shown);
void db_close(sqlite3 *db);

#endif

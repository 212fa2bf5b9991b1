/* db.c: the helpers every schema of db2spans reads its tables with. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "digits.h"
#include "err.h"
#include "nd.h"
#include "progress.h"
#include "strbuf.h"

#include "db2spans.h"

void
db_bad_row(struct db_run *run, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (run->bad->strict)
		span_flush(run->w);
	bad_input(run->bad, NULL, "%s: %s", run->path, msg);
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

void
db_progress_rows(struct db_run *run, const char *sql)
{
	struct strbuf q = STRBUF_INIT;
	sqlite3_stmt *st;

	if (!progress_active())
		return;
	strbuf_addf(&q, "SELECT COUNT(*) FROM (%s)", sql);
	if (sqlite3_prepare_v2(run->db, q.buf, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_int64(st, 0) > 0)
			progress_total((uint64_t)sqlite3_column_int64(st, 0));
		sqlite3_finalize(st);
	}
	strbuf_release(&q);
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
	return db_val_i64(sqlite3_column_value(st, col), out, what);
}

int
db_val_i64(sqlite3_value *val, int64_t *out, const char **what)
{
	switch (sqlite3_value_type(val)) {
	case SQLITE_INTEGER:
		*out = sqlite3_value_int64(val);
		return 0;
	case SQLITE_NULL:
		*what = "is NULL";
		return -1;
	case SQLITE_TEXT:
		return db_text_i64((const char *)sqlite3_value_text(val),
		    (size_t)sqlite3_value_bytes(val), out, what);
	default:
		*what = "is not an integer";
		return -1;
	}
}

int
db_text_i64(const char *p, size_t len, int64_t *out, const char **what)
{
	struct nd_slice v;
	size_t i;

	/* The same exact reader as for JSON numbers: '-' and digits. */
	v.p = p;
	v.len = len;
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

/* 1 if the 8 bytes at p are all decimal digits. */
static int
digits8(const char *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
	return digits_all8(x);
}

int
db_val_digits(sqlite3_value *val, const char **p, size_t *len)
{
	if (sqlite3_value_type(val) != SQLITE_TEXT)
		return 0;
	return db_text_digits((const char *)sqlite3_value_text(val),
	    (size_t)sqlite3_value_bytes(val), p, len);
}

int
db_text_digits(const char *s, size_t n, const char **p, size_t *len)
{
	size_t i = 0;

	if (n == 0 || n > 19 || (s[0] == '0' && n > 1))
		return 0;
	if (n >= 8) {	/* the last word overlaps the one before it */
		for (; i + 8 < n; i += 8)
			if (!digits8(s + i))
				return 0;
		if (!digits8(s + n - 8))
			return 0;
	} else
		for (; i < n; i++)
			if (s[i] < '0' || s[i] > '9')
				return 0;
	if (n == 19 && s[0] == '9' &&
	    memcmp(s, "9223372036854775807", 19) > 0)
		return 0;
	*p = s;
	*len = n;
	return 1;
}

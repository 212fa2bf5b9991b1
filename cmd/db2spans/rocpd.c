/*
 * rocpd.c: rocprofv3's rocpd SQLite database: one span per row of the
 * `regions` view (CPU-side API calls and markers, on their OS pid and tid)
 * and of the `kernels` view (one lane per GPU and queue: pid = the agent's
 * absolute index, tid = the queue id).
 *
 * Only the views are read: the tables behind them carry a per-run UUID
 * suffix and have changed layout between versions (times stored directly
 * or through rocpd_timestamp), while the views' columns stay put.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "err.h"
#include "strbuf.h"

#include "db2spans.h"

static const char *const rocpd_views[] = { "regions", "kernels" };

static int
rocpd_detect(sqlite3 *db, struct strbuf *why)
{
	if (!db_has_table(db, "rocpd_string")) {
		strbuf_addstr(why, "no table rocpd_string");
		return 0;
	}
	if (db_has_table(db, "regions") || db_has_table(db, "kernels"))
		return 1;
	strbuf_addstr(why, "no view regions or kernels");
	return 0;
}

/* The first of two column names the view has, or NULL with a message. */
static const char *
rocpd_col(struct db_run *run, const char *view, const char *a, const char *b)
{
	if (db_has_column(run->db, view, a))
		return a;
	if (b != NULL && db_has_column(run->db, view, b))
		return b;
	warn("'%s': view %s has no column %s", run->path, view, a);
	return NULL;
}

/*
 * Appends the SELECT of view i: pid, tid, start, end, name, category,
 * view index, id.  Returns 0, 1 if the view is absent, -1 on a missing
 * column.
 */
static int
rocpd_select(struct db_run *run, size_t i, struct strbuf *sql)
{
	const char *v = rocpd_views[i], *pid, *tid, *start, *end, *name;
	const char *cat, *id;

	if (!db_has_table(run->db, v))
		return 1;
	if (i == 0) {
		pid = rocpd_col(run, v, "pid", NULL);
		tid = rocpd_col(run, v, "tid", NULL);
	} else {
		pid = rocpd_col(run, v, "agent_absolute_index",
		    "agent_abs_index");
		tid = rocpd_col(run, v, "queue_id", "stream_id");
	}
	start = rocpd_col(run, v, "start", NULL);
	end = rocpd_col(run, v, "end", NULL);
	name = rocpd_col(run, v, "name", NULL);
	if (pid == NULL || tid == NULL || start == NULL || end == NULL ||
	    name == NULL)
		return -1;
	cat = db_has_column(run->db, v, "category") ? "\"category\"" : "NULL";
	id = db_has_column(run->db, v, "id") ? "\"id\"" : "NULL";
	if (sql->len > 0)
		strbuf_addstr(sql, " UNION ALL ");
	strbuf_addf(sql, "SELECT \"%s\", \"%s\", \"%s\", \"%s\", \"%s\", %s, "
	    "%zu, %s FROM \"%s\"", pid, tid, start, end, name, cat, i, id, v);
	return 0;
}

/* Writes the span of one result row, or reports it as a bad row. */
static void
rocpd_row(struct db_run *run, sqlite3_stmt *st, struct strbuf *name,
    struct strbuf *cat)
{
	struct span s;
	int view = sqlite3_column_int(st, 6);

	if (db_span_row(run, st, &s, name, rocpd_views[view], "id", 7) != 0)
		return;
	strbuf_reset(cat);
	if (sqlite3_column_type(st, 5) != SQLITE_NULL)
		span_quote(cat, (const char *)sqlite3_column_text(st, 5),
		    (size_t)sqlite3_column_bytes(st, 5));
	else if (view == 1)
		strbuf_addstr(cat, "\"kernel\"");
	s.cat = cat->len > 0 ? cat->buf : NULL;
	s.cat_len = cat->len;
	span_write(run->w, &s);
}

static int
rocpd_spans(struct db_run *run)
{
	struct strbuf sql = STRBUF_INIT, name = STRBUF_INIT, cat = STRBUF_INIT;
	sqlite3_stmt *st;
	size_t i;
	int rc = 0;

	for (i = 0; i < 2 && rc >= 0; i++)
		rc = rocpd_select(run, i, &sql);
	if (rc < 0 || sql.len == 0) {
		strbuf_release(&sql);
		return rc < 0 ? -1 : 0;
	}
	db_progress_rows(run, sql.buf);
	if (run->sorted)
		strbuf_addstr(&sql, " ORDER BY 1, 2, 3, 4 DESC, 7, 8");
	if (sqlite3_prepare_v2(run->db, sql.buf, -1, &st, NULL) !=
	    SQLITE_OK) {
		warn("'%s': %s", run->path, sqlite3_errmsg(run->db));
		strbuf_release(&sql);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		rocpd_row(run, st, &name, &cat);
	if (rc != SQLITE_DONE)
		warn("'%s': %s", run->path, sqlite3_errmsg(run->db));
	sqlite3_finalize(st);
	strbuf_release(&sql);
	strbuf_release(&name);
	strbuf_release(&cat);
	return rc == SQLITE_DONE ? 0 : -1;
}

const struct db_schema schema_rocpd = {
	"rocpd",
	"AMD rocpd database (rocprofv3)",
	rocpd_detect,
	rocpd_spans,
};

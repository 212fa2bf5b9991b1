/*
 * nsys.c: the Nsight Systems SQLite export (nsys export --type sqlite):
 * NVTX ranges, CUDA runtime and driver calls, OS runtime calls and GPU
 * kernels as spans, names through StringIds.
 *
 * Thread ids come from globalTid, whose layout differs from Ascend's:
 * tid = bits 0-23, pid = bits 24-47 (the bits above hold VM and hardware
 * ids).  Kernels run in a lane per device and stream: pid = deviceId,
 * tid = streamId, as torch.profiler's traces have it.  Times are the
 * export's integer nanoseconds, as written.  Thread names come from
 * ThreadNames (the first row of a thread), as "thread_name".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "err.h"
#include "strbuf.h"

#include "db2spans.h"

/* The tables read, in table order (the tie-break of --sorted). */
static const struct nsys_table {
	const char *table;
	const char *cat;	/* quoted JSON */
	int kind;
} nsys_tables[] = {
	{ "NVTX_EVENTS", "\"nvtx\"", 'n' },
	{ "CUPTI_ACTIVITY_KIND_RUNTIME", "\"cuda_api\"", 'c' },
	{ "CUPTI_ACTIVITY_KIND_DRIVER", "\"cuda_driver\"", 'c' },
	{ "OSRT_API", "\"osrt\"", 'c' },
	{ "CUPTI_ACTIVITY_KIND_KERNEL", "\"kernel\"", 'k' },
};
#define NSYS_NTABLES (sizeof(nsys_tables) / sizeof(nsys_tables[0]))

/* Thread names: (pid << 24 | tid) to a quoted JSON string in text. */
struct nsys_tname {
	uint64_t key;
	size_t off, len, row;
};

struct nsys_tnames {
	struct nsys_tname *v;
	size_t n, alloc, last;	/* last: the entry found last */
	struct strbuf text;
};

static int
tname_cmp(const void *a, const void *b)
{
	const struct nsys_tname *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* Loads ThreadNames, if the export has it, sorted, first name per thread. */
static void
tnames_load(struct db_run *run, struct nsys_tnames *t)
{
	sqlite3_stmt *st;
	const char *what;
	int64_t g;
	size_t i, j;

	memset(t, 0, sizeof(*t));
	strbuf_init(&t->text, 1024);
	if (!db_has_column(run->db, "ThreadNames", "globalTid") ||
	    !db_has_column(run->db, "ThreadNames", "nameId") ||
	    sqlite3_prepare_v2(run->db, "SELECT x.globalTid, s.value FROM "
	    "ThreadNames x JOIN StringIds s ON s.id = x.nameId", -1, &st,
	    NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (db_col_i64(st, 0, &g, &what) != 0 ||
		    sqlite3_column_type(st, 1) == SQLITE_NULL)
			continue;
		XGROW(t->v, t->n + 1, t->alloc);
		t->v[t->n].key = (uint64_t)g & 0xFFFFFFFFFFFFu;
		t->v[t->n].row = t->n;
		t->v[t->n].off = t->text.len;
		span_quote(&t->text, (const char *)sqlite3_column_text(st, 1),
		    (size_t)sqlite3_column_bytes(st, 1));
		t->v[t->n].len = t->text.len - t->v[t->n].off;
		t->n++;
	}
	sqlite3_finalize(st);
	if (t->n > 0)
		qsort(t->v, t->n, sizeof(*t->v), tname_cmp);
	for (i = j = 0; i < t->n; i++)
		if (j == 0 || t->v[i].key != t->v[j - 1].key)
			t->v[j++] = t->v[i];
	t->n = j;
}

/* Sets x's thread name for the thread (pid, tid), if it has one. */
static void
tnames_get(struct nsys_tnames *t, uint64_t pid, uint64_t tid,
    struct span_ext *x)
{
	uint64_t key = (pid & 0xFFFFFFu) << 24 | (tid & 0xFFFFFFu);
	size_t lo = 0, hi = t->n, mid;

	x->thread_name = NULL;
	x->thread_name_len = 0;
	if (t->n == 0)
		return;
	if (t->v[t->last].key != key) {
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (t->v[mid].key < key)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == t->n || t->v[lo].key != key)
			return;
		t->last = lo;
	}
	x->thread_name = t->text.buf + t->v[t->last].off;
	x->thread_name_len = t->v[t->last].len;
}

static void
tnames_release(struct nsys_tnames *t)
{
	free(t->v);
	strbuf_release(&t->text);
}

/* NVTX event types that are ranges (ENUM_NSYS_EVENT_TYPE). */
#define NVTX_RANGES "(59, 60)"

static int
nsys_detect(sqlite3 *db, struct strbuf *why)
{
	size_t i;

	if (!db_has_table(db, "StringIds")) {
		strbuf_addstr(why, "no table StringIds");
		return 0;
	}
	if (db_has_table(db, "TARGET_INFO_SESSION_START_TIME") ||
	    db_has_table(db, "META_DATA_EXPORT"))
		return 1;
	for (i = 0; i < NSYS_NTABLES; i++)
		if (db_has_table(db, nsys_tables[i].table))
			return 1;
	strbuf_addstr(why, "no Nsight Systems table");
	return 0;
}

/*
 * Appends the SELECT of table i: pid, tid, start, end, name, table index,
 * rowid.  Returns 0, 1 if the table is absent, -1 on a missing column.
 */
static int
nsys_select(struct db_run *run, size_t i, struct strbuf *sql)
{
	static const char *const thr[] = { "globalTid", "start", "end", NULL };
	static const char *const cupti[] = { "nameId", NULL };
	static const char *const nvtx[] = { "eventType", NULL };
	static const char *const kern[] = { "deviceId", "streamId", "start",
	    "end", NULL };
	const char *t = nsys_tables[i].table, *name;
	int text, textid;

	if (!db_has_table(run->db, t))
		return 1;
	if (sql->len > 0)
		strbuf_addstr(sql, " UNION ALL ");
	switch (nsys_tables[i].kind) {
	case 'k':
		if (db_need_columns(run, t, kern) != 0)
			return -1;
		name = db_has_column(run->db, t, "demangledName") ?
		    "demangledName" : "shortName";
		if (db_need_columns(run, t,
		    (const char *const[]){ name, NULL }) != 0)
			return -1;
		strbuf_addf(sql, "SELECT x.deviceId, x.streamId, x.start, "
		    "x.end, s.value, %zu, x.rowid FROM \"%s\" x LEFT JOIN "
		    "StringIds s ON s.id = x.\"%s\"", i, t, name);
		return 0;
	case 'n':
		text = db_has_column(run->db, t, "text");
		textid = db_has_column(run->db, t, "textId");
		if (db_need_columns(run, t, thr) != 0 ||
		    db_need_columns(run, t, nvtx) != 0)
			return -1;
		strbuf_addf(sql, "SELECT (x.globalTid >> 24) & 16777215, "
		    "x.globalTid & 16777215, x.start, x.end, COALESCE(%s, "
		    "%s), %zu, x.rowid FROM \"%s\" x LEFT JOIN StringIds s "
		    "ON s.id = %s WHERE x.eventType IN " NVTX_RANGES
		    " AND x.end IS NOT NULL", text ? "x.text" : "NULL",
		    textid ? "s.value" : "NULL", i, t,
		    textid ? "x.textId" : "NULL");
		return 0;
	default:
		if (db_need_columns(run, t, thr) != 0 ||
		    db_need_columns(run, t, cupti) != 0)
			return -1;
		strbuf_addf(sql, "SELECT (x.globalTid >> 24) & 16777215, "
		    "x.globalTid & 16777215, x.start, x.end, s.value, %zu, "
		    "x.rowid FROM \"%s\" x LEFT JOIN StringIds s ON "
		    "s.id = x.nameId", i, t);
		return 0;
	}
}

/* Counts the NVTX rows that are not finished ranges (marks, open ones). */
static void
nsys_marks(struct db_run *run)
{
	sqlite3_stmt *st;
	sqlite3_int64 n = 0;

	if (!db_has_table(run->db, "NVTX_EVENTS") ||
	    sqlite3_prepare_v2(run->db, "SELECT count(*) FROM NVTX_EVENTS "
	    "WHERE NOT (eventType IN " NVTX_RANGES " AND end IS NOT NULL)",
	    -1, &st, NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (n > 0)
		warn("%s: skipped %lld NVTX mark%s and ranges without an end",
		    run->path, (long long)n, n == 1 ? "" : "s");
}

/* Writes the span of one result row, or reports it as a bad row. */
static void
nsys_row(struct db_run *run, sqlite3_stmt *st, struct strbuf *name,
    struct nsys_tnames *tn)
{
	struct span_ext x = { .lane = NULL };
	struct span s;
	int64_t t = sqlite3_column_int64(st, 5);

	if (db_span_row(run, st, &s, name, nsys_tables[t].table, "rowid",
	    6) != 0)
		return;
	s.cat = nsys_tables[t].cat;
	s.cat_len = strlen(s.cat);
	if (nsys_tables[t].kind != 'k')
		tnames_get(tn, s.pid, s.tid, &x);
	span_write_ext(run->w, &s, &x);
}

static int
nsys_spans(struct db_run *run)
{
	struct strbuf sql = STRBUF_INIT, name = STRBUF_INIT;
	struct nsys_tnames tn;
	sqlite3_stmt *st;
	size_t i;
	int rc = 0;

	for (i = 0; i < NSYS_NTABLES && rc >= 0; i++)
		rc = nsys_select(run, i, &sql);
	if (rc < 0 || sql.len == 0) {
		strbuf_release(&sql);
		return rc < 0 ? -1 : 0;
	}
	db_progress_rows(run, sql.buf);
	if (run->sorted)
		strbuf_addstr(&sql, " ORDER BY 1, 2, 3, 4 DESC, 6, 7");
	nsys_marks(run);
	if (sqlite3_prepare_v2(run->db, sql.buf, -1, &st, NULL) !=
	    SQLITE_OK) {
		warn("'%s': %s", run->path, sqlite3_errmsg(run->db));
		strbuf_release(&sql);
		return -1;
	}
	tnames_load(run, &tn);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		nsys_row(run, st, &name, &tn);
	if (rc != SQLITE_DONE)
		warn("'%s': %s", run->path, sqlite3_errmsg(run->db));
	sqlite3_finalize(st);
	tnames_release(&tn);
	strbuf_release(&sql);
	strbuf_release(&name);
	return rc == SQLITE_DONE ? 0 : -1;
}

const struct db_schema schema_nsys = {
	"nsys",
	"Nsight Systems SQLite export",
	nsys_detect,
	nsys_spans,
};

/*
 * ascend.c: the Ascend PyTorch profiler DB (ascend_pytorch_profiler_N.db)
 * and the msprof DB it is built on: one span per row of the tables chosen
 * with --tables (PYTORCH_API, CANN_API, TASK), names through STRING_IDS.
 *
 * PYTORCH_API and CANN_API rows run on host threads (globalTid = pid << 32
 * | tid).  TASK rows run on the device: each device and stream is a lane of
 * its own, pid deviceId and tid streamId with "lane":"npu", which no host
 * thread shares (spans2stacks makes it the thread "npu:<deviceId>/
 * <streamId>"), so device tasks never nest inside host calls, nor inside
 * each other.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "err.h"
#include "strbuf.h"

#include "db2spans.h"

/* Name ids map to quoted JSON strings in one buffer (under 4 GB). */
struct str_ent {
	int64_t id;
	uint32_t off, len;	/* len 0: empty slot */
};

struct str_tab {
	struct str_ent *ents;
	size_t cap, n;		/* cap: a power of two */
	struct strbuf text;
};

static size_t
str_hash(int64_t id, size_t mask)
{
	uint64_t h = (uint64_t)id * 0x9E3779B97F4A7C15ULL;

	return (size_t)(h >> 32) & mask;
}

static void
str_insert(struct str_tab *t, int64_t id, size_t off, size_t len)
{
	size_t i, mask = t->cap - 1;

	for (i = str_hash(id, mask); t->ents[i].len != 0 &&
	    t->ents[i].id != id; i = (i + 1) & mask)
		;
	if (t->ents[i].len == 0)
		t->n++;
	t->ents[i].id = id;
	t->ents[i].off = (uint32_t)off;
	t->ents[i].len = (uint32_t)len;
}

static void
str_grow(struct str_tab *t, size_t want)
{
	struct str_ent *old = t->ents;
	size_t i, oldcap = t->cap;

	t->cap = oldcap == 0 ? 1024 : oldcap * 2;
	while (t->cap < 2 * want)
		t->cap *= 2;
	t->n = 0;
	t->ents = xcalloc(t->cap, sizeof(*t->ents));
	for (i = 0; i < oldcap; i++)
		if (old[i].len != 0)
			str_insert(t, old[i].id, old[i].off, old[i].len);
	free(old);
}

/* Returns the quoted name of id, or NULL when the table has none. */
static const char *
str_get(const struct str_tab *t, int64_t id, size_t *len)
{
	size_t i, mask = t->cap - 1;

	for (i = str_hash(id, mask); t->ents[i].len != 0; i = (i + 1) & mask)
		if (t->ents[i].id == id) {
			*len = t->ents[i].len;
			return t->text.buf + t->ents[i].off;
		}
	return NULL;
}

static void
str_release(struct str_tab *t)
{
	free(t->ents);
	strbuf_release(&t->text);
}

/*
 * The number of STRING_IDS rows and the bytes of their values, so that the
 * table is made at its size once (growing it would hold two copies).
 */
static void
str_size(struct db_run *run, size_t *n, size_t *bytes)
{
	sqlite3_stmt *st;

	*n = *bytes = 0;
	if (sqlite3_prepare_v2(run->db, "SELECT count(*), "
	    "sum(length(CAST(\"value\" AS BLOB))) FROM \"STRING_IDS\"", -1,
	    &st, NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*n = (size_t)sqlite3_column_int64(st, 0);
		*bytes = (size_t)sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
}

/*
 * Loads STRING_IDS; NULL and empty values count as missing names.  On an
 * error the table is released.
 */
static int
str_load(struct db_run *run, struct str_tab *t)
{
	sqlite3_stmt *st;
	const char *what;
	int64_t id;
	size_t off;
	int rc;

	size_t n, bytes;

	str_size(run, &n, &bytes);
	memset(t, 0, sizeof(*t));
	/* Two quotes a name; escapes grow the buffer as they come. */
	strbuf_init(&t->text, bytes + 2 * n + 1);
	str_grow(t, n);
	if (sqlite3_prepare_v2(run->db, "SELECT \"id\", \"value\" FROM "
	    "\"STRING_IDS\"", -1, &st, NULL) != SQLITE_OK) {
		warn("'%s': STRING_IDS: %s", run->path,
		    sqlite3_errmsg(run->db));
		str_release(t);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (db_col_i64(st, 0, &id, &what) != 0 ||
		    sqlite3_column_type(st, 1) == SQLITE_NULL ||
		    sqlite3_column_bytes(st, 1) == 0)
			continue;
		off = t->text.len;
		span_quote(&t->text, (const char *)sqlite3_column_text(st, 1),
		    (size_t)sqlite3_column_bytes(st, 1));
		if (t->text.len > UINT32_MAX) {
			warn("'%s': STRING_IDS: more than 4 GB of names",
			    run->path);
			sqlite3_finalize(st);
			str_release(t);
			return -1;
		}
		if ((t->n + 1) * 2 > t->cap)
			str_grow(t, 0);
		str_insert(t, id, off, t->text.len - off);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		warn("'%s': STRING_IDS: %s", run->path,
		    sqlite3_errmsg(run->db));
		str_release(t);
		return -1;
	}
	return 0;
}

/*
 * The columns of a row of ascend_select, and the aggregate that writes
 * the spans of an unsorted read (see ascend_spans).
 */
#define ASC_COLS 9
#define ASC_AGG "db2spans_row"

/* The tables --tables names, in table order (the tie-break of --sorted). */
enum { T_PYTORCH, T_CANN, T_TASK, T_N };

static const struct asc_table {
	const char *opt;	/* its name in --tables */
	const char *table;
} asc_tables[T_N] = {
	{ "pytorch", "PYTORCH_API" },
	{ "cann", "CANN_API" },
	{ "task", "TASK" },
};

/*
 * The tables named by --tables (each must be there), whether "all" (every
 * one the DB has) was among them, and whether --tables was given at all.
 */
static unsigned asc_want = 1u << T_PYTORCH;
static int asc_all, asc_given;

void
ascend_tables(const char *list)
{
	const char *p = list, *e;
	size_t i, n;

	asc_want = 0;
	asc_given = 1;
	do {
		e = strchr(p, ',');
		n = e != NULL ? (size_t)(e - p) : strlen(p);
		for (i = 0; i < T_N; i++)
			if (strlen(asc_tables[i].opt) == n &&
			    memcmp(asc_tables[i].opt, p, n) == 0)
				break;
		if (n == 3 && memcmp(p, "all", 3) == 0)
			asc_all = 1;
		else if (i < T_N)
			asc_want |= 1u << i;
		else
			die_usage("--tables: unknown table '%.*s' (known: "
			    "pytorch, cann, task, all)", (int)n, p);
		if (e != NULL)
			p = e + 1;
	} while (e != NULL);
}

/*
 * An Ascend DB has STRING_IDS and one of the tables of --tables at least
 * (a DB of msprof alone has no PYTORCH_API); a table asked for and absent
 * is an error of ascend_spans, which names the tables there are.
 */
static int
ascend_detect(sqlite3 *db, struct strbuf *why)
{
	int ids = db_has_table(db, "STRING_IDS"), any = 0;
	size_t i;

	for (i = 0; i < T_N; i++)
		if (db_has_table(db, asc_tables[i].table))
			any = 1;
	if (ids && any)
		return 1;
	if (!ids)
		strbuf_addstr(why, "no table STRING_IDS");
	if (!any)
		strbuf_addf(why, "%sno table PYTORCH_API, CANN_API or TASK",
		    ids ? "" : " and ");
	return 0;
}

/* Says which table or needed column is missing; 0 if none is. */
static int
ascend_need(struct db_run *run, size_t t, const char *const *cols)
{
	struct strbuf tables = STRBUF_INIT;
	const char *table = asc_tables[t].table;

	if (!db_has_table(run->db, table)) {
		db_list_tables(run->db, &tables);
		warn("'%s': no table %s for --tables %s (tables: %s)",
		    run->path, table, asc_tables[t].opt, tables.buf);
		strbuf_release(&tables);
		return -1;
	}
	return db_need_columns(run, table, cols);
}

/* Appends "x.col" if table has the column, else "NULL". */
static void
ascend_col(struct db_run *run, struct strbuf *sql, const char *table,
    const char *col)
{
	if (db_has_column(run->db, table, col))
		strbuf_addf(sql, "x.\"%s\"", col);
	else
		strbuf_addstr(sql, "NULL");
}

/*
 * Appends ", " and the sort keys of table t: lane, start, end.  As the
 * columns 10-14 of a UNION (cols set) they start with the kind of lane
 * (0 host, 1 device); else they are one table's ORDER BY, which SQLite
 * sorts faster than extra columns.
 */
static void
ascend_keys(size_t t, struct strbuf *sb, int cols)
{
	if (cols)
		strbuf_addstr(sb, t == T_TASK ? ", 1" : ", 0");
	if (t == T_TASK)
		strbuf_addstr(sb, ", CAST(x.\"deviceId\" AS INTEGER), "
		    "CAST(x.\"streamId\" AS INTEGER)");
	else
		strbuf_addf(sb, ", CAST(x.\"globalTid\" AS INTEGER)%s",
		    cols ? ", NULL" : "");
	strbuf_addf(sb, ", CAST(x.\"startNs\" AS INTEGER), CAST(x.\"endNs\" "
	    "AS INTEGER)%s", cols ? "" : " DESC, x.rowid");
}

/*
 * Appends the SELECT of table t: start, end, lane (globalTid, or deviceId
 * and streamId), name id, second name id, type, table, rowid (ASC_COLS
 * columns), then the sort keys if keys is set; with agg, those columns
 * are the arguments of the aggregate ASC_AGG instead.  Returns 0, or -1
 * after a message.
 */
static int
ascend_select(struct db_run *run, size_t t, struct strbuf *sql, int keys,
    int agg)
{
	const char *sel = agg ? "SELECT " ASC_AGG "(" : "SELECT ";
	static const char *const host[] = { "startNs", "endNs", "globalTid",
		"name", NULL };
	static const char *const task[] = { "startNs", "endNs", "deviceId",
		"streamId", NULL };
	const char *table = asc_tables[t].table;
	int info = 0;

	if (ascend_need(run, t, t == T_TASK ? task : host) != 0)
		return -1;
	if (sql->len > 0)
		strbuf_addstr(sql, " UNION ALL ");
	if (t != T_TASK) {
		strbuf_addf(sql, "%sx.\"startNs\", x.\"endNs\", "
		    "x.\"globalTid\", NULL, x.\"name\", NULL, ", sel);
		ascend_col(run, sql, table, "type");
		strbuf_addf(sql, ", %zu, x.rowid", t);
	} else {
		/* A compute task's name is in COMPUTE_TASK_INFO. */
		info = db_has_column(run->db, "TASK", "globalTaskId") &&
		    db_has_column(run->db, "COMPUTE_TASK_INFO", "name") &&
		    db_has_column(run->db, "COMPUTE_TASK_INFO", "globalTaskId");
		strbuf_addf(sql, "%sx.\"startNs\", x.\"endNs\", "
		    "x.\"deviceId\", x.\"streamId\", %s, ", sel,
		    info ? "c.\"name\"" : "NULL");
		ascend_col(run, sql, table, "taskType");
		strbuf_addf(sql, ", NULL, %zu, x.rowid", t);
	}
	if (keys)
		ascend_keys(t, sql, 1);
	if (agg)
		strbuf_addch(sql, ')');
	strbuf_addf(sql, " FROM \"%s\" x", table);
	/*
	 * One row per globalTaskId (the first one, by rowid: SQLite takes
	 * a bare column from the row of the MIN()), so a repeated id does
	 * not write its task twice.
	 */
	if (t == T_TASK && info)
		strbuf_addstr(sql, " LEFT JOIN (SELECT \"globalTaskId\", "
		    "\"name\", MIN(rowid) FROM \"COMPUTE_TASK_INFO\" GROUP BY "
		    "\"globalTaskId\") c ON c.\"globalTaskId\" = "
		    "x.\"globalTaskId\"");
	return 0;
}

/* db_val_i64() for a value of a row. */
static int
asc_i64(const struct bt_val *v, int64_t *out, const char **what)
{
	switch (v->type) {
	case SQLITE_INTEGER:
		*out = v->i;
		return 0;
	case SQLITE_NULL:
		*what = "is NULL";
		return -1;
	case SQLITE_TEXT:
		return db_text_i64(v->p, v->n, out, what);
	default:
		*what = "is not an integer";
		return -1;
	}
}

/*
 * A value SQLite gives as a row's: a REAL or a BLOB keeps its type and,
 * for the category, its text, as sqlite3_value_text() gives it.
 */
static void
asc_val(sqlite3_value *sv, struct bt_val *v)
{
	switch ((v->type = sqlite3_value_type(sv))) {
	case SQLITE_NULL:
		break;
	case SQLITE_INTEGER:
		v->i = sqlite3_value_int64(sv);
		break;
	default:
		v->p = (const char *)sqlite3_value_text(sv);
		v->n = (size_t)sqlite3_value_bytes(sv);
	}
}

/* ENUM_API_TYPE, shared by PYTORCH_API and CANN_API (quoted JSON). */
#define ASC_TYPE(code, name) { code, "\"" name "\"", sizeof(name) + 1 }
static const struct {
	int64_t code;
	const char *cat;
	size_t len;
} asc_types[] = {
	ASC_TYPE(5000, "runtime"), ASC_TYPE(5500, "communication"),
	ASC_TYPE(10000, "node"), ASC_TYPE(15000, "model"),
	ASC_TYPE(20000, "acl"), ASC_TYPE(50001, "op"), ASC_TYPE(50002, "queue"),
	ASC_TYPE(50003, "python"), ASC_TYPE(50004, "mstx"),
};
#undef ASC_TYPE

/*
 * The category of the type v: its ENUM_API_TYPE name, an
 * unknown code as its digits, other text as written, none for NULL.
 */
static void
ascend_cat(const struct bt_val *v, struct span *s, struct strbuf *buf)
{
	const char *what;
	int64_t code;
	size_t i;

	s->cat = NULL;
	s->cat_len = 0;
	if (v->type == SQLITE_NULL)
		return;
	strbuf_reset(buf);
	if (asc_i64(v, &code, &what) == 0) {
		for (i = 0; i < sizeof(asc_types) / sizeof(asc_types[0]); i++)
			if (asc_types[i].code == code) {
				s->cat = asc_types[i].cat;
				s->cat_len = asc_types[i].len;
				return;
			}
		strbuf_addf(buf, "\"%" PRId64 "\"", code);
	} else
		span_quote(buf, v->p, v->n);
	s->cat = buf->buf;
	s->cat_len = buf->len;
}

/* Looks the name id v up; NULL if it has no text. */
static const char *
ascend_name(const struct str_tab *names, const struct bt_val *v,
    size_t *len)
{
	const char *what;
	int64_t id;

	if (v->type == SQLITE_INTEGER)
		id = v->i;
	else if (asc_i64(v, &id, &what) != 0)
		return NULL;
	return str_get(names, id, len);
}

/*
 * Reads the row's times and lane into s and x (a device lane is "npu");
 * reports a bad row and returns -1.  Times stored as text in the form
 * they are written in (torch_npu's TEXT columns) pass as that text.
 */
static int
ascend_row(struct db_run *run, const struct bt_val *row, size_t t,
    struct span *s, struct span_ext *x)
{
	static const char *const cols[][4] = {
		{ "startNs", "endNs", "globalTid", NULL },
		{ "startNs", "endNs", "deviceId", "streamId" },
	};
	const char **txt[2] = { &x->start_txt, &x->end_txt };
	size_t *txt_len[2] = { &x->start_txt_len, &x->end_txt_len };
	const struct bt_val *val;
	int64_t v[4] = { 0, 0, 0, 0 };
	const char *what;
	int i, dev = t == T_TASK;

	for (i = 0; i < 3 + dev; i++) {
		val = &row[i];
		if (i < 2) {
			*txt[i] = NULL;
			if (val->type == SQLITE_TEXT && db_text_digits(val->p,
			    val->n, txt[i], txt_len[i]))
				continue;
		}
		if (asc_i64(val, &v[i], &what) == 0) {
			if (!dev || i < 2 || v[i] >= 0)
				continue;
			what = "is negative";
		}
		db_bad_row(run, "%s rowid %lld: %s %s", asc_tables[t].table,
		    (long long)row[8].i, cols[dev][i],
		    what);
		return -1;
	}
	s->start_ns = v[0];
	s->end_ns = v[1];
	x->lane = NULL;
	x->lane_len = 0;
	if (dev) {
		x->lane = "\"npu\"";
		x->lane_len = 5;
		s->pid = (uint64_t)v[2];
		s->tid = (uint64_t)v[3];
	} else {
		s->pid = (uint64_t)v[2] >> 32;
		s->tid = (uint64_t)v[2] & 0xFFFFFFFFu;
	}
	return 0;
}

/*
 * Writes the span of one result row (the ASC_COLS values of ascend_select),
 * or reports it as a bad row.
 */
static void
ascend_write(struct db_run *run, const struct bt_val *row,
    const struct str_tab *names, struct strbuf *catq)
{
	struct span_ext x;
	struct span s;
	size_t t = (size_t)row[7].i;
	const char *type;
	size_t type_len = 0;

	if (t >= T_N || ascend_row(run, row, t, &s, &x) != 0)
		return;
	x.thread_name = NULL;
	x.thread_name_len = 0;
	s.name = ascend_name(names, &row[4], &s.name_len);
	if (t == T_TASK) {
		/* The task type names the category, and a task without
		 * COMPUTE_TASK_INFO. */
		type = ascend_name(names, &row[5], &type_len);
		if (s.name == NULL) {
			s.name = type;
			s.name_len = type_len;
		}
		s.cat = type;
		s.cat_len = type_len;
	} else
		ascend_cat(&row[6], &s, catq);
	if (s.name == NULL) {
		s.name = "\"unknown\"";
		s.name_len = 9;
		run->unnamed++;
	}
	span_write_ext(run->w, &s, &x);
}

/*
 * The tables to read in run's DB: those --tables names, and with "all"
 * every one there is.  Without --tables, PYTORCH_API; a DB of CANN's
 * msprof alone has none, and its CANN_API and TASK are read (one line
 * says so).
 */
static unsigned
ascend_want(struct db_run *run)
{
	struct strbuf names = STRBUF_INIT;
	unsigned have = 0;
	size_t t;

	for (t = 0; t < T_N; t++)
		if (db_has_table(run->db, asc_tables[t].table))
			have |= 1u << t;
	if (asc_all)
		return asc_want | have;
	if (asc_given || (have & 1u << T_PYTORCH))
		return asc_want;
	for (t = 0; t < T_N; t++)
		if (have >> t & 1)
			strbuf_addf(&names, "%s%s", names.len > 0 ? "," : "",
			    asc_tables[t].opt);
	warn("'%s' has no PYTORCH_API (an msprof DB of CANN): writing the "
	    "spans of --tables %s", run->path, names.buf);
	strbuf_release(&names);
	return have;
}

/*
 * Builds the query over the tables of --tables into sql, and their names
 * into what.  Returns 0, or -1 after a message.
 */
static int
ascend_query(struct db_run *run, struct strbuf *sql, struct strbuf *what,
    unsigned *wantp)
{
	struct strbuf keys = STRBUF_INIT, count = STRBUF_INIT;
	unsigned want = *wantp = ascend_want(run);
	size_t t, n = 0;

	for (t = 0; t < T_N; t++) {
		if (!(want >> t & 1))
			continue;
		n++;
		strbuf_reset(&count);
		strbuf_addf(&count, "SELECT 1 FROM \"%s\"",
		    asc_tables[t].table);
		db_progress_rows(run, count.buf);
	}
	strbuf_release(&count);
	for (t = 0; t < T_N; t++) {
		if (!(want >> t & 1))
			continue;
		if (ascend_select(run, t, sql, run->sorted && n > 1,
		    !run->sorted) != 0)
			return -1;
		strbuf_addf(what, "%s%s", what->len > 0 ? ", " : "",
		    asc_tables[t].table);
		if (run->sorted && n == 1)
			ascend_keys(t, &keys, 0);
	}
	if (keys.len > 0)
		strbuf_addf(sql, " ORDER BY %s", keys.buf + 2);
	else if (run->sorted)
		strbuf_addstr(sql, " ORDER BY 10, 11, 12, 13, 14 DESC, 8, 9");
	strbuf_release(&keys);
	if (!db_has_column(run->db, "STRING_IDS", "id") ||
	    !db_has_column(run->db, "STRING_IDS", "value")) {
		warn("'%s': table STRING_IDS has no column %s", run->path,
		    db_has_column(run->db, "STRING_IDS", "id") ? "value" :
		    "id");
		return -1;
	}
	return 0;
}

/* What the aggregate ASC_AGG writes its spans with. */
struct asc_agg {
	struct db_run *run;
	const struct str_tab *names;
	struct strbuf catq;
	uint64_t skip;		/* rows read already (btree.c) */
};

/*
 * A step of ASC_AGG: the span of one row.  An unsorted read is one
 * aggregate over the rows of each table, so that SQLite hands a row's
 * values over in one call, not through a sqlite3_step() and a
 * sqlite3_column_value() per value (a third of the time of the read).
 */
static void
asc_agg_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct asc_agg *a = sqlite3_user_data(ctx);
	struct bt_val row[ASC_COLS];
	int i;

	if (a->skip > 0) {
		a->skip--;
		return;
	}
	for (i = 0; i < argc && i < ASC_COLS; i++)
		asc_val(argv[i], &row[i]);
	ascend_write(a->run, row, a->names, &a->catq);
}

static void
asc_agg_final(sqlite3_context *ctx)
{
	sqlite3_result_null(ctx);
}

/*
 * Runs the query: a row of --sorted is a span, else the aggregate's.
 * Returns 0, or -1 after a message naming the tables (what).
 */
static int
ascend_run(struct db_run *run, const char *sql, const char *what,
    struct asc_agg *a)
{
	struct bt_val row[ASC_COLS];
	sqlite3_stmt *st = NULL;
	int rc = SQLITE_OK, i;

	if (!run->sorted)
		rc = sqlite3_create_function(run->db, ASC_AGG, ASC_COLS,
		    SQLITE_UTF8, a, NULL, asc_agg_step, asc_agg_final);
	if (rc == SQLITE_OK && (rc = sqlite3_prepare_v2(run->db, sql, -1,
	    &st, NULL)) == SQLITE_OK)
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (!run->sorted)
				continue;
			for (i = 0; i < ASC_COLS; i++)
				asc_val(sqlite3_column_value(st, i), &row[i]);
			ascend_write(run, row, a->names, &a->catq);
		}
	if (rc != SQLITE_DONE)
		warn("'%s': %s: %s", run->path, what,
		    sqlite3_errmsg(run->db));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * The unsorted read of the one host table t from the file itself
 * (btree.c); where it stops, SQLite's scan of the query sql takes over
 * after the rows read.  Returns 0 or -1 as ascend_run, or 1 if SQLite is
 * to read the whole table (nothing done).
 */
static int
ascend_native(struct db_run *run, size_t t, const char *sql,
    const char *what, struct asc_agg *a)
{
	static const char *const cols[] = { "startNs", "endNs", "globalTid",
		NULL, "name", NULL, "type" };
	struct bt_val row[ASC_COLS];
	struct bt_scan bt;
	uint64_t n = 0;
	int r, rc;

	/* A read transaction: no writer changes the file meanwhile. */
	if (sqlite3_exec(run->db, "BEGIN; SELECT count(*) FROM sqlite_master",
	    NULL, NULL, NULL) != SQLITE_OK) {
		if (!sqlite3_get_autocommit(run->db))
			sqlite3_exec(run->db, "ROLLBACK", NULL, NULL, NULL);
		return 1;
	}
	if (bt_open(&bt, run->db, asc_tables[t].table, cols, 7) != 0) {
		sqlite3_exec(run->db, "COMMIT", NULL, NULL, NULL);
		bt_close(&bt);
		if (run->verbose)
			warn("%s: %s: read by SQLite", run->path,
			    asc_tables[t].table);
		return 1;
	}
	row[7].type = row[8].type = SQLITE_INTEGER;
	row[7].i = (int64_t)t;
	while ((r = bt_next(&bt, &row[8].i, row)) == BT_ROW) {
		ascend_write(run, row, a->names, &a->catq);
		n++;
	}
	rc = 0;
	if (run->verbose)
		warn("%s: %s: %llu row%s read from the file itself%s",
		    run->path, asc_tables[t].table, (unsigned long long)n,
		    n == 1 ? "" : "s", r == BT_STOP ? ", the rest by SQLite" :
		    "");
	if (r == BT_STOP) {
		a->skip = n;
		rc = ascend_run(run, sql, what, a);
	}
	sqlite3_exec(run->db, "COMMIT", NULL, NULL, NULL);
	bt_close(&bt);
	return rc;
}

static int
ascend_spans(struct db_run *run)
{
	struct strbuf sql = STRBUF_INIT;
	struct strbuf what = STRBUF_INIT;	/* the tables, for messages */
	struct str_tab names;
	struct asc_agg a = { run, &names, STRBUF_INIT, 0 };
	unsigned want;
	int rc = 1;

	if (ascend_query(run, &sql, &what, &want) != 0 ||
	    str_load(run, &names) != 0) {
		strbuf_release(&sql);
		strbuf_release(&what);
		return -1;
	}
	if (!run->sorted && (want == 1u << T_PYTORCH || want == 1u << T_CANN))
		rc = ascend_native(run, want == 1u << T_PYTORCH ? T_PYTORCH :
		    T_CANN, sql.buf, what.buf, &a);
	if (rc > 0)
		rc = ascend_run(run, sql.buf, what.buf, &a);
	strbuf_release(&sql);
	strbuf_release(&what);
	strbuf_release(&a.catq);
	str_release(&names);
	return rc;
}

const struct db_schema schema_ascend = {
	"ascend",
	"Ascend PyTorch profiler DB",
	ascend_detect,
	ascend_spans,
};

/*
 * ascend.c: the Ascend PyTorch profiler DB (ascend_pytorch_profiler_N.db):
 * one span per PYTORCH_API row, names through STRING_IDS.
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

/* Name ids map to quoted JSON strings in one buffer. */
struct str_ent {
	int64_t id;
	size_t off, len;	/* len 0: empty slot */
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
	t->ents[i].off = off;
	t->ents[i].len = len;
}

static void
str_grow(struct str_tab *t)
{
	struct str_ent *old = t->ents;
	size_t i, oldcap = t->cap;

	t->cap = oldcap == 0 ? 1024 : oldcap * 2;
	t->n = 0;
	if ((t->ents = calloc(t->cap, sizeof(*t->ents))) == NULL)
		die("out of memory");
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

	memset(t, 0, sizeof(*t));
	strbuf_init(&t->text, 1 << 16);
	str_grow(t);
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
		if ((t->n + 1) * 2 > t->cap)
			str_grow(t);
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

static int
ascend_detect(sqlite3 *db, struct strbuf *why)
{
	int api = db_has_table(db, "PYTORCH_API");
	int ids = db_has_table(db, "STRING_IDS");

	if (api && ids)
		return 1;
	strbuf_addf(why, "no table %s%s%s", api ? "" : "PYTORCH_API",
	    !api && !ids ? " or " : "", ids ? "" : "STRING_IDS");
	return 0;
}

/* Checks the columns we read; says which one is missing. */
static int
ascend_columns(struct db_run *run, int *has_type)
{
	static const char *const need[][2] = {
		{ "PYTORCH_API", "startNs" }, { "PYTORCH_API", "endNs" },
		{ "PYTORCH_API", "globalTid" }, { "PYTORCH_API", "name" },
		{ "STRING_IDS", "id" }, { "STRING_IDS", "value" },
	};
	size_t i;

	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (!db_has_column(run->db, need[i][0], need[i][1])) {
			warn("'%s': table %s has no column %s", run->path,
			    need[i][0], need[i][1]);
			return -1;
		}
	*has_type = db_has_column(run->db, "PYTORCH_API", "type");
	return 0;
}

/* The category of a type code (ENUM_API_TYPE); unknown codes as digits. */
static void
ascend_cat(sqlite3_stmt *st, int col, struct span *s, char *buf, size_t n)
{
	static const char *const names[] = {
		"\"op\"", "\"queue\"", "\"python\"", "\"mstx\""
	};
	const char *what;
	int64_t code;

	s->cat = NULL;
	s->cat_len = 0;
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return;
	if (db_col_i64(st, col, &code, &what) == 0) {
		if (code >= 50001 && code <= 50004) {
			s->cat = names[code - 50001];
			s->cat_len = strlen(s->cat);
			return;
		}
		snprintf(buf, n, "\"%" PRId64 "\"", code);
		s->cat = buf;
		s->cat_len = strlen(buf);
		return;
	}
	/* Text that is not a number: keep it as written. */
	s->cat = buf;
	s->cat_len = 0;
}

/* Reads the row's times and thread; reports a bad row and returns -1. */
static int
ascend_row(struct db_run *run, sqlite3_stmt *st, struct span *s)
{
	static const char *const cols[] = { "startNs", "endNs", "globalTid" };
	int64_t v[3];
	const char *what;
	int i;

	for (i = 0; i < 3; i++)
		if (db_col_i64(st, i, &v[i], &what) != 0) {
			db_bad_row(run, "PYTORCH_API rowid %lld: %s %s",
			    (long long)sqlite3_column_int64(st, 5), cols[i],
			    what);
			return -1;
		}
	s->start_ns = v[0];
	s->end_ns = v[1];
	s->pid = (uint64_t)v[2] >> 32;
	s->tid = (uint64_t)v[2] & 0xFFFFFFFFu;
	return 0;
}

static int
ascend_spans(struct db_run *run)
{
	struct strbuf sql = STRBUF_INIT, catq = STRBUF_INIT;
	struct str_tab names;
	struct span s;
	sqlite3_stmt *st;
	const char *what;
	char catbuf[32];
	int64_t id;
	int has_type, rc;

	if (ascend_columns(run, &has_type) != 0 || str_load(run, &names) != 0)
		return -1;
	strbuf_addf(&sql, "SELECT \"startNs\", \"endNs\", \"globalTid\", "
	    "\"name\", %s, rowid FROM \"PYTORCH_API\"",
	    has_type ? "\"type\"" : "NULL");
	if (run->sorted)
		strbuf_addstr(&sql, " ORDER BY CAST(\"globalTid\" AS INTEGER), "
		    "CAST(\"startNs\" AS INTEGER), "
		    "CAST(\"endNs\" AS INTEGER) DESC, rowid");
	if (sqlite3_prepare_v2(run->db, sql.buf, -1, &st, NULL) !=
	    SQLITE_OK) {
		warn("'%s': PYTORCH_API: %s", run->path,
		    sqlite3_errmsg(run->db));
		strbuf_release(&sql);
		str_release(&names);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (ascend_row(run, st, &s) != 0)
			continue;
		s.name = NULL;
		if (db_col_i64(st, 3, &id, &what) == 0)
			s.name = str_get(&names, id, &s.name_len);
		if (s.name == NULL) {
			s.name = "\"unknown\"";
			s.name_len = 9;
			run->unnamed++;
		}
		ascend_cat(st, 4, &s, catbuf, sizeof(catbuf));
		if (s.cat == catbuf && s.cat_len == 0) {
			strbuf_reset(&catq);
			span_quote(&catq, (const char *)sqlite3_column_text(st,
			    4), (size_t)sqlite3_column_bytes(st, 4));
			s.cat = catq.buf;
			s.cat_len = catq.len;
		}
		span_write(run->w, &s);
	}
	if (rc != SQLITE_DONE)
		warn("'%s': PYTORCH_API: %s", run->path,
		    sqlite3_errmsg(run->db));
	sqlite3_finalize(st);
	strbuf_release(&sql);
	strbuf_release(&catq);
	str_release(&names);
	return rc == SQLITE_DONE ? 0 : -1;
}

const struct db_schema schema_ascend = {
	"ascend",
	"Ascend PyTorch profiler DB",
	ascend_detect,
	ascend_spans,
};

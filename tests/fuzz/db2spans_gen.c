/*
 * db2spans on generated databases: the input is an SQL script (the seeds
 * are the SQL of the examples and cases), run statement by statement into
 * a new database, skipping statements that fail; db2spans then reads it
 * with every table choice.  Only statements that build tables and rows
 * are allowed (no ATTACH, no PRAGMA, no VACUUM INTO), and each statement
 * is cut off after a bounded number of steps.
 */
#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static int
allow(void *arg, int op, const char *a, const char *b, const char *c,
    const char *d)
{
	(void)arg;
	(void)a;
	(void)b;
	(void)c;
	(void)d;
	switch (op) {
	case SQLITE_CREATE_TABLE: case SQLITE_CREATE_INDEX:
	case SQLITE_CREATE_VIEW: case SQLITE_CREATE_TEMP_TABLE:
	case SQLITE_CREATE_TEMP_VIEW: case SQLITE_INSERT: case SQLITE_UPDATE:
	case SQLITE_DELETE: case SQLITE_READ: case SQLITE_SELECT:
	case SQLITE_FUNCTION: case SQLITE_TRANSACTION: case SQLITE_DROP_TABLE:
	case SQLITE_RECURSIVE:
		return SQLITE_OK;
	default:
		return SQLITE_DENY;
	}
}

static int
stop(void *arg)
{
	return ++*(int *)arg > 2000;
}

static int
build_db(const uint8_t *data, size_t size, const char *path)
{
	char *sql = sqlite3_malloc64(size + 1);
	const char *p, *tail;
	sqlite3 *db;
	sqlite3_stmt *st;
	int steps, n = 0;

	unlink(path);
	if (sql == NULL || sqlite3_open(path, &db) != SQLITE_OK) {
		sqlite3_free(sql);
		return -1;
	}
	memcpy(sql, data, size);
	sql[size] = '\0';
	sqlite3_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF",
	    NULL, NULL, NULL);
	sqlite3_set_authorizer(db, allow, NULL);
	sqlite3_progress_handler(db, 100, stop, &steps);
	for (p = sql; *p != '\0' && n < 500; p = tail, n++) {
		steps = 0;
		st = NULL;
		if (sqlite3_prepare_v2(db, p, -1, &st, &tail) != SQLITE_OK) {
			if ((tail = strchr(p, ';')) == NULL)
				break;
			tail++;
			continue;
		}
		if (st == NULL)
			continue;
		while (sqlite3_step(st) == SQLITE_ROW)
			;
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	sqlite3_free(sql);
	return 0;
}

static const char *const fuzz_args[] = { "db2spans", "--tables", "all", "@@",
    NULL };
FUZZ_PROG_PREPARE(fuzz_args, ".db", build_db)

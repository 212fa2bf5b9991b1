/*
 * open.c: opens a profiler database so that nothing beside it is ever
 * created or changed, in a directory the user cannot write too.
 *
 * SQLite's read-only mode is not enough: a reader of a database in WAL
 * mode (MindStudio writes them so) creates "x.db-shm" beside it, writes
 * its read marks into an existing one, and fails in a read-only directory.
 * The URI parameters each give something up:
 *
 *   mode=ro      still creates and writes -shm for a WAL database;
 *   nolock=1     keeps the -shm; without locks a WAL database does not
 *                open at all ("unable to open database file");
 *   immutable=1  no locks, no -shm, nothing written, but the WAL is not
 *                read: the transactions still in x.db-wal are lost
 *                without a word.
 *
 * So: a database in rollback-journal mode is opened mode=ro, which only
 * takes shared locks on the file (a writer at work is waited for, as
 * before).  One in WAL mode with no (or an empty) x.db-wal holds all its
 * content in the file itself and is opened immutable=1.  One whose
 * x.db-wal holds transactions is copied, with its WAL, to $TMPDIR and the
 * copy opened there (mode=ro): its content is read whole and the user's
 * directory is not touched.  The copies are removed when the
 * database is closed, and at exit or on a signal (ofile.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "err.h"
#include "ofile.h"
#include "strbuf.h"
#include "db2spans.h"

/* The temporary copy of the database in use: base path, -wal, -shm. */
static char *copy[3];

/*
 * Checks that path is a regular file holding an SQLite database; *wal is
 * set when its header says WAL mode (file format 2).
 */
static int
db_check(const char *path, const char *shown, int *wal)
{
	static const char magic[16] = "SQLite format 3";
	unsigned char hdr[20];
	struct stat st;
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY)) < 0) {
		warn_errno("cannot open '%s'", shown);
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		warn_errno("cannot stat '%s'", shown);
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		warn("'%s' is not a regular file", shown);
		close(fd);
		return -1;
	}
	n = read(fd, hdr, sizeof(hdr));
	close(fd);
	if (n < 16 || memcmp(hdr, magic, 16) != 0) {
		warn("'%s' is not an SQLite database", shown);
		return -1;
	}
	*wal = n == (ssize_t)sizeof(hdr) && (hdr[18] == 2 || hdr[19] == 2);
	return 0;
}

/* Copies the file from to the new file to.  Returns 0, or -1. */
static int
copy_file(const char *from, const char *to, const char *shown)
{
	char buf[1 << 16];
	ssize_t n;
	int in, out, rc = 0;

	if ((in = open(from, O_RDONLY)) < 0) {
		warn_errno("cannot open '%s-wal'", shown);
		return -1;
	}
	if ((out = open(to, O_WRONLY | O_CREAT | O_EXCL, 0600)) < 0) {
		warn_errno("cannot create '%s'", to);
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write(out, buf, (size_t)n) != n) {
			warn_errno("cannot copy '%s' to '%s'", shown, to);
			rc = -1;
			break;
		}
	}
	close(in);
	if (close(out) != 0 && rc == 0) {
		warn_errno("cannot write '%s'", to);
		rc = -1;
	}
	return rc;
}

/* Removes the temporary copy, if there is one. */
static void
db_copy_remove(void)
{
	int i;

	for (i = 0; i < 3; i++) {
		if (copy[i] == NULL)
			continue;
		unlink(copy[i]);
		ofile_untrack_tmp(copy[i]);
		free(copy[i]);
		copy[i] = NULL;
	}
}

/*
 * Copies path and path-wal to $TMPDIR.  Returns the copy's path, or NULL
 * after a message.
 */
static const char *
db_copy(const char *path, const char *shown)
{
	static const char *const suffix[3] = { "", "-wal", "-shm" };
	const char *dir = getenv("TMPDIR");
	struct strbuf sb = STRBUF_INIT, wal = STRBUF_INIT;
	int fd, i;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	strbuf_addf(&sb, "%s/db2spans.XXXXXX", dir);
	if ((fd = mkstemp(sb.buf)) < 0)
		die_errno("cannot create a temporary file in '%s'", dir);
	close(fd);
	for (i = 0; i < 3; i++) {
		copy[i] = xmalloc(sb.len + 5);
		snprintf(copy[i], sb.len + 5, "%s%s", sb.buf, suffix[i]);
		ofile_track_tmp(copy[i]);
	}
	strbuf_release(&sb);
	unlink(copy[0]);
	strbuf_addf(&wal, "%s-wal", path);
	if (copy_file(path, copy[0], shown) != 0 ||
	    copy_file(wal.buf, copy[1], shown) != 0) {
		strbuf_release(&wal);
		db_copy_remove();
		return NULL;
	}
	strbuf_release(&wal);
	return copy[0];
}

/* "file:PATH?PARAMS" with the URI's special characters of PATH escaped. */
static void
db_uri(struct strbuf *sb, const char *path, const char *params)
{
	const char *p;

	strbuf_addstr(sb, "file:");
	for (p = path; *p != '\0'; p++)
		if (*p == '%' || *p == '?' || *p == '#')
			strbuf_addf(sb, "%%%02X", (unsigned char)*p);
		else
			strbuf_addch(sb, *p);
	strbuf_addf(sb, "?%s", params);
}

/* Does path-wal exist with something in it? */
static int
has_wal(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int yes;

	strbuf_addf(&sb, "%s-wal", path);
	yes = stat(sb.buf, &st) == 0 && st.st_size > 0;
	strbuf_release(&sb);
	return yes;
}

sqlite3 *
db_open_ro(const char *path, const char *shown)
{
	struct strbuf uri = STRBUF_INIT;
	const char *params = "mode=ro";
	sqlite3 *db;
	int wal;

	if (db_check(path, shown, &wal) != 0)
		return NULL;
	if (wal && !has_wal(path))
		params = "immutable=1";
	else if (wal) {
		if ((path = db_copy(path, shown)) == NULL)
			return NULL;
	}
	db_uri(&uri, path, params);
	if (sqlite3_open_v2(uri.buf, &db, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		warn("cannot open '%s': %s", shown, sqlite3_errmsg(db));
		sqlite3_close(db);
		db = NULL;
		db_copy_remove();
	}
	strbuf_release(&uri);
	return db;
}

void
db_close(sqlite3 *db)
{
	sqlite3_close(db);
	db_copy_remove();
}

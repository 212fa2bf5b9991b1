/*
 * btree.c: the rows of a rowid table read straight from the database
 * file, in the order of SQLite's full scan (the b-tree's cells in order),
 * without the virtual machine, which costs about 30 ns a column.
 *
 * Only the plain case is read here; SQLite reads the rest, and gives the
 * same spans as a read by SQLite alone would:
 *
 *   - bt_open() refuses (SQLite reads the whole table) a database whose
 *     content is not all in the file (a -wal or -journal with data beside
 *     it), that is not UTF-8, or a table that is not a plain rowid table
 *     or has an index (SQLite may scan a covering index instead),
 *     or whose columns read are not stored as they are read (generated or
 *     hidden columns, REAL affinity, an INTEGER PRIMARY KEY, a default for
 *     short rows, a column named rowid);
 *   - bt_next() stops (BT_STOP) at the first row that is not plain (a
 *     REAL, a BLOB, a row on overflow pages) and at anything SQLite's scan
 *     calls corrupt, or that looks odd (a page number past the end, a
 *     page or cell out of place, a record that does not add up, a tree
 *     too deep): the caller then runs SQLite's scan and skips the rows
 *     read so far, which that scan gives first, so that SQLite says what
 *     is wrong where it would have.
 *
 * The caller keeps a read transaction open on db while the file is read,
 * so that no writer changes it meanwhile.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <sqlite3.h>

#include "strbuf.h"
#include "xmem.h"

#include "db2spans.h"

/* 1 if path names a file with data in it. */
static int
bt_nonempty(const char *path, const char *suffix)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int rc;

	strbuf_addf(&sb, "%s%s", path, suffix);
	rc = stat(sb.buf, &st) == 0 ? st.st_size > 0 : errno != ENOENT;
	strbuf_release(&sb);
	return rc;
}

static uint32_t
be16(const unsigned char *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t
be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/* Reads the file header; 0 if the file is one bt_next() can read. */
static int
bt_header(struct bt_scan *s)
{
	unsigned char h[100];
	struct stat st;
	uint32_t ps;

	if (pread(s->fd, h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    fstat(s->fd, &st) != 0)
		return -1;
	ps = be16(h + 16);
	if (ps == 1)
		ps = 65536;
	if (ps < 512 || ps > 65536 || (ps & (ps - 1)) != 0 ||
	    be32(h + 56) != 1 || h[20] > ps - 480)
		return -1;
	s->psize = ps;
	s->usable = ps - h[20];
	/* The size in the header holds while the change counters agree. */
	if (be32(h + 24) == be32(h + 92) && be32(h + 28) != 0)
		s->npages = be32(h + 28);
	else
		s->npages = (uint32_t)(st.st_size / ps);
	if ((uint64_t)s->npages * ps > (uint64_t)st.st_size)
		return -1;
	return 0;
}

/* 1 if the word (upper case) is in s, in any case. */
static int
bt_has(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (; *s != '\0'; s++)
		if (strncasecmp(s, word, n) == 0)
			return 1;
	return 0;
}

/* 1 if the declared type gives the REAL affinity (SQLite's rules). */
static int
bt_real(const char *type)
{
	static const char *const other[] = { "INT", "CHAR", "CLOB", "TEXT",
		"BLOB" };
	size_t i;

	if (type == NULL)
		return 0;
	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		if (bt_has(type, other[i]))
			return 0;
	return bt_has(type, "REAL") || bt_has(type, "FLOA") ||
	    bt_has(type, "DOUB");
}

/*
 * Finds the record index of each of the ncols columns (-1: no such
 * column, read as NULL); 0 if every column of the table is stored as read.
 */
static int
bt_columns(struct bt_scan *s, sqlite3 *db, const char *table,
    const char *const *cols, int ncols)
{
	sqlite3_stmt *st;
	const char *name;
	int i, rc = 0, n = 0;

	for (i = 0; i < ncols; i++)
		s->col[i] = -1;
	if (sqlite3_prepare_v2(db, "SELECT name, type, pk, hidden, "
	    "dflt_value IS NOT NULL FROM pragma_table_xinfo(?1)", -1, &st,
	    NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		name = (const char *)sqlite3_column_text(st, 0);
		if (name == NULL || sqlite3_column_int(st, 3) != 0 ||
		    strcasecmp(name, "rowid") == 0 ||
		    strcasecmp(name, "oid") == 0 ||
		    strcasecmp(name, "_rowid_") == 0)
			rc = -1;
		for (i = 0; rc == 0 && i < ncols; i++) {
			if (cols[i] == NULL || strcasecmp(name, cols[i]) != 0)
				continue;
			if (s->col[i] >= 0 || sqlite3_column_int(st, 2) != 0 ||
			    sqlite3_column_int(st, 4) != 0 || bt_real((const
			    char *)sqlite3_column_text(st, 1)))
				rc = -1;
			s->col[i] = n;
		}
		n++;
	}
	sqlite3_finalize(st);
	return n == 0 ? -1 : rc;
}

/*
 * The root page of table, if it is a table with one and no index; else 0.
 * SQLite scans a table with a covering index in the index's order, not
 * the table's.
 */
static uint32_t
bt_root(sqlite3 *db, const char *table)
{
	sqlite3_stmt *st;
	sqlite3_int64 root = 0;

	if (sqlite3_prepare_v2(db, "SELECT type, rootpage FROM sqlite_master "
	    "WHERE tbl_name = ?1 COLLATE NOCASE OR name = ?1 COLLATE NOCASE",
	    -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 1) == SQLITE_INTEGER &&
	    sqlite3_column_text(st, 0) != NULL &&
	    strcmp((const char *)sqlite3_column_text(st, 0), "table") == 0)
		root = sqlite3_column_int64(st, 1);
	if (sqlite3_step(st) != SQLITE_DONE)	/* an index, or two tables */
		root = 0;
	sqlite3_finalize(st);
	return root > 0 && root <= UINT32_MAX ? (uint32_t)root : 0;
}

/* The last column of the record read. */
static void
bt_slots(struct bt_scan *s)
{
	int k;

	s->maxc = -1;
	for (k = 0; k < s->ncols; k++)
		if (s->col[k] > s->maxc)
			s->maxc = s->col[k];
}

/* 0 if the root page is a rowid table's (not WITHOUT ROWID's). */
static int
bt_kind(const struct bt_scan *s)
{
	unsigned char t;

	if (pread(s->fd, &t, 1, (off_t)(s->root - 1) * s->psize +
	    (s->root == 1 ? 100 : 0)) != 1)
		return -1;
	return t == 0x0D || t == 0x05 ? 0 : -1;
}

int
bt_open(struct bt_scan *s, sqlite3 *db, const char *table,
    const char *const *cols, int ncols)
{
	const char *path = sqlite3_db_filename(db, "main");

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (ncols > BT_COLS || path == NULL || *path == '\0' ||
	    bt_nonempty(path, "-wal") || bt_nonempty(path, "-journal") ||
	    (s->root = bt_root(db, table)) == 0 ||
	    bt_columns(s, db, table, cols, ncols) != 0)
		return -1;
	s->ncols = ncols;
	bt_slots(s);
	if (s->maxc >= BT_MAXC || (s->fd = open(path, O_RDONLY)) < 0 ||
	    bt_header(s) != 0 || s->root > s->npages ||
	    bt_kind(s) != 0)
		return -1;
	s->pages = xcalloc(BT_DEPTH + 1, s->psize);
	return 0;
}

void
bt_close(struct bt_scan *s)
{
	if (s->fd >= 0)
		close(s->fd);
	free(s->pages);
	s->fd = -1;
	s->pages = NULL;
}

/* Reads page pgno into level d of the path; 0 or -1 (odd). */
static int
bt_load(struct bt_scan *s, int d, uint32_t pgno)
{
	struct bt_level *l = &s->lv[d];
	unsigned char *pg = s->pages + (size_t)d * s->psize, *h;
	uint32_t hsz, n;

	if (d >= BT_DEPTH || pgno < 1 || pgno > s->npages ||
	    ++s->visited > s->npages ||
	    pread(s->fd, pg, s->psize, (off_t)(pgno - 1) * s->psize) !=
	    (ssize_t)s->psize)
		return -1;
	h = pg + (pgno == 1 ? 100 : 0);
	if (h[0] == 0x0D)
		hsz = 8;
	else if (h[0] == 0x05)
		hsz = 12;
	else
		return -1;
	n = be16(h + 3);
	/*
	 * As SQLite has it: more cells than (page size - 8) / 6, or none on
	 * a page below the root, is corrupt.
	 */
	if (n > (s->psize - 8) / 6 || (n == 0 && d > 0) ||
	    (n == 0 && hsz == 12) ||
	    (size_t)(h - pg) + hsz + 2 * n > s->usable)
		return -1;
	l->pg = pg;
	l->cells = h + hsz;
	l->n = n;
	l->i = 0;
	l->leaf = hsz == 8;
	l->right = hsz == 12 ? be32(h + 8) : 0;
	l->lo = (uint32_t)(h - pg) + hsz + 2 * n;
	return 0;
}

/* A varint at p, not past e; NULL if it runs off. */
static const unsigned char *
bt_varint(const unsigned char *p, const unsigned char *e, uint64_t *v)
{
	uint64_t x = 0;
	int i;

	for (i = 0; i < 8; i++) {
		if (p >= e)
			return NULL;
		x = x << 7 | (*p & 0x7F);
		if ((*p++ & 0x80) == 0) {
			*v = x;
			return p;
		}
	}
	if (p >= e)
		return NULL;
	*v = x << 8 | *p++;
	return p;
}

/* The offset of cell i of level l; 0 if out of place. */
static uint32_t
bt_cell(const struct bt_scan *s, const struct bt_level *l, uint32_t i)
{
	uint32_t off = be16(l->cells + 2 * i);

	return off >= l->lo && off < s->usable ? off : 0;
}

/*
 * Descends to the next leaf with cells left; 0 if there is one, 1 at the
 * end of the table, -1 if the tree is odd.
 */
static int
bt_descend(struct bt_scan *s)
{
	struct bt_level *l;
	uint32_t off, child;

	if (s->depth == 0) {
		if (s->started)
			return 1;
		s->started = 1;
		if (bt_load(s, 0, s->root) != 0)
			return -1;
		s->depth = 1;
	}
	for (;;) {
		l = &s->lv[s->depth - 1];
		if (l->leaf) {
			if (l->i < l->n)
				return 0;
		} else if (l->i <= l->n) {
			if (l->i < l->n) {
				if ((off = bt_cell(s, l, l->i)) == 0 ||
				    off + 4 > s->usable)
					return -1;
				child = be32(l->pg + off);
			} else
				child = l->right;
			l->i++;
			if (bt_load(s, s->depth, child) != 0)
				return -1;
			s->depth++;
			continue;
		}
		if (--s->depth == 0)
			return 1;
	}
}

/*
 * The value of serial type t at p; 0, or -1 for a type left to SQLite
 * (REAL, BLOB, the reserved 10 and 11).
 */
static int
bt_value(uint64_t t, const unsigned char *p, struct bt_val *v)
{
	static const unsigned char size[] = { 0, 1, 2, 3, 4, 6, 8 };
	uint64_t x;
	int n;

	if (t == 0) {
		v->type = SQLITE_NULL;
		return 0;
	}
	if (t >= 13 && (t & 1)) {
		v->type = SQLITE_TEXT;
		v->p = (const char *)p;
		v->n = (size_t)((t - 13) / 2);
		return 0;
	}
	v->type = SQLITE_INTEGER;
	if (t == 8 || t == 9) {
		v->i = (int64_t)t - 8;
		return 0;
	}
	if (t > 6)
		return -1;
	/*
	 * The n big-endian bytes in one load (a page's buffer is followed
	 * by another: see bt_open), shifted down with their sign.
	 */
	n = size[t];
	memcpy(&x, p, 8);
	x = __builtin_bswap64(x);
	v->i = (int64_t)x >> (64 - 8 * n);
	return 0;
}

/* The bytes of serial type t. */
static uint64_t
bt_size(uint64_t t)
{
	static const unsigned char size[] = { 0, 1, 2, 3, 4, 6, 8, 8, 0, 0,
		0, 0 };

	return t < 12 ? size[t] : (t - 12) / 2;
}

/* The values of the columns read of the record at p, of n types. */
static int
bt_values(const struct bt_scan *s, const unsigned char *p, int n,
    struct bt_val *v)
{
	int c, k;

	for (k = 0; k < s->ncols; k++)
		if ((c = s->col[k]) >= 0 && c < n &&
		    bt_value(s->type[c], p + s->moff[c], &v[k]) != 0)
			return -1;
	return 0;
}

/*
 * Reads the record at p (len bytes, all on the page) into v[]; 0, or -1
 * for one SQLite would call corrupt or that holds a value left to it.
 * The header is read as SQLite's OP_Column reads it, up to the last
 * column wanted: corrupt if the types run past the header's end or past
 * the record's, or if the whole header was read and the values do not
 * fill the record exactly.  A column past the header is NULL (no default:
 * see bt_columns), and so is every column when the header holds no type.
 */
static int
bt_record(struct bt_scan *s, const unsigned char *p, uint64_t len,
    struct bt_val *v)
{
	const unsigned char *h, *he, *e = p + len;
	uint64_t hs, t, sz;
	int c, k;

	for (k = 0; k < s->ncols; k++)
		v[k].type = SQLITE_NULL;
	if ((h = bt_varint(p, e, &hs)) == NULL || hs > len)
		return -1;
	if (hs <= (uint64_t)(h - p))
		return 0;
	if (hs == s->mhs && memcmp(p, s->mh, hs) == 0) {
		/* The types and offsets of the header before. */
		if (s->mfull ? s->msz != len : s->msz > len)
			return -1;
		return bt_values(s, p, s->mn, v);
	}
	he = p + hs;
	sz = hs;
	for (c = 0; c <= s->maxc && h < he; c++) {
		if (*h < 0x80)
			t = *h++;
		else if ((h = bt_varint(h, e, &t)) == NULL || t > UINT32_MAX)
			return -1;
		s->type[c] = t;
		s->moff[c] = sz;
		sz += bt_size(t);
	}
	s->mhs = 0;
	if ((h >= he && (h > he || sz != len)) || sz > len)
		return -1;
	/* Remembered only as read: a header that ends on its size. */
	if (hs <= BT_MEMO) {
		memcpy(s->mh, p, hs);
		s->mhs = (uint32_t)hs;
		s->mn = c;
		s->mfull = h >= he;
		s->msz = sz;
	}
	return bt_values(s, p, c, v);
}

int
bt_next(struct bt_scan *s, int64_t *rowid, struct bt_val *v)
{
	const unsigned char *p, *q, *e;
	struct bt_level *l;
	uint64_t len, id;
	uint32_t off;
	int rc;

	if ((rc = bt_descend(s)) != 0)
		return rc > 0 ? BT_DONE : BT_STOP;
	l = &s->lv[s->depth - 1];
	if ((off = bt_cell(s, l, l->i++)) == 0)
		return BT_STOP;
	p = l->pg + off;
	e = l->pg + s->usable;
	/*
	 * More than U - 35 bytes go on overflow pages: SQLite's to read.
	 * SQLite reads the ninth byte of a payload size as seven bits, not
	 * eight: such a size (never written) is SQLite's too.
	 */
	q = p;
	if ((p = bt_varint(p, e, &len)) == NULL || p - q > 8 ||
	    (p = bt_varint(p, e, &id)) == NULL || len > s->usable - 35 ||
	    len > (uint64_t)(e - p) || bt_record(s, p, len, v) != 0)
		return BT_STOP;
	*rowid = (int64_t)id;
	return BT_ROW;
}

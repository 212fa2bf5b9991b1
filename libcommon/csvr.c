/* csvr.c: a CSV reader over libcsv in strict mode, fed line by line;
 * rows of simple fields are split without it. */
#include <errno.h>
#include <string.h>

#include <csv.h>

#include "csvr.h"
#include "err.h"
#include "xmem.h"

/*
 * Parsed fields wait in a queue of rows: the bytes of every field (each
 * NUL-terminated) in data, and per field its offset and length.  One line
 * can complete more than one row (libcsv also ends a row at a lone CR), so
 * the queue may hold several; the fields of a row not yet complete (a
 * quoted field going on over lines) sit after the last complete row.
 */
struct csvr_priv {
	struct csv_parser p;
	struct strbuf data;
	size_t *off, *len;		/* per field */
	size_t nf, af;
	size_t *row_end;		/* per complete row: its fields end */
	unsigned long *row_line;	/* per complete row: its first line */
	size_t nr, ar, next;		/* rows queued; next one to return */
	char **f;			/* the returned row's field pointers */
	size_t af_ptr;
	unsigned long line;		/* lines read so far */
	unsigned long start;		/* first line of the row being parsed */
	int in_row;			/* some of that row has been fed */
	int done;			/* EOF seen and csv_fini() called */
	const char *err;
};

/* A field of the row being parsed: its bytes at data[off..off + len). */
static void
field_at(struct csvr_priv *c, size_t off, size_t len)
{
	if (c->nf == c->af) {
		c->af = xgrow_room(c->af, c->nf + 1);
		c->off = xreallocarray(c->off, c->af, sizeof(*c->off));
		c->len = xreallocarray(c->len, c->af, sizeof(*c->len));
	}
	c->off[c->nf] = off;
	c->len[c->nf] = len;
	c->nf++;
}

static void
on_field(void *s, size_t len, void *data)
{
	struct csvr_priv *c = data;

	field_at(c, c->data.len, len);
	if (s != NULL)
		strbuf_add(&c->data, s, len);
	strbuf_addch(&c->data, '\0');
}

static void
on_row(int term, void *data)
{
	struct csvr_priv *c = data;

	(void)term;
	if (c->nr == c->ar) {
		c->ar = xgrow_room(c->ar, c->nr + 1);
		c->row_end = xreallocarray(c->row_end, c->ar,
		    sizeof(*c->row_end));
		c->row_line = xreallocarray(c->row_line, c->ar,
		    sizeof(*c->row_line));
	}
	c->row_end[c->nr] = c->nf;
	c->row_line[c->nr] = c->start;
	c->nr++;
}

/* Fields are taken as written: libcsv would trim spaces and tabs. */
static int
no_space(unsigned char ch)
{
	(void)ch;
	return 0;
}

static size_t grows;

/* libcsv's realloc, counted (csvr_buffer_grows()). */
static void *
count_realloc(void *p, size_t n)
{
	grows++;
	return realloc(p, n);
}

size_t
csvr_buffer_grows(void)
{
	return grows;
}

static void
parser_start(struct csvr_priv *c)
{
	if (csv_init(&c->p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL)
	    != 0)
		die("out of memory");
	csv_set_space_func(&c->p, no_space);
	csv_set_realloc_func(&c->p, count_realloc);
}

int
csvr_open(struct csvr *r, const char *path)
{
	struct csvr_priv *c;

	if (zin_open(&r->in, path) != 0)
		return -1;
	c = xcalloc(1, sizeof(*c));
	strbuf_init(&c->data, 0);
	parser_start(c);
	r->priv = c;
	r->pos.file = r->in.name;
	r->pos.line = 0;
	return 0;
}

void
csvr_close(struct csvr *r)
{
	struct csvr_priv *c = r->priv;

	zin_close(&r->in);
	if (c == NULL)
		return;
	csv_free(&c->p);
	strbuf_release(&c->data);
	free(c->off);
	free(c->len);
	free(c->row_end);
	free(c->row_line);
	free(c->f);
	free(c);
	r->priv = NULL;
}

/*
 * Drops the rows already returned, keeping the fields of a row still
 * being parsed.
 */
static void
compact(struct csvr_priv *c)
{
	size_t first, base, i;

	if (c->next == 0)
		return;
	first = c->row_end[c->nr - 1];
	base = first < c->nf ? c->off[first] : c->data.len;
	memmove(c->data.buf, c->data.buf + base, c->data.len - base);
	strbuf_setlen(&c->data, c->data.len - base);
	for (i = first; i < c->nf; i++) {
		c->off[i - first] = c->off[i] - base;
		c->len[i - first] = c->len[i];
	}
	c->nf -= first;
	c->nr = c->next = 0;
}

/* Forgets the row being parsed and starts a fresh parser. */
static void
restart(struct csvr_priv *c)
{
	size_t keep = c->nr > 0 ? c->row_end[c->nr - 1] : 0;

	if (keep < c->nf) {
		strbuf_setlen(&c->data, c->off[keep]);
		c->nf = keep;
	}
	csv_free(&c->p);
	parser_start(c);
	c->in_row = 0;
}

static const char *
parse_error(struct csv_parser *p)
{
	if (csv_error(p) == CSV_EPARSE)
		return "malformed CSV: a stray '\"' (a quote inside an "
		    "unquoted field or after a closing quote)";
	return csv_strerror(csv_error(p));
}

/* The bytes that end a simple unquoted field (1), or make it not
 * simple (2). */
static const unsigned char ends_field[256] = {
	[','] = 1, ['"'] = 2, ['\r'] = 2,
};

/*
 * A line that is one whole row of simple fields, split here without
 * libcsv, which copies each byte twice through a callback: unquoted
 * fields with no quote or CR in them, and quoted fields with no quote
 * inside (no "") that end at a ',' or at the end of the line (a CR
 * that ends it, of a CRLF file, is left out by the caller).  The line
 * is copied once and its fields are NUL-terminated in place (a field's
 * ',' or closing quote becomes its NUL); they are the ones libcsv would
 * give.  Returns 0, with nothing kept, for any other line: libcsv then
 * parses it, and says what is wrong.
 */
static int
simple_row(struct csvr_priv *c, const char *line, size_t len)
{
	size_t nf = c->nf, base = c->data.len, i = 0, j;
	const char *q;
	char *d;
	unsigned char k = 0;

	strbuf_grow(&c->data, len + 1);
	d = c->data.buf + base;
	memcpy(d, line, len);
	d[len] = '\0';
	for (;;) {
		if (i < len && d[i] == '"') {
			q = memchr(d + i + 1, '"', len - i - 1);
			if (q == NULL || (q + 1 < d + len && q[1] != ','))
				goto other;
			j = (size_t)(q - d);
			field_at(c, base + i + 1, j - i - 1);
			d[j] = '\0';
			i = j + 1;
		} else {
			for (j = i; j < len && (k = ends_field[(unsigned char)
			    d[j]]) == 0; j++)
				;
			if (j < len && k == 2)
				goto other;
			field_at(c, base + i, j - i);
			d[j] = '\0';
			i = j;
		}
		if (i == len)
			break;
		i++;	/* the ',' */
	}
	strbuf_setlen(&c->data, base + len + 1);
	on_row(0, c);
	return 1;
other:
	c->nf = nf;
	c->data.buf[base] = '\0';
	return 0;
}

/*
 * Feeds the next line.  Returns 1 when fed, 0 at EOF (after the parser's
 * last row), -1 on a parse or read error (c->err says which).
 */
static int
feed(struct csvr *r, struct csvr_priv *c)
{
	const char *line;
	size_t len, blk, row;
	int rc;

	if ((rc = zin_getline(&r->in, &line, &len)) < 0) {
		c->err = zin_error(&r->in);
		c->done = 1;
		return -1;
	}
	if (rc == 0) {
		c->done = 1;
		if (csv_fini(&c->p, on_field, on_row, c) != 0) {
			c->err = "malformed CSV: a quoted field is not closed "
			    "before the end of the file";
			return -1;
		}
		return 0;
	}
	c->line++;
	if (c->line == 1 && len >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0) {
		line += 3;
		len -= 3;
	}
	if (!c->in_row) {
		c->start = c->line;
		/* A CR that ends the line ends the row, as its '\n' would
		 * (libcsv takes either, and a '\n' after a CR for none). */
		row = len > 0 && line[len - 1] == '\r' ? len - 1 : len;
		if (row > 0 && !r->in.no_newline && simple_row(c, line, row))
			return 1;
	}
	c->in_row = 1;
	/*
	 * libcsv grows its field buffer by blk_size bytes at a time (128 by
	 * default), which is quadratic for a long field: grow it by its
	 * current size, and at least by the line's, so that a field grows
	 * geometrically across lines and at most once within one.
	 */
	blk = csv_get_buffer_size(&c->p);
	if (blk < len + 1)
		blk = len + 1;
	csv_set_blk_size(&c->p, blk > 4096 ? blk : 4096);
	if (csv_parse(&c->p, line, len, on_field, on_row, c) != len ||
	    (!r->in.no_newline &&
	    csv_parse(&c->p, "\n", 1, on_field, on_row, c) != 1)) {
		c->err = parse_error(&c->p);
		return -1;
	}
	/* libcsv's state 0 (ROW_NOT_BEGUN): no row is under way. */
	c->in_row = c->p.pstate != 0;
	return 1;
}

int
csvr_next(struct csvr *r, struct csvr_row *row)
{
	struct csvr_priv *c = r->priv;
	size_t first, i;
	int rc;

	if (c->next == c->nr)
		compact(c);
	while (c->next == c->nr) {
		if (c->done)
			return 0;
		if ((rc = feed(r, c)) < 0) {
			r->pos.line = c->in_row ? c->start : c->line;
			restart(c);
			return -1;
		}
		if (rc == 0 && c->next == c->nr)
			return 0;
	}
	first = c->next > 0 ? c->row_end[c->next - 1] : 0;
	row->n = c->row_end[c->next] - first;
	if (row->n > c->af_ptr) {
		c->af_ptr = row->n;
		c->f = xreallocarray(c->f, c->af_ptr, sizeof(*c->f));
	}
	for (i = 0; i < row->n; i++)
		c->f[i] = c->data.buf + c->off[first + i];
	row->f = c->f;
	row->len = c->len + first;
	row->line = c->row_line[c->next];
	r->pos.line = row->line;
	c->next++;
	return 1;
}

const char *
csvr_error(struct csvr *r)
{
	struct csvr_priv *c = r->priv;

	return c->err != NULL ? c->err : "no error";
}

int
csvr_skip_to(struct csvr *r, unsigned long line)
{
	struct csvr_priv *c = r->priv;
	const char *l;
	size_t len;
	int rc;

	if (c->in_row || c->next != c->nr || c->done)
		return 0;
	while (c->line + 1 < line) {
		if ((rc = zin_getline(&r->in, &l, &len)) < 0) {
			c->err = zin_error(&r->in);
			return -1;
		}
		if (rc == 0)
			break;
		c->line++;
	}
	return 0;
}

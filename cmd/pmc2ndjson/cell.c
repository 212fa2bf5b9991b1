/* cell.c: column headers, cell values and the record writer. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hmap.h"
#include "ndw.h"
#include "pmc.h"

void
rec_begin(struct pmc *pm, struct strbuf *sb, const char *type)
{
	strbuf_reset(sb);
	strbuf_addstr(sb, "{\"type\":\"");
	strbuf_addstr(sb, type);
	strbuf_addch(sb, '"');
	strbuf_add(sb, pm->run.buf, pm->run.len);
}

void
set_run(struct pmc *pm, const char *name, size_t len)
{
	strbuf_reset(&pm->run);
	if (name == NULL)
		return;
	strbuf_addstr(&pm->run, ",\"run\":");
	ndw_quote(&pm->run, name, len, 0);
}

int
keep_column(struct pmc *pm, const char *name, size_t len)
{
	return pm->columns == NULL || hmap_get(pm->columns, name, len) != NULL;
}

static int
isdig(int c)
{
	return c >= '0' && c <= '9';
}

/* name is base, or base_N, with base one of the text column names. */
static int
is_text_column(const char *name, size_t len)
{
	static const char *const base[] = {
		"Kernel_Name", "sig", "obj", "Node", "Counter_Name"
	};
	size_t i, b, j;

	for (i = 0; i < sizeof(base) / sizeof(base[0]); i++) {
		b = strlen(base[i]);
		if (len < b || memcmp(name, base[i], b) != 0)
			continue;
		if (len == b)
			return 1;
		if (name[b] != '_' || len == b + 1)
			continue;
		for (j = b + 1; j < len && isdig((unsigned char)name[j]); j++)
			;
		if (j == len)
			return 1;
	}
	return 0;
}

int
hdr_init(struct pmc *pm, struct hdr *h, const struct csvr_row *row,
    int textcols, const char **dup)
{
	struct strbuf sb = STRBUF_INIT;
	struct hmap seen;
	size_t i;
	int isnew, rc = 0;

	memset(h, 0, sizeof(*h));
	arena_init(&h->mem, 0);
	h->n = row->n;
	h->name = arena_alloc(&h->mem, (row->n + 1) * sizeof(*h->name));
	h->namelen = arena_alloc(&h->mem, (row->n + 1) * sizeof(size_t));
	h->key = arena_alloc(&h->mem, (row->n + 1) * sizeof(*h->key));
	h->keylen = arena_alloc(&h->mem, (row->n + 1) * sizeof(size_t));
	h->text = arena_alloc(&h->mem, row->n + 1);
	h->keep = arena_alloc(&h->mem, row->n + 1);
	hmap_init(&seen, row->n);
	for (i = 0; i < row->n; i++) {
		h->name[i] = arena_strndup(&h->mem, row->f[i], row->len[i]);
		h->namelen[i] = row->len[i];
		strbuf_reset(&sb);
		strbuf_addch(&sb, ',');
		ndw_quote(&sb, row->f[i], row->len[i], 0);
		strbuf_addch(&sb, ':');
		h->key[i] = arena_strndup(&h->mem, sb.buf, sb.len);
		h->keylen[i] = sb.len;
		h->keysum += sb.len;
		h->text[i] = textcols && is_text_column(row->f[i], row->len[i]);
		h->keep[i] = (unsigned char)keep_column(pm, row->f[i],
		    row->len[i]);
		hmap_put2(&seen, row->f[i], row->len[i], &isnew);
		if (!isnew && rc == 0) {
			*dup = h->name[i];
			rc = -1;
		}
	}
	hmap_release(&seen);
	strbuf_release(&sb);
	h->ts = hdr_find(h, "Start_Timestamp");
	h->te = hdr_find(h, "End_Timestamp");
	return rc;
}

void
hdr_release(struct hdr *h)
{
	arena_release(&h->mem);
	memset(h, 0, sizeof(*h));
}

long
hdr_find(const struct hdr *h, const char *name)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if (strcmp(h->name[i], name) == 0)
			return (long)i;
	return -1;
}

int
is_number(const char *s, size_t len)
{
	size_t i = 0;

	if (i < len && s[i] == '-')
		i++;
	if (i < len && s[i] == '0')
		i++;
	else if (i < len && s[i] >= '1' && s[i] <= '9')
		while (i < len && isdig((unsigned char)s[i]))
			i++;
	else
		return 0;
	if (i < len && s[i] == '.') {
		if (++i >= len || !isdig((unsigned char)s[i]))
			return 0;
		while (i < len && isdig((unsigned char)s[i]))
			i++;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i >= len || !isdig((unsigned char)s[i]))
			return 0;
		while (i < len && isdig((unsigned char)s[i]))
			i++;
	}
	return i == len;
}

int
is_integer(const char *s, size_t len)
{
	size_t i = 0;

	if (i < len && s[i] == '-')
		i++;
	if (i == len)
		return 0;
	for (; i < len; i++)
		if (!isdig((unsigned char)s[i]))
			return 0;
	return 1;
}

/*
 * Copies "1,234,567.5" to out without the separators and returns 1; 0 when
 * s is not a number written with thousands separators.
 */
static int
drop_separators(const char *s, size_t len, struct strbuf *out)
{
	size_t i = 0, run = 0, groups = 0;

	strbuf_reset(out);
	if (i < len && s[i] == '-')
		strbuf_addch(out, s[i++]);
	for (; i < len && s[i] != '.'; i++) {
		if (s[i] == ',') {
			if (run == 0 || (groups == 0 ? run > 3 : run != 3))
				return 0;
			groups++;
			run = 0;
		} else if (isdig((unsigned char)s[i])) {
			strbuf_addch(out, s[i]);
			run++;
		} else {
			return 0;
		}
	}
	if (groups == 0 || run != 3)
		return 0;
	strbuf_add(out, s + i, len - i);
	return is_number(out->buf, out->len);
}

int
put_cell(struct strbuf *sb, const char *s, size_t len, enum cell mode)
{
	static struct strbuf tmp = STRBUF_INIT;

	if (len == 0) {
		strbuf_add(sb, "null", 4);
		return 0;
	}
	if (mode != CELL_TEXT && is_number(s, len)) {
		strbuf_add(sb, s, len);
		return 0;
	}
	if (mode == CELL_NUM)
		return -1;
	if (mode == CELL_NCU && drop_separators(s, len, &tmp)) {
		strbuf_add(sb, tmp.buf, tmp.len);
		return 0;
	}
	ndw_quote(sb, s, len, 0);
	return 0;
}

/* Parses an integer cell; -1 when it does not fit in 64 bits. */
static int
parse_i64(const char *s, int64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno == ERANGE ? -1 : 0;
}

void
put_diff(struct strbuf *sb, const char *a, size_t alen, const char *b,
    size_t blen)
{
	int64_t x, y, d;

	if (alen == 0 || blen == 0) {
		strbuf_add(sb, "null", 4);
		return;
	}
	if (is_integer(a, alen) && is_integer(b, blen) &&
	    parse_i64(a, &x) == 0 && parse_i64(b, &y) == 0 &&
	    !__builtin_sub_overflow(y, x, &d)) {
		strbuf_addf(sb, "%lld", (long long)d);
		return;
	}
	ndw_fmt_f64(sb, strtod(b, NULL) - strtod(a, NULL));
}

void
emit(struct pmc *pm, struct strbuf *sb)
{
	if (jqf_keep(pm->where, sb->buf, sb->len, &pm->bad, NULL) != 1)
		return;
	strbuf_addch(sb, '\n');
	fwrite(sb->buf, 1, sb->len, pm->out);
	pm->records++;
}

int
next_row(struct csvr *r, struct csvr_row *row)
{
	int rc;

	while ((rc = csvr_next(r, row)) == 1 && row->n > 0 &&
	    strncmp(row->f[0], "==", 2) == 0)
		;
	return rc;
}

int
row_ok(struct pmc *pm, struct csvr *r, int rc, const struct csvr_row *row,
    size_t min, size_t n)
{
	if (rc < 0) {
		bad(pm, &r->pos, "%s", csvr_error(r));
		return 0;
	}
	if (row->n < min || row->n > n) {
		bad(pm, &r->pos, "%zu fields, the header has %zu", row->n, n);
		return 0;
	}
	return 1;
}

/*
 * rec.c: the record writer of migx2ndjson: members go straight into the
 * ndw buffer (see migx.h), records through --where to the output.
 */
#include <string.h>

#include "err.h"
#include "jqf.h"
#include "ndw.h"
#include "strbuf.h"

#include "migx.h"

/* Writes an unsigned number without printf (this is the hot path). */
void
put_u(struct migx *mx, const char *key, unsigned long v)
{
	char buf[24], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	W_RAW(mx, key, p, (size_t)(buf + sizeof(buf) - p));
}

/* Bytes that a JSON string holds as they are. */
static unsigned char plain[256];

void
plain_init(struct migx *mx)
{
	int c;

	for (c = 0x20; c < 0x7f; c++)
		plain[c] = c != '"' && c != '\\';
	if (mx->w.flags & NDW_HTML_SAFE)
		plain['<'] = plain['>'] = plain['&'] = 0;
}

void
out_str(struct migx *mx, const char *p, size_t n)
{
	const unsigned char *u = (const unsigned char *)p;
	size_t i;
	char *d;

	for (i = 0; i < n && plain[u[i]]; i++)
		;
	if (i < n) {
		if (mx->w.need_comma)
			strbuf_addch(&mx->w.buf, ',');
		mx->w.need_comma = 1;
		ndw_quote(&mx->w.buf, p, n, mx->w.flags);
		return;
	}
	d = wb_room(mx, n + 3);
	if (mx->w.need_comma)
		*d++ = ',';
	mx->w.need_comma = 1;
	*d++ = '"';
	memcpy(d, p, n);
	d += n;
	*d++ = '"';
	wb_end(mx, d);
}

void
out_raw(struct migx *mx, const char *p, size_t n)
{
	char *d = wb_room(mx, n + 1);

	if (mx->w.need_comma)
		*d++ = ',';
	mx->w.need_comma = 1;
	memcpy(d, p, n);
	wb_end(mx, d + n);
}

void
rec_begin(struct migx *mx, const char *type, struct run *r, unsigned long line)
{
	ndw_begin(&mx->w);
	W_STRZ(mx, "type", type);
	put_u(mx, "run", (unsigned long)r->num);
	put_u(mx, "line", line);
	if (mx->opt.label != NULL)
		W_STRZ(mx, "label", mx->opt.label);
}

void
rec_flags(struct migx *mx, unsigned flags)
{
	static const char *const names[] = { "glued", "truncated",
	    "wrapped", "fork_spacing", "indented", "nospace" };
	size_t i;

	if (flags == 0)
		return;
	W_ARR(mx, "flags");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (flags & (1u << i))
			out_str(mx, names[i], strlen(names[i]));
	ndw_close(&mx->w);
}

void
rec_emit(struct migx *mx)
{
	ndw_end(&mx->w);
	if (jqf_keep(mx->where, mx->w.buf.buf, mx->w.buf.len, &mx->bad,
	    &mx->pos) == 1)
		ndw_emit(&mx->w, mx->out);
}

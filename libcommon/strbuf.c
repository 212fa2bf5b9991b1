/* strbuf.c: growable byte buffers. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xmem.h"

const char strbuf_slopbuf[1] = "";

void
strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = (char *)strbuf_slopbuf;
	if (hint > 0)
		strbuf_grow(sb, hint);
}

void
strbuf_release(struct strbuf *sb)
{
	if (sb->alloc > 0)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *
strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *s;

	if (sb->alloc == 0)
		strbuf_grow(sb, 0);
	s = sb->buf;
	if (len != NULL)
		*len = sb->len;
	strbuf_init(sb, 0);
	return s;
}

void
strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want, n;
	char *p;

	if (extra > (size_t)-1 / 2 - sb->len)
		die("out of memory");
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return;
	n = sb->alloc < 64 ? 64 : sb->alloc;
	while (n < want)
		n += n / 2;
	p = xrealloc(sb->alloc > 0 ? sb->buf : NULL, n);
	if (sb->alloc == 0)
		p[0] = '\0';
	sb->buf = p;
	sb->alloc = n;
}

void
strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (sb->alloc == 0)
		return;
	sb->len = len;
	sb->buf[len] = '\0';
}

void
strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (len == 0)
		return;		/* data may be NULL: memcpy must not see it */
	/* Most adds fit: skip the call (alloc 0 always goes through it). */
	if (len >= sb->alloc - sb->len)
		strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void
strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	strbuf_grow(sb, 64);
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("bad format string");
	if ((size_t)n >= sb->alloc - sb->len) {
		strbuf_grow(sb, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
}

int
strbuf_getline(struct strbuf *sb, FILE *fp)
{
	int c;

	strbuf_reset(sb);
	while ((c = getc(fp)) != EOF && c != '\n')
		strbuf_addch(sb, c);
	if (c == EOF && sb->len == 0)
		return EOF;
	return 0;
}

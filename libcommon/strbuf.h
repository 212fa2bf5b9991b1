/*
 * strbuf.h: growable byte buffers (after git's strbuf).
 *
 * buf is never NULL and always ends in a NUL byte, so a strbuf can be passed
 * to string functions at any time.  The buffer owns its memory until
 * strbuf_detach() hands it to the caller, who then frees it.
 */
#ifndef STRBUF_H
#define STRBUF_H

#include <stdio.h>
#include <stddef.h>

#include "err.h"

struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

/*
 * The buffer of every empty strbuf (alloc 0): read-only, so that a write
 * through one faults instead of changing what all the others hold.
 */
extern const char strbuf_slopbuf[];
#define STRBUF_INIT { 0, 0, (char *)strbuf_slopbuf }

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_setlen(struct strbuf *sb, size_t len);
#define strbuf_reset(sb) strbuf_setlen((sb), 0)

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) PRINTF_LIKE(2, 3);

static inline void
strbuf_addch(struct strbuf *sb, int c)
{
	if (sb->alloc < sb->len + 2)
		strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

/*
 * Reads one line from fp without its '\n' (a '\r' before it is kept).
 * Returns 0, or EOF at end of file with nothing read.
 */
int strbuf_getline(struct strbuf *sb, FILE *fp);

#endif

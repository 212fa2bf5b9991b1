/*
 * ndw.h: an NDJSON writer (after git's json-writer).
 *
 * A record is built in w->buf with ndw_begin(), members, ndw_end(), and
 * written with ndw_emit().  key is NULL for array elements.
 *
 * Rules (docs/formats.md): control characters, '"' and '\\' are escaped;
 * invalid UTF-8 bytes are written as U+FFFD; doubles are written in the
 * shortest form that reads back to the same value; NaN and infinities,
 * which JSON lacks, are written as the strings "nan", "inf" and "-inf".
 * With NDW_HTML_SAFE, '<', '>', '&', U+2028 and U+2029 are written as \u
 * escapes so the text can sit inside an HTML <script> element.
 */
#ifndef NDW_H
#define NDW_H

#include <stdint.h>
#include <stdio.h>

#include "strbuf.h"

#define NDW_HTML_SAFE 1
#define NDW_MAX_DEPTH 64

struct ndw {
	struct strbuf buf;
	unsigned flags;
	int depth;
	int need_comma;
	char kinds[NDW_MAX_DEPTH];	/* '{' or '[' for each open level */
};

void ndw_init(struct ndw *w, unsigned flags);
void ndw_release(struct ndw *w);

void ndw_begin(struct ndw *w);			/* resets buf, opens '{' */
void ndw_end(struct ndw *w);			/* closes the top object */
int ndw_emit(struct ndw *w, FILE *fp);		/* buf + '\n'; -1 on error */

void ndw_str(struct ndw *w, const char *key, const char *s, size_t len);
void ndw_strz(struct ndw *w, const char *key, const char *s);
void ndw_i64(struct ndw *w, const char *key, int64_t v);
void ndw_u64(struct ndw *w, const char *key, uint64_t v);
void ndw_f64(struct ndw *w, const char *key, double v);
void ndw_bool(struct ndw *w, const char *key, int v);
void ndw_null(struct ndw *w, const char *key);
/* Writes json, a valid JSON value, as it is. */
void ndw_raw(struct ndw *w, const char *key, const char *json, size_t len);
void ndw_obj(struct ndw *w, const char *key);	/* opens a nested '{' */
void ndw_arr(struct ndw *w, const char *key);	/* opens a nested '[' */
void ndw_close(struct ndw *w);			/* closes the innermost */

/* Appends s as a JSON string (with quotes) to sb under the rules above. */
void ndw_quote(struct strbuf *sb, const char *s, size_t len, unsigned flags);
/* Appends the shortest round-trip form of v (or "nan"/"inf" quoted). */
void ndw_fmt_f64(struct strbuf *sb, double v);

#endif

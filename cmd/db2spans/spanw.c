/*
 * spanw.c: the span writer of db2spans: span records built with ndw,
 * filtered by --where.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "jqf.h"
#include "ndw.h"
#include "progress.h"
#include "strbuf.h"

#include "db2spans.h"

void
span_flush(struct span_writer *w)
{
	if (ndw_flush(&w->w, w->fp) != 0)
		die_errno("write error");
}

/*
 * Spans of one thread come in long runs, or those of a few threads
 * mixed: the members "pid":N,"tid":N of the last SPAN_IDS threads are
 * printed once, into w->ids[], and copied into each record.  Returns the
 * entry of s's thread.
 */
static const struct span_ids *
span_ids(struct span_writer *w, const struct span *s)
{
	struct span_ids *e;
	char *d;
	size_t i;

	for (i = 0; i < w->nids; i++) {
		e = &w->ids[(w->ids_last + i) % w->nids];
		if (e->pid == s->pid && e->tid == s->tid) {
			w->ids_last = (size_t)(e - w->ids);
			return e;
		}
	}
	if (w->nids < SPAN_IDS)
		w->nids++;
	w->ids_last = w->ids_next;
	w->ids_next = (w->ids_next + 1) % SPAN_IDS;
	e = &w->ids[w->ids_last];
	e->pid = s->pid;
	e->tid = s->tid;
	d = memcpy(e->text, "\"pid\":", 6);
	d = ndw_put_u64(d + 6, s->pid);
	d = memcpy(d, ",\"tid\":", 7);
	d = ndw_put_u64(d + 7, s->tid);
	e->len = (size_t)(d - e->text);
	return e;
}

/* Copies n bytes to d; returns the end. */
static char *
put(char *d, const char *s, size_t n)
{
	memcpy(d, s, n);
	return d + n;
}

#define PUT_LIT(d, lit) put(d, lit, sizeof(lit) - 1)

/* The key (a literal, with its comma) and a time, as text or number. */
static char *
put_time(struct strbuf *b, char *d, const char *key, size_t klen,
    const char *txt, size_t txt_len, int64_t v)
{
	d = put(d, key, klen);
	if (txt != NULL)
		return put(d, txt, txt_len);
	b->len = (size_t)(d - b->buf);
	ndw_fmt_i64(b, v);
	return b->buf + b->len;
}

/*
 * Builds the record for s and x (NULL: none) in w->w, without its '}': the
 * one record db2spans writes millions of, so its members (plain literal
 * keys, JSON values already quoted, integers) are laid out by hand, as
 * ndw_raw() and ndw_i64() would write them, into room made once
 * (ndw_reserve).
 */
static void
span_format(struct span_writer *w, const struct span *s,
    const struct span_ext *x)
{
	static const struct span_ext none;
	const struct span_ids *ids = span_ids(w, s);
	struct strbuf *b = &w->w.buf;
	char *d;

	if (x == NULL)
		x = &none;
	ndw_begin(&w->w);
	d = ndw_reserve(&w->w, ids->len + s->name_len + s->cat_len +
	    x->lane_len + x->thread_name_len + w->run.len + 160);
	d = put(d, ids->text, ids->len);
	d = put(PUT_LIT(d, ",\"name\":"), s->name, s->name_len);
	if (s->cat != NULL)
		d = put(PUT_LIT(d, ",\"cat\":"), s->cat, s->cat_len);
	d = put_time(b, d, ",\"start_ns\":", 12, x->start_txt,
	    x->start_txt_len, s->start_ns);
	d = put_time(b, d, ",\"end_ns\":", 10, x->end_txt, x->end_txt_len,
	    s->end_ns);
	if (x->lane != NULL)
		d = put(PUT_LIT(d, ",\"lane\":"), x->lane, x->lane_len);
	if (x->thread_name != NULL)
		d = put(PUT_LIT(d, ",\"thread_name\":"), x->thread_name,
		    x->thread_name_len);
	if (w->run.len > 0)
		d = put(PUT_LIT(d, ",\"run\":"), w->run.buf, w->run.len);
	ndw_commit(&w->w, d);
}

int
span_write(struct span_writer *w, const struct span *s)
{
	return span_write_ext(w, s, NULL);
}

int
span_write_ext(struct span_writer *w, const struct span *s,
    const struct span_ext *x)
{
	if ((++w->rows & 0xFFF) == 0)
		progress_update(w->rows, 0);
	span_format(w, s, x);
	if (w->where == NULL) {
		if (ndw_finish(&w->w, w->fp) != 0)
			die_errno("write error");
		w->written++;
		return 0;
	}
	ndw_end(&w->w);
	if (jqf_keep(w->where, ndw_record(&w->w), ndw_record_len(&w->w),
	    w->bad, NULL) != 1) {
		w->filtered++;
		return 0;
	}
	if (ndw_emit(&w->w, w->fp) != 0)
		die_errno("write error");
	w->written++;
	return 0;
}

void
span_quote(struct strbuf *sb, const char *s, size_t len)
{
	ndw_quote(sb, s, len, 0);
}

void
span_writer_init(struct span_writer *w, const char *label,
    const char *where)
{
	memset(w, 0, sizeof(*w));
	ndw_init(&w->w, NDW_BATCH | NDW_PLAIN_KEYS);
	strbuf_init(&w->run, 0);
	if (label != NULL)
		ndw_quote(&w->run, label, strlen(label), 0);
	if (where != NULL)
		w->where = jqf_compile(where);
}

void
span_writer_release(struct span_writer *w)
{
	if (w->where != NULL)
		jqf_free(w->where);
	ndw_release(&w->w);
	strbuf_release(&w->run);
}

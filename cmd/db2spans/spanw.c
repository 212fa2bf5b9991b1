/*
 * spanw.c: the span writer of db2spans: span records built by hand for
 * speed, filtered by --where, written in blocks.
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

#define OUT_FLUSH 65536

void
span_flush(struct span_writer *w)
{
	if (w->out.len > 0 && fwrite(w->out.buf, 1, w->out.len, w->fp) !=
	    w->out.len)
		die_errno("write error");
	strbuf_reset(&w->out);
}

/* Writes v in decimal, two digits at a time. */
static char *
put_u64(char *p, uint64_t v)
{
	static const char pairs[] =
	    "00010203040506070809101112131415161718192021222324"
	    "25262728293031323334353637383940414243444546474849"
	    "50515253545556575859606162636465666768697071727374"
	    "75767778798081828384858687888990919293949596979899";
	char tmp[24], *t = tmp + sizeof(tmp);
	size_t n;

	while (v >= 100) {
		t -= 2;
		memcpy(t, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		t -= 2;
		memcpy(t, pairs + 2 * v, 2);
	} else
		*--t = (char)('0' + v);
	n = (size_t)(tmp + sizeof(tmp) - t);
	memcpy(p, t, n);
	return p + n;
}

static char *
put_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, (uint64_t)0 - (uint64_t)v);
	}
	return put_u64(p, (uint64_t)v);
}

static char *
put_str(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* Appends the record for s and x (NULL: none) to sb, with its '\n'. */
static void
span_format(struct strbuf *sb, const struct span *s,
    const struct span_ext *x, const struct strbuf *run)
{
	char *p;

	strbuf_grow(sb, s->name_len + s->cat_len + 160 + run->len +
	    (x == NULL ? 0 : x->pid_len + x->thread_name_len));
	p = sb->buf + sb->len;
	p = put_str(p, "{\"pid\":", 7);
	if (x != NULL && x->pid != NULL)
		p = put_str(p, x->pid, x->pid_len);
	else
		p = put_u64(p, s->pid);
	p = put_str(p, ",\"tid\":", 7);
	p = put_u64(p, s->tid);
	p = put_str(p, ",\"name\":", 8);
	p = put_str(p, s->name, s->name_len);
	if (s->cat != NULL) {
		p = put_str(p, ",\"cat\":", 7);
		p = put_str(p, s->cat, s->cat_len);
	}
	p = put_str(p, ",\"start_ns\":", 12);
	p = put_i64(p, s->start_ns);
	p = put_str(p, ",\"end_ns\":", 10);
	p = put_i64(p, s->end_ns);
	if (x != NULL && x->thread_name != NULL) {
		p = put_str(p, ",\"thread_name\":", 15);
		p = put_str(p, x->thread_name, x->thread_name_len);
	}
	p = put_str(p, run->buf, run->len);
	p = put_str(p, "}\n", 2);
	strbuf_setlen(sb, (size_t)(p - sb->buf));
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
	if (w->where != NULL) {
		strbuf_reset(&w->line);
		span_format(&w->line, s, x, &w->run);
		if (jqf_keep(w->where, w->line.buf, w->line.len - 1, w->bad,
		    NULL) != 1) {
			w->filtered++;
			return 0;
		}
		strbuf_add(&w->out, w->line.buf, w->line.len);
	} else
		span_format(&w->out, s, x, &w->run);
	w->written++;
	if ((w->written & 0xFFF) == 0)
		progress_update(w->written, 0);
	if (w->out.len >= OUT_FLUSH)
		span_flush(w);
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
	strbuf_init(&w->out, OUT_FLUSH + 4096);
	strbuf_init(&w->line, 256);
	strbuf_init(&w->run, 0);
	if (label != NULL) {
		strbuf_addstr(&w->run, ",\"run\":");
		ndw_quote(&w->run, label, strlen(label), 0);
	}
	if (where != NULL)
		w->where = jqf_compile(where);
}

void
span_writer_release(struct span_writer *w)
{
	if (w->where != NULL)
		jqf_free(w->where);
	strbuf_release(&w->out);
	strbuf_release(&w->line);
	strbuf_release(&w->run);
}

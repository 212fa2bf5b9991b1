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

/* Builds the record for s and x (NULL: none) in w->w. */
static void
span_format(struct span_writer *w, const struct span *s,
    const struct span_ext *x)
{
	struct ndw *j = &w->w;

	ndw_begin(j);
	ndw_u64(j, "pid", s->pid);
	ndw_u64(j, "tid", s->tid);
	ndw_raw(j, "name", s->name, s->name_len);
	if (s->cat != NULL)
		ndw_raw(j, "cat", s->cat, s->cat_len);
	if (x != NULL && x->start_txt != NULL)
		ndw_raw(j, "start_ns", x->start_txt, x->start_txt_len);
	else
		ndw_i64(j, "start_ns", s->start_ns);
	if (x != NULL && x->end_txt != NULL)
		ndw_raw(j, "end_ns", x->end_txt, x->end_txt_len);
	else
		ndw_i64(j, "end_ns", s->end_ns);
	if (x != NULL && x->lane != NULL)
		ndw_raw(j, "lane", x->lane, x->lane_len);
	if (x != NULL && x->thread_name != NULL)
		ndw_raw(j, "thread_name", x->thread_name, x->thread_name_len);
	if (w->run.len > 0)
		ndw_raw(j, "run", w->run.buf, w->run.len);
	ndw_end(j);
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

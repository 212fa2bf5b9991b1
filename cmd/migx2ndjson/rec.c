/*
 * rec.c: the record writer of migx2ndjson: the members every record
 * starts with, and records through --where to the output.
 */
#include <string.h>

#include "err.h"
#include "jqf.h"
#include "ndw.h"
#include "strbuf.h"

#include "migx.h"

void
rec_begin(struct migx *mx, const char *type, struct run *r, unsigned long line)
{
	size_t tn = strlen(type);	/* ours: plain */
	char *d;

	ndw_begin(&mx->w);
	d = ndw_reserve(&mx->w, tn + 64);
	LIT(d, "\"type\":\"");
	memcpy(d, type, tn);
	d += tn;
	LIT(d, "\",\"run\":");
	d = ndw_put_u64(d, (unsigned long)r->num);
	LIT(d, ",\"line\":");
	d = ndw_put_u64(d, line);
	ndw_commit(&mx->w, d);
	if (mx->opt.label != NULL)
		ndw_strz(&mx->w, "label", mx->opt.label);
}

void
rec_begin_instr(struct migx *mx, struct run *r, int perf, unsigned long seq)
{
	char *d;

	ndw_begin(&mx->w);
	d = ndw_reserve(&mx->w, 64);
	LIT(d, "\"type\":\"instruction\",\"run\":");
	d = ndw_put_u64(d, (unsigned long)r->num);
	LIT(d, ",\"line\":");
	d = ndw_put_u64(d, mx->pos.line);
	if (mx->opt.label != NULL) {
		ndw_commit(&mx->w, d);
		ndw_strz(&mx->w, "label", mx->opt.label);
		d = ndw_reserve(&mx->w, 64);
	}
	if (perf)
		LIT(d, ",\"section\":\"perf\",\"seq\":");
	else
		LIT(d, ",\"section\":\"program\",\"seq\":");
	d = ndw_put_u64(d, seq);
	ndw_commit(&mx->w, d);
}

void
rec_flags(struct migx *mx, unsigned flags)
{
	static const char *const names[] = { "glued", "truncated",
	    "wrapped", "fork_spacing", "indented", "nospace" };
	size_t i;

	if (flags == 0)
		return;
	ndw_arr(&mx->w, "flags");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (flags & (1u << i))
			ndw_str(&mx->w, NULL, names[i], strlen(names[i]));
	ndw_close(&mx->w);
}

void
rec_emit(struct migx *mx)
{
	mx->records++;
	if (mx->where == NULL) {
		ndw_finish(&mx->w, mx->out);
		return;
	}
	ndw_end(&mx->w);
	if (jqf_keep(mx->where, ndw_record(&mx->w), ndw_record_len(&mx->w),
	    &mx->bad, &mx->pos) == 1)
		ndw_emit(&mx->w, mx->out);
}

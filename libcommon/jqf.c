/* jqf.c: a user's jq filter over records (libjq 1.6). */
#include <limits.h>
#include <string.h>

#include <jq.h>
#include <jv.h>

#include "err.h"
#include "jqf.h"
#include "strbuf.h"
#include "xmem.h"

struct jqf {
	jq_state *jq;		/* NULL after a run-time error */
	char *expr;		/* the filter, to compile it again */
	struct strbuf msg;	/* compile errors, or the last run-time one */
};

/* Appends a jv message to sb as text; frees msg. */
static void
add_jv(struct strbuf *sb, jv msg)
{
	jv s;

	if (jv_get_kind(msg) == JV_KIND_STRING) {
		strbuf_add(sb, jv_string_value(msg),
		    (size_t)jv_string_length_bytes(jv_copy(msg)));
		jv_free(msg);
		return;
	}
	s = jv_dump_string(msg, 0);
	strbuf_addstr(sb, jv_string_value(s));
	jv_free(s);
}

/*
 * Collects compile errors.  libjq reports "jq: error: WHAT at <top-level>,
 * line 1:\nPROGRAM" and then "jq: N compile error(s)"; only WHAT and where
 * are kept, on one line.
 */
static void
on_error(void *data, jv msg)
{
	struct jqf *f = data;
	struct strbuf one = STRBUF_INIT;
	const char *p;
	char *nl;

	add_jv(&one, msg);
	p = one.buf;
	if (strncmp(p, "jq: error: ", 11) == 0)
		p += 11;
	else if (strncmp(p, "jq: ", 4) == 0 && strstr(p, "compile error"))
		p = "";
	if ((nl = strchr(p, '\n')) != NULL) {
		*nl = '\0';
		if (nl > p && nl[-1] == ':')
			nl[-1] = '\0';
	}
	if (*p != '\0') {
		if (f->msg.len > 0)
			strbuf_addstr(&f->msg, "; ");
		strbuf_addstr(&f->msg, p);
	}
	strbuf_release(&one);
}

/* Compiles f->expr into a new f->jq; a bad filter is a usage error. */
static void
load(struct jqf *f)
{
	if ((f->jq = jq_init()) == NULL)
		die("out of memory");
	jq_set_error_cb(f->jq, on_error, f);
	if (!jq_compile(f->jq, f->expr)) {
		if (f->msg.len == 0)
			strbuf_addstr(&f->msg, "compile error");
		die_usage("bad jq filter '%s': %s", f->expr, f->msg.buf);
	}
	strbuf_reset(&f->msg);
}

struct jqf *
jqf_compile(const char *expr)
{
	struct jqf *f;

	f = xcalloc(1, sizeof(*f));
	f->expr = xstrdup(expr);
	strbuf_init(&f->msg, 0);
	load(f);
	return f;
}

/* A record passes when the first output is neither false nor null. */
int
jqf_match(struct jqf *f, const char *json, size_t len)
{
	jv in, out, msg;
	jv_kind k;

	if (len > INT_MAX) {
		strbuf_reset(&f->msg);
		strbuf_addstr(&f->msg, "record too long for jq");
		return -1;
	}
	in = jv_parse_sized(json, (int)len);
	if (!jv_is_valid(in)) {
		strbuf_reset(&f->msg);
		strbuf_addstr(&f->msg, "jq cannot parse the record: ");
		add_jv(&f->msg, jv_invalid_get_msg(in));
		return -1;
	}
	if (f->jq == NULL)
		load(f);
	jq_start(f->jq, in, 0);
	out = jq_next(f->jq);
	if (jv_is_valid(out)) {
		k = jv_get_kind(out);
		jv_free(out);
		return k != JV_KIND_NULL && k != JV_KIND_FALSE;
	}
	msg = jv_invalid_get_msg(out);
	if (jv_get_kind(msg) == JV_KIND_NULL) {
		/* No output (empty, select(false)): the record is left out. */
		jv_free(msg);
		return 0;
	}
	strbuf_reset(&f->msg);
	add_jv(&f->msg, msg);
	/*
	 * libjq 1.6 keeps the unwound run's stack, and points only past its
	 * end: LeakSanitizer sees it leaked when --strict exits on this
	 * error.  The state goes; the next record compiles the filter again.
	 */
	jq_teardown(&f->jq);
	f->jq = NULL;
	return -1;
}

const char *
jqf_error(struct jqf *f)
{
	return f->msg.buf;
}

void
jqf_free(struct jqf *f)
{
	if (f == NULL)
		return;
	if (f->jq != NULL)
		jq_teardown(&f->jq);
	free(f->expr);
	strbuf_release(&f->msg);
	free(f);
}

int
jqf_keep(struct jqf *f, const char *json, size_t len, struct bad_input *bad,
    const struct srcpos *pos)
{
	int m;

	if (f == NULL)
		return 1;
	if ((m = jqf_match(f, json, len)) < 0)
		bad_input(bad, pos, "--where: %s", jqf_error(f));
	return m;
}

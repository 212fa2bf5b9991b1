/*
 * ndcat: the benchmark driver of the NDJSON reader and writer.  It reads
 * records with nd_read() and validates each with nd_fields(), then writes
 * it again with ndw: objects and arrays are walked member by member in
 * one pass over the validated text, strings decoded and quoted again,
 * numbers passed through as text.  That
 * is the work of jq -c . (parse everything, print it compact), except
 * that numbers stay exact.  Bad lines are reported and skipped.  With -v
 * it only reads and validates (the work of jq empty) and writes nothing.
 *
 * usage: ndcat [-v] [file ...]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "nd.h"
#include "ndw.h"
#include "strbuf.h"

static struct bad_input bad = BAD_INPUT_INIT;
static int validate_only;
static struct strbuf keys[NDW_MAX_DEPTH];	/* decoded key per level */
static struct strbuf text;			/* a decoded string */

static const char *emit_value(struct ndw *w, const char *key, const char *p,
    const char *end, int depth);

static const char *
skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/*
 * Returns the end of the string whose opening quote is at p; *esc tells
 * whether it holds a backslash.  Eight bytes at a time while none is a
 * quote or a backslash.
 */
static const char *
string_end(const char *p, const char *end, int *esc)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t high = 0x8080808080808080ULL;
	uint64_t w, q, b;

	*esc = 0;
	for (p++;;) {
		while (end - p >= 8) {
			memcpy(&w, p, 8);
			q = w ^ (ones * '"');
			b = w ^ (ones * '\\');
			if ((((q - ones) & ~q) | ((b - ones) & ~b)) & high)
				break;
			p += 8;
		}
		while (p < end && *p != '"' && *p != '\\')
			p++;
		if (p >= end || *p == '"')
			return p + 1;
		*esc = 1;
		p += 2;		/* the escaped character */
	}
}

/*
 * Writes the members of the object or array whose opening bracket is at
 * p, in one pass over the validated text; returns the end of it.
 */
static const char *
emit_members(struct ndw *w, const char *p, const char *end, int depth)
{
	struct nd_slice k;
	const char *q, *name;
	char close = *p == '{' ? '}' : ']';
	int esc;

	if (depth >= NDW_MAX_DEPTH)
		die("nesting deeper than %d", NDW_MAX_DEPTH);
	for (p = skip_ws(p + 1, end); p < end && *p != close;) {
		name = NULL;
		if (close == '}') {
			q = string_end(p, end, &esc);
			strbuf_reset(&keys[depth]);
			if (!esc)
				strbuf_add(&keys[depth], p + 1, (size_t)(q - p - 2));
			else {
				k.p = p;
				k.len = (size_t)(q - p);
				nd_val_str(k, &keys[depth]);
			}
			name = keys[depth].buf;
			p = skip_ws(skip_ws(q, end) + 1, end);	/* ':' */
		}
		p = skip_ws(emit_value(w, name, p, end, depth), end);
		if (p < end && *p == ',')
			p = skip_ws(p + 1, end);
	}
	return p + 1;
}

static const char *
emit_value(struct ndw *w, const char *key, const char *p, const char *end,
    int depth)
{
	struct nd_slice v;
	const char *q;
	int esc;

	switch (*p) {
	case '{':
	case '[':
		if (*p == '{')
			ndw_obj(w, key);
		else
			ndw_arr(w, key);
		q = emit_members(w, p, end, depth + 1);
		ndw_close(w);
		return q;
	case '"':
		q = string_end(p, end, &esc);
		/* Without a backslash the decoded text is what is quoted. */
		if (!esc) {
			ndw_str(w, key, p + 1, (size_t)(q - p - 2));
			return q;
		}
		v.p = p;
		v.len = (size_t)(q - p);
		strbuf_reset(&text);
		nd_val_str(v, &text);
		ndw_str(w, key, text.buf, text.len);
		return q;
	default:
		/* Numbers and literals, as written. */
		for (q = p; q < end && *q != ',' && *q != '}' && *q != ']' &&
		    *q != ' ' && *q != '\t' && *q != '\r' && *q != '\n'; q++)
			;
		ndw_raw(w, key, p, (size_t)(q - p));
		return q;
	}
}

static void
ndcat_stream(struct nd_reader *r, struct ndw *w)
{
	int rc;

	while ((rc = nd_read(r)) == 1) {
		if (nd_fields(r->line, r->len, NULL, NULL, 0) < 0) {
			bad_input(&bad, &r->pos, "%s", nd_error());
			continue;
		}
		if (validate_only)
			continue;
		ndw_begin(w);
		emit_members(w, skip_ws(r->line, r->line + r->len),
		    r->line + r->len, 1);
		ndw_end(w);
		if (ndw_emit(w, stdout) != 0)
			die_errno("write error");
	}
	if (rc < 0)
		die("%s: read error: %s", r->pos.file, zin_error(&r->in));
}

int
main(int argc, char *argv[])
{
	static char obuf[1 << 20];
	struct nd_reader r;
	struct ndw w;
	int i, rc = EXIT_SUCCESS;

	prog_init(argv[0]);
	while ((i = getopt(argc, argv, "v")) != -1)
		switch (i) {
		case 'v':
			validate_only = 1;
			break;
		default:
			fprintf(stderr, "usage: ndcat [-v] [file ...]\n");
			return EXIT_USAGE;
		}
	argc -= optind - 1;
	argv += optind - 1;
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	for (i = 0; i < NDW_MAX_DEPTH; i++)
		strbuf_init(&keys[i], 0);
	strbuf_init(&text, 0);
	ndw_init(&w, 0);
	for (i = 1; i < argc || (i == 1 && argc == 1); i++) {
		const char *path = argc == 1 ? "-" : argv[i];

		if (nd_reader_open(&r, path) != 0) {
			warn_errno("cannot open '%s'", path);
			rc = EXIT_FAILURE;
			continue;
		}
		ndcat_stream(&r, &w);
		nd_reader_close(&r);
	}
	ndw_release(&w);
	for (i = 0; i < NDW_MAX_DEPTH; i++)
		strbuf_release(&keys[i]);
	strbuf_release(&text);
	if (bad_input_finish(&bad) != EXIT_SUCCESS)
		rc = EXIT_FAILURE;
	return close_stdout() != 0 ? EXIT_FAILURE : rc;
}

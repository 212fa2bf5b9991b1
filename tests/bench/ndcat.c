/*
 * ndcat: the benchmark driver of the NDJSON reader and writer.  It reads
 * records with nd_read() and validates each with nd_fields(), then writes
 * it again with ndw: objects and arrays are walked member by member,
 * strings decoded and quoted again, numbers passed through as text.  That
 * is the work of jq -c . (parse everything, print it compact), except
 * that numbers stay exact.  Bad lines are reported and skipped.  With -v
 * it only reads and validates (the work of jq empty) and writes nothing.
 *
 * usage: ndcat [-v] [file ...]
 */
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

static void emit(struct ndw *w, const char *key, struct nd_slice v,
    int depth);

/* Writes the members of an object or the elements of an array. */
static void
emit_members(struct ndw *w, struct nd_slice v, int depth)
{
	struct nd_slice k, x;
	struct nd_iter it;

	if (depth >= NDW_MAX_DEPTH)
		die("nesting deeper than %d", NDW_MAX_DEPTH);
	nd_iter_init(&it, v);
	while (nd_iter_next(&it, &k, &x) == 1) {
		if (k.p == NULL) {
			emit(w, NULL, x, depth);
			continue;
		}
		strbuf_reset(&keys[depth]);
		if (memchr(k.p, '\\', k.len) == NULL)
			strbuf_add(&keys[depth], k.p + 1, k.len - 2);
		else
			nd_val_str(k, &keys[depth]);
		emit(w, keys[depth].buf, x, depth);
	}
}

static void
emit(struct ndw *w, const char *key, struct nd_slice v, int depth)
{
	switch (nd_type(v)) {
	case ND_OBJECT:
		ndw_obj(w, key);
		emit_members(w, v, depth + 1);
		ndw_close(w);
		break;
	case ND_ARRAY:
		ndw_arr(w, key);
		emit_members(w, v, depth + 1);
		ndw_close(w);
		break;
	case ND_STRING:
		/* Without a backslash the decoded text is what is quoted. */
		if (memchr(v.p, '\\', v.len) == NULL) {
			ndw_str(w, key, v.p + 1, v.len - 2);
			break;
		}
		strbuf_reset(&text);
		nd_val_str(v, &text);
		ndw_str(w, key, text.buf, text.len);
		break;
	default:
		/* Numbers and literals, as written. */
		ndw_raw(w, key, v.p, v.len);
		break;
	}
}

static void
ndcat_stream(struct nd_reader *r, struct ndw *w)
{
	struct nd_slice v;
	int rc;

	while ((rc = nd_read(r)) == 1) {
		if (nd_fields(r->line, r->len, NULL, NULL, 0) < 0) {
			bad_input(&bad, &r->pos, "%s", nd_error());
			continue;
		}
		if (validate_only)
			continue;
		v.p = r->line;
		v.len = r->len;
		while (v.len > 0 && *v.p != '{') {
			v.p++;
			v.len--;
		}
		while (v.len > 0 && v.p[v.len - 1] != '}')
			v.len--;
		ndw_begin(w);
		emit_members(w, v, 1);
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

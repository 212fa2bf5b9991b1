/*
 * The NDJSON reader of libcommon: every line of the input through
 * nd_trim() and nd_fields(), every value of a valid record walked with
 * nd_iter and read with nd_val_*(), as the programs do.  Every line also
 * goes through nd_fields_keys() with one key set for the whole input, so
 * that the layouts it learns from the lines before meet the lines after:
 * it must find what nd_fields() finds, slice for slice.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
walk(struct nd_slice v, int depth, struct strbuf *sb)
{
	struct nd_iter it;
	struct nd_slice k, x;
	int64_t i;
	uint64_t u;
	double d;

	switch (nd_type(v)) {
	case ND_OBJECT:
	case ND_ARRAY:
		if (depth > 64 || nd_iter_init(&it, v) != 0)
			return;
		while (nd_iter_next(&it, &k, &x) == 1) {
			if (k.p != NULL) {
				strbuf_reset(sb);
				nd_val_str(k, sb);
				(void)nd_str_eq(k, "name", 4);
			}
			walk(x, depth + 1, sb);
		}
		break;
	case ND_STRING:
		strbuf_reset(sb);
		if (nd_val_str(v, sb) != 0)
			abort();	/* a validated string decodes */
		break;
	case ND_NUMBER:
		(void)nd_val_i64(v, &i);
		(void)nd_val_u64(v, &u);
		if (nd_val_f64(v, &d) != 0)
			abort();	/* a validated number reads */
		break;
	default:
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = { "type", "name", "start_ns",
	    "stack", "values" };
	struct nd_slice v[5], w[5], all;
	struct strbuf sb = STRBUF_INIT;
	struct nd_keys ks;
	char *buf = malloc(size + 1);
	const char *p, *e, *nl;
	size_t len;
	unsigned long line = 0;
	int i, found;

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);	/* a line ends where the input does */
	nd_keys_init(&ks, keys, 5);
	for (p = buf, e = buf + size; p < e; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
			nl = e;
		len = (size_t)(nl - p);
		nd_trim(&p, &len, ++line);
		if (len == 0)
			continue;
		found = nd_fields(p, len, keys, v, 5);
		if (nd_fields_keys(p, len, &ks, w) != found)
			abort();
		for (i = 0; found >= 0 && i < 5; i++)
			if (v[i].p != w[i].p || v[i].len != w[i].len)
				abort();
		if (found < 0) {
			(void)nd_validate(p, len);
			continue;
		}
		for (i = 0; i < 5; i++)
			if (v[i].p != NULL)
				walk(v[i], 0, &sb);
		all.p = p;
		all.len = len;
		walk(all, 0, &sb);
	}
	nd_keys_release(&ks);
	strbuf_release(&sb);
	free(buf);
	return 0;
}

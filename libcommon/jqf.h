/*
 * jqf.h: a user's jq filter over records, for the common --where option.
 *
 * libjq is only used here, never on the main data path.  A record passes
 * when the filter's first output is neither false nor null (as with
 * jq 'select(EXPR)').
 */
#ifndef JQF_H
#define JQF_H

#include <stddef.h>

struct jqf;

/* Compiles expr; a compile error is a usage error (exit 2). */
struct jqf *jqf_compile(const char *expr);
/* Returns 1 if the record passes, 0 if not, -1 on a jq runtime error. */
int jqf_match(struct jqf *f, const char *json, size_t len);
/* The last runtime error message. */
const char *jqf_error(struct jqf *f);
void jqf_free(struct jqf *f);

#endif

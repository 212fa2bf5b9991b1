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

#include "err.h"

struct jqf;

/*
 * Compiles expr.  A compile error is a usage error: it prints
 * "prog: bad jq filter 'EXPR': WHAT at <top-level>, line 1" (libjq's own
 * "jq: error: " prefix and the program echo removed) and exits 2.
 */
struct jqf *jqf_compile(const char *expr);
/*
 * Runs the filter on json, one JSON value of len bytes.  Returns 1 if the
 * record passes, 0 if not (false, null or no output), -1 on a jq run-time
 * error (or text jq cannot parse); the caller treats -1 as a bad record.
 */
int jqf_match(struct jqf *f, const char *json, size_t len);
/*
 * The --where test of one record at pos: 1 if f is NULL or the record
 * passes, 0 if it does not, and -1 after a run-time error, which is
 * reported to bad as "--where: why".
 */
int jqf_keep(struct jqf *f, const char *json, size_t len,
    struct bad_input *bad, const struct srcpos *pos);
/* The last run-time error message, without a "jq: error" prefix. */
const char *jqf_error(struct jqf *f);
void jqf_free(struct jqf *f);

#endif

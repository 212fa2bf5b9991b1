/* migx2ndjson on migraphx-driver text. */
#include "harness.h"

static const char *const fuzz_args[] = { "migx2ndjson", "@@", NULL };
FUZZ_PROG(fuzz_args, ".txt")

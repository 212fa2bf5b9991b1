/* topn --merge on partial statistics. */
#include "harness.h"

static const char *const fuzz_args[] = { "topn", "--merge", "@@", NULL };
FUZZ_PROG(fuzz_args, ".nd")

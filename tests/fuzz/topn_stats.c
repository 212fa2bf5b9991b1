/* topn grouping any records (the keys of the seed cases). */
#include "harness.h"

static const char *const fuzz_args[] = { "topn", "-k", "Kernel_Name", "-k", "name", "-s", "sum", "@@", NULL };
FUZZ_PROG(fuzz_args, ".nd")

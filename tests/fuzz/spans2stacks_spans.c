/* spans2stacks on span records. */
#include "harness.h"

static const char *const fuzz_args[] = { "spans2stacks", "@@", NULL };
FUZZ_PROG(fuzz_args, ".nd")

/* flame2html on folded stacks or stack records (it tells them apart). */
#include "harness.h"

static const char *const fuzz_args[] = { "flame2html", "@@", NULL };
FUZZ_PROG(fuzz_args, ".txt")

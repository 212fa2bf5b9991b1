/* chart2html on any records. */
#include "harness.h"

static const char *const fuzz_args[] = { "chart2html", "@@", NULL };
FUZZ_PROG(fuzz_args, ".nd")

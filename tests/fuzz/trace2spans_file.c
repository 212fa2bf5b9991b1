/* trace2spans on a Chrome trace-event file. */
#include "harness.h"

static const char *const fuzz_args[] = { "trace2spans", "@@", NULL };
FUZZ_PROG(fuzz_args, ".json")

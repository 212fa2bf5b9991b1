/* pmc2ndjson on one counter CSV file (every CSV dialect it knows). */
#include "harness.h"

static const char *const fuzz_args[] = { "pmc2ndjson", "@@", NULL };
FUZZ_PROG(fuzz_args, ".csv")

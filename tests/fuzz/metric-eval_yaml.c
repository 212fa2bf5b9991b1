/*
 * metric-eval's YAML loader: the input is one panel config (-f), used on
 * a small dispatch stream.
 */
#include "harness.h"

static const char *const fuzz_args[] = { "metric-eval", "-f", "@@",
    "@AUX@", NULL };
FUZZ_PROG_AUX(fuzz_args, ".yaml",
    "{\"type\":\"sysinfo\",\"gpu_arch\":\"gfx90a\",\"cu_per_gpu\":104,"
    "\"num_xcd\":1,\"wave_size\":64,\"total_l2_chan\":32}\n"
    "{\"type\":\"dispatch\",\"Dispatch_ID\":0,\"Kernel_Name\":\"k\","
    "\"SQ_WAVES\":16,\"SQ_BUSY_CYCLES\":7,\"GRBM_GUI_ACTIVE\":100,"
    "\"GRBM_COUNT\":120,\"dur_ns\":1000}\n")

/*
 * metric-eval's expression compiler and evaluator: the input is one -e
 * definition, evaluated on a small dispatch stream.
 */
#include "harness.h"

static const char *const fuzz_args[] = { "metric-eval", "-e", "@DATA@",
    "@AUX@", NULL };
FUZZ_PROG_AUX(fuzz_args, ".txt",
    "{\"type\":\"sysinfo\",\"gpu_arch\":\"gfx90a\",\"cu_per_gpu\":104,"
    "\"num_xcd\":1,\"wave_size\":64,\"total_l2_chan\":32}\n"
    "{\"type\":\"dispatch\",\"Dispatch_ID\":0,\"Kernel_Name\":\"k\","
    "\"A\":1,\"B\":2,\"SQ_WAVES\":16,\"GRBM_GUI_ACTIVE\":100,"
    "\"dur_ns\":1000}\n"
    "{\"type\":\"dispatch\",\"Dispatch_ID\":1,\"Kernel_Name\":\"j\","
    "\"A\":3,\"B\":0,\"SQ_WAVES\":0,\"GRBM_GUI_ACTIVE\":0,"
    "\"dur_ns\":-5}\n")

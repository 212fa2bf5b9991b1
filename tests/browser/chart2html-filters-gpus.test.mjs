/*
 * chart2html-filters-gpus.test.mjs: the filters of an --interactive page
 * against metric-eval (see chart2html-filters.test.mjs) on mixbench/mi200
 * with the full gfx90a config made a two-GPU workload (GPU_ID = position
 * % 2): a GPU alone, with kernels, with dispatches; one kernel; every
 * dispatch listed; no filter.
 */
import { have, skipAll, workloadTests, workloads } from './filters.mjs';

if (!have)
	skipAll('filters');
else
	workloadTests(workloads[5], workloads[5].choices.slice(6));

/*
 * chart2html-filters-mixbench.test.mjs: the filters of an --interactive
 * page against metric-eval (see chart2html-filters.test.mjs) on
 * mixbench/mi200 with the full gfx90a config, made a two-GPU workload
 * (GPU_ID = position % 2): two and three kernels together, dispatch
 * ranges and lists, > n; a GPU alone and with kernels or dispatches in
 * chart2html-filters-gpus.
 */
import { have, skipAll, workloadTests, workloads } from './filters.mjs';

if (!have)
	skipAll('filters');
else
	workloadTests(workloads[5], workloads[5].choices.slice(0, 6));

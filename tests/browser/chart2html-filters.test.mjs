/*
 * chart2html-filters.test.mjs: the filters of a page made from
 * 'metric-eval --interactive' (dispatches, kernels, GPUs, normalization),
 * made with the page's controls: every cell window.profpipe.cell() gives
 * equals, to 1e-9 relative (blanks and infinities included), the record
 * metric-eval writes when run with the same filters (-d, -k, -g, -n).
 * metric-eval is the reference, run here for each choice (filters.mjs).
 * This file: vcopy on MI100 (gfx908), MI200 (gfx90a) and MI300X (gfx942);
 * chart2html-filters-more: path/MI300X and MI350 (gfx950);
 * chart2html-filters-mixbench: the 167-kernel workload on two GPUs.
 */
import { have, skipAll, workloadTests, workloads } from './filters.mjs';

if (!have)
	skipAll('filters');
else
	for (const w of workloads.slice(0, 3))
		workloadTests(w);

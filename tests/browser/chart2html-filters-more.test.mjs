/*
 * chart2html-filters-more.test.mjs: the filters of an --interactive page
 * against metric-eval (see chart2html-filters.test.mjs) on path/MI300X
 * (gfx942) and vcopy/MI350 (gfx950).
 */
import { have, skipAll, workloadTests, workloads } from './filters.mjs';

if (!have)
	skipAll('filters');
else
	for (const w of workloads.slice(3, 5))
		workloadTests(w);

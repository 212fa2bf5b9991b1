/*
 * chart2html-pipeline.test.mjs: the pages of the real pipelines on the
 * rocprof-compute fixtures, read as a user would.  Expected numbers are
 * the worked examples of ../shared/notes/rocprof-compute.md (sections 8
 * and 9.5), not chart2html's or metric-eval's own output.  Skipped when
 * pmc2ndjson, metric-eval or topn is not built.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { binDir, cell, fixture, pageTest, runProg, tmpPath, top } from
    './lib.mjs';

const have = ['pmc2ndjson', 'metric-eval', 'topn', 'chart2html']
    .every((p) => existsSync(join(binDir, p)));
const configs = resolve(top, '..', 'shared', 'reference',
    'rocprof-compute-configs');

if (!have) {
	test('pipeline pages (pmc2ndjson, metric-eval, topn not built)',
	    { skip: true }, () => {});
} else {
	const report = tmpPath('report.html');
	const top10 = tmpPath('top.html');
	const norms = tmpPath('norms.html');
	test('the pipelines write their pages', () => {
		const mi200 = runProg('pmc2ndjson',
		    [fixture('rocprof-compute/vcopy/MI200')]);
		const metrics = runProg('metric-eval', ['-c',
		    join(configs, 'gfx90a'), '--by', 'Kernel_Name'],
		    { input: mi200 });
		runProg('chart2html', ['-o', report], { input: metrics });
		const mix = runProg('pmc2ndjson',
		    [fixture('rocprof-compute/mixbench/mi200')]);
		const stats = runProg('topn', ['-k', 'Kernel_Name', '-v',
		    'dur_ns', '-n', '0'], { input: mix });
		runProg('chart2html', ['-o', top10], { input: stats });
		/*
		 * Table 18.3 (no Unit column) in three runs over two files:
		 * a.ndjson per_wave; b.ndjson per_kernel --by, then per_wave
		 * --by again, a cat of two outputs whose all-kernels rows
		 * repeat a.ndjson's.
		 */
		const run = (args) => runProg('metric-eval', ['-c',
		    join(configs, 'gfx90a'), '-b', '18.3', ...args],
		    { input: mi200 });
		const a = tmpPath('a.ndjson'), b = tmpPath('b.ndjson');
		writeFileSync(a, run(['-n', 'per_wave']));
		writeFileSync(b, run(['--by', 'Kernel_Name']) +
		    run(['-n', 'per_wave', '--by', 'Kernel_Name']));
		runProg('chart2html', ['-o', norms, a, b]);
	});

	const kernel = 'vecCopy(double*, double*, double*, int, int) ' +
	    '[clone .kd]';
	pageTest('vcopy/MI200: occupancy and the L2 channel box', report,
	    async (pg) => {
		for (const k of ['(all kernels)', kernel]) {
			await pg.selectOption('[data-testid=kernel]', { label: k });
			await pg.waitForSelector('.metrics:not([data-pending])');
			assert.equal(await cell(pg, '2.1', 'Wavefront Occupancy',
			    'Avg'), '1,765.97');
			/* The Peak column has fractions (22630.4): every cell
			 * shows two decimals, as rocprof-compute prints it. */
			assert.equal(await cell(pg, '2.1', 'Wavefront Occupancy',
			    'Peak'), '3,328.00');
			assert.equal(await cell(pg, '2.1', 'Wavefront Occupancy',
			    'Pct of Peak'), '53.06');
			const box = [];
			for (const c of ['Min', 'Q1', 'Median', 'Q3', 'Max'])
				box.push(await cell(pg, '18.2', '0', c));
			assert.deepEqual(box,
			    ['34.58', '34.71', '34.83', '35.15', '35.47']);
		}
		const row = pg.locator('[data-testid="table-2.1"] tbody tr',
		    { hasText: 'Wavefront Occupancy' });
		await row.locator('td').nth(1).hover();
		const tip = await pg.textContent('[data-testid=tooltip]');
		assert.match(tip,
		    /^Wavefront Occupancy Avg: 1765\.965388\d* Wavefronts\n/);
		/* The metric's description (metrics_description). */
		assert.match(tip, /\nThe time-averaged number of wavefronts/);
	});

	/*
	 * TCC_REQ[0] is 6352, 6266, 6290 and SQ_WAVES 16384 in each of the
	 * three dispatches (pmc_perf.csv): per_kernel the box of notes 8,
	 * per_wave 0.3876953125, 0.3824462890625, 0.3839111328125, so
	 * Min 0.382446..., Q1 0.383178..., Median 0.383911..., Q3
	 * 0.385803..., Max 0.387695... (two decimals: 0.38 0.38 0.38 0.39
	 * 0.39).  Per kernel, Q1 and Q3 (the mean of two counts) have
	 * fractions in other channels, so the whole column shows two
	 * decimals; Min, Median and Max are counts.
	 */
	pageTest('vcopy/MI200: normalizations from two files and a cat', norms,
	    async (pg) => {
		const box = async () => {
			const out = [];
			for (const c of ['Min', 'Q1', 'Median', 'Q3', 'Max'])
				out.push(await cell(pg, '18.3', '0', c));
			return out;
		};
		const options = (id) => pg.$$eval(`[data-testid=${id}] option`,
		    (os) => os.map((o) => o.textContent));
		assert.deepEqual(await options('normalization'),
		    ['per_wave', 'per_kernel']);
		assert.deepEqual(await options('kernel'),
		    ['(all kernels)', kernel]);
		assert.deepEqual(await box(),
		    ['0.38', '0.38', '0.38', '0.39', '0.39']);
		await pg.selectOption('[data-testid=kernel]', { label: kernel });
		assert.deepEqual(await box(),
		    ['0.38', '0.38', '0.38', '0.39', '0.39']);
		const row = pg.locator('[data-testid="table-18.3"] tbody tr',
		    { hasText: /^0/ }).first();
		await row.locator('td').nth(2).hover();	/* Channel, Min */
		assert.equal(await pg.textContent('[data-testid=tooltip]'),
		    '0 Min: 0.3824462890625');
		await pg.selectOption('[data-testid=normalization]',
		    { label: 'per_kernel' });
		assert.deepEqual(await box(),
		    ['6,266', '6,278.00', '6,290', '6,321.00', '6,352']);
		await pg.selectOption('[data-testid=kernel]', { index: 0 });
		assert.deepEqual(await box(),
		    ['6,266', '6,278.00', '6,290', '6,321.00', '6,352']);
		/* b.ndjson's 32 per_wave channel rows over all kernels. */
		assert.match(await pg.textContent('[data-testid=repeated]'),
		    /^not shown: 32 metric records repeating an earlier one/);
	});

	pageTest('mixbench: the top kernels and Top-N', top10, async (pg) => {
		const first = 'void benchmark_func<int, 256, 8u, 512u>(int, ' +
		    'int*) [clone .kd]';
		assert.equal(await cell(pg, 'top', first, 'sum (ns)'),
		    '3,356,652 (3.36 ms)');
		assert.equal(await cell(pg, 'top', first, 'pct'), '7.84');
		const bars = pg.locator('[data-testid=chart-top] .bar');
		assert.equal(await bars.count(), 10);
		await pg.fill('[data-testid=topn]', '5');
		assert.equal(await bars.count(), 5);
		await bars.nth(1).hover();
		assert.match(await pg.textContent('[data-testid=tooltip]'),
		    /^void benchmark_func<HIP_vector_type<float, 2u>, 256, 8u, 512u>.*: sum_ns 1725607, pct 4\.032/);
		await pg.fill('[data-testid=topn]', '0');
		assert.equal(await bars.count(), 167);
	});
}

/*
 * chart2html.test.mjs: the pages of the known record kinds, used as a
 * reader would: switch the kernel and the normalization, sort, filter,
 * change Top-N, hover bars, zoom the timeline, scroll a long table.
 * Every expected value is worked out by hand from the small inputs below.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { cell, pageTest, runProg, tmpPath } from
    './lib.mjs';

function page(name, lines, args = []) {
	const html = tmpPath(name);
	runProg('chart2html', ['-o', html, ...args],
	    { input: lines.map((r) => JSON.stringify(r)).join('\n') + '\n' });
	return html;
}

/* The first cells of the drawn rows of a table. */
async function firstCells(pg, table) {
	return pg.$$eval(`[data-testid="table-${table}"] tbody tr[data-row]`,
	    (trs) => trs.map((tr) => tr.cells[0].textContent));
}

/*
 * Metric records as metric-eval --by Kernel_Name wrote them before every
 * record named its normalization: two runs one after the other, told
 * apart only by their units.
 */
const sol = { panel_id: 200, panel: 'System Speed-of-Light',
    table_id: '2.1', table: 'System Speed-of-Light' };
const l2 = { panel_id: 1800, panel: 'L2 Cache (per Channel)',
    table_id: '18.2', table: 'L2 Hits' };
function metrics(unit) {
	const out = [];
	const kernels = [null, 'k1', 'k2 <b>&amp;'];
	const avg = [[10.5, 'inf', null], [1.25, 3, 0.001234],
	    [42, 7.125, 100]];
	kernels.forEach((k, ki) => {
		const kn = k === null ? {} : { Kernel_Name: k };
		['VALU FLOPs', 'VALU IOPs', 'MFMA FLOPs'].forEach((m, mi) => {
			const a = avg[ki][mi];
			out.push({ ...sol, metric_id: `2.1.${mi}`, metric: m, ...kn,
			    Avg: a, Unit: 'Gflop/s', Peak: 200,
			    'Pct of Peak': typeof a === 'number' ? a / 2 : a });
		});
		for (let ch = 0; ch < 4; ch++)
			out.push({ ...l2, metric_id: `18.2.${ch}`, metric: String(ch),
			    ...kn, Channel: ch, Min: ch + ki, Max: 10 * ch + ki,
			    Unit: unit });
	});
	return out;
}
const metricHtml = page('metric.html', [...metrics('Req per kernel'),
    ...metrics('Req per wave').map((r) => typeof r.Max === 'number' ?
    { ...r, Max: r.Max + 0.5 } : r)]);

pageTest('metric tables show the chosen kernel and normalization',
    metricHtml, async (pg) => {
	assert.equal(await cell(pg, '2.1', 'VALU FLOPs', 'Avg'), '10.50');
	assert.equal(await cell(pg, '2.1', 'VALU IOPs', 'Avg'), 'inf');
	assert.equal(await cell(pg, '2.1', 'MFMA FLOPs', 'Avg'), '');
	assert.equal(await cell(pg, '2.1', 'VALU IOPs', 'Pct of Peak'), 'inf');
	const opts = await pg.$$eval('[data-testid=kernel] option',
	    (os) => os.map((o) => o.textContent));
	assert.deepEqual(opts, ['(all kernels)', 'k1', 'k2 <b>&amp;']);
	await pg.selectOption('[data-testid=kernel]', { label: 'k2 <b>&amp;' });
	assert.equal(await cell(pg, '2.1', 'VALU FLOPs', 'Avg'), '42.00');
	/* 7.125 is a tie: half to even, as Python's round(7.125, 2). */
	assert.equal(await cell(pg, '2.1', 'VALU IOPs', 'Avg'), '7.12');
	assert.equal(await cell(pg, '2.1', 'MFMA FLOPs', 'Pct of Peak'),
	    '50.00');
	await pg.selectOption('[data-testid=kernel]', { label: 'k1' });
	assert.equal(await cell(pg, '2.1', 'VALU FLOPs', 'Avg'), '1.25');
	assert.equal(await cell(pg, '2.1', 'MFMA FLOPs', 'Avg'), '1.23e-3');
	assert.equal(await cell(pg, '18.2', '3', 'Max'), '31');
	assert.equal(await cell(pg, '18.2', '3', 'Unit'), 'Req per kernel');
	const norms = await pg.$$eval('[data-testid=normalization] option',
	    (os) => os.map((o) => o.textContent));
	assert.deepEqual(norms, ['per_kernel', 'per_wave']);
	await pg.selectOption('[data-testid=normalization]',
	    { label: 'per_wave' });
	assert.equal(await cell(pg, '18.2', '3', 'Max'), '31.50');
	assert.equal(await cell(pg, '18.2', '3', 'Unit'), 'Req per wave');
	assert.equal(await cell(pg, '2.1', 'VALU FLOPs', 'Avg'), '1.25');
});

pageTest('the URL keeps the kernel and normalization', metricHtml,
    async (pg) => {
	await pg.selectOption('[data-testid=kernel]', { label: 'k1' });
	await pg.selectOption('[data-testid=normalization]',
	    { label: 'per_wave' });
	assert.equal(new URL(pg.url()).hash,
	    '#kernel=k1&normalization=per_wave');
	await pg.reload();
	assert.equal(await pg.$eval('[data-testid=kernel]',
	    (s) => s.selectedOptions[0].textContent), 'k1');
	assert.equal(await cell(pg, '18.2', '3', 'Max'), '31.50');
	assert.equal(await cell(pg, '2.1', 'VALU FLOPs', 'Avg'), '1.25');
});

pageTest('a metric cell tooltip gives the exact value and unit',
    metricHtml, async (pg) => {
	await pg.selectOption('[data-testid=kernel]', { label: 'k1' });
	const row = pg.locator('[data-testid="table-2.1"] tbody tr',
	    { hasText: 'MFMA FLOPs' });
	await row.locator('td').nth(1).hover();
	assert.equal(await pg.textContent('[data-testid=tooltip]'),
	    'MFMA FLOPs Avg: 0.001234 Gflop/s');
});

pageTest('sorting and filtering a metric table', metricHtml, async (pg) => {
	await pg.selectOption('[data-testid=kernel]', { label: 'k2 <b>&amp;' });
	const th = pg.locator('[data-testid="table-2.1"] th', { hasText: 'Avg' });
	await th.click();
	assert.equal(await th.getAttribute('aria-sort'), 'descending');
	assert.deepEqual(await firstCells(pg, '2.1'),
	    ['MFMA FLOPs', 'VALU FLOPs', 'VALU IOPs']);
	await th.click();
	assert.deepEqual(await firstCells(pg, '2.1'),
	    ['VALU IOPs', 'VALU FLOPs', 'MFMA FLOPs']);
	/* The sort holds when the kernel changes: blanks go last. */
	await pg.selectOption('[data-testid=kernel]', { index: 0 });
	assert.deepEqual(await firstCells(pg, '2.1'),
	    ['VALU FLOPs', 'VALU IOPs', 'MFMA FLOPs']);
	await pg.fill('[data-testid="table-2.1"] [data-testid=filter]', 'iops');
	assert.deepEqual(await firstCells(pg, '2.1'), ['VALU IOPs']);
	assert.equal(await pg.textContent(
	    '[data-testid="table-2.1"] [data-testid=row-count]'), '1 of 3 rows');
});

pageTest('percent bars and the per-channel heatmap', metricHtml,
    async (pg) => {
	const bars = pg.locator('[data-testid="chart-2.1"] .bar');
	assert.equal(await bars.count(), 2);	/* the blank one has no bar */
	await bars.nth(0).hover();
	assert.equal(await pg.textContent('[data-testid=tooltip]'),
	    'VALU FLOPs Pct of Peak: 5.25%');
	await pg.selectOption('[data-testid=kernel]', { label: 'k1' });
	assert.equal(await bars.count(), 3);
	await bars.nth(1).hover();
	assert.equal(await pg.textContent('[data-testid=tooltip]'),
	    'VALU IOPs Pct of Peak: 1.5%');
	const cells = pg.locator('[data-testid="chart-18.2"] rect[data-tip]');
	assert.equal(await cells.count(), 8);	/* Min and Max x 4 channels */
	await cells.nth(7).hover();
	assert.equal(await pg.textContent('[data-testid=tooltip]'),
	    'channel 3, Max: 31');
});

/*
 * Records that name their normalization, as metric-eval writes them now.
 * The units do not show it (a per-channel table has none, "Pct" is the
 * same for all), so only the key can tell the runs apart.
 */
function named(norm, kernel, req, pct) {
	const kn = kernel === null ? {} : { Kernel_Name: kernel };
	const out = [];
	for (let ch = 0; ch < 2; ch++)
		out.push({ panel_id: 1800, panel: 'L2 Cache (per Channel)',
		    table_id: '18.3', table: 'L2 Requests (per normUnit)',
		    metric_id: `18.3.${ch}`, metric: String(ch),
		    normalization: norm, ...kn, Channel: ch, Min: req + ch,
		    Max: req + 10 * ch });
	out.push({ ...sol, metric_id: '2.1.3', metric: 'Wavefront Occupancy',
	    normalization: norm, ...kn, Avg: pct, Unit: 'Pct', Peak: 100,
	    'Pct of Peak': pct });
	return out;
}
const ndjson = (recs) => recs.map((r) => JSON.stringify(r)).join('\n') +
    '\n';

/* One cat of two runs, per_kernel then per_cycle, with --by. */
const catHtml = page('cat.html', [
	...named('per_kernel', null, 6000, 40), ...named('per_kernel', 'k1',
	    3000, 20),
	...named('per_cycle', null, 0.5, 40), ...named('per_cycle', 'k1',
	    0.25, 20)]);

pageTest('a cat of two runs: the normalization key names them', catHtml,
    async (pg) => {
	const norms = await pg.$$eval('[data-testid=normalization] option',
	    (os) => os.map((o) => o.textContent));
	assert.deepEqual(norms, ['per_kernel', 'per_cycle']);
	const kernels = await pg.$$eval('[data-testid=kernel] option',
	    (os) => os.map((o) => o.textContent));
	assert.deepEqual(kernels, ['(all kernels)', 'k1']);
	/* The key is a choice, not a column. */
	assert.equal(await cell(pg, '18.3', '1', 'normalization'),
	    '(no column)');
	assert.equal(await cell(pg, '18.3', '1', 'Max'), '6,010');
	await pg.selectOption('[data-testid=normalization]',
	    { label: 'per_cycle' });
	assert.equal(await cell(pg, '18.3', '1', 'Max'), '10.50');
	assert.equal(await cell(pg, '2.1', 'Wavefront Occupancy', 'Avg'),
	    '40');
	await pg.selectOption('[data-testid=kernel]', { label: 'k1' });
	assert.equal(await cell(pg, '18.3', '0', 'Min'), '0.25');
	assert.equal(await cell(pg, '2.1', 'Wavefront Occupancy', 'Avg'),
	    '20');
	assert.equal(new URL(pg.url()).hash,
	    '#normalization=per_cycle&kernel=k1');
	assert.equal(await pg.$$eval('[data-testid=repeated]',
	    (ps) => ps.length), 0);
});

/*
 * The same normalization in two inputs: a.ndjson is per_wave over all
 * kernels; b.ndjson is per_kernel, then per_wave again with --by (its
 * whole-workload rows repeat a.ndjson's, here with other values).
 */
const twoA = tmpPath('two-a.ndjson'), twoB = tmpPath('two-b.ndjson');
writeFileSync(twoA, ndjson(named('per_wave', null, 0.375, 30)));
writeFileSync(twoB, ndjson([...named('per_kernel', null, 6000, 30),
    ...named('per_wave', null, 99, 99), ...named('per_wave', 'k1', 0.125,
    15)]));
const twoHtml = tmpPath('two.html');
runProg('chart2html', ['-o', twoHtml, twoA, twoB]);

pageTest('one normalization in two inputs is one choice', twoHtml,
    async (pg) => {
	const norms = await pg.$$eval('[data-testid=normalization] option',
	    (os) => os.map((o) => o.textContent));
	assert.deepEqual(norms, ['per_wave', 'per_kernel']);
	/* The first record of a metric, normalization and kernel is shown. */
	assert.equal(await cell(pg, '18.3', '1', 'Max'), '10.38');
	assert.equal(await pg.textContent('[data-testid=repeated]'),
	    'not shown: 3 metric records repeating an earlier one (the same ' +
	    'metric, normalization and kernel; give separate workloads ' +
	    'their own --section)');
	await pg.selectOption('[data-testid=kernel]', { label: 'k1' });
	assert.equal(await cell(pg, '18.3', '1', 'Min'), '1.12');
	assert.equal(await cell(pg, '2.1', 'Wavefront Occupancy', 'Avg'),
	    '15');
	await pg.selectOption('[data-testid=normalization]',
	    { label: 'per_kernel' });
	/* per_kernel has no k1 records: blank cells. */
	assert.equal(await cell(pg, '18.3', '1', 'Min'), '');
	await pg.selectOption('[data-testid=kernel]', { index: 0 });
	assert.equal(await cell(pg, '18.3', '1', 'Min'), '6,001');
});

/* One normalization: no selector, its name next to the controls. */
const oneHtml = page('one.html', [...named('per_second', null, 2, 50),
    ...named('per_second', 'k1', 1, 25)]);

pageTest('a single named normalization is shown, not offered', oneHtml,
    async (pg) => {
	assert.equal(await pg.$$eval('[data-testid=normalization]',
	    (s) => s.length), 0);
	assert.equal(await pg.textContent('[data-testid=normalization-only]'),
	    'Normalization per_second');
	assert.equal(await cell(pg, '18.3', '1', 'normalization'),
	    '(no column)');
	assert.equal(await cell(pg, '18.3', '1', 'Max'), '12');
});

/*
 * An older file (no key: its run is named by its units) before a newer
 * one: a run of the same name is the same choice.
 */
const mixedHtml = page('mixed.html', [
	...metrics('Req per kernel').filter((r) => !r.Kernel_Name),
	...named('per_wave', null, 0.5, 30),
	...named('per_kernel', null, 6000, 30)]);

pageTest('older records without the key join the named runs', mixedHtml,
    async (pg) => {
	const norms = await pg.$$eval('[data-testid=normalization] option',
	    (os) => os.map((o) => o.textContent));
	assert.deepEqual(norms, ['per_kernel', 'per_wave']);
	assert.equal(await cell(pg, '18.2', '3', 'Max'), '30');
	assert.equal(await cell(pg, '18.3', '1', 'Max'), '6,010');
	await pg.selectOption('[data-testid=normalization]',
	    { label: 'per_wave' });
	assert.equal(await cell(pg, '18.3', '1', 'Max'), '10.50');
	assert.equal(await cell(pg, '18.2', '3', 'Max'), '');
});

/* Sixty tables: the ones far out of view catch up after a switch. */
const longHtml = page('long.html', (() => {
	const out = [];
	for (const k of ['k1', 'k2'])
		for (let t = 1; t <= 60; t++)
			for (let m = 0; m < 10; m++)
				out.push({ panel_id: t * 100, panel: `Panel ${t}`,
				    table_id: `${t}.1`, table: `Table ${t}`,
				    metric_id: `${t}.1.${m}`, metric: `m${m}`,
				    Kernel_Name: k, Avg: (k === 'k1' ? 1 : 1000) * t + m,
				    Unit: 'Gb/s' });
	return out;
})());

pageTest('tables out of view are brought up to date after a switch',
    longHtml, async (pg) => {
	/* Tables far below are built in the background after the load. */
	await pg.waitForSelector('.metrics:not([data-pending])');
	assert.equal(await cell(pg, '60.1', 'm7', 'Avg'), '67');
	await pg.selectOption('[data-testid=kernel]', { label: 'k2' });
	assert.equal(await cell(pg, '1.1', 'm7', 'Avg'), '1,007');
	await pg.waitForSelector('.metrics:not([data-pending])');
	assert.equal(await cell(pg, '60.1', 'm7', 'Avg'), '60,007');
	await pg.locator('[data-testid="table-60.1"]').scrollIntoViewIfNeeded();
	await pg.selectOption('[data-testid=kernel]', { label: 'k1' });
	assert.equal(await cell(pg, '60.1', 'm7', 'Avg'), '67');
});

/* topn records. */
const topHtml = page('top.html', [
	{ Kernel_Name: 'big_kernel<float>', count: 2, sum: 3000, mean: 1500,
	    median: 1500, min: 1000, max: 2000, pct: 60 },
	{ Kernel_Name: 'mid & <kernel>', count: 3, sum: 1500, mean: 500,
	    median: 400, min: 300, max: 800, pct: 30 },
	{ Kernel_Name: 'small', count: 1, sum: 500, mean: 500, median: 500,
	    min: 500, max: 500, pct: 10 },
]);

pageTest('Top-N limits the statistics table and bars', topHtml,
    async (pg) => {
	assert.equal(await pg.inputValue('[data-testid=topn]'), '3');
	assert.deepEqual(await firstCells(pg, 'top'),
	    ['big_kernel<float>', 'mid & <kernel>', 'small']);
	await pg.fill('[data-testid=topn]', '2');
	assert.deepEqual(await firstCells(pg, 'top'),
	    ['big_kernel<float>', 'mid & <kernel>']);
	const bars = pg.locator('[data-testid=chart-top] .bar');
	assert.equal(await bars.count(), 2);
	await bars.nth(1).hover();
	assert.equal(await pg.textContent('[data-testid=tooltip]'),
	    'mid & <kernel>: sum 1500, pct 30, count 3');
	await pg.fill('[data-testid=topn]', '0');
	assert.equal(await bars.count(), 3);
	assert.equal(await cell(pg, 'top', 'mid & <kernel>', 'median'), '400');
});

/*
 * Numbers are never cut.  The mean column holds an integer first and a
 * fraction after it, so every mean shows two decimals: 2665926 / 6 =
 * 444321 is "444321.00", 496760 / 12 = 41396.666... is "41396.67".  The
 * long kernel name may be cut; its tooltip has all of it.
 */
const longName = 'void at::native::(anonymous namespace)::' +
    'vectorized_layer_norm_kernel<float, float>(int, float, float const*, ' +
    'float const*, float const*, float*, float*, float*) [clone .kd]';
const wideHtml = page('top-wide.html', [
	{ Kernel_Name: 'Cijk_Ailk_Bljk_SB_MT128x128x16_MI32x32x2x1_SN_1LDSB0' +
	    '_GRVW4 [clone .kd]', count: 6, sum: 2665926, mean: 2665926 / 6,
	    median: 457156, min: 353672, max: 488617, pct: 84.29 },
	{ Kernel_Name: longName, count: 12, sum: 496760, mean: 496760 / 12,
	    median: 42159, min: 34726, max: 47320, pct: 15.71 },
]);

pageTest('statistics numbers are shown whole', wideHtml, async (pg) => {
	const first = 'Cijk_Ailk_Bljk_SB_MT128x128x16_MI32x32x2x1_SN_1LDSB0' +
	    '_GRVW4 [clone .kd]';
	assert.equal(await cell(pg, 'top', first, 'mean'), '444321.00');
	assert.equal(await cell(pg, 'top', longName, 'mean'), '41396.67');
	assert.equal(await cell(pg, 'top', first, 'median'), '457156');
	/* Give a late widening its frame, then measure every number. */
	await pg.evaluate(() => new Promise((r) => requestAnimationFrame(
	    () => requestAnimationFrame(r))));
	const cut = await pg.$$eval('[data-testid=table-top] td.num',
	    (tds) => tds.filter((td) => td.scrollWidth > td.clientWidth)
	    .map((td) => td.textContent));
	assert.deepEqual(cut, []);
	const name = pg.locator('[data-testid=table-top] tbody tr[data-row] ' +
	    'td:first-child').nth(1);
	assert.ok(await name.evaluate((td) => td.scrollWidth > td.clientWidth));
	await name.hover();
	assert.equal(await pg.textContent('[data-testid=tooltip]'),
	    'Kernel_Name: ' + longName);
});

/* topn --unit us: the unit goes into the headers. */
const unitHtml = page('top-unit.html', [
	{ k: 'a', count: 2, sum_us: 1.5, mean_us: 0.75, median_us: 0.75,
	    min_us: 0.5, max_us: 1, pct: 100 },
]);

pageTest('statistics headers name the unit', unitHtml, async (pg) => {
	assert.deepEqual(await pg.$$eval('[data-testid=table-top] th',
	    (ths) => ths.map((th) => th.textContent)),
	    ['k', 'count', 'sum (us)', 'mean (us)', 'median (us)', 'min (us)',
	    'max (us)', 'pct']);
	assert.equal(await cell(pg, 'top', 'a', 'mean (us)'), '0.75');
});

/* pmc2ndjson records: timestamps beyond 2^53 stay exact. */
const dispHtml = page('dispatch.html', [
	{ type: 'sysinfo', workload_name: 'vcopy', gpu_arch: 'gfx90a' },
	{ type: 'dispatch', Dispatch_ID: 0, Kernel_Name: 'vecCopy', GPU_ID: 2,
	    Start_Timestamp: 1000, End_Timestamp: 21000, dur_ns: 20000 },
	{ type: 'dispatch', Dispatch_ID: 1, Kernel_Name: 'vecAdd', GPU_ID: 2,
	    Start_Timestamp: 25000, End_Timestamp: 35000, dur_ns: 10000 },
	{ type: 'dispatch', Dispatch_ID: 2, Kernel_Name: 'vecCopy', GPU_ID: 3,
	    Start_Timestamp: 6000, End_Timestamp: 81000, dur_ns: 75000 },
]);

pageTest('the dispatch timeline zooms and pans', dispHtml, async (pg) => {
	const tl = pg.locator('[data-testid=timeline]');
	const range = async () => [Number(await tl.getAttribute(
	    'data-view-start')), Number(await tl.getAttribute('data-view-end'))];
	await pg.waitForFunction(() => document.querySelector(
	    '[data-testid=timeline]').dataset.viewEnd !== undefined);
	assert.deepEqual(await range(), [0, 80000]);
	await pg.click('[data-testid=zoom-in]');
	assert.deepEqual(await range(), [20000, 60000]);
	await pg.click('[data-testid=zoom-reset]');
	const box = await pg.locator('[data-testid=timeline] canvas')
	    .boundingBox();
	await pg.mouse.move(box.x + box.width - 5, box.y + 10);
	await pg.mouse.wheel(0, -300);
	const [a, b] = await range();
	assert.ok(b - a < 80000 && b - a > 0, `zoomed range ${a}..${b}`);
	assert.ok(b > 79000, 'zoomed around the pointer');
	/* Hovering the bar of dispatch 2 (GPU 3, the second lane). */
	await pg.click('[data-testid=zoom-reset]');
	await pg.mouse.move(box.x + box.width / 2, box.y + 28 + 14);
	assert.match(await pg.textContent('[data-testid=tooltip]'),
	    /^2: vecCopy\nStart_Timestamp 6000, End_Timestamp 81000/);
});

pageTest('the dispatch list sorts and filters', dispHtml, async (pg) => {
	await pg.click('[data-testid=table-dispatch] th:text-is("dur_ns")');
	assert.deepEqual(await firstCells(pg, 'dispatch'), ['2', '0', '1']);
	await pg.fill('[data-testid=table-dispatch] [data-testid=filter]',
	    'vecadd');
	assert.deepEqual(await firstCells(pg, 'dispatch'), ['1']);
	assert.equal(await cell(pg, 'sysinfo', 'gpu_arch', 'Value'), 'gfx90a');
});

pageTest('the dispatch filters choose a kernel and a GPU', dispHtml,
    async (pg) => {
	assert.deepEqual(await pg.$$eval('[data-testid=dispatch-kernel] option',
	    (os) => os.map((o) => o.textContent)), ['(all)', 'vecCopy', 'vecAdd']);
	await pg.selectOption('[data-testid=dispatch-kernel]',
	    { label: 'vecCopy' });
	assert.deepEqual(await firstCells(pg, 'dispatch'), ['0', '2']);
	await pg.selectOption('[data-testid=dispatch-gpu]', { label: '3' });
	assert.deepEqual(await firstCells(pg, 'dispatch'), ['2']);
	await pg.selectOption('[data-testid=dispatch-kernel]',
	    { label: 'vecAdd' });
	assert.equal(await pg.textContent('[data-testid=table-dispatch] ' +
	    '[data-testid=row-count]'), '0 of 3 rows');
	await pg.selectOption('[data-testid=dispatch-gpu]', { label: '(all)' });
	assert.deepEqual(await firstCells(pg, 'dispatch'), ['1']);
	/* The timeline hides the other kernels: GPU 3's lane is empty. */
	const box = await pg.locator('[data-testid=timeline] canvas')
	    .boundingBox();
	await pg.mouse.move(box.x + box.width / 2, box.y + 42);
	assert.equal(await pg.isHidden('[data-testid=tooltip]'), true);
});

/* 19-digit timestamps (written as text: JavaScript numbers would round
 * them) keep their exact differences. */
const bigHtml = tmpPath('big.html');
test('a page of dispatches with 19-digit timestamps is written', () => {
	runProg('chart2html', ['-o', bigHtml], { input: [
		'{"type":"dispatch","Dispatch_ID":0,"Kernel_Name":"a","GPU_ID":0,' +
		    '"Start_Timestamp":1751344815171234567,' +
		    '"End_Timestamp":1751344815171254568}',
		'{"type":"dispatch","Dispatch_ID":1,"Kernel_Name":"b","GPU_ID":0,' +
		    '"Start_Timestamp":1751344815171260001,' +
		    '"End_Timestamp":1751344815171300000}',
		'{"type":"dispatch","Dispatch_ID":2,"Kernel_Name":"c","GPU_ID":1,' +
		    '"Start_Timestamp":1751344815171230001,' +
		    '"End_Timestamp":1751344815171230005}',
	].join('\n') + '\n' });
});

pageTest('timestamps beyond 2^53 stay exact', bigHtml, async (pg) => {
	await pg.waitForFunction(() => document.querySelector(
	    '[data-testid=timeline]').dataset.viewEnd !== undefined);
	const tl = pg.locator('[data-testid=timeline]');
	/* The base is dispatch 2's start; as doubles the times would be
	 * 256 ns apart at best. */
	assert.equal(await tl.getAttribute('data-view-start'), '0');
	assert.equal(await tl.getAttribute('data-view-end'), '69999');
	assert.equal(await cell(pg, 'dispatch', '0', 'Start_Timestamp'),
	    '1751344815171234567');
	const box = await pg.locator('[data-testid=timeline] canvas')
	    .boundingBox();
	await pg.mouse.move(box.x + 110 + 2, box.y + 28 + 14);
	assert.equal(await pg.textContent('[data-testid=tooltip]'),
	    '2: c\nStart_Timestamp 1751344815171230001, End_Timestamp ' +
	    '1751344815171230005\n+0 .. +4 ns, 4 ns long');
	await pg.mouse.move(box.x + 110 + (box.width - 110) * 0.2, box.y + 14);
	assert.equal(await pg.textContent('[data-testid=tooltip]'),
	    '0: a\nStart_Timestamp 1751344815171234567, End_Timestamp ' +
	    '1751344815171254568\n+4,566 .. +24,567 ns, 20,001 ns ' +
	    '(20.00 \u00b5s) long');
});

/* MIGraphX records. */
const migxHtml = page('migx.html', [
	{ type: 'instruction', run: 0, line: 10, name: 'main:@1', op: 'gpu::gemm',
	    time_ms: 0.5, pct: 50, group: 'gpu::gemm' },
	{ type: 'instruction', run: 0, line: 11, name: 'main:@2', op: 'gpu::add',
	    time_ms: 0.25, pct: 25, group: 'gpu::add' },
	{ type: 'summary', run: 0, line: 20, op: 'gpu::gemm', total_ms: 0.5,
	    count: 1, mean_ms: 0.5, pct: 50 },
	{ type: 'summary', run: 0, line: 21, op: 'gpu::add', total_ms: 0.25,
	    count: null, mean_ms: null, pct: 25 },
	{ type: 'totals', run: 0, line: 30, batch: 1, rate: 337.784,
	    total_ms: 1.0 },
]);

pageTest('MIGraphX summary bars and the instruction table', migxHtml,
    async (pg) => {
	const bars = pg.locator('[data-testid=chart-summary] .bar');
	assert.equal(await bars.count(), 2);
	await bars.nth(0).hover();
	assert.equal(await pg.textContent('[data-testid=tooltip]'),
	    'gpu::gemm: 0.5 ms, 1 calls, 50%');
	await bars.nth(1).hover();
	assert.equal(await pg.textContent('[data-testid=tooltip]'),
	    'gpu::add: 0.25 ms, 25%');
	assert.equal(await cell(pg, 'instruction', '0.5', 'op'), 'gpu::gemm');
	assert.equal(await cell(pg, 'totals', 'rate', 'Value'), '337.784');
});

/* Hostile names stay text. */
const evil = '<img src=x onerror="window.pwned=1"></script><b>bold</b>';
const evilHtml = page('evil.html', [{ name: evil, v: 1, [evil]: 2 }],
    ['--title', evil, '--table', '--bar', 'name=v']);

pageTest('names with markup are shown as text', evilHtml, async (pg) => {
	assert.equal(await pg.title(), evil);
	assert.equal(await pg.textContent('[data-testid=title]'), evil);
	assert.equal(await pg.locator('img').count(), 0);
	assert.equal(await pg.locator('main b').count(), 0);
	assert.equal(await pg.evaluate(() => window.pwned), undefined);
	assert.equal(await cell(pg, 'records', evil, 'v'), '1');
	assert.equal(await cell(pg, 'records', evil, evil), '2');
	await pg.locator('[data-testid=chart-bar] .bar').hover();
	assert.equal(await pg.textContent('[data-testid=tooltip]'),
	    `${evil}: v 1`);
});

/* 100,000 rows: only the rows in view are in the DOM. */
const manyHtml = tmpPath('many.html');
test('a 100,000-row table is written', () => {
	const lines = [];
	for (let i = 0; i < 100000; i++)
		lines.push(`{"i":${i},"name":"row ${i}","v":${(i * 7) % 1000}}`);
	runProg('chart2html', ['-o', manyHtml], { input: lines.join('\n') });
});

pageTest('a 100,000-row table scrolls, sorts and filters', manyHtml,
    async (pg) => {
	const sel = '[data-testid=table-records]';
	assert.equal(await pg.textContent(`${sel} [data-testid=row-count]`),
	    '100000 rows');
	const drawn = () => pg.locator(`${sel} tbody tr[data-row]`).count();
	assert.ok(await drawn() < 200, 'rows out of view are not drawn');
	await pg.$eval(`${sel} .view`, (v) => { v.scrollTop = v.scrollHeight; });
	await pg.waitForFunction((s) => [...document.querySelectorAll(
	    `${s} tbody tr[data-row]`)].some((tr) =>
	    tr.cells[0].textContent === '99999'), sel);
	assert.ok(await drawn() < 200);
	const t0 = Date.now();
	await pg.click(`${sel} th:text-is("v")`);
	await pg.$eval(`${sel} .view`, (v) => { v.scrollTop = 0; });
	await pg.waitForFunction((s) => document.querySelector(
	    `${s} tbody tr[data-row] td:nth-child(3)`)?.textContent === '999',
	    sel);
	assert.ok(Date.now() - t0 < 10000, 'sorting 100,000 rows is quick');
	await pg.fill(`${sel} [data-testid=filter]`, 'row 4242');
	await pg.waitForFunction((s) => document.querySelector(
	    `${s} [data-testid=row-count]`).textContent === '11 of 100000 rows',
	    sel);
});

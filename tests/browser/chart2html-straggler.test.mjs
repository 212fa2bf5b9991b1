/*
 * chart2html-straggler.test.mjs: the heatmap of statistics grouped by a
 * function and a run (topn -k name -k run over many ranks): which rank is
 * slow, and in what.  The expected values are worked out by hand from the
 * 19 records below (5 ranks, 4 functions; rank3 is slow in allreduce and
 * rank4 never ran opt):
 *
 *	        rank0 rank1 rank2 rank3 rank4 | median  total  spread
 *	fwd       100   110    90   100   100 |   100    500   20/100
 *	bwd       200   200   215   190   200 |   200   1005   25/200
 *	allreduce  50    50    50   250    50 |    50    450  200/50
 *	opt        10    10    10    10    (0)|    10     40   10/10
 *	total     360   370   365   550   350 | median 365
 *
 * rank3's total is (550 - 365) / 365 = 50.68% above the median total, and
 * allreduce there 200 above its median: +400%, the largest deviation, so
 * the scale's full colour is at 400%.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageTest, runProg, tmpPath } from './lib.mjs';

const vals = {
	fwd: [100, 110, 90, 100, 100],
	bwd: [200, 200, 215, 190, 200],
	allreduce: [50, 50, 50, 250, 50],
	opt: [10, 10, 10, 10],
};
const input = Object.entries(vals).flatMap(([name, vs]) => vs.map((v, r) =>
    JSON.stringify({ name, run: `rank${r}`, dur_ns: v }))).join('\n') + '\n';
const stats = runProg('topn', ['-k', 'name', '-k', 'run', '-n', '0'],
    { input });
const html = tmpPath('straggler.html');
runProg('chart2html', ['-o', html], { input: stats });

const texts = (pg, sel) => pg.$$eval(sel, (es) =>
    es.map((e) => e.textContent));
const tip = (pg) => pg.textContent('[data-testid=tooltip]');
const H = '[data-testid=chart-heatmap]';
const cell = (pg, run, name) => pg.locator(`${H} rect[data-tip^="run ` +
    `${run}, ${name}:"]`);

pageTest('the slowest rank comes first, functions by total', html,
    async (pg) => {
	assert.deepEqual(await texts(pg, `${H} .xl`),
	    ['rank3', 'rank1', 'rank2', 'rank0', 'rank4']);
	assert.deepEqual(await texts(pg, `${H} .lbl`),
	    ['bwd', 'fwd', 'allreduce', 'opt']);
	assert.equal(await pg.locator(`${H} rect[data-tip]`).count(), 20);
	const runs = '[data-testid=table-runs] tbody tr[data-row]';
	const first = await pg.locator(runs).first().locator('td')
	    .allTextContents();
	assert.deepEqual(first, ['rank3', '550', '50.68', 'allreduce',
	    '200']);
	assert.deepEqual((await pg.locator(runs).allTextContents())
	    .map((t) => t.slice(0, 5)),
	    ['rank3', 'rank1', 'rank2', 'rank0', 'rank4']);
	assert.match(await pg.textContent('[data-testid=heat-legend]'),
	    /median of its row over the 5 runs; .* at \u00b1400%\.$/);
});

pageTest('each cell against its function median', html, async (pg) => {
	await cell(pg, 'rank3', 'allreduce').hover();
	assert.equal(await tip(pg),
	    'run rank3, allreduce: 250 (median 50, +400%)');
	/* Full red at the largest deviation; blue below the median. */
	assert.equal(await cell(pg, 'rank3', 'allreduce').getAttribute('fill'),
	    'hsl(4,78%,45%)');
	await cell(pg, 'rank4', 'opt').hover();
	assert.equal(await tip(pg), 'run rank4, opt: 0 (median 10, -100%)');
	/* -100% of a 400% scale: a quarter of the way to full blue. */
	assert.equal(await cell(pg, 'rank4', 'opt').getAttribute('fill'),
	    'hsl(215,70%,84%)');
	await cell(pg, 'rank1', 'fwd').hover();
	assert.equal(await tip(pg), 'run rank1, fwd: 110 (median 100, +10%)');
});

pageTest('rows by spread, columns by name, the first N rows', html,
    async (pg) => {
	await pg.selectOption('[data-testid=heat-rows]', { label:
	    'by spread' });
	assert.deepEqual(await texts(pg, `${H} .lbl`),
	    ['allreduce', 'opt', 'fwd', 'bwd']);
	await pg.selectOption('[data-testid=heat-cols]', { label: 'by name' });
	assert.deepEqual(await texts(pg, `${H} .xl`),
	    ['rank0', 'rank1', 'rank2', 'rank3', 'rank4']);
	await pg.fill('[data-testid=heat-top]', '2');
	assert.deepEqual(await texts(pg, `${H} .lbl`), ['allreduce', 'opt']);
	await pg.selectOption('[data-testid=heat-colour]', { label: 'value' });
	assert.equal(await pg.textContent('[data-testid=heat-legend]'), '');
});

pageTest('clicking a cell shows only that rank below', html, async (pg) => {
	const top = '[data-testid=table-top]';
	assert.equal(await pg.textContent(`${top} [data-testid=row-count]`),
	    '10 rows');
	await cell(pg, 'rank3', 'allreduce').click();
	assert.equal(await pg.textContent(`${top} [data-testid=row-count]`),
	    '4 rows');
	const runCol = await pg.$$eval(`${top} tbody tr[data-row]`, (trs) =>
	    trs.map((tr) => tr.cells[1].textContent));
	assert.deepEqual(runCol, ['rank3', 'rank3', 'rank3', 'rank3']);
	assert.match(await pg.textContent('[data-testid=heat-pick]'),
	    /^Below: only run rank3; allreduce there 250, median 50 \(\+400%\)/);
	assert.equal(await pg.locator(`${H} rect.sel`).count(), 1);
	await pg.click('[data-testid=heat-clear]');
	assert.equal(await pg.textContent(`${top} [data-testid=row-count]`),
	    '10 rows');
	assert.equal(await pg.isVisible('[data-testid=heat-pick]'), false);
	assert.equal(await pg.locator(`${H} rect.sel`).count(), 0);
});

const generic = tmpPath('heat-dev.html');
runProg('chart2html', ['-o', generic, '--heatmap', 'run,name=dur_ns'],
    { input });

pageTest('--heatmap on any records: deviation colours on demand', generic,
    async (pg) => {
	/* Records in input order, every cell coloured by its value. */
	assert.deepEqual(await texts(pg, `${H} .xl`),
	    ['rank0', 'rank1', 'rank2', 'rank3', 'rank4']);
	await pg.selectOption('[data-testid=heat-colour]', { label:
	    'deviation from the row median' });
	await pg.selectOption('[data-testid=heat-cols]', { label:
	    'largest total first' });
	assert.deepEqual(await texts(pg, `${H} .xl`),
	    ['rank3', 'rank1', 'rank2', 'rank0', 'rank4']);
	/* Not a statistics record: a missing cell is blank, not 0, and
	 * opt's median is that of the four ranks that ran it. */
	await cell(pg, 'rank4', 'opt').hover();
	assert.equal(await tip(pg), 'run rank4, opt: (blank) (median 10)');
});

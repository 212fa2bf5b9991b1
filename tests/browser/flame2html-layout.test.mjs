/*
 * flame2html pages laid out for reading at a glance: the toolbar stays
 * one row at 1280 px however long the thread names, a shallow graph sits
 * right under the toolbar instead of at the bottom of a screen of empty
 * canvas, a deep one still fills the window, thread labels carry the
 * names the records give, and the legend's total is the selected
 * thread's.
 *
 * Numbers by hand: thread 3055835/3055835 has main 700 self + main;step
 * 300 (1,000 ns); the autograd thread 200; the worker 100 self + 50 in
 * its child (150); all threads 1,350 ns.  Each thread has two rows of
 * frames, so the graph is four rows (root, thread, two) = 72 px.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { pageTest, runProg, tmpPath } from './lib.mjs';

const ROW = 18;
const threads = [
	['3055835/3055835', 'thread 3055835 (python3 train.py --config ' +
	    'configs/llama2_7b_pretrain.yaml)'],
	['3055835/3059156', 'thread 3059156 (pt_autograd_0)'],
	['3055835/3064050', 'thread 3064050 (ThreadPoolExecutor-0_0 ' +
	    'torch_npu data loader worker)'],
];
const rec = (t, stack, self) => JSON.stringify({ thread: threads[t][0],
    thread_name: threads[t][1], stack, self_ns: self, calls: 1 });
const records = [
	rec(0, ['main'], 700), rec(0, ['main', 'step'], 300),
	rec(1, ['backward'], 150), rec(1, ['backward', 'MmBackward0'], 50),
	rec(2, ['worker'], 100), rec(2, ['worker', 'collate'], 50),
].join('\n') + '\n';
const named = tmpPath('named.html');
runProg('flame2html', ['-o', named, '-t', 'named threads', '-'],
    { input: records });
const before = tmpPath('before.st');
writeFileSync(before, records.replace('"self_ns":700', '"self_ns":500'));
const diff = tmpPath('diff.html');
const after = tmpPath('after.st');
writeFileSync(after, records);
runProg('flame2html', ['--diff', '-o', diff, before, after]);

/* A deep graph: one thread, 100 nested frames (101 rows and the root). */
const deep = [];
for (let d = 1; d <= 100; d++)
	deep.push(JSON.stringify({ thread: '1/1', stack: Array.from(
	    { length: d }, (_, i) => 'f' + i), self_ns: 10 }));
const deepHtml = tmpPath('deep.html');
runProg('flame2html', ['-o', deepHtml, '-'],
    { input: deep.join('\n') + '\n' });

/* The tops of the toolbar's shown children, and the bar's height. */
async function barRows(page) {
	return page.$eval('#fg-bar', (bar) => {
		const tops = new Set();
		for (const e of bar.children)
			if (e.offsetParent !== null)
				tops.add(Math.round(e.getBoundingClientRect()
				    .top + e.getBoundingClientRect().height / 2));
		return { tops: [...tops], height: bar.getBoundingClientRect()
		    .height };
	});
}

async function oneRow(page, what) {
	const { tops, height } = await barRows(page);
	/* Centres within a few pixels of each other: one row. */
	const spread = Math.max(...tops) - Math.min(...tops);
	assert.ok(spread <= 4, `${what}: toolbar in rows at ${tops}`);
	assert.ok(height < 60, `${what}: toolbar ${height} px high`);
}

pageTest('the toolbar stays one row at 1280 px with long thread names',
    named, async (page) => {
	await oneRow(page, 'opened');
	await page.getByTestId('thread').selectOption({ index: 2 });
	await oneRow(page, 'a long thread chosen');
	await page.getByTestId('search').fill('/^(main|step|worker)$/');
	await page.waitForFunction(() => document.querySelector(
	    '[data-testid=matches]').textContent !== '');
	await oneRow(page, 'a search with matches');
}, { width: 1280 });

pageTest('a differential page keeps its toolbar on one row too', diff,
    async (page) => {
	assert.equal(await page.getByTestId('widths').isVisible(), true);
	await oneRow(page, 'diff');
}, { width: 1280 });

pageTest('a shallow graph sits under the toolbar, not a screen below',
    named, async (page) => {
	const c = await page.getByTestId('flamegraph').boundingBox();
	const bar = await page.locator('#fg-legend').boundingBox();
	/* Four rows and one spare row above the graph's top. */
	assert.ok(c.height <= 5 * ROW + 2, `canvas ${c.height} px high`);
	assert.ok(c.y - (bar.y + bar.height) < 20,
	    `canvas starts ${c.y - bar.y - bar.height} px below the legend`);
	/* The root is still the canvas's bottom row. */
	await page.mouse.move(c.x + c.width / 2, c.y + c.height - ROW / 2);
	const t = page.getByTestId('tooltip');
	await t.waitFor({ state: 'visible' });
	assert.equal(await t.locator('div').first().textContent(),
	    'all threads');
	/* The icicle keeps it small, with the root on top. */
	await page.getByTestId('icicle').click();
	const c2 = await page.getByTestId('flamegraph').boundingBox();
	assert.ok(c2.height <= 5 * ROW + 2, `icicle ${c2.height} px high`);
	await page.mouse.move(c2.x + c2.width / 2, c2.y + ROW / 2);
	await page.waitForFunction(() => document.querySelector(
	    '[data-testid=tooltip] div').textContent === 'all threads');
});

pageTest('a deep graph still fills the window and opens at its root',
    deepHtml, async (page) => {
	const c = await page.getByTestId('flamegraph').boundingBox();
	assert.ok(c.y + c.height > 780, `canvas ends at ${c.y + c.height}`);
	await page.mouse.move(c.x + c.width / 2, c.y + c.height - ROW / 2);
	const t = page.getByTestId('tooltip');
	await t.waitFor({ state: 'visible' });
	assert.equal(await t.locator('div').first().textContent(),
	    'all threads');
});

pageTest('thread labels carry the thread names', named, async (page) => {
	const opts = await page.getByTestId('thread').locator('option')
	    .allTextContents();
	assert.deepEqual(opts, ['All threads', 'All threads, merged',
	    `${threads[0].join(' ')} (74.07%)`,
	    `${threads[1].join(' ')} (14.81%)`,
	    `${threads[2].join(' ')} (11.11%)`]);
	/* The thread frame's tooltip: row 1, the first 74% of the width. */
	const c = await page.getByTestId('flamegraph').boundingBox();
	await page.mouse.move(c.x + c.width * 0.3,
	    c.y + c.height - 2 * ROW + ROW / 2);
	const t = page.getByTestId('tooltip');
	await t.waitFor({ state: 'visible' });
	assert.equal(await t.locator('div').first().textContent(),
	    threads[0].join(' '));
});

pageTest('the legend total follows the selected thread', named,
    async (page) => {
	const unit = page.locator('#fg-legend .fg-unit');
	assert.equal(await unit.textContent(),
	    'unit: ns, total 1,350 ns (1.35 \u00b5s)');
	const sel = page.getByTestId('thread');
	await sel.selectOption({ index: 3 });
	assert.equal(await unit.textContent(),
	    'unit: ns, total 200 ns, 14.81% of 1,350 ns (1.35 \u00b5s)');
	await page.getByTestId('flamegraph').focus();
	await page.keyboard.press(']');
	assert.equal(await unit.textContent(),
	    'unit: ns, total 150 ns, 11.11% of 1,350 ns (1.35 \u00b5s)');
	await sel.selectOption('merged');
	assert.equal(await unit.textContent(),
	    'unit: ns, total 1,350 ns (1.35 \u00b5s)');
	await sel.selectOption({ index: 2 });
	assert.equal(await unit.textContent(), 'unit: ns, total 1,000 ns ' +
	    '(1.00 \u00b5s), 74.07% of 1,350 ns (1.35 \u00b5s)');
});

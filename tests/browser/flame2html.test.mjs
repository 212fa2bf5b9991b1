/*
 * flame2html pages, used as a person would: switch thread, search and read
 * the count, hover and read the tooltip, click to zoom and reset, Esc,
 * icicle, the URL fragment, the keyboard, and a hostile frame name.
 *
 * The graph is small and every expected number is worked out by hand:
 *
 *   thread 1/1: train 200 self, train;linear 300, train;linear;aclnnMm 500
 *   thread 1/2: train 400 self, train;cudaLaunchKernel 200
 *
 * so all = 1600 ns, 1/1 = 1000 (62.50%), 1/2 = 600 (37.50%), linear has
 * total 800 (50.00% of all), aclnnMm 500 (31.25%), cudaLaunchKernel 200
 * (12.50% of all, 33.33% of its thread).  Rows are 18 px high; the root
 * is row 0, at the bottom of a flame graph and the top of an icicle.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { pageTest, runProg, tmpPath, openFile, assertClean } from './lib.mjs';

const ROW = 18;
const rec = (thread, stack, self, calls) => JSON.stringify({ thread, stack,
    self_ns: self, calls });
const T = 'main.py(1): train';
const records = [
	rec('1/1', [T], 200, 1),
	rec('1/1', [T, 'aten::linear'], 300, 2),
	rec('1/1', [T, 'aten::linear', 'aclnnMm'], 500, 2),
	rec('1/2', [T], 400, 1),
	rec('1/2', [T, 'cudaLaunchKernel'], 200, 5),
].join('\n') + '\n';
const page1 = tmpPath('threads.html');
runProg('flame2html', ['-o', page1, '-t', 'two threads', '-'],
    { input: records });

/* Moves the mouse onto row `row` at `frac` of the graph's width. */
async function hover(page, row, frac) {
	const c = page.getByTestId('flamegraph');
	const box = await c.boundingBox();
	const icicle = await page.getByTestId('icicle')
	    .getAttribute('aria-pressed') === 'true';
	const y = icicle ? row * ROW + ROW / 2 :
	    box.height - (row + 1) * ROW + ROW / 2;
	await page.mouse.move(box.x + frac * box.width, box.y + y);
	return { x: box.x + frac * box.width, y: box.y + y };
}

/* The tooltip's lines, once it shows name. */
async function tip(page) {
	const t = page.getByTestId('tooltip');
	await t.waitFor({ state: 'visible' });
	return t.locator('div').allTextContents();
}

async function click(page, row, frac) {
	const p = await hover(page, row, frac);
	await page.mouse.click(p.x, p.y);
}

const hash = (page) => page.evaluate(() => location.hash);

/*
 * Asserts that the address's fragment becomes want (a string, or a RegExp
 * it must match) within 5 s: a busy machine may run a page's handlers
 * after the key press or click has returned.
 */
async function expectHash(page, want) {
	const re = want instanceof RegExp;
	const w = re ? { re: want.source } : { s: want };

	try {
		await page.waitForFunction((x) => x.re !== undefined ?
		    new RegExp(x.re).test(location.hash) : location.hash === x.s,
		    w, { timeout: 5000 });
	} catch (e) {
		/* The assertion below reports the difference. */
	}
	if (re)
		assert.match(await hash(page), want);
	else
		assert.equal(await hash(page), want);
}

pageTest('the thread selector lists all, merged and each thread', page1,
    async (page) => {
	const opts = await page.getByTestId('thread').locator('option')
	    .allTextContents();
	assert.deepEqual(opts, ['All threads', 'All threads, merged',
	    '1/1 (62.50%)', '1/2 (37.50%)']);
	assert.equal(await page.locator('h1').textContent(), 'two threads');
});

pageTest('hovering a frame shows its numbers', page1, async (page) => {
	/* aclnnMm: row 4 (root, thread, train, linear, aclnnMm), 0..31%. */
	await hover(page, 4, 0.1);
	assert.deepEqual(await tip(page), ['aclnnMm', 'Category: CANN/NPU',
	    'Calls: 2', 'Total: 500 ns', 'Self: 500 ns', 'Of all: 31.25%',
	    'Of zoom: 31.25%']);
	/* linear: row 3, 0..50%; self 800 - 500. */
	await hover(page, 3, 0.4);
	assert.deepEqual(await tip(page), ['aten::linear',
	    'Category: Framework', 'Calls: 2', 'Total: 800 ns',
	    'Self: 300 ns', 'Of all: 50.00%', 'Of zoom: 50.00%']);
	/* The root's total is the sum of every self time. */
	await hover(page, 0, 0.5);
	assert.deepEqual(await tip(page), ['all threads', 'Category: root',
	    'Total: 1,600 ns (1.60 \u00b5s)', 'Self: 0 ns', 'Of all: 100.00%',
	    'Of zoom: 100.00%']);
	/* Off the graph: no tooltip. */
	await hover(page, 20, 0.5);
	await page.getByTestId('tooltip').waitFor({ state: 'hidden' });
});

pageTest('click zooms into a frame; reset and Esc zoom out', page1,
    async (page) => {
	/* Thread 1/1's train: row 2, 0..62.5%. */
	await click(page, 2, 0.3);
	await expectHash(page,
	    /zoom=1%2F1&zoom=main.py%281%29%3A\+train/);
	/* aclnnMm is now half of the zoomed frame. */
	await hover(page, 4, 0.2);
	const lines = await tip(page);
	assert.deepEqual(lines.slice(-2), ['Of all: 31.25%',
	    'Of zoom: 50.00%']);
	await page.getByTestId('reset').click();
	await expectHash(page, '');
	await hover(page, 4, 0.1);
	assert.deepEqual((await tip(page)).slice(-1), ['Of zoom: 31.25%']);
	/* Zoom again; Esc with no search resets the zoom. */
	await click(page, 3, 0.2);
	await expectHash(page, /aten%3A%3Alinear/);
	await page.keyboard.press('Escape');
	await expectHash(page, '');
	/* Clicking the root of a zoom goes back out. */
	await click(page, 3, 0.2);
	await click(page, 3, 0.2);
	assert.doesNotMatch(await hash(page), /linear/);
});

pageTest('search counts matches and the time they cover', page1,
    async (page) => {
	const box = page.getByTestId('search');
	const matches = page.getByTestId('matches');
	await box.fill('aten');
	await assert.doesNotReject(() => matches.filter({
	    hasText: '1 match, 50.00% of all' }).waitFor());
	/* Nested matches count once in the share (train holds them all). */
	await box.fill('a');
	await matches.filter({ hasText: '5 matches, 100.00% of all' })
	    .waitFor();
	await box.fill('/^acl|cuda/i');
	await matches.filter({ hasText: '2 matches, 43.75% of all' })
	    .waitFor();
	await expectHash(page, /search=%2F%5Eacl%7Ccuda%2Fi/);
	await box.fill('nothing like this');
	await matches.filter({ hasText: '0 matches, 0.00% of all' })
	    .waitFor();
	await box.fill('/(/');
	await matches.filter({ hasText: 'bad regular expression' })
	    .waitFor();
	/* Clear empties the box and the count. */
	await box.fill('cuda');
	await matches.filter({ hasText: '1 match, 12.50% of all' }).waitFor();
	await page.getByTestId('clear').click();
	assert.equal(await box.inputValue(), '');
	assert.equal(await matches.textContent(), '');
	/* Esc clears a search first and keeps the zoom. */
	await click(page, 2, 0.3);
	await box.fill('linear');
	await matches.filter({ hasText: '1 match, 50.00% of all ' +
	    '(80.00% of zoom)' }).waitFor();
	await page.keyboard.press('Escape');
	assert.equal(await box.inputValue(), '');
	await expectHash(page, /zoom=/);
	await page.keyboard.press('Escape');
	await expectHash(page, '');
});

pageTest('switching thread shows that thread alone', page1, async (page) => {
	await page.getByTestId('thread').selectOption('t:1/2');
	await expectHash(page, /view=t%3A1%2F2/);
	/* Row 0 is the thread, train row 1, cudaLaunchKernel row 2. */
	await hover(page, 2, 0.1);
	assert.deepEqual(await tip(page), ['cudaLaunchKernel',
	    'Category: CUDA', 'Calls: 5', 'Total: 200 ns', 'Self: 200 ns',
	    'Of all: 12.50%', 'Of zoom: 33.33%']);
	await hover(page, 0, 0.9);
	assert.equal((await tip(page))[0], '1/2');
	await page.getByTestId('search').fill('train');
	await page.getByTestId('matches').filter({
	    hasText: '1 match, 100.00% of thread' }).waitFor();
	/* All threads merged: one train of 1600 ns, called twice. */
	await page.getByTestId('thread').selectOption('merged');
	await hover(page, 1, 0.9);
	assert.deepEqual(await tip(page), [T, 'Category: Python',
	    'Calls: 2', 'Total: 1,600 ns (1.60 \u00b5s)', 'Self: 600 ns',
	    'Of all: 100.00%', 'Of zoom: 100.00%']);
	await page.getByTestId('matches').filter({
	    hasText: '1 match, 100.00% of all' }).waitFor();
});

pageTest('the icicle toggle puts the root on top', page1, async (page) => {
	const ic = page.getByTestId('icicle');
	await hover(page, 0, 0.5);
	assert.equal((await tip(page))[0], 'all threads');
	await ic.click();
	assert.equal(await ic.getAttribute('aria-pressed'), 'true');
	await expectHash(page, /icicle=1/);
	/* hover() now measures rows from the top. */
	await hover(page, 0, 0.5);
	assert.equal((await tip(page))[0], 'all threads');
	await hover(page, 4, 0.1);
	assert.equal((await tip(page))[0], 'aclnnMm');
	await page.keyboard.press('i');
	assert.equal(await ic.getAttribute('aria-pressed'), 'false');
});

test('a link with a fragment reopens the same view', async () => {
	const { page, errors, requests } = await openFile(page1);
	try {
		const url = pathToFileURL(page1).href + '#view=t%3A1%2F2&zoom=' +
		    'main.py%281%29%3A+train&search=cuda&icicle=1';
		await page.goto(url);
		assert.equal(await page.getByTestId('thread').inputValue(),
		    't:1/2');
		assert.equal(await page.getByTestId('search').inputValue(),
		    'cuda');
		assert.equal(await page.getByTestId('icicle')
		    .getAttribute('aria-pressed'), 'true');
		assert.equal(await page.getByTestId('matches').textContent(),
		    '1 match, 33.33% of thread (33.33% of zoom)');
		/* Zoomed into train: the thread is faded above it (row 0),
		 * train is row 1 and fills the width, cuda is row 2. */
		await hover(page, 2, 0.2);
		assert.deepEqual((await tip(page)).slice(-2),
		    ['Of all: 12.50%', 'Of zoom: 33.33%']);
		/* A thread that is not in the page shows all threads. */
		await page.goto(pathToFileURL(page1).href + '#view=t%3A9%2F9');
		assert.equal(await page.getByTestId('thread').inputValue(),
		    'all');
		await hover(page, 0, 0.5);
		assert.equal((await tip(page))[0], 'all threads');
		/* A frame path that no longer exists stops where it breaks. */
		await page.goto(pathToFileURL(page1).href +
		    '#zoom=1%2F1&zoom=gone');
		await hover(page, 1, 0.5);
		assert.equal((await tip(page))[0], '1/1');
		assertClean({ errors, requests });
	} finally {
		await page.close();
	}
});

pageTest('the keyboard moves between frames and zooms', page1,
    async (page) => {
	const c = page.getByTestId('flamegraph');
	await c.focus();
	const status = page.locator('#fg-status');
	await page.keyboard.press('ArrowUp');		/* root -> 1/1 */
	assert.match(await status.textContent(), /^1\/1; Category: thread/);
	await page.keyboard.press('ArrowRight');	/* 1/1 -> 1/2 */
	assert.match(await status.textContent(), /^1\/2;/);
	await page.keyboard.press('ArrowUp');		/* 1/2 -> train */
	await page.keyboard.press('ArrowUp');		/* -> cuda */
	assert.match(await status.textContent(),
	    /^cudaLaunchKernel; Category: CUDA; Calls: 5/);
	await page.keyboard.press('ArrowDown');		/* back to train */
	await page.keyboard.press('Enter');
	await expectHash(page, /zoom=1%2F2&zoom=main/);
	await page.keyboard.press('Backspace');
	await expectHash(page, /^#zoom=1%2F2$/);
	await page.keyboard.press('0');
	await expectHash(page, '');
	await page.keyboard.press('?');
	assert.equal(await page.locator('#fg-help').isVisible(), true);
	await page.keyboard.press('?');
	assert.equal(await page.locator('#fg-help').isVisible(), false);
	await page.keyboard.press('/');
	assert.equal(await page.evaluate(() =>
	    document.activeElement.dataset.testid), 'search');
	await page.keyboard.type('acl');
	await page.getByTestId('matches').filter({
	    hasText: '1 match, 31.25% of all' }).waitFor();
	/* Enter in the box, then n and N, step through the matches (in
	 * depth-first order: train, linear, aclnnMm, train, cuda), zooming
	 * to each one's parent. */
	await page.getByTestId('search').fill('a');
	await page.getByTestId('matches').filter({
	    hasNotText: '1 match, 31.25% of all' }).waitFor();
	await page.keyboard.press('Enter');
	await expectHash(page, '#zoom=1%2F1&search=a');
	await c.focus();
	await page.keyboard.press('n');
	await expectHash(page,
	    '#zoom=1%2F1&zoom=main.py%281%29%3A+train&search=a');
	await page.keyboard.press('N');
	await expectHash(page, '#zoom=1%2F1&search=a');
	/* ] and [ step through the thread selector. */
	await page.keyboard.press(']');
	assert.equal(await page.getByTestId('thread').inputValue(), 'merged');
	await page.keyboard.press(']');
	assert.equal(await page.getByTestId('thread').inputValue(), 't:1/1');
	await page.keyboard.press('[');
	assert.equal(await page.getByTestId('thread').inputValue(), 'merged');
});

/* A hostile name must show as text and run nothing. */
const evil = '</script><script>window.pwned=1;alert(1)</script>';
const page2 = tmpPath('hostile.html');
writeFileSync(tmpPath('hostile.ndjson'), [
	JSON.stringify({ thread: '<!--<script>', stack: [evil], self_ns: 3 }),
	JSON.stringify({ thread: '<!--<script>', stack: [evil, '<b>&amp;'],
	    self_ns: 1 }),
].join('\n') + '\n');
runProg('flame2html', ['-t', evil, '-o', page2, tmpPath('hostile.ndjson')]);

pageTest('a hostile frame name runs no script and shows as text', page2,
    async (page) => {
	let dialogs = 0;
	page.on('dialog', (d) => {
		dialogs++;
		d.dismiss();
	});
	assert.equal(await page.evaluate(() => window.pwned), undefined);
	assert.equal(await page.locator('h1').textContent(), evil);
	assert.equal(await page.title(), evil);
	/* Rows: root, the thread, evil, then <b>&amp; (a quarter). */
	await hover(page, 2, 0.9);
	assert.deepEqual((await tip(page)).slice(0, 2), [evil,
	    'Category: Other']);
	await hover(page, 3, 0.1);
	assert.equal((await tip(page))[0], '<b>&amp;');
	await hover(page, 1, 0.5);
	assert.equal((await tip(page))[0], '<!--<script>');
	assert.equal(await page.locator('script').count(), 6);
	await page.getByTestId('search').fill('script>');
	await page.getByTestId('matches').filter({
	    hasText: '1 match, 100.00% of all' }).waitFor();
	assert.equal(dialogs, 0);
	assert.equal(await page.evaluate(() => window.pwned), undefined);
});

/* Differential: before a;b 10, a;c 5; after a;b 4, a;c 5, a;d 6. */
const before = tmpPath('before.folded'), afterF = tmpPath('after.folded');
writeFileSync(before, 'a;b 10\na;c 5\n');
writeFileSync(afterF, 'a;b 4\na;c 5\na;d 6\n');
const page3 = tmpPath('diff.html');
runProg('flame2html', ['--diff', '-o', page3, before, afterF]);

pageTest('a differential page shows both sides and the change', page3,
    async (page) => {
	/* After widths: d 6, c 5, b 4 of 15 at row 2. */
	await hover(page, 2, 0.2);
	assert.deepEqual(await tip(page), ['d', 'Category: Other',
	    'Self before: 0 samples', 'Self after: 6 samples',
	    'Self \u0394: +6 samples', 'Self \u0394%: new',
	    'Total before: 0 samples', 'Total after: 6 samples',
	    'Total \u0394: +6 samples', 'Total \u0394%: new',
	    'Of all: 40.00%', 'Of zoom: 40.00%']);
	await hover(page, 2, 0.9);
	assert.deepEqual((await tip(page)).slice(2, 10), [
	    'Self before: 10 samples', 'Self after: 4 samples',
	    'Self \u0394: \u22126 samples', 'Self \u0394%: \u221260.00%',
	    'Total before: 10 samples', 'Total after: 4 samples',
	    'Total \u0394: \u22126 samples', 'Total \u0394%: \u221260.00%']);
	const legend = await page.locator('#fg-legend').textContent();
	assert.match(legend, /self time grew/);
	/* Before widths: d (0 before) vanishes, c is 5 and b 10 of 15. */
	const wb = page.getByTestId('widths');
	await wb.click();
	assert.equal(await wb.getAttribute('aria-pressed'), 'true');
	await expectHash(page, /widths=before/);
	await hover(page, 2, 0.2);
	assert.equal((await tip(page))[0], 'c');
	await hover(page, 2, 0.9);
	assert.deepEqual(await tip(page), ['b', 'Category: Other',
	    'Self before: 10 samples', 'Self after: 4 samples',
	    'Self \u0394: \u22126 samples', 'Self \u0394%: \u221260.00%',
	    'Total before: 10 samples', 'Total after: 4 samples',
	    'Total \u0394: \u22126 samples', 'Total \u0394%: \u221260.00%',
	    'Of all: 66.67%', 'Of zoom: 66.67%']);
});

/*
 * Two ranks (labelled, different pids): before rank0 main 10 + step 20,
 * after rank1 main 30 + step 10.  They share no thread, so the page
 * opens on the merged view, where step is 20 ns before and 10 ns after.
 */
const rankRec = (run, pid, stack, self, total, name) => JSON.stringify({
    thread: `${run} ${pid}/${pid}`, stack, self_ns: self, total_ns: total,
    calls: 1, run, ...(name ? { thread_name: name } : {}) }) + '\n';
const rank0 = tmpPath('rank0.st'), rank1 = tmpPath('rank1.st');
writeFileSync(rank0, rankRec('rank0', 100, ['main'], 10, 30) +
    rankRec('rank0', 100, ['main', 'step'], 20, 20));
writeFileSync(rank1, rankRec('rank1', 200, ['main'], 30, 40) +
    rankRec('rank1', 200, ['main', 'step'], 10, 10));
const pageRanks = tmpPath('ranks-diff.html');
runProg('flame2html', ['--diff', '-o', pageRanks, rank0, rank1]);
const changeLines = async (page) => (await tip(page)).filter((l) =>
    /^(Self|Total) /.test(l));

pageTest('a diff of two ranks opens merged, with both sides', pageRanks,
    async (page) => {
	assert.equal(await page.getByTestId('thread').inputValue(), 'merged');
	/* Merged after: main 40 (self 30), step 10 at row 2, x < 0.25. */
	await hover(page, 2, 0.1);
	assert.equal((await tip(page))[0], 'step');
	assert.deepEqual(await changeLines(page), [
	    'Self before: 20 ns', 'Self after: 10 ns',
	    'Self \u0394: \u221210 ns', 'Self \u0394%: \u221250.00%',
	    'Total before: 20 ns', 'Total after: 10 ns',
	    'Total \u0394: \u221210 ns', 'Total \u0394%: \u221250.00%']);
	await hover(page, 1, 0.9);
	assert.deepEqual((await changeLines(page)).slice(0, 4), [
	    'Self before: 10 ns', 'Self after: 30 ns',
	    'Self \u0394: +20 ns', 'Self \u0394%: +200.00%']);
});

/* The same ranks with thread names: compared thread by thread. */
const named0 = tmpPath('named0.st'), named1 = tmpPath('named1.st');
writeFileSync(named0, rankRec('rank0', 100, ['main'], 10, 30, 'python') +
    rankRec('rank0', 100, ['main', 'step'], 20, 20, 'python'));
writeFileSync(named1, rankRec('rank1', 200, ['main'], 30, 40, 'python') +
    rankRec('rank1', 200, ['main', 'step'], 10, 10, 'python'));
const pageNamed = tmpPath('named-diff.html');
runProg('flame2html', ['--diff', '-o', pageNamed, named0, named1]);

pageTest('labelled ranks with thread names are compared per thread',
    pageNamed, async (page) => {
	const sel = page.getByTestId('thread');
	assert.equal(await sel.inputValue(), 'all');
	await sel.selectOption('t:python');
	/* The thread is the bottom row: main row 1, step row 2 (x < 0.25). */
	await hover(page, 2, 0.1);
	assert.equal((await tip(page))[0], 'step');
	assert.deepEqual((await changeLines(page)).slice(0, 4), [
	    'Self before: 20 ns', 'Self after: 10 ns',
	    'Self \u0394: \u221210 ns', 'Self \u0394%: \u221250.00%']);
});

pageTest('the table lists functions by self time', page1, async (page) => {
	const tb = page.getByTestId('table');
	await tb.click();
	assert.equal(await tb.getAttribute('aria-pressed'), 'true');
	const rows = () => page.getByTestId('functions').locator('tr')
	    .evaluateAll((trs) => trs.slice(1).map((tr) =>
	    [...tr.children].map((td) => td.textContent)));
	/* train runs in both threads: self 200 + 400, total 1000 + 600. */
	assert.deepEqual(await rows(), [
	    [T, '600 ns \u00b7 37.50%', '1,600 ns (1.60 \u00b5s) \u00b7 100.00%',
		'2'],
	    ['aclnnMm', '500 ns \u00b7 31.25%', '500 ns \u00b7 31.25%', '2'],
	    ['aten::linear', '300 ns \u00b7 18.75%', '800 ns \u00b7 50.00%', '2'],
	    ['cudaLaunchKernel', '200 ns \u00b7 12.50%', '200 ns \u00b7 12.50%',
		'5']]);
	/* Sorting by calls, then zooming to one thread, narrows it. */
	await page.getByTestId('functions').getByRole('button',
	    { name: 'Calls' }).click();
	assert.equal((await rows())[0][0], 'cudaLaunchKernel');
	await page.getByTestId('thread').selectOption('t:1/1');
	/* Calls 2, 2, 1 (ties in name-table order). */
	assert.deepEqual((await rows()).map((r) => r[0]),
	    ['aten::linear', 'aclnnMm', T]);
	/* A name searches for exactly that function. */
	await page.getByTestId('functions').getByRole('button',
	    { name: 'aclnnMm' }).click();
	assert.equal(await page.getByTestId('search').inputValue(),
	    '/^aclnnMm$/');
	await page.getByTestId('matches').filter({
	    hasText: '1 match, 50.00% of thread' }).waitFor();
});

pageTest('the callers view turns the graph bottom-up', page1,
    async (page) => {
	/* Self time by function: train 200 + 400, aclnnMm 500, linear 300,
	 * cuda 200 (row 1); above each, its callers. */
	const cb = page.getByTestId('callers');
	await cb.click();
	assert.equal(await cb.getAttribute('aria-pressed'), 'true');
	await expectHash(page, /callers=1/);
	await hover(page, 0, 0.5);
	assert.equal((await tip(page))[0], 'all threads (callers)');
	await hover(page, 1, 0.1);
	assert.deepEqual(await tip(page), [T, 'Category: Python',
	    'Total: 600 ns', 'Self: 600 ns', 'Of all: 37.50%',
	    'Of zoom: 37.50%']);
	await hover(page, 1, 0.5);
	assert.deepEqual((await tip(page)).slice(0, 4), ['aclnnMm',
	    'Category: CANN/NPU', 'Total: 500 ns', 'Self: 0 ns']);
	/* aclnnMm is called by linear, which train calls. */
	await hover(page, 2, 0.5);
	assert.equal((await tip(page))[0], 'aten::linear');
	await hover(page, 3, 0.5);
	assert.deepEqual((await tip(page)).slice(0, 4), [T,
	    'Category: Python', 'Total: 500 ns', 'Self: 500 ns']);
	/* One thread's callers; r turns the view back. */
	await page.getByTestId('thread').selectOption('t:1/2');
	await hover(page, 1, 0.9);
	assert.deepEqual((await tip(page)).slice(0, 3), ['cudaLaunchKernel',
	    'Category: CUDA', 'Total: 200 ns']);
	await page.getByTestId('flamegraph').focus();
	await page.keyboard.press('r');
	assert.equal(await cb.getAttribute('aria-pressed'), 'false');
	await hover(page, 0, 0.5);
	assert.equal((await tip(page))[0], '1/2');
});

pageTest('PNG saves the view as an image', page1, async (page) => {
	const [dl] = await Promise.all([page.waitForEvent('download'),
	    page.getByRole('button', { name: 'PNG' }).click()]);
	assert.equal(dl.suggestedFilename(), 'two_threads.png');
	const path = await dl.path();
	const { readFileSync } = await import('node:fs');
	const png = readFileSync(path);
	assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
});

pageTest('the widths button shows only on differential pages', page1,
    async (page) => {
	assert.equal(await page.getByTestId('widths').isVisible(), false);
});

/* Frames narrower than a pixel are merged into one box, never lost:
 * big 100000 beside s0..s19 of 50 each (0.63 px at 1280 px), each made
 * of f0..f49 of 1. */
const wide = ['big 100000'];
for (let k = 0; k < 20; k++)
	for (let j = 0; j < 50; j++)
		wide.push(`s${k};f${j} 1`);
const page4 = tmpPath('narrow.html');
runProg('flame2html', ['-o', page4, '-'], { input: wide.join('\n') + '\n' });

pageTest('frames narrower than a pixel are merged, not dropped', page4,
    async (page) => {
	/* The twenty s frames make one box of 12.7 px at the right end. */
	const c = page.getByTestId('flamegraph');
	const box = await c.boundingBox();
	const at = { x: box.x + box.width - 6,
	    y: box.y + box.height - 2 * ROW + ROW / 2 };
	await page.mouse.move(at.x, at.y);
	const lines = await tip(page);
	assert.deepEqual(lines.slice(0, 3), [
	    '20 frames too narrow to draw, merged', 'Under: all',
	    'Total: 1,000 samples']);
	/* Clicking it zooms into the first of them. */
	await page.mouse.click(at.x, at.y);
	await hover(page, 1, 0.5);
	assert.equal((await tip(page))[0], 's0');
	await page.getByTestId('reset').click();
	await page.goto(pathToFileURL(page4).href + '#zoom=s7');
	await hover(page, 2, 0.51);
	assert.deepEqual((await tip(page)).slice(0, 3), ['f25',
	    'Category: Other', 'Total: 1 samples']);
});

/*
 * chart2html-timeline.test.mjs: the dispatch timeline reads at a glance
 * (a time axis with ticks, kernel names on the bars wide enough for them,
 * a colour legend, whole nanoseconds) and tables show durations in ns
 * with grouped digits and a readable unit beside them.
 *
 * The dispatches, by hand (times from the first start, 1000 ns):
 *   GPU 2: vecCopy 0..20,000, vecAdd 24,000..34,000
 *   GPU 3: tiny 1,000..1,010, vecCopy 5,000..80,000
 * so the range is 0..80,000 ns; vecCopy runs 95,000 ns in all, vecAdd
 * 10,000, tiny 10.  At 1280 px the plot is over 1,000 px wide: ticks at
 * most every 100 px want a step of at least 8,000 ns, the next of 1, 2,
 * 5 x 10^k is 10,000 ns (10 us); zoomed in to 20,000..60,000 it is
 * 5,000.
 */
import assert from 'node:assert/strict';
import { cell, pageTest, runProg, tmpPath } from './lib.mjs';

function page(name, lines, args = []) {
	const html = tmpPath(name);
	runProg('chart2html', ['-o', html, ...args],
	    { input: lines.map((r) => JSON.stringify(r)).join('\n') + '\n' });
	return html;
}

const tiny = 'tiny_kernel_with_a_long_name';
const disp = (id, k, gpu, s, e) => ({ type: 'dispatch', Dispatch_ID: id,
    Kernel_Name: k, GPU_ID: gpu, Start_Timestamp: s, End_Timestamp: e,
    dur_ns: e - s });
const dispHtml = page('dispatch.html', [
	disp(0, 'vecCopy', 2, 1000, 21000),
	disp(1, 'vecAdd', 2, 25000, 35000),
	disp(2, tiny, 3, 2000, 2010),
	disp(3, 'vecCopy', 3, 6000, 81000),
]);

const LW = 110, LH = 28;

/*
 * Redraws the timeline (the reset button) with fillText recorded: the
 * texts the canvas shows, with where they were drawn.
 */
async function drawn(pg, button = 'zoom-reset') {
	await pg.waitForFunction(() => document.querySelector(
	    '[data-testid=timeline]').dataset.viewEnd !== undefined);
	await pg.evaluate(() => {
		const p = CanvasRenderingContext2D.prototype;
		if (!p.realFillText)
			p.realFillText = p.fillText;
		window.texts = [];
		p.fillText = function (t, x, y) {
			window.texts.push({ t, x, y, align: this.textAlign,
			    w: this.measureText(t).width });
			return this.realFillText(t, x, y);
		};
	});
	await pg.click(`[data-testid=${button}]`);
	return pg.evaluate(() => window.texts);
}

/* The tick labels: texts drawn below the lanes, left to right. */
const ticks = (texts, lanes) => texts.filter((x) => x.y > lanes * LH)
    .sort((a, b) => a.x - b.x);

pageTest('the timeline has a time axis with ticks', dispHtml,
    async (pg) => {
	const texts = await drawn(pg);
	const tk = ticks(texts, 2);
	assert.deepEqual(tk.map((x) => x.t), ['0', '10 \u00b5s', '20 \u00b5s',
	    '30 \u00b5s', '40 \u00b5s', '50 \u00b5s', '60 \u00b5s',
	    '70 \u00b5s', '80 \u00b5s']);
	/* Evenly spaced, at their times: 40 us is the plot's middle. */
	const canvas = await pg.locator('[data-testid=timeline] canvas')
	    .evaluate((c) => c.width);
	const at = (x) => x.align === 'center' ? x.x : x.align === 'right' ?
	    x.x - x.w / 2 : x.x + x.w / 2;
	const mid = LW + (canvas - LW) / 2;
	assert.ok(Math.abs(at(tk[4]) - mid) <= 1,
	    `40 us at ${at(tk[4])}, want ${mid}`);
	assert.ok(Math.abs(tk[0].x - LW) <= 1, `0 at ${tk[0].x}`);
	await pg.click('[data-testid=zoom-in]');
	const texts2 = await pg.evaluate(() => window.texts);
	const tk2 = ticks(texts2.slice(texts.length), 2);
	assert.deepEqual(tk2.map((x) => x.t), ['20 \u00b5s', '25 \u00b5s',
	    '30 \u00b5s', '35 \u00b5s', '40 \u00b5s', '45 \u00b5s',
	    '50 \u00b5s', '55 \u00b5s', '60 \u00b5s']);
});

pageTest('kernel names on the bars wide enough for them', dispHtml,
    async (pg) => {
	const canvas = await pg.locator('[data-testid=timeline] canvas')
	    .evaluate((c) => c.width);
	const x = (t) => LW + t / 80000 * (canvas - LW);
	const all = await drawn(pg);
	const names = all.filter((d) => d.x >= LW &&
	    d.y < 2 * LH);
	const lane = (d) => Math.floor(d.y / LH);
	const on = names.map((d) => [lane(d), d.t]).sort();
	assert.deepEqual(on, [[0, 'vecAdd'], [0, 'vecCopy'], [1, 'vecCopy']]);
	/* The lanes are named by their GPU. */
	assert.deepEqual(all.filter((d) => d.x < LW && d.y < 2 * LH)
	    .map((d) => d.t), ['GPU 2', 'GPU 3']);
	/* Each inside its bar. */
	for (const d of names) {
		const [s, e] = d.t === 'vecAdd' ? [24000, 34000] :
		    lane(d) === 0 ? [0, 20000] : [5000, 80000];
		assert.ok(d.x >= x(s) && d.x + d.w <= x(e) + 1,
		    `${d.t} at ${d.x}..${d.x + d.w}, bar ${x(s)}..${x(e)}`);
	}
});

pageTest('a colour legend names the kernels, busiest first', dispHtml,
    async (pg) => {
	const lg = pg.getByTestId('timeline-legend');
	assert.deepEqual(await lg.locator('[data-kernel]').evaluateAll((xs) =>
	    xs.map((x) => x.textContent)), ['vecCopy', 'vecAdd', tiny]);
	/* The swatch is the colour of the kernel's bar: vecCopy on GPU 3
	 * near its end (78,000 ns), vecAdd in its middle. */
	await drawn(pg);
	const canvas = pg.locator('[data-testid=timeline] canvas');
	for (const [k, t, l] of [['vecCopy', 78000, 1], ['vecAdd', 33000, 0]]) {
		const px = await canvas.evaluate((c, [t, l, LW, LH]) => {
			const x = Math.round(LW + t / 80000 * (c.width - LW));
			return [...c.getContext('2d').getImageData(x,
			    l * LH + 6, 1, 1).data].slice(0, 3);
		}, [t, l, LW, LH]);
		const sw = await lg.locator(`[data-kernel="${k}"]`).evaluate(
		    (e) => getComputedStyle(e, '::before').backgroundColor);
		const rgb = sw.match(/\d+/g).slice(0, 3).map(Number);
		assert.ok(rgb.every((v, i) => Math.abs(v - px[i]) <= 2),
		    `${k}: bar ${px}, legend ${rgb}`);
	}
});

pageTest('the timeline says whole nanoseconds', dispHtml, async (pg) => {
	const range = pg.getByTestId('timeline-range');
	await drawn(pg);
	assert.equal(await range.textContent(),
	    '0 \u2013 80,000 ns from the first start (80.00 \u00b5s shown)');
	/* A wheel zoom lands between nanoseconds: shown whole. */
	const box = await pg.locator('[data-testid=timeline] canvas')
	    .boundingBox();
	await pg.mouse.move(box.x + LW + (box.width - LW) / 3, box.y + 10);
	await pg.mouse.wheel(0, -300);
	assert.match(await range.textContent(), /^[\d,]+ \u2013 [\d,]+ ns from the first start \([\d.]+ \u00b5s shown\)$/);
	const ticks2 = ticks(await pg.evaluate(() => window.texts), 2);
	for (const t of ticks2)
		assert.match(t.t, /^(0|\d+(\.\d+)? (ns|\u00b5s))$/);
	/* The tooltip of vecCopy on GPU 3. */
	await pg.click('[data-testid=zoom-reset]');
	await pg.mouse.move(box.x + LW + (box.width - LW) * 0.6,
	    box.y + LH + LH / 2);
	assert.equal(await pg.textContent('[data-testid=tooltip]'),
	    '3: vecCopy\nStart_Timestamp 6000, End_Timestamp 81000\n' +
	    '+5,000 .. +80,000 ns, 75,000 ns (75.00 \u00b5s) long');
});

pageTest('durations in ns: grouped digits and a readable unit', dispHtml,
    async (pg) => {
	assert.equal(await cell(pg, 'dispatch', '3', 'dur_ns'),
	    '75,000 (75.00 \u00b5s)');
	assert.equal(await cell(pg, 'dispatch', '2', 'dur_ns'), '10');
	/* Timestamps are positions, not durations: as written. */
	assert.equal(await cell(pg, 'dispatch', '3', 'Start_Timestamp'),
	    '6000');
	await pg.locator('[data-testid=table-dispatch] tbody tr[data-row="3"] ' +
	    'td:last-child').hover();
	assert.equal(await pg.textContent('[data-testid=tooltip]'),
	    'dur_ns: 75,000 ns (75.00 \u00b5s)');
});

/* topn -v dur_ns statistics; the mean is a fraction. */
const statsHtml = page('stats.html', [
	{ Kernel_Name: 'k1', count: 3, sum_ns: 3356652, mean_ns: 1118884,
	    median_ns: 1118000, min_ns: 900, max_ns: 2237752, pct: 99.97 },
	{ Kernel_Name: 'k2', count: 2, sum_ns: 1001, mean_ns: 500.5,
	    median_ns: 500.5, min_ns: 500, max_ns: 501, pct: 0.03 },
]);

pageTest('statistics in ns: grouped digits and a readable unit', statsHtml,
    async (pg) => {
	assert.equal(await cell(pg, 'top', 'k1', 'sum (ns)'),
	    '3,356,652 (3.36 ms)');
	/* Whole columns stay whole; one with a fraction has 2 decimals. */
	assert.equal(await cell(pg, 'top', 'k1', 'min (ns)'), '900');
	assert.equal(await cell(pg, 'top', 'k1', 'max (ns)'),
	    '2,237,752 (2.24 ms)');
	assert.equal(await cell(pg, 'top', 'k1', 'mean (ns)'),
	    '1,118,884.00 (1.12 ms)');
	assert.equal(await cell(pg, 'top', 'k2', 'mean (ns)'), '500.50');
	assert.equal(await cell(pg, 'top', 'k2', 'sum (ns)'),
	    '1,001 (1.00 \u00b5s)');
	assert.equal(await cell(pg, 'top', 'k1', 'count'), '3');
});

/* Any records with a duration key: the plain table. */
const plainHtml = page('plain.html', [
	{ name: 'aten::mm', start_ns: 5142642017272256, dur_ns: 2767886 },
	{ name: 'aten::add', start_ns: 5142642020039142, dur_ns: 12 },
]);

pageTest('a plain table groups durations but not timestamps', plainHtml,
    async (pg) => {
	assert.equal(await cell(pg, 'records', 'aten::mm', 'dur_ns'),
	    '2,767,886 (2.77 ms)');
	assert.equal(await cell(pg, 'records', 'aten::add', 'dur_ns'), '12');
	assert.equal(await cell(pg, 'records', 'aten::mm', 'start_ns'),
	    '5142642017272256');
});

/*
 * A long name on a bar too short for it is cut to fit, with an
 * ellipsis: the bar of 20,000 ns is an eighth of the 160,000 ns range
 * (about 140 px), the name about 400 px.
 */
const longK = 'void benchmark_func<int, 256, 8u, 512u>(int, int*) ' +
    '[clone .kd]';
const longHtml = page('long.html', [
	disp(0, longK, 0, 0, 20000),
	disp(1, 'b', 0, 150000, 160000),
]);

pageTest('a long kernel name is cut to its bar', longHtml, async (pg) => {
	const canvas = await pg.locator('[data-testid=timeline] canvas')
	    .evaluate((c) => c.width);
	const end = LW + 20000 / 160000 * (canvas - LW);
	const on = (await drawn(pg)).filter((d) => d.x >= LW && d.y < LH);
	const cut = on.find((d) => d.t.endsWith('\u2026'));
	assert.ok(cut !== undefined, `drawn: ${on.map((d) => d.t)}`);
	assert.ok(longK.startsWith(cut.t.slice(0, -1)) && cut.t.length > 4,
	    `cut to ${cut.t}`);
	assert.ok(cut.x + cut.w <= end, `${cut.x + cut.w} beyond ${end}`);
});

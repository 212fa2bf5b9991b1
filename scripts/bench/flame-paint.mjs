/*
 * flame-paint.mjs: opens a flame2html page in headless chromium and prints,
 * as JSON, the time to first paint (navigation start to the page's
 * "painted" performance mark), then the time of a search, a zoom and a
 * reset on the whole graph, and the JS heap: each the median of RUNS
 * page loads (default 5).
 *
 * usage: node flame-paint.mjs PAGE [RUNS]
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { createRequire } from 'node:module';

const top = resolve(new URL('.', import.meta.url).pathname, '..', '..');
const require = createRequire(resolve(top, 'tests/browser/package.json'));
const { chromium } = require('playwright-core');

const file = resolve(process.argv[2]);
const runs = Number(process.argv[3] || 5);
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu',
	'--enable-precise-memory-info'] });
const paint = [];
const inter = [];
for (let i = 0; i < runs; i++) {
	const ctx = await browser.newContext({ viewport: { width: 1280,
	    height: 800 } });
	const page = await ctx.newPage();
	await page.goto(pathToFileURL(file).href, { timeout: 300000 });
	await page.waitForFunction(() => document.body.dataset.painted,
	    null, { timeout: 300000 });
	paint.push(await page.evaluate(() =>
	    performance.getEntriesByName('painted')[0].startTime));
	inter.push(await page.evaluate(async () => {
		const frame = () => new Promise((ok) =>
		    requestAnimationFrame(() => ok()));
		const box = document.querySelector('[data-testid=search]');
		const c = document.querySelector('[data-testid=flamegraph]');
		const r = c.getBoundingClientRect();
		const m = document.querySelector('[data-testid=matches]');
		/* Typing waits 150 ms for more keys on pages with many
		 * names; that pause is not counted. */
		const pause = JSON.parse(document.getElementById(
		    'fg-names').textContent).length > 100000 ? 150 : 0;
		let t0 = performance.now();
		box.value = 'malloc';
		box.dispatchEvent(new Event('input'));
		while (m.textContent === '')
			await new Promise((ok) => setTimeout(ok, 0));
		const search = performance.now() - t0 - pause;
		const count = m.textContent;
		document.querySelector('[data-testid=clear]').click();
		/* Click the widest frame of the second row. */
		const ev = { clientX: r.left + 20, clientY: r.bottom - 27,
		    bubbles: true };
		t0 = performance.now();
		c.dispatchEvent(new MouseEvent('click', ev));
		const zoom = performance.now() - t0;
		t0 = performance.now();
		document.querySelector('[data-testid=reset]').click();
		const reset = performance.now() - t0;
		await frame();
		return { search_ms: search, matches: count, zoom_ms: zoom,
		    reset_ms: reset,
		    heap_mb: performance.memory ?
		    performance.memory.usedJSHeapSize / 1048576 : null };
	}));
	await ctx.close();
}
await browser.close();
const mid = (k) => median(inter.map((x) => x[k]));
console.log(JSON.stringify({ paint_ms: median(paint), runs: paint,
    search_ms: mid('search_ms'), matches: inter[runs - 1].matches,
    zoom_ms: mid('zoom_ms'), reset_ms: mid('reset_ms'),
    heap_mb: inter[runs - 1].heap_mb === null ? null : mid('heap_mb') }));

/*
 * chart2html-page.mjs: opens a chart2html page in headless chromium and
 * prints, as JSON, the time until it is interactive (navigation start to
 * the first layout after its script ran, median of runs) and the time a
 * kernel switch takes (change event to finished layout of the tables in
 * view, median and worst over up to 20 kernels; and median time until the
 * tables out of view are up to date too).
 *
 * usage: node chart2html-page.mjs PAGE [RUNS]
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
    args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const tti = [];
let switches = [];
for (let i = 0; i < runs; i++) {
	const ctx = await browser.newContext({ viewport: { width: 1280,
	    height: 800 } });
	const page = await ctx.newPage();
	await page.goto(pathToFileURL(file).href);
	await page.waitForFunction(() => document.body.dataset.interactive,
	    null, { timeout: 60000 });
	tti.push(Number(await page.evaluate(() =>
	    document.body.dataset.interactive)));
	if (i === 0)
		switches = await page.evaluate(async () => {
			const s = document.querySelector('[data-testid=kernel]');
			if (s === null)
				return [];
			const root = document.querySelector('.metrics');
			const settled = () => new Promise((ok) => {
				const poll = () => root.dataset.pending === undefined ?
				    ok() : setTimeout(poll, 1);
				poll();
			});
			const out = [];
			const n = Math.min(s.options.length, 21);
			for (let k = 1; k < n; k++) {
				const t0 = performance.now();
				s.selectedIndex = k;
				s.dispatchEvent(new Event('change'));
				void document.body.offsetHeight;
				const t1 = performance.now();
				await settled();
				out.push([t1 - t0, performance.now() - t0]);
			}
			return out;
		});
	await ctx.close();
}
await browser.close();
console.log(JSON.stringify({
	tti_ms: median(tti),
	switch_ms: switches.length ? median(switches.map((x) => x[0])) : null,
	switch_max_ms: switches.length ?
	    Math.max(...switches.map((x) => x[0])) : null,
	all_tables_ms: switches.length ?
	    median(switches.map((x) => x[1])) : null,
	switches: switches.length,
}));

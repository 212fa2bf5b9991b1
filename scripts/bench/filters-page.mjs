/*
 * filters-page.mjs: opens a chart2html page of metric-eval --interactive
 * in headless chromium and prints, as JSON, the time until its filters
 * are usable (navigation start to the first layout after the first
 * choice is drawn, median of runs), and for CHANGES random filter changes
 * (a dispatch range, one to three kernels, a GPU, the normalization, no
 * kernel) the time until the tables in view are drawn (change event to
 * finished layout) and until every table is (median and worst).  A
 * dispatch range is timed with no kernel or GPU chosen, kernels and GPUs
 * with no dispatch range (cleared first, untimed), so that each change
 * is one metric-eval answers (the page refuses, as metric-eval -d does,
 * a range that the other filters cut into).
 *
 * usage: node filters-page.mjs PAGE [RUNS] [CHANGES]
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { createRequire } from 'node:module';

const top = resolve(new URL('.', import.meta.url).pathname, '..', '..');
const require = createRequire(resolve(top, 'tests/browser/package.json'));
const { chromium } = require('playwright-core');

const file = resolve(process.argv[2]);
const runs = Number(process.argv[3] || 5);
const nchanges = Number(process.argv[4] || 20);
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const tti = [];
let changes = [];
for (let i = 0; i < runs; i++) {
	const ctx = await browser.newContext({ viewport: { width: 1280,
	    height: 800 } });
	const page = await ctx.newPage();
	await page.goto(pathToFileURL(file).href);
	await page.waitForFunction(() => document.querySelector(
	    '.filters-view[data-ready-ms]'), null, { timeout: 120000 });
	tti.push(Number(await page.$eval('.filters-view',
	    (e) => e.dataset.readyMs)));
	if (i === 0)
		changes = await page.evaluate(async (n) => {
			let seed = 1;
			const rnd = (k) => {
				seed = (seed * 1103515245 + 12345) % 2147483648;
				return seed % k;
			};
			const q = (id) => document.querySelector(
			    `[data-testid=${id}]`);
			const settled = () => new Promise((ok) => {
				const poll = () => {
					const m = document.querySelector(
					    '.filtered .metrics');
					if (m === null || m.dataset.pending ===
					    undefined)
						ok();
					else
						setTimeout(poll, 1);
				};
				poll();
			});
			const ks = q('filter-kernel'), gs = q('filter-gpu');
			const ns = q('normalization'), ds = q('filter-dispatch');
			const nd = Number(/of (\d+)/.exec(q('filter-status')
			    .textContent)[1]);
			/* Untimed: clears a control that would make the
			 * next choice one metric-eval refuses. */
			const clear = async (e) => {
				if (e === ds) {
					if (ds.value === '')
						return;
					ds.value = '';
				} else {
					if (e.selectedOptions.length === 0)
						return;
					for (const o of e.options)
						o.selected = false;
				}
				e.dispatchEvent(new Event('change'));
				await settled();
			};
			const out = [];
			for (let c = 0; c < n; c++) {
				const what = c % 5;
				if (what === 0) {
					await clear(ks);
					await clear(gs);
				} else if (what === 1 || what === 2) {
					await clear(ds);
				}
				const t0 = performance.now();
				if (what === 0) {
					const a = rnd(nd);
					ds.value = `${a}-${a + rnd(nd - a)}`;
					ds.dispatchEvent(new Event('change'));
				} else if (what === 1) {
					for (const o of ks.options)
						o.selected = false;
					for (let j = 0, m = 1 + rnd(3); j < m; j++)
						ks.options[rnd(ks.options.length)]
						    .selected = true;
					ks.dispatchEvent(new Event('change'));
				} else if (what === 2) {
					for (const o of gs.options)
						o.selected = false;
					gs.options[rnd(gs.options.length)].selected =
					    true;
					gs.dispatchEvent(new Event('change'));
				} else if (what === 3) {
					ns.selectedIndex = (ns.selectedIndex + 1 +
					    rnd(3)) % 4;
					ns.dispatchEvent(new Event('change'));
				} else {
					for (const o of ks.options)
						o.selected = false;
					ks.dispatchEvent(new Event('change'));
				}
				void document.body.offsetHeight;
				const t1 = performance.now();
				await settled();
				out.push([t1 - t0, performance.now() - t0,
				    q('filter-status').textContent.startsWith(
				    'not evaluated') ? 1 : 0]);
			}
			return out;
		}, nchanges);
	await ctx.close();
}
await browser.close();
console.log(JSON.stringify({
	tti_ms: median(tti),
	change_ms: median(changes.map((x) => x[0])),
	change_max_ms: Math.max(...changes.map((x) => x[0])),
	all_tables_ms: median(changes.map((x) => x[1])),
	all_tables_max_ms: Math.max(...changes.map((x) => x[1])),
	changes: changes.length,
	refused: changes.filter((x) => x[2]).length,
}));

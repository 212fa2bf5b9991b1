/*
 * filters.mjs: what the chart2html-filters*.test.mjs files share: the
 * workloads and choices, the controls, and the comparison of every cell
 * window.profpipe.cell() gives with metric-eval's records.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { binDir, fixture, pageTest, runProg, tmpPath, top }
    from './lib.mjs';

export { fixture, openFile, pageTest, runProg, tmpPath } from './lib.mjs';

export const have = ['pmc2ndjson', 'metric-eval', 'chart2html']
    .every((p) => existsSync(join(binDir, p)));
export const configs = resolve(top, '..', 'shared', 'reference',
    'rocprof-compute-configs');
export const K = (t, n) => `void benchmark_func<${t}, 256, 8u, ${n}u>(` +
    `${t}, ${t}*) [clone .kd]`;

/* Dispatch records with GPU_ID = position % 2. */
export function twoGpus(nd) {
	let pos = 0;
	return nd.split('\n').map((l) => {
		if (!l.includes('"type":"dispatch"'))
			return l;
		const r = JSON.parse(l);
		r.GPU_ID = pos++ % 2;
		return JSON.stringify(r);
	}).join('\n');
}

const range = (lo, hi, step = 1) => {
	const a = [];
	for (let i = lo; i <= hi; i += step)
		a.push(i);
	return a.join(',');
};

/*
 * Each workload with its choices: the page's controls (dispatch text,
 * kernel names, GPUs, normalization) and metric-eval's options for the
 * same rows.
 */
export const workloads = [
	{ dir: 'vcopy/MI100', arch: 'gfx908', choices: [
		{ n: 'per_kernel' },
		{ d: '0,2', n: 'per_wave', args: ['-d', '0,2'] },
		{ d: '1-2', n: 'per_cycle', args: ['-d', '1,2'] },
		{ d: '> 0', n: 'per_second', args: ['-d', '1,2'] },
	] },
	{ dir: 'vcopy/MI200', arch: 'gfx90a', choices: [
		{ d: '2', n: 'per_kernel', args: ['-d', '2'] },
		{ d: '0 1', n: 'per_wave', args: ['-d', '0,1'] },
		{ d: '>1', n: 'per_cycle', args: ['-d', '2'] },
		{ d: '0-1', k: ['vecCopy(double*, double*, double*, int, ' +
		    'int) [clone .kd]'], n: 'per_second', args: ['-d', '0,1',
		    '-k', 'vecCopy(double*, double*, double*, int, int) ' +
		    '[clone .kd]'] },
		{ g: ['2'], n: 'per_wave', args: ['-g', '2'] },
	] },
	{ dir: 'vcopy/MI300X_A1', arch: 'gfx942', choices: [
		{ n: 'per_second' },
		{ d: '0,1', n: 'per_cycle', args: ['-d', '0,1'] },
		{ d: '1,1', n: 'per_kernel', args: ['-d', '1,1'] },
	] },
	{ dir: 'path/MI300X_A1', arch: 'gfx942', choices: [
		{ n: 'per_wave' },
		{ d: '> 0', n: 'per_second', args: ['-d', '1,2'] },
		{ d: '0-1', n: 'per_kernel', args: ['-d', '0,1'] },
	] },
	{ dir: 'vcopy/MI350', arch: 'gfx950', choices: [
		{ d: '0', n: 'per_cycle', args: ['-d', '0'] },
		{ d: '1-2', n: 'per_second', args: ['-d', '1,2'] },
		{ n: 'per_wave' },
	] },
	{ dir: 'mixbench/mi200', arch: 'gfx90a', gpus: true, choices: [
		{ k: [K('int', 512), K('double', 512)], n: 'per_kernel' },
		{ k: [K('int', 512), K('double', 512), K('float', 512)],
		    n: 'per_wave' },
		{ k: [K('short', 0), K('__half2', 256), K('double', 128)],
		    n: 'per_second' },
		{ d: '0-9', n: 'per_cycle', args: ['-d', range(0, 9)] },
		{ d: '> 150', n: 'per_kernel', args: ['-d', range(151, 166)] },
		{ d: '5, 20-25, 100', n: 'per_wave', args: ['-d',
		    '5,20,21,22,23,24,25,100'] },
		{ g: ['1'], n: 'per_kernel', args: ['-g', '1'] },
		{ g: ['0'], n: 'per_second', args: ['-g', '0'] },
		{ g: ['0'], d: '0,2,4', n: 'per_wave', args: ['-g', '0', '-d',
		    '0,2,4'] },
		{ g: ['1'], d: '1 3,5, 7,9', n: 'per_cycle', args: ['-g', '1',
		    '-d', '1,3,5,7,9'] },
		{ k: [K('float', 256)], n: 'per_second' },
		{ d: '0-166', n: 'per_kernel', args: ['-d', range(0, 166)] },
		{ n: 'per_cycle' },
	] },
];

/* The redraws so far (filters.js counts them on its root). */
export const changes = (pg) => pg.$eval('.filters-view', (e) =>
    Number(e.dataset.changes ?? 0));

/* Runs act() and waits for the redraw it causes. */
export async function redrawn(pg, act) {
	const before = await changes(pg);
	await act();
	await pg.waitForFunction((b) => Number(document.querySelector(
	    '.filters-view').dataset.changes) > b, before);
}

export async function ready(pg, hash) {
	/* The first load writes its choice into the URL when it is ready:
	 * let it, before the URL is set. */
	await pg.waitForSelector('.filters-view[data-ready]');
	const url = pg.url().replace(/#.*$/, '');
	await pg.goto(url + '#' + hash);
	await pg.reload();
	await pg.waitForSelector('.filters-view[data-ready]');
}

/* Sets the controls that differ from the current choice cur. */
export async function choose(pg, cur, c) {
	const same = (a, b) => JSON.stringify(a ?? []) === JSON.stringify(b ??
	    []);
	if (!same(cur.g, c.g))
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=filter-gpu]', c.g ?? []));
	if (!same(cur.k, c.k))
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=filter-kernel]', (c.k ?? []).map((label) =>
		    ({ label }))));
	if ((cur.d ?? '') !== (c.d ?? ''))
		await redrawn(pg, async () => {
			await pg.fill('[data-testid=filter-dispatch]', c.d ?? '');
			await pg.press('[data-testid=filter-dispatch]', 'Enter');
		});
	if (cur.n !== c.n)
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=normalization]', { label: c.n }));
}

/*
 * Compares every cell of recs with window.profpipe.cell(); returns the
 * number compared and the first differences.
 */
export function compare(pg, recs) {
	return pg.evaluate((recs) => {
		const names = new Set(['metric_id', 'panel_id', 'panel',
		    'table_id', 'table', 'metric', 'normalization', 'run',
		    'Description']);
		const out = [];
		let n = 0;
		const count = new Map();
		for (const r of recs) {
			count.set(r.table_id, (count.get(r.table_id) ?? 0) + 1);
			for (const [k, e0] of Object.entries(r)) {
				if (names.has(k))
					continue;
				const got = window.profpipe.cell(r.table_id,
				    r.metric_id, k);
				const e = e0 === 'inf' ? Infinity : e0 === '-inf' ?
				    -Infinity : e0;
				n++;
				const ok = typeof e === 'number' &&
				    typeof got === 'number' ? e === got ||
				    Math.abs(e - got) <= 1e-9 *
				    Math.max(Math.abs(e), Math.abs(got)) :
				    e === got;
				if (!ok)
					out.push([r.metric_id, r.metric, k, e0, got]);
			}
		}
		/* No row the records lack (Top Kernels, Dispatch List). */
		for (const t of ['0.1', '0.2', '4.1'])
			if (window.profpipe.cell(t, `${t}.${count.get(t) ?? 0}`,
			    'metric') !== null || window.profpipe.cell(t,
			    `${t}.${count.get(t) ?? 0}`, 'Metric') !== null)
				out.push([t, 'a row beyond the records']);
		return { n, bad: out.slice(0, 10), nbad: out.length };
	}, recs);
}

export const parse = (s) => s.split('\n').filter((l) => l)
    .map((l) => JSON.parse(l));

/* The page of workload w and a test of its choices (some of them). */
export function workloadTests(w, choices = w.choices) {
	const base = w.dir.replace('/', '-') + '-' + choices.length;
	const nd = tmpPath(base + '.ndjson');
	const page = tmpPath(base + '.html');
	const cfg = join(configs, w.arch);
	test(`${w.dir}: the page is written`, () => {
		let d = runProg('pmc2ndjson',
		    [fixture('rocprof-compute/' + w.dir)]);
		if (w.gpus)
			d = twoGpus(d);
		writeFileSync(nd, d);
		const m = runProg('metric-eval', ['-c', cfg,
		    '--interactive', nd]);
		runProg('chart2html', ['-o', page], { input: m });
	});
	pageTest(`${w.dir}: ${choices.length} choices equal ` +
	    'metric-eval with the same filters', page, async (pg) => {
		await ready(pg, 'topn=0');
		let cur = { n: 'per_kernel' };
		for (const c of choices) {
			await choose(pg, cur, c);
			cur = c;
			const want = parse(runProg('metric-eval', ['-c',
			    cfg, '-n', c.n, ...(c.args ?? []),
			    ...(c.k ?? []).flatMap((k) => ['-k', k]), nd]))
			    .filter((r) => r.metric_id);
			const r = await compare(pg, want);
			const what = JSON.stringify(c);
			assert.ok(r.n > 1000, `${what}: ${r.n} cells`);
			assert.deepEqual(r.bad, [], `${what}: ${r.nbad} ` +
			    'cells differ');
		}
	});
}

export function skipAll(what) {
	test(`${what} (pmc2ndjson, metric-eval not built)`, { skip: true },
	    () => {});
}

/*
 * chart2html-filters.test.mjs: the filters of a page made from
 * 'metric-eval --interactive' (dispatches, kernels, GPUs, normalization,
 * Top-N).  For each choice, made with the page's controls, every cell
 * window.profpipe.cell() gives equals, to 1e-9 relative (blanks and
 * infinities included), the record metric-eval writes when run with the
 * same filters (-d, -k, -g, -n): metric-eval is the reference, run here
 * for each choice.  The four configs and the six shared workloads; the
 * multi-GPU workload is mixbench/mi200 with GPU_ID set to the dispatch's
 * position modulo 2 (no shared workload has two GPUs).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { binDir, fixture, openFile, pageTest, runProg, tmpPath, top }
    from './lib.mjs';

const have = ['pmc2ndjson', 'metric-eval', 'chart2html']
    .every((p) => existsSync(join(binDir, p)));
const configs = resolve(top, '..', 'shared', 'reference',
    'rocprof-compute-configs');
const K = (t, n) => `void benchmark_func<${t}, 256, 8u, ${n}u>(${t}, ` +
    `${t}*) [clone .kd]`;

/* Dispatch records with GPU_ID = position % 2. */
function twoGpus(nd) {
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
const workloads = [
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
		{ g: ['1'], d: '1-9', n: 'per_cycle', args: ['-g', '1', '-d',
		    '1,3,5,7,9'] },
		{ k: [K('float', 256)], n: 'per_second' },
		{ d: '0-166', n: 'per_kernel', args: ['-d', range(0, 166)] },
		{ n: 'per_cycle' },
	] },
];

/* The redraws so far (filters.js counts them on its root). */
const changes = (pg) => pg.$eval('.filters-view', (e) =>
    Number(e.dataset.changes ?? 0));

/* Runs act() and waits for the redraw it causes. */
async function redrawn(pg, act) {
	const before = await changes(pg);
	await act();
	await pg.waitForFunction((b) => Number(document.querySelector(
	    '.filters-view').dataset.changes) > b, before);
}

async function ready(pg, hash) {
	const url = pg.url().replace(/#.*$/, '');
	await pg.goto(url + '#' + hash);
	await pg.reload();
	await pg.waitForSelector('.filters-view[data-ready]');
}

/* Sets the controls that differ from the current choice cur. */
async function choose(pg, cur, c) {
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
function compare(pg, recs) {
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

const parse = (s) => s.split('\n').filter((l) => l)
    .map((l) => JSON.parse(l));

if (!have) {
	test('filters (pmc2ndjson, metric-eval not built)', { skip: true },
	    () => {});
} else {
	for (const w of workloads) {
		const base = w.dir.replace('/', '-');
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
		pageTest(`${w.dir}: ${w.choices.length} choices equal ` +
		    'metric-eval with the same filters', page, async (pg) => {
			await ready(pg, 'topn=0');
			let cur = { n: 'per_kernel' };
			for (const c of w.choices) {
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

	const mix = tmpPath('mixbench-mi200.html');
	const mixNd = tmpPath('mixbench-mi200.ndjson');
	const cfg = join(configs, 'gfx90a');

	pageTest('a dispatch filter that does not parse: the field says why, ' +
	    'the page keeps its state', mix, async (pg) => {
		await ready(pg, 'topn=0&dispatch=3-5');
		const before = await pg.evaluate(() =>
		    window.profpipe.cell('2.1', 'VALU FLOPs', 'Avg'));
		const hash = await pg.evaluate(() => location.hash);
		const n = await changes(pg);
		await pg.fill('[data-testid=filter-dispatch]', '3-x');
		await pg.press('[data-testid=filter-dispatch]', 'Enter');
		assert.match(await pg.textContent(
		    '[data-testid=filter-dispatch-error]'), /'3-x' is not a /);
		await pg.fill('[data-testid=filter-dispatch]', '9-2');
		await pg.press('[data-testid=filter-dispatch]', 'Enter');
		assert.match(await pg.textContent(
		    '[data-testid=filter-dispatch-error]'), /range goes up/);
		assert.equal(await changes(pg), n);
		assert.equal(await pg.evaluate(() => location.hash), hash);
		assert.equal(await pg.evaluate(() =>
		    window.profpipe.cell('2.1', 'VALU FLOPs', 'Avg')), before);
		const want = parse(runProg('metric-eval', ['-c', cfg, '-b',
		    '2.1', '-d', '3,4,5', mixNd]));
		assert.equal(before, want[0].Avg);
		/* A good one clears the message. */
		await redrawn(pg, async () => {
			await pg.fill('[data-testid=filter-dispatch]', '4');
			await pg.press('[data-testid=filter-dispatch]', 'Enter');
		});
		assert.equal(await pg.textContent(
		    '[data-testid=filter-dispatch-error]'), '');
	});

	pageTest('a filter that selects nothing: every table says so',
	    mix, async (pg) => {
		await ready(pg, 'topn=0');
		await redrawn(pg, async () => {
			await pg.fill('[data-testid=filter-dispatch]', '> 1000');
			await pg.press('[data-testid=filter-dispatch]', 'Enter');
		});
		const tables = parse(runProg('metric-eval', ['-c', cfg,
		    mixNd])).filter((r) => r.metric_id)
		    .map((r) => r.table_id);
		const ids = [...new Set(tables)];
		const empty = await pg.$$eval('[data-testid^=empty-]', (es) =>
		    es.map((e) => [e.dataset.testid.slice(6),
		    e.querySelector('p').textContent]));
		assert.deepEqual(empty.map((e) => e[0]), ids);
		for (const e of empty)
			assert.equal(e[1], 'no dispatch selected');
		assert.equal(await pg.locator('[data-testid^=table-]').count(),
		    0);
		assert.equal(await pg.evaluate(() =>
		    window.profpipe.cell('2.1', 'VALU FLOPs', 'Avg')), null);
		assert.match(await pg.textContent('[data-testid=filter-status]'),
		    /^0 of 167 dispatches/);
	});

	pageTest('the URL keeps the choice: a link reopens it', mix,
	    async (pg) => {
		await ready(pg, 'topn=3');
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=filter-gpu]', ['1']));
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=filter-kernel]', [{ label: K('int', 512) },
		    { label: K('float', 512) }]));
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=normalization]', { label: 'per_wave' }));
		const cellNow = () => pg.evaluate(() =>
		    window.profpipe.cell('7.1', 'Total Wavefronts', 'Avg'));
		const v = await cellNow();
		const url = pg.url();
		const { page: p2 } = await openFile(mix);
		await p2.goto(url);
		await p2.waitForSelector('.filters-view[data-ready]');
		assert.equal(await p2.evaluate(() =>
		    window.profpipe.cell('7.1', 'Total Wavefronts', 'Avg')), v);
		assert.deepEqual(await p2.$eval('[data-testid=filter-gpu]',
		    (s) => [...s.selectedOptions].map((o) => o.value)), ['1']);
		assert.deepEqual((await p2.$eval('[data-testid=filter-kernel]',
		    (s) => [...s.selectedOptions].map((o) => o.textContent)))
		    .sort(), [K('float', 512), K('int', 512)].sort());
		assert.equal(await p2.$eval('[data-testid=normalization]',
		    (s) => s.selectedOptions[0].textContent), 'per_wave');
		assert.equal(await p2.inputValue('[data-testid=topn]'), '3');
		await p2.close();
		const want = parse(runProg('metric-eval', ['-c', cfg, '-b',
		    '7.1', '-g', '1', '-k', K('int', 512), '-k', K('float', 512),
		    '-n', 'per_wave', mixNd])).find((r) =>
		    r.metric === 'Total Wavefronts');
		assert.equal(v, want.Avg);
	});

	pageTest('Top-N limits Top Kernels; the kernel list is in its order ' +
	    'and filters by text', mix, async (pg) => {
		await ready(pg, 'topn=10');
		const top = parse(runProg('metric-eval', ['-c', cfg, '-b', '0.1',
		    mixNd]));
		const opts = await pg.$$eval('[data-testid=filter-kernel] option',
		    (os) => os.map((o) => o.textContent));
		assert.deepEqual(opts, top.map((r) => r.metric));
		assert.notEqual(await pg.evaluate(() =>
		    window.profpipe.cell('0.1', '0.1.9', 'Count')), null);
		assert.equal(await pg.evaluate(() =>
		    window.profpipe.cell('0.1', '0.1.10', 'Count')), null);
		await redrawn(pg, async () => {
			await pg.fill('[data-testid=topn]', '2');
			await pg.press('[data-testid=topn]', 'Enter');
		});
		assert.equal(await pg.evaluate(() =>
		    window.profpipe.cell('0.1', '0.1.1', 'Sum(ns)')),
		    top[1]['Sum(ns)']);
		assert.equal(await pg.evaluate(() =>
		    window.profpipe.cell('0.1', '0.1.2', 'Count')), null);
		await pg.fill('[data-testid=filter-kernel-search]', 'HALF2');
		const shown = await pg.$$eval('[data-testid=filter-kernel] option',
		    (os) => os.filter((o) => !o.hidden).map((o) => o.textContent));
		assert.ok(shown.length > 0);
		assert.ok(shown.every((s) => s.includes('__half2')), shown[0]);
	});

	const names = ['<img src=x onerror="window.pwned=1">k\u2028x',
	    'a "quote" ' + "and 'single'", 'end</script><b>bold</b>'];
	const hostile = tmpPath('hostile.html');
	test('a page of kernel names with markup is written', () => {
		let i = 0;
		const d = runProg('pmc2ndjson',
		    [fixture('rocprof-compute/vcopy/MI200')]).split('\n')
		    .map((l) => {
			if (!l.includes('"type":"dispatch"'))
				return l;
			const r = JSON.parse(l);
			r.Kernel_Name = names[i++ % names.length];
			return JSON.stringify(r);
		}).join('\n');
		const m = runProg('metric-eval', ['-c', cfg, '--interactive'],
		    { input: d });
		runProg('chart2html', ['-o', hostile], { input: m });
	});
	pageTest('kernel names with markup, quotes, </script> and U+2028 ' +
	    'stay text', hostile, async (pg) => {
		await ready(pg, 'topn=0');
		const opts = await pg.$$eval('[data-testid=filter-kernel] option',
		    (os) => os.map((o) => [o.textContent, o.title]));
		assert.deepEqual(opts.map((o) => o[0]).sort(),
		    [...names].sort());
		for (const [t, title] of opts)
			assert.equal(title, t);
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=filter-kernel]', [{ label: names[2] }]));
		assert.equal(await pg.evaluate(() => window.pwned), undefined);
		assert.equal(await pg.locator('img, b').count(), 0);
		assert.equal(await pg.evaluate(() =>
		    window.profpipe.cell('0.1', '0.1.0', 'Metric') ??
		    window.profpipe.cell('0.1', '0.1.0', 'metric')), names[2]);
		assert.ok(decodeURIComponent(pg.url()).includes('</script>'));
	});

	test('the pages exist for the tests above', () => {
		assert.ok(existsSync(mix) && existsSync(hostile));
		assert.ok(pathToFileURL(mix).href.startsWith('file:'));
	});
}

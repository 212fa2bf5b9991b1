/*
 * chart2html-filters-controls.test.mjs: how the filters of an
 * --interactive page behave (mixbench/mi200, gfx90a, two GPUs): a
 * dispatch field that does not parse, a choice that selects nothing, a
 * dispatch list metric-eval refuses with the other filters, the
 * URL that reopens a choice (and a new fragment in the open page), Top-N and the kernel list's order and text
 * filter, and kernel names that are markup.  Values are checked against
 * metric-eval run with the same filters.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { K, changes, configs, fixture, have, openFile, pageTest, parse,
    ready, redrawn, runProg, skipAll, tmpPath, twoGpus } from
    './filters.mjs';
import { binDir } from './lib.mjs';

if (!have) {
	skipAll('filter controls');
} else {
	const mix = tmpPath('mixbench-mi200.html');
	const mixNd = tmpPath('mixbench-mi200.ndjson');
	const cfg = join(configs, 'gfx90a');
	test('the two-GPU mixbench page is written', () => {
		writeFileSync(mixNd, twoGpus(runProg('pmc2ndjson',
		    [fixture('rocprof-compute/mixbench/mi200')])));
		runProg('chart2html', ['-o', mix], { input: runProg(
		    'metric-eval', ['-c', cfg, '--interactive', mixNd]) });
	});

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
		    '[data-testid=filter-gpu]', ['0']));
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=filter-kernel]', [{ label: K('int', 512) },
		    { label: K('float', 512) }]));
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=normalization]', { label: 'per_wave' }));
		const cellNow = () => pg.evaluate(() =>
		    window.profpipe.cell('7.1', 'Total Wavefronts', 'Avg'));
		const v = await cellNow();
		assert.equal(typeof v, 'number');
		const url = pg.url();
		const { page: p2 } = await openFile(mix);
		await p2.waitForSelector('.filters-view[data-ready]');
		await p2.goto(url);
		await p2.reload();
		await p2.waitForSelector('.filters-view[data-ready]');
		assert.equal(await p2.evaluate(() =>
		    window.profpipe.cell('7.1', 'Total Wavefronts', 'Avg')), v);
		assert.deepEqual(await p2.$eval('[data-testid=filter-gpu]',
		    (s) => [...s.selectedOptions].map((o) => o.value)), ['0']);
		assert.deepEqual((await p2.$eval('[data-testid=filter-kernel]',
		    (s) => [...s.selectedOptions].map((o) => o.textContent)))
		    .sort(), [K('float', 512), K('int', 512)].sort());
		assert.equal(await p2.$eval('[data-testid=normalization]',
		    (s) => s.selectedOptions[0].textContent), 'per_wave');
		assert.equal(await p2.inputValue('[data-testid=topn]'), '3');
		await p2.close();
		const want = parse(runProg('metric-eval', ['-c', cfg, '-b',
		    '7.1', '-g', '0', '-k', K('int', 512), '-k', K('float', 512),
		    '-n', 'per_wave', mixNd])).find((r) =>
		    r.metric === 'Total Wavefronts');
		assert.equal(v, want.Avg);
	});

	pageTest('a new URL fragment in the open page applies its choice, ' +
	    'without a reload', mix, async (pg) => {
		await ready(pg, 'topn=0');
		await pg.evaluate(() => { window.notReloaded = true; });
		const q = new URLSearchParams();
		q.append('k', K('int', 512));
		q.append('k', K('double', 512));
		q.set('g', '0');
		q.set('normalization', 'per_wave');
		q.set('topn', '5');
		await redrawn(pg, () => pg.evaluate((h) => {
			location.hash = h;
		}, q.toString()));
		assert.equal(await pg.evaluate(() => window.notReloaded), true);
		assert.deepEqual((await pg.$eval('[data-testid=filter-kernel]',
		    (s) => [...s.selectedOptions].map((o) => o.textContent)))
		    .sort(), [K('double', 512), K('int', 512)].sort());
		assert.deepEqual(await pg.$eval('[data-testid=filter-gpu]',
		    (s) => [...s.selectedOptions].map((o) => o.value)), ['0']);
		assert.equal(await pg.$eval('[data-testid=normalization]',
		    (s) => s.selectedOptions[0].textContent), 'per_wave');
		assert.equal(await pg.inputValue('[data-testid=topn]'), '5');
		const want = parse(runProg('metric-eval', ['-c', cfg, '-b',
		    '7.1', '-g', '0', '-k', K('int', 512), '-k',
		    K('double', 512), '-n', 'per_wave', mixNd])).find((r) =>
		    r.metric === 'Total Wavefronts');
		assert.equal(await pg.evaluate(() => window.profpipe.cell('7.1',
		    'Total Wavefronts', 'Avg')), want.Avg);
		/* Then a dispatch list alone: the kernels and the GPU go. */
		await redrawn(pg, () => pg.evaluate(() => {
			location.hash = 'dispatch=3-5&normalization=per_kernel';
		}));
		assert.equal(await pg.inputValue('[data-testid=filter-dispatch]'),
		    '3-5');
		assert.equal(await pg.$eval('[data-testid=filter-kernel]',
		    (s) => s.selectedOptions.length), 0);
		const d = parse(runProg('metric-eval', ['-c', cfg, '-b', '2.1',
		    '-d', '3,4,5', mixNd]));
		assert.equal(await pg.evaluate(() =>
		    window.profpipe.cell('2.1', 'VALU FLOPs', 'Avg')), d[0].Avg);
		assert.equal(await pg.evaluate(() => window.notReloaded), true);
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

	/* metric-eval's one-line refusal (exit 1) of these filters. */
	const refusal = (args) => {
		const r = spawnSync(join(binDir, 'metric-eval'), ['-c', cfg,
		    ...args, mixNd], { encoding: 'utf8' });
		assert.equal(r.status, 1, `metric-eval ${args.join(' ')}`);
		const last = r.stderr.trim().split('\n').pop();
		assert.match(last, /^metric-eval: --dispatch /);
		return last.replace(/^metric-eval: /, '');
	};
	const refused = async (pg, why) => {
		assert.equal(await pg.textContent('[data-testid=filter-status]'),
		    'not evaluated: ' + why);
		const notes = await pg.$$eval('[data-testid^=empty-] p', (es) =>
		    es.map((e) => e.textContent));
		assert.ok(notes.length > 10, `${notes.length} tables`);
		for (const t of notes)
			assert.equal(t, 'not evaluated: ' + why);
		assert.equal(await pg.evaluate(() =>
		    window.profpipe.cell('2.1', 'VALU FLOPs', 'Avg')), null);
		assert.equal(await pg.locator('[data-testid^=table-]').count(),
		    0);
	};
	const setDispatch = (pg, text) => redrawn(pg, async () => {
		await pg.fill('[data-testid=filter-dispatch]', text);
		await pg.press('[data-testid=filter-dispatch]', 'Enter');
	});

	pageTest('the dispatch field with other filters: positions as ' +
	    'metric-eval -d takes them, refused as it refuses them', mix,
	    async (pg) => {
		await ready(pg, 'topn=0');
		/* GPU 1 has the odd positions: 2 is not among them. */
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=filter-gpu]', ['1']));
		await setDispatch(pg, '1-3');
		await refused(pg, refusal(['-g', '1', '-d', '1,2,3']));
		/* GPU 0 keeps 84 dispatches: position 84 is one of them, but
		 * not below 84; 82 is. */
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=filter-gpu]', ['0']));
		await setDispatch(pg, '84');
		await refused(pg, refusal(['-g', '0', '-d', '84']));
		await setDispatch(pg, '82, 2');
		const want = parse(runProg('metric-eval', ['-c', cfg, '-b',
		    '2.1', '-g', '0', '-d', '82,2', mixNd]));
		assert.equal(await pg.evaluate(() =>
		    window.profpipe.cell('2.1', 'VALU FLOPs', 'Avg')),
		    want[0].Avg);
		assert.equal(await pg.textContent(
		    '[data-testid=filter-status]'), '2 of 167 dispatches');
		/* Two kernels leave two dispatches: the larger one's position is
		 * not below 2, and > n lists it too. */
		const pos = new Map();
		readFileSync(mixNd, 'utf8').split('\n').filter((l) =>
		    l.includes('"type":"dispatch"')).forEach((l, i) =>
		    pos.set(JSON.parse(l).Kernel_Name, i));
		const ks = [K('int', 512), K('double', 512)];
		const far = Math.max(...ks.map((k) => pos.get(k)));
		assert.ok(far >= 2);
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=filter-gpu]', []));
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=filter-kernel]', ks.map((label) =>
		    ({ label }))));
		await setDispatch(pg, String(far));
		await refused(pg, refusal([...ks.flatMap((k) => ['-k', k]), '-d',
		    String(far)]));
		/* > 0: both positions, the smaller refused first. */
		await setDispatch(pg, '> 0');
		await refused(pg, refusal([...ks.flatMap((k) => ['-k', k]), '-d',
		    ks.map((k) => pos.get(k)).sort((x, y) => x - y).join(',')]));
	});

	const names = ['<img src=x onerror="window.pwned=1">k\u2028x',
	    'a "quote" ' + "and 'single'", 'end</script><b>bold</b>'];
	const hostile = tmpPath('hostile.html');
	/* mixbench's 167 dispatches as three kernels (and GPUs) of these
	 * names: kernels with FLOPs, so the roofline has points. */
	test('a page of kernel names with markup is written', () => {
		let i = 0;
		const d = runProg('pmc2ndjson',
		    [fixture('rocprof-compute/mixbench/mi200')]).split('\n')
		    .map((l) => {
			if (!l.includes('"type":"dispatch"'))
				return l;
			const r = JSON.parse(l);
			r.Kernel_Name = names[i % names.length];
			r.GPU_ID = names[i++ % names.length];
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
		/* The GPU list, the status, the tables, the roofline's points
		 * and legend, and the tooltips, all as text. */
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=filter-kernel]', []));
		assert.deepEqual((await pg.$$eval('[data-testid=filter-gpu] ' +
		    'option', (os) => os.map((o) => o.textContent))).sort(),
		    [...names].sort());
		await redrawn(pg, () => pg.selectOption(
		    '[data-testid=filter-gpu]', [names[0]]));
		assert.equal(await pg.evaluate(() =>
		    window.profpipe.cell('0.2', '0.2.0', 'GPU_ID')), names[0]);
		await pg.waitForFunction(() => document.querySelector(
		    '.filtered .metrics')?.dataset.pending === undefined);
		const pts = await pg.$$eval('[data-testid=roof-point]', (es) =>
		    es.map((e) => [e.dataset.kernel, e.getAttribute('data-tip')
		    .split('\n')[0]]));
		assert.ok(pts.length > 0);
		for (const [k, tip] of pts) {
			assert.equal(k, names[0]);
			assert.equal(tip, names[0]);
		}
		const cell = pg.locator('[data-testid="table-0.1"] td', {
		    hasText: 'onerror' }).first();
		await cell.scrollIntoViewIfNeeded();
		await cell.hover();
		await pg.waitForSelector('#tooltip:not([hidden])');
		assert.ok((await pg.textContent('#tooltip')).includes(names[0]));
		/* Points may cover each other: the event goes to one. */
		const pt = pg.locator('[data-testid=roof-point]').first();
		await pt.dispatchEvent('mouseover', { bubbles: true });
		const tt = await pg.textContent('#tooltip');
		assert.ok(tt.startsWith(names[0]), tt);
		assert.equal(await pg.$eval('#tooltip', (e) =>
		    e.children.length), 0);
		assert.equal(await pg.evaluate(() => window.pwned), undefined);
		assert.equal(await pg.locator('img, b').count(), 0);
	});
}

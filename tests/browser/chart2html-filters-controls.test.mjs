/*
 * chart2html-filters-controls.test.mjs: how the filters of an
 * --interactive page behave (mixbench/mi200, gfx90a, two GPUs): a
 * dispatch field that does not parse, a choice that selects nothing, the
 * URL that reopens a choice, Top-N and the kernel list's order and text
 * filter, and kernel names that are markup.  Values are checked against
 * metric-eval run with the same filters.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { K, changes, configs, fixture, have, openFile, pageTest, parse,
    ready, redrawn, runProg, skipAll, tmpPath, twoGpus } from
    './filters.mjs';

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
}

/*
 * chart2html-filters-charts.test.mjs: what the memory chart and the
 * roofline of an --interactive page draw for a choice of filters equals
 * metric-eval's records for the same filters (-d, -k, -g, -n), to 1e-9
 * relative.  The memory chart: each value placed on the SVG (its
 * data-value, and N/A where blank) against the Value of table 3.1's row
 * of that name.  The roofline: the markers drawn (kernel, level and the
 * intensity and rate their tooltips give) against table 4.1's records,
 * where a point is drawn for each level whose intensity and rate are
 * above 0.  mixbench/mi200 (gfx90a, two GPUs: the only fixture whose
 * kernels have FLOPs) and path/MI300X_A1 (gfx942, memory chart only).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { K, choose, configs, fixture, have, pageTest, parse, ready,
    runProg, skipAll, tmpPath, twoGpus } from './filters.mjs';

/* Is a within 1e-9 of b, relative (equal infinities included)? */
const close = (a, b) => a === b || Math.abs(a - b) <= 1e-9 *
    Math.max(Math.abs(a), Math.abs(b));

const num = (v) => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity :
    v);

/* Waits until every part of the view is drawn. */
const settled = (pg) => pg.waitForFunction(() => {
	const m = document.querySelector('.filtered .metrics');
	return m !== null && m.dataset.pending === undefined;
});

/* The memory chart's values as drawn: [metric, data-value, text]. */
const memchart = (pg) => pg.$$eval('[data-testid=memchart] ' +
    '[data-testid=mc-value]', (es) => es.map((e) => [e.dataset.metric,
    e.dataset.value, e.textContent]));

/* The roofline's markers: [kernel, level, AI, rate] from the tooltip. */
const points = (pg) => pg.$$eval('[data-testid=roofline] ' +
    '[data-testid=roof-point]', (es) => es.map((e) => {
	const m = /\n(\w+): AI (\S+) FLOP\/byte, (\S+) G/.exec(
	    e.getAttribute('data-tip'));
	return [e.dataset.kernel, e.dataset.level, m && m[1],
	    m && Number(m[2]), m && Number(m[3])];
}));

function checkMemchart(drawn, recs, what) {
	const byName = new Map(recs.filter((r) => r.table_id === '3.1')
	    .map((r) => [r.metric, r]));
	assert.ok(drawn.length >= 50, `${what}: ${drawn.length} values`);
	let numbers = 0;
	for (const [metric, dv, text] of drawn) {
		const r = byName.get(metric);
		assert.ok(r !== undefined, `${what}: ${metric} not in 3.1`);
		const want = r.Value === null ? null : num(r.Value);
		if (want === null || typeof want !== 'number') {
			assert.equal(dv, '', `${what}: ${metric}`);
			assert.equal(text, 'N/A', `${what}: ${metric}`);
			continue;
		}
		numbers++;
		const got = Number(dv === 'Infinity' ? Infinity : dv);
		assert.ok(close(got, want), `${what}: ${metric}: drawn ${dv}, ` +
		    `metric-eval ${r.Value}`);
		assert.notEqual(text, 'N/A', `${what}: ${metric}`);
	}
	assert.ok(numbers >= 20, `${what}: ${numbers} numbers drawn`);
}

function checkRoofline(drawn, recs, what) {
	const want = [];
	for (const r of recs.filter((x) => x.table_id === '4.1')) {
		const perf = num(r['GFLOP/s']);
		for (const l of ['HBM', 'L2', 'L1', 'LDS']) {
			const ai = num(r['AI ' + l]);
			if (ai > 0 && perf > 0 && isFinite(ai) && isFinite(perf))
				want.push([r.metric, l, l, ai, perf]);
		}
	}
	const key = (p) => p[0] + '\u0000' + p[1];
	const sort = (a) => [...a].sort((x, y) => key(x) < key(y) ? -1 :
	    key(x) > key(y) ? 1 : 0);
	const got = sort(drawn), exp = sort(want);
	assert.deepEqual(got.map(key), exp.map(key), `${what}: the points`);
	got.forEach((p, i) => {
		const e = exp[i];
		assert.equal(p[2], e[2], `${what}: ${key(p)}: tooltip level`);
		assert.ok(close(p[3], e[3]) && close(p[4], e[4]),
		    `${what}: ${key(p)}: drawn (${p[3]}, ${p[4]}), ` +
		    `metric-eval (${e[3]}, ${e[4]})`);
	});
	return want.length;
}

function chartTests(name, dirs, arch, gpus, choices, roof) {
	const nd = tmpPath(name + '.ndjson');
	const page = tmpPath(name + '.html');
	const cfg = join(configs, arch);
	test(`${name}: the page is written`, () => {
		let d = runProg('pmc2ndjson', [fixture('rocprof-compute/' +
		    dirs)]);
		if (gpus)
			d = twoGpus(d);
		writeFileSync(nd, d);
		runProg('chart2html', ['-o', page], { input: runProg(
		    'metric-eval', ['-c', cfg, '--interactive', nd]) });
	});
	pageTest(`${name}: the memory chart${roof ? ' and the roofline ' +
	    'points' : ''} of ${choices.length} choices equal metric-eval's`,
	    page, async (pg) => {
		await ready(pg, 'topn=0');
		let cur = { n: 'per_kernel' }, npoints = 0;
		for (const c of choices) {
			await choose(pg, cur, c);
			cur = c;
			await settled(pg);
			const recs = parse(runProg('metric-eval', ['-c', cfg,
			    '-n', c.n, ...(c.args ?? []),
			    ...(c.k ?? []).flatMap((k) => ['-k', k]), nd]));
			const what = JSON.stringify(c);
			checkMemchart(await memchart(pg), recs, what);
			if (roof)
				npoints += checkRoofline(await points(pg), recs,
				    what);
		}
		if (roof)
			assert.ok(npoints >= 3 * choices.length,
			    `${npoints} roofline points compared`);
	});
}

if (!have) {
	skipAll('filters: memory chart and roofline');
} else {
	chartTests('mixbench-charts', 'mixbench/mi200', 'gfx90a', true, [
		{ k: [K('float', 512), K('double', 512)], n: 'per_kernel' },
		{ k: [K('__half2', 512), K('double', 256), K('float', 128)],
		    n: 'per_wave' },
		{ d: '0-40', n: 'per_cycle', args: ['-d',
		    Array.from({ length: 41 }, (_, i) => i).join(',')] },
		{ d: '> 120', n: 'per_second', args: ['-d',
		    Array.from({ length: 46 }, (_, i) => 121 + i).join(',')] },
		{ g: ['1'], n: 'per_kernel', args: ['-g', '1'] },
		{ g: ['0'], k: [K('float', 512), K('__half2', 512),
		    K('double', 512)], n: 'per_second', args: ['-g', '0'] },
		{ n: 'per_wave' },
	], true);
	chartTests('path-mi300x-charts', 'path/MI300X_A1', 'gfx942', false, [
		{ n: 'per_wave' },
		{ d: '1-2', n: 'per_cycle', args: ['-d', '1,2'] },
		{ d: '0', n: 'per_second', args: ['-d', '0'] },
	], false);
}

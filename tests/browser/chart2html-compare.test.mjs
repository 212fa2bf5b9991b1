/*
 * chart2html-compare.test.mjs: comparison pages of recdiff records, read
 * as a user would.  The inputs are the recdiff golden case's hand-made
 * metric records (tests/cases/recdiff/0001-metric-keys) and the real
 * vcopy/MI200 against mixbench/mi200 pipeline; expected numbers are
 * worked out by hand from those inputs and from the parity note's worked
 * examples (../shared/notes/rocprof-compute-parity.md 3.10).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync }
    from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { binDir, cell, fixture, pageTest, runProg, tmpPath, top } from
    './lib.mjs';

const have = ['recdiff', 'chart2html', 'pmc2ndjson', 'metric-eval',
    'topn', 'migx2ndjson'].every((p) => existsSync(join(binDir, p)));
const cases = resolve(top, 'tests', 'cases', 'recdiff', '0001-metric-keys');
const configs = resolve(top, '..', 'shared', 'reference',
    'rocprof-compute-configs');

async function cellBg(pg, table, row, col) {
	return pg.$eval(`[data-testid="table-${table}"]`, (t, [r, c]) => {
		const j = [...t.querySelectorAll('th')].map((th) =>
		    th.textContent).indexOf(c);
		for (const tr of t.querySelectorAll('tbody tr[data-row]'))
			if (tr.cells[0].textContent === r)
				return tr.cells[j].style.background;
		return '(no row)';
	}, [row, col]);
}

const firstCells = (pg, table) => pg.$$eval(
    `[data-testid="table-${table}"] tbody tr[data-row]`,
    (trs) => trs.map((tr) => tr.cells[0].textContent));

if (!have) {
	test('comparison pages (programs not built)', { skip: true }, () => {});
} else {
	const small = tmpPath('compare-small.html');
	const three = tmpPath('compare-three.html');
	const mi200 = tmpPath('compare-mi200.html');
	const runsPage = tmpPath('stats-runs.html');
	const migx = tmpPath('compare-migx.html');
	const metricRuns = tmpPath('metric-runs.html');
	test('the comparison pipelines write their pages', () => {
		const d = runProg('recdiff', ['a.nd', 'b.nd'], { cwd: cases });
		runProg('chart2html', ['-o', small], { input: d });
		/* One stream of three runs: b and c against a. */
		const label = (run, f) => readFileSync(join(cases, f), 'utf8')
		    .replace(/^\{/gm, `{"run":"${run}",`);
		const s3 = tmpPath('three.nd');
		writeFileSync(s3, label('a', 'a.nd') + label('b', 'b.nd') +
		    label('c', 'b.nd').replace(/"Avg":12.5/, '"Avg":15'));
		runProg('chart2html', ['-o', three],
		    { input: runProg('recdiff', [s3]) });
		/* vcopy/MI200 against mixbench/mi200 (adapted sysinfo). */
		const t = mkdtempSync(join(tmpdir(), 'mix-'));
		cpSync(fixture('rocprof-compute/mixbench/mi200'), t,
		    { recursive: true });
		cpSync(fixture('rocprof-compute/adapted/' +
		    'mixbench_mi200_sysinfo.csv'), join(t, 'sysinfo.csv'));
		const ev = (dir) => runProg('metric-eval', ['-c', configs,
		    '-b', '2.1'], { input: runProg('pmc2ndjson', [dir]) });
		const a = tmpPath('vcopy.m'), b = tmpPath('mix.m');
		writeFileSync(a, ev(fixture('rocprof-compute/vcopy/MI200')));
		writeFileSync(b, ev(t));
		runProg('chart2html', ['-o', mi200],
		    { input: runProg('recdiff', [a, b]) });
		runProg('chart2html', ['-o', metricRuns], { input:
		    readFileSync(a, 'utf8') + readFileSync(b, 'utf8') });
		/* topn of two labelled runs: a run selector. */
		const st = runProg('topn', ['-k', 'Kernel_Name'], { input:
		    runProg('pmc2ndjson', ['--label', 'vcopy',
		    fixture('rocprof-compute/vcopy/MI200')]) +
		    runProg('pmc2ndjson', ['--label', 'mix', t]) });
		runProg('chart2html', ['-o', runsPage], { input: st });
		/* Two MIGraphX reports: one operator twice as slow. */
		const txt = readFileSync(fixture('migraphx/synthetic_small.txt'),
		    'utf8');
		const ma = tmpPath('a.txt'), mb = tmpPath('b.txt');
		writeFileSync(ma, txt);
		writeFileSync(mb, txt.replace('add_add_relu: 0.442933ms / 11 = ' +
		    '0.0402666ms, 14%', 'add_add_relu: 0.885866ms / 11 = ' +
		    '0.0805333ms, 25%').replace('Rate: 337.784', 'Rate: 300'));
		const m1 = tmpPath('a.migx'), m2 = tmpPath('b.migx');
		writeFileSync(m1, runProg('migx2ndjson', ['--label', 'before',
		    ma]));
		writeFileSync(m2, runProg('migx2ndjson', ['--label', 'after',
		    mb]));
		runProg('chart2html', ['-o', migx], { input: runProg('recdiff',
		    ['--where', '.type != "instruction"', m1, m2]) });
	});

	pageTest('MIGraphX: the Summary per operator and the totals', migx,
	    async (pg) => {
		const op = 'gpu::code_object::mlir_convolution_add_add_relu';
		/* Milliseconds keep the report's digits; a rise its sign. */
		assert.equal(await cell(pg, 'cmp-summary', op, 'total_ms (base)'),
		    '0.442933');
		assert.equal(await cell(pg, 'cmp-summary', op, 'total_ms'),
		    '0.885866');
		assert.equal(await cell(pg, 'cmp-summary', op,
		    'total_ms \u0394%'), '+100');
		assert.equal(await cell(pg, 'cmp-summary', 'gpu::loop',
		    'total_ms \u0394%'), '0');
		/* Totals: rate 337.784 -> 300, -11.19%. */
		assert.equal(await pg.$eval('[data-testid="table-cmp-totals"] ' +
		    'th:last-child', (th) => th.textContent).then(() => 'ok'),
		    'ok');
		assert.match(await pg.textContent('[data-testid="table-cmp-totals"]'),
		    /-11\.19/);
	});

	pageTest('base, run and delta % columns, coloured by sign', small,
	    async (pg) => {
		assert.match(await pg.textContent('[data-testid=compare-runs]'),
		    /Base: a\.nd; compared: b\.nd/);
		/* M0: Avg 10 -> 12.5 is +25%; k1's M0 20 -> 10 is -50%. */
		assert.equal(await cell(pg, 'cmp-2.1', 'M0', 'Avg (base)'), '10');
		assert.equal(await cell(pg, 'cmp-2.1', 'M0', 'Avg'), '12.50');
		assert.equal(await cell(pg, 'cmp-2.1', 'M0', 'Avg \u0394%'), '+25');
		assert.equal(await cell(pg, 'cmp-2.1', 'M2', 'Peak \u0394%'),
		    '-200');
		assert.equal(await cell(pg, 'cmp-2.1', 'M1', 'Peak \u0394%'),
		    '+inf');
		/* A rise is red, a fall blue: which of r and b is larger. */
		const rgb = (s) => s.match(/\d+/g).map(Number);
		const up = rgb(await cellBg(pg, 'cmp-2.1', 'M0', 'Avg \u0394%'));
		assert.ok(up[0] > up[2], `rise ${up}`);
		const down = rgb(await cellBg(pg, 'cmp-2.1', 'M2',
		    'Peak \u0394%'));
		assert.ok(down[2] > down[0], `fall ${down}`);
		assert.equal(await cellBg(pg, 'cmp-2.1', 'M0', 'Peak \u0394%'), '');
		assert.match(await pg.textContent('[data-testid=pct-legend]'),
		    /red: higher than the base, blue: lower/);
		/* Channel is a key of table 18.2, not a compared value. */
		assert.equal(await cell(pg, 'cmp-18.2', 'Hit', 'Min \u0394%'),
		    '(no row)');
		assert.equal(await pg.locator('[data-testid="table-cmp-18.2"] ' +
		    'th', { hasText: /^Channel/ }).count(), 1);
		/* The only rows. */
		assert.equal(await cell(pg, 'cmp-2.1', 'M5', 'only'), 'new');
		assert.equal(await cell(pg, 'cmp-2.1', 'M4', 'only'), 'base');
	});

	/*
	 * The change keeps its sign in the cell, its tooltip and the bars'
	 * tooltips.  From the records: M0 Avg 10 -> 12.5 (+2.5, +25%), M2
	 * Peak 5 -> -5 (-10, -200%), M1 Peak 0 -> 3 (+3, inf).
	 */
	pageTest('a change keeps its sign in cells and tooltips', small,
	    async (pg) => {
		const t = '[data-testid="table-cmp-2.1"]';
		const tipOf = async (metric, col) => {
			const j = await pg.$$eval(`${t} th`, (ths, c) => ths.map(
			    (th) => th.textContent).indexOf(c), col);
			await pg.locator(`${t} tbody tr[data-row]`, { has:
			    pg.locator('td:first-child', { hasText:
			    new RegExp(`^${metric}$`) }) }).first()
			    .locator('td').nth(j).hover();
			return pg.textContent('[data-testid=tooltip]');
		};
		assert.equal(await tipOf('M0', 'Avg \u0394%'),
		    'Avg \u0394%: +25%\nbase 10, b.nd 12.5 (\u0394 +2.5)');
		assert.equal(await tipOf('M2', 'Peak \u0394%'),
		    'Peak \u0394%: -200%\nbase 5, b.nd -5 (\u0394 -10)');
		assert.equal(await tipOf('M1', 'Peak \u0394%'),
		    'Peak \u0394%: +inf\nbase 0, b.nd 3 (\u0394 +3)');
		assert.equal(await cell(pg, 'cmp-2.1', 'M2', 'Peak \u0394%'),
		    '-200');
		/* The bars of Avg: M0's run bar says +25. */
		const bar = pg.locator('[data-testid="chart-cmp-2.1"] ' +
		    '.bar[data-series="1"][data-tip^="M0\\a "]');
		await bar.hover();
		assert.equal(await pg.textContent('[data-testid=tooltip]'),
		    'M0\nb.nd: 12.5 (\u0394% +25)');
	});

	pageTest('sorting by |delta %| and the changed-more-than filter',
	    small, async (pg) => {
		await pg.locator('[data-testid="table-cmp-2.1"] th',
		    { hasText: /^Avg \u0394%$/ }).click();
		/* |inf| (M6), |-50| (M0 of k1), 25 (M0), then blanks. */
		assert.deepEqual((await firstCells(pg, 'cmp-2.1')).slice(0, 3),
		    ['M6', 'M0', 'M0']);
		assert.equal(await cell(pg, 'cmp-2.1', 'M6', 'Avg \u0394%'),
		    '-inf');
		const count = () => pg.textContent(
		    '[data-testid="table-cmp-2.1"] [data-testid=row-count]');
		assert.equal(await count(), '8 rows');
		await pg.fill('[data-testid=changed-more-than]', '30');
		/* Over 30%: M1 (Peak inf), M2 (Peak -200), M6, k1's M0. */
		assert.equal(await count(), '4 of 8 rows');
		assert.deepEqual((await firstCells(pg, 'cmp-2.1')).sort(),
		    ['M0', 'M1', 'M2', 'M6']);
		await pg.fill('[data-testid=changed-more-than]', '0');
		assert.equal(await count(), '8 rows');
	});

	pageTest('bars of base and run side by side', small, async (pg) => {
		const bars = pg.locator('[data-testid="chart-cmp-2.1"] .bar');
		/* 8 rows, two series (base, b.nd) for Avg, the first field. */
		assert.equal(await bars.count(), 16);
		await pg.locator('[data-testid="chart-cmp-2.1"] ' +
		    '.bar[data-series="1"]').first().hover();
		assert.match(await pg.textContent('[data-testid=tooltip]'),
		    /^M6\nb\.nd: -inf \(\u0394% -inf\)$|^M0 \/ k1\nb\.nd: 10 \(\u0394% -50\)$/);
		await pg.selectOption('[data-testid=compare-field]', 'Peak');
		assert.match(await pg.textContent(
		    '[data-testid="chart-cmp-2.1"] figcaption'), /^Peak: base/);
	});

	pageTest('three runs: one column per run and its delta %', three,
	    async (pg) => {
		assert.match(await pg.textContent('[data-testid=compare-runs]'),
		    /Base: a; compared: b, c\./);
		assert.equal(await cell(pg, 'cmp-2.1', 'M0', 'Avg (b)'), '12.50');
		assert.equal(await cell(pg, 'cmp-2.1', 'M0', 'Avg (c)'), '15');
		assert.equal(await cell(pg, 'cmp-2.1', 'M0', 'Avg \u0394% (c)'),
		    '+50');
		assert.equal(await pg.locator('[data-testid="chart-cmp-2.1"] ' +
		    '.bar[data-series="2"]').count(), 8);
	});

	pageTest('vcopy/MI200 against mixbench/mi200: the parity examples',
	    mi200, async (pg) => {
		/* 3.10: Active CUs 70 | 103 (47.14%); Peak 104 | 104 (0%). */
		const t = 'cmp-2.1';
		assert.equal(await cell(pg, t, 'Active CUs', 'Avg (base)'), '70.00');
		assert.equal(await cell(pg, t, 'Active CUs', 'Avg'), '103.00');
		assert.equal(await cell(pg, t, 'Active CUs', 'Avg \u0394%'),
		    '+47.14');
		assert.equal(await cell(pg, t, 'Active CUs', 'Peak \u0394%'), '0');
		/* VALU FLOPs: base 0 -> inf (upstream 744602.0%, B9). */
		assert.equal(await cell(pg, t, 'VALU FLOPs', 'Avg \u0394%'),
		    '+inf');
		/* A blank base stays blank (B8). */
		assert.equal(await cell(pg, t, 'LDS Bank Conflicts/Access',
		    'Avg \u0394%'), '');
	});

	pageTest('metric records of two runs get a run selector', metricRuns,
	    async (pg) => {
		/* vcopy/MI200's sysinfo names it "path"; mixbench is "mixbench". */
		const cu = () => cell(pg, '2.1', 'Active CUs', 'Avg');
		assert.equal(await cu(), '70.00');
		await pg.selectOption('[data-testid=run]', 'mixbench');
		assert.equal(await cu(), '103.00');
		await pg.selectOption('[data-testid=run]', 'path');
		assert.equal(await cu(), '70.00');
	});

	pageTest('statistics of two runs get a run selector', runsPage,
	    async (pg) => {
		const rows = () => pg.locator('[data-testid="table-top"] ' +
		    'tbody tr[data-row]').count();
		assert.equal(await rows(), 10);
		await pg.selectOption('[data-testid=run]', 'vcopy');
		assert.equal(await rows(), 1);
		assert.equal(await pg.$eval('[data-testid="table-top"] tbody ' +
		    'tr[data-row]', (tr) => tr.cells[0].textContent), 'vcopy');
		await pg.selectOption('[data-testid=run]', '(all runs)');
		assert.equal(await rows(), 10);
	});
}

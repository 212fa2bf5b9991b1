/*
 * chart2html-migraphx.test.mjs: the MIGraphX page does not mislead.
 * Times keep the digits the report printed (0.00881 ms, not 0.01); the
 * instruction table puts the timed instructions first, slowest first,
 * with time_ms and pct as its first columns, and keeps the program
 * listing's untimed rows behind a toggle, after them.
 *
 * The small input, by hand: three timed instructions (@2 0.442933 ms,
 * @1 0.00881, @0 0.00020762) and two rows of the program listing with no
 * time (lines 5 and 6).
 */
import assert from 'node:assert/strict';
import { pageTest, runProg, tmpPath, top } from './lib.mjs';
import { join } from 'node:path';

const ins = (line, name, op, extra) => ({ type: 'instruction', run: 0,
    line, section: extra ? 'perf' : 'program', name, module: 'main', op,
    shape_raw: 'float_type, {1}, {1}', ...extra });
const records = [
	ins(5, '@0', 'hip::hip_allocate_memory'),
	ins(6, '@1', 'gpu::code_object::mlir_dot_add'),
	ins(20, '@0', 'hip::hip_allocate_memory',
	    { time_ms: 0.00020762, pct: 0, group: 'hip::hip_allocate_memory' }),
	ins(21, '@1', 'gpu::code_object::mlir_dot_add',
	    { time_ms: 0.00881, pct: 2, group: 'gpu::code_object' }),
	ins(22, '@2', 'gpu::code_object::mlir_convolution_add',
	    { time_ms: 0.442933, pct: 98, group: 'gpu::code_object' }),
	{ type: 'summary', run: 0, line: 30, op: 'gpu::code_object',
	    total_ms: 0.451743, count: 2, mean_ms: 0.2258715, pct: 98 },
	{ type: 'summary', run: 0, line: 31, op: 'hip::hip_allocate_memory',
	    total_ms: 0.00020762, count: 1, mean_ms: 0.00020762, pct: 0 },
];
const html = tmpPath('migx.html');
runProg('chart2html', ['-o', html],
    { input: records.map((r) => JSON.stringify(r)).join('\n') + '\n' });

const heads = (pg, t) => pg.$$eval(`[data-testid="table-${t}"] th`,
    (ths) => ths.map((th) => th.textContent));
const column = (pg, t, c) => pg.$eval(`[data-testid="table-${t}"]`,
    (tb, c) => {
	const j = [...tb.querySelectorAll('th')].map((th) => th.textContent)
	    .indexOf(c);
	return [...tb.querySelectorAll('tbody tr[data-row]')].map((tr) =>
	    tr.cells[j].textContent);
}, c);

pageTest('instructions: time_ms and pct first, the slowest first', html,
    async (pg) => {
	const h = await heads(pg, 'instruction');
	assert.deepEqual(h.slice(0, 2), ['time_ms', 'pct']);
	assert.deepEqual(await column(pg, 'instruction', 'name'),
	    ['@2', '@1', '@0']);
	assert.deepEqual(await column(pg, 'instruction', 'time_ms'),
	    ['0.442933', '0.00881', '0.00020762']);
	assert.deepEqual(await column(pg, 'instruction', 'pct'),
	    ['98', '2', '0']);
	/* The header says the order. */
	assert.equal(await pg.getAttribute('[data-testid="table-instruction"] ' +
	    'th:text-is("time_ms")', 'aria-sort'), 'descending');
});

pageTest('untimed program-listing rows are behind a toggle, after', html,
    async (pg) => {
	const t = pg.getByTestId('show-untimed');
	assert.equal(await t.isChecked(), false);
	assert.equal(await pg.textContent('label:has([data-testid=' +
	    'show-untimed])'), 'show the 2 instructions without a time ' +
	    '(2 of the program listing)');
	await t.check();
	assert.deepEqual(await column(pg, 'instruction', 'line'),
	    ['22', '21', '20', '5', '6']);
	assert.deepEqual(await column(pg, 'instruction', 'time_ms'),
	    ['0.442933', '0.00881', '0.00020762', '', '']);
	await t.uncheck();
	assert.deepEqual(await column(pg, 'instruction', 'line'),
	    ['22', '21', '20']);
});

pageTest('summary times keep their significant digits', html,
    async (pg) => {
	const byOp = async (op, c) => pg.$eval('[data-testid="table-summary"]',
	    (tb, [op, c]) => {
		const hs = [...tb.querySelectorAll('th')].map((th) =>
		    th.textContent);
		for (const tr of tb.querySelectorAll('tbody tr[data-row]'))
			if (tr.cells[hs.indexOf('op')].textContent === op)
				return tr.cells[hs.indexOf(c)].textContent;
		return '(no row)';
	}, [op, c]);
	assert.equal(await byOp('hip::hip_allocate_memory', 'total_ms'),
	    '0.00020762');
	assert.equal(await byOp('gpu::code_object', 'mean_ms'), '0.2258715');
	assert.equal(await byOp('gpu::code_object', 'total_ms'), '0.451743');
});

/* The example report: the first row is its slowest timed instruction. */
const report = runProg('migx2ndjson', [join(top, 'examples',
    'migraphx_perf_synthetic.txt')]);
const ex = tmpPath('example.html');
runProg('chart2html', ['-o', ex], { input: report });
/* Perf rows of instructions never run have a null time. */
const all = report.split('\n').filter((l) => l !== '')
    .map((l) => JSON.parse(l)).filter((r) => r.type === 'instruction');
const timed = all.filter((r) => typeof r.time_ms === 'number');
const slowest = timed.reduce((a, b) => b.time_ms > a.time_ms ? b : a);
const listing = all.filter((r) => r.section === 'program').length;
const never = all.length - timed.length - listing;

pageTest('the example report: slowest first, the listing hidden', ex,
    async (pg) => {
	const tb = '[data-testid="table-instruction"]';
	assert.equal(await pg.textContent(`${tb} [data-testid=row-count]`),
	    `${timed.length} rows`);
	const first = await pg.$eval(`${tb} tbody tr[data-row]`, (tr) =>
	    [...tr.cells].map((td) => td.textContent));
	assert.equal(first[0], String(slowest.time_ms));
	assert.ok(first.includes(slowest.name), `${first} has ${slowest.name}`);
	assert.equal(await pg.textContent('label:has([data-testid=' +
	    'show-untimed])'), `show the ${all.length - timed.length} ` +
	    `instructions without a time (${listing} of the program listing, ` +
	    `${never} never run)`);
});

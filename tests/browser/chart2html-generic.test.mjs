/*
 * chart2html-generic.test.mjs: the views of records of no known kind
 * (--table, --bar, --heatmap, --timeline, --scatter, --group, --section,
 * --title), checked in the page's DOM.  Expected values are worked out by
 * hand from the five records below.
 */
import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { pageTest, runProg, tmpPath } from './lib.mjs';

const input = [
	'{"rank":0,"op":"gemm","ms":4,"flops":1e12,"bytes":1e9,"start":100,"end":400}',
	'{"rank":0,"op":"add","ms":1,"flops":1e9,"bytes":1e9,"start":400,"end":500}',
	'{"rank":1,"op":"gemm","ms":3,"flops":2e12,"bytes":4e9,"start":120,"end":450}',
	'{"rank":1,"op":"add","ms":2,"flops":3e9,"bytes":2e9,"start":450,"end":650}',
	'{"rank":1,"op":"x<y>","ms":"inf","flops":0,"bytes":1,"start":650,"end":660}',
].join('\n') + '\n';

function page(name, args, opts = {}) {
	const html = tmpPath(name);
	runProg('chart2html', ['-o', html, ...args], { input, ...opts });
	return html;
}

const texts = (pg, sel) => pg.$$eval(sel, (es) =>
    es.map((e) => e.textContent));
const tip = (pg) => pg.textContent('[data-testid=tooltip]');

pageTest('no view option: a table of every key', page('plain.html', []),
    async (pg) => {
	const t = '[data-testid=table-records]';
	assert.deepEqual(await texts(pg, `${t} th`),
	    ['rank', 'op', 'ms', 'flops', 'bytes', 'start', 'end']);
	assert.deepEqual(await texts(pg, `${t} tbody tr:nth-child(5) td`),
	    ['1', 'x<y>', 'inf', '0', '1', '650', '660']);
	assert.deepEqual(await texts(pg, `${t} tbody tr:nth-child(1) td`),
	    ['0', 'gemm', '4', '1000000000000', '1000000000', '100', '400']);
	assert.equal(await pg.getAttribute(`${t} tbody td:nth-child(3)`,
	    'class'), 'num');
	assert.equal(await pg.locator('[data-testid^=chart-]').count(), 0);
	/* Headers sort from the keyboard too: numbers largest first. */
	await pg.focus(`${t} th:text-is("ms")`);
	await pg.keyboard.press('Enter');
	assert.equal(await pg.getAttribute(`${t} th:text-is("ms")`,
	    'aria-sort'), 'descending');
	assert.deepEqual(await texts(pg, `${t} tbody td:nth-child(3)`),
	    ['inf', '4', '3', '2', '1']);
});

pageTest('--title names the page', page('title.html',
    ['--title', 'My report']), async (pg) => {
	assert.equal(await pg.title(), 'My report');
	assert.equal(await pg.textContent('[data-testid=title]'), 'My report');
});

pageTest('--bar: one bar per record, largest first, Top-N', page('bar.html',
    ['--bar', 'op=ms']), async (pg) => {
	const c = '[data-testid=chart-bar]';
	assert.deepEqual(await texts(pg, `${c} .lbl`),
	    ['x<y>', 'gemm', 'gemm', 'add', 'add']);
	assert.deepEqual(await texts(pg, `${c} .val`),
	    ['inf', '4', '3', '2', '1']);
	await pg.hover(`${c} .bar >> nth=2`);
	assert.equal(await tip(pg), 'gemm: ms 3');
	await pg.fill('[data-testid=topn]', '2');
	assert.deepEqual(await texts(pg, `${c} .lbl`), ['x<y>', 'gemm']);
	assert.equal(await pg.locator('[data-testid=table-records]').count(), 0);
});

pageTest('--heatmap: x across, y down, exact values on hover',
    page('heat.html', ['--heatmap', 'op,rank=ms']), async (pg) => {
	const cells = pg.locator('[data-testid=chart-heatmap] rect[data-tip]');
	assert.equal(await cells.count(), 6);	/* 3 ops x 2 ranks */
	assert.deepEqual(await texts(pg, '[data-testid=chart-heatmap] .xl'),
	    ['gemm', 'add', 'x<y>']);
	assert.deepEqual(await texts(pg, '[data-testid=chart-heatmap] .lbl'),
	    ['0', '1']);
	await cells.nth(3).hover();
	assert.equal(await tip(pg), 'op gemm, 1: 3');
	await cells.nth(2).hover();
	assert.equal(await tip(pg), 'op x<y>, 0: (blank)');
	await cells.nth(5).hover();
	assert.equal(await tip(pg), 'op x<y>, 1: inf');
});

pageTest('--timeline: lanes, range and zoom', page('tl.html',
    ['--timeline', 'start,end,rank']), async (pg) => {
	const tl = pg.locator('[data-testid=timeline]');
	await pg.waitForFunction(() => document.querySelector(
	    '[data-testid=timeline]').dataset.viewEnd !== undefined);
	assert.equal(await tl.getAttribute('data-view-start'), '0');
	assert.equal(await tl.getAttribute('data-view-end'), '560');
	await pg.click('[data-testid=zoom-out]');
	assert.equal(await tl.getAttribute('data-view-start'), '-280');
	assert.equal(await tl.getAttribute('data-view-end'), '840');
	/* Lane 0 (rank 0) holds the gemm from 0 to 300 (+100 base). */
	await pg.click('[data-testid=zoom-reset]');
	const box = await pg.locator('[data-testid=timeline] canvas')
	    .boundingBox();
	const x = box.x + 110 + (box.width - 110) * (150 / 560);
	await pg.mouse.move(x, box.y + 14);
	assert.equal(await tip(pg), 'gemm\nstart 100, end 400\n' +
	    '+0 .. +300, 300 long');
});

pageTest('--scatter: log axes, positive points only', page('sc.html',
    ['--scatter', 'bytes,flops']), async (pg) => {
	const pts = pg.locator('[data-testid=chart-scatter] circle');
	assert.equal(await pts.count(), 4);
	await pts.nth(2).hover();
	assert.equal(await tip(pg), 'bytes 4000000000, flops 2000000000000');
	assert.match(await pg.textContent('.note'),
	    /^not shown: 1 record without positive bytes and flops$/);
	assert.deepEqual(await texts(pg, '[data-testid=chart-scatter] .lbl'),
	    ['1e9', '1e10', '1e11', '1e12', '1e13']);
});

pageTest('--group: one section per value', page('group.html',
    ['--group', 'rank']), async (pg) => {
	assert.deepEqual(await texts(pg, 'section > h2'), ['0', '1']);
	assert.equal(await pg.textContent('[data-testid=section-1] ' +
	    '[data-testid=row-count]'), '3 rows');
	assert.equal(await pg.textContent('[data-testid=section-0] ' +
	    '[data-testid=row-count]'), '2 rows');
});

const secHtml = tmpPath('sections.html');
test('--section takes a name and a file', () => {
	const a = tmpPath('a.ndjson'), b = tmpPath('b.ndjson');
	writeFileSync(a, input);
	writeFileSync(b, '{"k":"only"}\n');
	runProg('chart2html', ['-o', secHtml, '--section', 'alpha', a,
	    '--section', 'beta & gamma', b]);
});

pageTest('--section: one section per input, in order', secHtml,
    async (pg) => {
	assert.deepEqual(await texts(pg, 'section > h2'),
	    ['alpha', 'beta & gamma']);
	assert.equal(await pg.textContent('[data-testid=section-alpha] ' +
	    '[data-testid=row-count]'), '5 rows');
	assert.deepEqual(await texts(pg, '[data-testid=section-beta-gamma] td'),
	    ['only']);
});

const badHtml = tmpPath('bad.html');
test('a bad record is skipped and the page still written', () => {
	runProg('chart2html', ['-o', badHtml],
	    { input: input + '{"broken":\n', status: 1 });
});

pageTest('the page says how many records were skipped', badHtml,
    async (pg) => {
	assert.equal(await pg.textContent('[data-testid=skipped]'),
	    'skipped: 1 bad record (see the messages of chart2html)');
	assert.equal(await pg.textContent('[data-testid=row-count]'),
	    '5 rows');
});

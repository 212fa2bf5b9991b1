/*
 * harness.test.mjs: the browser harness itself works: a static page loads
 * from disk, its script runs, errors and network requests are caught, and a
 * failing page test leaves a screenshot.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { openFile, pageTest, screenshot, tmpPath } from './lib.mjs';

const page1 = tmpPath('static.html');
writeFileSync(page1, `<!doctype html><meta charset="utf-8">
<title>static</title><p id="out">waiting</p>
<button id="b" onclick="document.getElementById('out').textContent =
    'clicked'">go</button>
<script type="application/json" id="d">{"n":42}</script>
<script>document.getElementById('out').textContent = 'ran: ' +
    JSON.parse(document.getElementById('d').textContent).n;</script>`);

const page2 = tmpPath('bad.html');
writeFileSync(page2, `<!doctype html><meta charset="utf-8"><title>bad</title>
<img src="http://example.invalid/x.png">
<script>console.error('boom'); undefinedFunction();</script>`);

pageTest('static page runs its script and handles a click', page1,
    async (page) => {
	assert.equal(await page.title(), 'static');
	assert.equal(await page.textContent('#out'), 'ran: 42');
	await page.click('#b');
	assert.equal(await page.textContent('#out'), 'clicked');
});

pageTest('errors and network requests are recorded', page2,
    async (page, t, info) => {
	assert.ok(info.errors.some((e) => e.includes('boom')), info.errors);
	assert.ok(info.errors.some((e) => e.includes('undefinedFunction')));
	assert.deepEqual(info.requests, ['http://example.invalid/x.png']);
}, { allowErrors: true });

test('screenshot writes a PNG into failures/', async () => {
	const { page } = await openFile(page1);
	const path = await screenshot(page, 'harness self-test');
	await page.close();
	assert.ok(existsSync(path), path);
	assert.match(path, /failures\/harness-self-test\.png$/);
	rmSync(path);
});

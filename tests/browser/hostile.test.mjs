/*
 * Pages made from the hostile inputs (../shared/fixtures/hostile/) stay
 * usable: a flame graph opened with a search that backtracks without end
 * says so and still answers, and a chart of one record with 100,000 keys
 * loads, shows the first columns and says how many keys there are.
 *
 * redos.folded holds three frames 'aaaa...a!' (40 a's and a '!') and one
 * 'bbbb...b' (40 b's): /(a+)+$/ and /(a|a)*$/ backtrack about 2^40 times
 * on the first, which never ends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { browser, fixture, runProg, tmpPath, pageTest } from './lib.mjs';

const flame = tmpPath('redos.html');
runProg('flame2html', ['-o', flame, fixture('hostile/redos.folded')]);
const chart = tmpPath('keys100k.html');
runProg('chart2html', ['-o', chart, fixture('hostile/keys100k_plain.nd')]);

/* Opens file with a fragment; the page's own errors fail the test. */
async function openWithHash(file, hash) {
	const ctx = await browser();
	const page = await ctx.newPage();
	const errors = [];
	page.on('pageerror', (e) => errors.push(e.message));
	await page.goto(pathToFileURL(file).href + hash, { waitUntil: 'load' });
	return { page, errors };
}

/* Resolves with how long the page takes to answer a trivial evaluate. */
async function answers(page) {
	const t0 = Date.now();
	assert.equal(await page.evaluate(() => 1 + 1), 2);
	return Date.now() - t0;
}

test('a search that backtracks without end is refused at once',
    async () => {
	const { page, errors } = await openWithHash(flame,
	    '#search=' + encodeURIComponent('/(a+)+$/'));
	try {
		const matches = page.getByTestId('matches');
		await matches.filter({ hasText: 'regular expression not run' })
		    .waitFor({ timeout: 5000 });
		assert.ok(await answers(page) < 1000);
		/* An ordinary search still works afterwards. */
		await page.getByTestId('search').fill('/^b+$/');
		await matches.filter({ hasText: '1 match' })
		    .waitFor({ timeout: 5000 });
		assert.deepEqual(errors, []);
	} finally {
		await page.close();
	}
});

test('a slow search runs off the page and is stopped, saying so',
    async () => {
	const { page, errors } = await openWithHash(flame,
	    '#search=' + encodeURIComponent('/(a|a)*$/'));
	try {
		const matches = page.getByTestId('matches');
		/* While it runs the page answers at once. */
		await page.waitForTimeout(300);
		assert.ok(await answers(page) < 1000);
		await matches.filter({ hasText: 'stopped after 2 s' })
		    .waitFor({ timeout: 10000 });
		await page.getByTestId('search').fill('/b{40}/');
		await matches.filter({ hasText: '1 match' })
		    .waitFor({ timeout: 5000 });
		assert.deepEqual(errors, []);
	} finally {
		await page.close();
	}
});

pageTest('a record with 100,000 keys loads with its first columns', chart,
    async (page) => {
	const note = page.getByTestId('wide-note');
	await note.waitFor({ timeout: 20000 });
	assert.match(await note.textContent(),
	    /^100,000 keys: the first 500 are shown as columns/);
	const heads = await page.locator('th').allTextContents();
	assert.ok(heads.some((h) => /^k0\b/.test(h)));
	assert.ok(heads.some((h) => /^k499\b/.test(h)));
	assert.ok(!heads.some((h) => /^k500\b/.test(h)));
	assert.ok(await answers(page) < 2000);
});

/*
 * lib.mjs: helpers for the browser tests of the pages profpipe writes.
 *
 * The tests are tests/browser/<name>.test.mjs, run with node's built-in
 * test runner by tests/browser/run.sh (which `make check` calls; it ends
 * with the line 'N passed, N failed').  Chromium is Debian's
 * /usr/bin/chromium driven by playwright-core (pinned in package.json and
 * package-lock.json; scripts/install-deps.sh runs `npm ci` here).  The pin
 * is 1.61.1, the last release that runs on Debian 12's node 18; write the
 * tests for node 18 too (node:test, no --test-timeout per test).  Each
 * test file gets one headless browser with a fresh profile directory, shared
 * by its tests and closed when the file ends.
 *
 * A typical test:
 *
 *	import { test } from 'node:test';
 *	import assert from 'node:assert/strict';
 *	import { pageTest, runProg, tmpPath, fixture } from './lib.mjs';
 *
 *	const html = tmpPath('flame.html');
 *	runProg('flame2html', ['-o', html, fixture('perf/x.folded')]);
 *
 *	pageTest('clicking a frame zooms into it', html, async (page, t) => {
 *		await page.click('text=main');
 *		assert.equal(await page.textContent('#title'), 'main');
 *	});
 *
 * pageTest(name, file, fn, opts) opens file (an absolute or repo-relative
 * path) in a new page and runs fn(page, t, info).  The test fails when fn
 * throws, when the page throws an uncaught exception or logs a console
 * error, or when it asks for anything over the network (pages must work
 * offline from disk; every non-file: request is aborted and reported).
 * On failure a screenshot goes to tests/browser/failures/<file>-<test>.png
 * (ignored by git).  info holds { errors, requests } for tests that expect
 * some.  opts: { width, height } of the viewport (default 1280x800),
 * allowErrors: true to check info.errors yourself.
 *
 * Lower-level helpers: browser() gives the shared browser context,
 * openFile(file, opts) a { page, errors, requests } for a new page,
 * screenshot(page, name) a PNG in failures/, runProg(prog, args, opts) runs
 * a profpipe program from $BIN (default build/bin) and returns its stdout,
 * tmpPath(name) a path in a scratch directory removed at the end, and
 * fixture(rel) a path under ../shared/fixtures/.  The playwright API itself
 * is documented at https://playwright.dev/docs/api/class-page.
 */
import { after, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

export const here = dirname(fileURLToPath(import.meta.url));
export const top = resolve(here, '..', '..');
export const failuresDir = join(here, 'failures');
export const binDir = process.env.BIN || join(top, 'build', 'bin');

const chromiumArgs = [
	'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
	'--no-first-run', '--disable-background-networking',
	'--disable-component-update', '--disable-sync',
];

let scratch = null;
let ctxPromise = null;

function cleanup() {
	if (scratch !== null) {
		rmSync(scratch, { recursive: true, force: true });
		scratch = null;
	}
}

/* A scratch directory for this test file, removed when it ends. */
function scratchDir() {
	if (scratch === null) {
		scratch = mkdtempSync(join(tmpdir(), 'profpipe-browser-'));
		process.on('exit', cleanup);
	}
	return scratch;
}

export function tmpPath(name) {
	return join(scratchDir(), name);
}

export function fixture(rel) {
	return resolve(top, '..', 'shared', 'fixtures', rel);
}

/*
 * Runs $BIN/prog with args; opts.input is fed to stdin.  Returns stdout
 * (a string); throws, with stderr in the message, when the exit status is
 * not 0 (or opts.status when given).
 */
export function runProg(prog, args = [], opts = {}) {
	const want = opts.status ?? 0;
	try {
		const out = execFileSync(join(binDir, prog), args, {
			input: opts.input ?? '', cwd: opts.cwd ?? top,
			encoding: 'utf8', maxBuffer: 1 << 30,
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		if (want !== 0)
			throw new Error(`${prog}: exit status 0, want ${want}`);
		return out;
	} catch (e) {
		if (e.status === want)
			return e.stdout;
		if (e.code === 'ENOENT')
			throw new Error(`${prog}: not found in ${binDir} ` +
			    '(build it, or set BIN to the bin directory)');
		if (e.signal)
			throw new Error(`${prog} ${args.join(' ')}: killed by ` +
			    `${e.signal}\n${e.stderr ?? ''}`);
		if (typeof e.status !== 'number')
			throw e;
		throw new Error(`${prog} ${args.join(' ')}: exit status ` +
		    `${e.status}, want ${want}\n${e.stderr}`);
	}
}

/* The browser context shared by this file's tests (a fresh profile). */
export function browser() {
	if (ctxPromise === null) {
		const profile = join(scratchDir(), 'profile');
		mkdirSync(profile);
		ctxPromise = chromium.launchPersistentContext(profile, {
			executablePath: '/usr/bin/chromium',
			headless: true,
			args: chromiumArgs,
			viewport: { width: 1280, height: 800 },
		});
	}
	return ctxPromise;
}

/* Registered at import, so it runs once when the file's tests are done. */
after(async () => {
	if (ctxPromise !== null) {
		const ctx = await ctxPromise;
		ctxPromise = null;
		await ctx.close();
	}
	cleanup();
});

/*
 * Opens file in a new page.  Returns { page, errors, requests }: errors
 * collects uncaught exceptions and console errors, requests every URL
 * that is not file: or data: (such requests are aborted).
 */
export async function openFile(file, opts = {}) {
	const ctx = await browser();
	const page = await ctx.newPage();
	const errors = [], requests = [];
	const abs = isAbsolute(file) ? file : resolve(top, file);

	page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
	page.on('console', (m) => {
		if (m.type() === 'error')
			errors.push(`console: ${m.text()}`);
	});
	await page.route('**/*', (route) => {
		const url = route.request().url();
		if (url.startsWith('file:') || url.startsWith('data:') ||
		    url.startsWith('blob:'))
			return route.continue();
		requests.push(url);
		return route.abort();
	});
	await page.setViewportSize({ width: opts.width ?? 1280,
	    height: opts.height ?? 800 });
	await page.goto(pathToFileURL(abs).href, { waitUntil: 'load' });
	return { page, errors, requests };
}

function slug(s) {
	return s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-|-$/g, '')
	    .slice(0, 120);
}

/* Saves a full-page screenshot as failures/<name>.png; returns its path. */
export async function screenshot(page, name) {
	mkdirSync(failuresDir, { recursive: true });
	const path = join(failuresDir, `${slug(name)}.png`);
	await page.screenshot({ path, fullPage: true });
	return path;
}

/* The running test file's name without .test.mjs ("flame2html"). */
function fileTag() {
	const f = process.argv[1] ?? '';
	return f.replace(/^.*\//, '').replace(/\.test\.mjs$/, '');
}

/* A node:test test that runs fn(page, t, info) on file (see the top). */
export function pageTest(name, file, fn, opts = {}) {
	return test(name, async (t) => {
		const info = await openFile(file, opts);
		const { page } = info;
		try {
			await fn(page, t, info);
			if (!opts.allowErrors)
				assertClean(info);
		} catch (e) {
			try {
				const p = await screenshot(page,
				    `${fileTag()}-${name}`);
				t.diagnostic(`screenshot: ${p}`);
			} catch {
				/* The page may be gone; the error matters more. */
			}
			throw e;
		} finally {
			await page.close();
		}
	});
}

/* Throws when the page had errors or asked for the network. */
export function assertClean(info) {
	const problems = [...info.errors,
	    ...info.requests.map((u) => `network request: ${u}`)];
	if (problems.length > 0)
		throw new Error(`page problems:\n  ${problems.join('\n  ')}`);
}

/*
 * The text a table shows: column col of the row whose first cell is row
 * in the table with data-testid "table-<table>"; "(no row)" or
 * "(no column)" when there is none.
 */
export async function cell(pg, table, row, col) {
	return pg.$eval(`[data-testid="table-${table}"]`, (t, [r, c]) => {
		const j = [...t.querySelectorAll('th')].map((th) =>
		    th.textContent).indexOf(c);
		for (const tr of t.querySelectorAll('tbody tr[data-row]'))
			if (tr.cells[0].textContent === r)
				return j < 0 ? '(no column)' : tr.cells[j].textContent;
		return '(no row)';
	}, [row, col]);
}

/*
 * batch-ranks.test.mjs: the straggler page of the batch rules.  64
 * generated Ascend ranks, one planted slow (every time of its DB
 * stretched by 1.5: scripts/bench/make_ranks.py), go through
 * scripts/batch/profpipe.mk with make -j 2; ranks.html must show the
 * planted rank first, about 50% above the median rank's total.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { binDir, pageTest, tmpPath, top } from './lib.mjs';

const dir = tmpPath('batch');
mkdirSync(dir);
const slow = execFileSync('python3', [join(top, 'scripts', 'bench',
    'make_ranks.py'), '-n', '64', join(dir, 'ranks')]).toString().trim();
writeFileSync(join(dir, 'Makefile'), 'PROFPIPE_INPUTS := ' +
    '$(wildcard ranks/*.db)\ninclude ' +
    join(top, 'scripts', 'batch', 'profpipe.mk') + '\n');
execFileSync('make', ['-s', '-j', '2', 'profpipe'], { cwd: dir,
    stdio: ['ignore', 'ignore', 'ignore'], timeout: 120000,
    env: { ...process.env, PATH: `${resolve(binDir)}:${process.env.PATH}` } });

pageTest('ranks.html: the planted slow rank comes first',
    join(dir, 'ranks.html'), async (pg) => {
	const H = '[data-testid=chart-heatmap]';
	/* 64 columns share "rank00": the labels show what follows it. */
	assert.equal(await pg.locator(`${H} .xl`).first().textContent(),
	    '\u2026' + slow.slice('rank00'.length));
	const first = await pg.locator('[data-testid=table-runs] tbody ' +
	    'tr[data-row]').first().locator('td').allTextContents();
	assert.equal(first[0], slow);
	/* Stretched by 1.5 against ranks alike but for their seeds. */
	const pct = Number(first[2]);
	assert.ok(pct > 40 && pct < 60, `${slow} ${pct}% above the median`);
	assert.equal(await pg.textContent('[data-testid=table-runs] ' +
	    '[data-testid=row-count]'), '64 rows');
	/* Its cells are red: above every name's median. */
	await pg.locator(`${H} rect[data-x="0"][data-y="0"]`).hover();
	assert.match(await pg.textContent('[data-testid=tooltip]'),
	    new RegExp(`^run ${slow}, .*\\(median .*, \\+[0-9.]+%\\)$`));
});

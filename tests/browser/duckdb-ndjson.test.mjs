/*
 * duckdb-ndjson.test.mjs: the DuckDB recipe of docs/formats.md ("Loading
 * the streams into DuckDB and ClickHouse"), run as written there on the
 * spans, merged stacks and merged statistics of 4 generated ranks (one
 * slow).  DuckDB's counts and sums must equal what topn wrote and what
 * the files hold, 19-digit times exact.  It runs with the browser suite
 * (node's test runner) but needs no browser; DuckDB comes from npm into
 * tests/duckdb/, where scripts/install-deps.sh (which make check runs)
 * puts it; run by hand without it, the test is skipped with a message.
 */
import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync,
    writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { runProg, tmpPath, top } from './lib.mjs';

const pkg = join(top, 'tests', 'duckdb', 'package.json');
const have = existsSync(join(top, 'tests', 'duckdb', 'node_modules',
    '@duckdb', 'node-api'));
const skip = have ? false : 'DuckDB is not installed: ' +
    'scripts/install-deps.sh installs it';

/* The DuckDB statements of docs/formats.md, one string each. */
function recipe() {
	const doc = readFileSync(join(top, 'docs', 'formats.md'), 'utf8');
	const at = doc.indexOf('DuckDB (`read_ndjson`');
	const block = doc.slice(doc.indexOf('```\n', at) + 4);
	return block.slice(0, block.indexOf('```')).split(';\n')
	    .map((s) => s.trim()).filter((s) => s !== '');
}

test('NDJSON streams load into DuckDB as docs/formats.md says', { skip },
    async () => {
	const { DuckDBInstance } = createRequire(pkg)('@duckdb/node-api');
	const dir = tmpPath('duck');
	mkdirSync(dir);
	const slow = execFileSync('python3', [join(top, 'scripts', 'bench',
	    'make_ranks.py'), '-n', '4', '--slow', '2',
	    join(dir, 'ranks')]).toString().trim();
	const rd = join(dir, 'ranks');
	const dbs = readdirSync(rd).filter((f) => f.endsWith('.db')).sort();
	for (const f of dbs) {
		const s = join(rd, f.replace(/\.db$/, ''));
		runProg('db2spans', ['--label', f.replace(/\.db$/, ''),
		    '-o', s + '.spans', join(rd, f)]);
		runProg('spans2stacks', ['-q', '-o', s + '.stacks',
		    s + '.spans']);
		runProg('topn', ['--partial', '-k', 'name', '-o',
		    s + '.top.ndjson', s + '.spans']);
	}
	const list = (ext) => dbs.map((f) => join(rd, f.replace(/\.db$/,
	    ext))).join('\n') + '\n';
	runProg('spans2stacks', ['-m', '-q', '--files-from', '-', '-o',
	    join(dir, 'all.stacks')], { input: list('.stacks') });
	runProg('topn', ['--merge', '-n', '0', '--files-from', '-', '-o',
	    join(dir, 'all.top.ndjson')], { input: list('.top.ndjson') });

	const db = await DuckDBInstance.create(':memory:');
	const con = await db.connect();
	const rows = async (q) => (await con.runAndReadAll(q)).getRows();
	const sql = recipe();
	assert.equal(sql.length, 4);
	for (const q of sql.slice(0, 3))
		await con.run(q.replace(/'(ranks\/\*\.spans|all\.stacks|all\.top\.ndjson)'/,
		    (_, f) => `'${join(dir, f)}'`));

	const lines = (f) => readFileSync(f, 'utf8').split('\n')
	    .filter((l) => l !== '');
	const spans = dbs.flatMap((f) => lines(join(rd, f.replace(/\.db$/,
	    '.spans'))).map((l) => JSON.parse(l.replace(
	    /"(start_ns|end_ns)":(\d+)/g, '"$1":"$2"'))));
	const stacks = lines(join(dir, 'all.stacks')).map((l) =>
	    JSON.parse(l));
	const stats = lines(join(dir, 'all.top.ndjson')).map((l) =>
	    JSON.parse(l));
	assert.deepEqual(await rows('SELECT count(*) FROM spans'),
	    [[BigInt(spans.length)]]);
	assert.deepEqual(await rows('SELECT count(*) FROM stacks'),
	    [[BigInt(stacks.length)]]);
	assert.deepEqual(await rows('SELECT count(*) FROM stats'),
	    [[BigInt(stats.length)]]);

	/* 19-digit times exact: the largest end, as the file writes it. */
	const maxEnd = spans.reduce((m, s) => BigInt(s.end_ns) > m ?
	    BigInt(s.end_ns) : m, 0n);
	assert.deepEqual(await rows('SELECT max(end_ns) FROM spans'),
	    [[maxEnd]]);
	/* pid, a number in the file, as its text. */
	assert.deepEqual(await rows('SELECT DISTINCT pid FROM spans ' +
	    `WHERE run = '${slow}'`), [[String(spans.find((s) =>
	    s.run === slow).pid)]]);

	/* DuckDB's count and sum per run and name are topn's. */
	const got = new Map((await rows('SELECT run, name, count(*), ' +
	    'sum(end_ns - start_ns) FROM spans GROUP BY run, name'))
	    .map(([r, n, c, s]) => [`${r}\u0000${n}`, [Number(c),
	    Number(s)]]));
	assert.equal(got.size, stats.length);
	for (const s of stats)
		assert.deepEqual(got.get(`${s.run}\u0000${s.name}`),
		    [s.count, s.sum_ns], `${s.run} ${s.name}`);
	const [[ssum]] = await rows('SELECT sum(sum_ns) FROM stats');
	assert.equal(ssum, stats.reduce((a, s) => a + s.sum_ns, 0));

	/* Stacks: per thread, the self times add up to the root spans'. */
	const bad = await rows('SELECT thread FROM stacks GROUP BY thread ' +
	    'HAVING sum(self_ns) <> sum(CASE WHEN len(stack) = 1 THEN ' +
	    'total_ns ELSE 0 END)');
	assert.deepEqual(bad, []);
	const [[frames]] = await rows('SELECT max(len(stack)) FROM stacks');
	assert.equal(Number(frames), Math.max(...stacks.map((s) =>
	    s.stack.length)));

	/* The recipe's last query: the slowest run first. */
	const order = await rows(sql[3]);
	assert.equal(order[0][0], slow);
	assert.equal(order.length, 4);
});

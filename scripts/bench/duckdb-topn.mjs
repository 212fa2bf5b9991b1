/*
 * duckdb-topn.mjs: the DuckDB peer of topn in topn.sh: read_ndjson of the
 * span records and the same statistics per name (count, sum, mean, exact
 * median, min, max, share of the total), largest sum first, written as CSV
 * to OUT.  DuckDB comes from scripts/bench/duckdb/ (bench only).
 *
 * usage: node duckdb-topn.mjs IN OUT
 */
import { resolve } from 'node:path';
import { createRequire } from 'node:module';

const top = resolve(new URL('.', import.meta.url).pathname, '..', '..');
const require = createRequire(resolve(top,
    'scripts/bench/duckdb/package.json'));
const { DuckDBInstance } = require('@duckdb/node-api');

const q = (s) => "'" + s.replace(/'/g, "''") + "'";
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
await con.run(`COPY (SELECT name, count(*) AS count, sum(dur_ns) AS sum,
    avg(dur_ns) AS mean, median(dur_ns) AS median, min(dur_ns) AS min,
    max(dur_ns) AS max, 100.0 * sum(dur_ns) / sum(sum(dur_ns)) OVER ()
    AS pct FROM read_ndjson(${q(process.argv[2])},
    columns = {name: 'VARCHAR', dur_ns: 'BIGINT'})
    GROUP BY name ORDER BY sum DESC, name) TO ${q(process.argv[3])}
    (FORMAT csv)`);

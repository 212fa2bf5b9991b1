/*
 * filters-round.test.mjs: the page's ROUND(x, n) of one number rounds as
 * metric-eval and Python's round() do (the exact binary value, half to
 * even), not as x * 10^n does.  Python is the oracle: its round() of a
 * few thousand numbers, with ties and tiny and huge values among them.
 * No browser needed: the function is taken from assets/filters.js.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const src = readFileSync('assets/filters.js', 'utf8');
const from = src.indexOf('function pyRound');
const to = src.indexOf('\n}\n', from);
const pyRound = new Function('roundTo', src.slice(from, to + 3) +
    'return pyRound;')(() => { throw new Error('fallback used'); });

test('ROUND(x, n) of one number, by hand', () => {
	assert.equal(pyRound(2.675, 2), 2.67);	/* 2.67499999... */
	assert.equal(pyRound(0.35, 1), 0.3);	/* 0.34999999... */
	assert.equal(pyRound(0.125, 2), 0.12);	/* an exact tie: to even */
	assert.equal(pyRound(0.375, 2), 0.38);
	assert.ok(Object.is(pyRound(-0.001, 2), -0));
});

test('ROUND(x, n) of one number equals Python round() on 4000 numbers',
    () => {
	const py = `
import random
rng = random.Random(7)
for i in range(4000):
    k = i % 4
    if k == 0: x = rng.random() * 10 ** rng.randint(-5, 8)
    elif k == 1: x = rng.randint(-99999, 99999) / 8 / 10 ** rng.randint(0, 4)
    elif k == 2: x = rng.uniform(-1, 1) * 10 ** rng.randint(-300, 300)
    else: x = rng.randint(1, 999) / 1000 + rng.choice([5e-4, 5e-3, 5e-2])
    nd = rng.choice([1, 2, 3, 5, 9, 17, 40, 120, 320])
    print(repr(x), nd, repr(round(x, nd)))
`;
	const out = execFileSync('/usr/bin/python3', ['-c', py],
	    { encoding: 'utf8' });
	let n = 0;
	for (const line of out.trim().split('\n')) {
		const [x, nd, want] = line.split(' ');
		const got = pyRound(parseFloat(x), Number(nd));
		assert.ok(Object.is(got, parseFloat(want)),
		    `ROUND(${x}, ${nd}): ${got}, Python ${want}`);
		n++;
	}
	assert.equal(n, 4000);
});

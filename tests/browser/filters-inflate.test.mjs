/*
 * filters-inflate.test.mjs: the filters page inflates metric-eval's
 * column packs itself (assets/filters.js, inflate()): every kind of
 * deflate block (stored, fixed, dynamic; long and overlapping copies)
 * gives back the bytes Python's zlib compressed, and a stream that is
 * cut, corrupted (the checksum is checked) or longer or shorter than its
 * columns is an error, never wrong bytes.  No browser needed: the
 * functions are taken from the file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const src = readFileSync('assets/filters.js', 'utf8');
const from = src.indexOf('/* ---------- zlib streams');
const to = src.indexOf('/* The bytes of base64 text. */');
const inflate = new Function(src.slice(from, to) + 'return inflate;')();

/* Python's zlib: [compressed, original] per case, base64. */
function cases(py) {
	const out = execFileSync('/usr/bin/python3', ['-c', `
import zlib, random, base64
rng = random.Random(3)
def z(b, lvl=6, strat=zlib.Z_DEFAULT_STRATEGY):
    c = zlib.compressobj(lvl, zlib.DEFLATED, 15, 8, strat)
    return c.compress(b) + c.flush()
def put(zb, b):
    print(base64.b64encode(zb).decode(), base64.b64encode(b).decode())
${py}
`], { encoding: 'utf8', maxBuffer: 1 << 30 });
	return out.trim().split('\n').map((l) => l.split(' ').map((x) =>
	    new Uint8Array(Buffer.from(x ?? '', 'base64'))));
}

test('inflate gives back what zlib compressed, every block kind', () => {
	const cs = cases(`
for i in range(240):
    k = i % 6
    n = rng.choice([0, 1, 7, 100, 5000, 70000, 300000])
    if k == 0: b = bytes(rng.getrandbits(8) for _ in range(n))
    elif k == 1: b = bytes(n)
    elif k == 2: b = bytes(rng.choice(b'ab') for _ in range(n))
    elif k == 3: b = (b'abcdefgh' * (n // 8 + 1))[:n]
    elif k == 4: b = bytes(rng.randint(0, 3) * 17 for _ in range(n))
    else: b = bytes((j * j) % 251 for j in range(n))
    put(z(b, rng.choice([0, 1, 6, 9]), rng.choice([zlib.Z_DEFAULT_STRATEGY,
        zlib.Z_FIXED, zlib.Z_HUFFMAN_ONLY, zlib.Z_RLE])), b)
`);
	assert.equal(cs.length, 240);
	for (const [zb, want] of cs) {
		const got = inflate(zb, new Uint8Array(want.length));
		assert.ok(Buffer.from(got).equals(Buffer.from(want)),
		    `${want.length} bytes`);
	}
});

test('a stream cut, corrupted or of the wrong length is an error', () => {
	const [[zb, b]] = cases(`
b = bytes(rng.randint(0, 9) for _ in range(20000))
put(z(b), b)
`);
	const err = /a column pack is not a zlib stream/;
	assert.throws(() => inflate(zb, new Uint8Array(b.length - 1)), err);
	assert.throws(() => inflate(zb, new Uint8Array(b.length + 1)), err);
	assert.throws(() => inflate(zb.subarray(0, zb.length >> 1),
	    new Uint8Array(b.length)), err);
	const h = zb.slice();
	h[0] = 0x79;
	assert.throws(() => inflate(h, new Uint8Array(b.length)), err);
	/* A byte changed anywhere (the checksum included): an error, or
	 * the same bytes (bits the stream does not use). */
	let errors = 0, n = 0;
	for (let i = 2; i < zb.length; i += 7, n++) {
		const c = zb.slice();
		c[i] ^= 0x5a;
		try {
			const got = inflate(c, new Uint8Array(b.length));
			assert.ok(Buffer.from(got).equals(Buffer.from(b)),
			    `byte ${i} changed: other bytes, no error`);
		} catch (e) {
			assert.match(e.message, err);
			errors++;
		}
	}
	assert.ok(errors > n * 0.9, `${errors} errors of ${n}`);
});

/*
 * filters.js: the filters of a chart2html page made from
 * 'metric-eval --interactive' (docs/formats.md, "Interactive records"):
 * dispatches, kernels, GPUs, normalization and Top-N.  For each choice it
 * evaluates the compiled cells over the selected dispatches with
 * metric-eval's rules (cmd/metric-eval/eval.c, panels.c), row by row when
 * a table is drawn, and hands the records to chart.js's metric view, so
 * the tables, bars, heatmaps, memory chart and roofline are those of
 * metric-eval run with the same -d, -k, -g and -n.
 *
 * Loaded before chart.js, which calls window.profpipeFilters.view().
 * Every text reaches the page through textContent.
 */
'use strict';
(function () {

/* ---------- values (cmd/metric-eval/me.h) ---------- */

const V_NONE = 0, V_SCAL = 1, V_VEC = 2, V_TEXT = 3;
const OP_NUM = 0, OP_NONE = 1, OP_STR = 2, OP_COL = 3, OP_MISSING = 4,
    OP_VAR = 5, OP_NEG = 6, OP_ADD = 7, OP_SUB = 8, OP_MUL = 9,
    OP_DIV = 10, OP_MODOP = 11, OP_CMP = 12, OP_SEL = 13, OP_CALL = 14;
const CMP_NE = 0, CMP_EQ = 1, CMP_LT = 2, CMP_LE = 3, CMP_GT = 4,
    CMP_NONE_NE = 6;
const FN_AVG = 0, FN_SUM = 1, FN_MIN = 2, FN_MAX = 3, FN_MEDIAN = 4,
    FN_QUANTILE = 5, FN_STD = 6, FN_ROUND = 7, FN_TO_INT = 8, FN_MOD = 9,
    FN_CONCAT = 10;
const VAR_GRBM_GUI = 0, VAR_GRBM_COUNT = 1, VAR_GRBM_SPI = 2,
    VAR_ACTIVE_CUS = 3, VAR_BUSY_CYCLES = 4, VAR_HBM_BW = 5;

/* A JSON number, or the strings metric-eval writes for NaN and inf. */
function jnum(v) {
	if (typeof v === 'number')
		return v;
	if (v === 'inf')
		return Infinity;
	if (v === '-inf')
		return -Infinity;
	return NaN;
}

/* C's rint(): to nearest, ties to even. */
function rint(x) {
	if (!isFinite(x))
		return x;
	const r = Math.round(x);
	return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function pyMod(a, b) {
	let r = a % b;
	if (r !== 0 && ((r < 0) !== (b < 0)))
		r += b;
	return r;
}

/* Neumaier summation, as eval.c's ksum. */
class KSum {
	constructor() {
		this.s = 0;
		this.c = 0;
		this.plain = 0;
		this.nonfinite = false;
	}

	add(x) {
		const t = this.s + x;
		this.plain += x;
		if (!isFinite(x) || !isFinite(t)) {
			this.nonfinite = true;
			return;
		}
		if (Math.abs(this.s) >= Math.abs(x))
			this.c += (this.s - t) + x;
		else
			this.c += (x - t) + this.s;
		this.s = t;
	}

	get() {
		return this.nonfinite ? this.plain : this.s + this.c;
	}
}

function apply(op, sub, a, b) {
	switch (op) {
	case OP_ADD: return a + b;
	case OP_SUB: return a - b;
	case OP_MUL: return a * b;
	case OP_DIV: return a / b;
	case OP_MODOP: return pyMod(a, b);
	case OP_CMP:
		switch (sub) {
		case CMP_NE: return a === b ? 0 : 1;
		case CMP_EQ: return a === b ? 1 : 0;
		case CMP_LT: return a < b ? 1 : 0;
		case CMP_LE: return a <= b ? 1 : 0;
		case CMP_GT: return a > b ? 1 : 0;
		default: return a >= b ? 1 : 0;
		}
	}
	return NaN;
}

function quantileSorted(x, n, q) {
	if (n === 0 || !(q >= 0 && q <= 1))
		return NaN;
	const h = (n - 1) * q, i = Math.floor(h), t = h - i;
	if (t === 0 || i + 1 >= n)
		return x[i];
	if (t < 0.5)
		return x[i] + (x[i + 1] - x[i]) * t;
	return x[i + 1] - (x[i + 1] - x[i]) * (1 - t);
}

function medianSorted(x, n) {
	if (n === 0)
		return NaN;
	if (n % 2)
		return x[n >> 1];
	return (x[n / 2 - 1] + x[n / 2]) / 2;
}

/*
 * ROUND(x, n) of one number with n > 0, as metric-eval (and Python's
 * round) does it: x's exact binary value rounded half to even at n
 * decimals, then read back as the nearest double.
 */
function pyRound(x, nd) {
	if (!(nd > 0 && nd <= 330 && nd === Math.trunc(nd)) || !isFinite(x))
		return roundTo(x, nd);
	if (x === 0)
		return x;
	const dv = new DataView(new ArrayBuffer(8));
	dv.setFloat64(0, x);
	const hi = dv.getUint32(0), be = (hi >>> 20) & 0x7ff;
	let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(dv.getUint32(4));
	let e = -1074;
	if (be !== 0) {
		m |= 1n << 52n;
		e = be - 1075;
	}
	const p = 10n ** BigInt(nd);
	let n;
	if (e >= 0) {
		n = (m << BigInt(e)) * p;
	} else {
		const num = m * p, d = 1n << BigInt(-e), h = d >> 1n;
		n = num / d;
		const r = num - n * d;
		if (r > h || (r === h && (n & 1n)))
			n += 1n;
	}
	const v = parseFloat(n.toString() + "e-" + nd);
	return hi >>> 31 ? -v : v;
}

function roundTo(x, nd) {
	if (nd === 0 || !isFinite(nd))
		return rint(x);
	if (nd !== Math.trunc(nd))
		return NaN;
	if (nd > 330)
		return x;
	if (nd < -330)
		return x < 0 || Object.is(x, -0) ? -0 : 0;
	const p = Math.pow(10, nd);
	return nd > 0 ? rint(x * p) / p :
	    rint(x / Math.pow(10, -nd)) * Math.pow(10, -nd);
}

/*
 * A value: k (V_*), s (a scalar), v (a Float64Array of n) and na (for a
 * nullable-integer vector from TO_INT: 1 where the element is missing).
 */
const none = () => ({ k: V_NONE, s: NaN, v: null, na: null });
const scal = (s) => ({ k: V_SCAL, s, v: null, na: null });
const vec = (v, na) => ({ k: V_VEC, s: NaN, v, na: na ?? null });

/* ---------- one evaluation: the rows of a choice ---------- */

class Ctx {
	constructor(data, idx) {
		this.d = data;
		this.idx = idx;
		this.n = idx.length;
		this.cols = new Map();
		this.builtins = new Map();
		/* Every dispatch in order: the columns as they are. */
		this.all = idx.length === data.n && idx.every((r, i) => r === i);
	}

	column(c) {
		if (this.all)
			return this.d.col(c);
		let v = this.cols.get(c);
		if (v === undefined) {
			const src = this.d.col(c), idx = this.idx;
			v = new Float64Array(this.n);
			for (let i = 0; i < this.n; i++)
				v[i] = src[idx[i]];
			this.cols.set(c, v);
		}
		return v;
	}

	sys(key) {
		return jnum(this.d.sysinfo[key]);
	}

	perXcd(which) {
		const c = this.d.builtinCols[which], xcd = this.sys('num_xcd');
		if (c < 0 || isNaN(xcd))
			return null;
		const src = this.column(c), o = new Float64Array(this.n);
		for (let i = 0; i < this.n; i++)
			o[i] = src[i] / xcd;
		return o;
	}

	activeCus() {
		const c = this.d.builtinCols[3];
		const mw = this.sys('max_waves_per_cu');
		const cu = this.sys('cu_per_gpu');
		const grbm = this.builtin(VAR_GRBM_GUI);
		if (c < 0 || grbm === null)
			return NaN;
		const col = this.column(c), sum = new KSum();
		let m = 0;
		for (let i = 0; i < this.n; i++) {
			const v = 4 * col[i] / grbm[i];
			if (!isNaN(v)) {
				sum.add(v);
				m++;
			}
		}
		const a = m ? rint(sum.get() / m) : NaN;
		let y = pyMod(a, mw);
		if (8 < y)
			y = 8;
		let x = a / mw * 8 + y;
		if (cu < x)
			x = cu;
		return isFinite(x) ? Math.trunc(x) : NaN;
	}

	busyCycles() {
		const s = this.d.builtinCols[4], e = this.d.builtinCols[5];
		const sclk = this.sys('max_sclk');
		if (s < 0 || e < 0)
			return NaN;
		const sv = this.column(s), ev = this.column(e), sum = new KSum();
		let m = 0;
		for (let i = 0; i < this.n; i++) {
			const v = (ev[i] - sv[i]) / 1000 * sclk;
			if (!isNaN(v)) {
				sum.add(v);
				m++;
			}
		}
		return m ? rint(sum.get() / m) : NaN;
	}

	/* A built-in: a vector (or null), or a scalar (NaN: none). */
	builtin(id) {
		if (this.builtins.has(id))
			return this.builtins.get(id);
		let r;
		switch (id) {
		case VAR_GRBM_GUI: case VAR_GRBM_COUNT: case VAR_GRBM_SPI:
			r = this.perXcd(id);
			break;
		case VAR_ACTIVE_CUS:
			r = this.activeCus();
			break;
		case VAR_BUSY_CYCLES:
			r = this.busyCycles();
			break;
		default:
			r = this.sys('max_mclk') / 1000 * 32 *
			    this.sys('num_hbm_channels');
		}
		this.builtins.set(id, r);
		return r;
	}
}

/* a op b, element-wise; a or b a vector, neither none. */
function binop(c, op, sub, a, b) {
	if (a.k === V_NONE || b.k === V_NONE || a.k === V_TEXT ||
	    b.k === V_TEXT)
		return none();
	if (a.k === V_SCAL && b.k === V_SCAL)
		return scal(apply(op, sub, a.s, b.s));
	const n = c.n, o = new Float64Array(n);
	const x = a.k === V_VEC ? a.v : null, y = b.k === V_VEC ? b.v : null;
	const xs = a.s, ys = b.s;
	const xna = x ? a.na : null, yna = y ? b.na : null;
	if (xna || yna) {
		const na = new Uint8Array(n);
		for (let i = 0; i < n; i++) {
			if ((xna && xna[i]) || (yna && yna[i])) {
				na[i] = 1;
				o[i] = NaN;
			} else {
				o[i] = apply(op, sub, x ? x[i] : xs,
				    y ? y[i] : ys);
			}
		}
		return vec(o, na);
	}
	if (op === OP_DIV) {
		for (let i = 0; i < n; i++)
			o[i] = (x ? x[i] : xs) / (y ? y[i] : ys);
	} else if (op === OP_MUL) {
		for (let i = 0; i < n; i++)
			o[i] = (x ? x[i] : xs) * (y ? y[i] : ys);
	} else if (op === OP_ADD) {
		for (let i = 0; i < n; i++)
			o[i] = (x ? x[i] : xs) + (y ? y[i] : ys);
	} else {
		for (let i = 0; i < n; i++)
			o[i] = apply(op, sub, x ? x[i] : xs, y ? y[i] : ys);
	}
	return vec(o);
}

function cmpNone(c, sub, a) {
	const r = sub === CMP_NONE_NE ? 1 : 0;
	if (a.k === V_SCAL)
		return scal(r);
	if (a.k !== V_VEC)
		return none();
	return vec(new Float64Array(c.n).fill(r));
}

function select3(c, x, cd, y) {
	if (x.k === V_NONE || cd.k === V_NONE || x.k === V_TEXT ||
	    cd.k === V_TEXT)
		return none();
	if (y.k !== V_SCAL && y.k !== V_VEC)
		y = scal(NaN);
	if (x.k === V_SCAL && cd.k === V_SCAL && y.k === V_SCAL)
		return scal(cd.s !== 0 ? x.s : y.s);
	const n = c.n, o = new Float64Array(n);
	const xna = x.k === V_VEC ? x.na : null;
	const yna = y.k === V_VEC ? y.na : null;
	const na = xna || yna ? new Uint8Array(n) : null;
	for (let i = 0; i < n; i++) {
		const xv = x.k === V_VEC ? x.v[i] : x.s;
		const cv = cd.k === V_VEC ? cd.v[i] : cd.s;
		const yv = y.k === V_VEC ? y.v[i] : y.s;
		const pick = cv !== 0;
		o[i] = pick ? xv : yv;
		if (na)
			na[i] = pick ? (xna ? xna[i] : 0) : (yna ? yna[i] : 0);
	}
	return vec(o, na);
}

/* The values an aggregate uses; nan: a real NaN in a nullable vector. */
function collect(c, a) {
	const buf = new Float64Array(c.n);
	let m = 0, nan = false;
	for (let i = 0; i < c.n; i++) {
		const x = a.v[i];
		if (isNaN(x)) {
			if (a.na && !a.na[i])
				nan = true;
			continue;
		}
		buf[m++] = x;
	}
	return { buf, m, nan };
}

function aggregate(c, f, a, q) {
	const { buf, m, nan } = collect(c, a);
	if (nan)
		return NaN;
	let r = NaN;
	switch (f) {
	case FN_AVG: case FN_SUM: case FN_STD: {
		const sum = new KSum();
		for (let i = 0; i < m; i++)
			sum.add(buf[i]);
		if (f === FN_SUM)
			r = sum.get();
		else if (f === FN_AVG)
			r = m ? sum.get() / m : NaN;
		else if (m >= 2) {
			const mean = sum.get() / m, dev = new KSum();
			for (let i = 0; i < m; i++)
				dev.add((buf[i] - mean) * (buf[i] - mean));
			r = Math.sqrt(dev.get() / (m - 1));
		}
		break;
	}
	case FN_MIN: case FN_MAX:
		for (let i = 0; i < m; i++)
			if (i === 0 || (f === FN_MIN ? buf[i] < r : buf[i] > r))
				r = buf[i];
		break;
	default: {
		const s = buf.subarray(0, m).sort();
		r = f === FN_MEDIAN ? medianSorted(s, m) :
		    quantileSorted(s, m, q);
	}
	}
	return r;
}

function toInt(c, a) {
	if (a.k === V_SCAL)
		return isFinite(a.s) ? scal(Math.trunc(a.s)) : none();
	if (a.k !== V_VEC)
		return a;
	for (let i = 0; i < c.n; i++) {
		const x = a.v[i];
		if (!isNaN(x) && (!isFinite(x) || x !== Math.trunc(x)))
			return none();
	}
	const o = new Float64Array(c.n), na = new Uint8Array(c.n);
	for (let i = 0; i < c.n; i++) {
		o[i] = a.v[i];
		if (isNaN(a.v[i])) {
			na[i] = 1;
			o[i] = NaN;
		}
	}
	return vec(o, na);
}

function minmax2(c, f, a, b) {
	if (a.k !== V_SCAL && a.k !== V_VEC)
		return none();
	if (b.k !== V_SCAL && b.k !== V_VEC)
		return none();
	if (a.k === V_SCAL && b.k === V_SCAL)
		return scal((f === FN_MIN ? b.s < a.s : b.s > a.s) ? b.s : a.s);
	const o = new Float64Array(c.n);
	for (let i = 0; i < c.n; i++) {
		const x = a.k === V_VEC ? a.v[i] : a.s;
		const y = b.k === V_VEC ? b.v[i] : b.s;
		if (isNaN(x) || isNaN(y))
			o[i] = isNaN(x) ? x : y;
		else
			o[i] = f === FN_MIN ? (y < x ? y : x) : (y > x ? y : x);
	}
	return vec(o);
}

function call(c, f, args) {
	const a = args[0];
	switch (f) {
	case FN_MIN: case FN_MAX:
		if (args.length === 2)
			return minmax2(c, f, a, args[1]);
		/* FALLTHROUGH */
	case FN_AVG: case FN_SUM: case FN_MEDIAN: case FN_STD:
	case FN_QUANTILE:
		if (a.k === V_VEC)
			return scal(aggregate(c, f, a, args.length === 2 &&
			    args[1].k === V_SCAL ? args[1].s : NaN));
		if (a.k === V_NONE || a.k === V_TEXT)
			return f === FN_AVG || f === FN_MIN || f === FN_MAX ||
			    f === FN_SUM ? scal(NaN) : none();
		if (f === FN_STD)
			return scal(NaN);
		return a;
	case FN_ROUND: {
		const r = args.length === 2 && args[1].k === V_SCAL ?
		    args[1].s : 0;
		if (a.k === V_SCAL)
			return scal(pyRound(a.s, r));
		if (a.k !== V_VEC)
			return a;
		const o = new Float64Array(c.n);
		for (let i = 0; i < c.n; i++)
			o[i] = a.na && a.na[i] ? NaN : roundTo(a.v[i], r);
		return vec(o, a.na);
	}
	case FN_TO_INT:
		return toInt(c, a);
	case FN_MOD:
		return binop(c, OP_MODOP, 0, a, args[1]);
	default:
		return { k: V_TEXT, s: NaN, v: null, na: null };
	}
}

/* Runs a program ([kind, op, sub, nargs, arg, num, ...]). */
function run(p, c) {
	const st = [];
	for (let i = 1; i < p.length; i += 5) {
		const op = p[i], sub = p[i + 1], nargs = p[i + 2];
		const arg = p[i + 3];
		switch (op) {
		case OP_NUM:
			st.push(scal(jnum(p[i + 4])));
			break;
		case OP_NONE: case OP_MISSING:
			st.push(none());
			break;
		case OP_STR:
			st.push({ k: V_TEXT, s: NaN, v: null, na: null });
			break;
		case OP_COL:
			st.push(vec(c.column(arg)));
			break;
		case OP_VAR: {
			const b = c.builtin(arg);
			if (arg <= VAR_GRBM_SPI)
				st.push(b === null ? none() : vec(b));
			else
				st.push(isNaN(b) ? none() : scal(b));
			break;
		}
		case OP_NEG: {
			const a = st.pop();
			st.push(a.k === V_SCAL ? scal(-a.s) : a.k === V_VEC ?
			    binop(c, OP_MUL, 0, a, scal(-1)) : a);
			break;
		}
		case OP_SEL: {
			const y = st.pop(), cd = st.pop(), x = st.pop();
			st.push(select3(c, x, cd, y));
			break;
		}
		case OP_CMP:
			if (nargs === 1) {
				st.push(cmpNone(c, sub, st.pop()));
				break;
			}
			/* FALLTHROUGH */
		default:
			if (op === OP_CALL) {
				const args = st.splice(st.length - nargs, nargs);
				st.push(call(c, sub, args));
			} else {
				const b = st.pop(), a = st.pop();
				st.push(binop(c, op, sub, a, b));
			}
		}
	}
	return st[0];
}

/* A cell's value: a number (inf included) or null. */
function evalCell(p, c) {
	if (p[0] === V_NONE)
		return null;
	const r = run(p, c);
	return r.k === V_SCAL && !isNaN(r.s) ? r.s : null;
}

const BOX_Q = [0, 0.25, 0.5, 0.75, 1];

/* The five simple_box statistics (null where blank). */
function evalBox(p, c) {
	const out = [null, null, null, null, null];
	if (p[0] === V_NONE)
		return out;
	const r = run(p, c);
	if (r.k === V_SCAL && !isNaN(r.s))
		return out.fill(r.s);
	if (r.k === V_VEC) {
		const { buf, m, nan } = collect(c, r);
		if (!nan && m > 0) {
			const s = buf.subarray(0, m).sort();
			for (let i = 0; i < 5; i++) {
				const v = i === 2 ? medianSorted(s, m) :
				    quantileSorted(s, m, BOX_Q[i]);
				out[i] = isNaN(v) ? null : v;
			}
		}
	}
	return out;
}

/* ---------- the data ---------- */

/* ---------- zlib streams (RFC 1950, 1951) ---------- */

/*
 * The columns are zlib streams (cmd/metric-eval/interactive.c).  They are
 * inflated here, synchronously, when a table first reads one of their
 * columns: the browser's DecompressionStream hands its output over in
 * many small asynchronous chunks, which costs more than the inflating.
 */
const Z_LBASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const Z_LEXT = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
    4, 4, 4, 4, 5, 5, 5, 5, 0];
const Z_DBASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
    257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289,
    16385, 24577];
const Z_DEXT = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8,
    9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const Z_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14,
    1, 15];
const Z_FAST = 10;

/*
 * A canonical Huffman code from its code lengths: count and symbol as in
 * zlib's puff.c, and a table of the codes of at most Z_FAST bits indexed
 * by the next Z_FAST bits of the stream (symbol << 4 | length; 0: a
 * longer code).
 */
function zHuff(lens, n) {
	const count = new Uint16Array(16), offs = new Uint16Array(16);
	const symbol = new Uint16Array(n), fast = new Uint32Array(1 << Z_FAST);
	for (let i = 0; i < n; i++)
		count[lens[i]]++;
	count[0] = 0;
	let left = 1;
	for (let l = 1; l < 16; l++) {
		left = left * 2 - count[l];
		if (left < 0)
			throw zBad('a bad Huffman code');
		offs[l] = l > 1 ? offs[l - 1] + count[l - 1] : 0;
	}
	for (let i = 0; i < n; i++)
		if (lens[i] !== 0)
			symbol[offs[lens[i]]++] = i;
	let code = 0, k = 0;
	for (let l = 1; l <= Z_FAST; l++) {
		for (let j = 0; j < count[l]; j++, code++, k++) {
			let rev = 0;
			for (let b = 0; b < l; b++)
				rev |= ((code >> b) & 1) << (l - 1 - b);
			for (let x = rev; x < 1 << Z_FAST; x += 1 << l)
				fast[x] = symbol[k] << 4 | l;
		}
		code <<= 1;
	}
	return { count, symbol, fast };
}

let zFixed = null;

function zFixedCodes() {
	if (zFixed === null) {
		const l = new Uint8Array(288);
		l.fill(8, 0, 144);
		l.fill(9, 144, 256);
		l.fill(7, 256, 280);
		l.fill(8, 280, 288);
		zFixed = [zHuff(l, 288), zHuff(new Uint8Array(30).fill(5), 30)];
	}
	return zFixed;
}

function zBad(what) {
	return new Error('a column pack is not a zlib stream: ' + what);
}

/*
 * The bit reader of the block headers (the blocks' symbols are read by
 * inflate() itself, with its own copy of the state in local variables).
 */
class ZBits {
	constructor(src) {
		this.src = src;
		this.pos = 2;
		this.bb = 0;
		this.bc = 0;
	}

	fill() {
		while (this.bc <= 23) {
			if (this.pos >= this.src.length + 4)
				throw zBad('it is cut short');
			this.bb |= (this.src[this.pos++] ?? 0) << this.bc;
			this.bc += 8;
		}
	}

	bits(n) {
		if (this.bc < n)
			this.fill();
		const v = this.bb & ((1 << n) - 1);
		this.bb >>>= n;
		this.bc -= n;
		return v;
	}

	/* A symbol of code h, bit by bit (puff.c's decode()). */
	slow(h) {
		if (this.bc < 15)
			this.fill();
		let code = 0, first = 0, index = 0;
		for (let l = 1; l < 16; l++) {
			code |= this.bb & 1;
			this.bb >>>= 1;
			this.bc--;
			const c = h.count[l];
			if (code - c < first)
				return h.symbol[index + (code - first)];
			index += c;
			first = (first + c) << 1;
			code <<= 1;
		}
		throw zBad('a code that is not in its table');
	}

	sym(h) {
		if (this.bc < 15)
			this.fill();
		const e = h.fast[this.bb & ((1 << Z_FAST) - 1)];
		if (e === 0)
			return this.slow(h);
		this.bb >>>= e & 15;
		this.bc -= e & 15;
		return e >> 4;
	}
}

/* The codes of a dynamic block (RFC 1951, 3.2.7). */
function zDynamic(z) {
	const nlen = z.bits(5) + 257, ndist = z.bits(5) + 1;
	const ncode = z.bits(4) + 4;
	const cl = new Uint8Array(19);
	for (let i = 0; i < ncode; i++)
		cl[Z_ORDER[i]] = z.bits(3);
	const ch = zHuff(cl, 19), nall = nlen + ndist;
	const lens = new Uint8Array(nall);
	for (let i = 0; i < nall;) {
		const s = z.sym(ch);
		if (s < 16) {
			lens[i++] = s;
			continue;
		}
		let v = 0, r;
		if (s === 16) {
			if (i === 0)
				throw zBad('a repeat with nothing before it');
			v = lens[i - 1];
			r = 3 + z.bits(2);
		} else {
			r = s === 17 ? 3 + z.bits(3) : 11 + z.bits(7);
		}
		if (i + r > nall)
			throw zBad('too many code lengths');
		lens.fill(v, i, i + r);
		i += r;
	}
	return [zHuff(lens.subarray(0, nlen), nlen),
	    zHuff(lens.subarray(nlen), ndist)];
}

/* Inflates the zlib stream src into out, which it must fill exactly. */
function inflate(src, out) {
	if (src.length < 6 || (src[0] & 15) !== 8 ||
	    ((src[0] << 8) | src[1]) % 31 !== 0 || (src[1] & 32))
		throw zBad('its header');
	const z = new ZBits(src), n = src.length, olen = out.length;
	const FM = (1 << Z_FAST) - 1;
	let op = 0, last;
	do {
		last = z.bits(1);
		const type = z.bits(2);
		if (type === 0) {
			/* Stored: back to the byte boundary. */
			let pos = z.pos - (z.bc >> 3);
			z.bb = z.bc = 0;
			if (pos + 4 > n)
				throw zBad('it is cut short');
			const len = src[pos] | src[pos + 1] << 8;
			if ((len ^ (src[pos + 2] | src[pos + 3] << 8)) !== 0xffff)
				throw zBad('a stored block\'s length');
			pos += 4;
			if (pos + len > n || op + len > olen)
				throw zBad('a stored block too long');
			out.set(src.subarray(pos, pos + len), op);
			z.pos = pos + len;
			op += len;
			continue;
		}
		if (type === 3)
			throw zBad('a block of type 3');
		const [lit, dist] = type === 1 ? zFixedCodes() : zDynamic(z);
		const lf = lit.fast, df = dist.fast;
		let pos = z.pos, bb = z.bb, bc = z.bc;
		for (;;) {
			if (bc < 15) {
				if (pos >= n + 4)
					throw zBad('it is cut short');
				do {
					bb |= src[pos++] << bc;
					bc += 8;
				} while (bc <= 23);
			}
			let s, e = lf[bb & FM];
			if (e !== 0) {
				bb >>>= e & 15;
				bc -= e & 15;
				s = e >> 4;
			} else {
				z.pos = pos;
				z.bb = bb;
				z.bc = bc;
				s = z.slow(lit);
				pos = z.pos;
				bb = z.bb;
				bc = z.bc;
			}
			if (s < 256) {
				if (op >= olen)
					throw zBad('more bytes than its columns');
				out[op++] = s;
				continue;
			}
			if (s === 256)
				break;
			s -= 257;
			if (s >= 29)
				throw zBad('a bad length code');
			if (bc < 20) {
				do {
					bb |= src[pos++] << bc;
					bc += 8;
				} while (bc <= 23);
			}
			let k = Z_LEXT[s];
			const len = Z_LBASE[s] + (bb & ((1 << k) - 1));
			bb >>>= k;
			bc -= k;
			if (bc < 15) {
				do {
					bb |= src[pos++] << bc;
					bc += 8;
				} while (bc <= 23);
			}
			e = df[bb & FM];
			if (e !== 0) {
				bb >>>= e & 15;
				bc -= e & 15;
				s = e >> 4;
			} else {
				z.pos = pos;
				z.bb = bb;
				z.bc = bc;
				s = z.slow(dist);
				pos = z.pos;
				bb = z.bb;
				bc = z.bc;
			}
			if (s >= 30)
				throw zBad('a bad distance code');
			if (bc < 13) {
				do {
					bb |= src[pos++] << bc;
					bc += 8;
				} while (bc <= 23);
			}
			k = Z_DEXT[s];
			const d = Z_DBASE[s] + (bb & ((1 << k) - 1));
			bb >>>= k;
			bc -= k;
			if (d > op || op + len > olen)
				throw zBad(d > op ? 'a copy from before its start' :
				    'more bytes than its columns');
			if (d >= len) {
				out.copyWithin(op, op - d, op - d + len);
				op += len;
			} else {
				for (const end = op + len; op < end; op++)
					out[op] = out[op - d];
			}
		}
		z.pos = pos;
		z.bb = bb;
		z.bc = bc;
		if (pos - (bc >> 3) > n)
			throw zBad('it is cut short');
	} while (!last);
	if (op !== olen)
		throw zBad('fewer bytes than its columns');
	const at = z.pos - (z.bc >> 3);
	if (at + 4 > n)
		throw zBad('it is cut short');
	if ((((src[at] << 24) | (src[at + 1] << 16) | (src[at + 2] << 8) |
	    src[at + 3]) >>> 0) !== adler32(out))
		throw zBad('its checksum');
	return out;
}

function adler32(b) {
	let a = 1, s = 0;
	for (let i = 0; i < b.length;) {
		for (const end = Math.min(b.length, i + 5552); i < end; i++) {
			a += b[i];
			s += a;
		}
		a %= 65521;
		s %= 65521;
	}
	return ((s << 16) | a) >>> 0;
}

/* The bytes of base64 text. */
function b64bytes(text) {
	if (typeof Uint8Array.fromBase64 === 'function')
		return Uint8Array.fromBase64(text);
	const s = atob(text), b = new Uint8Array(s.length);
	for (let i = 0; i < s.length; i++)
		b[i] = s.charCodeAt(i);
	return b;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/* One column's values from its bytes at off (byte planes, little
 * endian, floats or doubles), as a Float64Array: the evaluation reads
 * one kind of array. */
function planes(raw, off, w, n) {
	const bytes = new Uint8Array(n * w);
	for (let b = 0; b < w; b++) {
		const at = littleEndian ? b : w - 1 - b;
		for (let i = 0, j = off + b * n; i < n; i++)
			bytes[i * w + at] = raw[j + i];
	}
	return w === 8 ? new Float64Array(bytes.buffer) :
	    Float64Array.from(new Float32Array(bytes.buffer));
}

/*
 * The columns of one interactive_column record (a pack): each column's
 * pack and place in its bytes, in at[].  A pack is decoded (and inflated)
 * when a table first reads one of its columns, so the first view pays
 * only for the packs it reads.
 */
function addPack(g, i, n, at) {
	const encs = g.get(i, 'encodings'), first = g.get(i, 'index');
	const pack = { text: g.get(i, 'data'), z: g.get(i, 'compression') ===
	    'zlib', size: 0, left: 0, raw: null };
	encs.forEach((e, k) => {
		const w = e === 'f64' ? 8 : 4;
		at[first + k] = { pack, off: pack.size, w };
		pack.size += n * w;
		pack.left++;
	});
	if (!pack.z) {
		const t = pack.text, pad = t.endsWith('==') ? 2 :
		    t.endsWith('=') ? 1 : 0;
		const len = t.length / 4 * 3 - pad;
		if (len !== pack.size)
			throw new Error(len < pack.size ? 'a column pack is cut ' +
			    'short' : 'a column pack has bytes left over');
	}
}

function unpack(pack) {
	const b = b64bytes(pack.text);
	if (pack.z)
		return inflate(b, new Uint8Array(pack.size));
	if (b.length !== pack.size)
		throw new Error('a column pack is cut short');
	return b;
}

/* A record of a chart.js group as a plain object, keys in order. */
function recordOf(g, i) {
	const r = {};
	for (const k of g.keysOf([i]))
		r[k] = g.get(i, k);
	return r;
}

async function loadData(gi, groups) {
	const get = (k) => gi.get(0, k);
	const n = get('dispatches');
	const d = {
		n, kernels: get('kernels'), kernel: get('kernel'),
		gpu: get('gpu'), dispatchId: get('dispatch_id'),
		position: get('position'), dur: get('dur_ns').map(jnum),
		sysinfo: get('sysinfo'), builtinCols: get('builtin_columns'),
		roofCols: get('roofline_columns'), norms: get('normalizations'),
		norm: get('normalization'), run: get('run'),
		columns: [], tables: [], statics: new Map(),
	};
	const gc = groups.get('interactive_column');
	const at = [];
	for (let i = 0; gc && i < gc.rows; i++)
		addPack(gc, i, n, at);
	d.col = (c) => {
		let v = d.columns[c];
		if (v === undefined) {
			const p = at[c];
			if (p.pack.raw === null) {
				try {
					p.pack.raw = unpack(p.pack);
				} catch (e) {
					d.failed(e);
					throw e;
				}
				p.pack.text = null;
			}
			v = d.columns[c] = planes(p.pack.raw, p.off, p.w, n);
			/* Its bytes are let go once every column is out. */
			if (--p.pack.left === 0)
				p.pack.raw = null;
		}
		return v;
	};
	d.failed = () => {};
	const gt = groups.get('interactive_table');
	for (let i = 0; gt && i < gt.rows; i++)
		d.tables.push(recordOf(gt, i));
	/* Tables that do not depend on the choice, and which of the data's
	 * own tables the records have (-b may leave some out). */
	const gm = groups.get('metric');
	for (let i = 0; gm && i < gm.rows; i++) {
		const tid = gm.get(i, 'table_id');
		let a = d.statics.get(tid);
		if (a === undefined)
			d.statics.set(tid, a = []);
		if (tid === '1.1' || tid === '4.2')
			a.push(recordOf(gm, i));
	}
	return d;
}

/* ---------- the tables filled from the data (panels.c) ---------- */

/* strcmp() order of two names. */
function byName(a, b) {
	return a < b ? -1 : a > b ? 1 : 0;
}

function sortBySum(list, names) {
	list.sort((x, y) => {
		if (isNaN(x.sum) !== isNaN(y.sum))
			return isNaN(x.sum) ? 1 : -1;
		if (x.sum !== y.sum && !isNaN(x.sum))
			return x.sum > y.sum ? -1 : 1;
		return byName(names[x.kernel], names[y.kernel]);
	});
	return list;
}

/* Kernels of rows idx by total duration: [{kernel, n, sum, durs}]. */
function topStats(d, idx) {
	const by = new Map();
	for (const r of idx) {
		let s = by.get(d.kernel[r]);
		if (s === undefined)
			by.set(d.kernel[r], s = { kernel: d.kernel[r], n: 0,
			    sum: 0, durs: [] });
		s.n++;
		s.sum += d.dur[r];
		s.durs.push(d.dur[r]);
	}
	return sortBySum([...by.values()], d.kernels);
}

/* Text that is a number (panels.c put_text) as that number. */
function textValue(s) {
	if (s === null || s === undefined)
		return null;
	if (/^(-?\d+(\.\d*)?|-\.\d+)([eE][-+]?\d+)?$/.test(s))
		return Number(s);
	return s;
}

const nullNaN = (x) => (isNaN(x) ? null : x);

function head(tid, panel, table, row, metric) {
	const [p, t] = tid.split('.');
	return { panel_id: Number(p) * 100, panel, table_id: tid, table,
	    metric_id: `${tid}.${row}`, metric };
}

function topKernelRecs(d, idx, norm, topn) {
	const ks = topStats(d, idx);
	let total = 0;
	for (const k of ks)
		total += k.sum;
	const out = [];
	ks.forEach((k, i) => {
		if (topn > 0 && i >= topn)
			return;
		const s = Float64Array.from(k.durs).sort(), n = s.length;
		const r = head('0.1', 'Top Stats', 'Top Kernels', i,
		    d.kernels[k.kernel]);
		r.normalization = norm;
		if (d.run !== undefined)
			r.run = d.run;
		Object.assign(r, { Count: k.n, 'Sum(ns)': nullNaN(k.sum),
		    'Mean(ns)': nullNaN(k.sum / k.n),
		    'Median(ns)': nullNaN(n % 2 ? s[n >> 1] :
		    (s[n / 2 - 1] + s[n / 2]) / 2),
		    Pct: total === 0 ? null : nullNaN(k.sum / total * 100) });
		out.push(r);
	});
	return out;
}

function dispatchRecs(d, idx, norm, topn) {
	const out = [];
	idx.forEach((row, i) => {
		if (topn > 0 && i >= topn)
			return;
		const id = d.dispatchId[row];
		const r = head('0.2', 'Top Stats', 'Dispatch List', i,
		    id ?? String(i));
		r.normalization = norm;
		if (d.run !== undefined)
			r.run = d.run;
		r.Dispatch_ID = textValue(id);
		r.Kernel_Name = d.kernels[d.kernel[row]] ?? null;
		r.GPU_ID = textValue(d.gpu[row]);
		out.push(r);
	});
	return out;
}

const ARCH = { gfx90a: 1, gfx940: 2, gfx941: 2, gfx942: 2, gfx950: 3 };

/* Per-dispatch roofline quantities (panels.c row_point). */
function rowPoint(d, r, arch, banks, p) {
	const ctr = (c) => {
		const k = d.roofCols[c];
		if (k < 0) {
			ok = false;
			return 0;
		}
		return d.col(k)[r];
	};
	const w = [1, 1, 2, 1];
	let ok = true, f = 0;
	for (let i = 0; i < 12; i++)
		f += 64 * w[i % 4] * ctr(i);
	for (let i = 0; i < 4; i++)
		f += 512 * ctr(12 + i);
	if (!ok)
		f = 0;
	else if (arch >= 2) {
		const f8 = ctr(16);
		if (ok) {
			f += 512 * f8;
			if (arch === 3) {
				const f6 = ctr(17);
				if (ok)
					f += 512 * f6;
			}
		}
	}
	p.flops += f;
	ok = true;
	let v;
	if (arch === 1) {
		const rd32 = ctr(25), rd = ctr(26), wr64 = ctr(27), wr = ctr(28);
		v = 32 * rd32 + 64 * (rd - rd32) + 64 * wr64 + 32 * (wr - wr64);
	} else {
		const bub = ctr(29), rd32 = ctr(30), rd = ctr(31), wr = ctr(32),
		    wr64 = ctr(33);
		v = 128 * bub + 32 * rd32 + 64 * (rd - bub - rd32) +
		    32 * (wr - wr64) + 64 * wr64;
	}
	p.hbm += ok ? v : 0;
	ok = true;
	let a = 0;
	for (let i = 0; i < 4; i++)
		a += ctr(21 + i);
	if (ok)
		p.l2 += 64 * a;
	ok = true;
	a = ctr(20);
	if (ok)
		p.l1 += 64 * a;
	ok = true;
	a = ctr(18);
	const b = ctr(19);
	if (ok)
		p.lds += (a - b) * 4 * banks;
}

function rooflineRecs(d, idx, norm) {
	const arch = ARCH[d.sysinfo.gpu_arch] ?? 0;
	if (arch === 0)
		return [];
	const banks = jnum(d.sysinfo.lds_banks_per_cu);
	const ks = [];
	for (let k = 0; k < d.kernels.length; k++) {
		const e = { kernel: k, n: 0, sum: 0, p: { flops: 0, hbm: 0,
		    l2: 0, l1: 0, lds: 0 } };
		for (const r of idx)
			if (d.kernel[r] === k) {
				e.n++;
				e.sum += d.dur[r];
				rowPoint(d, r, arch, banks, e.p);
			}
		if (e.n)
			ks.push(e);
	}
	sortBySum(ks, d.kernels);
	const ai = (f, b) => (b !== 0 ? f / b : 0);
	return ks.slice(0, 10).map((k, i) => {
		const n = k.n, f = k.p.flops / n, dd = k.sum / n;
		const r = head('4.1', 'Roofline', 'Roofline', i,
		    d.kernels[k.kernel]);
		Object.assign(r, { rank: i, calls: n, dur_ns: nullNaN(dd),
		    FLOPs: nullNaN(f), 'HBM bytes': nullNaN(k.p.hbm / n),
		    'L2 bytes': nullNaN(k.p.l2 / n),
		    'L1 bytes': nullNaN(k.p.l1 / n),
		    'LDS bytes': nullNaN(k.p.lds / n),
		    'AI HBM': nullNaN(ai(f, k.p.hbm / n)),
		    'AI L2': nullNaN(ai(f, k.p.l2 / n)),
		    'AI L1': nullNaN(ai(f, k.p.l1 / n)),
		    'AI LDS': nullNaN(ai(f, k.p.lds / n)),
		    'GFLOP/s': nullNaN(dd !== 0 ? f / dd : 0),
		    normalization: norm });
		if (d.run !== undefined)
			r.run = d.run;
		return r;
	});
}

function staticRecs(d, tid, norm) {
	return (d.statics.get(tid) ?? []).map((r) =>
	    Object.assign({ ...r }, { normalization: norm }));
}

/* ---------- records for a choice, evaluated when read ---------- */

/*
 * A group as chart.js reads one (kind, rows, keys, col(), get(),
 * keysOf(), allRows()), over plain records and lazy metric rows: the
 * keys that name a row are known at once, the evaluated cells when a
 * row is first read.
 */
class LazyGroup {
	constructor() {
		this.kind = 'metric';
		this.rows = 0;
		this.statics = [];	/* per row: the keys known at once */
		this.shapes = [];	/* per row: its key list */
		this.evals = [];	/* per row: null, or () => values */
		this.done = [];
		this.keys = [];
		this.keySet = new Set();
		this.colCache = new Map();
	}

	add(st, shape, evalRow) {
		this.statics.push(st);
		this.shapes.push(shape);
		this.evals.push(evalRow ?? null);
		this.done.push(null);
		for (const k of shape)
			if (!this.keySet.has(k)) {
				this.keySet.add(k);
				this.keys.push(k);
			}
		this.rows++;
	}

	get(i, key) {
		const st = this.statics[i];
		if (Object.hasOwn(st, key))
			return st[key];
		if (this.evals[i] === null)
			return undefined;
		if (this.done[i] === null)
			this.done[i] = this.evals[i]();
		return this.done[i][key];
	}

	col(key) {
		if (!this.keySet.has(key))
			return null;
		let c = this.colCache.get(key);
		if (c === undefined)
			this.colCache.set(key, c = { key,
			    get: (i) => this.get(i, key) });
		return c;
	}

	keysOf(rows) {
		const seen = new Set(), out = [];
		for (const i of rows)
			for (const k of this.shapes[i])
				if (!seen.has(k)) {
					seen.add(k);
					out.push(k);
				}
		return out;
	}

	allRows() {
		return Array.from({ length: this.rows }, (_, i) => i);
	}
}

function addPlain(g, recs) {
	for (const r of recs)
		g.add(r, Object.keys(r), null);
}

/* The records of one interactive_table for normalization ni. */
function addTable(g, d, t, ctx, ni) {
	const norm = d.norms[ni];
	const progs = t.programs, cols = t.columns;
	for (const row of t.rows) {
		const st = head(t.table_id, t.panel, t.table, row.row,
		    row.metric);
		st.panel_id = t.panel_id;
		st.normalization = norm;
		if (d.run !== undefined)
			st.run = d.run;
		const shape = Object.keys(st);
		if (t.name_number) {
			st[t.name_title] = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/
			    .test(row.metric) ? Number(row.metric) : null;
			shape.push(t.name_title);
		}
		const evalCols = [];
		row.cells.forEach((c, k) => {
			shape.push(cols[k]);
			if (c === null || typeof c === 'string')
				st[cols[k]] = c;
			else if (c.unit !== undefined)
				st[cols[k]] = c.unit[ni];
			else
				evalCols.push(k);
		});
		if (row.Description !== undefined) {
			st.Description = row.Description;
			shape.push('Description');
		}
		const evalRow = () => {
			const out = {};
			let box = null;
			for (const k of evalCols) {
				const c = row.cells[k], p = progs[c.eval[ni]];
				if (c.box) {
					if (c.box === 1 || box === null)
						box = evalBox(p, ctx);
					out[cols[k]] = box[c.box - 1];
				} else {
					out[cols[k]] = evalCell(p, ctx);
				}
			}
			return out;
		};
		g.add(st, shape, evalCols.length ? evalRow : null);
	}
}

/* Every record metric-eval writes for the rows idx, in its order. */
function buildGroup(d, idx, ni, topn) {
	const g = new LazyGroup(), norm = d.norms[ni];
	const ctx = new Ctx(d, idx);
	if (d.statics.has('0.1'))
		addPlain(g, topKernelRecs(d, idx, norm, topn));
	if (d.statics.has('0.2'))
		addPlain(g, dispatchRecs(d, idx, norm, topn));
	addPlain(g, staticRecs(d, '1.1', norm));
	let roof = true;
	const roofline = () => {
		roof = false;
		if (d.statics.has('4.1'))
			addPlain(g, rooflineRecs(d, idx, norm));
		addPlain(g, staticRecs(d, '4.2', norm));
	};
	for (const t of d.tables) {
		if (roof && t.panel_id > 400)
			roofline();
		addTable(g, d, t, ctx, ni);
	}
	if (roof)
		roofline();
	return g;
}

/* ---------- the dispatch filter ---------- */

/*
 * rocprof-compute's dispatch syntax: positions (0-based, as metric-eval
 * -d counts them), ranges 0-9, lists (commas or spaces) and > n.
 * Returns { items } or { error }.
 */
function parseDispatches(text) {
	const items = [];
	const s = text.trim();
	if (s === '')
		return { items: null };
	const toks = s.replace(/>\s+/g, '>').split(/[\s,]+/).filter((x) => x);
	for (const tok of toks) {
		let m;
		if ((m = /^(\d+)$/.exec(tok)) !== null) {
			items.push({ lo: Number(m[1]), hi: Number(m[1]) });
		} else if ((m = /^(\d+)-(\d+)$/.exec(tok)) !== null) {
			const lo = Number(m[1]), hi = Number(m[2]);
			if (hi < lo)
				return { error: `'${tok}': a range goes up ` +
				    `(${hi}-${lo})` };
			items.push({ lo, hi });
		} else if ((m = /^>(\d+)$/.exec(tok)) !== null) {
			items.push({ gt: Number(m[1]) });
		} else {
			return { error: `'${tok}' is not a dispatch: give ` +
			    'positions (3), ranges (0-9), lists (1,4,7) or > n' };
		}
	}
	return { items };
}

/*
 * The rows of a choice, in metric-eval's order: -g, -k, then -d.  The
 * dispatch field is the list of positions metric-eval -d takes (a range
 * a-b: a to b; > n: the positions above n of the dispatches the other
 * filters leave), in the order given, checked as metric-eval checks it
 * (after rocprof-compute): a position at or beyond the number of
 * dispatches left, or one the other filters removed, refuses the whole
 * choice with metric-eval's message.
 */
function selectRows(d, st) {
	let idx = [];
	for (let r = 0; r < d.n; r++)
		if ((st.gpus.size === 0 || st.gpus.has(d.gpu[r] ?? '')) &&
		    (st.kernels.size === 0 || st.kernels.has(d.kernel[r])))
			idx.push(r);
	if (st.dispatch === null)
		return { idx, error: null };
	const n = idx.length;
	const at = new Map(idx.map((r) => [d.position[r], r]));
	const out = [];
	const take = (p) => {
		if (p >= n)
			return `--dispatch ${p}: only ${n} dispatch` +
			    `${n === 1 ? ' is' : 'es are'} left after the filters`;
		const r = at.get(p);
		if (r === undefined)
			return `--dispatch ${p}: that dispatch was removed by ` +
			    'the other filters';
		out.push(r);
		return null;
	};
	for (const it of st.dispatch) {
		let e = null;
		if (it.gt !== undefined) {
			for (let i = 0; i < n && e === null; i++)
				if (d.position[idx[i]] > it.gt)
					e = take(d.position[idx[i]]);
		} else {
			/* Stops at the first refusal: at most n + 1 steps. */
			for (let p = it.lo; p <= it.hi && e === null; p++)
				e = take(p);
		}
		if (e !== null)
			return { idx: [], error: e };
	}
	return { idx: out, error: null };
}

/* ---------- the controls ---------- */

function h(tag, attrs, ...kids) {
	const e = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs ?? {}))
		e.setAttribute(k, v);
	for (const k of kids)
		if (k !== null && k !== undefined)
			e.append(k);	/* strings become text nodes */
	return e;
}

function labelled(text, ...kids) {
	return h('label', { class: 'control' }, text + ' ', ...kids);
}

function readState(d, order) {
	const q = new URLSearchParams(location.hash.slice(1));
	const ni = d.norms.indexOf(q.get('normalization') ?? d.norm);
	const topn = Number(q.get('topn') ?? 10);
	const kernels = new Set();
	for (const k of q.getAll('k')) {
		const i = d.kernels.indexOf(k);
		if (i >= 0)
			kernels.add(i);
	}
	return { dispatchText: q.get('dispatch') ?? '',
	    kernels, gpus: new Set(q.getAll('g')), ni: ni < 0 ? 0 : ni,
	    topn: Number.isFinite(topn) && topn >= 0 ? Math.floor(topn) : 10,
	    order };
}

function writeState(d, st) {
	const q = new URLSearchParams();
	if (st.dispatchText.trim() !== '')
		q.set('dispatch', st.dispatchText.trim());
	for (const k of st.kernels)
		q.append('k', d.kernels[k]);
	for (const g of st.gpus)
		q.append('g', g);
	q.set('normalization', d.norms[st.ni]);
	q.set('topn', String(st.topn));
	history.replaceState(null, '', '#' + q.toString());
}

/* The page: controls above the metric view of the current choice. */
function view(gi, groups, lib) {
	const root = h('div', { class: 'filters-view' });
	const note = h('p', { class: 'note', 'data-testid': 'filters-loading' },
	    'Reading the dispatches...');
	root.append(note);
	loadData(gi, groups).then((d) => setup(root, d, lib),
	    (e) => { note.textContent = 'The filters cannot be used: ' +
	    e.message; });
	return root;
}

function setup(root, d, lib) {
	const all = Array.from({ length: d.n }, (_, i) => i);
	const order = topStats(d, all).map((k) => k.kernel);
	const st = readState(d, order);
	const parsed = parseDispatches(st.dispatchText);
	st.dispatch = parsed.error ? null : parsed.items;

	const dIn = h('input', { type: 'text', 'data-testid': 'filter-dispatch',
	    placeholder: 'all, or 0-9, 12, > 40', size: '18',
	    'aria-label': 'dispatches' });
	dIn.value = parsed.error ? '' : st.dispatchText;
	const dErr = h('span', { class: 'warn', 'data-testid':
	    'filter-dispatch-error', role: 'alert' });
	const kSearch = h('input', { type: 'search', 'data-testid':
	    'filter-kernel-search', placeholder: 'filter kernels',
	    'aria-label': 'filter the kernel list' });
	const kSel = h('select', { multiple: '', size: '6',
	    'data-testid': 'filter-kernel', 'aria-label': 'kernels' });
	for (const k of order) {
		const o = h('option', { value: String(k), title: d.kernels[k] },
		    d.kernels[k]);
		o.selected = st.kernels.has(k);
		kSel.append(o);
	}
	const gpus = [...new Set(d.gpu.map((x) => x ?? ''))];
	const gSel = h('select', { multiple: '', size: String(Math.min(4,
	    Math.max(2, gpus.length))), 'data-testid': 'filter-gpu',
	    'aria-label': 'GPUs' });
	for (const g of gpus) {
		const o = h('option', { value: g }, g === '' ? '(none)' : g);
		o.selected = st.gpus.has(g);
		gSel.append(o);
	}
	const nSel = h('select', { 'data-testid': 'normalization',
	    'aria-label': 'normalization' });
	d.norms.forEach((n, i) => {
		const o = h('option', { value: String(i) }, n);
		o.selected = i === st.ni;
		nSel.append(o);
	});
	const tIn = h('input', { type: 'number', min: '0', step: '1',
	    'data-testid': 'topn', 'aria-label': 'Top-N', size: '4' });
	tIn.value = String(st.topn);
	const status = h('span', { class: 'note', 'data-testid':
	    'filter-status' });
	const bar = h('div', { class: 'controls filters' },
	    labelled('Dispatches', dIn, dErr),
	    labelled('Kernels', kSearch, kSel),
	    labelled('GPUs', gSel), labelled('Normalization', nSel),
	    labelled('Top-N', tIn), status);
	const body = h('div', { class: 'filtered' });
	/* Panels out of view are not laid out at each change. */
	document.head.append(h('style', {}, '.filtered details.panel ' +
	    '{ content-visibility: auto; ' +
	    'contain-intrinsic-size: auto 900px; }'));
	root.replaceChildren(bar, body);
	d.failed = (e) => root.replaceChildren(h('p', { class: 'warn',
	    'data-testid': 'filters-error' }, 'The filters cannot be used: ' +
	    e.message));

	const redraw = () => {
		const t0 = performance.now();
		const { idx, error } = selectRows(d, st);
		const old = body.offsetHeight;
		body.style.minHeight = old + 'px';
		lib.resetCells();
		status.textContent = error !== null ? 'not evaluated: ' + error :
		    `${idx.length} of ${d.n} dispatches`;
		if (error !== null) {
			body.replaceChildren(emptyView(d, 'not evaluated: ' +
			    error));
		} else if (idx.length === 0) {
			body.replaceChildren(emptyView(d, 'no dispatch selected'));
		} else {
			const g = buildGroup(d, idx, st.ni, st.topn);
			body.replaceChildren(lib.metricView(g));
		}
		requestAnimationFrame(() => { body.style.minHeight = ''; });
		root.dataset.redrawMs = (performance.now() - t0).toFixed(1);
		root.dataset.changes = String(Number(root.dataset.changes ??
		    0) + 1);
		writeState(d, st);
	};
	dIn.addEventListener('change', () => {
		if (dIn.value === st.dispatchText && dErr.textContent === '')
			return;
		const p = parseDispatches(dIn.value);
		if (p.error) {
			dErr.textContent = p.error;
			dIn.setAttribute('aria-invalid', 'true');
			return;
		}
		dErr.textContent = '';
		dIn.removeAttribute('aria-invalid');
		st.dispatchText = dIn.value;
		st.dispatch = p.items;
		redraw();
	});
	dIn.addEventListener('keydown', (e) => {
		if (e.key === 'Enter')
			dIn.dispatchEvent(new Event('change'));
	});
	kSearch.addEventListener('input', () => {
		const q = kSearch.value.toLowerCase();
		for (const o of kSel.options)
			o.hidden = q !== '' && !o.textContent.toLowerCase()
			    .includes(q);
	});
	kSel.addEventListener('change', () => {
		st.kernels = new Set([...kSel.selectedOptions].map((o) =>
		    Number(o.value)));
		redraw();
	});
	gSel.addEventListener('change', () => {
		st.gpus = new Set([...gSel.selectedOptions].map((o) =>
		    o.value));
		redraw();
	});
	nSel.addEventListener('change', () => {
		st.ni = Number(nSel.value);
		redraw();
	});
	tIn.addEventListener('change', () => {
		const v = Number(tIn.value);
		if (!Number.isFinite(v) || v < 0) {
			tIn.value = String(st.topn);
			return;
		}
		st.topn = Math.floor(v);
		redraw();
	});
	/* A new URL fragment (a link followed, the address edited): its
	 * choice, without a reload.  The page's own writes replace the
	 * fragment and fire no hashchange. */
	window.addEventListener('hashchange', () => {
		const ns = readState(d, order);
		const p = parseDispatches(ns.dispatchText);
		dIn.value = ns.dispatchText;
		if (p.error) {
			dErr.textContent = p.error;
			dIn.setAttribute('aria-invalid', 'true');
		} else {
			dErr.textContent = '';
			dIn.removeAttribute('aria-invalid');
			st.dispatchText = ns.dispatchText;
			st.dispatch = p.items;
		}
		st.kernels = ns.kernels;
		st.gpus = ns.gpus;
		st.ni = ns.ni;
		st.topn = ns.topn;
		for (const o of kSel.options)
			o.selected = st.kernels.has(Number(o.value));
		for (const o of gSel.options)
			o.selected = st.gpus.has(o.value);
		nSel.value = String(st.ni);
		tIn.value = String(st.topn);
		redraw();
	});
	redraw();
	root.dataset.ready = '';
	/* For scripts: when the first choice is drawn and laid out (ms
	 * since navigation). */
	requestAnimationFrame(() => setTimeout(() => {
		root.dataset.readyMs = performance.now().toFixed(1);
	}));
}

/* Every table of the data, each saying why it shows no numbers. */
function emptyView(d, why) {
	const box = h('div', { class: 'metrics', 'data-testid':
	    'no-dispatch' });
	for (const id of d.statics.keys())
		box.append(h('div', { class: 'mtable', 'data-testid':
		    'empty-' + id }, h('h3', {}, id),
		    h('p', { class: 'note' }, why)));
	return box;
}

window.profpipeFilters = { view, parseDispatches };
})();

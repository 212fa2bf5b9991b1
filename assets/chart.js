/*
 * chart.js: lays out the records that chart2html embeds in the page and
 * draws their tables and charts.  No library, no network: the data is the
 * JSON in #profpipe-data (docs/formats.md, "HTML pages"), column by column.
 *
 * Known record kinds get their views without options: metric records
 * (metric-eval) one panel per panel_id with a table per table_id, a
 * kernel and a normalization selector; statistics (topn) a Top-N table and
 * bars, and when grouped by run the straggler heatmap (heatView); dispatch records (pmc2ndjson) a timeline and the dispatch list;
 * MIGraphX records the Summary as bars and the instruction table.  Other
 * records get the views asked for on the command line (data.views).
 * KINDS (near the end) is the one list of known kinds: a new kind is one
 * entry there, with its title, its rank on the page and its view.
 *
 * Every text reaches the page through textContent or esc(), never as
 * markup.  Controls carry stable data-testid attributes.
 */
'use strict';
(function () {

/* ---------- values ---------- */

function esc(s) {
	return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;',
	    '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/* The number a value stands for: NaN when it is not a number. */
function num(v) {
	if (typeof v === 'number')
		return v;
	if (typeof v === 'string') {
		if (v === 'inf')
			return Infinity;
		if (v === '-inf')
			return -Infinity;
		if (/^-?\d+(\.\d*)?([eE][-+]?\d+)?$/.test(v))
			return Number(v);
	}
	return NaN;
}

/* "1 record", "2 records". */
function plural(n, what, whats = what + 's') {
	return `${n} ${n === 1 ? what : whats}`;
}

/* Blank as rocprof-compute shows it: absent, null and NaN. */
function isBlank(v) {
	return v === null || v === undefined || v === 'nan' ||
	    (typeof v === 'number' && isNaN(v));
}

function isNumeric(v) {
	return typeof v === 'number' || v === 'inf' || v === '-inf';
}

/*
 * Two decimals as rocprof-compute prints them: Python's round(x, 2), half
 * to even on the exact binary value.  toFixed() rounds exact ties up; a
 * tie is a multiple of 1/8 (only those end in 5 at the third decimal).
 */
function fixed2(x) {
	if (Number.isInteger(x * 8) && Math.abs((x * 100) % 1) === 0.5) {
		const h = Math.floor(x * 100);
		return ((h % 2 === 0 ? h : h + 1) / 100).toFixed(2);
	}
	return x.toFixed(2);
}

/* A number as a table shows it: integers whole, others with 2 decimals. */
function fmtNum(x) {
	if (x === Infinity)
		return 'inf';
	if (x === -Infinity)
		return '-inf';
	if (Number.isInteger(x))
		return Math.abs(x) < 1e21 ? String(x) : x.toExponential(4);
	const a = Math.abs(x);
	if (a !== 0 && (a < 0.005 || a >= 1e15))
		return x.toExponential(2);
	return fixed2(x);
}

/* A number beside a bar: three significant digits below 1. */
function fmtShort(x) {
	if (x !== 0 && Math.abs(x) < 1 && isFinite(x))
		return String(Number(x.toPrecision(3)));
	return fmtNum(x);
}

/* The text of a cell; exact for the tooltip; fixed: always 2 decimals. */
function fmt(v, exact, fixed) {
	if (isBlank(v))
		return '';
	if (typeof v === 'number') {
		if (exact)
			return isFinite(v) ? String(v) : fmtNum(v);
		if (fixed && isFinite(v) && Math.abs(v) < 1e15 &&
		    (v === 0 || Math.abs(v) >= 0.005))
			return fixed2(v);
		return fmtNum(v);
	}
	if (typeof v === 'object')
		return JSON.stringify(v);
	return String(v);
}

/*
 * A key that holds a duration in nanoseconds (dur_ns, sum_ns, self_ns),
 * not a point in time (start_ns, end_ns), which stays as written.
 */
function nsKey(k) {
	return /_ns$/.test(k) &&
	    !/^(start|end|begin|stop|ts|t|time|timestamp)_ns$/i.test(k);
}

/* Nanoseconds in a readable unit ("3.36 ms"); null below 1 us. */
function readableNs(ns) {
	const a = Math.abs(ns);
	if (!isFinite(ns) || a < 1e3)
		return null;
	const [d, u] = a < 1e6 ? [1e3, '\u00b5s'] : a < 1e9 ? [1e6, 'ms'] :
	    [1e9, 's'];
	return (ns / d).toFixed(2) + ' ' + u;
}

/* A whole number of ns with grouped digits and its readable form. */
function nsText(ns) {
	const r = readableNs(ns);
	const t = groupDigits(fmtNum(Math.round(ns))) + ' ns';
	return r === null ? t : `${t} (${r})`;
}

/* ---------- the embedded data ---------- */

/* An integer array as embedded: a plain array or arithmetic runs. */
function ints(a, n) {
	if (Array.isArray(a))
		return a;
	const out = new Int32Array(n), r = a.runs;
	let k = 0;
	for (let i = 0; i < r.length; i += 3)
		for (let j = 0, v = r[i]; j < r[i + 2]; j++, v += r[i + 1])
			out[k++] = v;
	return out;
}

/* One group of records of one kind, read column by column. */
class Group {
	constructor(g) {
		this.kind = g.kind;
		this.rows = g.rows;
		this.cols = new Map();
		this.keys = [];
		for (const c of g.cols) {
			const col = { key: c.key, big: !!c.big };
			if (c.dict) {
				const d = c.dict, ix = ints(c.idx, g.rows);
				col.get = (i) => d[ix[i]];
				col.distinct = d;
			} else {
				const vs = c.vals;
				col.get = (i) => vs[i];
			}
			this.cols.set(c.key, col);
			this.keys.push(c.key);
		}
		this.shapes = g.shapes;
		this.shape = ints(g.shape, g.rows);
	}

	col(key) {
		return this.cols.get(key) || null;
	}

	/* The value of key in row i (undefined when the row lacks it). */
	get(i, key) {
		const c = this.cols.get(key);
		return c ? c.get(i) : undefined;
	}

	/* Keys present in the given rows, in the order the records have
	 * them (the first record's order, then keys first seen later). */
	keysOf(rows) {
		const seen = new Set(), have = new Set(), out = [];
		for (const i of rows) {
			const s = this.shape[i];
			if (seen.has(s))
				continue;
			seen.add(s);
			for (const k of this.shapes[s])
				if (!have.has(k)) {
					have.add(k);
					out.push(this.keys[k]);
				}
		}
		return out;
	}

	allRows() {
		const r = new Array(this.rows);
		for (let i = 0; i < this.rows; i++)
			r[i] = i;
		return r;
	}
}

/* ---------- the tooltip ---------- */

const tooltip = document.getElementById('tooltip');

function showTip(text, x, y) {
	tooltip.textContent = text;
	tooltip.hidden = false;
	const w = tooltip.offsetWidth, h = tooltip.offsetHeight;
	const left = Math.min(x + 14, window.innerWidth - w - 4);
	const top = y + 16 + h > window.innerHeight ? y - h - 8 : y + 16;
	tooltip.style.left = Math.max(0, left) + window.scrollX + 'px';
	tooltip.style.top = Math.max(0, top) + window.scrollY + 'px';
}

function hideTip() {
	tooltip.hidden = true;
}

/* Elements with data-tip show it on hover. */
document.addEventListener('mouseover', (e) => {
	const el = e.target.closest ? e.target.closest('[data-tip]') : null;
	if (el !== null)
		showTip(el.getAttribute('data-tip'), e.clientX, e.clientY);
	else if (!e.target.closest || !e.target.closest('canvas'))
		hideTip();
});

/* ---------- small DOM helpers ---------- */

function el(tag, attrs, ...kids) {
	const e = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs || {}))
		if (v !== undefined && v !== null)
			e.setAttribute(k, v);
	for (const k of kids)
		if (k !== null && k !== undefined)
			e.append(k);
	return e;
}

function selector(testid, label, options, onchange) {
	const s = el('select', { 'data-testid': testid });
	options.forEach((o, i) => s.append(el('option', { value: i }, o)));
	s.addEventListener('change', () => onchange(Number(s.value)));
	return el('label', { class: 'control' }, label + ' ', s);
}

/* ---------- tables ---------- */

/* A cell's text: digits grouped in the columns that ask for it. */
function cellText(c, v) {
	const t = fmt(v, !!c.exact, c.fixed);
	/* A change keeps its sign: +25, -50. */
	if (c.sign)
		return num(v) > 0 ? '+' + t : t;
	if (c.ns && typeof v === 'number' && isFinite(v)) {
		const r = readableNs(v);
		return groupDigits(t) + (r === null ? '' : ` (${r})`);
	}
	/* Every digit written, without the noise of a computed sum. */
	if (c.sig && typeof v === 'number' && isFinite(v))
		return groupDigits(String(Number(v.toPrecision(12))));
	return c.group ? groupDigits(t) : t;
}

const ROW_H = 22;

/* Tables whose drawn numbers are to be checked for overflow (Table.fit). */
const fitQueue = new Set();

function fitAll() {
	const ts = [...fitQueue];
	fitQueue.clear();
	const grow = ts.map((t) => t.overflow());
	ts.forEach((t, i) => t.widen(grow[i]));
}

/*
 * A sortable, filterable table whose rows are drawn only where visible.
 * spec: { id, columns: [{ title, get(row), num, big, exact }], rows: [row
 * ids], tip(row, col) and total (the count shown as "of N") optional }.
 * table.refresh(rows) redraws after the values (or the row set) changed.
 */
class Table {
	constructor(spec) {
		this.spec = spec;
		this.cols = spec.columns;
		/* Durations in ns read as "3,356,652 (3.36 ms)". */
		for (const c of this.cols) {
			c.ns ??= !!c.num && nsKey(c.key ?? c.title);
			/* Milliseconds (MIGraphX) keep every digit written:
			 * 0.00881, not 0.01. */
			c.sig ??= !!c.num && /_ms$/.test(c.key ?? c.title);
		}
		this.sortCol = -1;
		this.sortDir = 1;
		this.filter = '';
		this.el = el('div', { class: 'tbl', 'data-testid':
		    'table-' + spec.id });
		this.input = el('input', { type: 'search',
		    placeholder: 'filter', 'data-testid': 'filter',
		    'aria-label': 'filter rows' });
		this.count = el('span', { class: 'count',
		    'data-testid': 'row-count' });
		this.el.append(el('div', { class: 'tbar' }, this.input,
		    this.count));
		this.view = el('div', { class: 'view' });
		this.table = el('table');
		this.thead = el('thead');
		this.tbody = el('tbody');
		this.table.append(this.colgroup(), this.thead, this.tbody);
		this.view.append(this.table);
		this.el.append(this.view);
		this.header();
		let timer = 0;
		this.input.addEventListener('input', () => {
			clearTimeout(timer);
			timer = setTimeout(() => {
				this.filter = this.input.value.toLowerCase();
				this.update();
			}, this.spec.rows.length > 5000 ? 120 : 0);
		});
		this.view.addEventListener('scroll', () => this.draw());
		this.tbody.addEventListener('mouseover', (e) => this.hover(e));
		this.refresh(spec.rows);
	}

	colgroup() {
		const cg = el('colgroup');
		this.colEls = this.cols.map(() => el('col'));
		cg.append(...this.colEls);
		return cg;
	}

	/*
	 * Column widths from the header and a sample of rows, as the cells
	 * show them (after decimals()).  A text column stops at 60 characters
	 * and ellipsizes (its tooltip has the whole text); a numeric column
	 * takes what its numbers need, and fit() widens it further if a drawn
	 * number still does not fit.
	 */
	widths() {
		const rows = this.spec.rows, n = Math.min(rows.length, 300);
		this.cols.forEach((c, j) => {
			let w = Math.max(4, Math.min(c.title.length + 2, 24));
			for (let i = 0; i < n; i++) {
				const t = cellText(c, c.get(rows[i]));
				if (t.length + 1 > w)
					w = t.length + 1;
			}
			c.width = c.num ? w : Math.min(w, 60);
			c.px = 0;
			this.colEls[j].style.width = `calc(${c.width}ch + 1em)`;
		});
		this.tableWidth();
	}

	/* A fixed layout needs a table width: the columns' and their
	 * padding. */
	tableWidth() {
		const ch = this.cols.reduce((a, c) => a + c.width, 0);
		const px = this.cols.reduce((a, c) => a + c.px, 0);
		this.table.style.width =
		    `calc(${ch}ch + ${this.cols.length}em + ${px}px)`;
	}

	/* Numbers are never cut: a numeric column whose drawn cells
	 * overflow (a row beyond the sample, a wide glyph) is widened, in the
	 * next frame, for every table drawn meanwhile at once (all the
	 * measuring first, then all the widening: one layout). */
	fit() {
		if (fitQueue.size === 0)
			requestAnimationFrame(fitAll);
		fitQueue.add(this);
	}

	overflow() {
		const trs = this.tbody.querySelectorAll('tr[data-row]');
		return this.cols.map((c, j) => {
			let over = 0;
			for (let i = 0; c.num && i < trs.length; i++) {
				const td = trs[i].cells[j];
				over = Math.max(over, td.scrollWidth -
				    td.clientWidth);
			}
			return over;
		});
	}

	widen(grow) {
		if (!grow.some((o) => o > 0))
			return;
		this.cols.forEach((c, j) => {
			if (grow[j] <= 0)
				return;
			c.px += Math.ceil(grow[j]) + 1;
			this.colEls[j].style.width =
			    `calc(${c.width}ch + 1em + ${c.px}px)`;
		});
		this.tableWidth();
	}

	header() {
		const tr = el('tr');
		this.cols.forEach((c, j) => {
			const th = el('th', { class: c.num ? 'num' : null,
			    title: 'sort by ' + c.title, 'data-col': j },
			    c.title);
			th.tabIndex = 0;
			th.addEventListener('click', () => this.sortBy(j));
			th.addEventListener('keydown', (e) => {
				if (e.key === 'Enter' || e.key === ' ') {
					e.preventDefault();
					this.sortBy(j);
				}
			});
			tr.append(th);
		});
		this.thead.append(tr);
	}

	sortBy(j) {
		if (this.sortCol === j) {
			this.sortDir = -this.sortDir;
		} else {
			this.sortCol = j;
			this.sortDir = this.cols[j].num ? -1 : 1;
		}
		this.thead.querySelectorAll('th').forEach((th, k) => {
			if (k === j)
				th.setAttribute('aria-sort', this.sortDir > 0 ?
				    'ascending' : 'descending');
			else
				th.removeAttribute('aria-sort');
		});
		this.update();
	}

	/* New rows or values: keep the sort and the filter. */
	refresh(rows) {
		if (rows !== undefined)
			this.spec.rows = rows;
		this.text = null;
		this.decimals();
		this.widths();
		this.update();
	}

	/* A numeric column with any fraction shows every number with two
	 * decimals, so the points line up. */
	decimals() {
		const rows = this.spec.rows, n = Math.min(rows.length, 2000);
		for (const c of this.cols) {
			c.fixed = false;
			for (let i = 0; c.num && i < n && !c.fixed; i++) {
				const v = c.get(rows[i]);
				c.fixed = typeof v === 'number' &&
				    isFinite(v) && !Number.isInteger(v);
			}
		}
	}

	rowText(r) {
		return this.cols.map((c) => fmt(c.get(r))).join('\u0001')
		    .toLowerCase();
	}

	update() {
		let rows = this.spec.rows;
		if (this.filter !== '') {
			if (this.text === null)
				this.text = new Map();
			const f = this.filter, out = [];
			for (const r of rows) {
				let t = this.text.get(r);
				if (t === undefined)
					this.text.set(r, t = this.rowText(r));
				if (t.includes(f))
					out.push(r);
			}
			rows = out;
		} else {
			rows = rows.slice();
		}
		if (this.sortCol >= 0)
			rows = this.sorted(rows, this.cols[this.sortCol]);
		this.shown = rows;
		const all = this.spec.total ?? this.spec.rows.length;
		this.count.textContent = rows.length === all ? `${all} rows` :
		    `${rows.length} of ${all} rows`;
		this.view.classList.toggle('long', rows.length > 20);
		this.drawn = null;
		this.draw();
	}

	/* Blanks last in both directions; numbers before text. */
	sorted(rows, c) {
		const d = this.sortDir, keys = new Map();
		for (const r of rows) {
			const v = c.get(r);
			keys.set(r, isBlank(v) ? null : c.sortKey ? c.sortKey(v) :
			    c.num && isNumeric(v) || c.big ? num(v) : fmt(v));
		}
		return rows.sort((a, b) => {
			const x = keys.get(a), y = keys.get(b);
			if (x === null && y === null)
				return a - b;
			if (x === null || y === null)
				return x === null ? 1 : -1;
			if (typeof x !== typeof y)
				return typeof x === 'number' ? -1 : 1;
			if (x < y)
				return -d;
			if (x > y)
				return d;
			return a - b;
		});
	}

	/* Draws the rows in view (plus a margin) between two spacers. */
	draw() {
		const rows = this.shown, n = rows.length;
		const h = this.view.clientHeight || 480;
		const top = this.view.scrollTop;
		let first = 0, last = n;
		if (n > 60) {
			first = Math.max(0, Math.floor(top / ROW_H) - 20);
			last = Math.min(n, first + Math.ceil(h / ROW_H) + 40);
		}
		const key = first + ':' + last;
		if (this.drawn === key)
			return;
		this.drawn = key;
		const html = [];
		if (first > 0)
			html.push(`<tr class="pad" style="height:${first *
			    ROW_H}px"></tr>`);
		for (let i = first; i < last; i++) {
			const r = rows[i];
			html.push(`<tr data-row="${r}">`);
			for (const c of this.cols) {
				const v = c.get(r);
				const cls = c.num ? (isBlank(v) ? 'num blank' :
				    'num') : '';
				const bg = c.bg ? c.bg(v) : null;
				html.push(`<td class="${cls}"` + (bg ? ' style="' +
				    `background:${bg}"` : '') + '>' +
				    `${esc(cellText(c, v))}</td>`);
			}
			html.push('</tr>');
		}
		if (last < n)
			html.push(`<tr class="pad" style="height:${(n - last) *
			    ROW_H}px"></tr>`);
		this.tbody.innerHTML = html.join('');
		this.fit();
	}

	/* Hovering a cell shows its exact value. */
	hover(e) {
		const td = e.target.closest('td');
		if (td === null || td.parentNode.dataset.row === undefined)
			return;
		const r = Number(td.parentNode.dataset.row);
		const c = this.cols[td.cellIndex];
		const v = c.get(r);
		let t = this.spec.tip ? this.spec.tip(r, c) : null;
		if (t === null && c.tipOf)
			t = c.tipOf(r);
		if (t === null)
			t = `${c.title}: ` + (isBlank(v) ? '(blank)' :
			    c.ns && typeof v === 'number' && isFinite(v) ?
			    groupDigits(fmt(v, true)) + ' ns' + (readableNs(v) ?
			    ` (${readableNs(v)})` : '') : fmt(v, true));
		td.setAttribute('data-tip', t);
	}
}

/* The least f(x) over xs (Infinity when empty); no spread, so no limit
 * on the number of items. */
function least(xs, f) {
	let m = Infinity;
	for (const x of xs) {
		const v = f(x);
		if (v < m)
			m = v;
	}
	return m;
}

/* ---------- SVG charts ---------- */

const SVGNS = 'http://www.w3.org/2000/svg';

function svg(w, h) {
	const s = document.createElementNS(SVGNS, 'svg');
	s.setAttribute('viewBox', `0 0 ${w} ${h}`);
	s.setAttribute('width', w);
	s.setAttribute('height', h);
	return s;
}

function chartBox(id, title) {
	return el('figure', { class: 'chart', 'data-testid': 'chart-' + id },
	    title ? el('figcaption', {}, title) : null);
}

function shorten(s, n) {
	return s.length > n ? s.slice(0, n - 1) + '\u2026' : s;
}

/*
 * Horizontal bars.  items: [{ label, value (number, may be inf),
 * tip }]; opts.max fixes the scale (100 for percentages).
 */
function drawBars(fig, items, opts) {
	fig.querySelector('svg')?.remove();
	fig.querySelector('.note')?.remove();
	const W = 760, LW = 260, BH = 18, GAP = 4;
	const finite = items.filter((it) => isFinite(it.value));
	let max = opts.max || Math.max(0, -least(finite, (it) => -it.value));
	if (!(max > 0))
		max = 1;
	const s = svg(W, Math.max(1, items.length) * (BH + GAP) + 4);
	const parts = [];
	items.forEach((it, i) => {
		const y = i * (BH + GAP) + 2;
		const v = it.value;
		const frac = v === Infinity ? 1 : isFinite(v) ?
		    Math.max(0, Math.min(1, v / max)) : 0;
		const bw = Math.max(frac * (W - LW - 90), isFinite(v) &&
		    v > 0 ? 1 : 0);
		const tip = esc(it.tip);
		parts.push(`<g class="bar" data-tip="${tip}" data-i="${i}">` +
		    `<text x="${LW - 6}" y="${y + 13}" class="lbl">` +
		    `${esc(shorten(it.label, 34))}</text>` +
		    `<rect x="${LW}" y="${y}" width="${bw.toFixed(1)}" ` +
		    `height="${BH}" class="${v === Infinity ? 'inf' : ''}"/>` +
		    `<text x="${LW + bw + 4}" y="${y + 13}" class="val">` +
		    esc(isNaN(v) ? '' : fmtShort(v)) + esc(opts.unit || '') +
		    '</text></g>');
	});
	s.innerHTML = parts.join('');
	fig.append(s);
	if (opts.note)
		fig.append(el('p', { class: 'note' }, opts.note));
}

/* A colour from light to dark blue for t in [0, 1]. */
function heat(t) {
	if (!isFinite(t))
		return '#eee';
	const l = 95 - 60 * Math.max(0, Math.min(1, t));
	return `hsl(215,70%,${l.toFixed(0)}%)`;
}

/* A colour from blue (t = -1) through white to red (t = 1). */
function diverge(t) {
	if (isNaN(t))
		return '#eee';
	const a = Math.min(1, Math.abs(t)), l = 97 - 52 * a;
	return t >= 0 ? `hsl(4,78%,${l.toFixed(0)}%)` :
	    `hsl(215,70%,${l.toFixed(0)}%)`;
}

/*
 * A heatmap: xs across, ys down, value(xi, yi) a number or NaN.  With
 * opts.perRow each row has its own scale.  opts.fill(xi, yi, v) and
 * opts.tip(xi, yi, v) replace the colour and the tooltip; each cell
 * carries data-x and data-y (its indices); opts.selX outlines a column.
 */
function drawHeatmap(fig, xs, ys, value, opts) {
	fig.querySelector('svg')?.remove();
	const LW = 170, TH = 40;
	const cw = Math.max(6, Math.min(56, Math.floor(900 / xs.length)));
	const ch = 20;
	const s = svg(LW + xs.length * cw + 10, TH + ys.length * ch + 4);
	const parts = [];
	let lo = Infinity, hi = -Infinity;
	const rng = (yi) => {
		let a = Infinity, b = -Infinity;
		for (let xi = 0; xi < xs.length; xi++) {
			const v = value(xi, yi);
			if (isFinite(v))
				a = Math.min(a, v), b = Math.max(b, v);
		}
		return [a, b];
	};
	if (!opts.perRow)
		for (let yi = 0; yi < ys.length; yi++) {
			const [a, b] = rng(yi);
			lo = Math.min(lo, a), hi = Math.max(hi, b);
		}
	const step = Math.max(1, Math.ceil(44 / cw));
	const xl = xLabels(xs.map((x) => fmt(x)), 7);
	xs.forEach((x, xi) => {
		if (xi % step === 0)
			parts.push(`<text x="${LW + xi * cw + cw / 2}" y="${TH -
			    6}" class="xl">${esc(xl[xi])}</text>`);
	});
	ys.forEach((y, yi) => {
		const [a, b] = opts.perRow ? rng(yi) : [lo, hi];
		parts.push(`<text x="${LW - 6}" y="${TH + yi * ch + 14}" ` +
		    `class="lbl">${esc(shorten(fmt(y), 26))}</text>`);
		for (let xi = 0; xi < xs.length; xi++) {
			const v = value(xi, yi);
			const t = b > a ? (v - a) / (b - a) :
			    isFinite(v) ? 0 : NaN;
			const tip = opts.tip ? opts.tip(xi, yi, v) :
			    `${opts.xname || 'x'} ${fmt(xs[xi])}, ` +
			    `${fmt(y)}: ` +
			    (isNaN(v) ? '(blank)' : fmt(v, true));
			const fill = opts.fill ? opts.fill(xi, yi, v) :
			    v === Infinity ? '#c33' : heat(t);
			parts.push(`<rect x="${LW + xi * cw}" ` +
			    `y="${TH + yi * ch}" ` +
			    `width="${cw - 1}" height="${ch - 1}" ` +
			    `fill="${fill}" data-x="${xi}" data-y="${yi}" ` +
			    `data-tip="${esc(tip)}"/>`);
		}
	});
	if (opts.selX !== undefined && opts.selX >= 0)
		parts.push(`<rect x="${LW + opts.selX * cw - 1}" y="${TH - 1}" ` +
		    `width="${cw + 1}" height="${ys.length * ch + 1}" ` +
		    'class="sel"/>');
	s.innerHTML = parts.join('');
	fig.append(s);
}

/*
 * Column labels of at most n characters: when they are longer and all
 * share a beginning (rank0000, rank0001, ...), what follows it
 * (\u20260000), so neighbours stay apart.
 */
function xLabels(ts, n) {
	if (ts.length < 2 || ts.every((t) => t.length <= n))
		return ts.map((t) => shorten(t, n));
	let p = ts[0].length;
	for (const t of ts)
		while (p > 0 && t.slice(0, p) !== ts[0].slice(0, p))
			p--;
	p = Math.min(p, Math.min(...ts.map((t) => t.length)) - 1);
	return ts.map((t) => p > 0 ? shorten('\u2026' + t.slice(p), n) :
	    shorten(t, n));
}

/* The median of the finite numbers of a; NaN when there are none. */
function median(a) {
	const v = a.filter((x) => isFinite(x)).sort((x, y) => x - y);
	const n = v.length;
	if (n === 0)
		return NaN;
	return n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* (v - m) / |m|: 0 when both are 0, +-Infinity when only m is. */
function relDev(v, m) {
	if (!isFinite(v) || isNaN(m))
		return NaN;
	if (m === 0)
		return v === 0 ? 0 : v > 0 ? Infinity : -Infinity;
	return (v - m) / Math.abs(m);
}

/*
 * The cells of a heatmap from records: per row (y) a Map from column index
 * to the sum of the values of its records.  xOf(r), yOf(r) and vOf(r)
 * give a record's x, y (undefined: left out) and value (NaN: left out).
 * Returns { xs, ys, rows, skip }, xs and ys in order of first appearance.
 */
function heatCells(recs, xOf, yOf, vOf) {
	const xs = [], ys = [], rows = [], xi = new Map(), yi = new Map();
	let skip = 0;
	for (const r of recs) {
		const x = xOf(r), y = yOf(r), z = vOf(r);
		if (x === undefined || y === undefined || isNaN(z)) {
			skip++;
			continue;
		}
		/* A string's key starts with a quote, as no number's does. */
		const kx = typeof x === 'string' ? '"' + x : JSON.stringify(x);
		const ky = typeof y === 'string' ? '"' + y : JSON.stringify(y);
		let i = xi.get(kx), j = yi.get(ky);
		if (i === undefined)
			xi.set(kx, i = xs.length), xs.push(x);
		if (j === undefined)
			yi.set(ky, j = ys.length), ys.push(y), rows.push(new Map());
		rows[j].set(i, (rows[j].get(i) ?? 0) + z);
	}
	return { xs, ys, rows, skip };
}

/*
 * What a heatmap of one value over xs (across: ranks, runs) and ys (down:
 * functions, kernels) shows about its columns: per row the total, the
 * median over the columns and the spread ((max - min) / median); per cell
 * its deviation from its row's median; per column its total, that
 * total's deviation from the median column total, and the row where it
 * is furthest above the row's median.  rows[yi] maps column indexes to
 * numbers; with zero set a missing cell counts as 0 (a rank that never
 * ran a function spent no time in it), else it is blank.  The work is
 * in the cells present, so 1,024 ranks of 40,000 names stay quick.
 */
function heatModel(xs, ys, rows, zero) {
	const nx = xs.length;
	const get = (xi, yi) => {
		const v = rows[yi].get(xi);
		return v === undefined ? zero ? 0 : NaN : v;
	};
	const m = { get, med: [], total: [], spread: [],
	    colTotal: new Array(nx).fill(0), worst: new Array(nx).fill(-1) };
	const wx = new Array(nx).fill(-Infinity);
	rows.forEach((row, yi) => {
		const fin = [...row.values()].filter((v) => isFinite(v));
		const zeros = zero ? nx - row.size : 0;
		fin.sort((x, y) => x - y);
		/* The sorted values with the missing zeros among them. */
		const lo = fin.filter((v) => v < 0), hi = fin.slice(lo.length);
		const at = (k) => k < lo.length ? lo[k] : k < lo.length + zeros ?
		    0 : hi[k - lo.length - zeros];
		const n = fin.length + zeros;
		m.med[yi] = n === 0 ? NaN : n % 2 ? at((n - 1) / 2) :
		    (at(n / 2 - 1) + at(n / 2)) / 2;
		m.total[yi] = fin.reduce((a, v) => a + v, 0);
		m.spread[yi] = n === 0 ? NaN : relDev(at(n - 1), m.med[yi]) -
		    relDev(at(0), m.med[yi]);
		for (const [xi, v] of row) {
			if (!isFinite(v))
				continue;
			m.colTotal[xi] += v;
			if (v - m.med[yi] > wx[xi])
				wx[xi] = v - m.med[yi], m.worst[xi] = yi;
		}
	});
	m.colMed = median(m.colTotal);
	m.colDev = m.colTotal.map((t) => relDev(t, m.colMed));
	m.dev = (xi, yi) => relDev(get(xi, yi), m.med[yi]);
	return m;
}

/* Compares texts with their numbers as numbers: rank2 before rank10. */
const natural = new Intl.Collator('en', { numeric: true }).compare;

/* "+12.3%", "-4%": a deviation for people. */
function pctText(d) {
	if (isNaN(d))
		return '';
	if (!isFinite(d))
		return d > 0 ? '+inf%' : '-inf%';
	return (d >= 0 ? '+' : '') + fmtShort(d * 100) + '%';
}

/*
 * A heatmap with its controls: colour by value or by each cell's
 * deviation from its row's median (blue below, red above), rows in input
 * order, by total or by spread, columns in input order, furthest above
 * the median first, or by name, and the first N rows.  Clicking a cell
 * calls spec.onPick(x, y) with the values (or null, null to clear).
 * spec: { id, title, xs, ys, rows (of heatCells), xname, zero, colour
 * ('value' or 'deviation'), rowOrder ('input', 'total', 'spread'),
 * colOrder ('input', 'slowest', 'name'), top (0: all), onPick }.
 */
function heatView(spec) {
	const { xs, ys } = spec;
	const m = heatModel(xs, ys, spec.rows, spec.zero);
	const st = { colour: spec.colour, rows: spec.rowOrder, cols: spec.colOrder,
	    top: spec.top || 0, sel: -1 };
	const fig = chartBox(spec.id, spec.title);
	fig.classList.add('heat');
	const legend = el('p', { class: 'note', 'data-testid': 'heat-legend' });
	const order = () => {
		const ry = ys.map((_, i) => i), cx = xs.map((_, i) => i);
		if (st.rows === 'total')
			ry.sort((a, b) => m.total[b] - m.total[a] || a - b);
		else if (st.rows === 'spread')
			ry.sort((a, b) => (isNaN(m.spread[b]) ? -Infinity :
			    m.spread[b]) - (isNaN(m.spread[a]) ? -Infinity :
			    m.spread[a]) || a - b);
		if (st.cols === 'slowest')
			cx.sort((a, b) => m.colTotal[b] - m.colTotal[a] ||
			    a - b);
		else if (st.cols === 'name')
			cx.sort((a, b) => natural(fmt(xs[a]), fmt(xs[b])));
		return { ry: st.top > 0 ? ry.slice(0, st.top) : ry, cx };
	};
	let shown = null;
	const draw = () => {
		const { ry, cx } = shown = order();
		let scale = 0;
		for (const yi of ry)
			for (const xi of cx) {
				const d = Math.abs(m.dev(xi, yi));
				if (isFinite(d))
					scale = Math.max(scale, d);
			}
		scale = Math.max(scale, 0.01);
		const dev = st.colour === 'deviation';
		const opts = { xname: spec.xname, selX: cx.indexOf(st.sel) };
		const tip = (i, j, v) => {
			const d = pctText(m.dev(cx[i], ry[j]));
			return `${spec.xname} ${fmt(xs[cx[i]])}, ` +
			    `${fmt(ys[ry[j]])}: ` + (isNaN(v) ? '(blank)' :
			    fmt(v, true)) + (isNaN(m.med[ry[j]]) ? '' :
			    ` (median ${fmt(m.med[ry[j]], true)}` +
			    (d ? `, ${d})` : ')'));
		};
		if (dev) {
			opts.fill = (i, j) => diverge(m.dev(cx[i], ry[j]) /
			    scale);
			opts.tip = tip;
		} else if (spec.zero) {
			opts.tip = tip;
		}
		drawHeatmap(fig, cx.map((i) => xs[i]), ry.map((j) => ys[j]),
		    (i, j) => m.get(cx[i], ry[j]), opts);
		legend.textContent = dev ? 'Colour: each cell against the ' +
		    `median of its row over the ${plural(xs.length,
		    spec.xname)}; blue below, red above, full colour at ` +
		    `\u00b1${fmtShort(scale * 100)}%.` : '';
	};
	fig.addEventListener('click', (e) => {
		const r = e.target.closest ? e.target.closest('rect[data-x]') :
		    null;
		if (r === null || shown === null)
			return;
		const xi = shown.cx[Number(r.dataset.x)];
		const yi = shown.ry[Number(r.dataset.y)];
		st.sel = st.sel === xi ? -1 : xi;
		draw();
		if (spec.onPick)
			spec.onPick(st.sel < 0 ? null : xs[xi],
			    st.sel < 0 ? null : ys[yi], m, xi, yi);
	});
	const pick = (testid, label, names, values, key) => {
		const c = selector(testid, label, names, (i) => {
			st[key] = values[i];
			draw();
		});
		c.querySelector('select').value = String(values.indexOf(st[key]));
		return c;
	};
	const top = el('input', { type: 'number', min: 0, value: st.top,
	    'data-testid': 'heat-top', 'aria-label': 'rows shown' });
	top.addEventListener('input', () => {
		const v = Number(top.value);
		if (Number.isInteger(v) && v >= 0) {
			st.top = v;
			draw();
		}
	});
	const controls = el('div', { class: 'controls' },
	    pick('heat-colour', 'Colour', ['value', 'deviation from the ' +
	    'row median'], ['value', 'deviation'], 'colour'),
	    pick('heat-rows', 'Rows', ['as read', 'by total', 'by spread'],
	    ['input', 'total', 'spread'], 'rows'),
	    pick('heat-cols', 'Columns', ['as read', 'largest total first',
	    'by name'], ['input', 'slowest', 'name'], 'cols'),
	    el('label', { class: 'control' }, 'Rows shown ', top,
	    ` of ${ys.length} (0: all)`));
	draw();
	return { el: el('div', { class: 'heatview' }, controls, fig, legend),
	    model: m, clear: () => {
		st.sel = -1;
		draw();
	} };
}

/* A scatter plot with log axes; points [{x, y, tip}] with x, y > 0. */
function drawScatter(fig, pts, xname, yname) {
	const W = 640, H = 420, L = 70, B = 40, T = 10, R = 20;
	const s = svg(W, H);
	const lg = (v) => Math.log10(v);
	let x0 = Math.floor(lg(least(pts, (p) => p.x)));
	let x1 = Math.ceil(lg(-least(pts, (p) => -p.x)));
	let y0 = Math.floor(lg(least(pts, (p) => p.y)));
	let y1 = Math.ceil(lg(-least(pts, (p) => -p.y)));
	if (x1 <= x0)
		x1 = x0 + 1;
	if (y1 <= y0)
		y1 = y0 + 1;
	const px = (v) => L + (lg(v) - x0) / (x1 - x0) * (W - L - R);
	const py = (v) => H - B - (lg(v) - y0) / (y1 - y0) * (H - B - T);
	const parts = [`<rect x="${L}" y="${T}" width="${W - L - R}" ` +
	    `height="${H - B - T}" class="frame"/>`];
	for (let e = x0; e <= x1; e++)
		parts.push(`<text x="${px(10 ** e)}" y="${H - B + 16}" ` +
		    `class="xl">1e${e}</text>`);
	for (let e = y0; e <= y1; e++)
		parts.push(`<text x="${L - 6}" y="${py(10 ** e) + 4}" ` +
		    `class="lbl">1e${e}</text>`);
	parts.push(`<text x="${(W + L) / 2}" y="${H - 4}" class="xl">` +
	    `${esc(xname)} (log)</text>`);
	parts.push(`<text x="14" y="${T + 10}" class="axis">${esc(yname)}` +
	    ' (log)</text>');
	pts.forEach((p) => parts.push(`<circle cx="${px(p.x).toFixed(1)}" ` +
	    `cy="${py(p.y).toFixed(1)}" r="4" data-tip="${esc(p.tip)}"/>`));
	s.innerHTML = parts.join('');
	fig.append(s);
}

/* ---------- the timeline ---------- */

/*
 * Times relative to the smallest in col, exact for integer timestamps
 * beyond 2^53 (a "big" column holds them as digit strings): each is split
 * into the digits above and below 10^15, and the two differences are
 * added, which is exact while the result stays below 2^53 (104 days in
 * ns).  Negative big integers take the slower BigInt way.
 */
function relTimes(col, rows) {
	const digits = /^\d+$/;
	let base = null, neg = false;
	if (col.big) {
		let min = null;
		for (const r of rows) {
			const v = col.get(r);
			if (typeof v !== 'string')
				continue;
			if (digits.test(v)) {
				if (min === null || v.length < min.length ||
				    (v.length === min.length && v < min))
					min = v;
			} else if (/^-\d+$/.test(v)) {
				neg = true;
				if (base === null || BigInt(v) < base)
					base = BigInt(v);
			}
		}
		if (base === null && min !== null)
			base = BigInt(min);
	} else {
		for (const r of rows) {
			const x = num(col.get(r));
			if (isFinite(x) && (base === null || x < base))
				base = x;
		}
	}
	const E15 = 1000000000000000n;
	const bp = typeof base === 'bigint' ? Number(base / E15) : 0;
	const bq = typeof base === 'bigint' ? Number(base % E15) : 0;
	return {
		base,
		at(v) {
			if (base === null)
				return NaN;
			if (typeof base !== 'bigint' || typeof v !== 'string')
				return num(v) - Number(base);
			if (!neg && digits.test(v)) {
				const cut = v.length > 15;
				const p = cut ? Number(v.slice(0, -15)) : 0;
				const q = Number(cut ? v.slice(-15) : v);
				return (p - bp) * 1e15 + (q - bq);
			}
			if (/^-?\d+$/.test(v))
				return Number(BigInt(v) - base);
			return num(v) - Number(base);
		},
	};
}

/* The smallest of 1, 2 and 5 times a power of ten that is >= x. */
function niceStep(x) {
	const p = 10 ** Math.floor(Math.log10(x));
	for (const m of [1, 2, 5, 10])
		if (m * p >= x * (1 - 1e-12))
			return m * p;
	return 10 * p;
}

/*
 * The label of a tick at t, step apart from the next: in ns, the unit of
 * the largest time in view (ns, us, ms or s) with the decimals the step
 * needs; otherwise the number with grouped digits.
 */
function tickText(t, step, unit, top) {
	if (t === 0)
		return '0';
	const dec = (d) => Math.max(0, -Math.floor(Math.log10(step / d) +
	    1e-9));
	if (unit !== 'ns')
		return groupDigits(t.toFixed(dec(1))) + (unit ? ' ' + unit : '');
	const a = Math.abs(top);
	const [d, u] = a < 1e3 ? [1, 'ns'] : a < 1e6 ? [1e3, '\u00b5s'] :
	    a < 1e9 ? [1e6, 'ms'] : [1e9, 's'];
	return groupDigits((t / d).toFixed(dec(d))) + ' ' + u;
}

/*
 * A canvas timeline of spans in lanes: zoom with the wheel or the
 * buttons, pan by dragging.  spans: [{ r, lane, s, e, color, name }],
 * times relative; a bar wide enough shows its name.  A time axis with
 * ticks runs below the lanes.  tipOf(span) gives a span's tooltip;
 * laneName(lane) the text of a lane (the lane's value if not given).
 * The element carries data-view-start/-end (the visible range);
 * box.setFilter(pred) shows only some spans.
 */
function timeline(spans, unit, tipOf, laneName = String) {
	const lanes = [...new Set(spans.map((sp) => sp.lane))];
	const laneOf = new Map(lanes.map((l, i) => [l, i]));
	const byLane = lanes.map(() => []);
	for (const sp of spans)
		byLane[laneOf.get(sp.lane)].push(sp);
	byLane.forEach((l) => l.sort((a, b) => a.s - b.s));
	/* The longest span per lane bounds how far back one can start and
	 * still be in view. */
	const longest = byLane.map((l) => -least(l, (sp) => sp.s - sp.e));
	let t0 = least(spans, (sp) => sp.s);
	let t1 = -least(spans, (sp) => -sp.e);
	if (!(t1 > t0))
		t1 = t0 + 1;
	const full = [t0, t1];
	const LH = 28, LW = 110;
	const box = el('figure', { class: 'chart timeline',
	    'data-testid': 'timeline' });
	const range = el('span', { class: 'range',
	    'data-testid': 'timeline-range' });
	const btn = (t, id, f) => {
		const b = el('button', { type: 'button', 'data-testid': id },
		    t);
		b.addEventListener('click', f);
		return b;
	};
	const canvas = el('canvas', { height: lanes.length * LH + 24,
	    style: `height:${lanes.length * LH + 24}px` });
	box.append(el('div', { class: 'tbar' },
	    btn('+', 'zoom-in', () => zoom(0.5, 0.5)),
	    btn('\u2212', 'zoom-out', () => zoom(2, 0.5)),
	    btn('reset', 'zoom-reset', () => { [t0, t1] = full; draw(); }),
	    range), canvas);
	const ctx = canvas.getContext('2d');
	let keep = null;
	/* Draws only the spans for which pred is true (null: all). */
	box.setFilter = (pred) => {
		keep = pred;
		draw();
	};

	function draw() {
		const W = Math.max(300, canvas.clientWidth || 900);
		canvas.width = W;
		const plot = W - LW, H = lanes.length * LH;
		ctx.clearRect(0, 0, W, canvas.height);
		ctx.font = '12px sans-serif';
		ctx.textBaseline = 'middle';
		ctx.textAlign = 'left';
		const x = (t) => LW + (t - t0) / (t1 - t0) * plot;
		byLane.forEach((l, i) => {
			ctx.fillStyle = i % 2 ? '#f6f7f9' : '#fff';
			ctx.fillRect(0, i * LH, W, LH);
			ctx.fillStyle = '#333';
			ctx.fillText(shorten(laneName(lanes[i]), 14), 4,
			    i * LH + LH / 2);
		});
		/* Ticks at most every 100 px, at 1, 2 or 5 x 10^k. */
		const step = niceStep((t1 - t0) / Math.max(1,
		    Math.floor(plot / 100)));
		const top = Math.max(Math.abs(t0), Math.abs(t1));
		ctx.fillStyle = '#555';
		for (let k = Math.ceil(t0 / step); k * step <= t1; k++) {
			const t = k * step, px = Math.round(x(t));
			ctx.fillStyle = '#e1e4e8';
			ctx.fillRect(px, 0, 1, H);
			ctx.fillStyle = '#555';
			ctx.fillRect(px, H, 1, 4);
			const txt = tickText(t, step, unit, top);
			const w = ctx.measureText(txt).width;
			ctx.textAlign = px - w / 2 < LW ? 'left' :
			    px + w / 2 > W - 2 ? 'right' : 'center';
			ctx.fillText(txt, ctx.textAlign === 'right' ? W - 2 : px,
			    H + 13);
		}
		ctx.textAlign = 'left';
		byLane.forEach((l, i) => {
			const y = i * LH;
			let lastPx = -1, style = null;
			const from = firstAt(l, t0 - longest[i]);
			for (let k = from; k < l.length && l[k].s <= t1; k++) {
				const sp = l[k];
				if (sp.e < t0 || (keep !== null && !keep(sp)))
					continue;
				const a = Math.max(LW, x(sp.s));
				const b = Math.min(W, x(sp.e));
				if (b - a < 1 && Math.floor(a) === lastPx)
					continue;
				lastPx = Math.floor(a);
				const color = sp.color || '#3a6fb0';
				if (color !== style)
					ctx.fillStyle = style = color;
				ctx.fillRect(a, y + 4, Math.max(1, b - a),
				    LH - 8);
				if (sp.name && b - a > 40) {
					barName(sp.name, a, b, y);
					style = null;
				}
			}
		});
		box.dataset.viewStart = t0;
		box.dataset.viewEnd = t1;
		const g = (t) => groupDigits(fmtNum(Math.round(t)));
		range.textContent = unit === 'ns' ? `${g(t0)} \u2013 ${g(t1)} ` +
		    `ns from the first start (${readableNs(t1 - t0) ??
		    g(t1 - t0) + ' ns'} shown)` : `${fmtNum(t0)} \u2013 ` +
		    `${fmtNum(t1)} ${unit} (${fmtNum(t1 - t0)} ${unit} shown)`;
	}

	/* A name inside its bar from a to b, cut to fit. */
	function barName(name, a, b, y) {
		let t = String(name);
		const room = b - a - 6;
		const w = ctx.measureText(t).width;
		if (w > room) {
			/* From the average width, then shorter until it fits. */
			const full = t;
			let n = Math.floor(full.length * room / w);
			do {
				if (--n < 3)
					return;
				t = full.slice(0, n) + '\u2026';
			} while (ctx.measureText(t).width > room);
		}
		ctx.fillStyle = '#fff';
		ctx.fillText(t, a + 3, y + LH / 2);
	}

	/* Zooms by factor around the fraction f of the visible range. */
	function zoom(factor, f) {
		const at = t0 + (t1 - t0) * f;
		const w = Math.max((t1 - t0) * factor, 1e-3);
		t0 = at - w * f;
		t1 = t0 + w;
		draw();
	}

	/* The index of the first span in l that starts at or after t. */
	function firstAt(l, t) {
		let lo = 0, hi = l.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (l[mid].s < t)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	}

	/* The span at time t in a lane sorted by start (binary search,
	 * then back over those that start early enough to cover t). */
	function spanAt(l, t, slack) {
		let lo = 0, hi = l.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (l[mid].s - slack <= t)
				lo = mid + 1;
			else
				hi = mid;
		}
		const from = t - slack - longest[byLane.indexOf(l)];
		for (let i = lo - 1; i >= 0 && l[i].s >= from; i--)
			if (t <= l[i].e + slack &&
			    (keep === null || keep(l[i])))
				return l[i];
		return undefined;
	}

	function timeAt(px) {
		return t0 + (px - LW) / (canvas.width - LW) * (t1 - t0);
	}

	canvas.addEventListener('wheel', (e) => {
		e.preventDefault();
		const px = e.offsetX;
		if (px < LW)
			return;
		zoom(e.deltaY < 0 ? 0.8 : 1.25,
		    (px - LW) / (canvas.width - LW));
	}, { passive: false });
	let drag = null;
	canvas.addEventListener('mousedown', (e) => {
		drag = { x: e.clientX, t0, t1 };
	});
	window.addEventListener('mouseup', () => { drag = null; });
	canvas.addEventListener('mousemove', (e) => {
		if (drag !== null && e.buttons === 1) {
			const dt = (e.clientX - drag.x) / (canvas.width - LW) *
			    (drag.t1 - drag.t0);
			t0 = drag.t0 - dt;
			t1 = drag.t1 - dt;
			draw();
			return;
		}
		const lane = Math.floor(e.offsetY / LH);
		const t = timeAt(e.offsetX);
		const slack = (t1 - t0) / (canvas.width - LW) * 2;
		const hit = lane < byLane.length ?
		    spanAt(byLane[lane], t, slack) : undefined;
		if (hit !== undefined && e.offsetX >= LW)
			showTip(tipOf(hit), e.clientX, e.clientY);
		else
			hideTip();
	});
	canvas.addEventListener('mouseleave', hideTip);
	new ResizeObserver(() => draw()).observe(box);
	requestAnimationFrame(draw);
	return box;
}

/* ---------- layouts per record kind ---------- */

function section(title, testid, ...kids) {
	return el('section', { class: 'sect', 'data-testid': testid },
	    title ? el('h2', {}, title) : null, ...kids);
}

/*
 * Columns a table shows at most: a record with 100,000 keys would take
 * the page minutes to lay out.  The first ones are shown and the page
 * says how many there are (all stay in the page's data).
 */
const MAX_COLUMNS = 500;

/* A plain table of every key of the rows (the --table view). */
function recordTable(g, id, rows) {
	const all = g.keysOf(rows).filter((k) => k !== 'type' ||
	    g.kind === 'records');
	const keys = all.slice(0, MAX_COLUMNS);
	const note = all.length > keys.length ? el('p', { class: 'note',
	    'data-testid': 'wide-note' }, `${all.length.toLocaleString('en')} ` +
	    `keys: the first ${keys.length} are shown as columns (every key ` +
	    'is in the page\'s data)') : null;
	const cols = keys.map((k) => {
		const c = g.col(k);
		let n = 0, numeric = 0;
		for (let i = 0; i < rows.length && n < 200; i++) {
			const v = c.get(rows[i]);
			if (!isBlank(v))
				n++, numeric += isNumeric(v) || c.big &&
				    !isNaN(num(v)) ? 1 : 0;
		}
		return { title: k, get: c.get, num: n > 0 && numeric === n,
		    big: c.big };
	});
	const table = new Table({ id, columns: cols, rows }).el;
	return note ? el('div', {}, note, table) : table;
}

/*
 * Records as key and value columns (sysinfo, totals): one row per key,
 * one value column per record (titled by its run when it has one).
 */
function kvTable(g, id, rows) {
	const keys = g.keysOf(rows).filter((k) => k !== 'type');
	const cols = [{ title: 'Key', get: (i) => keys[i] }];
	const runs = rows.map((r) => g.get(r, 'run'));
	const byRun = runs.every((v) => v !== undefined && v !== null) &&
	    new Set(runs.map(String)).size === rows.length;
	rows.forEach((r, j) => cols.push({
		title: rows.length === 1 ? 'Value' :
		    byRun ? `run ${fmt(runs[j])}` : `record ${j + 1}`,
		get: (i) => g.get(r, keys[i]) ?? null, exact: true,
	}));
	return new Table({ id, columns: cols, rows: keys.map((_, i) => i) }).el;
}

const METRIC_IDS = new Set(['panel_id', 'panel', 'table_id', 'table',
    'metric_id', 'metric', 'type']);
const NORM_KEYS = /^(norm|normal|normal_unit|normal-unit)$/i;
/* metric-eval names the -n of every record with this key. */
const NORM_KEY = 'normalization';
/* metric-eval's text of a metric (once, in its first record). */
const DESC_KEY = 'Description';

function describe(g, m) {
	const d = g.get(m.first, DESC_KEY);
	return typeof d === 'string' ? d : '';
}

/* The producers' --label: the run a record came from. */
const RUN_KEY = 'run';

/*
 * Keys whose values split a metric's records: kernel, normalization.
 * They are read off the metric with the most records (tables such as
 * 0.1 Top Kernels have one record per run, not one per kernel).
 */
function metricDims(g, ids) {
	const dims = [];
	const counts = new Map();
	let firstId = ids.get(0), most = 0;
	for (let i = 0; i < g.rows; i++) {
		const id = ids.get(i), c = (counts.get(id) ?? 0) + 1;
		counts.set(id, c);
		if (c > most)
			most = c, firstId = id;
	}
	for (const k of g.keys) {
		/* Units differ between normalizations: not a choice. */
		if (METRIC_IDS.has(k) || k === NORM_KEY || k === DESC_KEY ||
		    /^units?$/i.test(k))
			continue;
		const c = g.col(k);
		const seen = new Set();
		let ok = true;
		for (let i = 0; i < g.rows && ok; i++) {
			if (ids.get(i) !== firstId)
				continue;
			const v = c.get(i);
			if (isNumeric(v) && !/kernel|gpu|dispatch/i.test(k))
				ok = false;
			seen.add(v === undefined ? null : v);
		}
		if (ok && seen.size > 1)
			dims.push(k);
	}
	return dims;
}

/* Percent or rate units get bars. */
function unitKind(u) {
	if (typeof u !== 'string')
		return '';
	const s = u.toLowerCase();
	if (s === 'pct' || s === '%' || s.startsWith('pct') || s === 'percent')
		return 'pct';
	if (/\/s$|\/sec$|per second/.test(s))
		return 'rate';
	return '';
}

/*
 * The normalization run of each record: runOf[i] indexes names (-1 for
 * none).  metric-eval names each record's normalization (NORM_KEY).  In
 * records without it (older files), runs are inferred: the outputs of
 * several metric-eval runs (one per -n) follow each other, so a metric seen
 * again for the same choice starts a new run, named by the normalization
 * its units show.  When some records have the key, the runs of the others
 * are merged with the named ones of the same name.
 */
function metricRuns(g, ids, dims) {
	const runOf = new Int32Array(g.rows).fill(-1);
	const keyed = g.col(NORM_KEY) !== null;
	const named = (i) => {
		const v = keyed ? g.get(i, NORM_KEY) : undefined;
		const n = typeof v === 'string' ? v : fmt(v, true);
		return n === '' ? null : n;
	};
	const seen = [];	/* per inferred run: kernel choice + metric */
	const units = [];
	for (let i = 0; i < g.rows; i++) {
		if (named(i) !== null)
			continue;
		const k = JSON.stringify(dims.map((d) => g.get(i, d) ?? null)) +
		    '\n' + ids.get(i);
		if (seen.length === 0 || seen[seen.length - 1].has(k))
			seen.push(new Set()), units.push(new Set());
		seen[seen.length - 1].add(k);
		runOf[i] = seen.length - 1;
		const u = g.get(i, 'Unit');
		if (typeof u === 'string')
			units[units.length - 1].add(u);
	}
	const inferred = units.map((us, r) => {
		for (const u of us) {
			const x = / per (kernel|wave|cycle|second)$/i.exec(u);
			if (x !== null)
				return 'per_' + x[1].toLowerCase();
		}
		return 'run ' + (r + 1);
	});
	if (!keyed)
		return { runOf, names: inferred };
	/* One run per name, in order of first appearance. */
	const names = [], index = new Map();
	for (let i = 0; i < g.rows; i++) {
		const n = named(i) ?? inferred[runOf[i]];
		let r = index.get(n);
		if (r === undefined)
			index.set(n, r = names.length), names.push(n);
		runOf[i] = r;
	}
	return { runOf, names };
}

/* ---------- the memory chart (table 3.1) ---------- */

/*
 * rocprof-compute's memory chart as an SVG: the blocks of the GPU, with
 * the metrics of table 3.1 on them and on the arrows between them.  Each
 * place: [x, y, label, metric, unit]; the numbers are the table's values
 * for the current choice (N/A when blank), exact on hover.  Corrected from
 * rocprof-compute's text chart: the scalar L1D numbers read the sL1D
 * metrics (it reads VL1D names that do not exist), the VGPR count is
 * labelled VGPRs, every count is formatted alike, VL1 Stall is a
 * percentage and the vector L1 write arrow says Wr.
 */
const MC_BOXES = [
	[10, 40, 150, 300, 'Instr Buff'], [170, 40, 150, 420, 'Instr Dispatch'],
	[330, 40, 170, 420, 'Exec'], [600, 20, 190, 80, 'LDS'],
	[600, 130, 190, 110, 'Vector L1 Cache'],
	[600, 270, 190, 80, 'Scalar L1D Cache'],
	[600, 380, 190, 80, 'Instr L1 Cache'], [890, 20, 180, 440, 'L2 Cache'],
	[1160, 120, 170, 180, 'Fabric'], [1470, 170, 90, 70, 'HBM'],
	[1160, 20, 170, 50, 'xGMI/PCIe'], [1160, 360, 170, 50, 'GMI'],
];
const MC_VALUES = [
	[20, 80, 'Wave Occupancy', 'Wavefront Occupancy', ''],
	[20, 130, 'Wave Life', 'Wave Life', 'cycles'],
	[180, 80, 'SALU', 'SALU', ''], [180, 128, 'SMEM', 'SMEM', ''],
	[180, 176, 'VALU', 'VALU', ''], [180, 224, 'MFMA', 'MFMA', ''],
	[180, 272, 'VMEM', 'VMEM', ''], [180, 320, 'LDS', 'LDS', ''],
	[180, 368, 'GWS', 'GWS', ''], [180, 416, 'BRANCH', 'BR', ''],
	[340, 80, 'Active CUs', 'Active CUs', ''],
	[340, 104, 'Num CUs', 'Num CUs', ''],
	[340, 150, 'VGPRs', 'VGPR', ''], [340, 180, 'SGPRs', 'SGPR', ''],
	[340, 230, 'LDS Alloc', 'LDS Allocation', 'B'],
	[340, 280, 'Scratch Alloc', 'Scratch Allocation', 'B'],
	[340, 330, 'Wavefronts', 'Wavefronts', ''],
	[340, 380, 'Workgroups', 'Workgroups', ''],
	[505, 50, 'Req', 'LDS Req', ''],
	[610, 55, 'Util', 'LDS Util', '%'], [610, 80, 'Lat', 'LDS Latency', 'cycles'],
	[505, 150, 'Rd', 'VL1 Rd', ''], [505, 185, 'Wr', 'VL1 Wr', ''],
	[505, 220, 'Atomic', 'VL1 Atomic', ''],
	[610, 165, 'Hit', 'VL1 Hit', '%'], [610, 185, 'Lat', 'VL1 Lat', 'cycles'],
	[610, 205, 'Coales', 'VL1 Coalesce', '%'],
	[610, 225, 'Stall', 'VL1 Stall', '%'],
	[505, 300, 'Rd', 'sL1D Rd', ''],
	[610, 305, 'Hit', 'sL1D Hit', '%'], [610, 330, 'Lat', 'sL1D Lat', 'cycles'],
	[610, 415, 'Hit', 'IL1 Hit', '%'], [610, 440, 'Lat', 'IL1 Lat', 'cycles'],
	[20, 470, 'Fetch', 'IL1 Fetch', ''],
	[795, 150, 'Rd', 'VL1_L2 Rd', ''], [795, 185, 'Wr', 'VL1_L2 Wr', ''],
	[795, 220, 'Atomic', 'VL1_L2 Atomic', ''],
	[795, 290, 'Rd', 'sL1D_L2 Rd', ''], [795, 315, 'Wr', 'sL1D_L2 Wr', ''],
	[795, 340, 'Atomic', 'sL1D_L2 Atomic', ''],
	[795, 420, 'Req', 'IL1_L2 Rd', ''],
	[900, 60, 'Hit', 'L2 Hit', '%'],
	[900, 110, 'Rd', 'L2 Rd', ''], [900, 135, 'Wr', 'L2 Wr', ''],
	[900, 160, 'Atomic', 'L2 Atomic', ''],
	[900, 210, 'Rd Lat', 'L2 Rd Lat', 'cycles'],
	[900, 235, 'Wr Lat', 'L2 Wr Lat', 'cycles'],
	[1075, 150, 'Rd', 'Fabric_L2 Rd', ''], [1075, 185, 'Wr', 'Fabric_L2 Wr', ''],
	[1075, 220, 'Atomic', 'Fabric_L2 Atomic', ''],
	[1170, 180, 'Rd Lat', 'Fabric Rd Lat', 'cycles'],
	[1170, 205, 'Wr Lat', 'Fabric Wr Lat', 'cycles'],
	[1170, 230, 'Atomic Lat', 'Fabric Atomic Lat', 'cycles'],
	[1340, 180, 'Rd', 'HBM Rd', ''], [1340, 215, 'Wr', 'HBM Wr', ''],
];
/* Arrows: [x1, y1, x2, y2] (a head at the second end; two heads: both). */
const MC_ARROWS = [
	[160, 70, 170, 70], [320, 90, 330, 90], [320, 138, 330, 138],
	[320, 186, 330, 186], [320, 234, 330, 234], [320, 282, 330, 282],
	[320, 330, 330, 330], [320, 378, 330, 378], [320, 426, 330, 426],
	[600, 60, 500, 60, 0], [600, 160, 500, 160], [500, 195, 600, 195],
	[500, 230, 600, 230, 2], [600, 310, 500, 310],
	[600, 440, 85, 480], [890, 160, 790, 160], [790, 195, 890, 195],
	[790, 230, 890, 230, 2], [890, 300, 790, 300], [790, 325, 890, 325],
	[790, 350, 890, 350, 2], [890, 430, 790, 430],
	[1160, 160, 1070, 160], [1070, 195, 1160, 195],
	[1070, 230, 1160, 230, 2], [1470, 190, 1330, 190],
	[1330, 225, 1470, 225],
];

/* A count as the chart shows it: grouped digits, N/A when blank. */
function mcText(v) {
	if (isBlank(v) || typeof v === 'string' && !isNumeric(v))
		return 'N/A';
	return groupDigits(fmt(v));
}

function memChart(model, t) {
	const byName = new Map();
	for (const m of t.metrics)
		byName.set(fmt(model.g.get(m.first, 'metric')), m);
	const fig = el('figure', { class: 'chart memchart',
	    'data-testid': 'memchart' });
	const note = el('p', { class: 'note' });
	const W = 1570, H = 500;
	const s = svg(W, H);
	s.setAttribute('width', '100%');
	s.style.maxWidth = W + 'px';
	const parts = ['<defs><marker id="mc-head" viewBox="0 0 10 10" ' +
	    'refX="9" refY="5" markerWidth="7" markerHeight="7" ' +
	    'orient="auto-start-reverse"><path d="M0,0L10,5L0,10z"/>' +
	    '</marker></defs>'];
	for (const [x, y, w, h, label] of MC_BOXES)
		parts.push(`<rect class="mc-box" x="${x}" y="${y}" width="${w}" ` +
		    `height="${h}"/><text class="mc-title" x="${x + 6}" ` +
		    `y="${y + 16}">${esc(label)}</text>`);
	for (const [x1, y1, x2, y2, both] of MC_ARROWS)
		parts.push(`<line class="mc-arrow" x1="${x1}" y1="${y1 + 6}" ` +
		    `x2="${x2}" y2="${y2 + 6}" marker-end="url(#mc-head)"` +
		    (both === 2 ? ' marker-start="url(#mc-head)"' : '') + '/>');
	MC_VALUES.forEach(([x, y, label, metric], i) => {
		parts.push(`<text x="${x}" y="${y + 12}"><tspan class=` +
		    `"mc-lbl">${esc(label)}: </tspan><tspan class="mc-val" ` +
		    `data-testid="mc-value" data-i="${i}" ` +
		    `data-metric="${esc(metric)}"></tspan></text>`);
	});
	s.innerHTML = parts.join('');
	fig.append(el('figcaption', {}, 'Memory chart (table 3.1, ' +
	    'per normalization unit)'), s, note);
	const texts = [...s.querySelectorAll('.mc-val')];
	const draw = () => {
		let shown = 0;
		MC_VALUES.forEach(([, , , metric, unit], i) => {
			const m = byName.get(metric);
			const r = m === undefined ? -1 : model.rec(m);
			const v = r < 0 ? null : model.g.get(r, 'Value') ?? null;
			const tx = texts[i];
			const txt = mcText(v);
			tx.textContent = txt + (txt !== 'N/A' && unit ?
			    ' ' + unit : '');
			tx.dataset.value = isBlank(v) ? '' : String(v);
			const d = m === undefined ? '' : describe(model.g, m);
			tx.setAttribute('data-tip', `${metric}: ` +
			    (isBlank(v) ? '(blank)' : fmt(v, true)) +
			    (unit && !isBlank(v) ? ' ' + unit : '') +
			    (d ? '\n' + d : ''));
			if (!isBlank(v))
				shown++;
		});
		note.textContent = shown === 0 ? 'Every value of table 3.1 is ' +
		    'blank for this choice: nothing to show.' : '';
	};
	draw();
	return { el: fig, draw };
}

/* ---------- the roofline (tables 4.1 and 4.2) ---------- */

const ROOF_LEVELS = ['HBM', 'L2', 'L1', 'LDS'];
const ROOF_SHAPES = { HBM: 'circle', L2: 'square', L1: 'triangle',
    LDS: 'diamond' };
const ROOF_COLORS = { HBM: '#1f6fb4', L2: '#2a9d4b', L1: '#c0392b',
    LDS: '#e08a1e' };

function roofMarker(shape, x, y, r) {
	x = Number(x);
	y = Number(y);
	if (shape === 'circle')
		return `<circle cx="${x}" cy="${y}" r="${r}"`;
	if (shape === 'square')
		return `<rect x="${x - r}" y="${y - r}" width="${2 * r}" ` +
		    `height="${2 * r}"`;
	if (shape === 'triangle')
		return `<path d="M${x},${y - r}L${x + r},${y + r}L${x - r},` +
		    `${y + r}z"`;
	return `<path d="M${x},${y - r}L${x + r},${y}L${x},${y + r}L` +
	    `${x - r},${y}z"`;
}

/*
 * Log-log roofline: per data type (4.2) one line per bandwidth up to its
 * ridge point with the higher peak, the VALU and MFMA peaks from where the
 * LDS line meets them (as rocprof-compute draws them), and one marker per
 * kernel (4.1) and memory level with an intensity and a rate above 0:
 * shape per level, colour per kernel; the kernel chosen above stands out.
 */
function roofline(model, pts, ceil, kernelOf) {
	const g = model.g;
	const fig = el('figure', { class: 'chart roofline',
	    'data-testid': 'roofline' });
	const dtypes = [];
	for (const m of ceil.metrics) {
		const d = g.get(m.first, 'dtype');
		if (!dtypes.includes(d))
			dtypes.push(d);
	}
	let dt = dtypes.includes('FP32') ? 'FP32' : dtypes[0];
	const ctl = el('div', { class: 'controls' });
	if (dtypes.length > 1) {
		const box = selector('roofline-dtype', 'Data type', dtypes,
		    (j) => {
			dt = dtypes[j];
			update();
		});
		box.querySelector('select').value = dtypes.indexOf(dt);
		ctl.append(box);
	}
	const holder = el('div', {});
	const legend = el('div', { class: 'legend', 'data-testid':
	    'roofline-legend' });
	const note = el('p', { class: 'note', 'data-testid': 'roofline-note' });
	fig.append(el('figcaption', {}, 'Empirical roofline'), ctl, holder,
	    legend, note);
	const val = (m, k) => {
		const r = model.rec(m);
		return r < 0 ? NaN : num(g.get(r, k));
	};
	let drawn = null;
	/* After a kernel switch only the highlight changes. */
	function update() {
		const key = dt + '|' + pts.metrics.map((m) => model.rec(m)) +
		    '|' + ceil.metrics.map((m) => model.rec(m));
		if (key !== drawn) {
			drawn = key;
			draw();
			return;
		}
		const chosen = kernelOf();
		for (const e of holder.querySelectorAll('.roof-point'))
			e.setAttribute('class', 'roof-point' + (chosen === null ?
			    '' : e.dataset.kernel === chosen ? ' hl' : ' dim'));
	}
	function draw() {
		holder.textContent = '';
		legend.textContent = '';
		const bw = {}, peak = {};
		for (const m of ceil.metrics) {
			if (g.get(m.first, 'dtype') !== dt)
				continue;
			const name = fmt(g.get(m.first, 'metric'));
			const v = val(m, 'Value');
			if (ROOF_LEVELS.includes(name))
				bw[name] = v;
			else
				peak[name.split(' ')[0]] = v;
		}
		const intType = /^I/.test(String(dt));
		const perfUnit = intType ? 'GOP/s' : 'GFLOP/s';
		const P = Math.max(peak.VALU ?? 0, peak.MFMA ?? 0);
		const levels = ROOF_LEVELS.filter((l) => bw[l] > 0);
		if (levels.length === 0 || !(P > 0)) {
			note.textContent = `Nothing to draw for ${dt}: ` +
			    'roofline.csv gives no bandwidth or no peak.';
			return;
		}
		const points = [];
		pts.metrics.forEach((m, ki) => {
			const perf = val(m, 'GFLOP/s');
			for (const l of ROOF_LEVELS) {
				const ai = val(m, 'AI ' + l);
				if (ai > 0 && perf > 0 && isFinite(ai) &&
				    isFinite(perf))
					points.push({ m, ki, l, ai, perf });
			}
		});
		const W = 760, H = 470, L = 70, B = 46, T = 26, R = 20;
		const lg = Math.log10;
		let x0 = Math.floor(lg(Math.min(0.01, ...points.map((p) =>
		    p.ai))));
		let x1 = Math.ceil(lg(Math.max(1000, ...points.map((p) =>
		    p.ai))));
		const ylo = Math.min(...levels.map((l) => 0.01 * bw[l]),
		    ...points.map((p) => p.perf));
		let y0 = Math.floor(lg(ylo)), y1 = Math.ceil(lg(P * 1.5));
		const px = (v) => L + (lg(v) - x0) / (x1 - x0) * (W - L - R);
		const py = (v) => H - B - (lg(v) - y0) / (y1 - y0) * (H - B - T);
		const f1 = (v) => v.toFixed(1);
		const parts = [`<rect class="frame" x="${L}" y="${T}" ` +
		    `width="${W - L - R}" height="${H - B - T}"/>`];
		for (let e = x0; e <= x1; e++)
			parts.push(`<text class="xl" x="${f1(px(10 ** e))}" ` +
			    `y="${H - B + 16}">${esc(fmtNum(10 ** e))}</text>`);
		for (let e = y0; e <= y1; e++)
			parts.push(`<text class="lbl" x="${L - 6}" ` +
			    `y="${f1(py(10 ** e) + 4)}">${esc(groupDigits(
			    fmtNum(10 ** e)))}</text>`);
		parts.push(`<text class="xl" x="${(W + L) / 2}" y="${H - 8}">` +
		    'Arithmetic intensity (FLOP/byte)</text>');
		parts.push(`<text class="axis" x="14" y="14">` +
		    `Performance (${perfUnit})</text>`);
		for (const l of levels) {
			const b = bw[l], xs = 10 ** x0, xr = P / b;
			parts.push(`<line class="roof-bw" data-testid="roof-bw" ` +
			    `data-level="${l}" stroke="${ROOF_COLORS[l]}" ` +
			    `x1="${f1(px(xs))}" y1="${f1(py(xs * b))}" ` +
			    `x2="${f1(px(xr))}" y2="${f1(py(P))}" data-tip="` +
			    `${l}: ${fmt(b, true)} GB/s (ridge at ` +
			    `${fmtShort(xr)} FLOP/byte)"/>`);
		}
		const bmax = Math.max(...levels.map((l) => bw[l]));
		for (const k of ['VALU', 'MFMA']) {
			const p = peak[k];
			if (!(p > 0))
				continue;
			const xs = Math.min(p / bmax, 10 ** x1);
			parts.push(`<line class="roof-peak" data-testid=` +
			    `"roof-peak" data-kind="${k}" x1="${f1(px(xs))}" ` +
			    `y1="${f1(py(p))}" x2="${f1(px(10 ** x1))}" ` +
			    `y2="${f1(py(p))}" data-tip="Peak ${k} ${dt}: ` +
			    `${fmt(p, true)} ${perfUnit}"/>` +
			    `<text class="roof-peak-lbl" x="${W - R - 4}" ` +
			    `y="${f1(py(p) - 4)}">${k} ${esc(groupDigits(
			    fmt(Math.round(p))))} ${perfUnit}</text>`);
		}
		const chosen = kernelOf();
		for (const p of points) {
			const name = fmt(g.get(p.m.first, 'metric'));
			const hl = chosen === null ? '' : name === chosen ? ' hl' :
			    ' dim';
			parts.push(roofMarker(ROOF_SHAPES[p.l], f1(px(p.ai)),
			    f1(py(p.perf)), 5) + ` class="roof-point${hl}" ` +
			    `data-testid="roof-point" data-level="${p.l}" ` +
			    `data-kernel="${esc(name)}" fill="${hue(name)}" ` +
			    `data-tip="${esc(name)}\n${p.l}: AI ` +
			    `${fmt(p.ai, true)} FLOP/byte, ` +
			    `${fmt(p.perf, true)} ${perfUnit}"/>`);
		}
		const s = svg(W, H);
		s.innerHTML = parts.join('');
		holder.append(s);
		for (const l of ROOF_LEVELS)
			legend.append(el('span', { class: 'item' },
			    svgIcon(ROOF_SHAPES[l], '#555'), ` ${l}`));
		const seen = new Set();
		for (const p of points) {
			const name = fmt(g.get(p.m.first, 'metric'));
			if (seen.has(name))
				continue;
			seen.add(name);
			legend.append(el('span', { class: 'item',
			    'data-tip': name }, svgIcon('circle', hue(name)),
			    ' ' + shorten(name, 48)));
		}
		note.textContent = points.length > 0 ? '' : 'No kernel has ' +
		    'both FLOPs and bytes to plot (integer or copy kernels, ' +
		    'or zero durations).';
	}
	update();
	return { el: fig, draw: update };
}

function svgIcon(shape, color) {
	const s = svg(12, 12);
	s.innerHTML = roofMarker(shape, 6, 6, 5) + ` fill="${color}"/>`;
	return s;
}

/* 1234567.5 as 1,234,567.5 (a number's text, as fmt() gives it). */
function groupDigits(t) {
	const m = /^(-?)(\d{4,})(\.\d+)?$/.exec(t);
	if (m === null)
		return t;
	return m[1] + m[2].replace(/\B(?=(\d{3})+$)/g, ',') + (m[3] ?? '');
}

/*
 * The model of metric records: the metrics (one per metric_id, in
 * first-seen order) grouped into panels and tables, the choices (the
 * kernel and other dims, the normalization run) and, for the current
 * choice, the record of each metric: model.rec(m) (-1 when none).  A
 * record repeating one already placed (the same normalization given
 * twice) is not shown: the first one is, and model.repeated counts the
 * others.
 */
function metricModel(g) {
	const ids = g.col('metric_id');
	const dims = metricDims(g, ids);
	const dimVals = dims.map((k) => {
		const c = g.col(k), vs = [];
		const seen = new Set();
		for (let i = 0; i < g.rows; i++) {
			const v = c.get(i) ?? null;
			if (!seen.has(v))
				seen.add(v), vs.push(v);
		}
		return vs;
	});
	const { runOf, names: runNames } = metricRuns(g, ids, dims);
	const metrics = new Map(), combos = new Map();
	const comboKey = (run, vals) => run + JSON.stringify(vals);
	let repeated = 0;
	/* The run and normalization of a record, for the metrics that do not
	 * vary with the other choices (below). */
	const runDim = dims.indexOf(RUN_KEY);
	const runKey = (norm, runVal) => norm + '|' + JSON.stringify(runVal);
	for (let i = 0; i < g.rows; i++) {
		const id = ids.get(i);
		let m = metrics.get(id);
		if (m === undefined)
			metrics.set(id,
			    m = { id, first: i, idx: metrics.size });
		const vals = dims.map((k) => g.get(i, k) ?? null);
		const vs = JSON.stringify(vals), ck = runOf[i] + vs;
		if (m.vals !== null) {
			const vkey = runDim < 0 ? vs :
			    JSON.stringify(vals.filter((_, d) => d !== runDim));
			if (m.vals === undefined)
				m.vals = vkey, m.byRun = new Map();
			else if (m.vals !== vkey)
				m.vals = null, m.byRun = null;
		}
		if (m.vals !== null) {
			const rk = runKey(runOf[i], runDim >= 0 ? vals[runDim] :
			    null);
			if (!m.byRun.has(rk))
				m.byRun.set(rk, i);
		}
		let arr = combos.get(ck);
		if (arr === undefined)
			combos.set(ck, arr = []);
		if (arr[m.idx] !== undefined)
			repeated++;
		else
			arr[m.idx] = i;
	}
	const model = { g, dims, dimVals, runNames, metrics, combos, repeated,
	    panels: metricPanels(g, metrics), choice: dims.map(() => 0),
	    runChoice: 0, current: [] };
	/* A metric whose records do not vary with the kernel (Top Kernels,
	 * System Info, the roofline) shows the same record for every one. */
	for (const m of metrics.values())
		m.dimless = dims.some((_, d) => d !== runDim) && m.vals !== null;
	model.rec = (m) => model.current[m.idx] ?? (m.dimless ?
	    m.byRun.get(runKey(model.runChoice, runDim >= 0 ?
	    dimVals[runDim][model.choice[runDim]] : null)) ?? -1 : -1);
	model.choose = () => {
		model.current = combos.get(comboKey(model.runChoice,
		    dims.map((_, e) => dimVals[e][model.choice[e]]))) || [];
	};
	model.choose();
	return model;
}

/* Tables in first-seen order, grouped by panel. */
function metricPanels(g, metrics) {
	const panels = new Map();
	for (const m of metrics.values()) {
		const i = m.first;
		const pid = g.get(i, 'panel_id'), tid = g.get(i, 'table_id');
		let p = panels.get(pid);
		if (p === undefined)
			panels.set(pid, p = { id: pid, title: g.get(i, 'panel'),
			    tables: new Map() });
		let t = p.tables.get(tid);
		if (t === undefined)
			p.tables.set(tid, t = { id: tid,
			    title: g.get(i, 'table'), metrics: [] });
		t.metrics.push(m);
	}
	return panels;
}

/*
 * The selectors of a metric model: kernel (and other dims) and
 * normalization.  The choices live in the URL fragment
 * (#kernel=...&normalization=...) so that a link, or a reload, reopens
 * the same view; changed() is called after each switch.
 */
function metricControls(model, changed) {
	const { g, dims, dimVals, runNames } = model;
	const state = new URLSearchParams(location.hash.slice(1));
	const controls = [];
	const control = (id, label, names, set) => {
		const box = selector(id, label, names, (j) => {
			set(j);
			state.set(id, names[j]);
			history.replaceState(null, '', '#' + state.toString());
			model.choose();
			changed();
		});
		const j = state.has(id) ? names.indexOf(state.get(id)) : -1;
		if (j > 0) {
			box.querySelector('select').value = j;
			set(j);
		}
		controls.push(box);
	};
	const kernelDim = dims.findIndex((x) => !NORM_KEYS.test(x) &&
	    x !== RUN_KEY);
	dims.forEach((k, d) => {
		const id = NORM_KEYS.test(k) ? 'normalization' :
		    k === RUN_KEY ? 'run' :
		    d === kernelDim ? 'kernel' : 'dim-' + k;
		control(id, k, dimVals[d].map((v) => v === null ?
		    '(all kernels)' : fmt(v)), (j) => { model.choice[d] = j; });
	});
	if (runNames.length > 1)
		control('normalization', 'Normalization', runNames,
		    (j) => { model.runChoice = j; });
	else if (g.col(NORM_KEY) !== null)
		controls.push(el('span', { class: 'control',
		    'data-testid': 'normalization-only' },
		    'Normalization ' + runNames[0]));
	model.choose();
	return controls;
}

/* Metric records: panels of tables, with kernel/normalization choice. */
function metricView(g) {
	const model = metricModel(g);
	const refreshers = [];
	let refresh = null;
	const root = el('div', { class: 'metrics' });
	const ctl = el('div', { class: 'controls' },
	    ...metricControls(model, () => refresh()));
	if (ctl.childNodes.length > 0)
		root.append(ctl);
	if (model.repeated > 0)
		root.append(el('p', { class: 'note', 'data-testid': 'repeated' },
		    `not shown: ${plural(model.repeated, 'metric record')} ` +
		    'repeating an earlier one (the same metric, normalization ' +
		    'and kernel; give separate workloads their own --section)'));
	const toc = el('nav', { class: 'toc', 'data-testid': 'toc' });
	if (model.panels.size > 1)
		root.append(toc);
	for (const p of model.panels.values()) {
		const num = typeof p.id === 'number' ? Math.floor(p.id / 100) :
		    p.id;
		const title = `${fmt(num)}. ${fmt(p.title)}`;
		const ps = el('details', { class: 'panel', open: '',
		    'data-testid': 'panel-' + p.id },
		    el('summary', {}, title));
		const link = el('a', { href: '#', 'data-testid': 'toc-' + p.id },
		    title);
		link.addEventListener('click', (e) => {
			e.preventDefault();
			ps.open = true;
			ps.scrollIntoView();
		});
		toc.append(link);
		panelCharts(model, p, ps, refreshers);
		for (const t of p.tables.values()) {
			registerCells(model, t);
			ps.append(metricTable(model, t, refreshers));
		}
		root.append(ps);
	}
	refresh = redrawNear(root, refreshers);
	return root;
}

/* The memory chart before table 3.1, the roofline before 4.1 and 4.2. */
function panelCharts(model, p, ps, refreshers) {
	const mc = p.tables.get('3.1');
	if (mc !== undefined && p.id === 300) {
		const c = memChart(model, mc);
		c.eager = true;
		refreshers.push(c);
		ps.append(c.el);
	}
	const ceil = p.tables.get('4.2'), pts = p.tables.get('4.1');
	if (ceil !== undefined && p.id === 400) {
		const kd = model.dims.findIndex((x) => !NORM_KEYS.test(x) &&
		    x !== RUN_KEY);
		const kernelOf = () => kd < 0 ? null :
		    model.dimVals[kd][model.choice[kd]] ?? null;
		const c = roofline(model, pts ?? { metrics: [] }, ceil,
		    kernelOf);
		c.eager = true;
		refreshers.push(c);
		ps.append(c.el);
	} else if (pts !== undefined && p.id === 400) {
		ps.append(el('p', { class: 'note', 'data-testid':
		    'roofline-note' }, 'No roofline ceilings (table 4.2): ' +
		    'the workload has no roofline.csv.'));
	}
}

/* window.profpipe.cell(tableId, rowKey, header): what the page shows. */
const cellTables = new Map();

function registerCells(model, t) {
	const id = String(t.id);
	if (cellTables.has(id))
		return;
	const g = model.g;
	cellTables.set(id, (rowKey, header) => {
		const m = t.metrics.find((x) => x.id === rowKey ||
		    fmt(g.get(x.first, 'metric')) === String(rowKey));
		if (m === undefined)
			return null;
		if (header === 'Metric')
			return g.get(m.first, 'metric');
		if (header === 'Metric_ID')
			return m.id;
		const r = model.rec(m);
		const v = r < 0 ? null : g.get(r, header);
		if (v === undefined || isBlank(v))
			return null;
		return v === 'inf' || v === '-inf' ? num(v) : v;
	});
}

/* What assets/filters.js uses to draw a choice's records. */
const filterLib = { metricView, resetCells: () => cellTables.clear() };

window.profpipe = {
	cell(tableId, rowKey, header) {
		const f = cellTables.get(String(tableId));
		return f === undefined ? null : f(rowKey, header);
	},
};

/*
 * Draws the parts in refreshers ({ el, draw }) now if they are near the
 * view, else when they come near it (or their panel is opened), and the
 * others in the background, a few at a time; data-pending is on root
 * until they all are.  Returns the function that redraws after a switch.
 */
function redrawNear(root, refreshers) {
	const near = new IntersectionObserver((ents) => {
		for (const e of ents) {
			const r = refreshers.find((x) => x.el === e.target);
			r.near = e.isIntersecting;
			if (r.near && r.dirty) {
				r.dirty = false;
				r.draw();
			}
		}
	}, { rootMargin: '300px 0px' });
	for (const r of refreshers)
		near.observe(r.el);
	for (const r of refreshers.slice(0, 6)) {
		r.dirty = false;
		r.draw();
	}
	let later = 0;
	function refresh() {
		for (const r of refreshers) {
			/* Charts are cheap and followed by eye: always now. */
			r.dirty = r.near === false && !r.eager;
			if (!r.dirty)
				r.draw();
		}
		catchUpLater();
	}
	function catchUpLater() {
		root.dataset.pending = '';
		clearTimeout(later);
		later = setTimeout(catchUp, 30);
	}
	catchUpLater();
	function catchUp() {
		const t0 = performance.now();
		for (const r of refreshers) {
			if (!r.dirty)
				continue;
			r.dirty = false;
			r.draw();
			if (performance.now() - t0 > 12) {
				later = setTimeout(catchUp, 0);
				return;
			}
		}
		delete root.dataset.pending;
	}
	return refresh;
}

/*
 * A table is built when first drawn: the first few at once, the others
 * when they come near the view or in the background.
 */
function metricTable(model, t, out) {
	const box = el('div', { class: 'mtable' },
	    el('h3', {}, `${fmt(t.id)} ${fmt(t.title)}`));
	const n = t.metrics.length;
	box.style.minHeight = `${(Math.min(n, 21) + 3) * ROW_H}px`;
	const r = { el: box, dirty: true };
	r.draw = () => {
		r.draw = buildMetricTable(model, t, box);
		box.style.minHeight = '';
	};
	out.push(r);
	return box;
}

/* Builds the table into box; returns the function that redraws it. */
function buildMetricTable(model, t, box) {
	const { g: gg, combos, dims } = model;
	const recOf = model.rec;
	const firsts = t.metrics.map((m) => m.first);
	const rowsOf = [];
	for (const m of t.metrics)
		for (const arr of combos.values())
			if (arr[m.idx] !== undefined)
				rowsOf.push(arr[m.idx]);
	const dimless = t.metrics.every((m) => m.dimless);
	const keys = gg.keysOf(rowsOf).filter((k) =>
	    !METRIC_IDS.has(k) && k !== NORM_KEY && k !== RUN_KEY &&
	    k !== DESC_KEY && (dimless || !dims.includes(k)));
	const val = (k) => (mi) => {
		const r = recOf(t.metrics[mi]);
		return r < 0 ? null : gg.get(r, k) ?? null;
	};
	const numericKey = (k) => firsts.some((_, mi) =>
	    isNumeric(val(k)(mi))) || !firsts.some((_, mi) =>
	    typeof val(k)(mi) === 'string');
	const unitKey = keys.find((k) => /^units?$/i.test(k));
	const cols = [{ title: 'Metric', get: (mi) =>
	    gg.get(t.metrics[mi].first, 'metric') },
	    ...keys.map((k) => ({ title: k, get: val(k),
	    num: k !== unitKey && numericKey(k), group: true }))];
	cols.push({ title: 'Metric_ID',
	    get: (mi) => t.metrics[mi].id });
	const tip = (mi, c) => {
		const v = c.get(mi);
		if (!c.num)
			return null;
		const u = unitKey && c.title !== 'Pct of Peak' ?
		    val(unitKey)(mi) :
		    c.title.startsWith('Pct') ? '%' : '';
		const name = gg.get(t.metrics[mi].first, 'metric');
		const d = describe(gg, t.metrics[mi]);
		return `${fmt(name)} ${c.title}: ` +
		    (isBlank(v) ? '(blank)' : fmt(v, true)) +
		    (u && !isBlank(v) ? ' ' + u : '') + (d ? '\n' + d : '');
	};
	const rows = t.metrics.map((_, mi) => mi);
	const table = new Table({ id: String(t.id), columns: cols, rows,
	    tip });
	box.append(table.el);
	const chart = metricChart(gg, t, cols, unitKey, val);
	if (chart !== null)
		box.append(chart.fig);
	return () => {
		table.refresh();
		if (chart !== null)
			chart.draw();
	};
}

/* Bars for percentages or rates; a heatmap for per-channel rows. */
function metricChart(gg, t, cols, unitKey, val) {
	const n = t.metrics.length;
	const names = t.metrics.map((m) =>
	    fmt(gg.get(m.first, 'metric')));
	const valueCols = cols.filter((c) => c.num &&
	    c.title !== 'Metric_ID');
	if (valueCols.length === 0)
		return null;
	if (n >= 4 && names.every((s, i) => s === String(i))) {
		const ys = valueCols.filter((c) =>
		    c.title !== 'Channel');
		if (ys.length === 0)
			return null;
		const fig = chartBox(String(t.id));
		const draw = () => {
			const finite = (c) => names.some((_, xi) =>
			    isFinite(num(c.get(xi))));
			fig.hidden = !ys.some(finite);
			drawHeatmap(fig, names, ys.map((c) => c.title),
			    (xi, yi) => num(ys[yi].get(xi)),
			    { perRow: true, xname: 'channel' });
		};
		draw();
		return { fig, draw };
	}
	const pctCol = valueCols.find((c) => /^pct/i.test(c.title));
	let col = pctCol, unit = '%', max = 100;
	if (col === undefined && unitKey) {
		const kinds = new Set(names.map((_, mi) =>
		    unitKind(val(unitKey)(mi))));
		if (kinds.size === 1 && !kinds.has('')) {
			col = valueCols[0];
			unit = kinds.has('pct') ? '%' : '';
			max = kinds.has('pct') ? 100 : 0;
		}
	}
	if (col === undefined)
		return null;
	const fig = chartBox(String(t.id));
	const draw = () => {
		const items = [];
		for (let mi = 0; mi < n; mi++) {
			const v = col.get(mi);
			if (isBlank(v))
				continue;
			const u = unit === '%' ? '%' :
			    ' ' + fmt(val(unitKey)(mi));
			items.push({ label: names[mi], value: num(v),
			    tip: `${names[mi]} ${col.title}: ` +
			    `${fmt(v, true)}${u}` });
		}
		fig.hidden = items.length === 0;
		drawBars(fig, items, { unit: unit === '%' ? '%' : '',
		    max: max && items.every((it) => it.value <= 100) ?
		    max : 0 });
	};
	draw();
	return { fig, draw };
}

const STAT_KEY =
    /^(count|sum|mean|median|min|max|pct|std|stddev|rank)(_[a-z]+)?$/;

/*
 * The heatmap of statistics grouped by two keys: --heatmap x,y=value when
 * it names them, else by a run and one other key (topn -k name -k run
 * over many ranks' records), the runs across and the sum of each.
 */
function statsHeatSpec(g, groupKeys, sumKey, views) {
	const v = views.find((w) => w.type === 'heatmap' &&
	    groupKeys.includes(w.x) && groupKeys.includes(w.y) &&
	    g.col(w.value) !== null);
	if (v !== undefined)
		return { x: v.x, y: v.y, value: v.value, straggler: false };
	if (groupKeys.length !== 2 || !groupKeys.includes('run') ||
	    g.col(sumKey) === null)
		return null;
	return { x: 'run', y: groupKeys.find((k) => k !== 'run'),
	    value: sumKey, straggler: true };
}

/*
 * Which rank is slow in what: one column per run (slowest first), one row
 * per function (largest total first), each cell coloured by its
 * deviation from the function's median over the runs; a table of the
 * runs; clicking a cell shows only that run's groups below.
 */
function stragglerView(g, rows, hs, onPick) {
	const xc = g.col(hs.x), yc = g.col(hs.y), vc = g.col(hs.value);
	const { xs, ys, rows: cells, skip } = heatCells(rows, xc.get, yc.get,
	    (r) => num(vc.get(r)));
	const hv = heatView({ id: 'heatmap', title: `${hs.value} by ${hs.x} ` +
	    `and ${hs.y}`, xs, ys, rows: cells, xname: hs.x,
	    zero: hs.straggler, colour: 'deviation', rowOrder: 'total',
	    colOrder: 'slowest', top: hs.straggler ? 20 : 0, onPick });
	const m = hv.model;
	const order = xs.map((_, i) => i).sort((a, b) =>
	    m.colTotal[b] - m.colTotal[a] || a - b);
	const worst = (i) => m.worst[i] < 0 ? null : ys[m.worst[i]];
	const over = (i) => m.worst[i] < 0 ? NaN :
	    m.get(i, m.worst[i]) - m.med[m.worst[i]];
	const table = new Table({ id: 'runs', rows: order, columns: [
		{ title: hs.x, get: (i) => xs[i] },
		{ title: `total ${hs.value}`, get: (i) => m.colTotal[i],
		    num: true },
		{ title: 'vs median %', get: (i) => isFinite(m.colDev[i]) ?
		    m.colDev[i] * 100 : NaN, num: true },
		{ title: `most above its median`, get: worst },
		{ title: `excess ${hs.value}`, get: over, num: true },
	] });
	const root = el('div', { class: 'straggler' },
	    el('h3', {}, (hs.straggler ? `Which ${hs.x} is slow, and in ` +
	    'what: ' : `By ${hs.x}: `) + `${plural(xs.length, hs.x)}, ` +
	    `${plural(ys.length, hs.y)}`), hv.el,
	    el('h3', {}, `${hs.x}s, largest total first`), table.el);
	if (skip > 0)
		root.append(el('p', { class: 'note' }, `not in the heatmap: ` +
		    `${plural(skip, 'record')} without ${hs.x}, ${hs.y} or ` +
		    `a number in ${hs.value}`));
	return { el: root, clear: hv.clear };
}

/* Statistics (topn): the groups in order, a Top-N control and bars. */
function statsView(g, views) {
	const every = g.allRows();
	let all = every;
	let rows = all;
	const keys = g.keysOf(rows);
	/* One run throughout: no column for it. */
	const runs = new Set(rows.map((r) => g.get(r, RUN_KEY)));
	const groupKeys = keys.filter((k) => !STAT_KEY.test(k) &&
	    k !== 'type' && (k !== RUN_KEY || runs.size > 1));
	const sumKey = keys.find((k) => /^sum(_|$)/.test(k)) || 'pct';
	const unit = (sumKey.match(/_([a-z]+)$/) || [])[1] || '';
	const label = (r) => groupKeys.map((k) => fmt(g.get(r, k))).join(' / ');
	let n = Math.min(10, rows.length);
	const input = el('input', { type: 'number', min: 0, value: n,
	    'data-testid': 'topn', 'aria-label': 'top N' });
	const root = el('div', { class: 'stats' },
	    el('div', { class: 'controls' }, el('label', { class: 'control' },
	    'Top ', input, ` of ${rows.length} (0: all)`)));
	/* topn names its keys with the value's unit, sum_ns...: "sum (ns)". */
	const cols = [...groupKeys, ...keys.filter((k) => STAT_KEY.test(k))]
	    .map((k) => ({ title: STAT_KEY.test(k) ?
	    k.replace(/^([a-z]+)_([a-z]+)$/, '$1 ($2)') : k, key: k,
	    get: g.col(k).get, num: STAT_KEY.test(k) }));
	const table = new Table({ id: 'top', columns: cols,
	    rows: rows.slice(0, n) });
	const fig = chartBox('top', sumKey + ' by ' + groupKeys.join(', '));
	const draw = () => drawBars(fig, rows.slice(0, n).map((r) => ({
	    label: label(r), value: num(g.get(r, sumKey)),
	    tip: `${label(r)}: ${sumKey} ${fmt(g.get(r, sumKey), true)}` +
		    (g.col('pct') ? `, pct ${fmt(g.get(r, 'pct'), true)}` :
		    '') +
		    (g.col('count') ? `, count ${fmt(g.get(r, 'count'))}` : ''),
	    })), { unit: unit ? ' ' + unit : '' });
	let want = n;
	const show = () => {
		n = want === 0 ? rows.length : Math.min(want, rows.length);
		table.refresh(rows.slice(0, n));
		draw();
	};
	/* Records of several runs: a run selector (topn groups per run). */
	if (runs.size > 1) {
		const names = [...runs].map((v) => v === undefined ? '' :
		    fmt(v));
		root.querySelector('.controls').prepend(selector('run', 'Run',
		    ['(all runs)', ...names], (j) => {
			all = j === 0 ? every : every.filter((r) =>
			    fmt(g.get(r, RUN_KEY) ?? '') === names[j - 1]);
			rows = all;
			show();
		}));
	}
	input.addEventListener('input', () => {
		const v = Number(input.value);
		if (!Number.isInteger(v) || v < 0)
			return;
		want = v;
		show();
	});
	draw();
	const hs = statsHeatSpec(g, groupKeys, sumKey, views || []);
	if (hs !== null) {
		const picked = el('p', { class: 'note', 'data-testid':
		    'heat-pick', hidden: '' });
		const clearBtn = el('button', { type: 'button', 'data-testid':
		    'heat-clear' }, `show every ${hs.x}`);
		const sv = stragglerView(g, all, hs, (x, y, m, xi, yi) => {
			picked.hidden = x === null;
			rows = x === null ? all : all.filter((r) =>
			    JSON.stringify(g.get(r, hs.x)) ===
			    JSON.stringify(x));
			if (x !== null)
				picked.replaceChildren(`Below: only ${hs.x} ` +
				    `${fmt(x)}; ${fmt(y)} there ` +
				    `${fmt(m.get(xi, yi), true)}, median ` +
				    `${fmt(m.med[yi], true)} ` +
				    `(${pctText(m.dev(xi, yi))}). `, clearBtn);
			show();
		});
		clearBtn.addEventListener('click', () => {
			sv.clear();
			picked.hidden = true;
			rows = all;
			show();
		});
		root.prepend(sv.el, picked);
	}
	root.append(fig, table.el);
	return root;
}

const DISPATCH_COLS = ['Dispatch_ID', 'Kernel_Name', 'GPU_ID', 'Queue_ID',
    'PID', 'TID', 'Grid_Size', 'Workgroup_Size', 'LDS_Per_Workgroup',
    'Scratch_Per_Workitem', 'Arch_VGPR', 'Accum_VGPR', 'SGPR', 'wave_size',
    'Start_Timestamp', 'End_Timestamp', 'dur_ns'];

/* A colour per name, the same in every page. */
const hues = new Map();
function hue(name) {
	let c = hues.get(name);
	if (c === undefined) {
		let h = 0;
		for (const ch of String(name))
			h = (h * 31 + ch.codePointAt(0)) >>> 0;
		hues.set(name, c = `hsl(${h % 360},55%,48%)`);
	}
	return c;
}

/*
 * Spans for a timeline from start/end (and lane) keys of g, and tipOf(sp)
 * for the tooltip (made on hover: a page may hold a million spans).
 */
function spansOf(g, rows, sk, ek, lk, labelOf, unit = '') {
	const sc = g.col(sk), ec = g.col(ek);
	if (sc === null || ec === null)
		return { spans: [], skipped: rows.length, tipOf: null };
	const rs = relTimes(sc, rows), base = rs.base;
	const lc = lk ? g.col(lk) : null;
	const spans = [];
	let skipped = 0;
	for (const r of rows) {
		const s = rs.at(sc.get(r)), e = rs.at(ec.get(r));
		if (!isFinite(s) || !isFinite(e) || e < s) {
			skipped++;
			continue;
		}
		const lane = lc ? lc.get(r) : '';
		spans.push({ r, lane: typeof lane === 'string' ? lane :
		    fmt(lane), s, e });
	}
	const gd = (t) => groupDigits(fmtNum(t));
	const u = unit ? ' ' + unit : '';
	const tipOf = (sp) => `${labelOf(sp.r)}\n${sk} ` +
	    `${fmt(sc.get(sp.r), true)}, ${ek} ${fmt(ec.get(sp.r), true)}\n` +
	    `+${gd(sp.s)} .. +${gd(sp.e)}${u}, ` + (unit === 'ns' ?
	    nsText(sp.e - sp.s) : gd(sp.e - sp.s) + u) + ' long';
	return { spans, skipped, base, tipOf };
}

/*
 * The timeline's colours: one swatch per kernel, the busiest first (the
 * first 24; the others are counted).
 */
function kernelLegend(g, spans) {
	const by = new Map();
	for (const sp of spans) {
		const k = g.get(sp.r, 'Kernel_Name');
		const e = by.get(k) ?? { k, t: 0, n: 0 };
		e.t += sp.e - sp.s;
		e.n++;
		by.set(k, e);
	}
	const all = [...by.values()].sort((a, b) => b.t - a.t);
	const MAX = 12;
	const lg = el('div', { class: 'tl-legend',
	    'data-testid': 'timeline-legend' }, ...all.slice(0, MAX).map((e) =>
	    el('span', { class: 'tl-key', 'data-kernel': fmt(e.k),
	    style: `--swatch:${hue(e.k)}`, 'data-tip': `${fmt(e.k)}: ` +
	    `${nsText(e.t)} in ${plural(e.n, 'dispatch', 'dispatches')}` },
	    shorten(fmt(e.k), 60))));
	if (all.length > MAX)
		lg.append(el('span', { class: 'note' }, `and ${all.length - MAX} ` +
		    'other kernels'));
	return lg;
}

/* pmc2ndjson records: sysinfo, roofline, the dispatch timeline and list. */
function dispatchView(g) {
	const rows = g.allRows();
	const keys = g.keysOf(rows);
	const root = el('div', { class: 'dispatches' });
	const lane = keys.includes('GPU_ID') ? 'GPU_ID' : null;
	const { spans, skipped, tipOf } = spansOf(g, rows, 'Start_Timestamp',
	    'End_Timestamp', lane, (r) => `${fmt(g.get(r, 'Dispatch_ID'))}: ` +
	    fmt(g.get(r, 'Kernel_Name')), 'ns');
	for (const sp of spans) {
		sp.name = fmt(g.get(sp.r, 'Kernel_Name'));
		sp.color = hue(g.get(sp.r, 'Kernel_Name'));
	}
	const tl = spans.length > 0 ? timeline(spans, 'ns', tipOf,
	    (l) => lane ? 'GPU ' + l : String(l)) : null;
	/* Filters by kernel and GPU for the timeline and the list. */
	const pick = { Kernel_Name: null, GPU_ID: null };
	const ctl = el('div', { class: 'controls' });
	for (const [k, id] of [['Kernel_Name', 'dispatch-kernel'],
	    ['GPU_ID', 'dispatch-gpu']]) {
		const c = g.col(k);
		const vals = c === null ? [] :
		    [...new Set(rows.map((r) => c.get(r)))];
		if (vals.length < 2)
			continue;
		const labels = ['(all)', ...vals.map((v) => fmt(v))];
		ctl.append(selector(id, k, labels, (j) => {
			pick[k] = j === 0 ? null : { v: vals[j - 1] };
			const ok = (r) => Object.entries(pick).every(
			    ([kk, p]) => p === null || g.get(r, kk) === p.v);
			table.refresh(rows.filter(ok));
			if (tl !== null)
				tl.setFilter(pick.Kernel_Name || pick.GPU_ID ?
				    (sp) => ok(sp.r) : null);
		}));
	}
	if (ctl.childNodes.length > 0)
		root.append(ctl);
	if (tl !== null) {
		root.append(el('h3', {}, 'Dispatch timeline' +
		    (lane ? ' per GPU' : '')), tl, kernelLegend(g, spans));
		if (skipped > 0)
			root.append(el('p', { class: 'note' }, 'not shown: ' +
			    plural(skipped, 'dispatch', 'dispatches') +
			    ' without start and end times'));
	}
	let shown = DISPATCH_COLS.filter((k) => keys.includes(k));
	/* Other layouts (Nsight Compute): the first plain keys. */
	if (shown.length < 3)
		shown = keys.filter((k) => k !== 'type' && g.rows > 0 &&
		    (typeof g.get(0, k) !== 'object' || g.get(0, k) === null))
		    .slice(0, 8)
		    .concat(keys.includes('dur_ns') ? ['dur_ns'] : [])
		    .filter((k, i, a) => a.indexOf(k) === i);
	const cols = shown.map((k) => {
		const c = g.col(k), v = c.get(0);
		return { title: k, get: c.get, big: c.big,
		    num: isNumeric(v) || c.big || v === null };
	});
	const table = new Table({ id: 'dispatch', columns: cols, rows,
	    total: rows.length });
	root.append(el('h3', {}, 'Dispatch list'), table.el);
	return root;
}

/*
 * MIGraphX instructions: the timed ones (the perf section) first,
 * slowest first, time and share in the first columns; the program
 * listing's rows, which have no time, behind a toggle (after the timed
 * ones when shown).
 */
function instructionTable(g, rows) {
	const want = ['time_ms', 'pct', 'name', 'op', 'module', 'group',
	    'shape_raw', 'section', 'run', 'line'];
	const keys = g.keysOf(rows);
	const cols = want.filter((k) => keys.includes(k)).map((k) => ({
	    title: k, get: g.col(k).get, num: /^(run|time_ms|pct|line)$/
	    .test(k) }));
	const tc = g.col('time_ms');
	const timed = tc === null ? rows : rows.filter((r) =>
	    !isBlank(tc.get(r)));
	const table = new Table({ id: 'instruction', columns: cols,
	    rows: timed.length > 0 ? timed : rows });
	if (tc !== null)
		table.sortBy(0);
	const untimed = rows.length - timed.length;
	if (untimed === 0 || timed.length === 0)
		return table.el;
	const box = el('input', { type: 'checkbox',
	    'data-testid': 'show-untimed', style: 'margin-right:0.4em' });
	box.addEventListener('change', () =>
	    table.refresh(box.checked ? rows : timed));
	const sc = g.col('section');
	const listing = sc === null ? 0 : rows.filter((r) =>
	    isBlank(tc.get(r)) && sc.get(r) === 'program').length;
	const why = [listing > 0 ? `${listing} of the program listing` : '',
	    untimed > listing ? `${untimed - listing} never run` : '']
	    .filter((x) => x !== '').join(', ');
	return el('div', {}, el('label', { class: 'control' }, box,
	    `show the ${plural(untimed, 'instruction')} without a time ` +
	    `(${why})`), table.el);
}

/* MIGraphX: summary bars, the instruction table, totals, the rest. */
function migraphxView(g) {
	const rows = g.allRows();
	if (g.kind === 'summary') {
		const runs = new Set(rows.map((r) => g.get(r, 'run')));
		const fig = chartBox('summary', 'Summary: total_ms by op');
		const lbl = (r) => (runs.size > 1 ? `run ${g.get(r, 'run')}: ` :
		    '') + fmt(g.get(r, 'op'));
		drawBars(fig, rows.map((r) => ({ label: lbl(r),
		    value: num(g.get(r, 'total_ms')),
		    tip: `${lbl(r)}: ${fmt(g.get(r, 'total_ms'), true)} ms` +
			(isBlank(g.get(r, 'count')) ? '' :
			`, ${fmt(g.get(r, 'count'))} calls`) +
			(isBlank(g.get(r, 'pct')) ? '' :
			`, ${fmt(g.get(r, 'pct'), true)}%`) })),
		    { unit: ' ms' });
		return el('div', {}, fig, recordTable(g, 'summary', rows));
	}
	if (g.kind === 'instruction')
		return instructionTable(g, rows);
	if (g.kind === 'totals')
		return kvTable(g, 'totals', rows);
	return recordTable(g, g.kind, rows);
}

/* Records of no known kind: the views named on the command line. */
function genericView(g, views) {
	const rows = g.allRows();
	const root = el('div', { class: 'generic' });
	const vs = views.length > 0 ? views : [{ type: 'table' }];
	const count = {};
	const idOf = (t) => {
		count[t] = (count[t] || 0) + 1;
		return count[t] > 1 ? `${t}-${count[t]}` : t;
	};
	const missing = (what, n) => n > 0 ? el('p', { class: 'note' },
	    `not shown: ${plural(n, 'record')} without ${what}`) : null;
	for (const v of vs) {
		if (v.type === 'table') {
			root.append(recordTable(g, g.kind === 'records' ?
			    idOf('records') : idOf(g.kind), rows));
		} else if (v.type === 'bar') {
			root.append(genericBars(g, rows, v, idOf('bar'),
			    missing));
		} else if (v.type === 'heatmap') {
			const hc = heatCells(rows, (r) => g.get(r, v.x),
			    (r) => g.get(r, v.y), (r) => g.get(r, v.value) ===
			    undefined ? NaN : num(g.get(r, v.value)));
			root.append(heatView({ id: idOf('heatmap'),
			    title: `${v.value} by ${v.x} and ${v.y}`,
			    xs: hc.xs, ys: hc.ys, rows: hc.rows, xname: v.x,
			    colour: 'value', rowOrder: 'input',
			    colOrder: 'input' }).el);
			const m = missing(`${v.x}, ${v.y} or ${v.value}`,
			    hc.skip);
			if (m)
				root.append(m);
		} else if (v.type === 'timeline') {
			const first = g.keys.find((k) => typeof g.get(0, k) ===
			    'string' && k !== v.lane) || v.start;
			const unit = /_ns$/.test(v.start) ? 'ns' : '';
			const { spans, skipped, tipOf } = spansOf(g, rows,
			    v.start, v.end, v.lane || null,
			    (r) => fmt(g.get(r, first)), unit);
			for (const sp of spans)
				sp.name = fmt(g.get(sp.r, first));
			if (spans.length > 0)
				root.append(timeline(spans, unit, tipOf));
			const m = missing(`${v.start} and ${v.end}`, skipped);
			if (m)
				root.append(m);
		} else if (v.type === 'scatter') {
			const pts = [];
			for (const r of rows) {
				const x = num(g.get(r, v.x));
				const y = num(g.get(r, v.y));
				if (x > 0 && y > 0 && isFinite(x) &&
				    isFinite(y))
					pts.push({ x, y, tip: `${v.x} ` +
					    `${fmt(x, true)}, ${v.y} ` +
					    `${fmt(y, true)}` });
			}
			const fig = chartBox(idOf('scatter'),
			    `${v.y} by ${v.x}`);
			if (pts.length > 0)
				drawScatter(fig, pts, v.x, v.y);
			root.append(fig);
			const m = missing(`positive ${v.x} and ${v.y}`,
			    rows.length - pts.length);
			if (m)
				root.append(m);
		}
	}
	return root;
}

/* --bar: one bar per record, largest first, with a Top-N control. */
function genericBars(g, rows, v, id, missing) {
	const items = [];
	let skip = 0;
	for (const r of rows) {
		const lv = g.get(r, v.label), vv = g.get(r, v.value);
		if (lv === undefined || isBlank(vv) || isNaN(num(vv))) {
			skip++;
			continue;
		}
		items.push({ label: fmt(lv), value: num(vv),
		    tip: `${fmt(lv)}: ${v.value} ${fmt(vv, true)}` });
	}
	items.sort((a, b) => b.value - a.value);
	let n = Math.min(items.length, 20);
	const input = el('input', { type: 'number', min: 0, value: n,
	    'data-testid': 'topn', 'aria-label': 'top N' });
	const fig = chartBox(id, `${v.value} by ${v.label}`);
	const draw = () => drawBars(fig, items.slice(0, n), {});
	input.addEventListener('input', () => {
		const x = Number(input.value);
		if (Number.isInteger(x) && x >= 0) {
			n = x === 0 ? items.length : Math.min(x, items.length);
			draw();
		}
	});
	draw();
	return el('div', {}, el('div', { class: 'controls' },
	    el('label', { class: 'control' }, 'Top ', input,
	    ` of ${items.length} (0: all)`)), fig,
	    missing(`${v.label} and a number in ${v.value}`, skip));
}

/* ---------- comparisons (recdiff) ---------- */

/* Identity columns shown only when they tell rows apart. */
const COMPARE_QUIET = new Set(['panel_id', 'panel', 'table_id', 'table',
    'metric_id', 'normalization', 'type', 'base_op', 'kernel', 'detail']);

/* A delta % as a colour: red for a rise, blue for a fall, deeper to 100%. */
function pctColour(v) {
	const p = num(v);
	return isNaN(p) || p === 0 ? null : diverge(p / 100);
}

/* The delta % colour legend. */
function pctLegend() {
	const stops = [-100, -50, -10, 10, 50, 100];
	return el('div', { class: 'legend', 'data-testid': 'pct-legend' },
	    '\u0394%: ', ...stops.map((p) => el('span', { class: 'swatch',
	    style: `background:${diverge(p / 100)}`, title: `${p}%` },
	    `${p > 0 ? '+' : p < 0 ? '\u2212' : ''}${Math.abs(p)}%` +
	    (Math.abs(p) === 100 ? ' or more' : ''))),
	    ' (red: higher than the base, blue: lower; blank: no change ' +
	    'or no value)');
}

/*
 * Horizontal bars side by side: per item one bar per series.  items:
 * [{ label, values: [per series], notes: [per series, a delta % for the
 * tooltip, optional] }], series: [{ name, colour }].
 */
function drawGroupedBars(fig, items, series) {
	fig.querySelector('svg')?.remove();
	const W = 760, LW = 260, BH = 12, GAP = 8;
	const gh = series.length * BH + GAP;
	let max = 0;
	for (const it of items)
		for (const v of it.values)
			if (isFinite(v))
				max = Math.max(max, Math.abs(v));
	if (!(max > 0))
		max = 1;
	const s = svg(W, Math.max(1, items.length) * gh + 4);
	const parts = [];
	items.forEach((it, i) => {
		const y0 = i * gh + 2;
		parts.push(`<text x="${LW - 6}" y="${y0 + gh / 2}" ` +
		    `class="lbl">${esc(shorten(it.label, 34))}</text>`);
		it.values.forEach((v, k) => {
			const y = y0 + k * BH;
			const frac = v === Infinity ? 1 : isFinite(v) ?
			    Math.min(1, Math.abs(v) / max) : 0;
			const bw = Math.max(frac * (W - LW - 90),
			    isFinite(v) && v !== 0 ? 1 : 0);
			const note = it.notes ? it.notes[k] : null;
			const tip = `${it.label}\n${series[k].name}: ` +
			    (isNaN(v) ? '(none)' : fmt(v, true)) +
			    (isBlank(note) || note === undefined ? '' :
			    ` (\u0394% ${signedText(note)})`);
			parts.push(`<g class="bar cmp" data-tip="${esc(tip)}" ` +
			    `data-series="${k}"><rect x="${LW}" y="${y}" ` +
			    `width="${bw.toFixed(1)}" height="${BH - 2}" ` +
			    `style="fill:${series[k].colour}"/>` +
			    `<text x="${LW + bw + 4}" y="${y + BH - 3}" ` +
			    `class="val">${esc(isNaN(v) ? '' : fmtShort(v))}` +
			    '</text></g>');
		});
	});
	s.innerHTML = parts.join('');
	fig.append(s);
}

/*
 * The comparison model: the fields compared (F with F_base), the runs,
 * and the rows merged across runs by their identity fields.
 */
function compareModel(g, rows) {
	const keys = g.keysOf(rows), has = new Set(keys);
	const fields = keys.filter((k) => has.has(k + '_base') &&
	    !/_(base|delta|pct)$/.test(k) || has.has(k + '_pct') &&
	    !/_(base|delta|pct)$/.test(k));
	const numeric = fields.filter((f) => has.has(f + '_pct'));
	const derived = new Set(['run', 'base_run', 'only']);
	for (const f of fields)
		for (const s of ['', '_base', '_delta', '_pct'])
			derived.add(f + s);
	const ids = keys.filter((k) => !derived.has(k));
	const runs = [], bases = [];
	const merged = new Map(), list = [];
	for (const r of rows) {
		const run = fmt(g.get(r, 'run')), base = fmt(g.get(r, 'base_run'));
		if (!runs.includes(run))
			runs.push(run);
		if (!bases.includes(base))
			bases.push(base);
		const k = JSON.stringify(ids.filter((c) =>
		    !COMPARE_QUIET.has(c) || c === 'table_id' ||
		    c === 'normalization').map((c) => g.get(r, c) ?? null));
		let m = merged.get(k);
		if (m === undefined)
			merged.set(k, m = { first: r, byRun: new Map() }),
			    list.push(m);
		m.byRun.set(run, r);
	}
	return { fields, numeric, ids, runs, base: bases.join(', '), list };
}

/* recdiff records: per table, the base, each run and delta % columns. */
function compareView(g) {
	const all = g.allRows();
	const model = compareModel(g, all);
	const { numeric, runs, base } = model;
	const root = el('div', { class: 'compare' });
	root.append(el('p', { class: 'note', 'data-testid': 'compare-runs' },
	    `Base: ${base}; compared: ${runs.join(', ')}.`));
	/* Controls: the change threshold and the field the bars show. */
	const min = el('input', { type: 'number', min: 0, value: 0,
	    step: 'any', 'data-testid': 'changed-more-than',
	    'aria-label': 'changed more than, percent' });
	let field = 0;
	const ctl = el('div', { class: 'controls' },
	    el('label', { class: 'control' }, 'Changed more than ', min, '%'));
	if (numeric.length > 0)
		ctl.append(selector('compare-field', 'Bars of', numeric,
		    (j) => { field = j; redraw(); }));
	root.append(ctl, pctLegend());
	/* One table per metric table (table_id), else per type. */
	const groupKey = g.col('table_id') ? 'table_id' :
	    g.col('type') ? 'type' : null;
	const groups = new Map();
	for (const m of model.list) {
		const k = groupKey ? fmt(g.get(m.first, groupKey)) : '';
		if (!groups.has(k))
			groups.set(k, []);
		groups.get(k).push(m);
	}
	const boxes = [];
	for (const [k, ms] of groups)
		boxes.push(compareTable(g, model, k, ms, groupKey));
	const redraw = () => {
		const lim = Number(min.value);
		for (const b of boxes)
			b.show(isFinite(lim) && lim > 0 ? lim : 0, field);
	};
	min.addEventListener('input', redraw);
	for (const b of boxes)
		root.append(b.el);
	redraw();
	return root;
}

/* The largest |delta %| of a merged row over its numeric fields and runs. */
function maxChange(g, model, m, only) {
	let best = -1;
	for (const r of m.byRun.values())
		for (const f of only ? [only] : model.numeric) {
			const p = Math.abs(num(g.get(r, f + '_pct')));
			if (!isNaN(p) && p > best)
				best = p;
		}
	return best;
}

/* A signed number's text: +2.5, -10, +inf. */
function signedText(v) {
	const t = fmt(v, true);
	return num(v) > 0 ? '+' + t : t;
}

/*
 * The tooltip of a delta % cell: the signed change, then the base, the
 * run's value and their signed difference.
 */
function changeTip(c, mi, f, run, base, val) {
	const p = val(run, f + '_pct')(mi), d = val(run, f + '_delta')(mi);
	if (isBlank(p))
		return `${c.title}: (blank)`;
	const b = base(mi), v = val(run, f)(mi);
	return `${c.title}: ${signedText(p)}${isFinite(num(p)) ? '%' : ''}\n` +
	    `base ${isBlank(b) ? '(blank)' : fmt(b, true)}, ${run} ` +
	    `${isBlank(v) ? '(blank)' : fmt(v, true)}` +
	    (isBlank(d) ? '' : ` (\u0394 ${signedText(d)})`);
}

function compareTable(g, model, key, ms, groupKey) {
	const { runs, numeric, fields } = model;
	const first = ms[0].first;
	const title = groupKey === 'table_id' ? `${key} ` +
	    fmt(g.get(first, 'table') ?? '') : groupKey ? key : 'Records';
	/* Identity columns that tell this table's rows apart. */
	const ids = model.ids.filter((c) => {
		if (!COMPARE_QUIET.has(c))
			return ms.some((m) => g.get(m.first, c) !== undefined);
		return new Set(ms.map((m) => JSON.stringify(g.get(m.first, c) ??
		    null))).size > 1;
	}).sort((a, b) => COMPARE_QUIET.has(a) - COMPARE_QUIET.has(b));
	const used = fields.filter((f) => ms.some((m) =>
	    [...m.byRun.values()].some((r) => !isBlank(g.get(r, f)) ||
	    !isBlank(g.get(r, f + '_base')))));
	const at = (m, run) => m.byRun.get(run) ?? -1;
	const val = (run, k) => (mi) => {
		const r = at(rowsNow[mi], run);
		return r < 0 ? null : g.get(r, k) ?? null;
	};
	const baseVal = (f) => (mi) => {
		for (const r of rowsNow[mi].byRun.values()) {
			const v = g.get(r, f + '_base');
			if (v !== undefined)
				return v;
		}
		return null;
	};
	const cols = ids.map((c) => ({ title: c, get: (mi) =>
	    g.get(rowsNow[mi].first, c) ?? null }));
	if (ms.some((m) => [...m.byRun.values()].some((r) =>
	    g.get(r, 'only') !== undefined)))
		cols.push({ title: 'only', get: (mi) => {
			const r = rowsNow[mi].byRun.values().next().value;
			return g.get(r, 'only') ?? null;
		} });
	const many = runs.length > 1;
	for (const f of used) {
		const isNum = numeric.includes(f);
		cols.push({ title: `${f} (base)`, key: f, get: baseVal(f),
		    num: isNum });
		for (const run of runs) {
			cols.push({ title: many ? `${f} (${run})` : f, key: f,
			    get: val(run, f), num: isNum });
			if (isNum) {
				const c = { title: `${f} \u0394%` + (many ?
				    ` (${run})` : ''), key: f + '_pct',
				    get: val(run, f + '_pct'), num: true,
				    sign: true, bg: pctColour,
				    sortKey: (v) => Math.abs(num(v)) };
				c.tipOf = (mi) => changeTip(c, mi, f, run,
				    baseVal(f), val);
				cols.push(c);
			}
		}
	}
	let rowsNow = ms;
	const id = 'cmp-' + slug(key || 'all');
	const table = new Table({ id, columns: cols,
	    rows: ms.map((_, i) => i) });
	const fig = chartBox(id, '');
	const box = el('div', { class: 'cmp-table', 'data-testid': id },
	    el('h3', {}, title), fig, table.el);
	const label = (m) => ids.filter((c) => !COMPARE_QUIET.has(c) &&
	    !isBlank(g.get(m.first, c))).map((c) => fmt(g.get(m.first, c)))
	    .join(' / ') || fmt(g.get(m.first, ids[0]) ?? '');
	const colours = ['#999', ...runs.map((_, k) =>
	    `hsl(${(210 + 137 * k) % 360},60%,50%)`)];
	return { el: box, show: (lim, fi) => {
		rowsNow = lim > 0 ? ms.filter((m) => maxChange(g, model, m) >
		    lim) : ms;
		table.spec.total = ms.length;
		table.refresh(rowsNow.map((_, i) => i));
		const f = numeric[fi];
		fig.querySelector('figcaption')?.remove();
		if (f === undefined || !used.includes(f)) {
			fig.hidden = true;
			return;
		}
		fig.hidden = false;
		fig.prepend(el('figcaption', {}, `${f}: base and ` +
		    `${runs.join(', ')}, the largest changes first`));
		const top = rowsNow.slice().sort((a, b) => maxChange(g, model,
		    b, f) - maxChange(g, model, a, f)).slice(0, 20);
		drawGroupedBars(fig, top.map((m) => ({ label: label(m),
		    values: [num(baseVal(f)(rowsNow.indexOf(m)) ?? NaN),
		    ...runs.map((run) => {
			    const r = at(m, run);
			    return r < 0 ? NaN : num(g.get(r, f) ?? NaN);
		    })], notes: [null, ...runs.map((run) => {
			    const r = at(m, run);
			    return r < 0 ? null : g.get(r, f + '_pct') ?? null;
		    })] })), [{ name: 'base', colour: colours[0] },
		    ...runs.map((run, k) => ({ name: run,
		    colour: colours[k + 1] }))]);
	} };
}

/* Records of a kind the page has no view for: the --table view. */
const asTable = (g) => recordTable(g, g.kind, g.allRows());
const asKeyValue = (g) => kvTable(g, g.kind, g.allRows());

/*
 * The record kinds the page knows (docs/formats.md): the title of their
 * group, where the group goes (lower rank first, as rocprof-compute lays
 * them out; 9 for the others) and the view that draws it.  A kind not
 * here gets the views named on the command line (genericView).
 */
const KINDS = {
	comparison: { title: 'Comparison', rank: 0, view: compareView },
	statistics: { title: 'Top statistics', rank: 1, view: statsView },
	metric: { title: 'Metrics', rank: 2, view: metricView },
	dispatch: { title: 'Dispatches', rank: 3, view: dispatchView },
	summary: { title: 'MIGraphX summary', rank: 4,
	    view: (g, views) => g.col('op') ? migraphxView(g) :
	    genericView(g, views) },
	totals: { title: 'MIGraphX totals', rank: 5, view: migraphxView },
	instruction: { title: 'MIGraphX instructions', rank: 6,
	    view: migraphxView },
	sysinfo: { title: 'System info', view: asKeyValue },
	units: { view: asKeyValue },
	roofline: { title: 'Roofline', view: asTable },
	records: { title: '', view: genericView },
	/* metric-eval --interactive: the metrics with filters (filters.js) */
	interactive: { title: 'Metrics', rank: 2,
	    view: (g, views, groups) => window.profpipeFilters.view(g, groups,
	    filterLib) },
	interactive_column: { hidden: true },
	interactive_table: { hidden: true },
};
for (const k of ['trace', 'module', 'meta', 'other', 'bench',
    'bench_result', 'bench_skipped'])
	KINDS[k] = { view: migraphxView };

function kindOf(kind) {
	const k = Object.hasOwn(KINDS, kind) ? KINDS[kind] : {};
	return { title: k.title ?? kind, rank: k.rank ?? 9,
	    view: k.view ?? genericView, hidden: !!k.hidden };
}

function slug(s) {
	return String(s).replace(/[^A-Za-z0-9._-]+/g, '-') || 'main';
}

function main() {
	const t0 = performance.now();
	const data = JSON.parse(document.getElementById('profpipe-data')
	    .textContent);
	const app = document.getElementById('app');
	app.textContent = '';
	if (data.skipped > 0)
		app.append(el('p', { class: 'warn', 'data-testid': 'skipped' },
		    `skipped: ${plural(data.skipped, 'bad record')} (see the ` +
		    'messages of chart2html)'));
	if (data.sections.length === 0)
		app.append(el('p', { class: 'note' }, 'No records.'));
	for (const s of data.sections) {
		const kinds = s.groups.map((g) => new Group(g));
		kinds.sort((a, b) => kindOf(a.kind).rank -
		    kindOf(b.kind).rank);
		const sect = section(s.name, 'section-' + slug(s.name));
		const groups = new Map(kinds.map((g) => [g.kind, g]));
		for (const g of kinds) {
			const { title, view, hidden } = kindOf(g.kind);
			/* The filters' view draws the metric records. */
			if (hidden || (g.kind === 'metric' &&
			    groups.has('interactive')))
				continue;
			const box = el('div', { class: 'group',
			    'data-kind': g.kind }, title ?
			    el('h2', {}, title + (g.kind === 'records' ? '' :
			    ` (${plural(g.rows, 'record')})`)) : null,
			    view(g, data.views, groups));
			sect.append(box);
		}
		app.append(sect);
	}
	/* For scripts: the time spent here, and the time since navigation
	 * when the page became usable (after its first layout). */
	document.body.dataset.ready = (performance.now() - t0).toFixed(1);
	requestAnimationFrame(() => setTimeout(() => {
		document.body.dataset.interactive =
		    performance.now().toFixed(1);
	}));
}

main();
})();

/*
 * flame.js: the interactive flame graph of a page written by flame2html.
 *
 * The page carries its data in three parts (docs/formats.md, "HTML
 * pages"): #fg-meta (JSON: title, unit, flags, per-thread totals,
 * categories), #fg-names and #fg-cats (JSON arrays: the name table and each
 * name's category), and one or more .fg-nodes blocks per tree holding the
 * nodes in depth-first order as base-32 digits.  The nodes are decoded into
 * typed arrays; nothing is built per node but numbers.  Drawing walks only
 * the frames at least MIN_PX wide; narrower siblings are drawn together as
 * one merged box, so no weight disappears at any zoom.
 *
 * Names are only ever put into the page as text (textContent, fillText),
 * never as HTML.
 */
'use strict';
(function () {
	const ROW = 18;			/* row height, CSS pixels */
	const MIN_PX = 1;		/* narrower frames are merged */
	const FONT = '12px ui-monospace, Menlo, Consolas, monospace';
	const MATCH_FILL = 'rgb(230,0,230)';
	const MERGED_FILL = '#9e9e9e';
	const THREAD_FILL = '#5d4037';

	const $ = (id) => document.getElementById(id);
	const meta = JSON.parse($('fg-meta').textContent);
	const names = JSON.parse($('fg-names').textContent);
	const nameCat = JSON.parse($('fg-cats').textContent);
	const cats = meta.categories;
	const unitIsTime = ['ns', 'us', 'ms', 's'].indexOf(meta.unit) >= 0;

	const canvas = $('fg-canvas');
	const scroller = $('fg-scroll');
	const spacer = $('fg-spacer');
	const tooltip = $('fg-tooltip');
	const threadSel = $('fg-thread');
	const searchBox = $('fg-search');
	const matchesEl = $('fg-matches');
	const icicleBtn = $('fg-icicle');
	const widthsBtn = $('fg-widths');
	const callersBtn = $('fg-callers');
	const statusEl = $('fg-status');
	const ctx = canvas.getContext('2d');

	/* ---- decoding ------------------------------------------------- */

	/*
	 * Decodes tree id's node blocks.  Each node: a header digit
	 * h = same-total + 2 * same-before + 4 * up (up 15: more digits
	 * follow), the name index, the total unless the same as the previous
	 * node's, the before-total in a diff unless equal to the total, and
	 * the calls when the page has them.
	 */
	function decodeTree(id, n) {
		const t = {
			n: n,
			name: new Int32Array(n), depth: new Int32Array(n),
			parent: new Int32Array(n), end: new Int32Array(n),
			total: new Float64Array(n), self: new Float64Array(n),
			x: new Float64Array(n),
			before: meta.diff ? new Float64Array(n) : null,
			bself: meta.diff ? new Float64Array(n) : null,
			calls: meta.calls ? new Float64Array(n) : null,
			maxDepth: 0, maxDelta: 0,
		};
		const open = [], cursor = [0];
		let i = 0, prevDepth = -1, prevTotal = 0;
		let s = '', p = 0;
		const vlq = () => {
			let v = 0, mul = 1, d;
			do {
				d = s.charCodeAt(p++) - 63;
				v += (d & 31) * mul;
				mul *= 32;
			} while (d & 32);
			return v;
		};
		const blocks = document.querySelectorAll(
		    'script.fg-nodes[data-tree="' + id + '"]');
		for (const b of blocks) {
			s = b.textContent;
			p = 0;
			while (p < s.length && i < n) {
				const h = s.charCodeAt(p++) - 63;
				let up = h >> 2;
				if (up === 15)
					up += vlq();
				const depth = prevDepth + 1 - up;
				t.name[i] = vlq();
				const total = h & 1 ? prevTotal : vlq();
				t.total[i] = t.self[i] = total;
				if (t.before) {
					const bt = h & 2 ? total : vlq();
					t.before[i] = t.bself[i] = bt;
				}
				if (t.calls)
					t.calls[i] = vlq();
				for (let d = depth; d <= prevDepth; d++)
					t.end[open[d]] = i;
				open[depth] = i;
				t.depth[i] = depth;
				if (depth > 0) {
					const par = open[depth - 1];
					t.parent[i] = par;
					t.self[par] -= total;
					if (t.before)
						t.bself[par] -= t.before[i];
					t.x[i] = cursor[depth];
					cursor[depth] += total;
				} else {
					t.parent[i] = -1;
				}
				cursor[depth + 1] = t.x[i];
				if (depth > t.maxDepth)
					t.maxDepth = depth;
				prevDepth = depth;
				prevTotal = total;
				i++;
			}
			b.textContent = '';	/* the text is no longer needed */
		}
		for (let d = 0; d <= prevDepth; d++)
			t.end[open[d]] = i;
		if (i !== n || (p < s.length && blocks.length > 0))
			console.error(`flame2html: tree ${id}: ${n} nodes ` +
			    `announced, ${i} decoded`);
		t.n = i;
		if (t.before)
			for (let k = 0; k < i; k++) {
				const dl = Math.abs(t.self[k] - t.bself[k]);
				if (dl > t.maxDelta)
					t.maxDelta = dl;
			}
		return t;
	}

	const trees = [decodeTree(0, meta.nodes[0])];
	const lazyTree = (k) => {
		if (!trees[k])
			trees[k] = decodeTree(k, meta.nodes[k]);
		return trees[k];
	};

	/* ---- the callers (bottom-up) tree ------------------------------ */

	const CALLERS_MAX = 1000000;	/* nodes; more would stall the page */

	/*
	 * Lays out a tree given as parent links (parent before child) in the
	 * form decodeTree makes: depth first, children heaviest first.
	 */
	function layout(par, nm, tot, bef) {
		const n = par.length, kids = new Int32Array(n), off =
		    new Int32Array(n + 1);
		for (let i = 1; i < n; i++)
			off[par[i] + 1]++;
		for (let i = 0; i < n; i++)
			off[i + 1] += off[i];
		const fill = off.slice(0, n);
		for (let i = 1; i < n; i++)
			kids[fill[par[i]]++] = i;
		for (let i = 0; i < n; i++)
			if (off[i + 1] - off[i] > 1) {
				const seg = Array.from(kids.subarray(off[i], off[i + 1]));
				seg.sort((a, b) => tot[b] - tot[a] || a - b);
				kids.set(seg, off[i]);
			}
		const t = {
			n: n, name: new Int32Array(n), depth: new Int32Array(n),
			parent: new Int32Array(n), end: new Int32Array(n),
			total: new Float64Array(n), self: new Float64Array(n),
			x: new Float64Array(n),
			before: bef ? new Float64Array(n) : null,
			bself: bef ? new Float64Array(n) : null,
			calls: null, maxDepth: 0, maxDelta: 0,
		};
		const stack = [0], at = new Int32Array(n), cursor = [0];
		let k = 0;
		at[0] = 0;
		t.parent[0] = -1;
		while (stack.length > 0) {
			const i = stack.pop(), j = k++;
			const d = i === 0 ? 0 : t.depth[at[par[i]]] + 1;
			at[i] = j;
			t.name[j] = nm[i];
			t.depth[j] = d;
			t.total[j] = t.self[j] = tot[i];
			if (bef)
				t.before[j] = t.bself[j] = bef[i];
			if (d > 0) {
				const pj = at[par[i]];
				t.parent[j] = pj;
				t.self[pj] -= tot[i];
				if (bef)
					t.bself[pj] -= bef[i];
				t.x[j] = cursor[d];
				cursor[d] += tot[i];
			}
			cursor[d + 1] = t.x[j];
			if (d > t.maxDepth)
				t.maxDepth = d;
			for (let c = off[i + 1] - 1; c >= off[i]; c--)
				stack.push(kids[c]);
		}
		/* A subtree ends where the next node at its depth or above is. */
		const open = [];
		for (let j = 0; j < n; j++) {
			while (open.length > 0 && t.depth[open[open.length - 1]] >=
			    t.depth[j])
				t.end[open.pop()] = j;
			open.push(j);
		}
		while (open.length > 0)
			t.end[open.pop()] = n;
		if (bef)
			for (let j = 0; j < n; j++)
				t.maxDelta = Math.max(t.maxDelta,
				    Math.abs(t.self[j] - t.bself[j]));
		return t;
	}

	/*
	 * The callers tree of the subtree at r: every frame's self weight
	 * goes down the reversed path from it up to r (or its thread), so
	 * row 1 holds the functions where time is spent and the rows above
	 * their callers.  Frames of the same name in one path are kept.
	 */
	function callersTree(t, r) {
		const NN = names.length + 1, key = new Map();
		const par = [-1], nm = [-1], tot = [0];
		const bef = t.bself ? [0] : null;
		for (let i = r; i < t.end[r]; i++) {
			const w = t.self[i], wb = bef ? t.bself[i] : 0;
			if ((w === 0 && wb === 0) || i === r || isThread(t, i))
				continue;
			let p = 0;
			tot[0] += w;
			if (bef)
				bef[0] += wb;
			for (let a = i; a !== r && !isThread(t, a) && t.depth[a] > 0;
			    a = t.parent[a]) {
				const k = p * NN + t.name[a];
				let c = key.get(k);
				if (c === undefined) {
					c = par.length;
					key.set(k, c);
					par.push(p);
					nm.push(t.name[a]);
					tot.push(0);
					if (bef)
						bef.push(0);
				}
				tot[c] += w;
				if (bef)
					bef[c] += wb;
				p = c;
			}
		}
		const rt = layout(par, nm, tot, bef);
		rt.rootLabel = label(t, r) + ' (callers)';
		return rt;
	}

	/* ---- formatting ----------------------------------------------- */

	const group = (v) => Math.round(v).toString()
	    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');

	function human(v) {
		const ns = v * { ns: 1, us: 1e3, ms: 1e6, s: 1e9 }[meta.unit];
		if (ns < 1e3)
			return ns.toFixed(0) + ' ns';
		if (ns < 1e6)
			return (ns / 1e3).toFixed(2) + ' \u00b5s';
		if (ns < 1e9)
			return (ns / 1e6).toFixed(2) + ' ms';
		return (ns / 1e9).toFixed(2) + ' s';
	}

	/* An exact value with its unit, and a rounded time when useful. */
	function fmt(v) {
		const exact = group(v) + ' ' + meta.unit;
		if (!unitIsTime)
			return exact;
		const h = human(v);
		return h === exact ? exact : exact + ' (' + h + ')';
	}

	const pct = (a, b) => (b > 0 ? (100 * a / b).toFixed(2) : '0.00') + '%';

	/* A signed change: "+2,390 ns (+2.39 us)", with U+2212 for minus. */
	function signed(d) {
		const s = d > 0 ? '+' : d < 0 ? '\u2212' : '';
		const a = Math.abs(d), exact = group(a) + ' ' + meta.unit;
		const h = unitIsTime ? human(a) : exact;
		return s + exact + (h === exact ? '' : ' (' + s + h + ')');
	}

	/* The change of after over before in percent, signed; none for 0. */
	function signedPct(after, before) {
		if (before === 0)
			return after === 0 ? '0%' : 'new';
		const p = 100 * (after - before) / before;
		return (p > 0 ? '+' : p < 0 ? '\u2212' : '') +
		    Math.abs(p).toFixed(2) + '%';
	}

	/* ---- state ---------------------------------------------------- */

	const st = {
		tree: trees[0],
		view: 'all',		/* 'all', 'merged' or 't:<label>' */
		root: 0,		/* node of the selected thread view */
		zoom: 0,
		icicle: false,
		callers: false,		/* the bottom-up tree of the view */
		before: false,		/* a diff drawn with the before widths */
		search: '',
		match: null,		/* Uint8Array per node, or null */
		sub: null,		/* per node: a match in its subtree */
		matchList: [],
		matchAt: -1,
		focus: -1,
		hover: -1,
	};

	function isThread(t, i) {
		return meta.threads && t === trees[0] && t.depth[i] === 1;
	}

	function label(t, i) {
		if (t.depth[i] === 0 && t.rootLabel)
			return t.rootLabel;
		if (t.depth[i] === 0)
			return meta.threads ? (t === trees[0] ? 'all threads' :
			    'all threads, merged') : 'all';
		return names[t.name[i]].replace(/_\[[kwij]\]$/, '');
	}

	function categoryName(t, i) {
		if (t.depth[i] === 0)
			return 'root';
		if (isThread(t, i))
			return 'thread';
		return cats[nameCat[t.name[i]]].name;
	}

	/* ---- colours -------------------------------------------------- */

	const colourCache = new Map();

	function hexRgb(h) {
		return [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16),
		    parseInt(h.slice(5, 7), 16)];
	}

	/* A name's category colour, shifted a little by a hash of the name. */
	function nameColour(ni) {
		let c = colourCache.get(ni);
		if (c)
			return c;
		const s = names[ni];
		let h = 0;
		for (let k = 0; k < s.length; k++)
			h = (h * 31 + s.charCodeAt(k)) | 0;
		const shift = (Math.abs(h) % 51) - 25;
		const rgb = hexRgb(cats[nameCat[ni]].colour)
		    .map((v) => Math.max(0, Math.min(255, v + shift)));
		c = [`rgb(${rgb[0]},${rgb[1]},${rgb[2]})`, textOn(rgb)];
		colourCache.set(ni, c);
		return c;
	}

	function textOn(rgb) {
		const l = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
		return l > 140 ? '#000' : '#fff';
	}

	/* Differential colour: red where self time grew, blue where it fell. */
	function diffColour(t, i) {
		const d = t.self[i] - t.bself[i];
		const v = t.maxDelta > 0 ?
		    Math.round(210 * Math.abs(d) / t.maxDelta) : 0;
		const rgb = d > 0 ? [255, 255 - v, 255 - v] :
		    d < 0 ? [255 - v, 255 - v, 255] : [245, 245, 245];
		return [`rgb(${rgb[0]},${rgb[1]},${rgb[2]})`, '#000'];
	}

	function frameColour(t, i) {
		if (t.depth[i] === 0 || isThread(t, i))
			return [THREAD_FILL, '#fff'];
		return meta.diff ? diffColour(t, i) : nameColour(t.name[i]);
	}

	/* ---- layout and drawing --------------------------------------- */

	/* The x offsets of a diff's before side, made when first asked. */
	function beforeX(t) {
		if (t.bx)
			return t.bx;
		const bx = new Float64Array(t.n), cursor = [0];
		for (let i = 0; i < t.n; i++) {
			const d = t.depth[i];
			if (d > 0) {
				bx[i] = cursor[d];
				cursor[d] += t.before[i];
			}
			cursor[d + 1] = bx[i];
		}
		return (t.bx = bx);
	}

	/* Widths and offsets: the after side, or a diff's before side. */
	const W = (t) => (st.before ? t.before : t.total);
	const X = (t) => (st.before ? beforeX(t) : t.x);

	let boxes = [];			/* per row: [x0, x1, id, ...] */
	let runs = [];			/* merged boxes: {parent, first, total} */
	let geom = { w: 0, h: 0, total: 0, rows: 0 };
	let charW = 7.2;

	function rowsOf(t, r) {
		let m = t.depth[r];
		for (let i = r; i < t.end[r]; i++)
			if (t.depth[i] > m)
				m = t.depth[i];
		return m - t.depth[r] + 1;
	}

	let rowsCache = { tree: null, root: -1, rows: 0 };

	function resize() {
		const t = st.tree;
		if (rowsCache.tree !== t || rowsCache.root !== st.root)
			rowsCache = { tree: t, root: st.root,
			    rows: rowsOf(t, st.root) };
		/* A shallow graph gets a canvas of its height (and a spare
		 * row), so it sits under the toolbar; a deep one scrolls. */
		const need = rowsCache.rows * ROW + ROW;
		const border = scroller.offsetHeight - scroller.clientHeight;
		scroller.style.maxHeight = need + border + 'px';
		scroller.style.minHeight = Math.min(200, need) + border + 'px';
		const viewH = scroller.clientHeight;
		const w = scroller.clientWidth;
		const total = Math.max(need, viewH);
		const dpr = window.devicePixelRatio || 1;
		canvas.style.width = w + 'px';
		canvas.style.height = viewH + 'px';
		canvas.width = Math.max(1, Math.round(w * dpr));
		canvas.height = Math.max(1, Math.round(viewH * dpr));
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		spacer.style.height = Math.max(0, total - viewH) + 'px';
		geom = { w: w, h: viewH, total: total, rows: rowsCache.rows };
		ctx.font = FONT;
		charW = ctx.measureText('MMMMMMMMMM').width / 10;
	}

	/* The top of row r (0 = the view root) in scroll coordinates. */
	function rowY(r) {
		return st.icicle ? r * ROW : geom.total - (r + 1) * ROW;
	}

	function rowAt(y) {
		return st.icicle ? Math.floor(y / ROW) :
		    Math.ceil((geom.total - y) / ROW) - 1;
	}

	function drawBox(x, y, w, fill, text, name, dim) {
		ctx.globalAlpha = dim ? 0.35 : 1;
		ctx.fillStyle = fill;
		ctx.fillRect(x, y, w > 2 ? w - 1 : w, ROW - 1);
		if (name !== null && w > charW * 3 + 6) {
			const fit = Math.floor((w - 6) / charW);
			ctx.fillStyle = text;
			ctx.fillText(name.length > fit ?
			    name.slice(0, fit - 1) + '\u2026' : name, x + 3,
			    y + ROW / 2);
		}
	}

	function draw() {
		const t = st.tree, z = st.zoom, top = scroller.scrollTop;
		const base = t.depth[st.root];
		const tw = W(t), tx = X(t);
		const scale = tw[z] > 0 ? geom.w / tw[z] : 0;
		const x0 = tx[z];
		ctx.globalAlpha = 1;
		ctx.clearRect(0, 0, geom.w, geom.h);
		ctx.font = FONT;
		ctx.textBaseline = 'middle';
		boxes = [];
		runs = [];
		const add = (r, a, b, id) => {
			(boxes[r] || (boxes[r] = [])).push(a, b, id);
		};
		const visible = (y) => y + ROW > top && y < top + geom.h;
		const searching = st.match !== null;
		if (tw[z] <= 0) {
			ctx.fillStyle = '#888';
			ctx.fillText('No samples: the input was empty or all zero.',
			    8, geom.h / 2);
			return;
		}
		/* The ancestors of the zoomed frame, full width and faded. */
		for (let a = z; a !== st.root;) {
			a = t.parent[a];
			const r = t.depth[a] - base, y = rowY(r);
			add(r, 0, geom.w, a);
			if (visible(y)) {
				const c = frameColour(t, a);
				drawBox(0, y - top, geom.w, c[0], c[1],
				    label(t, a), true);
			}
		}
		let run = null;
		const flush = () => {
			if (run === null)
				return;
			const r = run.depth - base, y = rowY(r);
			const w = Math.max(run.x1 - run.x0, 1);
			add(r, run.x0, run.x0 + w, -(runs.length + 1));
			runs.push(run);
			if (visible(y))
				drawBox(run.x0, y - top, w, run.hit ? MATCH_FILL :
				    MERGED_FILL, '#000', null, searching && !run.hit);
			run = null;
		};
		const end = t.end[z];
		for (let i = z; i < end;) {
			if (tw[i] <= 0 && i !== z) {
				i = t.end[i];	/* no weight on this side */
				continue;
			}
			const w = tw[i] * scale;
			const x = (tx[i] - x0) * scale;
			const d = t.depth[i];
			if (w < MIN_PX) {
				if (run === null || run.depth !== d ||
				    run.parent !== t.parent[i]) {
					flush();
					run = { depth: d, parent: t.parent[i],
					    first: i, count: 0, total: 0,
					    x0: x, x1: x, hit: false };
				}
				run.x1 = x + w;
				run.count++;
				run.total += tw[i];
				if (searching && st.sub[i])
					run.hit = true;
				i = t.end[i];
				continue;
			}
			flush();
			const r = d - base, y = rowY(r);
			add(r, x, x + w, i);
			if (visible(y)) {
				const m = searching && st.match[i];
				const c = m ? [MATCH_FILL, '#fff'] :
				    frameColour(t, i);
				drawBox(x, y - top, w, c[0], c[1], label(t, i),
				    searching && !m);
			}
			/* In a flame graph deeper rows are higher up. */
			if (!st.icicle && y + ROW <= top && d > t.depth[z]) {
				i = t.end[i];
				continue;
			}
			if (st.icicle && y >= top + geom.h) {
				i = t.end[i];
				continue;
			}
			i++;
		}
		flush();
		ctx.globalAlpha = 1;
		outline(st.hover, '#fff', 2);
		outline(st.focus, '#000', 2);
	}

	function boxOf(id) {
		for (let r = 0; r < boxes.length; r++) {
			const b = boxes[r];
			if (!b)
				continue;
			for (let k = 0; k < b.length; k += 3)
				if (b[k + 2] === id)
					return [r, b[k], b[k + 1]];
		}
		return null;
	}

	function outline(id, colour, width) {
		if (id < 0)
			return;
		const b = boxOf(id);
		if (b === null)
			return;
		ctx.strokeStyle = colour;
		ctx.lineWidth = width;
		ctx.strokeRect(b[1] + 1, rowY(b[0]) - scroller.scrollTop + 1,
		    Math.max(b[2] - b[1] - 2, 1), ROW - 3);
	}

	/* The box under a point in canvas coordinates: a node index, a
	 * merged box as -(k + 1), or null. */
	function hit(px, py) {
		const r = rowAt(py + scroller.scrollTop);
		const b = boxes[r];
		if (!b)
			return null;
		let lo = 0, hi = b.length / 3 - 1;
		while (lo <= hi) {
			const m = (lo + hi) >> 1;
			if (px < b[3 * m])
				hi = m - 1;
			else if (px >= b[3 * m + 1])
				lo = m + 1;
			else
				return b[3 * m + 2];
		}
		return null;
	}

	/* ---- tooltip -------------------------------------------------- */

	function rows(lines) {
		tooltip.replaceChildren();
		lines.forEach((l, k) => {
			const div = document.createElement('div');
			div.className = k === 0 ? 'fg-tt-name' : 'fg-tt-row';
			div.textContent = l;
			tooltip.appendChild(div);
		});
	}

	function describe(id) {
		const t = st.tree;
		const tw = W(t), all = tw[0], zoom = tw[st.zoom];
		if (id < 0) {
			const run = runs[-id - 1];
			return [run.count + (run.count === 1 ? ' frame' : ' frames') +
			    ' too narrow to draw, merged',
			    'Under: ' + label(t, run.parent),
			    'Total: ' + fmt(run.total),
			    'Of all: ' + pct(run.total, all),
			    'Of zoom: ' + pct(run.total, zoom),
			    'Click to zoom in'];
		}
		const out = [label(t, id), 'Category: ' + categoryName(t, id)];
		if (t.calls && t.depth[id] > 0 && !isThread(t, id))
			out.push('Calls: ' + group(t.calls[id]));
		if (!meta.diff) {
			out.push('Total: ' + fmt(t.total[id]));
			out.push('Self: ' + fmt(t.self[id]));
		} else {
			out.push('Self before: ' + fmt(t.bself[id]));
			out.push('Self after: ' + fmt(t.self[id]));
			out.push('Self \u0394: ' + signed(t.self[id] -
			    t.bself[id]));
			out.push('Self \u0394%: ' + signedPct(t.self[id],
			    t.bself[id]));
			out.push('Total before: ' + fmt(t.before[id]));
			out.push('Total after: ' + fmt(t.total[id]));
			out.push('Total \u0394: ' + signed(t.total[id] -
			    t.before[id]));
			out.push('Total \u0394%: ' + signedPct(t.total[id],
			    t.before[id]));
		}
		out.push('Of all: ' + pct(tw[id], all));
		out.push('Of zoom: ' + pct(tw[id], zoom));
		return out;
	}

	function showTooltip(id, cx, cy) {
		rows(describe(id));
		tooltip.hidden = false;
		const r = tooltip.getBoundingClientRect();
		let x = cx + 14, y = cy + 16;
		if (x + r.width > window.innerWidth - 4)
			x = Math.max(4, cx - r.width - 14);
		if (y + r.height > window.innerHeight - 4)
			y = Math.max(4, cy - r.height - 12);
		tooltip.style.left = x + 'px';
		tooltip.style.top = y + 'px';
	}

	/* ---- search --------------------------------------------------- */

	/*
	 * A regular expression that repeats a group holding a repetition,
	 * such as (a+)+ or (\w*)*, backtracks exponentially on a name that
	 * almost matches: it is refused before it runs.
	 */
	function nestedRepeat(src) {
		const open = [];	/* per open group: holds a repetition */
		let inner = false;
		for (let i = 0; i < src.length; i++) {
			const c = src[i];
			if (c === '\\') {
				i++;
				continue;
			}
			if (c === '[') {	/* a class: to its closing ] */
				for (i++; i < src.length && src[i] !== ']'; i++)
					if (src[i] === '\\')
						i++;
				continue;
			}
			const rep = c === '*' || c === '+' ||
			    (c === '{' && /^\{\d+,\d*\}/.test(src.slice(i)));
			if (c === '(') {
				open.push(false);
			} else if (c === ')') {
				inner = open.pop() || false;
				const n = src[i + 1];
				if (inner && (n === '*' || n === '+' || (n === '{' &&
				    /^\{\d+,\d*\}/.test(src.slice(i + 1)))))
					return true;
				if (open.length)
					open[open.length - 1] ||= inner;
			} else if (rep && open.length) {
				open[open.length - 1] = true;
			}
		}
		return false;
	}

	/* Returns a test for names, null for no search, or an error text. */
	function matcher(text) {
		if (text === '')
			return null;
		const m = /^\/(.*)\/([a-z]*)$/s.exec(text);
		if (m) {
			if (nestedRepeat(m[1]))
				return 'regular expression not run: a repeated ' +
				    'group that repeats inside backtracks ' +
				    'without end (write (a+)+ as a+)';
			let re;
			try {
				re = new RegExp(m[1], m[2].replace('g', ''));
			} catch (e) {
				return 'bad regular expression: ' + e.message;
			}
			const f = (s) => re.test(s);
			f.regex = [m[1], m[2].replace('g', '')];
			return f;
		}
		const low = text.toLowerCase();
		return (s) => s.toLowerCase().indexOf(low) >= 0;
	}

	/*
	 * Regular expressions run in a worker, so that one that backtracks
	 * for long never freezes the page: after SEARCH_MS it is stopped
	 * and the page says so.  The names matched are kept per search.
	 */
	const SEARCH_MS = 2000;
	let worker = null, workerJob = null, jobs = 0;
	let matched = { text: null };

	function startWorker() {
		const src = 'let names = [];\n' +
		    'onmessage = (e) => {\n' +
		    '  if (e.data.names) { names = e.data.names; return; }\n' +
		    '  const re = new RegExp(e.data.src, e.data.flags);\n' +
		    '  const out = new Uint8Array(names.length);\n' +
		    '  for (let k = 0; k < names.length; k++)\n' +
		    '    out[k] = re.test(names[k]) ? 1 : 0;\n' +
		    '  postMessage({ id: e.data.id, out: out });\n' +
		    '};\n';
		try {
			worker = new Worker(URL.createObjectURL(
			    new Blob([src], { type: 'text/javascript' })));
		} catch (e) {
			worker = false;	/* then they run here */
			return;
		}
		worker.postMessage({ names: names });
		worker.onmessage = (e) => {
			const job = workerJob;
			if (!job || e.data.id !== job.id)
				return;
			clearTimeout(job.timer);
			workerJob = null;
			matched = { text: job.text, byName: e.data.out };
			if (st.search === job.text) {
				runSearch();
				draw();
			}
		};
	}

	/* The names a search matches (Uint8Array), or null while it runs. */
	function byNameFor(text, test) {
		if (matched.text === text)
			return matched.byName || null;
		if (workerJob && workerJob.text === text)
			return null;
		if (workerJob) {	/* another search runs: drop it */
			clearTimeout(workerJob.timer);
			worker.terminate();
			worker = workerJob = null;
		}
		if (test.regex && worker === null)
			startWorker();
		if (!test.regex || !worker) {
			const b = new Uint8Array(names.length);
			for (let k = 0; k < names.length; k++)
				b[k] = test(names[k]) ? 1 : 0;
			matched = { text: text, byName: b };
			return b;
		}
		const job = { id: ++jobs, text: text };
		job.timer = setTimeout(() => {
			/* Too slow: stop it, and say so until the search changes. */
			worker.terminate();
			worker = null;
			workerJob = null;
			matched = { text: text, error: 'regular expression ' +
			    'stopped after ' + SEARCH_MS / 1000 + ' s: it ' +
			    'backtracks too much on these names' };
			if (st.search === text) {
				runSearch();
				draw();
			}
		}, SEARCH_MS);
		workerJob = job;
		worker.postMessage({ id: job.id, src: test.regex[0],
		    flags: test.regex[1] });
		return null;
	}

	function runSearch() {
		const t = st.tree;
		let test = matcher(st.search);
		matchesEl.className = '';
		st.matchList = [];
		st.matchAt = -1;
		const byName = test === null || typeof test === 'string' ? null :
		    byNameFor(st.search, test);
		if (byName === null && typeof test === 'function')
			test = matched.text === st.search && matched.error ?
			    matched.error : 'searching\u2026';
		if (test === null || typeof test === 'string') {
			st.match = st.sub = null;
			matchesEl.textContent = matchesEl.title = test || '';
			if (test && test !== 'searching\u2026')
				matchesEl.className = 'fg-error';
			return;
		}
		const match = new Uint8Array(t.n), sub = new Uint8Array(t.n);
		const tw = W(t);
		let count = 0, share = 0, zshare = 0, covered = -1;
		const r = st.root, end = t.end[r];
		const zs = st.zoom, ze = t.end[st.zoom];
		for (let i = r; i < end; i++) {
			if (t.depth[i] === 0 || isThread(t, i) ||
			    !byName[t.name[i]])
				continue;
			match[i] = 1;
			count++;
			if (i >= covered) {	/* outermost: count its time */
				share += tw[i];
				if (i >= zs && i < ze)
					zshare += tw[i];
				covered = t.end[i];
			}
			st.matchList.push(i);
		}
		for (let i = end - 1; i > r; i--)
			if (match[i] || sub[i])
				sub[t.parent[i]] = 1;
		if (match[r])
			sub[r] = 1;
		st.match = match;
		st.sub = sub;
		let text = count + (count === 1 ? ' match' : ' matches') +
		    ', ' + pct(share, tw[r]) + ' of ' +
		    (st.root === 0 ? 'all' : 'thread');
		if (st.zoom !== st.root)
			text += ' (' + pct(zshare, tw[st.zoom]) + ' of zoom)';
		matchesEl.textContent = matchesEl.title = text;
		if (count === 0)
			matchesEl.className = 'fg-none';
	}

	function setSearch(text) {
		st.search = text;
		if (searchBox.value !== text)
			searchBox.value = text;
		runSearch();
		saveHash();
		draw();
	}

	/* Steps to the next (dir 1) or previous (-1) match and zooms to it. */
	function stepMatch(dir) {
		const l = st.matchList;
		if (l.length === 0)
			return;
		const at = (st.matchAt + dir + l.length) % l.length;
		const i = l[at];
		/* Zooming counts the matches again, in the same order. */
		setZoom(st.tree.depth[i] > 0 ? st.tree.parent[i] : i);
		st.matchAt = at;
		setFocus(i);
	}

	/* ---- the function table --------------------------------------- */

	const tableBtn = $('fg-table-btn');
	const tableBox = $('fg-table');
	const TABLE_ROWS = 200;
	let tableSort = 'self';

	/*
	 * Per name, over the zoomed frame's subtree: self, total and calls.
	 * A frame under another of the same name adds to self and calls but
	 * not to total, so recursion is not counted twice.
	 */
	function functionRows() {
		const t = st.tree, tw = W(t), ts = st.before ? t.bself : t.self;
		const z = st.zoom, end = t.end[z];
		const rows = new Map(), open = new Int32Array(names.length);
		const stack = [];
		for (let i = z; i < end; i++) {
			while (stack.length > 0 && t.end[stack[stack.length - 1]] <= i)
				open[t.name[stack.pop()]]--;
			if (t.depth[i] === 0 || isThread(t, i))
				continue;
			const k = t.name[i];
			let r = rows.get(k);
			if (r === undefined) {
				r = { name: k, self: 0, total: 0, calls: 0 };
				rows.set(k, r);
			}
			r.self += ts[i];
			if (open[k] === 0)
				r.total += tw[i];
			if (t.calls)
				r.calls += t.calls[i];
			open[k]++;
			stack.push(i);
		}
		return [...rows.values()];
	}

	const regexQuote = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

	function refreshTable() {
		if (tableBox.hidden)
			return;
		const rows = functionRows();
		const key = tableSort;
		rows.sort((a, b) => key === 'name' ?
		    names[a.name].localeCompare(names[b.name]) :
		    b[key] - a[key] || a.name - b.name);
		const view = W(st.tree)[st.zoom];
		const el = (tag, text, cls) => {
			const e = document.createElement(tag);
			if (text !== undefined)
				e.textContent = text;
			if (cls)
				e.className = cls;
			return e;
		};
		const table = el('table');
		table.appendChild(el('caption', 'Functions under ' +
		    label(st.tree, st.zoom) + ': ' +
		    Math.min(rows.length, TABLE_ROWS) + ' of ' + rows.length +
		    ', by ' + key));
		const head = el('tr');
		const cols = [['name', 'Name'], ['self', 'Self'],
		    ['total', 'Total']];
		if (st.tree.calls)
			cols.push(['calls', 'Calls']);
		for (const [k, text] of cols) {
			const th = el('th');
			th.setAttribute('aria-sort', k === key ? (k === 'name' ?
			    'ascending' : 'descending') : 'none');
			const b = el('button', text);
			b.type = 'button';
			b.addEventListener('click', () => {
				tableSort = k;
				refreshTable();
			});
			th.appendChild(b);
			head.appendChild(th);
		}
		table.appendChild(head);
		for (const r of rows.slice(0, TABLE_ROWS)) {
			const tr = el('tr');
			const td = el('td', undefined, 'fg-name');
			const b = el('button', names[r.name]);
			b.type = 'button';
			b.title = 'Search for this function';
			b.addEventListener('click', () =>
			    setSearch('/^' + regexQuote(names[r.name]) + '$/'));
			td.appendChild(b);
			tr.appendChild(td);
			tr.appendChild(el('td', fmt(r.self) + ' \u00b7 ' +
			    pct(r.self, view)));
			tr.appendChild(el('td', fmt(r.total) + ' \u00b7 ' +
			    pct(r.total, view)));
			if (st.tree.calls)
				tr.appendChild(el('td', group(r.calls)));
			table.appendChild(tr);
		}
		tableBox.replaceChildren(table);
	}

	function showTable(on) {
		tableBox.hidden = !on;
		tableBtn.setAttribute('aria-pressed', String(on));
		refreshTable();
		resize();
		draw();
	}

	/* ---- views, zoom and focus ------------------------------------ */

	function setZoom(i) {
		const t = st.tree;
		/* Only within the selected thread. */
		if (i < st.root || i >= t.end[st.root])
			i = st.root;
		st.zoom = i;
		if (st.search !== '')
			runSearch();
		refreshTable();
		saveHash();
		draw();
	}

	function setFocus(i) {
		st.focus = i;
		if (i >= 0) {
			const text = describe(i).join('; ');
			statusEl.textContent = text;
			canvas.setAttribute('aria-label', 'Flame graph: ' + text);
		}
		draw();
	}

	function threadNode(lbl) {
		const t = trees[0];
		for (let i = 1; i < t.end[0]; i = t.end[i])
			if (names[t.name[i]] === lbl)
				return i;
		return -1;
	}

	/* Selects 'all', 'merged' or 't:<label>'; false if there is none. */
	function setView(v) {
		let tree = trees[0], root = 0;
		if (v === 'merged' && meta.nodes.length > 1) {
			tree = lazyTree(1);
		} else if (v.startsWith('t:') && meta.threads) {
			root = threadNode(v.slice(2));
			if (root < 0)
				return false;
		} else {
			v = 'all';
		}
		callersBtn.disabled = tree.end[root] - root > CALLERS_MAX;
		if (st.callers && !callersBtn.disabled) {
			tree = callersTree(tree, root);
			root = 0;
		}
		st.view = v;
		st.tree = tree;
		st.root = st.zoom = root;
		st.focus = st.hover = -1;
		threadSel.value = v;
		threadSel.title = threadSel.selectedOptions.length > 0 ?
		    threadSel.selectedOptions[0].textContent : '';
		legendTotal();
		resize();
		runSearch();
		refreshTable();
		if (!st.icicle)
			scroller.scrollTop = scroller.scrollHeight;
		return true;
	}

	function setBefore(on) {
		st.before = on && meta.diff;
		widthsBtn.setAttribute('aria-pressed', String(st.before));
		if (st.search !== '')
			runSearch();
		refreshTable();
		saveHash();
		draw();
	}

	function setCallers(on) {
		st.callers = on;
		callersBtn.setAttribute('aria-pressed', String(on));
		setView(st.view);
		saveHash();
		draw();
	}

	function setIcicle(on) {
		st.icicle = on;
		icicleBtn.setAttribute('aria-pressed', on ? 'true' : 'false');
		scroller.scrollTop = on ? 0 : scroller.scrollHeight;
		saveHash();
		draw();
	}

	/* ---- the URL fragment ----------------------------------------- */

	function zoomPath() {
		const t = st.tree, path = [];
		for (let i = st.zoom; i !== st.root; i = t.parent[i])
			path.push(names[t.name[i]]);
		return path.reverse();
	}

	let restoring = false;

	function saveHash() {
		if (restoring)
			return;
		const q = new URLSearchParams();
		if (st.view !== 'all')
			q.set('view', st.view);
		for (const n of zoomPath())
			q.append('zoom', n);
		if (st.search !== '')
			q.set('search', st.search);
		if (st.icicle)
			q.set('icicle', '1');
		if (st.callers)
			q.set('callers', '1');
		if (st.before)
			q.set('widths', 'before');
		const h = q.toString();
		const url = location.href.replace(/#.*$/, '') + (h ? '#' + h : '');
		if (url === location.href)
			return;
		try {
			history.replaceState(null, '', url);
		} catch (e) {
			location.replace(url);
		}
	}

	function loadHash() {
		const q = new URLSearchParams(location.hash.slice(1));
		restoring = true;
		st.icicle = q.get('icicle') === '1';
		st.callers = q.get('callers') === '1';
		callersBtn.setAttribute('aria-pressed', String(st.callers));
		icicleBtn.setAttribute('aria-pressed', String(st.icicle));
		st.before = meta.diff && q.get('widths') === 'before';
		widthsBtn.setAttribute('aria-pressed', String(st.before));
		st.search = q.get('search') || '';
		searchBox.value = st.search;
		/* A diff of two ranks opens merged (meta.view). */
		if (!setView(q.get('view') || meta.view || 'all'))
			setView('all');	/* a thread that is not in this page */
		/* Follow the zoom path by names, as far as it still exists. */
		const t = st.tree;
		let z = st.root;
		for (const n of q.getAll('zoom')) {
			let c = z + 1, found = -1;
			for (; c < t.end[z]; c = t.end[c])
				if (names[t.name[c]] === n) {
					found = c;
					break;
				}
			if (found < 0)
				break;
			z = found;
		}
		st.zoom = z;
		runSearch();
		refreshTable();
		restoring = false;
		scroller.scrollTop = st.icicle ? 0 : scroller.scrollHeight;
		draw();
	}

	/* ---- controls ------------------------------------------------- */

	function fillThreads() {
		const add = (value, text) => {
			const o = document.createElement('option');
			o.value = value;
			o.textContent = text;
			threadSel.appendChild(o);
		};
		add('all', meta.threads ? 'All threads' : 'All');
		if (meta.nodes.length > 1)
			add('merged', 'All threads, merged');
		for (const th of meta.thread_list)
			add('t:' + th.name, th.name + ' (' +
			    pct(th.total, meta.total) + ')');
		threadSel.disabled = threadSel.options.length < 2;
	}

	function fillLegend() {
		const lg = $('fg-legend');
		const item = (colour, text) => {
			const s = document.createElement('span');
			s.style.setProperty('--swatch', colour);
			s.textContent = text;
			lg.appendChild(s);
		};
		if (meta.diff) {
			item('rgb(255,45,45)', 'self time grew (after > before)');
			item('rgb(45,45,255)', 'self time fell');
			item('rgb(245,245,245)', 'no change');
		} else {
			const used = new Set(nameCat);
			cats.forEach((c, k) => {
				if (used.has(k))
					item(c.colour, c.name);
			});
		}
		if (meta.threads)
			item(THREAD_FILL, 'thread');
		item(MERGED_FILL, 'frames narrower than a pixel');
		item(MATCH_FILL, 'search match');
		const u = document.createElement('span');
		u.className = 'fg-unit';
		lg.appendChild(u);
		legendTotal();
	}

	/* The legend's total: the selected thread's, and its share. */
	function legendTotal() {
		const u = document.querySelector('#fg-legend .fg-unit');
		if (u === null)
			return;
		const all = trees[0].total[0];
		let text = 'unit: ' + meta.unit + ', total ';
		if (st.view.startsWith('t:')) {
			const v = trees[0].total[threadNode(st.view.slice(2))];
			text += fmt(v) + ', ' + pct(v, all) + ' of ' + fmt(all);
		} else {
			text += fmt(all);
		}
		u.textContent = text;
	}

	function onMove(e) {
		const r = canvas.getBoundingClientRect();
		const id = hit(e.clientX - r.left, e.clientY - r.top);
		if (id === null) {
			tooltip.hidden = true;
			if (st.hover !== -1) {
				st.hover = -1;
				draw();
			}
			return;
		}
		if (id !== st.hover) {
			st.hover = id;
			draw();
		}
		showTooltip(id, e.clientX, e.clientY);
	}

	function onClick(e) {
		const r = canvas.getBoundingClientRect();
		const id = hit(e.clientX - r.left, e.clientY - r.top);
		if (id === null)
			return;
		let node = id;
		if (id < 0) {
			/* A merged box: its frame if it is one, else its parent,
			 * unless that is shown already. */
			const run = runs[-id - 1];
			node = run.count === 1 || run.parent === st.zoom ?
			    run.first : run.parent;
		}
		/* The zoomed frame or an ancestor zooms out to it. */
		setZoom(node === st.zoom ? st.tree.parent[node] >= st.root &&
		    node !== st.root ? st.tree.parent[node] : st.root : node);
		st.focus = -1;
		onMove(e);
	}

	function zoomOut() {
		const t = st.tree;
		if (st.zoom !== st.root)
			setZoom(t.parent[st.zoom]);
	}

	function moveFocus(key) {
		const t = st.tree;
		let f = st.focus < 0 ? st.zoom : st.focus;
		const toChild = st.icicle ? 'ArrowDown' : 'ArrowUp';
		const toParent = st.icicle ? 'ArrowUp' : 'ArrowDown';
		if (key === toChild && f + 1 < t.end[f]) {
			f = f + 1;	/* the heaviest child comes first */
		} else if (key === toParent && f !== st.root) {
			f = t.parent[f];
		} else if (key === 'ArrowRight' && f !== st.zoom) {
			const p = t.parent[f];
			if (t.end[f] < t.end[p])
				f = t.end[f];
		} else if (key === 'ArrowLeft' && f !== st.zoom) {
			const p = t.parent[f];
			for (let c = p + 1, prev = -1; c < t.end[p];
			    prev = c, c = t.end[c])
				if (c === f) {
					if (prev >= 0)
						f = prev;
					break;
				}
		}
		/* Keep the focus inside what the zoom shows. */
		if (f < st.zoom || f >= t.end[st.zoom]) {
			let a = st.zoom, inside = false;
			while (a !== st.root && !inside) {
				a = t.parent[a];
				inside = a === f;
			}
			if (!inside && f !== st.zoom)
				return;
		}
		setFocus(f);
	}

	/* Saves the view as drawn (without the hover outline) as a PNG. */
	function savePng() {
		const h = st.hover;
		st.hover = -1;
		draw();
		canvas.toBlob((blob) => {
			const a = document.createElement('a');
			a.href = URL.createObjectURL(blob);
			a.download = (document.title.replace(/[^\w.-]+/g, '_') ||
			    'flame') + '.png';
			document.body.appendChild(a);
			a.click();
			a.remove();
			setTimeout(() => URL.revokeObjectURL(a.href), 1000);
		});
		st.hover = h;
		draw();
	}

	function typing(e) {
		return e.target === searchBox || e.target === threadSel;
	}

	function onKey(e) {
		if (e.ctrlKey || e.metaKey || e.altKey) {
			if ((e.ctrlKey || e.metaKey) && e.key === 'f') {
				e.preventDefault();
				searchBox.focus();
				searchBox.select();
			}
			return;
		}
		if (e.key === 'Escape') {
			e.preventDefault();
			if (st.search !== '')
				setSearch('');
			else
				setZoom(st.root);
			return;
		}
		if (typing(e)) {
			if (e.key === 'Enter' && e.target === searchBox)
				stepMatch(e.shiftKey ? -1 : 1);
			return;
		}
		const k = e.key;
		if (k === '/') {
			e.preventDefault();
			searchBox.focus();
			searchBox.select();
		} else if (k === '?') {
			$('fg-keys').click();
		} else if ((k === 'r' || k === 'R') && !callersBtn.disabled) {
			setCallers(!st.callers);
		} else if (k === 'i' || k === 'I') {
			setIcicle(!st.icicle);
		} else if (k === '0' || k === 'Home') {
			setZoom(st.root);
		} else if (k === 'Backspace') {
			e.preventDefault();
			zoomOut();
		} else if (k === 'n' || k === 'N') {
			stepMatch(k === 'n' ? 1 : -1);
		} else if (k === '[' || k === ']') {
			const o = threadSel.options;
			const at = threadSel.selectedIndex + (k === ']' ? 1 : -1);
			if (at >= 0 && at < o.length && setView(o[at].value)) {
				saveHash();
				draw();
			}
		} else if (e.target === canvas && k.startsWith('Arrow')) {
			e.preventDefault();
			moveFocus(k);
		} else if (e.target === canvas && k === 'Enter' &&
		    st.focus >= 0) {
			setZoom(st.focus);
		}
	}

	function init() {
		fillThreads();
		fillLegend();
		let timer = 0;
		searchBox.addEventListener('input', () => {
			clearTimeout(timer);
			timer = setTimeout(() => setSearch(searchBox.value),
			    names.length > 100000 ? 150 : 0);
		});
		$('fg-clear').addEventListener('click', () => setSearch(''));
		$('fg-reset').addEventListener('click', () => setZoom(st.root));
		icicleBtn.addEventListener('click', () => setIcicle(!st.icicle));
		callersBtn.addEventListener('click', () => setCallers(!st.callers));
		widthsBtn.hidden = !meta.diff;
		widthsBtn.addEventListener('click', () => setBefore(!st.before));
		$('fg-png').addEventListener('click', savePng);
		tableBtn.addEventListener('click', () => showTable(tableBox.hidden));
		$('fg-keys').addEventListener('click', (e) => {
			const h = $('fg-help');
			h.hidden = !h.hidden;
			e.currentTarget.setAttribute('aria-expanded',
			    String(!h.hidden));
			resize();
			draw();
		});
		threadSel.addEventListener('change', () => {
			setView(threadSel.value);
			saveHash();
			draw();
		});
		canvas.addEventListener('mousemove', onMove);
		canvas.addEventListener('mouseleave', () => {
			tooltip.hidden = true;
			st.hover = -1;
			draw();
		});
		canvas.addEventListener('click', onClick);
		document.addEventListener('keydown', onKey);
		scroller.addEventListener('scroll', () => {
			tooltip.hidden = true;
			draw();
		});
		window.addEventListener('resize', () => {
			resize();
			draw();
		});
		window.addEventListener('hashchange', loadHash);
		loadHash();
		performance.mark('painted');
		document.body.dataset.painted = '1';
	}

	init();
})();

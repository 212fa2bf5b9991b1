#!/usr/bin/env python3
# interactive.py: reads metric-eval --interactive output on stdin and
# prints what the golden case checks, decoded without metric-eval: the
# dispatches, each column's values (base64, zlib when compressed, byte
# planes, little endian; the sum and ends of a long one) and, per metric
# row of the tables, its units and how many distinct programs its cells
# have over the four normalizations.
import base64, json, struct, sys, zlib

for line in sys.stdin:
    r = json.loads(line)
    t = r.get('type')
    if t == 'interactive':
        print('dispatches', r['dispatches'], 'kernels', r['kernels'],
              'kernel', r['kernel'], 'gpu', r['gpu'],
              'dispatch_id', r['dispatch_id'], 'position', r['position'],
              'dur_ns', r['dur_ns'], 'normalizations', r['normalizations'])
        print('sysinfo', json.dumps(r['sysinfo'], sort_keys=True))
    elif t == 'interactive_column':
        raw = base64.b64decode(r['data'])
        if r.get('compression') == 'zlib':
            raw = zlib.decompress(raw)
        widths = [8 if e == 'f64' else 4 for e in r['encodings']]
        n = len(raw) // sum(widths)
        off = 0
        for block, name, enc in zip(r['blocks'], r['names'],
                                    r['encodings']):
            w = 8 if enc == 'f64' else 4
            vals = []
            for i in range(n):
                b = bytes(raw[off + p * n + i] for p in range(w))
                vals.append(struct.unpack('<d' if w == 8 else '<f', b)[0])
            off += n * w
            if len(vals) > 20:
                print('column', block, name, r.get('compression'),
                      len(vals), 'values', 'sum', sum(vals), 'first',
                      vals[:3], 'last', vals[-1])
            else:
                print('column', block, name, vals)
        if off != len(raw):
            print('bytes left over', len(raw) - off)
    elif t == 'interactive_table':
        for row in r['rows']:
            units = [c['unit'] for c in row['cells']
                     if isinstance(c, dict) and 'unit' in c]
            progs = [len(set(c['eval'])) for c in row['cells']
                     if isinstance(c, dict) and 'eval' in c]
            print('row', r['table_id'], row['row'], row['metric'],
                  'units', units, 'programs', progs)
    elif 'metric_id' in r:
        pass
    else:
        print('other', t)

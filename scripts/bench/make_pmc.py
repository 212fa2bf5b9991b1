#!/usr/bin/env python3
# make_pmc.py N KERNELS GPUS < dispatch records > dispatch records
#
# A large rocprof-compute workload made from a small real one (the
# pmc2ndjson records of path/MI300X_A1 on stdin): N dispatches of KERNELS
# kernels on GPUS GPUs, dispatch i of kernel i % KERNELS on GPU i % GPUS,
# copied from real dispatch i % 3.  Each kernel scales every counter by its
# own factor (1 + 0.37 k).  Counters that measure time or contention
# (cycles, busy, stalls, levels, hits and misses, latencies, GRBM, the
# timestamps) also vary by up to +-5 % per dispatch, as they do between
# runs; the others (instruction, request and wave counts) are the same for
# every dispatch of a kernel, as they are for one kernel and input.
import json, random, re, sys

n, nk, ng = (int(a) for a in sys.argv[1:4])
rng = random.Random(1)
varies = re.compile(r'CYCLE|BUSY|STALL|LEVEL|ACCUM|HIT|MISS|LAT|INFLIGHT|'
                    r'GRBM|_PREV_|Timestamp')
head, base = [], []
for line in sys.stdin:
    r = json.loads(line)
    (base if r.get('type') == 'dispatch' else head).append(r)
out = sys.stdout
for r in head:
    out.write(json.dumps(r, separators=(',', ':')) + '\n')


def scaled(obj, s):
    o = {}
    for k, v in obj.items():
        if isinstance(v, dict):
            o[k] = scaled(v, s)
        elif isinstance(v, (int, float)) and not isinstance(v, bool) and \
                k not in ('Dispatch_ID', 'GPU_ID', 'Correlation_ID',
                          'Start_Timestamp', 'End_Timestamp', 'Wave_Size',
                          'Arch_VGPR', 'Accum_VGPR', 'SGPR',
                          'Workgroup_Size', 'LDS_Per_Workgroup',
                          'Scratch_Per_Workitem'):
            f = s * (1 + rng.uniform(-0.05, 0.05)) if varies.search(k) \
                else s
            o[k] = int(round(v * f))
        else:
            o[k] = v
    return o


t = 1000000000
names = ['void kernel_%02d<float, %d>(float*, float const*, int)' %
         (k, 64 << (k % 4)) for k in range(nk)]
for i in range(n):
    k = i % nk
    src = base[i % len(base)]
    d = scaled(src, 1 + 0.37 * k)
    dur = (src['End_Timestamp'] - src['Start_Timestamp']) * \
        (1 + 0.37 * k) * (1 + rng.uniform(-0.05, 0.05))
    d['Dispatch_ID'] = i
    d['Kernel_Name'] = names[k]
    d['GPU_ID'] = i % ng
    d['Start_Timestamp'] = t
    d['End_Timestamp'] = t + int(dur)
    t += int(dur) + 1000
    out.write(json.dumps(d, separators=(',', ':')) + '\n')

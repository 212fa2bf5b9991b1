#!/usr/bin/env python3
"""make_trace.py: writes a synthetic Kineto-style trace-event JSON file.

usage: make_trace.py [-o FILE] [--mb N] [--seed N]

The events imitate torch.profiler's export_chrome_trace output (layout,
keys, args, number formats): nested python_function and cpu_op complete
events on two CPU threads, cuda_runtime launches, kernels on a GPU stream,
flow events, and the metadata at the end.  Everything is invented from a
seeded PRNG; the output is deterministic for given arguments.
"""
import argparse
import random
import sys

OPS = ["aten::linear", "aten::addmm", "aten::mm", "aten::relu",
       "aten::layer_norm", "aten::native_layer_norm", "aten::softmax",
       "aten::_softmax", "aten::empty", "aten::copy_", "aten::add",
       "aten::mul", "aten::view", "aten::t", "aten::transpose"]
FRAMES = ["train.py(%d): step", "model.py(%d): forward",
          "torch/nn/modules/module.py(%d): _call_impl",
          "nn.Module: Linear_%d", "<built-in method %d>"]


def us(t_ns):
    """Kineto prints microseconds with up to three decimals."""
    return "%d.%03d" % (t_ns // 1000, t_ns % 1000)


def cpu_tree(w, rng, pid, tid, t, depth, ev):
    """Writes one nested block of events starting at t; returns its end."""
    n = rng.randint(1, 4) if depth < 4 else 0
    start = t
    t += rng.randint(200, 3000)
    children = []
    for _ in range(n):
        t, sub = cpu_tree(w, rng, pid, tid, t, depth + 1, ev)
        children.append(sub)
        t += rng.randint(100, 900)
    end = t + rng.randint(100, 2000)
    ev[0] += 1
    if depth < 2:
        name = rng.choice(FRAMES) % rng.randint(1, 999)
        w('  {\n    "ph": "X", "cat": "python_function", "name": "%s", '
          '"pid": %d, "tid": %d,\n    "ts": %s, "dur": %s,\n    "args": {\n'
          '      "Python parent id": %d, "Python id": %d, "Ev Idx": %d\n'
          '    }\n  },\n' % (name, pid, tid, us(start), us(end - start),
                            ev[0] - 1, ev[0], ev[0]))
    else:
        name = rng.choice(OPS)
        w('  {\n    "ph": "X", "cat": "cpu_op", "name": "%s", "pid": %d, '
          '"tid": %d,\n    "ts": %s, "dur": %s,\n    "args": {\n'
          '      "External id": %d,"Record function id": 0, '
          '"Concrete Inputs": ["", "", "1"], "Input type": ["float", '
          '"float", "Scalar"], "Input Strides": [[512, 1], [512, 1], []], '
          '"Input Dims": [[16, 512], [16, 512], []], "Ev Idx": %d\n'
          '    }\n  },\n' % (name, pid, tid, us(start), us(end - start),
                            ev[0], ev[0]))
        if rng.random() < 0.3:
            k0 = end + rng.randint(1000, 5000)
            w('  {\n    "ph": "X", "cat": "cuda_runtime", "name": '
              '"cudaLaunchKernel", "pid": %d, "tid": %d,\n    "ts": %s, '
              '"dur": %s,\n    "args": {\n      "External id": %d, '
              '"cbid": 211, "correlation": %d\n    }\n  },\n'
              % (pid, tid, us(end - 50), us(40), ev[0], ev[0]))
            w('  {\n    "ph": "X", "cat": "kernel", "name": "void '
              'at::native::vectorized_elementwise_kernel<4, '
              'at::native::CUDAFunctor_add<float>>(int, float*)", '
              '"pid": 0, "tid": 7,\n    "ts": %s, "dur": %s,\n    "args": '
              '{\n      "External id": %d, "queued": 0, "device": 0, '
              '"context": 1, "stream": 7, "correlation": %d, '
              '"registers per thread": 18, "shared memory": 0, '
              '"grid": [8192, 1, 1], "block": [128, 1, 1]\n    }\n  },\n'
              % (us(k0), us(rng.randint(1000, 9000)), ev[0], ev[0]))
            w('  {\n    "ph": "s", "id": %d, "pid": %d, "tid": %d, '
              '"ts": %s,\n    "cat": "ac2g", "name": "ac2g"\n  },\n'
              % (ev[0], pid, tid, us(end - 50)))
    return end, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", default="-")
    ap.add_argument("--mb", type=float, default=10)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    f = sys.stdout if a.o == "-" else open(a.o, "w")
    limit = int(a.mb * 1e6)
    buf = []
    size = [0]

    def w(s):
        buf.append(s)
        size[0] += len(s)
        if len(buf) > 4096:
            f.write("".join(buf))
            buf.clear()

    w('{\n  "schemaVersion": 1,\n  "displayTimeUnit": "ms",\n'
      '  "baseTimeNanoseconds": 1790857026000000000,\n  "traceEvents": [\n')
    t = {460: 5142642005646000, 500: 5142642005646000}
    ev = [0]
    while size[0] < limit:
        tid = rng.choice([460, 500])
        t[tid], _ = cpu_tree(w, rng, 460, tid, t[tid], 0, ev)
        t[tid] += rng.randint(1000, 5000)
    for tid in (460, 500):
        w('  {\n    "name": "thread_name", "ph": "M", "ts": '
          '5142642005738.128, "pid": 460, "tid": %d,\n    "args": {\n'
          '      "name": "thread %d (python3)"\n    }\n  },\n' % (tid, tid))
    w('  {\n    "name": "Record Window End", "ph": "i", "s": "g",\n'
      '    "pid": "", "tid": "", "ts": 5142642100312.000\n  }\n  ],\n'
      '  "traceName": "synthetic"\n}\n')
    f.write("".join(buf))
    f.close()


if __name__ == "__main__":
    main()

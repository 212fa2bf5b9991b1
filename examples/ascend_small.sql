-- ascend_small.sql: a small Ascend PyTorch profiler database, written by
-- hand for the profpipe demo (no measured data: every row is made up).
-- It has the tables and column types torch_npu writes
-- (ascend_pytorch_profiler_0.db): TEXT 19-digit nanosecond times,
-- globalTid = (pid << 32) | tid, names through STRING_IDS, the type codes
-- 50001 op, 50002 queue, 50003 python trace.  Twenty training steps of a
-- two-layer model: python frames, aten operators, aclnn kernels, the
-- task-queue consumer thread and the autograd backward thread.
--
--   sqlite3 out/ascend_small.db < examples/ascend_small.sql
--   db2spans out/ascend_small.db | spans2stacks | flame2html > flame.html

CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE META_DATA (name TEXT,value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);

INSERT INTO ENUM_API_TYPE VALUES (5000, 'runtime'), (5500, 'communication'),
 (10000, 'node'), (15000, 'model'), (20000, 'acl'), (50001, 'op'),
 (50002, 'queue'), (50003, 'trace'), (50004, 'mstx');
INSERT INTO META_DATA VALUES ('SCHEMA_VERSION', '1.2.0'),
 ('SCHEMA_VERSION_MAJOR', '1'), ('SCHEMA_VERSION_MINOR', '2'),
 ('SCHEMA_VERSION_MICRO', '0'),
 ('PROFPIPE_EXAMPLE', 'hand-made demo data, not a measurement');

-- One training step: thread (0 main, 3 task queue, 7 autograd), start and
-- end in ns from the step's start, name, type.  A step is 11 ms.
CREATE TEMP TABLE step (tid INTEGER, s INTEGER, e INTEGER, name TEXT, type INTEGER);
INSERT INTO step VALUES
 (0,        0, 10900000, 'ProfilerStep#', 50001),
 (0,    10000, 10800000, 'train.py(88): train_step', 50003),
 (0,   100000,  4000000, 'torch/nn/modules/module.py(1527): _call_impl', 50003),
 (0,   120000,  3950000, 'model.py(42): forward', 50003),
 (0,   150000,  1250000, 'nn.Module: Linear_0', 50003),
 (0,   200000,  1200000, 'aten::linear', 50001),
 (0,   210000,   260000, 'aten::t', 50001),
 (0,   270000,  1150000, 'aten::addmm', 50001),
 (0,   300000,  1100000, 'aclnnAddmm', 50001),
 (0,   320000,   360000, 'Enqueue@aclnnAddmm', 50002),
 (0,  1300000,  1500000, 'aten::relu', 50001),
 (0,  1320000,  1480000, 'aclnnRelu', 50001),
 (0,  1330000,  1350000, 'Enqueue@aclnnRelu', 50002),
 (0,  1550000,  2650000, 'nn.Module: Linear_1', 50003),
 (0,  1600000,  2600000, 'aten::linear', 50001),
 (0,  1610000,  1640000, 'aten::t', 50001),
 (0,  1650000,  2550000, 'aten::addmm', 50001),
 (0,  1700000,  2500000, 'aclnnAddmm', 50001),
 (0,  1720000,  1760000, 'Enqueue@aclnnAddmm', 50002),
 (0,  2700000,  3800000, 'aten::cross_entropy_loss', 50001),
 (0,  2750000,  3200000, 'aten::log_softmax', 50001),
 (0,  2770000,  3180000, 'aclnnLogSoftmax', 50001),
 (0,  3250000,  3750000, 'aten::nll_loss_nd', 50001),
 (0,  3270000,  3730000, 'aclnnNLLLoss', 50001),
 (0,  4100000,  7000000, 'torch/_tensor.py(522): backward', 50003),
 (0,  4150000,  6950000, 'torch/autograd/__init__.py(266): backward', 50003),
 (0,  4200000,  6900000, '<built-in method run_backward of torch._C._EngineBase object at 0x7f3a2c>', 50003),
 -- record_function ranges start inside _record_function_enter_new and
 -- outlive it, as in real traces: spans2stacks clips them.
 (0,  7150000,  7250000, '<built-in method _record_function_enter_new of PyCapsule object at 0x7f3a31>', 50003),
 (0,  7200000,  9500000, 'Optimizer.step#SGD.step', 50001),
 (0,  7400000,  9000000, 'aten::_foreach_add_', 50001),
 (0,  7420000,  8980000, 'aclnnForeachAddScalar', 50001),
 (0,  7430000,  7470000, 'Enqueue@aclnnForeachAddScalar', 50002),
 (0,  9600000,  9700000, 'aten::zero_', 50001),
 (0,  9610000,  9690000, 'aclnnInplaceZero', 50001),
 (3,   400000,   700000, 'Dequeue@aclnnAddmm', 50002),
 (3,  1400000,  1450000, 'Dequeue@aclnnRelu', 50002),
 (3,  1800000,  2100000, 'Dequeue@aclnnAddmm', 50002),
 (3,  7500000,  8500000, 'Dequeue@aclnnForeachAddScalar', 50002),
 (7,  4300000,  5300000, 'autograd::engine::evaluate_function: AddmmBackward0', 50001),
 (7,  4320000,  5280000, 'AddmmBackward0', 50001),
 (7,  4350000,  4800000, 'aten::mm', 50001),
 (7,  4360000,  4790000, 'aclnnMm', 50001),
 (7,  4820000,  5250000, 'aten::mm', 50001),
 (7,  4830000,  5240000, 'aclnnMm', 50001),
 (7,  5400000,  5700000, 'autograd::engine::evaluate_function: ReluBackward0', 50001),
 (7,  5410000,  5690000, 'ReluBackward0', 50001),
 (7,  5420000,  5680000, 'aten::threshold_backward', 50001),
 (7,  5430000,  5670000, 'aclnnThresholdBackward', 50001),
 (7,  5800000,  6800000, 'autograd::engine::evaluate_function: AddmmBackward0', 50001),
 (7,  5810000,  6790000, 'AddmmBackward0', 50001),
 (7,  5820000,  6780000, 'aten::mm', 50001),
 (7,  5830000,  6770000, 'aclnnMm', 50001);

-- Framework strings start at 1 << 28, as torch_npu numbers them.
INSERT INTO STRING_IDS (id, value)
 SELECT 268435456 + row_number() OVER (ORDER BY name) - 1, name
 FROM (SELECT DISTINCT name FROM step WHERE name <> 'ProfilerStep#');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20)
INSERT INTO STRING_IDS (id, value) SELECT 268436000 + i, 'ProfilerStep#' || i FROM n;

-- Twenty steps from 2025-07-01 04:40:15 UTC, python rows first.
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20)
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type)
SELECT 1751344815000000000 + (n.i - 1) * 11000000 + step.s,
 1751344815000000000 + (n.i - 1) * 11000000 + step.e,
 (41000 << 32) | (41000 + step.tid),
 CASE WHEN step.name = 'ProfilerStep#' THEN 268436000 + n.i
  ELSE (SELECT id FROM STRING_IDS WHERE value = step.name) END,
 step.type
FROM n, step
ORDER BY step.type DESC, n.i, step.tid, step.s;

-- The data loader between steps, longer every fifth step.
INSERT INTO STRING_IDS VALUES (268436100, 'enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__');
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20)
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type)
SELECT 1751344815000000000 + (i - 1) * 11000000 + 10820000,
 1751344815000000000 + (i - 1) * 11000000 + 10850000 + (i % 5 = 0) * 140000,
 (41000 << 32) | 41000, 268436100, 50001 FROM n;

-- The profiler's last python call has no name and no length.
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES
 ('1751344815220000000', '1751344815220000000', (41000 << 32) | 41000, 4294967295, 50003);

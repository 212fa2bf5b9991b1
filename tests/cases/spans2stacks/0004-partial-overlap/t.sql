CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
INSERT INTO STRING_IDS VALUES (1, 'record'), (2, '<built-in method _record_function_enter_new of PyCapsule object at 0x7f>'), (3, 'DistributedDataParallel.forward'), (4, 'aten::conv2d'), (5, 'torch/autograd/profiler.py(636): __exit__'), (6, 'inner');
-- forward [15,60) starts in enter [10,20) and outlives it: clipped to 20
-- (40 ns cut), so conv2d [30,50) sits in record [0,100).  __exit__
-- [90,120) is clipped to 100 (20 ns) and inner [95,130) to that 100 (30 ns).
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES
 ('0', '100', 4294967297, 1, 50003),
 ('10', '20', 4294967297, 2, 50003),
 ('15', '60', 4294967297, 3, 50001),
 ('30', '50', 4294967297, 4, 50001),
 ('90', '120', 4294967297, 5, 50003),
 ('95', '130', 4294967297, 6, 50003);

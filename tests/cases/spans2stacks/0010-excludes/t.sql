CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
INSERT INTO STRING_IDS VALUES (1, 'ProfilerStep#1'), (2, 'profilerstep#2'), (3, 'aten::mm'), (4, 'aten::add');
-- Step markers (any case) are left out by default; their children move
-- up to the thread's top level.
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES
 ('0', '100', 4294967297, 1, 50001),
 ('10', '20', 4294967297, 3, 50001),
 ('100', '200', 4294967297, 2, 50001),
 ('110', '130', 4294967297, 4, 50001);

CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
INSERT INTO STRING_IDS VALUES (1, 'recurse.py(3): f');
-- A recursion 1200 frames deep: frame i (0-based) is [i, 10000 - i).
WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 1199)
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type)
SELECT i, 10000 - i, 4294967297, 1, 50003 FROM c;

CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
INSERT INTO STRING_IDS VALUES (1, 'aten::add');
-- Two children without a name (4294967295, and an id with no text)
-- become one frame 'unknown' with two calls.
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES
 ('0', '100', 4294967297, 1, 50001),
 ('10', '20', 4294967297, 4294967295, 50001),
 ('30', '40', 4294967297, 77, 50001);

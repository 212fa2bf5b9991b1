CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
INSERT INTO STRING_IDS VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd');
-- a [0,10) and b [10,20) touch: siblings; c [5,10) ends where b starts
-- and stays in a; d [10,15) is in b; a again at [20,30).
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES
 ('0', '10', 4294967297, 1, 50001),
 ('5', '10', 4294967297, 3, 50001),
 ('10', '20', 4294967297, 2, 50001),
 ('10', '15', 4294967297, 4, 50001),
 ('20', '30', 4294967297, 1, 50001);

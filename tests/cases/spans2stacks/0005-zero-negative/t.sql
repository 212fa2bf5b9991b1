CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
INSERT INTO STRING_IDS VALUES (1, 'a'), (2, 'zero'), (3, 'negative'), (4, 'b');
-- zero [10,10), negative [50,40) and zero [100,100) are skipped.
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES
 ('0', '100', 4294967297, 1, 50001),
 ('10', '10', 4294967297, 2, 50001),
 ('50', '40', 4294967297, 3, 50001),
 ('20', '30', 4294967297, 4, 50001),
 ('100', '100', 4294967297, 2, 50001);

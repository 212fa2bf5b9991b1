CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
INSERT INTO STRING_IDS VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e'), (6, 'f');
-- Threads 1/2, 1/1 and 0/5 interleaved; '999' < '1000' only as numbers;
-- equal starts (the longer first), an identical pair (table order).
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES
 ('999', '1500', 4294967298, 1, 50001),
 ('1000', '1100', 4294967297, 2, 50001),
 ('1000', '1200', 4294967297, 3, 50001),
 ('999', '2000', 4294967297, 4, 50001),
 ('1000', '1100', 4294967297, 5, 50001),
 ('50', '60', 5, 6, 50001);

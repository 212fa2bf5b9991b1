CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
INSERT INTO STRING_IDS VALUES (1, 'outer.py(1): f'), (2, 'inner.py(2): g'), (3, 'aten::add'), (4, 'aclnnAdd'), (5, 'aten::empty'), (6, 'aten::zeros');
-- Spans that start together: the longer is the parent whatever the row
-- order (g [100,150) is written before its parent f [100,200); empty
-- [400,410) before zeros [400,450)); equal start and end: the first row
-- (aten::add) is the parent of the second (aclnnAdd).
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES
 ('100', '150', 4294967297, 2, 50003),
 ('100', '200', 4294967297, 1, 50003),
 ('300', '350', 4294967297, 3, 50001),
 ('300', '350', 4294967297, 4, 50001),
 ('400', '410', 4294967297, 5, 50001),
 ('400', '450', 4294967297, 6, 50001);

CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
INSERT INTO STRING_IDS VALUES (1, 'a');
-- Six threads mixed, more than the writer keeps the "pid"/"tid" text of;
-- some differ only in pid, some only in tid (globalTid = pid << 32 | tid).
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES
 ('10', '15', 4294967298, 1, 50001),
 ('20', '25', 8589934593, 1, 50001),
 ('30', '35', 4294967299, 1, 50001),
 ('40', '45', 12884901889, 1, 50001),
 ('50', '55', 8589934594, 1, 50001),
 ('60', '65', 7, 1, 50001),
 ('70', '75', 4294967298, 1, 50001),
 ('80', '85', 8589934594, 1, 50001),
 ('90', '95', 8589934593, 1, 50001),
 ('100', '105', 7, 1, 50001),
 ('110', '115', 4294967299, 1, 50001);

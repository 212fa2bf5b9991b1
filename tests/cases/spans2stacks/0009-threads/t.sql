CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
INSERT INTO STRING_IDS VALUES (1, 'a'), (2, 'b');
-- Threads 5/6 and 5/7 overlap in time with the same names; they stay
-- apart (a span of 5/7 never nests in one of 5/6).
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES
 ('0', '100', 21474836486, 1, 50001),
 ('10', '20', 21474836487, 2, 50001),
 ('5', '50', 21474836487, 1, 50001),
 ('30', '40', 21474836486, 2, 50001);

-- A PyTorch profile without the msprof tables: --tables cann asks for a
-- table that is not there.
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);
INSERT INTO STRING_IDS VALUES (268435456, 'aten::mm');
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES ('1000', '2000', 4294967298, 268435456, 50001);

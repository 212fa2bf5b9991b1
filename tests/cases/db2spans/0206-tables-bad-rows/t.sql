-- Bad rows of CANN_API and TASK: reported with their table and rowid,
-- counted and skipped; --strict stops at the first.
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE CANN_API (startNs INTEGER,endNs INTEGER,type INTEGER,globalTid INTEGER,connectionId INTEGER PRIMARY KEY,name INTEGER);
CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,taskId INTEGER,modelId INTEGER);
INSERT INTO STRING_IDS VALUES (0, 'aclnnAdd'), (1, 'SDMA');
INSERT INTO CANN_API VALUES
 (1000, 2000, 20000, 4294967298, 1, 0),
 ('abc', 3000, 20000, 4294967298, 2, 0),
 (4000, 5000, 20000, NULL, 3, 0);
INSERT INTO TASK VALUES
 (1000, 2000, NULL, 1, 0, 1, 1, 0, 2, 1, 0),
 (1000, 2000, 0, 1, 1, 1, 1, 0, -1, 2, 0),
 (3000, 4000, 0, 1, 2, 1, 1, 0, 3, 3, 0);

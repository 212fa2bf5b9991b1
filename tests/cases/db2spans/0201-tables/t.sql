-- An Ascend DB with the msprof tables CANN_API, TASK and COMPUTE_TASK_INFO
-- (msprof's DDL: no spaces after the commas, its primary keys).
-- Host threads: globalTid = (pid << 32) | tid; pid 1 tid 2 = 4294967298
-- (a containerised process can be pid 1), pid 1 tid 3 = 4294967299.
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY,name TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
CREATE TABLE CANN_API (startNs INTEGER,endNs INTEGER,type INTEGER,globalTid INTEGER,connectionId INTEGER PRIMARY KEY,name INTEGER);
CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,taskId INTEGER,modelId INTEGER);
CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim INTEGER,mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes INTEGER,attrInfo INTEGER);
INSERT INTO ENUM_API_TYPE VALUES (5000, 'runtime'), (5500, 'hccl'), (10000, 'node'), (15000, 'model'), (20000, 'acl'), (50001, 'op'), (50002, 'queue'), (50003, 'trace'), (50004, 'mstx');
INSERT INTO STRING_IDS VALUES (0, 'aclnnMm'), (1, 'launch'), (2, 'rtKernelLaunch'), (3, 'hcom_allReduce_'), (4, 'ModelExecute'), (5, 'KERNEL_AICORE'), (6, 'MEMCPY_ASYNC'), (7, 'MatMul_1'), (8, 'Notify Wait'), (268435456, 'aten::mm'), (268435457, 'Dequeue@aclnnMm');
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES
 ('1000', '9000', 4294967298, 268435456, 50001),
 ('1100', '8000', 4294967298, 268435457, 50002);
-- Every type code of ENUM_API_TYPE that CANN_API uses (5500 is 'hccl' in
-- schema 1.0.0 files, written 'communication'), an unknown code, a NULL
-- type; name 4294967295 (no name) and 99 (not in STRING_IDS).
INSERT INTO CANN_API VALUES
 (1200, 7000, 20000, 4294967298, 10, 0),
 (1300, 6000, 10000, 4294967298, 11, 1),
 (1400, 1500, 5000, 4294967298, 12, 2),
 (20000, 21000, 5500, 4294967299, 13, 3),
 (22000, 23000, 15000, 4294967299, 14, 4),
 (24000, 25000, 7777, 4294967299, 15, 4294967295),
 (26000, 27000, NULL, 4294967299, 16, 99);
-- Device 1 stream 2 has the numbers of the host thread pid 1 tid 2 and
-- runs while aten::mm does; its first task is named by COMPUTE_TASK_INFO,
-- the second by its type.  Device 0: a task whose COMPUTE_TASK_INFO name
-- is missing (named by its type) and one with no name at all.
INSERT INTO TASK VALUES
 (2000, 5000, 1, 11, 0, 1, 5, 4294967295, 2, 1, 4294967295),
 (5000, 5500, 1, 11, 1, 1, 6, 4294967295, 2, 2, 4294967295),
 (2000, 2100, 0, 13, 2, 1, 8, 4294967295, 2, 3, 4294967295),
 (3000, 3100, 0, 13, 3, 1, 4294967295, 4294967295, 7, 4, 4294967295);
INSERT INTO COMPUTE_TASK_INFO (name, globalTaskId, blockDim, mixBlockDim, taskType, opType) VALUES (7, 0, 8, 0, 5, 7), (4294967295, 2, 0, 0, 8, 8);

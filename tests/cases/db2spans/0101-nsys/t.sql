-- A small Nsight Systems export (nsys export --type sqlite), with the
-- columns of the documented schema.  globalTid = (hw id << 48) |
-- (pid << 24) | tid: pid 4242, main thread 4242 and a second thread 4250,
-- hardware id 1 in the top bits.
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER REFERENCES StringIds (id), domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL REFERENCES StringIds (id), returnValue INTEGER NOT NULL, callchainId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL REFERENCES StringIds (id), shortName INTEGER NOT NULL REFERENCES StringIds (id), mangledName INTEGER REFERENCES StringIds (id), launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL, localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER);
CREATE TABLE OSRT_API (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL REFERENCES StringIds (id), returnValue INTEGER NOT NULL, nestingLevel INTEGER, callchainId INTEGER);
INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel'), (2, 'cudaMemcpyAsync'), (3, 'ampere_sgemm_128x64_nn'), (4, 'sgemm'), (5, 'pthread_mutex_lock'), (6, 'ioctl'), (7, 'forward'), (8, 'python3');
INSERT INTO ThreadNames VALUES (8, 0, 281546145665170);
INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3.16.1');
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1790857026000000000, '2026-10-01', '2026-10-01');
-- push/pop with text; push/pop named by textId; a mark; an open range;
-- a start/end range on the second thread.
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId) VALUES
  (1000, 9000, 59, 'train_step', 281546145665170, NULL),
  (1500, 4000, 59, NULL, 281546145665170, 7),
  (2000, NULL, 34, 'checkpoint', 281546145665170, NULL),
  (5000, NULL, 59, 'never popped', 281546145665170, NULL),
  (6000, 8000, 60, 'data load', 281546145665178, NULL);
-- nameId 99 is not in StringIds.
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
  (1600, 1700, 0, 281546145665170, 11, 1, 0, NULL),
  (2500, 3500, 0, 281546145665170, 12, 2, 0, NULL),
  (3600, 3700, 0, 281546145665170, 13, 99, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId, globalPid, demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) VALUES
  (1800, 2600, 0, 1, 7, 11, 281546145660928, 3, 4, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 1);
INSERT INTO OSRT_API VALUES
  (100, 300, 0, 281546145665178, NULL, 5, 0, 0, NULL),
  (400, 500, 0, 281546145665178, NULL, 6, 0, 0, NULL);

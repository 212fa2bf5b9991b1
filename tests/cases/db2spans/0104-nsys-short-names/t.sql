-- An Nsight Systems export with only a kernel table whose names are in
-- shortName (no demangledName column), a runtime row without globalTid,
-- and no NVTX table at all.
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, shortName INTEGER NOT NULL REFERENCES StringIds (id));
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL REFERENCES StringIds (id), returnValue INTEGER NOT NULL, callchainId INTEGER);
INSERT INTO StringIds VALUES (1, 'vectorAdd'), (2, 'cudaLaunchKernel');
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (500, 900, 1, 1, 13, 7, 0, 1);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (100, 200, 0, NULL, 7, 2, 0, NULL), (300, 400, 0, 16777316, 8, 2, 0, NULL);

-- Thread names of an Nsight Systems export: ThreadNames (nameId ->
-- StringIds, globalTid).  The events carry hardware id 1 in the top bits
-- of globalTid, ThreadNames rows 0: names match on pid and tid.
-- pid 4242: tid 4242 named twice (the first name wins), tid 4250 named
-- with quotes, tid 4251 named by a nameId missing from StringIds (no
-- name).  A ThreadNames row for pid 0 tid 7 must not name kernel stream 7
-- of device 0 (a device lane, not a thread).
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL REFERENCES StringIds (id), returnValue INTEGER NOT NULL, callchainId INTEGER);
CREATE TABLE OSRT_API (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL REFERENCES StringIds (id), returnValue INTEGER NOT NULL, nestingLevel INTEGER, callchainId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL REFERENCES StringIds (id), shortName INTEGER NOT NULL REFERENCES StringIds (id));
INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel'), (2, 'read'), (3, 'vectorAdd'), (10, 'python3'), (11, 'pt_main_thread'), (12, 'data "loader" 0'), (13, 'not a stream');
INSERT INTO ThreadNames VALUES (10, 0, 71168954514), (12, 0, 71168954522), (11, 0, 71168954514), (99, 0, 71168954523), (13, 0, 7);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
  (100, 400, 0, 281546145665170, 1, 1, 0, NULL),
  (500, 600, 0, 281546145665179, 2, 1, 0, NULL);
INSERT INTO OSRT_API VALUES (150, 250, 0, 281546145665178, NULL, 2, 0, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (300, 700, 0, 1, 7, 1, 71168954368, 3, 3);

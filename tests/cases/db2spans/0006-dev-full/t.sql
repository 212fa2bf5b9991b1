-- The two tables db2spans reads, as torch_npu and msprof create them.
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
INSERT INTO STRING_IDS VALUES (268435456, 'train.py(10): <module>'), (268435457, 'aten::mm'), (268435458, 'Enqueue@aclnnMm'), (268435459, 'mstx_range_push_op'), (268435460, 'say "hi" \ tab	end'), (268435461, 'é✓');
-- pid 3136493 tid 3136497; 19-digit times a double cannot hold.
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES
 ('1751344815171234567', '1751344815171299999', 13471134862269425, 268435456, 50003),
 ('1751344815171234568', '1751344815171299998', 13471134862269425, 268435457, 50001),
 ('1751344815171234569', '1751344815171234570', 13471134862269425, 268435458, 50002),
 ('1751344815171234571', '1751344815171234571', 13471134862269425, 268435459, 50004),
-- pid 100 tid 101: an unknown type code, a NULL type, escapes, UTF-8.
 ('1000', '2000', 429496729701, 268435460, 60001),
 ('1001', '1999', 429496729701, 268435461, NULL),
-- pid 7, the largest tid; a negative duration is written as it is.
 ('5', '3', 34359738367, 268435457, 50001);

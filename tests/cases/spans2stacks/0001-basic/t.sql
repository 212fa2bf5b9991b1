CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER);
INSERT INTO STRING_IDS VALUES (1, 'train.py(10): train'), (2, 'aten::linear'), (3, 'aten::mm'), (4, 'aten::relu');
-- One thread, rows out of time order (python frames come last, as
-- torch_npu writes them).  train [0,100) holds linear [10,40) > mm
-- [15,35); linear [50,80) > mm [55,60), mm [60,70); relu [85,90).
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) VALUES
 ('15', '35', 4294967297, 3, 50001),
 ('10', '40', 4294967297, 2, 50001),
 ('85', '90', 4294967297, 4, 50001),
 ('60', '70', 4294967297, 3, 50001),
 ('55', '60', 4294967297, 3, 50001),
 ('50', '80', 4294967297, 2, 50001),
 ('0', '100', 4294967297, 1, 50003);

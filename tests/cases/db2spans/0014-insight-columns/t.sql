-- Columns in another order, INTEGER times, and the depth column
-- MindStudio Insight adds: db2spans selects by name.
CREATE TABLE STRING_IDS (value TEXT, id INTEGER PRIMARY KEY);
CREATE TABLE PYTORCH_API (type INTEGER, name INTEGER, globalTid INTEGER, endNs INTEGER, startNs INTEGER, connectionId INTEGER);
ALTER TABLE PYTORCH_API ADD COLUMN depth integer;
CREATE TABLE status_info (id INTEGER);
INSERT INTO STRING_IDS (id, value) VALUES (268435456, 'aten::conv2d');
INSERT INTO PYTORCH_API (type, name, globalTid, endNs, startNs, depth) VALUES
 (50001, 268435456, 4294967297, 1736407067942028370, 1736407067942010500, 3);

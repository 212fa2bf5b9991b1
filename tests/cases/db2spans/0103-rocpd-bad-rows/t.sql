-- A rocpd database whose kernels view has the column names of the older
-- data_views.sql (agent_abs_index, stream_id, no queue_id) and no
-- regions view; one dispatch has no end, one has no name.
CREATE TABLE `rocpd_string_a1` (id INTEGER PRIMARY KEY, guid TEXT, string TEXT UNIQUE);
CREATE TABLE `rocpd_kernel_dispatch_a1` (id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, tid INTEGER, agent_id INTEGER, kernel_id INTEGER, stream_id INTEGER, start BIGINT, end BIGINT);
CREATE TABLE `rocpd_info_kernel_symbol_a1` (id INTEGER PRIMARY KEY, guid TEXT, display_name TEXT);
CREATE VIEW `rocpd_string` AS SELECT * FROM `rocpd_string_a1`;
CREATE VIEW `kernels` AS SELECT K.id, K.guid, K.nid, K.pid, K.tid, 'KERNEL_DISPATCH' AS category, S.display_name AS name, K.agent_id, K.agent_id AS agent_abs_index, K.stream_id, K.start, K.end
  FROM `rocpd_kernel_dispatch_a1` K LEFT JOIN `rocpd_info_kernel_symbol_a1` S ON S.id = K.kernel_id;
INSERT INTO `rocpd_info_kernel_symbol_a1` VALUES (1, 'g', 'copy_kernel');
INSERT INTO `rocpd_kernel_dispatch_a1` VALUES
  (1, 'g', 1, 7, 7, 1, 1, 5, 100, 200),
  (2, 'g', 1, 7, 7, 1, 1, 5, 300, NULL),
  (3, 'g', 1, 7, 7, 1, 9, 5, 400, 450);

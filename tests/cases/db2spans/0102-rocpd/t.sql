-- A small rocprofv3 rocpd database, schema 3.0.1: physical tables with the
-- per-run UUID suffix, views named rocpd_<x> over them (rocpd_views.sql)
-- and the user views regions and kernels (data_views.sql) with their
-- column names.  region 4 has no event, so the regions view (an INNER
-- JOIN with rocpd_event) drops it.
CREATE TABLE `rocpd_string_6f1e` (id INTEGER PRIMARY KEY, guid TEXT, string TEXT UNIQUE);
CREATE TABLE `rocpd_info_process_6f1e` (id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, ppid INTEGER, pid INTEGER, init BIGINT, fini BIGINT, start BIGINT, end BIGINT, command TEXT);
CREATE TABLE `rocpd_info_thread_6f1e` (id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, ppid INTEGER, pid INTEGER, tid INTEGER, name TEXT, start BIGINT, end BIGINT);
CREATE TABLE `rocpd_info_agent_6f1e` (id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, type TEXT, absolute_index INTEGER, logical_index INTEGER, type_index INTEGER, name TEXT, model_name TEXT);
CREATE TABLE `rocpd_event_6f1e` (id INTEGER PRIMARY KEY, guid TEXT, category_id INTEGER, stack_id INTEGER, parent_stack_id INTEGER, correlation_id INTEGER, call_stack TEXT, line_info TEXT, extdata JSONB);
CREATE TABLE `rocpd_region_6f1e` (id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, tid INTEGER, start BIGINT, end BIGINT, name_id INTEGER, event_id INTEGER, extdata JSONB);
CREATE TABLE `rocpd_info_kernel_symbol_6f1e` (id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, code_object_id INTEGER, kernel_name TEXT, display_name TEXT);
CREATE TABLE `rocpd_kernel_dispatch_6f1e` (id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER, tid INTEGER, agent_id INTEGER, kernel_id INTEGER, dispatch_id INTEGER, queue_id INTEGER, stream_id INTEGER, start BIGINT, end BIGINT, workgroup_size_x INTEGER, grid_size_x INTEGER, region_name_id INTEGER, event_id INTEGER);
CREATE VIEW `rocpd_string` AS SELECT * FROM `rocpd_string_6f1e`;
CREATE VIEW `rocpd_info_process` AS SELECT * FROM `rocpd_info_process_6f1e`;
CREATE VIEW `rocpd_info_thread` AS SELECT * FROM `rocpd_info_thread_6f1e`;
CREATE VIEW `rocpd_info_agent` AS SELECT * FROM `rocpd_info_agent_6f1e`;
CREATE VIEW `rocpd_event` AS SELECT * FROM `rocpd_event_6f1e`;
CREATE VIEW `rocpd_region` AS SELECT * FROM `rocpd_region_6f1e`;
CREATE VIEW `rocpd_info_kernel_symbol` AS SELECT * FROM `rocpd_info_kernel_symbol_6f1e`;
CREATE VIEW `rocpd_kernel_dispatch` AS SELECT * FROM `rocpd_kernel_dispatch_6f1e`;
CREATE VIEW `regions` AS SELECT R.id, R.guid, C.string AS category, N.string AS name, R.nid, P.pid, T.tid, R.start, R.end, (R.end - R.start) AS duration, R.event_id, E.stack_id, E.parent_stack_id, E.correlation_id, E.extdata
  FROM `rocpd_region` R
  INNER JOIN `rocpd_event` E ON E.id = R.event_id AND E.guid = R.guid
  INNER JOIN `rocpd_string` C ON C.id = E.category_id AND C.guid = R.guid
  INNER JOIN `rocpd_string` N ON N.id = R.name_id AND N.guid = R.guid
  INNER JOIN `rocpd_info_process` P ON P.id = R.pid AND P.guid = R.guid
  INNER JOIN `rocpd_info_thread` T ON T.id = R.tid AND T.guid = R.guid;
CREATE VIEW `kernels` AS SELECT K.id, K.guid, K.nid, P.pid, T.tid, C.string AS category, RS.string AS region, S.display_name AS name, K.agent_id, A.absolute_index AS agent_absolute_index, A.logical_index AS agent_logical_index, A.type_index AS agent_type_index, A.type AS agent_type, K.kernel_id, K.dispatch_id, K.queue_id, NULL AS `queue`, K.stream_id, NULL AS `stream`, K.start, K.end, (K.end - K.start) AS duration, K.event_id, E.correlation_id
  FROM `rocpd_kernel_dispatch` K
  INNER JOIN `rocpd_event` E ON E.id = K.event_id AND E.guid = K.guid
  INNER JOIN `rocpd_string` C ON C.id = E.category_id AND C.guid = K.guid
  INNER JOIN `rocpd_string` RS ON RS.id = K.region_name_id AND RS.guid = K.guid
  INNER JOIN `rocpd_info_kernel_symbol` S ON S.id = K.kernel_id AND S.guid = K.guid
  INNER JOIN `rocpd_info_agent` A ON A.id = K.agent_id AND A.guid = K.guid
  INNER JOIN `rocpd_info_process` P ON P.id = K.pid AND P.guid = K.guid
  INNER JOIN `rocpd_info_thread` T ON T.id = K.tid AND T.guid = K.guid;
INSERT INTO `rocpd_string_6f1e` VALUES (1, 'g', 'HIP_RUNTIME_API'), (2, 'g', 'hipLaunchKernel'), (3, 'g', 'hipMemcpy'), (4, 'g', 'MARKER_CORE_API'), (5, 'g', 'train_step'), (6, 'g', 'KERNEL_DISPATCH');
INSERT INTO `rocpd_info_process_6f1e` VALUES (1, 'g', 1, 1, 31337, 0, 0, 0, 0, 'python3 train.py');
INSERT INTO `rocpd_info_thread_6f1e` VALUES (1, 'g', 1, 1, 1, 31337, 'python3', 0, 0), (2, 'g', 1, 1, 1, 31340, 'worker', 0, 0);
INSERT INTO `rocpd_info_agent_6f1e` VALUES (1, 'g', 1, 1, 'CPU', 0, 0, 0, 'cpu', 'EPYC'), (2, 'g', 1, 1, 'GPU', 2, 1, 0, 'gfx942', 'MI300X');
INSERT INTO `rocpd_event_6f1e` VALUES (1, 'g', 1, 0, 0, 100, NULL, NULL, '{}'), (2, 'g', 1, 0, 0, 101, NULL, NULL, '{}'), (3, 'g', 4, 0, 0, 0, NULL, NULL, '{}'), (4, 'g', 6, 0, 0, 100, NULL, NULL, '{}');
INSERT INTO `rocpd_region_6f1e` VALUES
  (1, 'g', 1, 1, 1, 1000, 9000, 5, 3, '{}'),
  (2, 'g', 1, 1, 1, 2000, 2500, 2, 1, '{}'),
  (3, 'g', 1, 1, 2, 3000, 4000, 3, 2, '{}'),
  (4, 'g', 1, 1, 2, 5000, 6000, 3, 99, '{}');
INSERT INTO `rocpd_info_kernel_symbol_6f1e` VALUES (1, 'g', 1, 1, 1, '_Z4gemmPfS_', 'gemm(float*, float*)');
INSERT INTO `rocpd_kernel_dispatch_6f1e` VALUES (1, 'g', 1, 1, 1, 2, 1, 1, 3, 0, 2600, 3900, 256, 65536, 2, 4);

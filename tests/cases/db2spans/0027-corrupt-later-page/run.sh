# A leaf page in the middle of PYTORCH_API is corrupt: the spans before it
# are written once each, in table order, as the sqlite3 shell reads them
# (its rows up to the error, made spans by awk), then the error, exit 1.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
sqlite3 "$d/t.db" <<'SQL'
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
INSERT INTO STRING_IDS VALUES (268435456, 'aten::add');
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER,
    connectionId INTEGER, name INTEGER, sequenceNumber INTEGER,
    fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER,
    callchainId INTEGER, type INTEGER);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type)
SELECT 1736407067942010500 + 3000 - i, 1736407067942010500 + 4000 + i,
    4294967297, 268435456, 50001 FROM n;
SQL
pages=$(sqlite3 "$d/t.db" "SELECT count(*) FROM dbstat WHERE name =
    'PYTORCH_API' AND pagetype = 'leaf'")
pg=$(sqlite3 "$d/t.db" "SELECT pageno FROM dbstat WHERE name = 'PYTORCH_API'
    AND pagetype = 'leaf' ORDER BY path LIMIT 1 OFFSET 5")
# Page type 0: no b-tree page.
printf '\000' | dd of="$d/t.db" bs=1 seek=$(((pg - 1) * 4096)) \
    conv=notrunc 2>/dev/null
sqlite3 "$d/t.db" "SELECT startNs, endNs FROM PYTORCH_API" 2>/dev/null |
    awk -F'|' '{ printf "{\"pid\":1,\"tid\":1,\"name\":\"aten::add\",\"cat\":\"op\",\"start_ns\":%s,\"end_ns\":%s}\n", $1, $2 }' \
    >"$d/want"
db2spans "$d/t.db" >"$d/got" 2>"$d/err"
s=$?
n=$(wc -l <"$d/got")
echo "leaf pages: $([ "$pages" -gt 6 ] && echo more than 6)"
echo "spans: $([ "$n" -gt 0 ] && [ "$n" -lt 3000 ] && echo some, not all)"
cmp -s "$d/got" "$d/want" && echo "spans: those the sqlite3 shell reads"
sed "s|$d/||" "$d/err"
echo "exit $s"

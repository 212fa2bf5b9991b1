# shapes.py DIR: writes DIR/NAME/file/x.db, a database of one shape read
# from the file itself by db2spans (or not, when it is not plain), and
# DIR/NAME/wal/x.db with x.db-wal, the same rows in WAL mode with a frame
# not yet checkpointed, which db2spans reads through SQLite alone (a copy
# with its WAL).  Shapes: page sizes 512 to 65536, reserved bytes, trees
# of depth 2 to 4, integers of every size, NULLs, texts of odd and even
# lengths, records just under and just over the overflow limit, a REAL,
# a BLOB or a row on overflow pages in the middle of the table, rows
# older than an added column, odd declared types, names in other cases,
# indexes, WITHOUT ROWID, deleted rows, auto_vacuum, an empty table.
import os, random, shutil, sqlite3, subprocess, sys

top = sys.argv[1]
COLS = ("startNs {ts}, endNs {ts}, globalTid {gt}, connectionId INTEGER, "
        "name {nm}, sequenceNumber INTEGER, fwdThreadId INTEGER, "
        "inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, "
        "type {ty}")
INS = ("INSERT INTO {t} (startNs, endNs, globalTid, connectionId, name, "
       "sequenceNumber, fwdThreadId, inputDtypes, inputShapes, callchainId, "
       "type) VALUES (?,?,?,?,?,?,?,?,?,?,?)")
# Integers of every serial type: 0 and 1 (8, 9), 1, 2, 3, 4, 6, 8 bytes.
INTS = [0, 1, 2, -1, 127, -128, 128, 32767, -32769, 8388607, 8388608,
        2147483647, -2147483649, 140737488355327, 140737488355328,
        9223372036854775807, -9223372036854775808]
BASE = 1736407067942010500


def value(r, kind, clean):
    """A start or end time, a thread, a name id or a type of some kind."""
    k = r.random() * (0.5 if clean else 1)
    if kind == "ts":
        if k < 0.6:
            return str(BASE + r.randrange(10 ** 9))
        if k < 0.8:
            return BASE + r.randrange(10 ** 9)
        return r.choice(INTS + [None, "", "7", "12", "-5", "00012",
                                " 12", "9" * 20, "123456789012345678"])
    if kind == "gt":
        if k < 0.7:
            return (3055835 << 32) | r.choice([3055835, 3059156, 7])
        return r.choice(INTS + [None, "4294967297", "x"])
    if kind == "nm":
        if k < 0.7:
            return 268435456 + r.randrange(12)
        return r.choice(INTS + [None, 4294967295, "268435457", "", "a"])
    if k < 0.7:
        return r.choice([50001, 50002, 50003, 50004])
    return r.choice(INTS + [None, 60001, "op", "50002", ""])


def row(r, pad, clean):
    x = [value(r, "ts", clean), value(r, "ts", clean),
         value(r, "gt", clean), r.choice(INTS), value(r, "nm", clean),
         r.choice(INTS + [None]), 0, None, None, None,
         value(r, "ty", clean)]
    if clean and x[1] is not None:
        x[1] = str(int(x[0]) + r.randrange(10 ** 6))
    # A text in a column not read, of a length that makes the record
    # as long as asked.
    if pad is not None:
        x[8] = pad
    return x


def names(c):
    c.execute("CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT)")
    for i, v in enumerate(["aten::mm", "aclnnAdd", "f.py(1): g", "x;y",
                           "\u00e9\"q\\", "", None, "ProfilerStep#1", "a\nb",
                           "Dequeue@x", "nn.Module: L", "mstx"]):
        c.execute("INSERT INTO STRING_IDS VALUES (?, ?)", (268435456 + i, v))


def make(name, n=800, page=4096, ts="TEXT", gt="INTEGER", nm="INTEGER",
         ty="INTEGER", table="PYTORCH_API", inner="", outer="", sweep=None,
         pre=(),
         post=(), mid=None, split=None, seed=1, reserve=None, clean=False,
         sqlite=False):
    d = os.path.join(top, name)
    os.makedirs(os.path.join(d, "file"))
    os.makedirs(os.path.join(d, "wal"))
    p = os.path.join(d, "file", "x.db")
    c = sqlite3.connect(p)
    c.execute("PRAGMA page_size = %d" % page)
    for s in pre:
        c.execute(s)
    names(c)
    cols = COLS.format(ts=ts, gt=gt, nm=nm, ty=ty)
    if split is not None:
        cols = cols.rsplit(",", 1)[0]
    c.execute("CREATE TABLE %s (%s%s)%s" % (table, cols, inner, outer))
    c.execute("CREATE TABLE CANN_API (startNs INTEGER, endNs INTEGER, "
              "type INTEGER, globalTid INTEGER, connectionId INTEGER "
              "PRIMARY KEY, name INTEGER)")
    r = random.Random(seed)
    ins = INS.format(t=table)
    for i in range(n):
        x = row(r, "" if sweep is not None else None, clean)
        if mid is not None and i == n // 2:
            x[mid[0]] = mid[1]
        if split is not None and i == split[0]:
            c.execute(split[1])
            ins = INS.format(t=table)
        if split is not None and i < split[0]:
            c.execute(ins.replace(", type)", ")").replace(",?)", ")"),
                      x[:10])
        else:
            c.execute(ins, x)
        if sweep is not None:
            # Records of U - 35 bytes down to U - 35 - sweep + 1, the
            # most that stays on the page, and one over it at the end.
            u = page - (reserve or 0)
            fit(c, table, u - 35 - i % sweep if i < n - 1 else u - 34)
        if i % 4 == 0:
            c.execute("INSERT INTO CANN_API VALUES (?,?,?,?,?,?)",
                      (x[1], x[0], x[10], x[2], None, x[4]))
    c.commit()
    for s in post:
        c.execute(s)
    c.commit()
    c.close()
    if reserve is not None:
        subprocess.run(["sqlite3", p, ".filectrl reserve_bytes %d" % reserve,
                        "VACUUM"], check=True, stdout=subprocess.DEVNULL)
    # What db2spans -v is to say of the table.
    with open(os.path.join(d, "want"), "w") as f:
        if sqlite:
            f.write("PYTORCH_API: read by SQLite\n")
        else:
            k, n = plain(p, table, page - (reserve or 0))
            f.write("PYTORCH_API: %d row%s read from the file itself%s\n"
                    % (k, "" if k == 1 else "s",
                       ", the rest by SQLite" if k < n else ""))
    # The twin: page 1 written again into a WAL that is not checkpointed
    # (copied while the connection that wrote it is open).
    w = os.path.join(d, "wal", "x.db")
    shutil.copy(p, w + ".tmp")
    c = sqlite3.connect(w + ".tmp")
    c.execute("PRAGMA journal_mode = WAL")
    c.execute("PRAGMA wal_autocheckpoint = 0")
    c.execute("PRAGMA user_version = 7")
    c.commit()
    shutil.copy(w + ".tmp", w)
    shutil.copy(w + ".tmp-wal", w + "-wal")
    c.close()
    for f in os.listdir(os.path.join(d, "wal")):
        if f.startswith("x.db.tmp"):
            os.remove(os.path.join(d, "wal", f))


def stype(v):
    """The serial type of a value as SQLite stores it, and its bytes."""
    if v is None:
        return 0, 0
    if isinstance(v, int):
        if v in (0, 1):
            return 8 + v, 0
        for t, n in ((1, 1), (2, 2), (3, 3), (4, 4), (5, 6), (6, 8)):
            if -(1 << (8 * n - 1)) <= v < 1 << (8 * n - 1):
                return t, n
    if isinstance(v, float):
        return 7, 8
    if isinstance(v, str):
        v = v.encode()
        return 13 + 2 * len(v), len(v)
    return 12 + 2 * len(v), len(v)


def vlen(x):
    n = 1
    while x >= 128:
        x >>= 7
        n += 1
    return n


def record(vals):
    """The bytes of the record of a row: header (with its size), values."""
    ts = [stype(v) for v in vals]
    h = sum(vlen(t) for t, _ in ts)
    hs = h + 1
    while h + vlen(hs) != hs:
        hs = h + vlen(hs)
    return hs + sum(n for _, n in ts)


def plain(p, table, usable):
    """
    The rows db2spans reads from the file before SQLite takes over, by
    the rules of its manual: table order, up to the first REAL or BLOB
    among the columns read, or a record on overflow pages (more than
    U - 35 bytes).
    """
    c = sqlite3.connect(p)
    n = 0
    rows = c.execute("SELECT * FROM %s ORDER BY rowid" % table).fetchall()
    c.close()
    for v in rows:
        if any(isinstance(v[i], (float, bytes)) for i in (0, 1, 2, 4, 10)):
            break
        if record(v) > usable - 35:
            break
        n += 1
    return n, len(rows)


def fit(c, table, size):
    """Pads the last row's inputShapes until its record is size bytes."""
    rid = c.execute("SELECT max(rowid) FROM %s" % table).fetchone()[0]
    for _ in range(4):
        v = c.execute("SELECT * FROM %s WHERE rowid = ?" % table,
                      (rid,)).fetchone()
        if record(v) == size:
            return
        c.execute("UPDATE %s SET inputShapes = ? WHERE rowid = ?" % table,
                  ("p" * (len(v[8]) + size - record(v)), rid))


make("plain")
make("clean", n=3000, clean=True)
make("clean-page512", page=512, n=3000, clean=True)
make("clean-limit", page=1024, sweep=40, clean=True)
make("page512", page=512, n=3000)
make("page1024", page=1024, n=2000)
make("page65536", page=65536, n=3000)
# One row a leaf, records around the limit: depth 4 at 512 bytes a page.
make("page512-limit", page=512, n=6000, sweep=40)
make("page1024-limit", page=1024, sweep=40)
make("page4096-limit", sweep=40)
make("page65536-limit", page=65536, n=200, sweep=40)
make("reserve40-limit", page=1024, sweep=40, reserve=40)
make("reserve1-page512", page=512, n=3000, reserve=1)
make("mid-real", mid=(2, 1.5))
make("mid-real-type", mid=(10, 50001.5))
make("mid-blob", mid=(4, b"\x01\x02\x03"))
make("mid-empty-blob", mid=(2, b""))
make("mid-overflow", mid=(8, "o" * 5000))
make("added-column", split=(400, "ALTER TABLE PYTORCH_API ADD COLUMN type "
                            "INTEGER"))
make("added-default", split=(400, "ALTER TABLE PYTORCH_API ADD COLUMN type "
                             "INTEGER DEFAULT 50002"), sqlite=True)
make("odd-types", ts="VARCHAR(19)", gt="FLOATING POINT", nm="BLOB", ty="")
make("numeric-types", ts="NUMERIC", gt="DECIMAL(20)", nm="BOOLEAN",
     ty="DATETIME")
make("real-types", ts="DOUBLE PRECISION", ty="REAL", sqlite=True)
make("real-blob-type", ts="REAL BLOB", ty="FLOAT TEXT")
make("lower-case", table="pytorch_api")
make("covering-index", post=["CREATE INDEX ix ON PYTORCH_API (startNs, "
                             "endNs, globalTid, name, type)"], sqlite=True)
make("other-index", post=["CREATE INDEX ix ON PYTORCH_API (connectionId)"],
     sqlite=True)
make("unique", inner=", UNIQUE (inputShapes)", sqlite=True)
make("without-rowid", inner=", PRIMARY KEY (connectionId)",
     outer=" WITHOUT ROWID", n=0, sqlite=True)
make("deleted", page=1024, n=3000, post=["DELETE FROM PYTORCH_API WHERE "
                                         "rowid % 3 = 1"])
make("auto-vacuum", page=1024, n=3000, pre=["PRAGMA auto_vacuum = FULL"],
     post=["DELETE FROM PYTORCH_API WHERE rowid % 5 = 2"])
make("rowids", post=["UPDATE PYTORCH_API SET rowid = -rowid * 1000003 "
                     "WHERE rowid % 2 = 0",
                     "UPDATE PYTORCH_API SET rowid = rowid + "
                     "9223372036854000000 WHERE rowid > 600"])
make("empty", n=0)

# mkwal.py DB SQL [keep|noshm]: the database of SQL in WAL mode, then two
# more spans committed to DB-wal only, left there as by a writer that
# died (no checkpoint).  noshm removes DB-shm too.
import os, sqlite3, sys
db, sql, how = sys.argv[1], sys.argv[2], sys.argv[3]
c = sqlite3.connect(db)
c.executescript(open(sql).read())
c.execute("PRAGMA journal_mode=WAL")
c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
c.execute("PRAGMA wal_autocheckpoint=0")
c.execute("INSERT INTO PYTORCH_API (startNs, endNs, globalTid, name, type) "
          "VALUES ('10', '20', 429496729701, 268435457, 50001), "
          "('11', '19', 429496729701, 268435457, 50001)")
c.commit()
if how == "noshm":
    os.unlink(db + "-shm")
os._exit(0)

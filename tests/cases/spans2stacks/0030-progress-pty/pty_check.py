"""Progress lines on one terminal, read from the terminal as a user sees it.

Runs each command with its standard error on a pseudo-terminal (stdout
to files), replays what the terminal received on a small screen model
(CR, LF, ESC[K, ESC[J, ESC[nA) and checks:

1. two stages of one pipeline never draw their progress over each
   other's line, and at some moment both lines are on the screen;
2. db2spans shows the percentage of the DB's rows (worked out here from
   the number of rows this script inserted);
3. spans2stacks reading a regular file shows the percentage of its bytes
   (at least the share of the lines it has read), and none from a pipe.

PROFPIPE_PROGRESS_DELAY=0 shows the line at once instead of after a
second, so the inputs stay small.
"""
import os
import pty
import re
import select
import sqlite3
import subprocess
import sys
import tempfile
import time

LINE = re.compile(r"^([a-z0-9]+): (\d+) ([a-z]+)(, [\d.]+ MB)?(, (\d+)%)?, "
                  r"\d+ s$")


def run_on_pty(cmd, cwd):
    """Runs sh -c cmd, stderr on a pty; returns what the terminal got."""
    master, slave = pty.openpty()
    env = dict(os.environ, PROFPIPE_PROGRESS_DELAY="0")
    p = subprocess.Popen(["sh", "-c", cmd], cwd=cwd, stdin=subprocess.DEVNULL,
                         stderr=slave, env=env)
    os.close(slave)
    got = b""
    while True:
        r, _, _ = select.select([master], [], [], 0.1)
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
        elif p.poll() is not None:
            break
    p.wait()
    os.close(master)
    return p.returncode, got.decode("utf-8", "replace")


class Screen:
    """Rows of text and the program whose progress line each one shows."""

    def __init__(self):
        self.rows, self.owner = {}, {}
        self.row = self.col = 0
        self.drawing = None
        self.overwrites, self.together, self.lines = [], False, []

    def text(self, r):
        return "".join(self.rows.get(r, [])).rstrip()

    def settle(self):
        """A draw ended: the row shows a progress line, or not."""
        if self.drawing is None:
            return
        t = self.text(self.row)
        m = LINE.match(t)
        if m:
            self.lines.append(t)
            self.owner[self.row] = m.group(1)
        else:
            self.owner.pop(self.row, None)
        shown = set(self.owner.values())
        if len(shown) > 1:
            self.together = True
        self.drawing = None

    def feed(self, s):
        i = 0
        while i < len(s):
            c = s[i]
            m = re.match(r"\x1b\[(\d*)([AKJ])", s[i:])
            if m:
                self.settle()
                n, op = int(m.group(1) or 1), m.group(2)
                if op == "A":
                    self.row -= n
                else:
                    line = self.rows.setdefault(self.row, [])
                    del line[self.col:]
                    if self.col == 0:
                        self.owner.pop(self.row, None)
                    if op == "J":
                        for r in list(self.rows):
                            if r > self.row:
                                del self.rows[r]
                                self.owner.pop(r, None)
                i += len(m.group(0))
                continue
            if c == "\r":
                self.settle()
                self.col = 0
            elif c == "\n":
                self.settle()
                self.row += 1
            else:
                if self.col == 0 and self.drawing is None:
                    who = re.match(r"([a-z0-9]+): \d", s[i:])
                    prev = self.owner.get(self.row)
                    if who and prev is not None and prev != who.group(1):
                        self.overwrites.append("%s over %s" % (
                            who.group(1), prev))
                    self.drawing = who.group(1) if who else ""
                line = self.rows.setdefault(self.row, [])
                while len(line) <= self.col:
                    line.append(" ")
                line[self.col] = c
                self.col += 1
            i += 1
        self.settle()


def screen_of(out):
    s = Screen()
    s.feed(out)
    return s


def feeder(path, batches, n):
    """A script writing a Chrome trace in batches, with pauses."""
    with open(path, "w") as f:
        f.write("import sys, time\n"
                "w = sys.stdout.write\n"
                "w('{\"traceEvents\":[')\n"
                "k = 0\n"
                "for b in range(%d):\n"
                "    for i in range(%d):\n"
                "        w('%%s{\"ph\":\"X\",\"name\":\"f%%d\",\"pid\":1,"
                "\"tid\":1,\"ts\":%%d,\"dur\":1}' %% (',' if k else '', "
                "k %% 7, k * 2))\n"
                "        k += 1\n"
                "    sys.stdout.flush()\n"
                "    time.sleep(0.8)\n"
                "w(']}')\n" % (batches, n))


def main():
    d = tempfile.mkdtemp()
    ok = True
    # 1. trace2spans | spans2stacks | flame2html on one terminal.
    feeder(os.path.join(d, "feed.py"), 3, 70000)
    st, out = run_on_pty("python3 feed.py | trace2spans --progress | "
                         "spans2stacks --progress -q | flame2html --progress "
                         "-o f.html", d)
    s = screen_of(out)
    progs = sorted(set(LINE.match(t).group(1) for t in s.lines))
    print("pipeline: exit %d, progress of %s" % (st, ", ".join(progs)))
    print("pipeline: %s" % ("; ".join(s.overwrites) or
                            "no stage drew over another's line"))
    print("pipeline: two lines on the screen at once: %s" %
          ("yes" if s.together else "no"))
    # 2. db2spans: the percentage of the rows.
    n = 10000
    db = sqlite3.connect(os.path.join(d, "t.db"))
    db.executescript(
        "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
        "CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);"
        "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid "
        "INTEGER, connectionId INTEGER, name INTEGER, sequenceNumber "
        "INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes "
        "INTEGER, callchainId INTEGER, type INTEGER);"
        "INSERT INTO STRING_IDS VALUES (1, 'aten::mm');"
        "INSERT INTO ENUM_API_TYPE VALUES (50001, 'op');")
    db.executemany("INSERT INTO PYTORCH_API VALUES (?, ?, 4294967298, NULL, "
                   "1, -1, 0, NULL, NULL, NULL, 50001)",
                   [(str(10 * i), str(10 * i + 5)) for i in range(n)])
    db.commit()
    db.close()
    st, out = run_on_pty("db2spans --progress t.db >spans.nd", d)
    lines = screen_of(out).lines
    bad = [t for t in lines if LINE.match(t).group(6) is None or
           int(LINE.match(t).group(6)) != int(LINE.match(t).group(2)) *
           100 // n]
    print("db2spans: exit %d, %s lines, %s" % (
        st, "some" if lines else "no", "percentages of %d rows right" % n
        if lines and not bad else "wrong: %r" % (bad or lines)))
    # 3. spans2stacks on a regular file, then on a pipe.
    with open(os.path.join(d, "big.nd"), "w") as f:
        for i in range(70000):
            f.write('{"pid":1,"tid":1,"name":"f%d","start_ns":%d,'
                    '"end_ns":%d}\n' % (i % 5, 10 * i, 10 * i + 5))
    size = os.path.getsize(os.path.join(d, "big.nd"))
    with open(os.path.join(d, "big.nd"), "rb") as f:
        head = sum(len(next(f)) for _ in range(65536))
    st, out = run_on_pty("spans2stacks --progress -q big.nd >/dev/null", d)
    lines = screen_of(out).lines
    bad = [t for t in lines if LINE.match(t).group(6) is None or
           not head * 100 // size <= int(LINE.match(t).group(6)) <= 100]
    print("spans2stacks file: exit %d, %s lines, %s" % (
        st, "some" if lines else "no", "percentages of its bytes"
        if lines and not bad else "wrong: %r" % (bad or lines)))
    st, out = run_on_pty("cat big.nd | spans2stacks --progress -q "
                         ">/dev/null", d)
    lines = screen_of(out).lines
    print("spans2stacks pipe: exit %d, %s lines, %s" % (
        st, "some" if lines else "no", "no percentage" if lines and
        all(LINE.match(t).group(6) is None for t in lines) else
        "wrong: %r" % lines))
    subprocess.run(["rm", "-rf", d])


main()

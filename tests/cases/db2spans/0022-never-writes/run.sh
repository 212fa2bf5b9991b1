# db2spans never creates or changes a file beside the database: as root in
# a writable directory, and as the user nobody (setpriv) in a directory it
# cannot write, for a rollback-journal DB, a WAL DB checkpointed clean, and
# a WAL DB with two spans only in its -wal (with and without -shm).
sql=../0015-locked-read-only/t.sql
d=$(mktemp -d) || exit 1
o=$(mktemp) || exit 1
# The copy of a database with a -wal goes to TMPDIR, and goes away.
TMPDIR=$(mktemp -d) && chmod 1777 "$TMPDIR" && export TMPDIR || exit 1
trap 'chmod -R u+w "$d"; rm -rf "$d" "$o" "$TMPDIR"' EXIT
for who in root nobody; do
	rm -rf "$d"/*
	sqlite3 "$d/journal.db" < $sql
	sqlite3 "$d/clean.db" < $sql
	sqlite3 "$d/clean.db" 'PRAGMA journal_mode=WAL;' >/dev/null
	python3 mkwal.py "$d/wal.db" $sql keep
	python3 mkwal.py "$d/noshm.db" $sql noshm
	chmod 755 "$d"
	as=
	if [ $who = nobody ]; then
		chmod 444 "$d"/*
		chmod 555 "$d"
		as="setpriv --reuid=65534 --regid=65534 --clear-groups"
	fi
	before=$(cd "$d" && ls -l --time-style=+ && cat * | cksum)
	for db in journal clean wal noshm; do
		$as db2spans "$d/$db.db" >"$o"
		s=$?
		echo "$who $db: $(wc -l <"$o") spans, exit $s"
	done
	after=$(cd "$d" && ls -l --time-style=+ && cat * | cksum)
	[ "$before" = "$after" ] && echo "$who: nothing beside the databases changed"
	chmod 755 "$d"
done
[ -z "$(ls -A "$TMPDIR")" ] && echo "no temporary file left"

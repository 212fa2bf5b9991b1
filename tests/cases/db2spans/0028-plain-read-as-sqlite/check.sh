# db2spans reads a plain table from the file itself: each database of
# shapes.py gives the same spans, messages and exit status as its twin in
# WAL mode with a frame not yet checkpointed, which SQLite alone reads,
# and db2spans -v says it read the rows the manual says it reads itself
# (the want of shapes.py).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
python3 ./shapes.py "$d" || exit 1
for s in "$d"/*/; do
	s=${s%/}
	for o in "" "--tables cann" "--strict"; do
		for v in file wal; do
			(cd "$s/$v" && db2spans --no-progress $o x.db \
			    >../$v.out 2>../$v.err; echo "exit $?" >>../$v.err)
		done
		if cmp -s "$s/file.out" "$s/wal.out" &&
		    cmp -s "$s/file.err" "$s/wal.err"; then
			r=same
		else
			r=DIFFERENT
		fi
		echo "${s##*/} ${o:-(default)}: $r"
	done
	(cd "$s/file" && db2spans -v --no-progress x.db 2>&1 >/dev/null) |
	    sed -n 's/^db2spans: x\.db: PYTORCH_API: /PYTORCH_API: /p' >"$s/got"
	if cmp -s "$s/got" "$s/want"; then
		echo "${s##*/}: read as the manual says"
	else
		echo "${s##*/}: $(cat "$s/got") (want $(cat "$s/want"))"
	fi
done

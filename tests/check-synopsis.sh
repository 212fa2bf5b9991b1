#!/bin/sh
# check-synopsis.sh PROGRAM: the man page's SYNOPSIS, rendered by mandoc,
# must equal the usage of 'PROGRAM --help' (the idea of git's t0450).
# Exits 0 when they match.
#
# A program may have several synopsis forms (flame2html --diff ...).  In
# --help they are the 'usage: ' line and the indented lines after it that
# start with the program's name; an indented line that does not is the
# wrapped rest of the form before.  In the man page each form is one
# '.Nm' block.  Every form is compared, in order, with runs of blanks
# squeezed to one space.  $MAN names another man page (for testing).

b=$1
p=$(basename "$b")
top=$(cd "$(dirname "$0")/.." && pwd)
man=${MAN:-"$top/man/$p.1"}
if [ ! -f "$man" ]; then
	echo "FAIL synopsis $p: no man page man/$p.1"
	exit 1
fi
# forms NAME: reads lines and prints one line per form.
forms() {
	awk -v name="$1" '
	function flush() { if (cur != "") print cur; cur = "" }
	{
		gsub(/[ \t]+/, " ")
		sub(/^ /, ""); sub(/ $/, "")
		if ($0 == "")
			next
		if ($1 == name)
			flush()
		cur = cur == "" ? $0 : cur " " $0
	}
	END { flush() }'
}
help=$("$b" --help 2>/dev/null | awk '
	started && !/^[ \t]/ { exit }
	started { print; next }
	/^usage: / { sub(/^usage: /, ""); print; started = 1 }' | forms "$p")
syn=$(MANWIDTH=1000 mandoc -Tascii "$man" 2>/dev/null | sed "s/.\x08//g" |
    sed -n '/^SYNOPSIS/,/^[A-Z]/p' | sed '1d;$d' | forms "$p")
if [ -z "$help" ] || [ "$help" != "$syn" ]; then
	echo "FAIL synopsis $p"
	echo "$help" | sed 's/^/  --help: /'
	echo "$syn" | sed 's/^/  man:    /'
	exit 1
fi
exit 0

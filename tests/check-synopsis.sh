#!/bin/sh
# check-synopsis.sh PROGRAM: the man page's SYNOPSIS, rendered by mandoc
# and joined into one line, must equal the usage line of 'PROGRAM --help'
# (after "usage: ").  Exits 0 when they match.

b=$1
p=$(basename "$b")
top=$(cd "$(dirname "$0")/.." && pwd)
man="$top/man/$p.1"
if [ ! -f "$man" ]; then
	echo "FAIL synopsis $p: no man page man/$p.1"
	exit 1
fi
help=$("$b" --help 2>/dev/null | sed -n 's/^usage: //p' | head -n 1 |
    tr -s ' \t' '  ')
syn=$(MANWIDTH=1000 mandoc -Tascii "$man" 2>/dev/null | sed "s/.\x08//g" |
    sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | sed '1d;$d' |
    tr '\n' ' ' | tr -s ' \t' '  ' | sed 's/^ //; s/ $//')
if [ "$help" != "$syn" ]; then
	echo "FAIL synopsis $p"
	echo "  --help: $help"
	echo "  man:    $syn"
	exit 1
fi
exit 0

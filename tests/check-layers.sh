#!/bin/sh
# check-layers.sh: the files of each multi-file program (cmd/<prog>/) share
# no mutable state and do not depend on each other in a circle.
#
#   globals    no file declares an extern object that is not const, and no
#              .c file defines a file-scope object that is neither static
#              nor const (state travels in structs passed as arguments)
#   calls      the graph "a.c uses a function or table defined in b.c" has
#              no cycle (main.c is not a library of the others)
#   includes   the graph of #include "..." between the program's files has
#              no cycle; nor has libcommon's (which includes no program's)
#
# C is read as text: comments and string literals are dropped first, a
# function definition is a name at column 0 followed by '(' (KNF), and it
# is exported when the line before it does not start with "static".
# usage: tests/check-layers.sh [cmd/prog ...]; ends with 'N passed, N failed'.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
libs=
[ $# -eq 0 ] && set -- cmd/*/ && libs=libcommon/
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

# strip FILE: the file without comments, string and character literals.
strip() {
	awk '
	{
		line = $0; out = ""
		while (line != "") {
			if (incom) {
				i = index(line, "*/")
				if (i == 0) { line = ""; break }
				line = substr(line, i + 2); incom = 0
				continue
			}
			if (match(line, /\/\*|"|\047|\/\//) == 0) {
				out = out line; break
			}
			out = out substr(line, 1, RSTART - 1)
			tok = substr(line, RSTART, RLENGTH)
			line = substr(line, RSTART + RLENGTH)
			if (tok == "/*") incom = 1
			else if (tok == "//") line = ""
			else {
				# a literal: skip to its closing quote
				q = tok; s = ""
				while (line != "") {
					c = substr(line, 1, 1)
					line = substr(line, 2)
					if (c == "\\") { line = substr(line, 2); continue }
					if (c == q) break
				}
				out = out q q
			}
		}
		print out
	}' "$1"
}

# globals DIR: extern objects that are not const, and file-scope objects
# of .c files that are neither static nor const.
globals() {
	for f in "$1"*.c "$1"*.h; do
		[ -f "$f" ] || continue
		strip "$f" | awk -v f="$f" '
		function opens(s,  t) { t = s; return gsub(/\{/, "", t) }
		function closes(s,  t) { t = s; return gsub(/\}/, "", t) }
		depth == 0 && /^extern / && !/\(/ {
			d = $0
			sub(/^extern /, "", d)
			if (d ~ /\*/) { if (d !~ /\*[ \t]*const[ \t]+[A-Za-z_]/)
				print f ": " $0 }
			else if (d !~ /^const /)
				print f ": " $0
		}
		depth == 0 && f ~ /\.c$/ && /^[A-Za-z_]/ &&
		    !/^(static|typedef|extern|enum|union|struct [A-Za-z_0-9]+ *\{?$)/ &&
		    !/^(struct|enum|union) [A-Za-z_0-9]+ *\{/ &&
		    (/=/ || /;[ \t]*$/) && !/^[^=]*\(/ && !/^const / {
			print f ": " $0
		}
		{ depth += opens($0) - closes($0) }'
	done
}

# calls DIR: pairs "user definer" of the program's .c files.
calls() {
	for f in "$1"*.c; do
		strip "$f" >"$tmp/$(basename "$f").s"
	done
	for f in "$1"*.c; do
		b=$(basename "$f")
		awk '
		function opens(s,  t) { t = s; return gsub(/\{/, "", t) }
		function closes(s,  t) { t = s; return gsub(/\}/, "", t) }
		depth == 0 && /^[a-z_][a-z0-9_]*\(/ && prev !~ /^static/ {
			n = $0; sub(/\(.*/, "", n); if (n != "main") print n
		}
		depth == 0 && /^const [^(]*=/ {
			n = $0; sub(/[ \t]*(\[[^]]*\])?[ \t]*=.*/, "", n)
			sub(/.*[ *]/, "", n); print n
		}
		{ depth += opens($0) - closes($0); if ($0 != "") prev = $0 }
		' "$tmp/$b.s" | while read -r sym; do
			for g in "$1"*.c; do
				u=$(basename "$g")
				[ "$u" = "$b" ] && continue
				grep -qw -- "$sym" "$tmp/$u.s" && echo "$u $b"
			done
		done
	done | sort -u
}

# includes DIR: pairs "includer included" among the program's files.
includes() {
	for f in "$1"*.c "$1"*.h; do
		[ -f "$f" ] || continue
		sed -n 's/^#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" |
		    while read -r h; do
			[ -f "$1$h" ] && echo "$(basename "$f") $h"
		done
	done | sort -u
}

# acyclic NAME PAIRS-FILE: tsort finds a loop, or none.
acyclic() {
	if [ ! -s "$2" ]; then ok; return; fi
	if tsort "$2" >/dev/null 2>"$tmp/loop"; then ok; return; fi
	bad "$1: cycle: $(grep -v 'input contains a loop' "$tmp/loop" |
	    sed 's/^tsort: //' | tr '\n' ' ')"
}

for d in "$@"; do
	d=${d%/}/
	[ -d "$d" ] || continue
	p=$(basename "$d")
	globals "$d" >"$tmp/g"
	if [ -s "$tmp/g" ]; then
		bad "$p: mutable state shared between files:"
		sed 's/^/	/' "$tmp/g"
	else
		ok
	fi
	calls "$d" >"$tmp/c"
	acyclic "$p calls" "$tmp/c"
	includes "$d" >"$tmp/i"
	acyclic "$p includes" "$tmp/i"
done
for d in $libs; do
	includes "$d" >"$tmp/i"
	acyclic "libcommon includes" "$tmp/i"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

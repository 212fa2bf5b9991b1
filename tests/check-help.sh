#!/bin/sh
# check-help.sh PROGRAM: 'PROGRAM --help' lists every option of the man
# page's option list (each '.It Fl ...' item), with all its forms, short
# and long, on one line followed by its meaning (at least two words), as
# jq, rg and mlr do.  Exits 0 when it does.  $MAN names another man page.

b=$1
p=$(basename "$b")
top=$(cd "$(dirname "$0")/.." && pwd)
man=${MAN:-"$top/man/$p.1"}
help=$("$b" --help 2>/dev/null | sed 1d)
fail=0
# One line per item: its forms, "-k --key" (the "Fl x" words of the item).
items=$(awk '/^\.It Fl /{
	out = ""
	for (i = 1; i < NF; i++)
		if ($i == "Fl") {
			f = $(i + 1)
			gsub(/\\-/, "-", f); gsub(/[,;]$/, "", f)
			out = out " " (f ~ /^-/ ? "-" f : "-" f)
		}
	print substr(out, 2)
}' "$man")
[ -n "$items" ] || { echo "FAIL help $p: no option list in $man"; exit 1; }
echo "$items" | while read -r forms; do
	# "--no-progress --progress" items are two options: check each.
	case $forms in
	--*' '--*) set -- $forms ;;
	*) set -- "$forms" ;;
	esac
	for one in "$@"; do
		line=$(printf '%s\n' "$help" | awk -v f="$one" '
		BEGIN { n = split(f, w, " ") }
		{
			ok = 1
			for (i = 1; i <= n; i++) {
				found = 0
				for (j = 1; j <= NF; j++) {
					t = $j; sub(/,$/, "", t)
					if (t == w[i]) found = 1
				}
				if (!found) ok = 0
			}
			if (ok) { print; exit }
		}')
		# The meaning: two words or more after the forms and argument.
		words=$(printf '%s\n' "$line" | sed 's/^ *-[^ ]*\(, --[^ ]*\)\{0,1\}\( [A-Z][A-Z,=.\[\]]*\)\{0,1\}  *//' | wc -w)
		if [ -z "$line" ] || [ "$words" -lt 2 ]; then
			echo "FAIL help $p: '$one' is not listed with its meaning"
			echo 1 >"${TMPDIR:-/tmp}/check-help.$$"
		fi
	done
done
if [ -f "${TMPDIR:-/tmp}/check-help.$$" ]; then
	rm -f "${TMPDIR:-/tmp}/check-help.$$"
	exit 1
fi
exit 0

# same-stacks.sh, sourced by cases: same_stacks IN SORTED T runs
# spans2stacks on the spans IN in their order and with -s on the same
# spans SORTED by start, and says whether the stacks are the same
# (T: the scratch directory for the two outputs).
same_stacks() {
	spans2stacks -q "$1" >"$3/a" || echo "status $?"
	spans2stacks -q -s "$2" >"$3/b" || echo "status $?"
	wc -l <"$1"
	if cmp -s "$3/a" "$3/b"; then
		echo "same stacks: $(wc -l <"$3/a")"
	else
		echo "stacks differ"
	fi
}

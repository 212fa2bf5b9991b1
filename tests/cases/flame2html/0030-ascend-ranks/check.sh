# Two generated ranks: the --diff page has the merged view, and recdiff
# pairs the stacks both ranks have (counted with and without time on
# both sides) and the ones only one has.
for r in 0 1; do
	python3 "$SHARED"/fixtures/ascend/make_ascend_db.py -q -o r$r.db \
	    --rows 500 --seed $r --rank $r &&
	    db2spans --label rank$r r$r.db 2>/dev/null |
	    spans2stacks 2>/dev/null > r$r.st
done
flame2html -d r0.st r1.st | grep -o '"view":"merged"'
recdiff r0.st r1.st | jq -s -c '[map(select(.only == null)) | length, (map(select(.only == null and .total_ns > 0 and .total_ns_base > 0)) | length), (map(select(.only != null)) | length)]'
rm -f r0.db r1.db r0.st r1.st

# Counter values in every form JSON allows are read as strtod() reads
# them (the correctly rounded double): plain integers, decimals like the
# profilers' "65536.0", -0, 2^53 and the integers past it, more digits
# than a double holds, long fractions and exponents, digit runs around
# eight.  Two dispatches carry the same values, the second read by the
# path for records of a known layout: MIN and MAX over them are the
# value itself; check.py compares the bits of each one with Python's
# float() of the text.
python3 check.py gen >in.nd
metric-eval $(python3 check.py args) in.nd >out
echo "exit $?"
python3 check.py cmp in.nd out
rm -f in.nd out

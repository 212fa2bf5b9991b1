#!/bin/sh
# pin.sh WANT: compares the metric records on stdin with the independently
# derived values in WANT (one object per metric row, from derive.py), to
# 1e-9 relative; prints "ID COLUMN: ok" or what differs, one line per cell.
jq -rn --slurpfile want "$1" '
  def key: .metric_id + "|" + (.Kernel_Name // "");
  def same($v; $g):
    if ($v | type) == "number" and ($g | type) == "number"
    then (($v - $g) | fabs) <= 1e-9 * ([($v | fabs), ($g | fabs)] | max)
    else $v == $g end;
  ([$want[] | {key: key, value: true}] | from_entries) as $ids
  | ([inputs | select($ids[key])] | map({key: key, value: .})
     | from_entries) as $got
  | $want[] as $w
  | $got[$w | key] as $g
  | $w | to_entries[] | select(.key != "metric_id" and .key != "Kernel_Name")
  | "\($w.metric_id) \(.key): " +
    (if $g == null then "no such record"
     elif same(.value; $g[.key]) then "ok"
     else "want \(.value | tojson) got \($g[.key] | tojson)" end)'

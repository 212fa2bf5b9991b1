#!/bin/sh
# expout.sh WANT: the expout of a pin.sh case: "ID COLUMN: ok" for every
# cell of the derived values (what pin.sh prints when all agree).
jq -r '.metric_id as $id | to_entries[]
  | select(.key != "metric_id" and .key != "Kernel_Name")
  | "\($id) \(.key): ok"' "$1"

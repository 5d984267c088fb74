#!/bin/sh
# Writes the context-insensitive constructors (Record, Merge, MergeStatic: every tuple, all
# contexts 0) into a facts directory, for drivers that declare `C 1` and `HC 1`, such as
# tests/data/pointsto/insens.datalog.
#   pointsto/tools/insens_contexts.sh FACTS_DIR
set -eu
dir=${1:?usage: insens_contexts.sh FACTS_DIR}
# bits of a domain of N elements, as the .tuples headers name them: ceil(log2 N), at least 1
bits() {
  n=$(wc -l < "$dir/$1.map")
  b=1
  while [ $((1 << b)) -lt "$n" ]; do b=$((b + 1)); done
  echo "$b"
}
h=$(bits H)
i=$(bits I)
m=$(bits M)
printf '# H0:%s C0:1 HC0:1\n* 0 0\n' "$h" > "$dir/Record.tuples"
printf '# H0:%s HC0:1 I0:%s M0:%s C0:1 C1:1\n* 0 * * 0 0\n' "$h" "$i" "$m" > "$dir/Merge.tuples"
printf '# I0:%s M0:%s C0:1 C1:1\n* * 0 0\n' "$i" "$m" > "$dir/MergeStatic.tuples"

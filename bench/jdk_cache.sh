#!/usr/bin/env bash
# The JDK once (issue 35): `refract analyze --reflection none` (insens unless --context says
# otherwise) without the cache, cold (the cache cleared first) with the entry built first
# (the JDK's start-up part solved alone, then the program from it) and beside (a second process
# solves the JDK's part into the cache while the run solves without it), and warm (from the
# entry the cold runs left). Per program: the median seconds of --runs runs without the cache
# and warm, each cold run's seconds and the second process's, the ratios to no cache, BDD nodes
# produced, and whether every cached run's call graph is byte for byte the uncached one's.
# Not a test: it installs packages and takes minutes per program. Runs one after another (two
# at once on 2 cores would distort the seconds).
#
# `example` is examples/pointsto/Example.java (a dozen classes), compiled here with javac 17;
# the others are the Debian programs of bench/lib.sh.
#
# Usage: bench/jdk_cache.sh [--programs "example antlr"] [--context FLAVOUR] [--runs N]
#                          [--build DIR] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

programs="example antlr"
context=insens
runs=3
build=bench/work/build-release
out=bench/work/jdk-cache
while [ $# -gt 0 ]; do
  case "$1" in
    --programs) programs="$2"; shift 2 ;;
    --context) context="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

prepare_analyze_bench "$build"
mkdir -p "$out"
out=$(cd "$out" && pwd)
cache="$out/cache"

# class path and main class of PROGRAM
program_class_path() {
  if [ "$1" = example ]; then
    mkdir -p "$out/example-classes"
    "$jdk/bin/javac" --release 17 -d "$out/example-classes" examples/pointsto/Example.java
    echo "$out/example-classes"
  else
    class_path_of "$1"
  fi
}
program_main() { if [ "$1" = example ]; then echo ex.Example; else main_of "$1"; fi; }

# analyze PROGRAM RUN_DIR [OPTIONS...]: one run; its seconds (wall clock) into RUN_DIR/seconds
analyze() {
  local program=$1 dir=$2
  shift 2
  rm -rf "$dir"
  mkdir -p "$dir"
  local start end
  start=$(date +%s.%N)
  "$refract" analyze --jdk "$jdk" --classpath "$cp" --main "$main" --context "$context" \
    --reflection none --out "$dir/out" --quiet "$@" 2> "$dir/log"
  end=$(date +%s.%N)
  awk "BEGIN {print $end - $start}" > "$dir/seconds"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
stat_of() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }

printf '%-9s %8s %12s %12s %12s %8s %8s %8s %8s %12s %12s %s\n' program "none s" "cold first" \
  "cold beside" "(building)" "warm s" "first/no" "beside/no" "warm/no" "Mnodes none" "Mnodes warm" \
  identical
for program in $programs; do
  cp=$(program_class_path "$program")
  main=$(program_main "$program")
  for run in $(seq "$runs"); do analyze "$program" "$out/$program/none-$run" --no-cache; done
  # A missing entry made first (then the run from it) and beside (a second process), each from
  # an empty cache; the warm runs start from the entry the second left.
  for build in first beside; do
    "$refract" cache clear --cache-dir "$cache" > /dev/null
    analyze "$program" "$out/$program/cold-$build" --cache-dir "$cache" --cache-build "$build"
  done
  for run in $(seq "$runs"); do analyze "$program" "$out/$program/warm-$run" --cache-dir "$cache"; done
  none=$(cat "$out/$program"/none-*/seconds | median)
  warm=$(cat "$out/$program"/warm-*/seconds | median)
  first=$(cat "$out/$program/cold-first/seconds")
  beside=$(cat "$out/$program/cold-beside/seconds")
  building=$(stat_of "$out/$program/cold-beside/out/stats.json" "d['jdk_cache']['build_seconds']")
  status=$(stat_of "$out/$program/warm-1/out/stats.json" "d['jdk_cache']['status'] + ', ' + d['jdk_cache']['read']")
  nodes_none=$(stat_of "$out/$program/none-1/out/stats.json" "round(d['bdd_nodes_produced'] / 1e6, 1)")
  nodes_warm=$(stat_of "$out/$program/warm-1/out/stats.json" "round(d['bdd_nodes_produced'] / 1e6, 1)")
  identical=yes
  for run in cold-first cold-beside $(seq -f 'warm-%g' "$runs"); do
    for file in call-edges.tsv reachable-methods.txt; do
      cmp -s "$out/$program/none-1/out/$file" "$out/$program/$run/out/$file" || identical=NO
    done
  done
  printf '%-9s %8.1f %12.1f %12.1f %12.1f %8.1f %8.2f %8.2f %8.2f %12s %12s %s (warm: %s)\n' \
    "$program" "$none" "$first" "$beside" "$building" "$warm" \
    "$(awk "BEGIN {print $first / $none}")" "$(awk "BEGIN {print $beside / $none}")" \
    "$(awk "BEGIN {print $warm / $none}")" "$nodes_none" "$nodes_warm" "$identical" "$status"
done

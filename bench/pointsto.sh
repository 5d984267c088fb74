#!/usr/bin/env bash
# Benchmark of `refract analyze` (issue 5, item 3): real programs from Debian packages with the
# JDK 17 jmods, under several context flavours. Prints one row per program and flavour:
# seconds, peak RSS, peak BDD nodes, contexts, reachable methods, call edges, polymorphic call
# sites and casts that may fail. A run that exceeds --timeout (refract's --time-limit) prints
# "timeout", one whose node table reached refract's memory budget (80% of physical memory)
# prints "memory"; after the table come where each stopped and the rules its profile blames. When a
# sensitive run and the insensitive run of a program both finish, the script checks that the
# sensitive call edges and points-to pairs (VarPointsToI, through bench/subset.datalog) are
# among the insensitive ones (the invariant of tests/pointsto/flavours_test.cpp on a real
# program), prints the counts, and SUBSET-VIOLATION when one is not zero.
# Each run also leaves OUT/PROGRAM/FLAVOUR.rules.json, the solver's per-rule profile, and
# OUT/PROGRAM/FLAVOUR.log, its progress. Not a test: it installs packages and takes hours.
#
# Usage: bench/pointsto.sh [--programs "xalan checkstyle antlr hsqldb"]
#                          [--flavours "insens 1-call 2-obj+H 2-type+H 3-obj+2H cloning"]
#                          [--timeout S] [--build DIR] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

programs="xalan checkstyle antlr hsqldb"
flavours="insens 1-call 2-obj+H 2-type+H 3-obj+2H cloning"
timeout_s=3600
build=build-bench
out_root=bench/work/pointsto
while [ $# -gt 0 ]; do
  case "$1" in
    --programs) programs="$2"; shift 2 ;;
    --flavours) flavours="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --out) out_root="$2"; shift 2 ;;
    *) sed -n '2,16p' "$0" >&2; exit 2 ;;
  esac
done

. bench/lib.sh
prepare_analyze_bench "$build"

# A value of stats.json (numbers only), or "-".
stat() { grep -o "\"$2\": [0-9.e+-]*" "$1" 2>/dev/null | head -1 | awk '{print $2}' || true; }

# A stopped run has no stats.json: its peak nodes come from the profile it still wrote.
stat_if_stopped() {
  if [ "$status" = timeout ] || [ "$status" = memory ]; then
    stat "$out.rules.json" peak_used_nodes
  fi
}

# Points-to pairs of run $1 (a sensitive flavour's OUT) missing from run $2 (insens), through
# bench/subset.datalog on the two runs' VarPointsToI.bdd: prints the count, 0 when the subset
# invariant holds.
points_to_not_in() {
  local check="$1.subset"
  rm -rf "$check" && mkdir -p "$check"
  grep -E '^(V|H) [0-9]+' "$1/facts/facts.datalog" | awk '{print $1, $2}' >"$check/domains.datalog"
  cp bench/subset.datalog "$check/"
  cp "$1/VarPointsToI.bdd" "$check/sensitive.bdd"
  cp "$2/VarPointsToI.bdd" "$check/insensitive.bdd"
  "$refract" solve "$check/subset.datalog" --quiet | awk -F'\t' '$1 == "NotInInsensitive" {print $2}'
}

# Where a stopped run was, to compare with the sweeps a finished run of the flavour needed.
progress_of() {
  local sweep vpt
  read -r sweep vpt <<<"$(run_progress "$1")"
  echo "stopped in sweep $sweep with $vpt VarPointsTo tuples"
}

rows=() subset=() stopped=()
for program in $programs; do
  for flavour in $flavours; do
    out="$out_root/$program/$flavour"
    rm -rf "$out"
    mkdir -p "$out"
    echo "[pointsto.sh] $program $flavour" >&2
    rc=0
    # Progress goes to a log: the last lines tell where a timed-out run was.
    # --time-limit stops the solver between rule evaluations, or inside one at a garbage
    # collection, and still writes the profile; timeout is the backstop for an operation that
    # runs on without collecting (3-obj+2H's Merge with consecutive context bits did).
    /usr/bin/time -f 'TIME %e %M' -o "$out.time" timeout "$((timeout_s + 1800))" "$refract" \
      analyze --no-cache --reflection none --classpath "$(class_path_of "$program")" --jdk "$jdk" \
      --main "$(main_of "$program")" --context "$flavour" --out "$out" \
      --time-limit "$timeout_s" --dump-bdd VarPointsToI --rule-stats "$out.rules.json" \
      >"$out.log" 2>&1 || rc=$?
    seconds=$(awk '/^TIME/ {print $2}' "$out.time" 2>/dev/null || echo -)
    rss=$(awk '/^TIME/ {printf "%d", $3 / 1024}' "$out.time" 2>/dev/null || echo -)
    s="$out/stats.json"
    if [ "$rc" -eq 0 ]; then
      status=ok
    elif [ "$rc" -eq 4 ] || [ "$rc" -eq 124 ]; then
      status="timeout"
      stopped+=("$program $flavour: $(progress_of "$out")")
      stopped+=("$(python3 bench/top_rules.py "$out.rules.json" 2>/dev/null || true)")
    elif [ "$rc" -eq 1 ] && grep -q "node table exhausted" "$out.log"; then
      status="memory"
      exhausted=$(grep -o "node table exhausted.*" "$out.log" | head -1)
      stopped+=("$program $flavour: $(progress_of "$out"): $exhausted")
      stopped+=("$(python3 bench/top_rules.py "$out.rules.json" 2>/dev/null || true)")
    else
      status="exit$rc"
      tail -3 "$out.log" | sed "s/^/[pointsto.sh] $program $flavour: /" >&2
    fi
    insens="$out_root/$program/insens"
    if [ "$status" = ok ] && [ "$flavour" != insens ] && [ -f "$insens/call-edges.tsv" ]; then
      extra=$(comm -23 "$out/call-edges.tsv" "$insens/call-edges.tsv" | wc -l)
      extra_pts=$(points_to_not_in "$out" "$insens")
      subset+=("$program $flavour: $extra call edges and $extra_pts points-to pairs insens lacks")
      if [ "$extra" -ne 0 ] || [ "$extra_pts" != 0 ]; then
        echo "SUBSET-VIOLATION: ${subset[-1]}" | tee /dev/stderr
      fi
    fi
    rows+=("$(printf '%-10s %-9s %-7s %9s %8s %11s %12s %8s %9s %8s %8s' "$program" "$flavour" \
      "$status" "$seconds" "$rss" "$(stat "$s" peak_bdd_nodes || true)$(stat_if_stopped)" \
      "$(stat "$s" contexts)" \
      "$(stat "$s" reachable_methods)" "$(stat "$s" call_edges)" \
      "$(stat "$s" polymorphic_call_sites)" "$(stat "$s" may_fail_casts)")")
  done
done

echo "refract analyze with the JDK 17 jmods ($(date +%F), $(nproc) cores, timeout $timeout_s s," \
  "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
printf '%-10s %-9s %-7s %9s %8s %11s %12s %8s %9s %8s %8s\n' program flavour status seconds \
  peakMiB peak-nodes contexts methods edges poly casts
for r in "${rows[@]}"; do echo "$r"; done
if [ ${#subset[@]} -gt 0 ]; then
  echo; echo "subset invariant (projected over contexts, against insens):"
  for r in "${subset[@]}"; do echo "  $r"; done
fi
if [ ${#stopped[@]} -gt 0 ]; then
  echo; echo "runs stopped at the time limit or the memory budget, where, and the rules their" \
    "profile blames:"
  for r in "${stopped[@]}"; do echo "  $r"; done
fi

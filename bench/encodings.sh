#!/usr/bin/env bash
# Benchmark of domain encodings side by side: `refract analyze` of real programs (Debian
# packages, JDK 17 jmods) under each variant of --variants, a list of extra analyze options
# separated by `|` whose first entry is the baseline. Each round starts every variant at once,
# one per core (give no more variants than cores), so that all of a round share the machine
# alike; --runs rounds. Prints per program, flavour and variant: the median of total and solve
# seconds, the peak nodes and peak RSS of the median run, and total seconds as a ratio to the
# baseline's median (below 1: faster). A run stopped by --timeout prints `timeout`, the sweep
# it reached and the VarPointsTo tuples it had: compare progress then, not seconds.
# A variant that starts with `bin=PATH` runs that executable instead of this checkout's build;
# --baseline REV builds git revision REV and puts it first (`bin=...` with no options), against
# this checkout's build with no options unless --variants says otherwise.
# Not a test: it installs packages and takes a while.
#
# Usage: bench/encodings.sh [--programs "antlr"] [--flavours "insens"] [--runs N]
#                           [--timeout S] [--build DIR] [--out DIR]
#                           [--variants "--heap-numbering first-seen|--heap-numbering by-type"]
#                           [--baseline REV]
set -euo pipefail
cd "$(dirname "$0")/.."

programs="antlr"
flavours="insens"
runs=3
timeout_s=1800
build=build-bench
out_root=bench/work/encodings
variants="--heap-numbering first-seen|--heap-numbering by-type"
variants_given=0
baseline_rev=
while [ $# -gt 0 ]; do
  case "$1" in
    --programs) programs="$2"; shift 2 ;;
    --flavours) flavours="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --out) out_root="$2"; shift 2 ;;
    --variants) variants="$2" variants_given=1; shift 2 ;;
    --baseline) baseline_rev="$2"; shift 2 ;;
    *) sed -n '2,18p' "$0" >&2; exit 2 ;;
  esac
done
. bench/lib.sh
prepare_analyze_bench "$build"
if [ -n "$baseline_rev" ]; then
  [ "$variants_given" = 1 ] || variants=""
  variants="bin=$(build_revision "$baseline_rev")|$variants"
fi
IFS='|' read -r -a variant_list <<<"$variants"
# A trailing `|` (the empty variant last) is a variant too.
[[ "$variants" == *"|" ]] && variant_list+=("")

# run_one OUT PROGRAM FLAVOUR OPTIONS...: one analysis; leaves OUT.time, OUT.log, OUT.rules.json
# and OUT.rc.
run_one() {
  local out="$1" program="$2" flavour="$3"
  shift 3
  local binary="$refract"
  if [[ "${1:-}" == bin=* ]]; then
    binary="${1#bin=}"
    shift
  fi
  rm -rf "$out" && mkdir -p "$out"
  local rc=0
  /usr/bin/time -f 'TIME %e %M' -o "$out.time" timeout "$((timeout_s + 1800))" "$binary" \
    analyze --no-cache --reflection none --classpath "$(class_path_of "$program")" --jdk "$jdk" \
    --main "$(main_of "$program")" --context "$flavour" --out "$out" \
    --time-limit "$timeout_s" --rule-stats "$out.rules.json" "$@" >"$out.log" 2>&1 || rc=$?
  echo "$rc" >"$out.rc"
}

# How the table names a variant: a revision's build by its short hash, this build's own.
variant_label() {
  local v="$1" binary rest=""
  [[ "$v" == bin=* ]] || { echo "${v:-(this build)}"; return; }
  binary="${v%% *}" && binary="${binary#bin=}"
  [[ "$v" == *" "* ]] && rest=" ${v#* }"
  if [[ "$binary" =~ revisions/([0-9a-f]{7}) ]]; then
    echo "${BASH_REMATCH[1]}$rest"
  else
    echo "$binary$rest"
  fi
}

# One line per run: rc total solve peak_nodes rss_mib sweep varpointsto (sweep "-" for a run
# that finished).
summarise_run() {
  local fields sweep vpt
  fields=$(python3 - "$1" <<'PY'
import json, sys
out = sys.argv[1]
rc = int(open(out + ".rc").read())
time = open(out + ".time").read().split()
rss = int(time[time.index("TIME") + 2]) // 1024 if "TIME" in time else 0
try:
    profile = json.load(open(out + ".rules.json"))
except (OSError, ValueError):
    profile = {}
solve = profile.get("seconds", 0)
nodes = profile.get("bdd", {}).get("peak_used_nodes", 0)
total = float(time[time.index("TIME") + 1]) if "TIME" in time else 0
print(rc, total, solve, nodes, rss)
PY
)
  read -r sweep vpt <<<"$(run_progress "$1")"
  [ "${fields%% *}" = 0 ] && sweep=-
  echo "$fields $sweep $vpt"
}

echo "refract analyze with the JDK 17 jmods ($(date +%F), $(nproc) cores, $runs rounds," \
  "timeout $timeout_s s)"
printf '%-10s %-9s %-36s %4s %9s %9s %11s %8s %8s %6s %12s\n' program flavour variant runs \
  "total s" "solve s" "peak nodes" "RSS MiB" ratio sweep VarPointsTo
for program in $programs; do
  for flavour in $flavours; do
    dir="$out_root/$program/$flavour"
    for ((r = 1; r <= runs; r++)); do
      echo "[encodings.sh] $program $flavour round $r of $runs" >&2
      pids=()
      for v in "${!variant_list[@]}"; do
        # Word splitting of the variant is wanted: it is a list of options.
        # shellcheck disable=SC2086
        run_one "$dir/v$v.r$r" "$program" "$flavour" ${variant_list[$v]} &
        pids+=($!)
      done
      wait "${pids[@]}"
    done
    baseline=
    for v in "${!variant_list[@]}"; do
      rows=$(for ((r = 1; r <= runs; r++)); do summarise_run "$dir/v$v.r$r"; done)
      # The median run by total seconds (the lower middle for an even count).
      median=$(sort -k2,2g <<<"$rows" | sed -n "$(((runs + 1) / 2))p")
      read -r rc total solve nodes rss sweep vpt <<<"$median"
      [ -z "$baseline" ] && baseline="$total"
      status=$(awk -v t="$total" -v b="$baseline" 'BEGIN {printf "%.3f", t / b}')
      if [ "$rc" = 4 ] || [ "$rc" = 124 ]; then
        status=timeout
      elif [ "$rc" != 0 ]; then
        status="exit$rc"
      fi
      printf '%-10s %-9s %-36s %4s %9.1f %9.1f %11s %8s %8s %6s %12s\n' "$program" "$flavour" \
        "$(variant_label "${variant_list[$v]}")" "$runs" "$total" "$solve" "$nodes" "$rss" \
        "$status" "$sweep" "$vpt"
    done
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

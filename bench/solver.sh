#!/usr/bin/env bash
# Benchmark of the Datalog engine (issue 3, items 5 and 6): `refract solve` on synthetic
# context-insensitive Andersen points-to inputs (bench/gen_pointsto.py) of 10^3 .. 10^6
# allocation sites and on the bddbddb-shaped preset, each under three variable orders, with
# gringo solving the same program on explicit tuples (bench/to_gringo.py) as a peer. Prints one
# table row per (input, order) and one per gringo run; checks that every run agrees on |vP| and
# |hP| and prints MISMATCH (and exits 1) if not. Not a test: it takes about 25 minutes.
#
# Usage: bench/solver.sh [--runs N] [--big-runs N] [--big-orders "NAME..."] [--sizes "..."]
#                        [--build DIR] [--refract-timeout S] [--gringo-timeout S]
#                        [--skip-after S] [--gringo-mem-gb G] [--no-gringo] [--no-preset]
#   --runs N             timed runs per row (default 3); the row shows their median
#   --big-runs N         runs per row on inputs of 10^6 sites and more (default 1)
#   --big-orders NAMES   orders run on inputs of 10^6 sites and more (default: program)
#   --sizes LIST         allocation sites of the generated series (default 1000 .. 1000000)
#   --refract-timeout S  per refract run (default 300)
#   --gringo-timeout S   per gringo run (default 300)
#   --skip-after S       a solver (order or gringo) that timed out or needed more than S
#                        seconds (median) on an input is not run on the larger ones (default 100)
#   --gringo-mem-gb G    address-space limit of gringo (default 8): the machine is shared
# A run that times out ends its row ("timeout"); skipped rows say "skipped". Inputs are
# generated once into bench/work/solver/ and reused while generator and arguments are unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3
big_runs=1
big_orders="program"
sizes="1000 10000 100000 1000000"
build="build-bench-solver"
refract_timeout=300
gringo_timeout=300
skip_after=100
gringo_mem_gb=8
with_gringo=1
with_preset=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --big-runs) big_runs="$2"; shift 2 ;;
    --big-orders) big_orders="$2"; shift 2 ;;
    --skip-after) skip_after="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --refract-timeout) refract_timeout="$2"; shift 2 ;;
    --gringo-timeout) gringo_timeout="$2"; shift 2 ;;
    --gringo-mem-gb) gringo_mem_gb="$2"; shift 2 ;;
    --no-gringo) with_gringo=0; shift ;;
    --no-preset) with_preset=0; shift ;;
    *) sed -n '2,23p' "$0" >&2; exit 2 ;;
  esac
done

# The three orders of every input. `program` is what the generated andersen.datalog asks for
# in .bddvarorder; `refract-default` is what refract picks for this program without one (a
# block per domain in declaration order, instances interleaved).
order_names=(program v-interleaved refract-default)
order_texts=(F0_V0_V1_H0_H1 F0_V0xV1_H0_H1 V0xV1_H0xH1_F0)

. bench/lib.sh
if [ "$with_gringo" = 1 ]; then install_packages gringo; fi
build_refract "$build"
refract="$build/refract"
work=bench/work/solver
mkdir -p "$work"

log() { echo "[solver.sh] $*" >&2; }

# Median of the numbers on stdin (the lower middle one for an even count).
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

# gen NAME ARGS...: bench/work/solver/NAME holds the generator's output for ARGS, made again
# only when the generator or the arguments changed.
gen() {
  local name="$1"; shift
  local dir="$work/$name"
  local stamp
  stamp="$(sha256sum bench/gen_pointsto.py | cut -c1-16) $*"
  if [ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$stamp" ]; then
    log "$name: reusing $dir"
  else
    log "$name: generating ($*)"
    rm -rf "$dir"
    python3 bench/gen_pointsto.py "$@" "$dir" 2>/dev/null
    echo "$stamp" >"$dir/stamp"
  fi
}

# NAME<TAB>COUNT lines -> the count of relation $2.
count_of() { awk -F'\t' -v r="$2" '$1 == r { print $2 }' "$1"; }

rows=()          # table rows, printed at the end
mismatch=0
declare -A retired  # solver -> why it is no longer run on larger inputs

row() {
  rows+=("$(printf '%-8s %-8s %-8s %-16s %-15s %4s %9s %11s %10s %10s' "$@")")
}

# Seconds since $1 (an EPOCHREALTIME value).
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'; }

# retire_if_slow SOLVER STATUS MEDIAN: keep SOLVER off larger inputs after a timeout or a
# median above --skip-after.
retire_if_slow() {
  if [ "$2" = timeout ]; then
    retired[$1]="timed out on a smaller input"
  elif [[ "$3" =~ ^[0-9.]+$ ]] && awk -v m="$3" -v s="$skip_after" 'BEGIN { exit !(m > s) }'; then
    retired[$1]="took $3 s on a smaller input"
  fi
}

# bench_input NAME LABEL: gringo, then every order, on bench/work/solver/NAME.
bench_input() {
  local name="$1" label="$2" dir="$work/$1"
  local heap vars n big=0
  heap=$(awk -F= '$1 == "heap" { print $2 }' "$dir/params.txt")
  vars=$(awk -F= '$1 == "vars" { print $2 }' "$dir/params.txt")
  n=$runs
  if [ "$heap" -ge 1000000 ]; then n=$big_runs big=1; fi
  local expect_vp="" expect_hp="" first_source=""

  # gringo first, so that each refract row can show the ratio.
  local g_median="n/a" g_vp="n/a" g_runs=0
  if [ "$with_gringo" = 0 ]; then
    g_median="n/a"
  elif [ -n "${retired[gringo]:-}" ]; then
    log "$name: gringo skipped (${retired[gringo]})"
    g_median="skipped"
  else
    local lp="$dir/andersen.lp" lp_stamp
    lp_stamp="$(sha256sum bench/to_gringo.py | cut -c1-16) $(cat "$dir/stamp")"
    if [ ! -f "$lp.stamp" ] || [ "$(cat "$lp.stamp")" != "$lp_stamp" ]; then
      log "$name: translating for gringo"
      python3 bench/to_gringo.py "$dir/andersen.datalog" -o "$lp"
      echo "$lp_stamp" >"$lp.stamp"
    fi
    local times=() k status=""
    for ((k = 1; k <= n; k++)); do
      log "$name: gringo run $k/$n"
      local t0 rc=0
      t0=$EPOCHREALTIME
      # gringo --text prints every fact of the (completely evaluated, stratified) program;
      # awk counts those of vP and hP.
      (
        ulimit -v $((gringo_mem_gb * 1024 * 1024))
        set -o pipefail
        timeout "$gringo_timeout" gringo --text "$lp" 2>"$dir/gringo.err" |
          awk '/^r_vP\(/ { v++ } /^r_hP\(/ { h++ } END { printf "vP\t%d\nhP\t%d\n", v, h }' \
            >"$dir/gringo.out"
      ) || rc=$?
      local t
      t=$(since "$t0")
      if [ "$rc" -ne 0 ]; then
        if [ "$rc" -eq 124 ]; then
          status="timeout"
        elif grep -qi "bad_alloc\|memory" "$dir/gringo.err"; then
          status="memout"
        else
          status="error$rc"
        fi
        log "$name: gringo $status after $t s"
        break
      fi
      times+=("$t")
      g_vp=$(count_of "$dir/gringo.out" vP)
      expect_vp=$g_vp
      expect_hp=$(count_of "$dir/gringo.out" hP)
      first_source="gringo"
    done
    g_runs=${#times[@]}
    if [ -n "$status" ]; then
      g_median="$status" g_vp="n/a" expect_vp="" expect_hp="" first_source=""
    else
      g_median=$(printf '%s\n' "${times[@]}" | median)
    fi
    retire_if_slow gringo "$status" "$g_median"
  fi
  row "$label" "$heap" "$vars" gringo "(explicit)" "$g_runs" "$g_median" - "$g_vp" -

  local i
  for i in "${!order_names[@]}"; do
    local oname="${order_names[$i]}" order="${order_texts[$i]}"
    local times=() peak="-" vp="n/a" hp status="" k
    if [ -n "${retired[$oname]:-}" ]; then
      log "$name: refract $oname skipped (${retired[$oname]})"
      row "$label" "$heap" "$vars" "$oname" "$order" 0 skipped - n/a n/a
      continue
    fi
    if [ "$big" = 1 ] && [[ " $big_orders " != *" $oname "* ]]; then
      log "$name: refract $oname skipped (not in --big-orders)"
      row "$label" "$heap" "$vars" "$oname" "$order" 0 skipped - n/a n/a
      continue
    fi
    for ((k = 1; k <= n; k++)); do
      log "$name: refract $oname ($order) run $k/$n"
      local t0 rc=0 t
      t0=$EPOCHREALTIME
      timeout "$refract_timeout" "$refract" solve "$dir/andersen.datalog" --order "$order" \
        --output-dir "$dir/out" --stats "$dir/stats.json" --quiet >"$dir/refract.out" \
        2>"$dir/refract.err" || rc=$?
      t=$(since "$t0")
      if [ "$rc" -ne 0 ]; then
        status=$([ "$rc" -eq 124 ] && echo timeout || echo "error$rc")
        log "$name: refract $oname $status after $t s"
        break
      fi
      times+=("$t")
      vp=$(count_of "$dir/refract.out" vP)
      hp=$(count_of "$dir/refract.out" hP)
      peak=$(grep -o '"peak_used_nodes": [0-9]*' "$dir/stats.json" | grep -o '[0-9]*$')
      if [ -z "$expect_vp" ]; then
        expect_vp=$vp expect_hp=$hp first_source="refract $oname"
      elif [ "$vp" != "$expect_vp" ] || [ "$hp" != "$expect_hp" ]; then
        mismatch=1
        echo "MISMATCH on input $label: refract $oname gives vP=$vp hP=$hp," \
          "$first_source gave vP=$expect_vp hP=$expect_hp" | tee /dev/stderr
      fi
    done
    local median_s ratio="n/a"
    if [ -n "$status" ]; then
      median_s="$status"
      [ "${#times[@]}" -gt 0 ] && median_s="$status*"
    else
      median_s=$(printf '%s\n' "${times[@]}" | median)
    fi
    if [ -z "$status" ] && [[ "$g_median" =~ ^[0-9.]+$ ]]; then
      ratio=$(awk -v g="$g_median" -v r="$median_s" 'BEGIN { printf "%.1f", g / r }')
    elif [ -z "$status" ] && [ "$g_median" = timeout ]; then
      ratio=">$(awk -v g="$gringo_timeout" -v r="$median_s" 'BEGIN { printf "%.1f", g / r }')"
    fi
    retire_if_slow "$oname" "$status" "$median_s"
    row "$label" "$heap" "$vars" "$oname" "$order" "${#times[@]}" "$median_s" "$peak" "$vp" \
      "$ratio"
  done
}

# Ascending size, so that a solver too slow on one input is not tried on the larger ones.
inputs=()
for h in $sizes; do inputs+=("$h h$h --heap $h"); done
[ "$with_preset" = 1 ] && inputs+=("16384 bddbddb --preset bddbddb")
while read -r _ name args; do
  # shellcheck disable=SC2086
  gen "$name" $args
  bench_input "$name" "${name#h}"
done < <(printf '%s\n' "${inputs[@]}" | sort -n -k1,1)

echo "refract solve vs gringo, bench/gen_pointsto.py points-to inputs ($(date +%F), $(nproc) cores," \
  "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
echo "seconds: median wall-clock of the runs, whole process; gringo/ref: gringo's median over" \
  "refract's (>1: refract faster)"
printf '%-8s %-8s %-8s %-16s %-15s %4s %9s %11s %10s %10s\n' \
  input heap vars order order-string runs seconds peak-nodes vP gringo/ref
for r in "${rows[@]}"; do echo "$r"; done
if [ "$mismatch" -ne 0 ]; then
  echo "MISMATCH: result sizes differ between solvers or runs (see above)"
  exit 1
fi
echo "no mismatch: every finished run of an input gave the same |vP| and |hP|"

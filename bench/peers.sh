#!/usr/bin/env bash
# refract beside peers (issue 32, part 1). Not a test: it installs packages, builds Soufflé
# once (about 15 minutes on 2 cores) and takes hours.
#
# Soufflé on the same rules and facts: per program and flavour, `refract analyze` runs (its
# time and peak RSS), bench/to_souffle.py translates the program and facts of that run into
# Soufflé (contexts as records), `souffle -o` compiles it (compile seconds, reported apart)
# and the compiled program runs with each of --jobs (-j1, -j2: seconds, peak RSS). Prints
# refract's seconds over Soufflé's (>1: Soufflé faster) and whether the reachable methods,
# the call edges and every printed relation size are identical (bench/peer_check.py); a
# DIFFER row is a bug in the translation or in an engine, with samples after the table.
# Cloning cannot be translated (numbered contexts): its row says so. Both engines get
# --timeout seconds per run; refract --max-memory MiB, Soufflé the same as its address-space
# limit (ulimit -v). A stopped refract run says the sweep it reached, a stopped Soufflé run
# its time.
#
# WALA (Debian's libwala-java) beside refract's insens, with --wala "0-cfa 0-1-cfa": per
# program of --wala-programs, seconds, peak RSS, reachable methods, and the methods each
# finds that the other does not (lists in OUT/PROGRAM/wala-*.only-*, samples printed). WALA
# reads the JDK 17 classes rewritten to class-file version 52 (made once into
# CACHE/wala-jdk17-v52; shared/peers/README.md).
#
# Usage: bench/peers.sh [--programs "antlr checkstyle xalan hsqldb"]
#                       [--flavours "insens 1-call 2-obj+H 2-type+H cloning"]
#                       [--jobs "1 2"] [--timeout S] [--souffle-timeout S] [--memory MiB]
#                       [--souffle PREFIX]
#                       [--wala "0-cfa 0-1-cfa"] [--wala-programs "antlr"] [--no-souffle]
#                       [--reuse-refract] [--build DIR] [--out DIR] [--cache DIR]
# --reuse-refract: a refract run whose OUT/PROGRAM/FLAVOUR/refract.time exists is not run
# again (its figures are reused): for rerunning the Soufflé side after a fix.
set -euo pipefail
cd "$(dirname "$0")/.."

programs="antlr"
flavours="insens 1-call 2-obj+H 2-type+H"
jobs="1 2"
timeout_s=1800
souffle_timeout_s=
memory_mib=8000
cache=${HOME}/.cache/refract-peers
souffle_prefix=
wala=""
wala_programs="antlr"
run_souffle=1
reuse=0
build=build-bench
out_root=bench/work/peers
peers_src=../shared/peers
while [ $# -gt 0 ]; do
  case "$1" in
    --programs) programs="$2"; shift 2 ;;
    --flavours) flavours="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    --souffle-timeout) souffle_timeout_s="$2"; shift 2 ;;
    --memory) memory_mib="$2"; shift 2 ;;
    --souffle) souffle_prefix="$2"; shift 2 ;;
    --cache) cache="$2"; shift 2 ;;
    --wala) wala="$2"; shift 2 ;;
    --wala-programs) wala_programs="$2"; shift 2 ;;
    --no-souffle) run_souffle=0; shift ;;
    --reuse-refract) reuse=1; shift ;;
    --build) build="$2"; shift 2 ;;
    --out) out_root="$2"; shift 2 ;;
    *) sed -n '2,30p' "$0" >&2; exit 2 ;;
  esac
done
souffle_prefix=${souffle_prefix:-$cache/souffle-2.5}
souffle_timeout_s=${souffle_timeout_s:-$timeout_s}
# The table has two Soufflé columns, headed by the thread counts they hold (with --jobs "2" the
# first one is -j2's, not -j1's).
read -r -a job_counts <<<"$jobs"
if [ ${#job_counts[@]} -lt 1 ] || [ ${#job_counts[@]} -gt 2 ]; then
  echo "peers.sh: --jobs takes one or two thread counts, not '$jobs'" >&2
  exit 2
fi
first_jobs="j${job_counts[0]}" second_jobs="j${job_counts[1]:--}"

. bench/lib.sh
prepare_analyze_bench "$build"
install_packages python3
if [ "$run_souffle" -eq 1 ]; then
  [ -x "$peers_src/build-souffle.sh" ] || { echo "no $peers_src/build-souffle.sh" >&2; exit 1; }
  echo "[peers.sh] Soufflé in $souffle_prefix (built once, about 15 minutes)" >&2
  souffle=$("$peers_src/build-souffle.sh" "$souffle_prefix" | tail -1)
fi

# Seconds and peak MiB of a /usr/bin/time -f 'TIME %e %M' file, or "- -".
time_of() {
  awk '/^TIME/ {printf "%s %d", $2, $3 / 1024; found = 1} END {if (!found) print "- -"}' \
    "$1" 2>/dev/null || echo "- -"
}

# A value of stats.json (numbers only), or "-".
stat() { grep -o "\"$2\": [0-9.e+-]*" "$1" 2>/dev/null | head -1 | awk '{print $2}' || true; }

# refract analyze of $program under $flavour into $1 (status into $status).
run_refract() {
  local dir="$1" rc=0
  if [ "$reuse" -eq 1 ] && [ -f "$dir.status" ] && [ -f "$dir/facts/analysis.datalog" ]; then
    status=$(cat "$dir.status")
  else
    rm -rf "$dir" && mkdir -p "$dir"
    echo "[peers.sh] refract $program $flavour" >&2
    /usr/bin/time -f 'TIME %e %M' -o "$dir.time" timeout "$((timeout_s + 600))" "$refract" \
      analyze --no-cache --reflection none --classpath "$(class_path_of "$program")" --jdk "$jdk" \
      --main "$(main_of "$program")" --context "$flavour" --out "$dir" \
      --time-limit "$timeout_s" --max-memory "$memory_mib" --rule-stats "$dir.rules.json" \
      >"$dir.log" 2>&1 || rc=$?
    if [ "$rc" -eq 0 ]; then
      status=ok
    elif [ "$rc" -eq 4 ] || [ "$rc" -eq 124 ]; then
      status=timeout
    elif grep -q "node table exhausted" "$dir.log"; then
      status=memory
    else
      status="exit$rc"
      tail -3 "$dir.log" | sed "s/^/[peers.sh] refract $program $flavour: /" >&2
    fi
    echo "$status" >"$dir.status"
  fi
  if [ "$status" = timeout ] || [ "$status" = memory ]; then
    read -r sweep vpt <<<"$(run_progress "$dir")"
    stopped+=("refract $program $flavour ($status): stopped in sweep $sweep with $vpt VarPointsTo tuples")
  fi
}

# The compiled Soufflé program of $1/analysis.dl: $1/analysis (compile time in $1/compile.time).
compile_souffle() {
  local dir="$1"
  echo "[peers.sh] souffle -o: $program $flavour" >&2
  # The installed souffle-compile.py names the build's own (deleted) source folder for the
  # headers; CPATH adds the installed ones.
  CPATH="$(dirname "$(dirname "$souffle")")/include${CPATH:+:$CPATH}" \
    /usr/bin/time -f 'TIME %e %M' -o "$dir/compile.time" \
    "$souffle" -o "$dir/analysis" "$dir/analysis.dl" >"$dir/compile.log" 2>&1
}

# The compiled program of $1 with $2 threads into $1/out-j$2; sets $s_status.
run_souffle_jobs() {
  local dir="$1" j="$2" rc=0
  rm -rf "$dir/out-j$j" && mkdir -p "$dir/out-j$j"
  echo "[peers.sh] souffle -j$j: $program $flavour" >&2
  (
    ulimit -v $((memory_mib * 1024))
    /usr/bin/time -f 'TIME %e %M' -o "$dir/run-j$j.time" timeout "$souffle_timeout_s" \
      "$dir/analysis" -F "$dir/facts" -D "$dir/out-j$j" -j "$j" >"$dir/run-j$j.stdout" \
      2>"$dir/run-j$j.stderr"
  ) || rc=$?
  if [ "$rc" -eq 0 ]; then
    s_status=ok
  elif [ "$rc" -eq 124 ]; then
    s_status=timeout
    stopped+=("souffle -j$j $program $flavour: stopped at the time limit, $souffle_timeout_s s")
  elif grep -q -i "bad_alloc\|memory" "$dir/run-j$j.stderr"; then
    s_status=memory
    stopped+=("souffle -j$j $program $flavour: out of memory ($memory_mib MiB address space)")
  else
    s_status="exit$rc"
    tail -3 "$dir/run-j$j.stderr" | sed "s/^/[peers.sh] souffle $program $flavour: /" >&2
  fi
}

ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN {if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-"}'
}

rows=() stopped=() samples=()
fmt='%-10s %-9s %-8s %8s %8s %7s %9s %8s %8s %9s %8s %8s %8s %7s %7s %7s %7s  %s'
for program in $programs; do
  for flavour in $flavours; do
    dir="$out_root/$program/$flavour"
    mkdir -p "$(dirname "$dir")"
    run_refract "$dir/refract"
    read -r r_s r_mib <<<"$(time_of "$dir/refract.time")"
    r_solve=$(stat "$dir/refract/stats.json" solve)
    methods=$(stat "$dir/refract/stats.json" reachable_methods)
    edges=$(stat "$dir/refract/stats.json" call_edges)
    c_s=- j_cells=() agree=-
    if [ "$run_souffle" -eq 1 ]; then
      sdir="$dir/souffle"
      rm -rf "$sdir" && mkdir -p "$sdir"
      if [ ! -f "$dir/refract/facts/analysis.datalog" ]; then
        agree="no facts (refract $status)"
      elif ! python3 bench/to_souffle.py "$dir/refract/facts" --flavour "$flavour" \
          -o "$sdir" 2>"$sdir/translate.log"; then
        agree="not translated: $(sed 's/^to_souffle: //' "$sdir/translate.log" | cut -c1-60)"
      elif ! compile_souffle "$sdir"; then
        agree="compile failed ($sdir/compile.log)"
      else
        read -r c_s _ <<<"$(time_of "$sdir/compile.time")"
        agree=""
        for j in $jobs; do
          run_souffle_jobs "$sdir" "$j"
          read -r s_s s_mib <<<"$(time_of "$sdir/run-j$j.time")"
          # A ratio of two runs stopped at their own limits would mean nothing.
          q=-
          [ "$s_status" = ok ] && [ "$status" = ok ] && q=$(ratio "$r_s" "$s_s")
          j_cells+=("$s_status $s_s $s_mib $q")
          if [ "$s_status" = ok ] && [ "$status" = ok ]; then
            if check=$(python3 bench/peer_check.py "$dir/refract" "$sdir/out-j$j" \
                --sizes "$sdir/run-j$j.stdout"); then
              agree+="${agree:+, }j$j same"
            else
              agree+="${agree:+, }j$j DIFFER"
              samples+=("$program $flavour -j$j: $check")
            fi
          fi
        done
      fi
    fi
    while [ ${#j_cells[@]} -lt 2 ]; do j_cells+=("- - - -"); done
    read -r s1 t1 m1 q1 <<<"${j_cells[0]}"
    read -r s2 t2 m2 q2 <<<"${j_cells[1]}"
    rows+=("$(printf "$fmt" "$program" "$flavour" "$status" "$r_s" "${r_solve:--}" "$r_mib" \
      "$c_s" "$s1" "$t1" "$m1" "$s2" "$t2" "$m2" "$q1" "$q2" "${methods:--}" "${edges:--}" \
      "${agree:--}")")
  done
done

if [ "$run_souffle" -eq 1 ]; then
  echo "refract analyze and Soufflé 2.5 on the same rules and facts, JDK 17 jmods ($(date +%F)," \
    "$(nproc) cores, timeout refract $timeout_s s, Soufflé $souffle_timeout_s s, memory" \
    "$memory_mib MiB each, load average at the" \
    "end: $(cut -d' ' -f1-3 /proc/loadavg))"
  echo "seconds: wall clock of the whole process (refract: facts extraction included; solve is" \
    "its solver alone); souffle: the compiled program (reading facts included), compile apart;" \
    "r/jN: refract's seconds over Soufflé's with N threads (>1: Soufflé faster)"
  printf "$fmt\n" program flavour refract seconds solve peakMiB compile "$first_jobs" seconds \
    peakMiB "$second_jobs" seconds peakMiB "r/$first_jobs" "r/$second_jobs" methods edges agree
  for r in "${rows[@]}"; do echo "$r"; done
fi
if [ ${#samples[@]} -gt 0 ]; then
  echo; echo "differences (refract against Soufflé):"
  for r in "${samples[@]}"; do echo "$r"; done
fi

# --- WALA ----------------------------------------------------------------------------------

# The JDK's classes from the jmods with class-file version 52, once, in $1.
wala_jdk_classes() {
  local dest="$1"
  [ -f "$dest/.done" ] && return 0
  echo "[peers.sh] extracting the jmods for WALA into $dest (a few minutes, once)" >&2
  rm -rf "$dest" "$dest.tmp" && mkdir -p "$dest.tmp"
  for j in "$jdk"/jmods/*.jmod; do
    jmod extract --dir "$dest.tmp" "$j" >/dev/null
  done
  python3 - "$dest.tmp/classes" <<'PY'
import os, sys
# WALA 1.5.2 reads class files up to version 52; the JDK 17 classes use nothing it needs
# later versions for (shared/peers/README.md). module-info has no class to analyse.
for root, _, files in os.walk(sys.argv[1]):
    for f in files:
        p = os.path.join(root, f)
        if f == "module-info.class":
            os.remove(p)
        elif f.endswith(".class"):
            with open(p, "r+b") as c:
                c.seek(4)
                c.write(b"\x00\x00\x00\x34")
PY
  mv "$dest.tmp/classes" "$dest" && rm -rf "$dest.tmp" && touch "$dest/.done"
}

if [ -n "$wala" ]; then
  install_packages libwala-java
  wala_cp=/usr/share/java/com.ibm.wala.core.jar:/usr/share/java/com.ibm.wala.util.jar:/usr/share/java/com.ibm.wala.shrike.jar
  mkdir -p "$out_root/wala-driver"
  "$jdk/bin/javac" -d "$out_root/wala-driver" -cp "$wala_cp" bench/WalaCallGraph.java
  wala_jdk="$cache/wala-jdk17-v52"
  wala_jdk_classes "$wala_jdk"
  wrows=() wsamples=()
  wfmt='%-10s %-13s %-8s %8s %8s %8s %8s %10s %10s'
  for program in $wala_programs; do
    flavour=insens
    dir="$out_root/$program/insens"
    mkdir -p "$dir"
    run_refract "$dir/refract"
    read -r r_s r_mib <<<"$(time_of "$dir/refract.time")"
    r_methods="$dir/refract/reachable-methods.txt"
    wrows+=("$(printf "$wfmt" "$program" "refract insens" "$status" "$r_s" "$r_mib" \
      "$(stat "$dir/refract/stats.json" reachable_methods)" - - -)")
    for algorithm in $wala; do
      w="$out_root/$program/wala-$algorithm"
      echo "[peers.sh] WALA $algorithm $program" >&2
      rc=0
      IFS=: read -r -a jars <<<"$(class_path_of "$program")"
      /usr/bin/time -f 'TIME %e %M' -o "$w.time" timeout "$timeout_s" \
        "$jdk/bin/java" -Xss16m -Xmx$((memory_mib * 7 / 8))m \
        -cp "$out_root/wala-driver:$wala_cp" WalaCallGraph "$algorithm" "$wala_jdk" \
        "${jars[@]}" "$(main_of "$program")" "$w.methods" >"$w.log" 2>&1 || rc=$?
      read -r w_s w_mib <<<"$(time_of "$w.time")"
      if [ "$rc" -ne 0 ]; then
        wrows+=("$(printf "$wfmt" "$program" "WALA $algorithm" "exit$rc" "$w_s" "$w_mib" - - - -)")
        continue
      fi
      cg_s=$(awk '/^WALA/ {print $6}' "$w.log")
      comm -23 "$w.methods" <(sort "$r_methods") >"$w.only-wala"
      comm -13 "$w.methods" <(sort "$r_methods") >"$w.only-refract"
      wrows+=("$(printf "$wfmt" "$program" "WALA $algorithm" ok "$w_s" "$w_mib" \
        "$(wc -l <"$w.methods")" "$cg_s" "$(wc -l <"$w.only-wala")" "$(wc -l <"$w.only-refract")")")
      wsamples+=("$program WALA $algorithm, only WALA (of $(wc -l <"$w.only-wala")):")
      while read -r m; do wsamples+=("  $m"); done < <(shuf -n 6 --random-source=<(yes) "$w.only-wala")
      wsamples+=("$program WALA $algorithm, only refract (of $(wc -l <"$w.only-refract")):")
      while read -r m; do wsamples+=("  $m"); done < <(shuf -n 6 --random-source=<(yes) "$w.only-refract")
    done
  done
  echo; echo "refract insens beside WALA 1.5.2 (reflection off), JDK 17 jmods ($(date +%F)," \
    "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
  echo "seconds: whole process; cg-s: WALA's call graph construction alone; only-W / only-r:" \
    "reachable methods WALA finds that refract does not, and the reverse"
  printf "$wfmt\n" program engine status seconds peakMiB methods cg-s only-W only-r
  for r in "${wrows[@]}"; do echo "$r"; done
  echo; for r in "${wsamples[@]}"; do echo "$r"; done
fi
if [ ${#stopped[@]} -gt 0 ]; then
  echo; echo "runs stopped at a limit, and how far they got:"
  for r in "${stopped[@]}"; do echo "  $r"; done
fi

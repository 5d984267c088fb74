#!/usr/bin/env bash
# Recall of refract's reflection analysis on real programs (issue 31, "Recall on real
# programs"): xalan, checkstyle, hsqldb, fop, antlr and lucene with the JDK 17 jmods, each as
# TamiFlex ran it (../shared/tamiflex/PROGRAM/cmd.txt: Debian packages, class path, main
# class), under each --reflection mode and context flavour, stopped at a time limit per run.
# Prints, per program, mode and flavour: how many of the targets in TamiFlex's refl.log refract
# finds, per side-effect kind, for callers in the application's jars and in the JDK apart;
# seconds, peak RSS and the load average at the start and end of the run; reachable methods,
# call edges, polymorphic call sites, casts that may fail; the sites the report flags possibly
# unsound and possibly imprecise; then, per program, the targets at application callers that
# solar misses and whether each lies at a site its report flags (bench/reflection_recall.py
# does the matching and the tables). lucene's two mains (IndexFiles, SearchFiles) run one after
# the other: their targets, methods, edges, sites are the union, seconds the sum, RSS the max.
# Each run leaves OUT (refract's results), OUT.log, OUT.rules.json, OUT.time and OUT.run under
# --out; --tables-only prints the tables again from them. Not a test: it installs packages and
# takes hours. Where `none` (listed first) does not finish within the limit, the program's other
# modes under that flavour are not run, and their rows say so: reflection only adds work. A
# mode written MODE:WORLD (none:application) runs MODE under --closed-world
# WORLD: `none` reads only the classes reachable by name, the other modes every class of the
# application, so none:application separates what the closed world costs from what reflection
# costs. A mode written MODE@annotated (solar@annotated) runs MODE with
# --reflection-annotations bench/annotations/PROGRAM.tsv: the sites the paper's workflow
# annotates after probing a program (Solar paper, Sec. 7.4; each file says why per line). Mode
# `tamiflex` runs --reflection tamiflex=PROGRAM/refl.log: the code the recorded run reached by
# reflection, without inference, so that solar's cost splits into what reaching that code costs
# (tamiflex against none) and what inferring it costs (solar against tamiflex).
#
# Usage: bench/reflection.sh [--programs "antlr hsqldb xalan checkstyle fop lucene"]
#                            [--modes "none strings probe solar tamiflex"]
#                            [--flavours "insens 2-type+H"]
#                            [--insens-limit S] [--deep-limit S] [--max-memory MIB]
#                            [--tamiflex DIR] [--build DIR] [--out DIR] [--tables-only]
set -euo pipefail
cd "$(dirname "$0")/.."

programs="antlr hsqldb xalan checkstyle fop lucene"
modes="none strings probe solar"
flavours="insens 2-type+H"
insens_limit=1200
deep_limit=900
max_memory=8000
tamiflex=../shared/tamiflex
build=build-bench
out_root=bench/work/reflection
tables_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --programs) programs="$2"; shift 2 ;;
    --modes) modes="$2"; shift 2 ;;
    --flavours) flavours="$2"; shift 2 ;;
    --insens-limit) insens_limit="$2"; shift 2 ;;
    --deep-limit) deep_limit="$2"; shift 2 ;;
    --max-memory) max_memory="$2"; shift 2 ;;
    --tamiflex) tamiflex="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --out) out_root="$2"; shift 2 ;;
    --tables-only) tables_only=1; shift ;;
    *) sed -n '2,28p' "$0" >&2; exit 2 ;;
  esac
done

if [ ! -d "$tamiflex" ]; then
  echo "reflection.sh: no TamiFlex recordings at '$tamiflex' (expected ../shared/tamiflex" \
    "beside the repository, with PROGRAM/cmd.txt and PROGRAM/refl.log; name it with" \
    "--tamiflex DIR): nothing measured" >&2
  exit 2
fi
for program in $programs; do
  for f in cmd.txt refl.log; do
    [ -f "$tamiflex/$program/$f" ] || { echo "reflection.sh: missing $tamiflex/$program/$f" >&2; exit 2; }
  done
done

. bench/lib.sh
# absolute, as class paths and the programs' own runs need it, whatever --out names
out_root=$(realpath -m "$out_root")

# field_of PROGRAM KEY: the KEY=VALUE line of the program's cmd.txt.
field_of() {
  sed -n "s/^$2=//p" "$tamiflex/$1/cmd.txt" | head -1
}

# The Debian packages a recording names: its PACKAGE line (name=version) and the owners of its
# class-path jars. A version other than the recorded one is said on stderr, not refused.
packages_of() {
  local program="$1"
  field_of "$program" PACKAGE | tr ' ' '\n' | sed -n 's/=.*//p'
  sed -n 's|^/.* -> .* (\([^ ]*\) .*)$|\1|p' "$tamiflex/$program/cmd.txt"
}
check_versions() {
  local entry name want have
  for entry in $(field_of "$1" PACKAGE); do
    name="${entry%%=*}" want="${entry#*=}"
    have=$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null || echo none)
    [ "$have" = "$want" ] || echo "reflection.sh: $1: TamiFlex ran $name=$want, installed: $have" >&2
  done
}

# The class path of a recording; its `classes` entry (hsqldb's RunSql, compiled in the
# preparation step of cmd.txt) is our compiled copy.
class_path_for() {
  local entry entries path=
  IFS=: read -r -a entries <<<"$(field_of "$1" CLASSPATH)"
  for entry in "${entries[@]}"; do
    [ "$entry" = classes ] && entry="$out_root/$1/classes"
    path="${path:+$path:}$entry"
  done
  echo "$path"
}

# The main classes of a recording, one a line (lucene has two, joined by " + ").
mains_of() {
  field_of "$1" MAIN_CLASS | sed 's/ + /\n/g'
}

# hsqldb's driver, as cmd.txt's preparation step compiles it.
compile_inputs() {
  local program="$1" dir="$out_root/$1/classes"
  if [[ ":$(field_of "$program" CLASSPATH):" == *:classes:* ]]; then
    rm -rf "$dir" && mkdir -p "$dir"
    "$jdk/bin/javac" -d "$dir" "$tamiflex/$program"/inputs/*.java >&2
  fi
}

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
commit=$(git rev-parse --short HEAD)  # recorded in each OUT.run

# run_one OUT PROGRAM MAIN MODE FLAVOUR LIMIT: one analysis; leaves OUT.time, OUT.log,
# OUT.rules.json and OUT.run (status, seconds, RSS, load averages, where a stopped run was).
run_one() {
  local out="$1" program="$2" main="$3" mode="$4" flavour="$5" limit="$6"
  # MODE:WORLD (none:application) runs MODE under --closed-world WORLD
  local world=() annotations=()
  if [[ "$mode" == *@annotated ]]; then
    annotations=(--reflection-annotations "bench/annotations/$program.tsv")
    mode="${mode%@annotated}"
  fi
  [[ "$mode" == *:* ]] && world=(--closed-world "${mode#*:}")
  local reflection="${mode%%:*}"
  [ "$reflection" = tamiflex ] && reflection="tamiflex=$tamiflex/$program/refl.log"
  rm -rf "$out" "$out".{time,log,rules.json,run} && mkdir -p "$out"
  local load_start rc=0 status
  load_start=$(loadavg)
  # --time-limit stops the solver (exit 4); timeout is the backstop for an operation that runs
  # on without reaching a check.
  /usr/bin/time -f 'TIME %e %M' -o "$out.time" timeout "$((limit + 600))" "$refract" analyze --no-cache \
    --classpath "$(class_path_for "$program")" --jdk "$jdk" --main "$main" \
    --context "$flavour" --reflection "$reflection" "${world[@]}" "${annotations[@]}" --out "$out" --time-limit "$limit" \
    --max-memory "$max_memory" --rule-stats "$out.rules.json" </dev/null >"$out.log" 2>&1 || rc=$?
  case "$rc" in
    0) status=ok ;;
    4 | 124) status=stopped ;;
    *) if grep -q "node table exhausted" "$out.log"; then status=memory; else status="exit$rc"; fi ;;
  esac
  local sweep vpt
  read -r sweep vpt <<<"$(run_progress "$out")"
  {
    echo "status=$status"
    echo "rc=$rc"
    echo "limit=$limit"
    awk '/^TIME/ {print "seconds=" $2; print "rss_kib=" $3}' "$out.time" 2>/dev/null || true
    echo "load_start=$load_start"
    echo "load_end=$(loadavg)"
    echo "sweep=$sweep"
    echo "varpointsto=$vpt"
    echo "commit=$commit"
  } >"$out.run"
  if [ "$status" != ok ] && [ "$status" != stopped ]; then
    tail -3 "$out.log" | sed "s|^|[reflection.sh] $program $mode $flavour $main: |" >&2
  fi
  echo "[reflection.sh] $program $flavour $mode $main: $status, $(sed -n 's/^seconds=//p' "$out.run") s" >&2
}

# skip_one OUT WHY: a reflective mode not run because the same program and flavour without
# reflection did not finish within the limit; reflection only adds to that work (its rules
# are the points-to rules and more), so the run could not finish either and would only spend
# the limit. OUT.run says so.
skip_one() {
  local out="$1" why="$2"
  rm -rf "$out" "$out".{time,log,rules.json,run}
  {
    echo "status=skipped"
    echo "why=not run: none $why"
    echo "commit=$commit"
  } >"$out.run"
  echo "[reflection.sh] ${out#"$out_root"/}: not run, none $why" >&2
}

if [ "$tables_only" = 0 ]; then
  install_packages openjdk-17-jdk-headless time
  for program in $programs; do
    # shellcheck disable=SC2046  # one package a word
    install_packages $(packages_of "$program" | sort -u)
    check_versions "$program"
  done
  build_refract "$build"
  refract="$build/refract"
  jdk=/usr/lib/jvm/java-17-openjdk-amd64
  [ -d "$jdk/jmods" ] || { echo "reflection.sh: no jmods under $jdk" >&2; exit 1; }
  for program in $programs; do
    mkdir -p "$out_root/$program"
    compile_inputs "$program"
    IFS=: read -r -a entries <<<"$(class_path_for "$program")"
    for e in "${entries[@]}"; do
      [ -e "$e" ] || { echo "reflection.sh: $program: class path entry $e is missing" >&2; exit 1; }
    done
    # What the tables need of the program: where its classes come from, its log, its mains.
    {
      echo "classpath=$(class_path_for "$program")"
      echo "log=$tamiflex/$program/refl.log"
      echo "jdk=$jdk"
      echo "mains=$(mains_of "$program" | tr '\n' ' ')"
    } >"$out_root/$program/program.env"
  done
  # Every program under the first flavour before any under the next: a matrix stopped by hand
  # still has whole rows for the cheaper flavour.
  for flavour in $flavours; do
    limit=$deep_limit
    [ "$flavour" = insens ] && limit=$insens_limit
    for program in $programs; do
      none_stopped=""
      for mode in $modes; do
        n=0
        while read -r main; do
          n=$((n + 1))
          out="$out_root/$program/$flavour/$mode-$n"
          if [ -n "$none_stopped" ] && [ "${mode%%[:@]*}" != none ]; then
            skip_one "$out" "$none_stopped"
          else
            run_one "$out" "$program" "$main" "$mode" "$flavour" "$limit"
          fi
          if [ "$mode" = none ] && [ -z "$none_stopped" ] && ! grep -qx "status=ok" "$out.run"; then
            none_stopped="$(sed -n 's/^status=//p' "$out.run") at $(sed -n 's/^seconds=//p' "$out.run") s"
          fi
        done < <(mains_of "$program")
      done
    done
  done
fi

echo "refract analyze --reflection MODE with the JDK 17 jmods against TamiFlex's refl.log" \
  "($(date +%F), $(nproc) cores, commit $commit, --max-memory" \
  "$max_memory, time limit insens $insens_limit s, other flavours $deep_limit s)"
python3 bench/reflection_recall.py --root "$out_root" --programs "$programs" --modes "$modes" \
  --flavours "$flavours"

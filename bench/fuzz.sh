#!/usr/bin/env bash
# Mutation fuzzing of the bytecode front end under AddressSanitizer and UBSan (not a test).
# Builds the refract_fuzz driver (tests/fuzz/refract_fuzz.cpp) with -DREFRACT_SANITIZE=ON in
# build-asan, then runs mutated inputs through the zip reader, the class-file parser, the
# bytecode decoder and the IR builder, over three corpora:
#   fixture classes  build-asan/fixtures/classes (javac 17 output of tests/fixtures/java)
#   fixtures jar     fixtures.jar (deflated, as `jar` writes it) and a stored copy
#   java.base        a sample of classes spread over the JDK 17's java.base.jmod
# and prints one row per corpus: inputs; seconds; parse errors (inputs that the parser, the
# decoder or the IR builder rejected with a located InputError: expected); classes parsed of
# the classes run (class inputs, and class entries of archive inputs that a mutation changed);
# methods translated to IR; crashes (sanitizer reports and fatal signals: must be 0); hangs
# and bugs (inputs over the per-input time limit, exceptions other than InputError, errors
# located outside the input: must be 0); the slowest input (milliseconds, #index). Every
# failing input is saved under build-asan/fuzz/crashes, with the command that reproduces it
# on stderr; after a crash or a hang the run resumes at the next input.
#
# Usage: bench/fuzz.sh [--inputs N] [--seed S] [--jmod-sample K] [--time-limit SECONDS]
#                      [--build DIR] [--jdk DIR]
# N (default 100000) is split 40% fixture classes, 20% jars, 40% java.base. Exits 0 only if
# no crash, hang or bug was found.
set -euo pipefail
cd "$(dirname "$0")/.."

inputs=100000
seed=1
jmod_sample=200
time_limit=10
build="build-asan"
jdk=
while [ $# -gt 0 ]; do
  case "$1" in
    --inputs) inputs="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --jmod-sample) jmod_sample="$2"; shift 2 ;;
    --time-limit) time_limit="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --jdk) jdk="$2"; shift 2 ;;
    *) echo "usage: $0 [--inputs N] [--seed S] [--jmod-sample K] [--time-limit SECONDS]" \
            "[--build DIR] [--jdk DIR]" >&2; exit 2 ;;
  esac
done

if [ -z "$jdk" ]; then
  jdk=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
  if [ ! -f "$jdk/jmods/java.base.jmod" ]; then
    for home in /usr/lib/jvm/java-17-openjdk-*; do
      [ -f "$home/jmods/java.base.jmod" ] && { jdk=$home; break; }
    done
  fi
fi
[ -f "$jdk/jmods/java.base.jmod" ] || { echo "no JDK 17 with jmods found: give --jdk DIR" >&2; exit 1; }

echo "building refract_fuzz with AddressSanitizer and UBSan in $build ..." >&2
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DREFRACT_SANITIZE=ON >/dev/null
cmake --build "$build" -j2 --target refract_fuzz java_fixtures >/dev/null
driver="$build/tests/refract_fuzz"

work="$build/fuzz"
crashes="$work/crashes"
rm -rf "$crashes"
mkdir -p "$work/corpus/jar" "$crashes"
cp "$build/fixtures/fixtures.jar" "$work/corpus/jar/fixtures.jar"
jar="$(dirname "$(readlink -f "$(command -v javac)")")/jar"
[ -x "$jar" ] || jar=jar
"$jar" --create --no-compress --file "$work/corpus/jar/fixtures-stored.jar" \
  -C "$build/fixtures/classes" .

# Halt on the first report of either sanitizer, so that the driver can save the input; exit
# status 86 (not 1, which the driver uses for "bugs found").
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}:abort_on_error=0:exitcode=86:print_summary=1"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}:halt_on_error=1:exitcode=86"

# fuzz LABEL N CORPUS-ARGS...: runs N inputs, resuming after each crash, and prints one row.
fuzz() {
  local label=$1 n=$2; shift 2
  local log="$work/$label.log" first=0 end=$n start_ns status us=0
  local count=0 rejected=0 classes=0 parsed=0 methods=0 bugs=0 crashes_n=0 hangs=0 slowest_us=0 slowest_input=0
  : >"$log"
  start_ns=$(date +%s%N)
  while [ "$first" -lt "$end" ]; do
    local out="$work/$label.segment"
    status=0
    "$driver" "$@" --inputs $((end - first)) --first "$first" --seed "$seed" \
      --time-limit "$time_limit" --crash-dir "$crashes" --label "$label" 2>"$out" || status=$?
    cat "$out" >>"$log"
    local result
    result=$(grep '^RESULT ' "$out" | tail -1 || true)
    if [ -n "$result" ]; then
      local f
      for f in $result; do
        case "$f" in
          inputs=*) count=$((count + ${f#inputs=})) ;;
          rejected=*) rejected=$((rejected + ${f#rejected=})) ;;
          classes=*) classes=$((classes + ${f#classes=})) ;;
          parsed=*) parsed=$((parsed + ${f#parsed=})) ;;
          methods=*) methods=$((methods + ${f#methods=})) ;;
          bugs=*) bugs=$((bugs + ${f#bugs=})) ;;
          slowest_us=*) us=${f#slowest_us=} ;;
          slowest_input=*) if [ "$us" -gt "$slowest_us" ]; then
                             slowest_us=$us; slowest_input=${f#slowest_input=}; fi ;;
        esac
      done
    fi
    local at
    at=$(grep -oE '^(CRASH|HANG) input [0-9]+' "$out" | tail -1 | awk '{print $3}' || true)
    # Finished (1: bugs were found), unless a report names an input.
    if [ -z "$at" ] && { [ "$status" -eq 0 ] || [ "$status" -eq 1 ]; }; then break; fi
    if grep -q '^HANG input' "$out"; then hangs=$((hangs + 1)); else crashes_n=$((crashes_n + 1)); fi
    if [ -z "$at" ]; then
      echo "$label: the driver died (status $status) without naming the input; see $log" >&2
      break
    fi
    echo "$label: input $at failed (status $status), saved in $crashes; reproduce with:" \
         "$driver $* --seed $seed --first $at --inputs 1" >&2
    count=$((count + 1))  # the failing input itself
    first=$((at + 1))
  done
  local seconds reports
  seconds=$(awk -v a="$start_ns" -v b="$(date +%s%N)" 'BEGIN {printf "%.1f", (b - a) / 1e9}')
  reports=$(grep -cE '^SUMMARY: [A-Za-z]+Sanitizer' "$log" || true)
  [ "$reports" -gt "$crashes_n" ] && crashes_n=$reports
  printf '%-16s %8d %8s %13s %15s %8d %8d %11d %16s\n' "$label" "$count" "$seconds" \
    "$rejected ($((count > 0 ? 100 * rejected / count : 0))%)" "$parsed/$classes" "$methods" \
    "$crashes_n" "$((hangs + bugs))" \
    "$(awk -v u="$slowest_us" 'BEGIN {printf "%.1f ms", u / 1000}') #$slowest_input"
  [ $((crashes_n + hangs + bugs)) -eq 0 ]
}

classes_n=$((inputs * 2 / 5))
jar_n=$((inputs / 5))
jdk_n=$((inputs - classes_n - jar_n))
echo "seed $seed; per-input time limit $time_limit s; java.base sample of $jmod_sample classes" \
     "from $jdk" >&2
printf '%-16s %8s %8s %13s %15s %8s %8s %11s %16s\n' corpus inputs seconds "parse errors" \
  "classes parsed" methods crashes "hangs/bugs" "slowest input"
failed=0
fuzz "fixture-classes" "$classes_n" --corpus "$build/fixtures/classes" || failed=1
fuzz "fixtures-jar" "$jar_n" --corpus "$work/corpus/jar" || failed=1
fuzz "java.base" "$jdk_n" --corpus "$jdk/jmods/java.base.jmod" --jmod-sample "$jmod_sample" ||
  failed=1
exit $failed

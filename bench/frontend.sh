#!/usr/bin/env bash
# Benchmark of the bytecode front end (issue 4): `refract ir --all --summary` over every jmod
# of the JDK 17 and over every jar of a set of Debian Java packages. Prints one row per
# program: classes, methods, instructions, references to absent classes, failed classes,
# median seconds of N runs and peak RSS. Not a test: it installs packages and takes minutes.
#
# Usage: bench/frontend.sh [--runs N] [--build DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3
build=build-bench
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--build DIR]" >&2; exit 2 ;;
  esac
done

. bench/lib.sh
install_packages libxalan2-java libhsqldb-java checkstyle antlr liblucene4.10-java fop libasm-java \
  libcommons-lang3-java libguava-java time
build_refract "$build"
refract="$build/refract"

jdk=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
[ -d "$jdk/jmods" ] || { echo "no jmods under $jdk: install openjdk-17-jdk-headless" >&2; exit 1; }

# The class path of one row: a package's jars (symlinks resolved, each once), or the jmods.
class_path_of() {
  if [ "$1" = jdk17 ]; then
    ls "$jdk"/jmods/*.jmod | paste -sd: -
  elif [ "$1" = java.base ]; then
    echo "$jdk/jmods/java.base.jmod"
  else
    # The jars of antlr and fop ship in the library packages these depend on.
    local package=$1
    case "$package" in antlr) package=libantlr-java ;; fop) package=libfop-java ;; esac
    { dpkg -L "$package" | grep '\.jar$' || true; } | while read -r j; do readlink -f "$j"; done |
      sort -u | paste -sd: -
  fi
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

printf '%-22s %8s %9s %11s %8s %7s %9s %9s\n' program classes methods instructions absent failed seconds peakMiB
for row in java.base jdk17 libxalan2-java libhsqldb-java checkstyle antlr liblucene4.10-java fop \
           libasm-java libcommons-lang3-java libguava-java; do
  cp=$(class_path_of "$row")
  times=(); rss=0; summary=""
  for _ in $(seq "$runs"); do
    out=$( { /usr/bin/time -f 'TIME %e %M' "$refract" ir --classpath "$cp" --all --summary --quiet \
             --skip-bad-classes >/dev/null; } 2>&1 ) || true
    summary=$(grep '^\[ir\] classes' <<<"$out" | tail -1)
    t=$(grep '^TIME' <<<"$out" | awk '{print $2}'); m=$(grep '^TIME' <<<"$out" | awk '{print $3}')
    times+=("$t"); [ "$m" -gt "$rss" ] && rss=$m
  done
  med=$(printf '%s\n' "${times[@]}" | median)
  # "[ir] classes C, methods M, instructions I, references to absent classes A, failed classes F; S s"
  read -r c m i a f < <(sed -E 's/.*classes ([0-9]+), methods ([0-9]+), instructions ([0-9]+), references to absent classes ([0-9]+), failed classes ([0-9]+).*/\1 \2 \3 \4 \5/' <<<"$summary")
  printf '%-22s %8s %9s %11s %8s %7s %9s %9d\n' "$row" "$c" "$m" "$i" "$a" "$f" "$med" $((rss / 1024))
done

#!/usr/bin/env bash
# The Soufflé translation (bench/to_souffle.py) checked on the points-to fixtures
# (tests/fixtures/java/pointsto) and on antlr 2.7.7 (Debian's antlr.jar, as the test suite's
# RealProgramInvariantTest runs it) under several flavours, in minutes rather than hours: per
# fixture and flavour, `refract analyze` with the tests' small JDK (the classes
# tests/pointsto/small_jdk.hpp lists, taken from the machine's JDK 17), the translation, Soufflé's
# interpreter on it, and bench/peer_check.py (reachable methods, call edges, every printed
# relation size). Prints one line per run that differs and a count of those that agree.
#
# Usage: bench/peer_fixtures.sh [--flavours "insens 1-call ..."] [--souffle PREFIX]
#                               [--build DIR] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

flavours="insens 1-call 2-call+H 3-call 1-obj 2-obj 2-obj+H 3-obj+2H 1-type 2-type+H"
souffle_prefix=${HOME}/.cache/refract-peers/souffle-2.5
build=build-bench
out_root=bench/work/peer-fixtures
peers_src=../shared/peers
while [ $# -gt 0 ]; do
  case "$1" in
    --flavours) flavours="$2"; shift 2 ;;
    --souffle) souffle_prefix="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --out) out_root="$2"; shift 2 ;;
    *) sed -n '2,11p' "$0" >&2; exit 2 ;;
  esac
done

. bench/lib.sh
install_packages openjdk-17-jdk-headless python3
build_refract "$build"
classes="$out_root/classes" java_base="$out_root/java-base"
rm -rf "$classes" "$java_base" && mkdir -p "$classes" "$java_base"
# As tests/CMakeLists.txt compiles them: unsafe uses jdk.internal.misc (javac refuses
# --add-exports with --release), deserialize a stand-in of a java.base class, patched in.
unsafe=tests/fixtures/java/pointsto/unsafe/Main.java
deserialize=tests/fixtures/java/pointsto/deserialize/Main.java
find tests/fixtures/java/pointsto -name '*.java' ! -path "$unsafe" ! -path "$deserialize" -print0 |
  xargs -0 javac --release 17 -g -encoding UTF-8 -d "$classes"
javac -source 17 -target 17 -g -encoding UTF-8 -nowarn \
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp "$classes" -d "$classes" "$unsafe"
javac -source 17 -target 17 -g -encoding UTF-8 -nowarn \
  --patch-module java.base=tests/fixtures/java-base -d "$java_base" \
  tests/fixtures/java-base/java/io/ObjectStreamClass.java
javac -source 17 -target 17 -g -encoding UTF-8 -nowarn \
  --patch-module java.base=tests/fixtures/java-base -implicit:none -d "$classes" "$deserialize"
souffle=$("$peers_src/build-souffle.sh" "$souffle_prefix" | tail -1)
jdk=/usr/lib/jvm/java-17-openjdk-amd64

# The tests' small JDK: a java.base.jmod ("JM\1\0" and a zip) of the classes small_jdk.hpp lists.
small_jdk="$out_root/small-jdk"
mkdir -p "$small_jdk/jmods"
python3 - "$jdk/jmods/java.base.jmod" "$small_jdk/jmods/java.base.jmod" \
  tests/pointsto/small_jdk.hpp <<'PY'
import io, re, sys, zipfile
base, out, header = sys.argv[1:]
text = open(header).read()
names = re.findall(r'"((?:java|jdk)/[A-Za-z/$]+)"', text.split("kJdkClasses[]")[1].split("};")[0])
data = open(base, "rb").read()
src = zipfile.ZipFile(io.BytesIO(data[4:]))
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as z:
    for n in names + ["module-info"]:  # java.base's own module-info, as small_jdk.hpp adds it
        z.writestr("classes/%s.class" % n, src.read("classes/%s.class" % n))
open(out, "wb").write(b"JM\x01\x00" + buf.getvalue())
PY

install_packages libantlr-java
agree=0 differ=()
for fixture in $(ls tests/fixtures/java/pointsto | grep -v README) antlr; do
  class_path="$classes" main="pointsto.$fixture.Main"
  [ "$fixture" = deserialize ] && class_path="$classes:$java_base"
  [ "$fixture" = antlr ] && class_path=/usr/share/java/antlr.jar main=antlr.Tool
  for flavour in $flavours; do
    dir="$out_root/$fixture/$flavour"
    rm -rf "$dir" && mkdir -p "$dir"
    "$build/refract" analyze --no-cache --reflection none --classpath "$class_path" --jdk "$small_jdk" \
      --main "$main" --context "$flavour" --out "$dir/refract" --quiet \
      >"$dir/refract.log" 2>&1 || { differ+=("$fixture $flavour: refract failed"); continue; }
    python3 bench/to_souffle.py "$dir/refract/facts" --flavour "$flavour" -o "$dir/souffle"
    mkdir -p "$dir/souffle/out"
    "$souffle" -F "$dir/souffle/facts" -D "$dir/souffle/out" "$dir/souffle/analysis.dl" \
      >"$dir/souffle/stdout" 2>"$dir/souffle/stderr" ||
      { differ+=("$fixture $flavour: souffle failed ($dir/souffle/stderr)"); continue; }
    if check=$(python3 bench/peer_check.py "$dir/refract" "$dir/souffle/out" \
        --sizes "$dir/souffle/stdout"); then
      agree=$((agree + 1))
    else
      differ+=("$fixture $flavour: $check")
    fi
  done
done
echo "refract and Soufflé on the points-to fixtures ($(date +%F)): $agree runs agree" \
  "(reachable methods, call edges, every printed relation size), ${#differ[@]} do not"
for d in "${differ[@]}"; do echo "  $d"; done
[ ${#differ[@]} -eq 0 ]

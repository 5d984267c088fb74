# What the bench scripts share; sourced, from the repository root.

# install_packages PKG...: installs the Debian packages that are missing (with sudo when not
# root); apt's output goes to stderr, away from the tables.
install_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${missing[@]}" >&2
}

# build_refract DIR: a Release build of the refract executable (no tests) in DIR, brought up to
# date with the checkout (an incremental build; reusing whatever binary was there measured old
# code).
build_refract() {
  [ -f "$1/CMakeCache.txt" ] || cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=Release -DREFRACT_TESTS=OFF >/dev/null
  cmake --build "$1" -j2 --target refract >/dev/null
}

# build_revision REV: a Release build of refract at git revision REV, in a worktree under
# bench/work/revisions; prints the executable's path. For comparing builds on one machine in one
# script (bench/encodings.sh --baseline).
build_revision() {
  local commit dir
  commit=$(git rev-parse --verify "$1^{commit}") || { echo "no such revision: $1" >&2; exit 2; }
  dir="bench/work/revisions/$commit"
  if [ ! -d "$dir" ]; then
    mkdir -p bench/work/revisions
    git worktree add --detach -q "$dir" "$commit" >&2
  fi
  (cd "$dir" && build_refract build) >&2
  echo "$dir/build/refract"
}

# run_progress OUT: how far an analysis run got, as "SWEEP VARPOINTSTO": the sweep its log
# OUT.log names last and the VarPointsTo tuples its profile OUT.rules.json counted ("-" for
# either that is missing). For runs stopped by a time limit or the memory budget.
run_progress() {
  python3 - "$1" <<'PY'
import json, re, sys
out = sys.argv[1]
try:
    sweeps = re.findall(r"sweep (\d+)", open(out + ".log").read())
except OSError:
    sweeps = []
try:
    vpt = json.load(open(out + ".rules.json")).get("relations", {}).get("VarPointsTo", "-")
except (OSError, ValueError):
    vpt = "-"
print(sweeps[-1] if sweeps else "-", vpt)
PY
}

# prepare_analyze_bench DIR: for the scripts that run `refract analyze` on the Debian programs:
# installs them and the JDK, builds refract in DIR; sets $refract and $jdk.
prepare_analyze_bench() {
  install_packages libxalan2-java libhsqldb-java checkstyle antlr openjdk-17-jdk-headless time
  build_refract "$1"
  refract="$1/refract"
  jdk=/usr/lib/jvm/java-17-openjdk-amd64
  [ -d "$jdk/jmods" ] || { echo "no jmods under $jdk" >&2; exit 1; }
}

# The program's jar (the package's own, as the issue names them) and main class. Classes of
# other packages the program refers to are absent: phantom, listed in the facts statistics.
# main_of PROGRAM, class_path_of PROGRAM: for xalan, checkstyle, antlr and hsqldb.
main_of() {
  case "$1" in
    xalan) echo org.apache.xalan.xslt.Process ;;
    checkstyle) echo com.puppycrawl.tools.checkstyle.Main ;;
    antlr) echo antlr.Tool ;;
    hsqldb) echo org.hsqldb.server.Server ;;
    *) echo "unknown program $1" >&2; exit 2 ;;
  esac
}
class_path_of() {
  case "$1" in
    xalan) echo /usr/share/java/xalan2.jar:/usr/share/java/serializer.jar ;;
    checkstyle) echo /usr/share/java/checkstyle.jar ;;
    antlr) echo /usr/share/java/antlr.jar ;;
    hsqldb) echo /usr/share/java/hsqldb.jar ;;
  esac
}


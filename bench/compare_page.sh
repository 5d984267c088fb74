#!/usr/bin/env bash
# Renders the page `refract compare` wrote (OUT/compare.html) to a PNG with headless Chromium,
# the way a person would see it, with the network shut off: a page that needed anything from
# elsewhere (a script, a font, a style sheet) shows it as missing. Installs Debian's
# `chromium` when it is missing. Not a test.
#
# Usage: bench/compare_page.sh OUT [PNG] [--width PX] [--height PX]
#        (PNG defaults to OUT/compare.png; the window is 1400 x 2400 unless given)
set -euo pipefail
cd "$(dirname "$0")/.."

out=
png=
width=1400
height=2400
while [ $# -gt 0 ]; do
  case "$1" in
    --width) width="$2"; shift 2 ;;
    --height) height="$2"; shift 2 ;;
    -*) sed -n '2,9p' "$0" >&2; exit 2 ;;
    *)
      if [ -z "$out" ]; then out="$1"; elif [ -z "$png" ]; then png="$1"; else
        sed -n '2,9p' "$0" >&2; exit 2
      fi
      shift ;;
  esac
done
[ -n "$out" ] || { sed -n '2,9p' "$0" >&2; exit 2; }
page="$out/compare.html"
[ -f "$page" ] || { echo "compare_page.sh: no $page (run refract compare --out $out first)" >&2; exit 1; }
[ -n "$png" ] || png="$out/compare.png"

. bench/lib.sh
install_packages chromium

# As root Chromium refuses its sandbox; every host name resolves to nothing, so nothing can be
# fetched.
sandbox=()
[ "$(id -u)" -eq 0 ] && sandbox=(--no-sandbox)
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless=new "${sandbox[@]}" --disable-gpu --hide-scrollbars \
  --user-data-dir="$profile" --host-resolver-rules="MAP * ~NOTFOUND" \
  --window-size="$width,$height" --screenshot="$(realpath -m "$png")" \
  "file://$(realpath "$page")" >&2
echo "$png"

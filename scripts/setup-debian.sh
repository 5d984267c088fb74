#!/usr/bin/env bash
# Installs the Debian packages that building and testing refract need.
#
# Idempotent: every package is checked with `dpkg -s` first, and apt-get is
# run (with one `apt-get update` before it) only when something is missing, so
# a second run on a prepared machine finishes in well under a second.
#
# Usage: scripts/setup-debian.sh          (as root, or with sudo available)
set -euo pipefail

packages=(
  build-essential              # g++, make
  cmake
  pkg-config
  libbdd-dev                   # BuDDy
  libzip-dev                   # reading jars and jmods
  libboost-program-options-dev # command line
  libgtest-dev                 # GoogleTest headers and libraries
  googletest                   # GoogleTest/GoogleMock sources
  openjdk-17-jdk-headless      # javac for the Java test fixtures
  libantlr-java                # antlr 2.7.7: the real program of the points-to invariant tests
)

installed() {
  # Like `dpkg -s`, but also rejects packages that were removed and left only
  # their configuration files: "install ok installed" is a full install.
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'
}

missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-debian: all ${#packages[@]} packages already installed"
  exit 0
fi

SUDO=
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup-debian: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi

echo "setup-debian: installing ${missing[*]}"
# env (not export) so that the setting survives sudo's environment reset.
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"

#!/bin/sh
# deps.sh - make sure the system packages fz needs to build and test are
# present.  As root it installs what is missing with apt-get; otherwise it
# prints the exact command to run and fails.
#
# FZ_DEPS_EXTRA adds packages (CI adds afl++ for the interop tests and
# benchmarks; fz itself never needs it).
set -eu

need="make gcc g++ gcc-12-plugin-dev clang llvm-dev check pkg-config $(printf %s "${FZ_DEPS_EXTRA:-}")"
missing=""
for p in $need; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "deps.sh: error: missing packages:$missing (no apt-get here; install them with your package manager)" >&2
    exit 1
fi
if [ "$(id -u)" != 0 ]; then
    echo "deps.sh: error: missing packages:$missing; run: sudo apt-get install -y$missing" >&2
    exit 1
fi
echo "deps.sh: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq $missing >&2

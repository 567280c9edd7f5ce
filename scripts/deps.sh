#!/bin/sh
# deps.sh - make sure the system packages fz needs to build and test are
# present.  As root it installs what is missing with apt-get, optional
# packages included; otherwise it prints the exact command to run, and fails
# only when a required package is missing.
#
# Required: the GCC path (gcc with its plugin headers, g++, make) and the
# unit-test framework.  Optional: clang and llvm-dev, the clang back end;
# zlib1g-dev, for the structure-aware example (testcases/lf_inflate.c);
# without them fz builds and works with gcc, and the clang tests skip with a
# message.  FZ_DEPS_EXTRA adds packages (CI adds afl++ for the interop tests
# and benchmarks; fz itself never needs it), treated as optional.
set -eu

gcc_major=$(gcc -dumpversion 2>/dev/null | cut -d. -f1)
required="make gcc g++ gcc-${gcc_major:-12}-plugin-dev check pkg-config"
optional="clang llvm-dev zlib1g-dev $(printf %s "${FZ_DEPS_EXTRA:-}")"

missing_of() {
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || printf ' %s' "$p"
    done
}
# Word splitting of the lists is wanted here.
# shellcheck disable=SC2086
missing_req=$(missing_of $required)
# shellcheck disable=SC2086
missing_opt=$(missing_of $optional)
[ -z "$missing_req$missing_opt" ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    how="sudo apt-get install -y"
    command -v apt-get >/dev/null 2>&1 || how="install with your package manager:"
    if [ -n "$missing_opt" ]; then
        echo "deps.sh: optional packages missing:$missing_opt; without them the clang back end is not built and its tests are skipped; for them: $how$missing_opt" >&2
    fi
    if [ -n "$missing_req" ]; then
        echo "deps.sh: error: missing packages:$missing_req; run: $how$missing_req" >&2
        exit 1
    fi
    exit 0
fi
echo "deps.sh: installing:$missing_req$missing_opt" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
# shellcheck disable=SC2086
apt-get install -y -qq $missing_req >&2
# Optional packages one by one: one that this mirror lacks must not stop
# the build (clang is not needed for it).
for p in $missing_opt; do
    apt-get install -y -qq "$p" >&2 || echo "deps.sh: could not install optional package $p; continuing without it" >&2
done

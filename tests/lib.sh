# tests/lib.sh - helpers sourced by the end-to-end scripts in tests/e2e/.
#
#   FZ_ROOT      the source tree;  FZ_BIN  its bin/ directory
#   FZ_TEST_CC   gcc or clang: the back end this run of a "# matrix: cc"
#                script tests (defaults to gcc)
#   T            a fresh scratch directory, removed on success
#   fzcc / fzcxx ARGS...   compile with fz-cc / fz-c++ for the back end
#   FZ_PLUGIN    the back end's plugin file in lib/fz
#   plaincc / plaincxx     the same compiler without fz
#   fail MSG / skip MSG / ok MSG
#   fz_tree_copy DIR   a copy of the built fz (bin/ with every fz-cc name,
#                lib/fz/) in DIR, for tests that doctor an install
#   fz_skip MSG  skip for a missing resource (network, package, tool) that CI
#                is expected to have: exit 77 normally, but fail when
#                FZ_TEST_STRICT=1 (set by .ci/run) so CI cannot pass by skipping
set -u
FZ_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$FZ_ROOT/scripts/debsrc.sh"
FZ_BIN=$FZ_ROOT/bin
FZ_TEST_CC=${FZ_TEST_CC:-gcc}
[ -n "$FZ_TEST_CC" ] || FZ_TEST_CC=gcc
export PATH=$FZ_BIN:$PATH
# A stray FZ_CC / FZ_CXX from the caller's environment would silently swap
# the compiler behind every fz-cc name a test runs; tests that want one set
# it themselves.
unset FZ_CC FZ_CXX

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
fz_skip() {
    case ${FZ_TEST_STRICT:-0} in
    "" | 0) skip "$@" ;;
    *) fail "$* (FZ_TEST_STRICT=$FZ_TEST_STRICT: CI must not skip this)" ;;
    esac
}
# fz_skip_part WHY: an optional part of a test cannot run here (say, a peer
# tool is missing); the rest of the test goes on.  A note locally, a
# failure under FZ_TEST_STRICT=1, where CI has installed everything.
fz_skip_part() {
    case ${FZ_TEST_STRICT:-0} in
    "" | 0) echo "note: $*" ;;
    *) fail "$* (FZ_TEST_STRICT=$FZ_TEST_STRICT: CI must not skip this)" ;;
    esac
}
ok() { echo "ok: $*"; }

T=$(mktemp -d "${TMPDIR:-/tmp}/fz-e2e.XXXXXX")
trap 'rc=$?; [ $rc = 0 ] || [ $rc = 77 ] && rm -rf "$T"; [ $rc = 0 ] || [ $rc = 77 ] || echo "scratch kept in $T" >&2' EXIT

# Each back end pins its compiler: a stray FZ_CC / FZ_CXX in the caller's
# environment must not turn a [clang] run into a gcc one or the reverse.
# FZ_PLUGIN is the lib/fz file the back end needs; a test needs nothing of
# the other back end's.
case $FZ_TEST_CC in
gcc)
    FZ_PLUGIN=fz-gcc-plugin.so
    fzcc() { FZ_CC=gcc "$FZ_BIN/fz-cc" "$@"; }
    fzcxx() { FZ_CXX=g++ "$FZ_BIN/fz-c++" "$@"; }
    plaincc() { gcc "$@"; }
    plaincxx() { g++ "$@"; }
    ;;
clang)
    FZ_PLUGIN=fz-llvm-pass.so
    command -v clang >/dev/null || fz_skip "[clang] clang is not installed (apt-get install clang llvm-dev); the gcc run covers the rest"
    [ -e "$FZ_ROOT/lib/fz/$FZ_PLUGIN" ] || fz_skip "[clang] lib/fz/$FZ_PLUGIN is not built (needs llvm-dev; see plugin/llvm.mk)"
    fzcc() { FZ_CC=clang "$FZ_BIN/fz-clang" "$@"; }
    fzcxx() { FZ_CXX=clang++ "$FZ_BIN/fz-clang++" "$@"; }
    plaincc() { clang "$@"; }
    plaincxx() { clang++ "$@"; }
    ;;
*) fail "FZ_TEST_CC must be gcc or clang, not '$FZ_TEST_CC'" ;;
esac

fz_tree_copy() {
    mkdir -p "$1/bin" "$1/lib/fz" || fail "cannot create $1"
    cp "$FZ_BIN/fz-cc" "$1/bin/fz-cc" || fail "bin/fz-cc is not built"
    for n in fz-c++ fz-clang fz-clang++; do ln -sf fz-cc "$1/bin/$n"; done
    cp "$FZ_ROOT"/lib/fz/* "$1/lib/fz/"
}

# Keep fz-cc's per-file report out of test logs unless asked for.
export FZ_QUIET=${FZ_QUIET:-1}

# fz_apt_source SRCPKG MARKER: sets fz_src to Debian's unpacked source of
# SRCPKG (a source package name), cached in tests/out/cache/SRCPKG/ and
# fetched (scripts/debsrc.sh) when no cached tree holds the file MARKER.
# Fetching needs root, apt and a deb-src entry (added here when the machine
# has none): each is something CI provides, so their absence is an fz_skip.
# Returns 1, with the tail of apt's log printed, when `apt-get source`
# itself fails (no network, or a mirror without that source package); the
# caller decides whether that may skip under CI.
fz_apt_source() {
    local pkg=$1 marker=$2 cache=$FZ_ROOT/tests/out/cache
    fz_src=$(ls -d "$cache/$pkg/$pkg"-*/ 2>/dev/null | head -n 1)
    fz_src=${fz_src%/}
    [ -n "$fz_src" ] && [ -e "$fz_src/$marker" ] && return 0
    [ "$(id -u)" = 0 ] || fz_skip "no cached $pkg source and not root: run once as root to fetch it with apt-get source"
    command -v apt-get >/dev/null || fz_skip "apt-get not available to fetch the $pkg source"
    fz_debsrc_enable 2>"$T/apt-$pkg.log" || fz_skip "$(cat "$T/apt-$pkg.log")"
    # One tree per package, unpacked from the package kept beside it.
    if ! fz_debsrc_unpack "$pkg" "$cache/$pkg.pkgs" "$cache/$pkg.tmp/$pkg-src" 2>"$T/apt-$pkg.log"; then
        sed 's/^/    /' "$T/apt-$pkg.log"
        rm -rf "$cache/$pkg.tmp"
        return 1
    fi
    rm -rf "$cache/$pkg" && mv "$cache/$pkg.tmp" "$cache/$pkg"
    fz_src=$(ls -d "$cache/$pkg/$pkg"-*/ | head -n 1)
    fz_src=${fz_src%/}
    [ -e "$fz_src/$marker" ] || fail "the $pkg source in $fz_src has no $marker"
}

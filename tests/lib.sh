# tests/lib.sh - helpers sourced by the end-to-end scripts in tests/e2e/.
#
#   FZ_ROOT      the source tree;  FZ_BIN  its bin/ directory
#   FZ_TEST_CC   gcc or clang: the back end this run of a "# matrix: cc"
#                script tests (defaults to gcc)
#   T            a fresh scratch directory, removed on success
#   fzcc / fzcxx ARGS...   compile with fz-cc / fz-c++ for the back end
#   plaincc / plaincxx     the same compiler without fz
#   fail MSG / skip MSG / ok MSG
#   fz_tree_copy DIR   a copy of the built fz (bin/ with every fz-cc name,
#                lib/fz/) in DIR, for tests that doctor an install
#   fz_skip MSG  skip for a missing resource (network, package, tool) that CI
#                is expected to have: exit 77 normally, but fail when
#                FZ_TEST_STRICT=1 (set by .ci/run) so CI cannot pass by skipping
set -u
FZ_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FZ_BIN=$FZ_ROOT/bin
FZ_TEST_CC=${FZ_TEST_CC:-gcc}
[ -n "$FZ_TEST_CC" ] || FZ_TEST_CC=gcc
export PATH=$FZ_BIN:$PATH

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
fz_skip() {
    case ${FZ_TEST_STRICT:-0} in
    "" | 0) skip "$@" ;;
    *) fail "$* (FZ_TEST_STRICT=$FZ_TEST_STRICT: CI must not skip this)" ;;
    esac
}
ok() { echo "ok: $*"; }

T=$(mktemp -d "${TMPDIR:-/tmp}/fz-e2e.XXXXXX")
trap 'rc=$?; [ $rc = 0 ] || [ $rc = 77 ] && rm -rf "$T"; [ $rc = 0 ] || [ $rc = 77 ] || echo "scratch kept in $T" >&2' EXIT

case $FZ_TEST_CC in
gcc)
    fzcc() { FZ_CC=gcc "$FZ_BIN/fz-cc" "$@"; }
    fzcxx() { FZ_CXX=g++ "$FZ_BIN/fz-c++" "$@"; }
    plaincc() { gcc "$@"; }
    plaincxx() { g++ "$@"; }
    ;;
clang)
    command -v clang >/dev/null || skip "clang is not installed (apt-get install clang llvm-dev)"
    [ -e "$FZ_ROOT/lib/fz/fz-llvm-pass.so" ] || skip "lib/fz/fz-llvm-pass.so is not built (needs llvm-dev)"
    fzcc() { "$FZ_BIN/fz-clang" "$@"; }
    fzcxx() { "$FZ_BIN/fz-clang++" "$@"; }
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

#!/bin/bash
# bench/buildcost.sh - what instrumenting costs at build time, fz beside
# the peers, per compile: the instructions each compiler executes to build
# one file (every process of it summed, by valgrind's cachegrind: the same
# count on an idle or a loaded machine) and the size of the object it
# writes, for the same source and flags.
#
#   bench/buildcost.sh [-C DIR] FLAGS... FILE.c
#   bench/buildcost.sh -C /tmp/pcre2/src -g -O2 -DHAVE_CONFIG_H \
#       -DPCRE2_CODE_UNIT_WIDTH=8 pcre2_match.c
#
# Rows (a row whose compiler is missing is left out):
#   clang                  the plain compiler
#   fz-clang               bin/fz-clang: edges and comparison logging, one build
#   fz-clang, edges only   FZ_NO_CMP=1
#   libFuzzer's            clang -fsanitize=fuzzer-no-link (8-bit counters,
#                          comparison tracing, PC table)
#   AFL++ afl-clang-fast   its default PCGUARD build (with -funroll-loops,
#                          which afl-cc adds)
#   AFL++ CmpLog build     AFL_LLVM_CMPLOG=1: the second build CmpLog needs
#   gcc, fz-cc             the same for the GCC plugin
# Ratios are against the plain compiler of the row's family.  AFL++ is
# found in BENCH_AFLPP (default /work/peers/build/aflpp/bin; bench/peers.sh
# builds it); its afl-cc and plugins carry DWARF 5 debug info that
# valgrind 3.19 cannot read, so the script runs stripped copies of them.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
dir=.
if [ "${1:-}" = -C ]; then
    dir=$2
    shift 2
fi
[ $# -ge 1 ] || { echo "usage: bench/buildcost.sh [-C DIR] FLAGS... FILE" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "buildcost: needs valgrind (apt-get install -y valgrind)" >&2; exit 1; }
cd "$dir" || exit 1
aflpp=${BENCH_AFLPP:-/work/peers/build/aflpp/bin}
w=$(mktemp -d "${TMPDIR:-/tmp}/fz-buildcost.XXXXXX")
trap 'rm -rf "$w"' EXIT

# A stripped copy of AFL++'s install (bin/afl-cc and lib/afl/*.so), laid
# out as afl-cc expects: it finds its plugins at bin/../lib/afl.
afl=""
if [ -x "$aflpp/afl-cc" ] && [ -d "$aflpp/../lib/afl" ]; then
    mkdir -p "$w/afl/bin" "$w/afl/lib"
    cp "$aflpp/afl-cc" "$w/afl/bin/" && cp -r "$aflpp/../lib/afl" "$w/afl/lib/" &&
        strip -g "$w/afl/bin/afl-cc" "$w/afl/lib/afl/"*.so 2>/dev/null &&
        ln -s afl-cc "$w/afl/bin/afl-clang-fast" && afl=$w/afl/bin/afl-clang-fast
fi

# cost ENV... -- COMPILER: "<instructions in millions> <object bytes>", or
# nothing when the compile failed (its first error line is in $w/err).
cost() {
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    rm -f "$w/o.o" "$w"/vg.*
    env FZ_QUIET=1 AFL_QUIET=1 "${envs[@]}" valgrind --tool=cachegrind --cache-sim=no \
        --cachegrind-out-file=/dev/null --trace-children=yes --log-file="$w/vg.%p" \
        "$@" "${args[@]}" -c -o "$w/o.o" >/dev/null 2>"$w/err" || return 0
    [ -s "$w/o.o" ] || return 0
    cat "$w"/vg.* | awk -v size="$(stat -c %s "$w/o.o")" '
        /I *refs/ { gsub(",", "", $NF); s += $NF }
        END { printf "%.0f %d\n", s / 1e6, size }'
}

args=("$@")
printf '%-24s %14s %8s %12s\n' "compiler" "instructions" ratio "object bytes"
base=""
row() { # LABEL ENV... -- COMPILER
    local label=$1
    shift
    local r
    r=$(cost "$@")
    if [ -z "$r" ]; then
        [ "$label" = clang ] || [ "$label" = gcc ] && base=""
        printf '%-24s %14s  %s\n' "$label" "failed" "$(grep -m1 . "$w/err")"
        return
    fi
    set -- $r
    [ "$label" = clang ] || [ "$label" = gcc ] && base=$1
    awk -v l="$label" -v i="$1" -v b="$base" -v s="$2" 'BEGIN {
        printf "%-24s %13sM %8s %12d\n", l, i, b ? sprintf("%.2fx", i / b) : "-", s }'
}

if command -v clang >/dev/null; then
    row clang -- clang
    row fz-clang -- "$here/bin/fz-clang"
    row "fz-clang, edges only" FZ_NO_CMP=1 -- "$here/bin/fz-clang"
    row "libFuzzer's" -- clang -fsanitize=fuzzer-no-link
    if [ -n "$afl" ]; then
        row "AFL++ afl-clang-fast" -- "$afl"
        row "AFL++ CmpLog build" AFL_LLVM_CMPLOG=1 -- "$afl"
    fi
fi
if command -v gcc >/dev/null; then
    row gcc -- gcc
    row fz-cc -- "$here/bin/fz-cc"
    row "fz-cc, edges only" FZ_NO_CMP=1 -- "$here/bin/fz-cc"
fi

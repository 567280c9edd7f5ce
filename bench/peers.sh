#!/usr/bin/env bash
# Build the peers fz is measured against -- AFL++ (4.2x) and honggfuzz --
# from their source trees into a prefix.  They are yardsticks for bench/,
# never dependencies of fz: nothing here is committed or linked into fz,
# and the source trees are only read (each is copied to a build dir first).
#
#   bash bench/peers.sh [AFLPP_SRC] [HONGGFUZZ_SRC]
#
#   AFLPP_SRC      default /work/peers/src/AFLplusplus
#   HONGGFUZZ_SRC  default /work/peers/src/honggfuzz   ("-" skips one)
#   PEERS_PREFIX   default /work/peers/build; installs go to
#                  $PEERS_PREFIX/aflpp and $PEERS_PREFIX/honggfuzz
#   LLVM_CONFIG    default llvm-config-14 (AFL++'s LLVM modes)
#   PEERS_JOBS     make -j (default 2)
#
# AFL++ is built with `make all` (afl-fuzz, the tools, afl-cc with its
# LLVM and GCC-plugin modes, libAFLDriver); QEMU, Unicorn, Nyx and Frida
# modes are not built (they need sources from the network).  honggfuzz
# needs libunwind-dev, binutils-dev (libbfd) and libblocksruntime-dev;
# the script says which is missing instead of failing half-way.
# Afterwards it prints where afl-fuzz, afl-cc, afl-clang-fast, honggfuzz
# and hfuzz-clang are; bench scripts find them through
# BENCH_AFLPP=$PEERS_PREFIX/aflpp/bin and BENCH_HFUZZ=$PEERS_PREFIX/honggfuzz/bin.
set -euo pipefail

aflsrc=${1:-/work/peers/src/AFLplusplus}
hfsrc=${2:-/work/peers/src/honggfuzz}
prefix=${PEERS_PREFIX:-/work/peers/build}
llvm_config=${LLVM_CONFIG:-llvm-config-14}
jobs=${PEERS_JOBS:-2}
work="$prefix/.work"

die() { echo "peers.sh: $*" >&2; exit 1; }

copy_tree() {   # copy a source tree to a fresh build dir, never touching the original
    local src=$1 dst=$2
    [ -d "$src" ] || die "no source tree at $src (pass its path as an argument)"
    rm -rf "$dst"
    mkdir -p "$dst"
    (cd "$src" && tar --exclude=.git -cf - .) | (cd "$dst" && tar -xf -)
}

build_aflpp() {
    command -v "$llvm_config" >/dev/null ||
        die "$llvm_config not found: install llvm-dev or set LLVM_CONFIG"
    local b="$work/aflpp" p="$prefix/aflpp"
    echo "== AFL++ from $aflsrc -> $p"
    copy_tree "$aflsrc" "$b"
    # NO_NYX: nyx needs a network fetch; the LLVM and GCC modes are what we use.
    (cd "$b" &&
        make -j"$jobs" all LLVM_CONFIG="$llvm_config" NO_NYX=1 >"$b.log" 2>&1 &&
        make install PREFIX="$p" LLVM_CONFIG="$llvm_config" NO_NYX=1 >>"$b.log" 2>&1) ||
        { tail -30 "$b.log" >&2; die "AFL++ build failed (log: $b.log)"; }
    # libAFLDriver.a is built by `make all` but not always installed.
    [ -e "$p/lib/afl/libAFLDriver.a" ] || cp "$b/libAFLDriver.a" "$p/lib/afl/" 2>/dev/null || true
    grep -E '^\[[-+]\]' "$b.log" | sort -u || true
    "$p/bin/afl-fuzz" -h 2>&1 | grep -m1 -o 'afl-fuzz++[0-9a-z.]*' || true
}

build_honggfuzz() {
    local missing=
    [ -n "$(find /usr/include -maxdepth 2 -name libunwind-ptrace.h)" ] || missing="$missing libunwind-dev"
    [ -e /usr/include/bfd.h ] || missing="$missing binutils-dev"
    [ -e /usr/include/Block.h ] || missing="$missing libblocksruntime-dev"
    [ -z "$missing" ] || die "honggfuzz needs:$missing (apt-get install -y$missing)"
    local b="$work/honggfuzz" p="$prefix/honggfuzz"
    echo "== honggfuzz from $hfsrc -> $p"
    copy_tree "$hfsrc" "$b"
    (cd "$b" &&
        make -j"$jobs" >"$b.log" 2>&1 &&
        make install PREFIX="$p" >>"$b.log" 2>&1) ||
        { tail -30 "$b.log" >&2; die "honggfuzz build failed (log: $b.log)"; }
}

mkdir -p "$work"
[ "$aflsrc" = - ] || build_aflpp
[ "$hfsrc" = - ] || build_honggfuzz

echo "== installed"
for f in aflpp/bin/afl-fuzz aflpp/bin/afl-cc aflpp/bin/afl-clang-fast aflpp/bin/afl-gcc-fast \
         aflpp/lib/afl/libAFLDriver.a honggfuzz/bin/honggfuzz honggfuzz/bin/hfuzz-clang \
         honggfuzz/bin/hfuzz-gcc; do
    if [ -e "$prefix/$f" ]; then echo "  $prefix/$f"; else echo "  (missing) $prefix/$f"; fi
done

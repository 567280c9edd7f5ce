#!/bin/bash
# fzcc_debug_opt.sh - fz-cc builds at every optimisation level, with and
# without -g, with no compiler crash and no fallback (issue 19: GCC's
# comparison pass crashed under -g -O1 and up, autotools' default flags).
# testcases/cmp_debug_labels.c has the shapes that crashed (loops of
# compares with user labels the optimiser removes); each build must hook
# comparisons and print what the plain build prints.  Then zlib's
# inffast.c, inflate.c and deflate.c from Debian's source (the first file
# of issue 19), when the source can be fetched.
# matrix: cc
. "$(dirname "$0")/../lib.sh"

cd "$T"
export FZ_CC_NO_FALLBACK=1 FZ_CC_FALLBACK_LOG=$T/fallback.log
src=$FZ_ROOT/testcases/cmp_debug_labels.c
printf 'ab<c&dE%%x\rBq\x03\x05\x06END&<<\r%%%%EEx{' >in1
head -c 3000 "$FZ_ROOT/testcases/cmp_debug_labels.c" >in2
flagsets=("-O0" "-O0 -g" "-O1" "-O1 -g" "-O2" "-O2 -g" "-O3" "-O3 -g" "-Os" "-Os -g")
for fl in "${flagsets[@]}"; do
    tag=${fl// /}
    plaincc $fl "$src" -o plain$tag || fail "plain $FZ_TEST_CC $fl cannot build $src"
    FZ_QUIET=0 fzcc $fl "$src" -o fz$tag 2>log$tag || fail "fz-cc $fl: $(grep -m3 -e error -e 'internal compiler' log$tag)"
    grep -q 'comparison sites hooked' log$tag || fail "fz-cc $fl hooked no comparisons: $(cat log$tag)"
    for i in 1 2; do
        ./plain$tag <in$i >p$i || fail "plain$tag failed on in$i"
        ./fz$tag <in$i >f$i || fail "fz$tag failed on in$i"
        cmp -s p$i f$i || fail "fz-cc $fl: output differs from plain on in$i: $(diff p$i f$i)"
    done
done
[ -e fallback.log ] && fail "fallbacks logged: $(cat fallback.log)"
ok "cmp_debug_labels.c at ${#flagsets[@]} flag sets: built, comparisons hooked, same output as plain"

# GCC collects garbage between functions once its heap has grown enough:
# in sqlite3.c with -g -O2 it did, and the plugin's trees kept from one
# function to the next (__fz_area, the counter type, the comparison
# flag and hook declarations) were not GC roots, so their memory came
# back as other nodes and a later pass crashed (make_ssa_name_fn,
# reload, recog: a different function each run).  These params make GCC
# collect at every chance, so even this small file shows it.
if [ "$FZ_TEST_CC" = gcc ]; then
    for fl in "${flagsets[@]}"; do
        tag=gc${fl// /}
        fzcc $fl --param ggc-min-expand=0 --param ggc-min-heapsize=0 "$src" -o fz$tag 2>log$tag ||
            fail "fz-cc $fl with GC at every chance: $(grep -m3 -e error -e 'internal compiler' log$tag)"
        ./fz$tag <in1 >f1 || fail "fz$tag failed on in1"
        ./plain${fl// /} <in1 >p1 && cmp -s p1 f1 || fail "fz-cc $fl with GC at every chance: output differs from plain"
    done
    [ -e fallback.log ] && fail "fallbacks logged: $(cat fallback.log)"
    ok "cmp_debug_labels.c with GCC collecting garbage at every chance, ${#flagsets[@]} flag sets"
fi

if ! fz_apt_source zlib inffast.c; then
    fz_skip_part "apt-get source zlib failed (no network?): the zlib files were not compiled"
    exit 0
fi
for f in inffast.c inflate.c deflate.c; do
    for fl in "${flagsets[@]}"; do
        fzcc $fl -D_LARGEFILE64_SOURCE=1 -I"$fz_src" -c "$fz_src/$f" -o z.o 2>zlog ||
            fail "fz-cc $fl -c zlib's $f: $(grep -m3 -e error -e 'internal compiler' zlog)"
    done
done
[ -e fallback.log ] && fail "fallbacks logged: $(cat fallback.log)"
ok "zlib inffast.c inflate.c deflate.c at ${#flagsets[@]} flag sets"

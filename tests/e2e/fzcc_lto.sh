#!/bin/bash
# fzcc_lto.sh - -flto builds are instrumented.  With GCC the code of an
# -flto object is generated at link time by lto1, so fz-cc adds the plugin
# to link steps; with clang the pass runs before the bitcode is written.
# Each build's coverage map must be non-empty and input-dependent, and its
# output the plain build's: compile and link apart, in one step, with
# several LTRANS partitions, and (GCC) LTO objects linked without -flto.
# matrix: cc
. "$(dirname "$0")/../lib.sh"

[ -x "$FZ_BIN/fz-showmap" ] || fz_skip "bin/fz-showmap is not built"
cd "$T"
cp "$FZ_ROOT/testcases/cov_c.c" .
# A second unit, so that partitions and cross-unit inlining happen.
cat >extra.c <<'EOF2'
#include <stdio.h>
int extra_check(const unsigned char *b, unsigned long n)
{
    if (n > 3 && b[3] == '!') {
        fputs("bang\n", stderr);
        return 1;
    }
    return 0;
}
EOF2
sed 's/^int main(/int cov_main(/' cov_c.c >cov_lib.c
cat >main2.c <<'EOF2'
int cov_main(int argc, char **argv);
int extra_check(const unsigned char *b, unsigned long n);
int main(int argc, char **argv)
{
    extra_check((const unsigned char *)argv[0], 0);
    return cov_main(argc, argv);
}
EOF2
grep -q '^int cov_main(' cov_lib.c || fail "cov_c.c has no 'int main(' line to rename"
printf 'FUZ!' >in1
printf 'srs7x' >in2
plaincc -O2 cov_c.c -o plain || fail "plain build failed"
plaincc -O2 -flto cov_c.c -o plain_lto 2>/dev/null || fz_skip "plain $FZ_TEST_CC cannot link with -flto here"

# check NAME: same output as plain, non-empty and input-dependent map.
check() {
    for i in 1 2; do
        ./plain <in$i >p$i 2>&1
        echo "status=$?" >>p$i
        ./$1 <in$i >f$i 2>&1
        echo "status=$?" >>f$i
        cmp -s p$i f$i || fail "$1: output differs from plain: $(diff p$i f$i)"
        "$FZ_BIN/fz-showmap" -q -o $1.m$i -- ./$1 <in$i
    done
    [ -s $1.m1 ] || fail "$1: empty coverage map (not instrumented)"
    cmp -s $1.m1 $1.m2 && fail "$1: two inputs give the same map"
    echo "$1: $(wc -l <$1.m1) / $(wc -l <$1.m2) slots lit"
}

FZ_QUIET=0 fzcc -O2 -flto -c cov_c.c -o c.o 2>c.log || fail "-flto compile failed: $(cat c.log)"
if [ $FZ_TEST_CC = gcc ]; then
    grep -q 'fz-cc: cov_c.c: -flto: edges are instrumented at the link step' c.log ||
        fail "the -flto compile does not say instrumentation is deferred: $(cat c.log)"
fi
FZ_QUIET=0 fzcc -O2 -flto c.o -o apart 2>apart.log || fail "-flto link failed: $(cat apart.log)"
[ $FZ_TEST_CC = gcc ] && { grep -q 'edges instrumented in .* (-flto link)' apart.log ||
    fail "the -flto link does not report its edges: $(cat apart.log)"; }
ok "$FZ_TEST_CC -flto, compile and link apart: $(check apart)"

fzcc -O2 -flto cov_c.c -o onestep || fail "-flto in one step failed"
ok "$FZ_TEST_CC -flto in one step: $(check onestep)"

if [ $FZ_TEST_CC = gcc ]; then
    part="-flto-partition=max"
else
    part="-flto=thin"
fi
for f in cov_lib.c extra.c main2.c; do
    fzcc -O2 -flto $part -c $f -o ${f%.c}.o || fail "$part compile of $f failed"
done
FZ_QUIET=0 fzcc -O2 -flto $part cov_lib.o extra.o main2.o -o parts 2>parts.log || fail "$part link failed: $(cat parts.log)"
if [ $FZ_TEST_CC = gcc ]; then
    n=$(grep -c '(-flto link)' parts.log)
    [ "$n" -ge 2 ] || fail "expected several LTRANS partitions, each instrumented: $(cat parts.log)"
fi
ok "$FZ_TEST_CC $part, three units: $(check parts)"

if [ $FZ_TEST_CC = gcc ]; then
    # GCC's linker plugin does LTO even when the link line has no -flto.
    fzcc -O2 c.o -o nolto || fail "link of -flto objects without -flto failed"
    ok "gcc -flto objects linked without -flto: $(check nolto)"
fi
exit 0

#!/bin/bash
# llvm_msan.sh - MemorySanitizer (clang only; GCC has none) works with fz's
# instrumentation although fz-rt.o is not built with MSan: a fz-clang
# -fsanitize=memory build of testcases/cov_c.c behaves like the plain MSan
# build, and a persistent shared-memory harness with a planted read of
# uninitialised heap memory runs clean on valid inputs (no false reports
# from the runtime's buffers or return values), crashes on the bad one
# under fz-showmap, and fz-fuzz finds it.
# Clang only: lib.sh's fzcc is then fz-clang (and it skips without clang).
FZ_TEST_CC=clang
. "$(dirname "$0")/../lib.sh"

for b in fz-showmap fz-fuzz; do [ -x "$FZ_BIN/$b" ] || fz_skip "bin/$b is not built"; done
cd "$T"

# --- a plain program: same behaviour as the plain MSan build -------------
clang -g -O1 -fsanitize=memory "$FZ_ROOT/testcases/cov_c.c" -o plain ||
    fz_skip "clang cannot build with -fsanitize=memory here"
fzcc -g -O1 -fsanitize=memory "$FZ_ROOT/testcases/cov_c.c" -o fz || fail "fz-clang -fsanitize=memory failed"
printf 'FUZ!' >in1
printf 'srs7x' >in2
for i in 1 2; do
    { ./plain <in$i; echo "status=$?"; } >p$i 2>&1
    { ./fz <in$i; echo "status=$?"; } >f$i 2>&1
    cmp -s p$i f$i || fail "MSan cov_c: output differs from plain MSan: $(diff p$i f$i)"
    "$FZ_BIN/fz-showmap" -q -o m$i -- ./fz <in$i || fail "fz-showmap: MSan build did not run normally on in$i"
done
[ -s m1 ] && ! cmp -s m1 m2 || fail "MSan build: empty or input-independent map"
ok "fz-clang -fsanitize=memory cov_c.c: output as plain MSan, $(wc -l <m1) / $(wc -l <m2) slots"

# --- persistent + shared-memory harness with an uninitialised read --------
cat >h.c <<'EOF2'
#include <stdlib.h>
#include <unistd.h>
__AFL_FUZZ_INIT();
int main(void)
{
    __AFL_INIT();
    unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
    while (__AFL_LOOP(1000)) {
        int len = __AFL_FUZZ_TESTCASE_LEN;
        int *v = malloc(4 * sizeof(int));
        v[0] = 1;
        /* "U" reads v[2], which was never written. */
        int i = len > 0 && buf[0] == 'U' ? 2 : 0;
        if (v[i] == 1)
            write(1, "one\n", 4);
        else if (len > 1 && buf[1] == 'x')
            write(1, "x\n", 2);
        free(v);
    }
    return 0;
}
EOF2
fzcc -g -O1 -fsanitize=memory h.c -o h || fail "MSan persistent harness does not build"
[ "$(printf ab | ./h)" = one ] || fail "MSan harness: wrong output outside the fuzzer"
printf U | ./h >/dev/null 2>err && fail "MSan missed the uninitialised read"
grep -q 'MemorySanitizer: use-of-uninitialized-value' err || fail "no MSan report: $(head -3 err)"
printf ax | "$FZ_BIN/fz-showmap" -q -o hm1 -- ./h || fail "fz-showmap: valid input did not run normally (false MSan report?)"
printf U | "$FZ_BIN/fz-showmap" -q -o hm2 -- ./h
[ $? = 3 ] || fail "fz-showmap did not see the MSan crash"
ok "MSan harness: clean on a valid input, crash on the uninitialised read, under fz-showmap"

mkdir seeds && printf ab >seeds/a
"$FZ_BIN/fz-fuzz" -q -i seeds -o out -s 1 -E 3000 -- ./h >fuzz.log 2>&1
[ $? = 3 ] || fail "fz-fuzz did not report the MSan crash: $(tail -3 fuzz.log)"
for c in out/default/crashes/id:*; do
    [ "$(head -c 1 "$c")" = U ] || fail "crash $c is not the planted bug: $(od -c "$c" | head -2)"
done
ok "fz-fuzz finds the MSan bug: $(ls out/default/crashes | grep -c '^id:') crash(es), all the planted one"
